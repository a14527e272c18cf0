// particles: traces particles through a steady flow over the unit cube cut
// into blocks, moving them between blocks either by rounds of
// dash::bp::Master::exchange() or by one iexchange(), with slow blocks on
// the diagonal of the block grid (the IExchange paper's synthetic
// experiment). The kernel is in workloads/particles/particles.h.
//
// Run (--help lists the options):
//   mpirun -n 4 build/openmpi/examples/particles --protocol iexchange
//       --blocks-per-unit 8 --slow-ratio 10 [--seeding inflow]
// Unit 0 prints the parameters, the counts, and last
//   time_s=<seconds> particles=<retired> checksum=<hex>
// where particles and checksum do not depend on the protocol, the blocks per
// unit, the unit count or the thread count.
#include <libdash.h>
#include <unistd.h>
#include <workloads/particles/particles.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <string>

#include "../common/Args.h"
#include "../common/Errors.h"
#include "../common/Memory.h"
#include "../common/Progress.h"
#include "../common/Report.h"

namespace {

const char* const kProgram = "particles";

const char* const kUsage =
    "usage: particles [options]\n"
    "Traces particles (a lattice of seeds^3 over the unit cube, or in a thin slab at\n"
    "its inflow face x = 0) through a steady flow along +x with RK4, on\n"
    "blocks-per-unit x units blocks; blocks on the diagonal of the block grid\n"
    "compute each step slow-ratio times. Prints\n"
    "  time_s=<seconds> particles=<retired> checksum=<hex>\n"
    "last; particles and checksum are the same for any protocol, blocks per unit,\n"
    "unit count, thread count, assignment and x-divisions.\n"
    "\n"
    "  --protocol P         exchange (rounds of foreach + exchange) or iexchange\n"
    "                       (default: iexchange)\n"
    "  --blocks-per-unit B  blocks per unit, >= 1 (default: 8)\n"
    "  --slow-ratio R       cost of a step in a diagonal block, in steps, >= 1\n"
    "                       (default: 10)\n"
    "  --threads T          threads running the blocks of a unit, >= 1 (default: 1)\n"
    "  --mem-blocks M       blocks per unit kept in memory, 1 .. B; the others wait\n"
    "                       in the unit's spill directory (DASH_OOC_DIR) (default: B)\n"
    "  --seeds S            seeds per axis: S^3 particles, >= 1 (default: 48)\n"
    "  --max-steps N        steps after which a particle retires, >= 0\n"
    "                       (default: 2000)\n"
    "  --step-size H        RK4 step, 0 < H <= 1 (default: 0.01)\n"
    "  --chunk C            iexchange: particles a block advects per callback before\n"
    "                       sending what left it, 0 = all (default: 0)\n"
    "  --seeding S          volume (the lattice fills the cube) or inflow (it fills\n"
    "                       the slab x < 1/64, so the particles travel as a front\n"
    "                       along x) (default: volume)\n"
    "  --assignment A       how blocks are dealt to units: contiguous (a unit holds a\n"
    "                       run of block ids, i.e. neighbouring x-layers) or\n"
    "                       round-robin (default: contiguous)\n"
    "  --x-divisions D      blocks along x, dividing the block count; 0 lets the\n"
    "                       decomposer choose near-cubic blocks (default: 0). More\n"
    "                       x-layers put more blocks on the diagonal (all of them\n"
    "                       when D is the block count), so the work changes too\n"
    "  --stop-after K       exchange: stop after K exchange rounds (or at the end if\n"
    "                       it comes first) and save every block with its queues\n"
    "                       to --save PATH; the last line is then\n"
    "                       'saved_after_rounds=<k> path=<PATH>'\n"
    "  --save PATH          where --stop-after saves (dash::bp::save)\n"
    "  --restart PATH       continue a saved run (any protocol; any unit count and\n"
    "                       blocks per unit giving the saved block count) instead\n"
    "                       of seeding: it ends with the uninterrupted run's\n"
    "                       particles and checksum\n"
    "  --verbose            also print each unit's peak resident memory and the\n"
    "                       bytes its blocks moved to and from storage\n"
    "  --progress           show the phase and its time on stderr (without it: only\n"
    "                       where stderr is a terminal, which a launcher's is not)\n"
    "  --help               print this text\n"
    "\n"
    "Options also take the form --option=VALUE.\n";

struct Options {
  particles::Protocol protocol = particles::Protocol::iexchange;
  int blocks_per_unit = 8;
  int threads = 1;
  int mem_blocks = 0;  // 0: all blocks in memory
  particles::Config config;
  bool verbose = false;
  bool help = false;
  bool progress = false;
  int stop_after = 0;  // 0: no checkpoint
  std::string save_path, restart_path;
};

using examples::UsageError;

// The integer in `value` for `option`, within [min, max].
int parse_int(const std::string& option, const std::string& value, long min, long max) {
  try {
    return int(examples::parse_integer(option, value, min, max));
  } catch (const UsageError&) {
    throw UsageError(option + ": '" + value + "' is not an integer in [" + std::to_string(min) +
                     ", " + std::to_string(max) + "]");
  }
}

// The number in `value` for `option`, within (0, max].
double parse_positive(const std::string& option, const std::string& value, double max) {
  const auto fail = [&] {
    return UsageError(option + ": '" + value + "' is not a number in (0, " + std::to_string(max) +
                      "]");
  };
  double v = 0;
  try {
    v = examples::parse_real(option, value);
  } catch (const UsageError&) {
    throw fail();
  }
  if (!(v > 0) || !(v <= max)) throw fail();
  return v;
}

// Reads the command line; throws UsageError naming the option at fault.
Options parse_args(int argc, char** argv) {
  Options o;
  // This program words these as "--x needs a value" and "--x takes no value".
  const examples::Wording wording{" takes no value", " needs a value"};
  examples::for_each_option(argc, argv, wording, [&](examples::Option& opt) {
    const std::string& arg = opt.name();
    if (arg == "--help" || arg == "-h") {
      opt.flag();
      o.help = true;
    } else if (arg == "--progress") {
      opt.flag();
      o.progress = true;
    } else if (arg == "--verbose") {
      opt.flag();
      o.verbose = true;
    } else if (arg == "--protocol") {
      const std::string p = opt.value();
      if (p == "exchange") {
        o.protocol = particles::Protocol::exchange;
      } else if (p == "iexchange") {
        o.protocol = particles::Protocol::iexchange;
      } else {
        throw UsageError("--protocol: unknown protocol '" + p +
                         "' (expected exchange or iexchange)");
      }
    } else if (arg == "--blocks-per-unit") {
      o.blocks_per_unit = parse_int(arg, opt.value(), 1, 1 << 16);
    } else if (arg == "--slow-ratio") {
      o.config.slow_ratio = parse_int(arg, opt.value(), 1, 1 << 20);
    } else if (arg == "--threads") {
      o.threads = parse_int(arg, opt.value(), 1, 256);
    } else if (arg == "--mem-blocks") {
      o.mem_blocks = parse_int(arg, opt.value(), 1, 1 << 16);
    } else if (arg == "--seeds") {
      o.config.seeds = parse_int(arg, opt.value(), 1, 1000);
    } else if (arg == "--max-steps") {
      o.config.max_steps = parse_int(arg, opt.value(), 0, 1 << 30);
    } else if (arg == "--step-size") {
      o.config.step_size = parse_positive(arg, opt.value(), 1.0);
    } else if (arg == "--chunk") {
      o.config.chunk = parse_int(arg, opt.value(), 0, 1 << 30);
    } else if (arg == "--seeding") {
      const std::string v = opt.value();
      if (v == "volume") {
        o.config.seeding = particles::Seeding::volume;
      } else if (v == "inflow") {
        o.config.seeding = particles::Seeding::inflow;
      } else {
        throw UsageError("--seeding: unknown seeding '" + v + "' (expected volume or inflow)");
      }
    } else if (arg == "--assignment") {
      const std::string v = opt.value();
      if (v == "contiguous") {
        o.config.assignment = dash::bp::Assignment::contiguous;
      } else if (v == "round-robin") {
        o.config.assignment = dash::bp::Assignment::round_robin;
      } else {
        throw UsageError("--assignment: unknown assignment '" + v +
                         "' (expected contiguous or round-robin)");
      }
    } else if (arg == "--x-divisions") {
      o.config.x_divisions = parse_int(arg, opt.value(), 0, 1 << 16);
    } else if (arg == "--stop-after") {
      o.stop_after = parse_int(arg, opt.value(), 1, 1 << 30);
    } else if (arg == "--save") {
      o.save_path = opt.value();
    } else if (arg == "--restart") {
      o.restart_path = opt.value();
    } else if (arg.compare(0, 1, "-") == 0) {
      throw UsageError("unknown option '" + arg + "'");
    } else {
      throw UsageError("unexpected argument '" + arg + "'");
    }
  });
  if (o.stop_after > 0 && o.save_path.empty()) throw UsageError("--stop-after needs --save PATH");
  if (o.stop_after == 0 && !o.save_path.empty()) throw UsageError("--save needs --stop-after K");
  if (o.stop_after > 0 && o.protocol != particles::Protocol::exchange)
    throw UsageError("--stop-after needs --protocol exchange (iexchange has no rounds)");
  return o;
}

// Bytes the run may need at its peak, over all units: every particle held about twice (a
// block's vector while it grows, queues and messages in flight).
double bytes_needed(const particles::Config& config) {
  return 2.0 * std::pow(double(config.seeds), 3) * double(sizeof(particles::Particle));
}

// Traces with the options' protocol; unit 0 prints the parameters, the
// counts and the result line.
void trace(const Options& o) {
  const bool root = dash::myid().id == 0;
  const int units = int(dash::size());
  std::unique_ptr<particles::Tracer> made;
  try {
    made = std::make_unique<particles::Tracer>(o.blocks_per_unit, o.config, dash::Team::All(),
                                               o.restart_path.empty());
  } catch (const dash::exception::InvalidArgument& e) {
    // The decomposer rejects the block count (more blocks along an axis than it has cells, or
    // --x-divisions not dividing it): a bad command line, alike on every unit.
    throw UsageError(e.what());
  }
  particles::Tracer& tracer = *made;
  tracer.threads(o.threads);
  if (o.mem_blocks > o.blocks_per_unit)
    throw UsageError("--mem-blocks: " + std::to_string(o.mem_blocks) +
                     " exceeds --blocks-per-unit " + std::to_string(o.blocks_per_unit));
  if (o.mem_blocks > 0) tracer.master().limit(std::size_t(o.mem_blocks));
  if (o.stop_after > 0) tracer.checkpoint(o.stop_after, o.save_path);
  if (!o.restart_path.empty())
    examples::agreed_or_usage_error("--restart", [&] { tracer.restart(o.restart_path); });
  const auto& div = tracer.decomposer().divisions();
  if (root) {
    std::printf(
        "particles: protocol=%s units=%d blocks=%d (%dx%dx%d) blocks_per_unit=%d "
        "slow_ratio=%d threads=%d seeds=%d^3 max_steps=%d step_size=%g chunk=%d seeding=%s "
        "assignment=%s\n",
        particles::name(o.protocol), units, tracer.decomposer().nblocks(), div[0], div[1], div[2],
        o.blocks_per_unit, o.config.slow_ratio, o.threads, o.config.seeds, o.config.max_steps,
        o.config.step_size, o.config.chunk, particles::name(o.config.seeding),
        particles::name(o.config.assignment));
    std::fflush(stdout);
  }
  examples::Progress progress(kProgram, o.progress);
  progress.phase(std::string("tracing (") + particles::name(o.protocol) + ")");
  const particles::Result r = tracer.run(o.protocol);
  progress.done();
  if (o.verbose) {
    const dash::bp::SpillCounters moved = tracer.master().spill_counters();
    const std::uint64_t read = examples::sum_over_units(moved.bytes_read, kProgram);
    const std::uint64_t written = examples::sum_over_units(moved.bytes_written, kProgram);
    examples::print_peak_memory(kProgram, true, tracer.master().resident_blocks(),
                                tracer.master().size(), "blocks");
    if (root) {
      std::printf("particles: storage bytes_read=%" PRIu64 " bytes_written=%" PRIu64 "\n", read,
                  written);
      std::fflush(stdout);
    }
  }
  if (root) {
    // Counts, then CPU seconds (advecting; everything else, e.g. messages
    // and spinning waits), then the least wall time the CPU seconds allow
    // (particles.h, Result): max(busiest unit, total / cores) for any
    // protocol, the sum of that per round for exchange, and their quotient,
    // the most any protocol can gain over exchange here (at most the core
    // count, reached when each round of exchange keeps one core busy).
    std::printf("steps=%" PRId64 " handoffs=%" PRId64, r.steps, r.handoffs);
    if (o.protocol == particles::Protocol::exchange) std::printf(" rounds=%d", r.rounds);
    std::printf(" | cpu_s: advect=%.3f busiest_unit=%.3f other=%.3f | least_time_s on %d cores:",
                r.cpu_total, r.cpu_busiest_unit, r.cpu_other, r.cores);
    std::printf(" any_protocol=%.3f", r.bound_any);
    if (o.protocol == particles::Protocol::exchange) {
      std::printf(" exchange=%.3f", r.bound_exchange);
      if (r.bound_any > 0) std::printf(" exchange_over_any=%.2f", r.bound_exchange / r.bound_any);
    }
    if (r.saved)
      std::printf("\nsaved_after_rounds=%d path=%s\n", r.rounds, o.save_path.c_str());
    else
      std::printf("\ntime_s=%.6f particles=%" PRId64 " checksum=%016" PRIx64 "\n", r.seconds,
                  r.retired, r.checksum);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  return examples::run_with_options(
      kProgram, kUsage, &argc, &argv, parse_args, [](const Options& o) {
        // Checked up front, alike on every unit: running out of memory midway would hit one unit.
        examples::check_fits(
            "--seeds " + std::to_string(o.config.seeds),
            std::to_string(std::int64_t(std::pow(double(o.config.seeds), 3))) + " particles",
            bytes_needed(o.config));
        try {
          trace(o);
        } catch (const std::bad_alloc&) {
          // Beyond the check above (e.g. particles crowding into one unit): may hit this unit only.
          examples::abort_run(kProgram,
                              "out of memory (std::bad_alloc): try fewer --seeds or more nodes");
        }
        return 0;
      });
}
