// ooc-jacobi: a 2-D 5-point Jacobi sweep on a BLOCKED x BLOCKED matrix,
// in memory (--strategy incore) or with each unit's local array in a file
// (dash::ooc::Matrix) and only --mem-fraction of it in memory (slabs, the
// next one read ahead and the last one written back included), the halos
// exchanged by the chosen strategy: the same stencil code, the
// same result.
//
// Run (--help lists the options):
//   mpirun -n 4 build/openmpi/examples/ooc-jacobi --grid 2048,2048 --iterations 10
//        --strategy producer --mem-fraction 1/8
// Unit 0 prints, last,
//   time_s=<s> bytes_read=<n> bytes_written=<n> checksum=<hex>
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/Team.h>
#include <dash/bp/ContainerBlocks.h>
#include <dash/ooc/Ghosts.h>
#include <dash/ooc/Matrix.h>
#include <sys/resource.h>
#include <workloads/Mix.h>
#include <workloads/ooc-jacobi/Jacobi.h>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../common/Args.h"
#include "../common/Errors.h"
#include "../common/Progress.h"
#include "../common/Report.h"

namespace {

using examples::mix64;

const char* const kProgram = "ooc-jacobi";

const char* const kUsage =
    "usage: ooc-jacobi [options]\n"
    "Runs K Jacobi sweeps (each cell becomes the mean of its four neighbours; cells\n"
    "beyond the border are 0) on an X x Y matrix of doubles distributed BLOCKED x\n"
    "BLOCKED, starting from pseudo-random values.\n"
    "\n"
    "  --grid X,Y            matrix extents (default: 512,512)\n"
    "  --iterations K        sweeps (default: 10)\n"
    "  --strategy S          incore: the matrix in memory; collective, producer or\n"
    "                        demand: each unit's local array in a file in its spill\n"
    "                        directory (DASH_OOC_DIR), slabs of it in memory, the\n"
    "                        halos exchanged collectively before each sweep, sent by\n"
    "                        each slab while it is in memory, or asked for by each\n"
    "                        slab when it is in memory (default: incore)\n"
    "  --mem-fraction F      the share of a unit's local array in memory: 1/S for an\n"
    "                        integer S, written 1/S or as a decimal (default: 1/4);\n"
    "                        the slab in use, the next one read ahead and the last\n"
    "                        one written back together (slabs of 1/(3S); 1: one slab)\n"
    "  --threads T           threads running the slabs of a unit (default: 1)\n"
    "  --seed X              seed of the start values (default: 1)\n"
    "  --verbose             also print each unit's peak resident memory\n"
    "  --progress            show the sweeps done on stderr (without it: only where\n"
    "                        stderr is a terminal, which a launcher's is not)\n"
    "  --help                print this text\n"
    "\n"
    "Options also take the form --option=VALUE. Unit 0 prints the run and, last,\n"
    "'time_s=<s> bytes_read=<n> bytes_written=<n> checksum=<hex>': the sweeps' time\n"
    "(with the write-back of the slabs still in memory), the bytes all units read\n"
    "from and wrote to their files in that time, and a checksum of the final values\n"
    "(a sum over cells of a hash of the cell's index and bits), which depends only\n"
    "on X, Y, K and the seed: the same for every strategy, fraction, thread count\n"
    "and unit count.\n";

enum class Strategy { incore, collective, producer, demand };

struct Options {
  long rows = 512, cols = 512;
  int iterations = 10;
  Strategy strategy = Strategy::incore;
  int slabs = 4;
  int threads = 1;
  std::uint64_t seed = 1;
  bool verbose = false, help = false, progress = false;
};

using examples::UsageError;

Options parse_args(int argc, char** argv) {
  Options o;
  examples::for_each_option(argc, argv, [&](examples::Option& opt) {
    const std::string& arg = opt.name();
    if (arg == "--help") {
      opt.flag();
      o.help = true;
    } else if (arg == "--verbose") {
      opt.flag();
      o.verbose = true;
    } else if (arg == "--progress") {
      opt.flag();
      o.progress = true;
    } else if (arg == "--grid") {
      const std::string v = opt.value();
      const std::size_t comma = v.find(',');
      if (comma == std::string::npos)
        throw UsageError("--grid: expected X,Y (e.g. 512,512), got '" + v + "'");
      o.rows = long(examples::parse_integer(arg, v.substr(0, comma), 1, 1ll << 30));
      o.cols = long(examples::parse_integer(arg, v.substr(comma + 1), 1, 1ll << 30));
    } else if (arg == "--iterations") {
      o.iterations = int(examples::parse_integer(arg, opt.value(), 0, 1 << 24));
    } else if (arg == "--strategy") {
      const std::string v = opt.value();
      if (v == "incore")
        o.strategy = Strategy::incore;
      else if (v == "collective")
        o.strategy = Strategy::collective;
      else if (v == "producer")
        o.strategy = Strategy::producer;
      else if (v == "demand")
        o.strategy = Strategy::demand;
      else
        throw UsageError("--strategy: expected collective, demand, producer or incore, got '" + v +
                         "'");
    } else if (arg == "--mem-fraction") {
      o.slabs = examples::parse_mem_fraction(opt.value());
    } else if (arg == "--threads") {
      o.threads = int(examples::parse_integer(arg, opt.value(), 1, 256));
    } else if (arg == "--seed") {
      o.seed = std::uint64_t(examples::parse_integer(arg, opt.value(), 0, 1ll << 62));
    } else {
      throw UsageError("unknown option '" + opt.argument() + "' (try --help)");
    }
  });
  return o;
}

using examples::jacobi;
using Block = dash::bp::ContainerBlock<double, 2>;
using Coords = std::array<long, 2>;

struct Result {
  double seconds = 0;
  std::uint64_t bytes_read = 0, bytes_written = 0, checksum = 0;
  std::size_t slabs_in_memory = 0, slabs = 0;
  int slabs_per_block = 1;
};

int run(const Options& o) {
  const int me = int(dash::myid().id), units = int(dash::size());
  const dash::SizeSpec<2> size(o.rows, o.cols);
  const dash::DistributionSpec<2> dist(dash::BLOCKED, dash::BLOCKED);
  const dash::bp::HaloSpec<2> halo{1, false, {false, false}};
  const std::uint64_t seed = o.seed;
  const long cols = o.cols;
  auto start_value = [seed, cols](const Coords& g) {
    return double(mix64(seed * 0x9e3779b97f4a7c15ull + std::uint64_t(g[0] * cols + g[1])) >> 11) *
           0x1.0p-53;
  };
  auto cell_hash = [cols](const Coords& g, double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return mix64(std::uint64_t(g[0] * cols + g[1]) * 0x9e3779b97f4a7c15ull ^ bits);
  };
  Result r;
  examples::Progress progress(kProgram, o.progress);
  std::atomic<std::uint64_t> local{0};  // foreach may run blocks on several threads
  if (o.strategy == Strategy::incore) {
    dash::Matrix<double, 2> m(size, dist);
    auto master = dash::bp::of(m, halo);
    master.threads(o.threads);
    master.foreach ([&](Block& b, dash::bp::Proxy&) {
      for (long i = 0; i < b.extent(0); ++i)
        for (long j = 0; j < b.extent(1); ++j)
          b(i, j) = start_value({b.box().min[0] + i, b.box().min[1] + j});
    });
    dash::barrier();
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < o.iterations; ++k) {
      dash::ooc::sweep(master, dash::ooc::Ghosts::collective,
                       [](Block& b, dash::bp::Proxy&) { jacobi(b); });
      progress.step("sweep", std::uint64_t(k + 1), std::uint64_t(o.iterations));
    }
    progress.done();
    dash::barrier();
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    master.foreach ([&](const Block& b, dash::bp::Proxy&) {
      std::uint64_t sum = 0;
      for (long i = 0; i < b.extent(0); ++i)
        for (long j = 0; j < b.extent(1); ++j)
          sum += cell_hash({b.box().min[0] + i, b.box().min[1] + j}, b(i, j));
      local += sum;
    });
    r.slabs = r.slabs_in_memory = master.size();
  } else {
    dash::ooc::Matrix<double, 2> m(size, dist, dash::Team::All(),
                                   dash::ooc::InMemory{1.0 / o.slabs});
    r.slabs_per_block = m.slabs_per_block();
    m.generate(start_value);
    m.file()->flush();
    const dash::bp::SpillCounters before = m.counters();
    dash::barrier();
    const auto start = std::chrono::steady_clock::now();
    dash::bp::SpillCounters queues{};
    {
      auto master = dash::bp::of(m, halo, 1);
      master.threads(o.threads);
      const auto strategy = o.strategy == Strategy::producer ? dash::ooc::Ghosts::producer
                            : o.strategy == Strategy::demand ? dash::ooc::Ghosts::demand
                                                             : dash::ooc::Ghosts::collective;
      if (strategy == dash::ooc::Ghosts::producer && o.iterations > 0)
        dash::bp::post_halos(master);  // the halos the first producer sweep takes
      for (int k = 0; k < o.iterations; ++k) {
        dash::ooc::sweep(master, strategy, [](Block& b, dash::bp::Proxy&) { jacobi(b); });
        progress.step("sweep", std::uint64_t(k + 1), std::uint64_t(o.iterations));
      }
      progress.phase("writing the slabs back");
      r.slabs_in_memory = master.resident_blocks();
      r.slabs = master.size();
      master.write_back();  // the slabs still in memory, to the file (a failure: on every unit)
      const dash::bp::SpillCounters all = master.spill_counters(), file = m.counters();
      queues.bytes_read = all.bytes_read - file.bytes_read;
      queues.bytes_written = all.bytes_written - file.bytes_written;
    }
    dash::barrier();
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    progress.done();
    const dash::bp::SpillCounters after = m.counters();
    r.bytes_read = after.bytes_read - before.bytes_read + queues.bytes_read;
    r.bytes_written = after.bytes_written - before.bytes_written + queues.bytes_written;
    std::uint64_t sum = 0;
    m.for_each([&](const Coords& g, double v) { sum += cell_hash(g, v); });
    local += sum;
  }
  r.checksum = examples::sum_over_units(local, kProgram);
  const std::uint64_t bytes_read = examples::sum_over_units(r.bytes_read, kProgram);
  const std::uint64_t bytes_written = examples::sum_over_units(r.bytes_written, kProgram);

  examples::print_peak_memory(kProgram, o.verbose, r.slabs_in_memory, r.slabs, "slabs",
                              " at the end");
  if (me == 0) {
    const char* names[] = {"incore", "collective", "producer", "demand"};
    std::printf("%s: %ld x %ld doubles on %d units, %d sweeps, strategy %s", kProgram, o.rows,
                o.cols, units, o.iterations, names[int(o.strategy)]);
    if (o.strategy != Strategy::incore)
      std::printf(", 1/%d of a local array in memory (%d slabs per block)", o.slabs,
                  r.slabs_per_block);
    std::printf(", %d thread(s)\n", o.threads);
    std::printf("time_s=%.6f bytes_read=%" PRIu64 " bytes_written=%" PRIu64 " checksum=%016" PRIx64
                "\n",
                r.seconds, bytes_read, bytes_written, r.checksum);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return examples::run_with_options(kProgram, kUsage, &argc, &argv, parse_args, run);
}
