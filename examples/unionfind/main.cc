// unionfind: connected components of the cells of a 3-D grid whose
// synthetic field exceeds a threshold, computed block-parallel with
// dash::bp: a union-find per block, then label updates across block faces
// moved by Master::exchange() rounds or by Master::iexchange() (the
// algorithm is in workloads/unionfind/unionfind.h).
//
// Run (--help lists the options):
//   mpirun -n 4 build/openmpi/examples/unionfind --protocol iexchange --grid 128,128,128 --check
// Every unit builds its blocks from the same arguments; unit 0 prints, last,
//   time_s=<seconds> components=<count>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <workloads/unionfind/unionfind.h>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "../common/Args.h"
#include "../common/Errors.h"
#include "../common/Report.h"

namespace {

const char* const kProgram = "unionfind";

const char* const kUsage =
    "usage: unionfind [options]\n"
    "Counts the connected components of the cells of an X x Y x Z grid whose\n"
    "synthetic field exceeds a threshold (face-adjacent cells connect), on\n"
    "blocks spread over all units (run it under MPI on the unit count you want).\n"
    "\n"
    "  --protocol P          exchange (rounds of Master::exchange until an all-reduce\n"
    "                        says nothing changed) or iexchange (Master::iexchange,\n"
    "                        updates sent only when labels change) (default: exchange)\n"
    "  --grid X,Y,Z          grid extents in cells (default: 320,320,320)\n"
    "  --blocks-per-unit B   blocks per unit; B x units blocks in all (default: 2)\n"
    "  --field F             waves (sines, bumps and noise) or spiral (a helical\n"
    "                        band around the z axis) (default: waves)\n"
    "  --threshold T         cells with a field value above T are selected\n"
    "                        (default: 0.3; the field lies within about [-2, 2])\n"
    "  --seed S              seed of the field (default: 1)\n"
    "  --threads N           threads running the blocks of a unit (default: 1)\n"
    "  --mem-blocks M        blocks per unit kept in memory, 1 .. B; the others wait\n"
    "                        in the unit's spill directory (DASH_OOC_DIR), and unit 0\n"
    "                        prints the bytes they moved (default: B)\n"
    "  --check               also run a serial union-find over the whole grid on\n"
    "                        unit 0 and fail (exit 1) unless the component count and\n"
    "                        every cell's label (the smallest cell id of its\n"
    "                        component; compared through a digest per block) agree;\n"
    "                        UNIONFIND_CHECK=1 in the environment does the same\n"
    "  --stop-after K        exchange: stop after K exchange rounds of the merge (or\n"
    "                        at its end, if it comes first) and save every block\n"
    "                        with its queues to --save PATH; the last line is then\n"
    "                        'saved_after_rounds=<k> path=<PATH>'\n"
    "  --save PATH           where --stop-after saves (dash::bp::save)\n"
    "  --restart PATH        continue a saved merge (any protocol; any unit count and\n"
    "                        blocks per unit giving the saved block count): it ends\n"
    "                        with the uninterrupted run's component count\n"
    "  --help                print this text\n"
    "\n"
    "Options also take the form --option=VALUE. Unit 0 prints the run, the check\n"
    "and, last, 'time_s=<seconds> components=<count>', where time_s covers the\n"
    "local union-finds, the merge across blocks and the count (not the field).\n";

struct Options {
  unionfind::Config config;
  unionfind::Protocol protocol = unionfind::Protocol::exchange;
  bool check = false;
  bool help = false;
  int stop_after = 0;  // 0: no checkpoint
  std::string save_path, restart_path;
};

using examples::UsageError;

// X,Y,Z: three positive integers whose product fits one block index.
unionfind::Coords parse_grid(const std::string& text) {
  std::vector<std::string> parts(1);
  for (char c : text) {
    if (c == ',')
      parts.emplace_back();
    else
      parts.back() += c;
  }
  if (parts.size() != 3)
    throw UsageError("--grid: expected X,Y,Z (three positive integers), got '" + text + "'");
  unionfind::Coords grid;
  long long cells = 1;
  constexpr long long kMaxCells = 2147483647;  // local indices are 32-bit
  for (std::size_t d = 0; d < 3; ++d) {
    grid[d] = long(examples::parse_integer("--grid", parts[d], 1, kMaxCells));
    cells *= grid[d];
    if (cells > kMaxCells)
      throw UsageError("--grid: '" + text + "' has more than " + std::to_string(kMaxCells) +
                       " cells");
  }
  return grid;
}

Options parse_args(int argc, char* argv[]) {
  Options o;
  examples::for_each_option(argc, argv, [&](examples::Option& opt) {
    const std::string& arg = opt.name();
    if (arg == "--help") {
      opt.flag();
      o.help = true;
    } else if (arg == "--check") {
      opt.flag();
      o.check = true;
    } else if (arg == "--protocol") {
      const std::string p = opt.value();
      if (p == "exchange")
        o.protocol = unionfind::Protocol::exchange;
      else if (p == "iexchange")
        o.protocol = unionfind::Protocol::iexchange;
      else
        throw UsageError("--protocol: expected exchange or iexchange, got '" + p + "'");
    } else if (arg == "--grid") {
      o.config.grid = parse_grid(opt.value());
    } else if (arg == "--blocks-per-unit") {
      o.config.blocks_per_unit = int(examples::parse_integer(arg, opt.value(), 1, 1 << 20));
    } else if (arg == "--field") {
      const std::string f = opt.value();
      if (f == "waves")
        o.config.field = unionfind::FieldKind::waves;
      else if (f == "spiral")
        o.config.field = unionfind::FieldKind::spiral;
      else
        throw UsageError("--field: expected waves or spiral, got '" + f + "'");
    } else if (arg == "--threshold") {
      o.config.threshold = examples::parse_real(arg, opt.value());
    } else if (arg == "--seed") {
      o.config.seed = std::uint64_t(examples::parse_integer(arg, opt.value(), 0, (1ll << 62)));
    } else if (arg == "--threads") {
      o.config.threads = int(examples::parse_integer(arg, opt.value(), 1, 256));
    } else if (arg == "--stop-after") {
      o.stop_after = int(examples::parse_integer(arg, opt.value(), 1, 1 << 30));
    } else if (arg == "--save") {
      o.save_path = opt.value();
    } else if (arg == "--restart") {
      o.restart_path = opt.value();
    } else if (arg == "--mem-blocks") {
      o.config.mem_blocks = int(examples::parse_integer(arg, opt.value(), 1, 1 << 20));
    } else {
      throw UsageError("unknown option '" + opt.argument() + "'");
    }
  });
  if (o.config.mem_blocks > o.config.blocks_per_unit)
    throw UsageError("--mem-blocks: " + std::to_string(o.config.mem_blocks) +
                     " exceeds --blocks-per-unit " + std::to_string(o.config.blocks_per_unit));
  if (const char* env = std::getenv("UNIONFIND_CHECK")) {
    const std::string e = env;
    if (e == "1")
      o.check = true;
    else if (!e.empty() && e != "0")
      throw UsageError("UNIONFIND_CHECK: expected 0 or 1, got '" + e + "'");
  }
  if (o.stop_after > 0 && o.save_path.empty()) throw UsageError("--stop-after needs --save PATH");
  if (o.stop_after == 0 && !o.save_path.empty()) throw UsageError("--save needs --stop-after K");
  if (o.stop_after > 0 && o.protocol != unionfind::Protocol::exchange)
    throw UsageError("--stop-after needs --protocol exchange (iexchange has no rounds)");
  return o;
}

std::string join(const unionfind::Coords& c, const char* sep) {
  return std::to_string(c[0]) + sep + std::to_string(c[1]) + sep + std::to_string(c[2]);
}

// Builds the blocks, times local union-finds + merge + count, prints the
// run and (with --check) compares with the serial union-find. Returns the
// exit status (the same on every unit). Collective.
int run(const Options& o) {
  const bool root = dash::myid().id == 0;
  const int units = int(dash::size());
  const unionfind::Config& cfg = o.config;
  std::unique_ptr<unionfind::Components> components;
  try {
    components =
        std::make_unique<unionfind::Components>(cfg, dash::Team::All(), o.restart_path.empty());
  } catch (const dash::exception::InvalidArgument& e) {
    // The same on every unit: the decomposer rejects the block count.
    throw UsageError("--blocks-per-unit: " + std::to_string(cfg.blocks_per_unit) + " x " +
                     std::to_string(units) +
                     " units = " + std::to_string(long(cfg.blocks_per_unit) * units) +
                     " blocks do not fit the grid " + join(cfg.grid, ",") + " (" + e.what() + ")");
  }

  dash::barrier();
  const auto start = std::chrono::steady_clock::now();
  if (o.restart_path.empty())
    components->local_union();
  else
    examples::agreed_or_usage_error("--restart", [&] { components->restart(o.restart_path); });
  if (components->merge(o.protocol, o.stop_after, o.save_path)) {
    const long long rounds = components->stats().rounds;
    if (root) std::printf("saved_after_rounds=%lld path=%s\n", rounds, o.save_path.c_str());
    return 0;
  }
  const long long count = components->count();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const long long selected = components->selected();
  const unionfind::MergeStats stats = components->stats();
  const auto& div = components->decomposer().divisions();
  if (root) {
    std::printf(
        "%s: grid %s (%lld cells, %lld selected), field %s, threshold %g, seed %llu\n", kProgram,
        join(cfg.grid, "x").c_str(), (long long)cfg.grid[0] * cfg.grid[1] * cfg.grid[2], selected,
        unionfind::to_string(cfg.field).c_str(), cfg.threshold, (unsigned long long)cfg.seed);
    std::string steps = o.protocol == unionfind::Protocol::exchange
                            ? std::to_string(stats.rounds) + " rounds"
                            : std::to_string(stats.calls) + " block calls";
    std::printf(
        "%s: %d blocks (%dx%dx%d) on %d units, %d thread(s), protocol %s: %s, %lld messages, "
        "%lld label updates, %lld local unions\n",
        kProgram, components->decomposer().nblocks(), div[0], div[1], div[2], units, cfg.threads,
        unionfind::to_string(o.protocol).c_str(), steps.c_str(), stats.messages, stats.updates,
        stats.unions);
  }

  if (cfg.mem_blocks > 0) {
    // Bytes the blocks moved to and from storage, over all units.
    const dash::bp::SpillCounters moved = components->master().spill_counters();
    const std::uint64_t read = examples::sum_over_units(moved.bytes_read, kProgram);
    const std::uint64_t written = examples::sum_over_units(moved.bytes_written, kProgram);
    if (root)
      std::printf("%s: storage bytes_read=%" PRIu64 " bytes_written=%" PRIu64 "\n", kProgram, read,
                  written);
  }

  std::string failure;
  int failed = 0;
  if (o.check) {
    // Every unit digests the labels of its blocks; unit 0 labels the whole
    // grid serially and compares the count and each block's digest.
    const std::vector<std::uint64_t> digests = components->digests();
    if (root) {
      auto serial = unionfind::serial_union_find(cfg);
      const long long serial_count = serial->roots();
      if (serial_count != count)
        failure = "the serial union-find finds " + std::to_string(serial_count) +
                  " components, the distributed one " + std::to_string(count);
      std::vector<int> wrong;
      for (int gid = 0; gid < components->decomposer().nblocks(); ++gid)
        if (serial->digest(components->decomposer().bounds(gid)) != digests[std::size_t(gid)])
          wrong.push_back(gid);
      if (!wrong.empty()) {
        failure += std::string(failure.empty() ? "" : "; ") + std::to_string(wrong.size()) +
                   " blocks have cells labelled other than with the smallest id of their "
                   "component (first: block " +
                   std::to_string(wrong[0]) + ")";
      }
      if (failure.empty())
        std::printf(
            "check: passed: the serial union-find finds %lld components too, and every cell's "
            "label is the smallest id of its component\n",
            serial_count);
      failed = failure.empty() ? 0 : 1;
    }
    dash::Team::All().bcast(failed);
  }
  if (root) {
    std::printf("time_s=%.6f components=%lld\n", seconds, count);
    std::fflush(stdout);
    if (!failure.empty()) std::fprintf(stderr, "%s: check failed: %s\n", kProgram, failure.c_str());
  }
  return failed;
}

}  // namespace

int main(int argc, char* argv[]) {
  return examples::run_with_options(kProgram, kUsage, &argc, &argv, parse_args, run);
}
