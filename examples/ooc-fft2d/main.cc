// ooc-fft2d: the 2-D FFT of an N x N complex matrix distributed by rows, as
// row FFTs, a transpose, row FFTs (the second out-of-core application of
// Bordawekar & Choudhary, "Communication Strategies for Out-of-core
// Programs", ICS 1995), in memory (--strategy incore) or with each unit's local
// arrays in files (dash::ooc::Matrix) and only --mem-fraction of them in
// memory (in slabs), the transpose's data moved by the chosen strategy: the
// same row FFTs, the same result.
//
// Run (--help lists the options):
//   mpirun -n 4 build/openmpi/examples/ooc-fft2d --n 4096 --strategy producer
//        --mem-fraction 1/8
// Unit 0 prints, last,
//   time_s=<s> bytes_read=<n> bytes_written=<n> checksum=<hex>
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/Team.h>
#include <dash/ooc/Matrix.h>
#include <dash/ooc/Transpose.h>
#include <workloads/Mix.h>
#include <workloads/ooc-fft2d/RowFft.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <complex>
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

const char* const kProgram = "ooc-fft2d";

const char* const kUsage =
    "usage: ooc-fft2d [options]\n"
    "Computes the 2-D discrete Fourier transform of an N x N matrix of complex\n"
    "doubles distributed by rows (BLOCKED, NONE), starting from pseudo-random values:\n"
    "FFTs of the rows, a transpose, FFTs of the rows. The result is the transform,\n"
    "transposed: element (r, c) holds X(c, r).\n"
    "\n"
    "  --n N                 the matrix extent (default: 512)\n"
    "  --strategy S          incore: the matrices in memory; collective or producer:\n"
    "                        each unit's local arrays in files in its spill directory\n"
    "                        (DASH_OOC_DIR), slabs of them in memory; collective runs\n"
    "                        the first row FFTs in a pass of their own (written back)\n"
    "                        and then reads the slabs again to transpose them, producer\n"
    "                        sends each slab while it is in memory for its row FFTs\n"
    "                        (default: incore)\n"
    "  --mem-fraction F      the share of the unit's local arrays (a and b) in memory:\n"
    "                        1/S for an integer S, written 1/S or as a decimal\n"
    "                        (default: 1/4); slabs of 1/(3S) of a local array (1: one\n"
    "                        slab), of which the transpose holds about six at a time\n"
    "  --seed X              seed of the start values (default: 1)\n"
    "  --verify              also compare elements of the result (three per unit)\n"
    "                        with a direct DFT; exit status 1 if one differs\n"
    "  --verbose             also print each unit's peak resident memory\n"
    "  --progress            show the row FFTs done on stderr (without it: only\n"
    "                        where stderr is a terminal, which a launcher's is not)\n"
    "  --help                print this text\n"
    "\n"
    "Options also take the form --option=VALUE. Unit 0 prints the run and, last,\n"
    "'time_s=<s> bytes_read=<n> bytes_written=<n> checksum=<hex>': the time of the\n"
    "FFTs and the transpose (with writing the result), the bytes all units read from\n"
    "and wrote to their files in that time, and a checksum of the result (a sum over\n"
    "elements of a hash of the element's index and bits), which depends only on N and\n"
    "the seed: the same for every strategy, fraction and unit count.\n";

enum class Strategy { incore, collective, producer };

struct Options {
  long n = 512;
  Strategy strategy = Strategy::incore;
  int slabs = 4;
  std::uint64_t seed = 1;
  bool verify = false, verbose = false, help = false, progress = false;
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
    } else if (arg == "--verify") {
      opt.flag();
      o.verify = true;
    } else if (arg == "--n") {
      o.n = long(examples::parse_integer(arg, opt.value(), 1, 1 << 20));
    } else if (arg == "--strategy") {
      const std::string v = opt.value();
      if (v == "incore")
        o.strategy = Strategy::incore;
      else if (v == "collective")
        o.strategy = Strategy::collective;
      else if (v == "producer")
        o.strategy = Strategy::producer;
      else
        throw UsageError("--strategy: expected collective, producer or incore, got '" + v + "'");
    } else if (arg == "--mem-fraction") {
      o.slabs = examples::parse_mem_fraction(opt.value());
    } else if (arg == "--seed") {
      o.seed = std::uint64_t(examples::parse_integer(arg, opt.value(), 0, 1ll << 62));
    } else {
      throw UsageError("unknown option '" + opt.argument() + "' (try --help)");
    }
  });
  return o;
}

using Complex = std::complex<double>;
using Coords = std::array<long, 2>;

// The start value of element g: real and imaginary parts in [0, 1).
struct StartValues {
  std::uint64_t seed;
  long n;
  Complex operator()(const Coords& g) const {
    const std::uint64_t at = seed * 0x9e3779b97f4a7c15ull + std::uint64_t(g[0] * n + g[1]);
    return {double(mix64(at) >> 11) * 0x1.0p-53, double(mix64(at ^ 0x5bd1e995u) >> 11) * 0x1.0p-53};
  }
};

// The checksum term of element g with value v.
std::uint64_t element_hash(const Coords& g, long n, const Complex& v) {
  std::uint64_t re, im;
  const double parts[2] = {v.real(), v.imag()};
  std::memcpy(&re, &parts[0], sizeof re);
  std::memcpy(&im, &parts[1], sizeof im);
  return mix64(mix64(std::uint64_t(g[0] * n + g[1]) * 0x9e3779b97f4a7c15ull ^ re) ^ im);
}

// X(k, l) of the start values by the definition (O(N^2)). Local.
Complex direct_dft(const StartValues& start, long n, long k, long l) {
  const double step = -2 * M_PI / double(n);
  Complex sum = 0;
  for (long i = 0; i < n; ++i) {
    Complex row = 0;
    for (long j = 0; j < n; ++j) row += start({i, j}) * std::polar(1.0, step * double(j * l % n));
    sum += row * std::polar(1.0, step * double(i * k % n));
  }
  return sum;
}

struct Result {
  double seconds = 0;
  std::uint64_t bytes_read = 0, bytes_written = 0, checksum = 0;
};

// The calling unit's rows of a by-rows pattern: [first, first + count).
template <class PatternT>
std::pair<long, long> my_rows(const PatternT& pattern) {
  if (pattern.local_nblocks() == 0) return {0, 0};
  const auto block = pattern.local_block(0);
  return {long(block.offset(0)), long(block.extent(0))};
}

int run(const Options& o) {
  const int me = int(dash::myid().id), units = int(dash::size());
  const long n = o.n;
  const dash::SizeSpec<2> size(n, n);
  const dash::DistributionSpec<2> dist(dash::BLOCKED, dash::NONE);
  const StartValues start{o.seed, n};
  const examples::RowFft plain_fft(n);
  // The row FFTs (before the transpose on a's rows, after it on b's), counted for --progress.
  examples::Progress progress(kProgram, o.progress);
  std::uint64_t rows_done = 0, rows_total = 0;
  auto fft = [&](const dash::ooc::Rows<Complex>& rows) {
    plain_fft(rows);
    rows_done += std::uint64_t(rows.count);
    progress.step("rows transformed", rows_done, rows_total);
  };
  Result r;
  std::uint64_t local_sum = 0;
  std::vector<std::pair<Coords, Complex>> checked;  // elements of the result to verify
  auto pick = [&](long first, long count, auto&& value_at) {
    if (!o.verify || count == 0) return;
    for (long row : {first, first + count / 2, first + count - 1}) {
      const Coords g{row, (row * 7919 + 3) % n};
      checked.emplace_back(g, value_at(g));
    }
  };
  std::size_t slab_bytes = 0, local_bytes = 0;
  int slabs_per_block = 1;
  if (o.strategy == Strategy::incore) {
    dash::Matrix<Complex, 2> a(size, dist), b(size, dist);
    const auto [first, count] = my_rows(a.pattern());
    for (long i = 0; i < count; ++i)
      for (long j = 0; j < n; ++j) a.lbegin()[i * n + j] = start({first + i, j});
    // b zeroed before the clock starts, as a plain program's std::vector is: the time is the
    // transform's, not the first touch of b's pages (0.6 s of page faults at --n 4096 here).
    std::fill(b.lbegin(), b.lend(), Complex());
    rows_total = 2 * std::uint64_t(count);  // a's rows and as many of b
    dash::barrier();
    const auto t0 = std::chrono::steady_clock::now();
    dash::ooc::transpose(a, b, fft, fft);
    dash::barrier();
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto [b_first, b_count] = my_rows(b.pattern());
    for (long i = 0; i < b_count; ++i)
      for (long j = 0; j < n; ++j)
        local_sum += element_hash({b_first + i, j}, n, b.lbegin()[i * n + j]);
    pick(b_first, b_count,
         [&](const Coords& g) { return b.lbegin()[(g[0] - b_first) * n + g[1]]; });
    local_bytes = std::size_t(count * n) * sizeof(Complex);
    slab_bytes = local_bytes;
  } else {
    dash::Team& team = dash::Team::All();
    const dash::ooc::InMemory memory{1.0 / o.slabs};
    dash::ooc::Matrix<Complex, 2> a(size, dist, team, memory), b(size, dist, team, memory);
    slabs_per_block = a.slabs_per_block();
    a.generate(start);
    a.file()->flush();
    rows_total = 2 * std::uint64_t(my_rows(a.pattern()).second);
    const auto a0 = a.counters(), b0 = b.counters();
    dash::barrier();
    const auto t0 = std::chrono::steady_clock::now();
    const auto staging =
        dash::ooc::transpose(a, b,
                             o.strategy == Strategy::producer ? dash::ooc::Strategy::producer
                                                              : dash::ooc::Strategy::collective,
                             fft, fft);
    dash::barrier();
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto a1 = a.counters(), b1 = b.counters();
    r.bytes_read =
        a1.bytes_read - a0.bytes_read + b1.bytes_read - b0.bytes_read + staging.bytes_read;
    r.bytes_written = a1.bytes_written - a0.bytes_written + b1.bytes_written - b0.bytes_written +
                      staging.bytes_written;
    b.for_each([&](const Coords& g, const Complex& v) { local_sum += element_hash(g, n, v); });
    const auto [b_first, b_count] = my_rows(b.pattern());
    pick(b_first, b_count, [&](const Coords& g) { return b.get(g); });
    local_bytes = std::size_t(b_count * n) * sizeof(Complex);
    slab_bytes = local_bytes / std::size_t(slabs_per_block);
  }
  r.checksum = examples::sum_over_units(local_sum, kProgram);
  const std::uint64_t bytes_read = examples::sum_over_units(r.bytes_read, kProgram);
  const std::uint64_t bytes_written = examples::sum_over_units(r.bytes_written, kProgram);

  examples::print_peak_memory(kProgram, o.verbose, slab_bytes / 1024, local_bytes / 1024,
                              "KiB of a local array", " per slab");
  bool verified = true;
  if (o.verify) {
    double worst = 0;
    for (const auto& [g, value] : checked)
      worst = std::max(worst, std::abs(value - direct_dft(start, n, g[1], g[0])));
    const double all_worst = dash::Team::All().allreduce(worst, dash::max<double>());
    const std::uint64_t count = examples::sum_over_units(checked.size(), kProgram);
    const double allowed = 1e-12 * double(n) * double(n);
    verified = all_worst <= allowed;
    if (me == 0)
      std::printf("verify: %" PRIu64
                  " elements against a direct DFT, largest difference %.3g (allowed %.3g): %s\n",
                  count, all_worst, allowed, verified ? "passed" : "FAILED");
  }
  if (me == 0) {
    const char* names[] = {"incore", "collective", "producer"};
    std::printf("%s: %ld x %ld complex doubles on %d units, strategy %s", kProgram, n, n, units,
                names[int(o.strategy)]);
    if (o.strategy != Strategy::incore)
      std::printf(", 1/%d of the local arrays in memory (%d slabs per block)", o.slabs,
                  slabs_per_block);
    std::printf("\n");
    std::printf("time_s=%.6f bytes_read=%" PRIu64 " bytes_written=%" PRIu64 " checksum=%016" PRIx64
                "\n",
                r.seconds, bytes_read, bytes_written, r.checksum);
  }
  return verified ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return examples::run_with_options(kProgram, kUsage, &argc, &argv, parse_args, run);
}
