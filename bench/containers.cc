// containers: what dash::Array and the patterns cost against plain C++ / raw MPI baselines.
// Every benchmark runs the dash operation and its baselines in the same benchmark, interleaved
// (each timed on its own, the order rotating every iteration, so all sides see the same machine
// state), and reports as counters
//   ns_per_<item>           the dash operation, per element / read / lookup
//   <base>_ns_per_<item>    each baseline, per the same item
//   ratio_vs_<base>         time(dash) / time(baseline): 1.00 = as fast, 3.00 = 3x slower
// (medians over the iterations, robust against passes that lost their core on a shared machine)
// plus a label naming what is compared. The benchmark's own time (manual time) is the mean of
// the dash side of one iteration.
//
//   BM_local_sum/<bytes>, BM_local_write/<bytes>      (bytes of local data per unit)
//       sum, and x = x * a + b, over arr.lbegin()..arr.lend() of a dash::Array<double> vs the
//       same non-inlined function over a std::vector<double> of the same size (the target:
//       within 5%)
//   BM_globiter_read_local/<bytes>
//       the same sum over the local part through GlobIter (arr.begin() + first local index ..)
//       vs through lbegin()..lend()
//   BM_random_read_local/<bytes>, BM_random_read_remote/<bytes>
//       v = arr[i] for uniformly random, precomputed i that the calling unit owns / that unit 1
//       owns, vs vec[i] on a std::vector of the whole array's size with the same indices; when
//       unit 1's part is not reachable by load/store (DART_SHARED_WINDOWS=0) the remote case
//       also vs MPI_Get + MPI_Win_flush of 8 bytes on an MPI_Win_allocate window and on an
//       MPI_Win_allocate_shared window (the window kind DART reads through on one node)
//   BM_matrix_subscript/<0|1>
//       DASH's subscripts over unit 0's 256 x 1024 doubles of a BLOCKED x NONE matrix: m[r][c]
//       (global coordinates, a GlobRef read on the load path) vs m(r, c) and a raw pointer (0);
//       m.local[r][c] vs m.local(r, c) and a raw pointer (1) (the target: the proxy within
//       10% of the call)
//   BM_pattern_local/<pattern>
//       pattern.local(g) for every g of a 1024 x 1024 element index space vs (g / B, g % B)
//       with a run-time B
//   BM_element_access/<kind>
//       one element access kind as the subject, summing unit 0's elements vs a raw pointer
//       over the same elements: arr.local[i] (array_local), arr[g] on the global indices
//       unit 0 owns (array_global), a GlobIter walk (iterator) and it[i] (iterator_subscript)
//       over a dash::Array<double> of 256 KiB per unit; m(r, c) (matrix_call), m[r][c]
//       (matrix_subscript), m.local(r, c) (matrix_local_call), m.local[r][c]
//       (matrix_local_subscript) over BM_matrix_subscript's matrix. Each access kind is the
//       subject of its own benchmark so that two builds can be compared kind by kind
//       (scripts/bench_ab.py compares subjects); bench/results/bounds_check.md does so for
//       DASH_CHECK_BOUNDS.
//
// scripts/bench.sh runs it as is and once more with DART_SHARED_WINDOWS=0 for the random reads.
// All containers and windows are set up collectively before measuring; unit 0 measures while
// the other units wait in a barrier (sleeping, so that they leave their cores to unit 0), and
// all units tear down together.
#include <benchmark/benchmark.h>
#include <libdash.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/paired.h"
#include "support/runner.h"

namespace {

using bench::median;
using bench::run_paired;
using bench::Side;

using Array = dash::Array<double>;
using Matrix2 = dash::Matrix<double, 2>;
using index_t = Array::index_type;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kMinLocalBytes = std::size_t(4) << 10;
constexpr std::size_t kMaxLocalBytes = std::size_t(64) << 20;
// Local sizes of BM_globiter_read_local and of the random reads (a subset of the arrays above
// for the former; the latter: one L1-resident, one beyond L2).
const std::vector<std::size_t> kGlobIterBytes = {std::size_t(64) << 10, std::size_t(1) << 20,
                                                 std::size_t(16) << 20};
const std::vector<std::size_t> kRandomBytes = {std::size_t(32) << 10, std::size_t(16) << 20};
// A timed pass repeats loops over small ranges until it covers at least this many elements, so
// that reading the clock stays negligible.
constexpr std::size_t kMinPassElements = std::size_t(1) << 15;
// Random reads per timed pass.
constexpr std::size_t kReads = std::size_t(1) << 14;
// Rows per unit and columns of BM_matrix_subscript's matrix (2 MiB per unit).
constexpr long kMatrixRows = 256, kMatrixCols = 1024;
// Extents of the pattern benchmarks' index space.
constexpr index_t kPatternExtent = 1024;
// Local bytes of BM_element_access's array (one of the arrays above; within L2, so that the
// access code, not memory, sets the time).
constexpr std::size_t kAccessBytes = std::size_t(256) << 10;

// Random reads of one array size: the array, a std::vector of its global size, the indices.
struct RandomCase {
  std::unique_ptr<Array> array;
  std::vector<double> vector;           // unit 0 only
  std::vector<index_t> local_indices;   // owned by unit 0
  std::vector<index_t> remote_indices;  // owned by the target unit
  std::vector<MPI_Aint> remote_disps;   // byte offsets of remote_indices in the target's part
  MPI_Win allocate_win = MPI_WIN_NULL;  // MPI_Win_allocate, the array's local size per unit
  MPI_Win shared_win = MPI_WIN_NULL;    // MPI_Win_allocate_shared, the same; NULL off-node
};

struct Fixture {
  std::size_t units = 1;
  int target = 0;  // unit 1, or 0 when running on one unit
  // Local bytes -> array with that much local data per unit / std::vector of that size.
  std::map<std::size_t, std::unique_ptr<Array>> arrays;
  std::map<std::size_t, std::vector<double>> vectors;  // unit 0 only
  std::map<std::size_t, RandomCase> random;
  // BM_matrix_subscript: kMatrixRows x kMatrixCols doubles per unit, BLOCKED x NONE.
  std::unique_ptr<Matrix2> matrix;
};
Fixture fx;

// ---- kernels -----------------------------------------------------------------------------

// Sum of [first, last): the one loop every "read the local part" case runs, for native
// pointers and GlobIter alike. Not inlined, so the dash::Array and std::vector cases run the
// very same machine code and the compiler cannot specialise it for one caller's buffer.
template <class It>
[[gnu::noinline]] double sum_range(It first, It last) {
  double s = 0;
  for (; first != last; ++first) s += static_cast<double>(*first);
  return s;
}

// x = x * a + b over [first, last); shared by the dash::Array and std::vector cases.
[[gnu::noinline]] void scale_shift(double* first, double* last, double a, double b) {
  for (; first != last; ++first) *first = *first * a + b;
}

// Sum of read(i) over the indices.
template <class Read>
double gather_sum(const std::vector<index_t>& indices, Read&& read) {
  double s = 0;
  for (index_t i : indices) s += read(i);
  return s;
}

// Sum of unit and offset of every global index of the pattern.
template <class PatternT>
[[gnu::noinline]] std::int64_t pattern_lookups(const PatternT& pattern) {
  const index_t n = static_cast<index_t>(pattern.size());
  std::int64_t s = 0;
  for (index_t g = 0; g < n; ++g) {
    auto l = pattern.local(g);
    s += l.unit.id + l.index;
  }
  return s;
}

// The baseline of pattern_lookups: one division and one modulo by a run-time B per index.
[[gnu::noinline]] std::int64_t divmod_lookups(index_t n, index_t block) {
  std::int64_t s = 0;
  for (index_t g = 0; g < n; ++g) s += g / block + g % block;
  return s;
}

// ---- measuring ---------------------------------------------------------------------------

// Passes over n elements repeat until they cover kMinPassElements.
std::size_t repeats_for(std::size_t n) { return n >= kMinPassElements ? 1 : kMinPassElements / n; }

// ---- 1. local iteration ------------------------------------------------------------------

void BM_local_sum(benchmark::State& state) {
  const std::size_t bytes = state.range(0);
  Array& arr = *fx.arrays.at(bytes);
  std::vector<double>& vec = fx.vectors.at(bytes);
  const std::size_t n = arr.lsize(), reps = repeats_for(n);
  auto pass = [reps](const double* first, const double* last) {
    for (std::size_t r = 0; r < reps; ++r) {
      benchmark::DoNotOptimize(first);
      double s = sum_range(first, last);
      benchmark::DoNotOptimize(s);
      benchmark::ClobberMemory();
    }
  };
  double* ab = arr.lbegin();
  double* ae = arr.lend();
  double* vb = vec.data();
  double* ve = vec.data() + vec.size();
  state.SetLabel(
      "sum over dash::Array lbegin()..lend() vs std::vector<double>; ratio = "
      "time(dash) / time(vector)");
  run_paired(state, double(n * reps), "elem", [&] { pass(ab, ae); },
             {{"vector", [&] { pass(vb, ve); }}});
  state.SetBytesProcessed(state.iterations() * bytes * reps);
}

void BM_local_write(benchmark::State& state) {
  const std::size_t bytes = state.range(0);
  Array& arr = *fx.arrays.at(bytes);
  std::vector<double>& vec = fx.vectors.at(bytes);
  const std::size_t n = arr.lsize(), reps = repeats_for(n);
  // x -> 0.5 x + 1 keeps the values near 2: no overflow, no denormals.
  // Volatile reads hide them from the optimiser (benchmark::DoNotOptimize(double&) of Google
  // Benchmark 1.7.1 can clobber a double under GCC: its "+m,r" constraint).
  volatile double hidden_a = 0.5, hidden_b = 1.0;
  const double a = hidden_a, b = hidden_b;
  auto pass = [reps, a, b](double* first, double* last) {
    for (std::size_t r = 0; r < reps; ++r) {
      benchmark::DoNotOptimize(first);
      scale_shift(first, last, a, b);
      benchmark::ClobberMemory();
    }
  };
  double* ab = arr.lbegin();
  double* ae = arr.lend();
  double* vb = vec.data();
  double* ve = vec.data() + vec.size();
  state.SetLabel(
      "x = x * a + b over dash::Array lbegin()..lend() vs std::vector<double>; "
      "ratio = time(dash) / time(vector)");
  run_paired(state, double(n * reps), "elem", [&] { pass(ab, ae); },
             {{"vector", [&] { pass(vb, ve); }}});
  state.SetBytesProcessed(state.iterations() * bytes * reps);
}

// ---- 2. global iterators over the local part ---------------------------------------------

void BM_globiter_read_local(benchmark::State& state) {
  const std::size_t bytes = state.range(0);
  Array& arr = *fx.arrays.at(bytes);
  const std::size_t n = arr.lsize(), reps = repeats_for(n);
  // BLOCKED: the calling unit's elements are the global indices first .. first + n - 1.
  const index_t first = arr.pattern().global(0);
  const Array::iterator gb = arr.begin() + first;
  const Array::iterator ge = gb + static_cast<index_t>(n);
  const double* lb = arr.lbegin();
  const double* le = arr.lend();
  state.SetLabel(
      "sum over the local part through GlobIter (begin() + first local index ..) vs "
      "lbegin()..lend(); ratio = time(GlobIter) / time(lbegin)");
  run_paired(state, double(n * reps), "elem",
             [&] {
               for (std::size_t r = 0; r < reps; ++r) {
                 double s = sum_range(gb, ge);
                 benchmark::DoNotOptimize(s);
                 benchmark::ClobberMemory();
               }
             },
             {{"lbegin", [&] {
                 for (std::size_t r = 0; r < reps; ++r) {
                   benchmark::DoNotOptimize(lb);
                   double s = sum_range(lb, le);
                   benchmark::DoNotOptimize(s);
                   benchmark::ClobberMemory();
                 }
               }}});
}

// ---- 3. random element reads -------------------------------------------------------------

// Raw RMA: one MPI_Get of 8 bytes + MPI_Win_flush per index.
double mpi_gather_sum(const RandomCase& c, MPI_Win win) {
  double s = 0;
  for (MPI_Aint disp : c.remote_disps) {
    double v = 0;
    if (MPI_Get(&v, 8, MPI_BYTE, fx.target, disp, 8, MPI_BYTE, win) != MPI_SUCCESS ||
        MPI_Win_flush(fx.target, win) != MPI_SUCCESS)
      throw std::runtime_error("MPI_Get / MPI_Win_flush failed");
    s += v;
  }
  return s;
}

void random_read(benchmark::State& state, bool remote) {
  const std::size_t bytes = state.range(0);
  if (remote && fx.units < 2) {
    state.SkipWithError("needs 2 units: reads the elements of unit 1");
    for (auto _ : state) {
    }
    return;
  }
  RandomCase& c = fx.random.at(bytes);
  Array& arr = *c.array;
  const std::vector<index_t>& indices = remote ? c.remote_indices : c.local_indices;
  const std::vector<double>& vec = c.vector;
  const int owner = remote ? fx.target : int(dash::Team::All().myid().id);
  const bool load_store = arr.globmem().shared_base(dash::team_unit_t(owner)) != nullptr;

  std::vector<Side> baselines;
  baselines.push_back({"vector", [&] {
                         double s = gather_sum(indices, [&](index_t i) { return vec[i]; });
                         benchmark::DoNotOptimize(s);
                       }});
  std::string against = "vec[i] on a std::vector<double> of the global size";
  if (remote && !load_store) {
    baselines.push_back({"mpi_get", [&] {
                           double s = mpi_gather_sum(c, c.allocate_win);
                           benchmark::DoNotOptimize(s);
                         }});
    against += ", MPI_Get + MPI_Win_flush of 8 B on an MPI_Win_allocate window (mpi_get)";
    if (c.shared_win != MPI_WIN_NULL) {
      baselines.push_back({"mpi_get_shared_window", [&] {
                             double s = mpi_gather_sum(c, c.shared_win);
                             benchmark::DoNotOptimize(s);
                           }});
      against += " and on an MPI_Win_allocate_shared window (mpi_get_shared_window)";
    }
  }
  state.SetLabel(std::string("v = arr[i], i uniformly random among ") +
                 (remote ? "unit 1's" : "the calling unit's") + " elements (" +
                 (load_store ? "load/store" : "one-sided get per read") + "); vs " + against +
                 "; ratio = time(dash) / time(baseline)");
  run_paired(
      state, double(indices.size()), "read",
      [&] {
        double s = gather_sum(indices, [&](index_t i) { return static_cast<double>(arr[i]); });
        benchmark::DoNotOptimize(s);
      },
      std::move(baselines));
}

void BM_random_read_local(benchmark::State& state) { random_read(state, false); }
void BM_random_read_remote(benchmark::State& state) { random_read(state, true); }

// ---- 4. pattern index mapping ------------------------------------------------------------

template <class PatternT>
void pattern_local(benchmark::State& state, const PatternT& pattern) {
  const index_t n = static_cast<index_t>(pattern.size());
  // The baseline's divisor: elements per unit, hidden from the optimiser.
  index_t block = (n + index_t(fx.units) - 1) / index_t(fx.units);
  benchmark::DoNotOptimize(block);
  state.SetLabel("pattern.local(g) for every g of the pattern's " + std::to_string(n) +
                 " elements vs (g / B, g % B) with run-time B = elements per unit; ratio = "
                 "time(pattern) / time(divmod)");
  run_paired(state, double(n), "lookup",
             [&] {
               std::int64_t s = pattern_lookups(pattern);
               benchmark::DoNotOptimize(s);
               benchmark::ClobberMemory();
             },
             {{"divmod", [&] {
                 std::int64_t s = divmod_lookups(n, block);
                 benchmark::DoNotOptimize(s);
                 benchmark::ClobberMemory();
               }}});
}

// ---- 5. matrix element access ------------------------------------------------------------

// Sum of at(r, c) over rows [0, rows) and columns [0, cols): the one loop of every
// BM_matrix_subscript case (not inlined into the benchmark; each accessor inlined into it).
template <class At>
[[gnu::noinline]] double sum_rows(long rows, long cols, const At& at) {
  double s = 0;
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c) s += static_cast<double>(at(r, c));
  return s;
}

// Unit 0's rows of the BLOCKED x NONE matrix read through DASH's subscripts: m[r][c] (global
// coordinates, GlobRef) against m(r, c) and a raw pointer (arg 0), m.local[r][c] against
// m.local(r, c) and a raw pointer (arg 1).
void BM_matrix_subscript(benchmark::State& state) {
  Matrix2& m = *fx.matrix;
  const bool local = state.range(0) == 1;
  const long rows = long(m.pattern().local_extents()[0]), cols = long(m.extent(1));
  const double* raw = m.lbegin();
  auto timed = [&](auto at) {
    return [&, at] {
      double s = sum_rows(rows, cols, at);
      benchmark::DoNotOptimize(s);
      benchmark::ClobberMemory();
    };
  };
  auto by_pointer = timed([raw, cols](long r, long c) { return raw[r * cols + c]; });
  if (local) {
    state.SetLabel("m.local[r][c] over the local part vs m.local(r, c) and a raw pointer");
    run_paired(
        state, double(rows * cols), "elem", timed([&m](long r, long c) { return m.local[r][c]; }),
        {{"call", timed([&m](long r, long c) { return m.local(r, c); })}, {"pointer", by_pointer}});
  } else {
    state.SetLabel(
        "m[r][c] over unit 0's rows (GlobRef, load path) vs m(r, c) and a raw "
        "pointer");
    run_paired(state, double(rows * cols), "elem",
               timed([&m](long r, long c) { return double(m[r][c]); }),
               {{"call", timed([&m](long r, long c) { return double(m(r, c)); })},
                {"pointer", by_pointer}});
  }
}

// ---- 6. element access, one kind per benchmark ------------------------------------------

// Sum of at(i) over i in [0, n): the one loop of the 1-D BM_element_access cases (not inlined
// into the benchmark; each accessor inlined into it).
template <class At>
[[gnu::noinline]] double sum_indices(long n, const At& at) {
  double s = 0;
  for (long i = 0; i < n; ++i) s += static_cast<double>(at(i));
  return s;
}

enum class Access {
  array_local,
  array_global,
  iterator,
  iterator_subscript,
  matrix_call,
  matrix_subscript,
  matrix_local_call,
  matrix_local_subscript
};

// The access kind `kind` over unit 0's elements vs a raw pointer over the same elements.
void BM_element_access(benchmark::State& state, Access kind) {
  auto timed = [](auto sum) {
    return [sum] {
      double s = sum();
      benchmark::DoNotOptimize(s);
      benchmark::ClobberMemory();
    };
  };
  std::function<void()> subject, pointer;
  std::string what;
  double items = 0;
  if (kind <= Access::iterator_subscript) {
    Array& arr = *fx.arrays.at(kAccessBytes);
    const long n = long(arr.lsize());
    const double* raw = arr.lbegin();
    // BLOCKED: the calling unit's elements are the global indices first .. first + n - 1.
    const index_t first = arr.pattern().global(0);
    const Array::iterator gb = arr.begin() + first;
    const Array::iterator ge = gb + n;
    items = double(n);
    pointer = timed([raw, n] { return sum_indices(n, [raw](long i) { return raw[i]; }); });
    switch (kind) {
      case Access::array_local:
        what = "arr.local[i]";
        subject =
            timed([&arr, n] { return sum_indices(n, [&arr](long i) { return arr.local[i]; }); });
        break;
      case Access::array_global:
        what = "arr[g] (GlobRef, load path) on the calling unit's global indices";
        subject = timed([&arr, n, first] {
          return sum_indices(n, [&arr, first](long i) { return double(arr[first + i]); });
        });
        break;
      case Access::iterator:
        what = "a GlobIter walk (++it, *it) over the calling unit's elements";
        subject = timed([gb, ge] { return sum_range(gb, ge); });
        break;
      default:
        what = "it[i] of a GlobIter at the calling unit's first element";
        subject =
            timed([gb, n] { return sum_indices(n, [&gb](long i) { return double(gb[i]); }); });
        break;
    }
  } else {
    Matrix2& m = *fx.matrix;
    const long rows = long(m.pattern().local_extents()[0]), cols = long(m.extent(1));
    const double* raw = m.lbegin();
    items = double(rows * cols);
    pointer = timed([raw, rows, cols] {
      return sum_rows(rows, cols, [raw, cols](long r, long c) { return raw[r * cols + c]; });
    });
    auto over_rows = [&m, rows, cols](auto at) {
      return [&m, rows, cols, at] {
        return sum_rows(rows, cols, [&m, &at](long r, long c) { return at(m, r, c); });
      };
    };
    switch (kind) {
      case Access::matrix_call:
        what = "m(r, c) (GlobRef, load path) over unit 0's rows";
        subject = timed(over_rows([](Matrix2& m, long r, long c) { return double(m(r, c)); }));
        break;
      case Access::matrix_subscript:
        what = "m[r][c] (GlobRef, load path) over unit 0's rows";
        subject = timed(over_rows([](Matrix2& m, long r, long c) { return double(m[r][c]); }));
        break;
      case Access::matrix_local_call:
        what = "m.local(r, c)";
        subject = timed(over_rows([](Matrix2& m, long r, long c) { return m.local(r, c); }));
        break;
      default:
        what = "m.local[r][c]";
        subject = timed(over_rows([](Matrix2& m, long r, long c) { return m.local[r][c]; }));
        break;
    }
  }
  state.SetLabel(what +
                 " vs a raw pointer over the same elements; ratio = time(dash) / "
                 "time(pointer)");
  run_paired(state, items, "elem", subject, {{"pointer", pointer}});
}

// ---- registration ------------------------------------------------------------------------

void local_sizes(benchmark::internal::Benchmark* b) {
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
  b->ArgName("bytes");
  for (std::size_t bytes = kMinLocalBytes; bytes <= kMaxLocalBytes; bytes *= 4) b->Arg(bytes);
}
void globiter_sizes(benchmark::internal::Benchmark* b) {
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
  b->ArgName("bytes");
  for (std::size_t bytes : kGlobIterBytes) b->Arg(bytes);
}
void random_sizes(benchmark::internal::Benchmark* b) {
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
  b->ArgName("bytes");
  for (std::size_t bytes : kRandomBytes) b->Arg(bytes);
}

BENCHMARK(BM_local_sum)->Apply(local_sizes);
BENCHMARK(BM_local_write)->Apply(local_sizes);
BENCHMARK(BM_globiter_read_local)->Apply(globiter_sizes);
BENCHMARK(BM_random_read_local)->Apply(random_sizes);
BENCHMARK(BM_random_read_remote)->Apply(random_sizes);
BENCHMARK(BM_matrix_subscript)
    ->ArgName("local")
    ->Arg(0)
    ->Arg(1)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
#define DASH_BENCH_ACCESS(kind)                            \
  BENCHMARK_CAPTURE(BM_element_access, kind, Access::kind) \
      ->UseManualTime()                                    \
      ->Unit(benchmark::kMicrosecond)
DASH_BENCH_ACCESS(array_local);
DASH_BENCH_ACCESS(array_global);
DASH_BENCH_ACCESS(iterator);
DASH_BENCH_ACCESS(iterator_subscript);
DASH_BENCH_ACCESS(matrix_call);
DASH_BENCH_ACCESS(matrix_subscript);
DASH_BENCH_ACCESS(matrix_local_call);
DASH_BENCH_ACCESS(matrix_local_subscript);
#undef DASH_BENCH_ACCESS

// The patterns of BM_pattern_local; built on unit 0 only (pattern construction is local).
struct Patterns {
  using P1 = dash::BlockPattern<1>;
  using P2 = dash::BlockPattern<2>;
  using T2 = dash::TilePattern<2>;
  P1 blocked{kPatternExtent * kPatternExtent, dash::BLOCKED};
  P1 cyclic{kPatternExtent * kPatternExtent, dash::CYCLIC};
  P1 blockcyclic{kPatternExtent * kPatternExtent, dash::BLOCKCYCLIC(64)};
  P2 blocked_2d{dash::SizeSpec<2>(kPatternExtent, kPatternExtent),
                dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED)};
  T2 tile_2d{dash::SizeSpec<2>(kPatternExtent, kPatternExtent),
             dash::DistributionSpec<2>(dash::TILE(32), dash::TILE(32))};
};

void register_pattern_benchmarks(const Patterns& p) {
  auto add = [](const char* name, auto& pattern) {
    benchmark::RegisterBenchmark(
        name, [&pattern](benchmark::State& state) { pattern_local(state, pattern); })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  };
  // BlockPattern<1> BLOCKED, CYCLIC, BLOCKCYCLIC(64) over 1024 * 1024 elements
  add("BM_pattern_local/blocked_1d", p.blocked);
  add("BM_pattern_local/cyclic_1d", p.cyclic);
  add("BM_pattern_local/blockcyclic64_1d", p.blockcyclic);
  // BlockPattern<2> BLOCKED x BLOCKED, TilePattern<2> TILE(32) x TILE(32) over 1024 x 1024
  add("BM_pattern_local/blocked_blocked_2d", p.blocked_2d);
  add("BM_pattern_local/tile32_tile32_2d", p.tile_2d);
}

// ---- set-up (collective) -----------------------------------------------------------------

// Fills the calling unit's part with small values (first touch by the owner).
void fill_local(Array& arr) {
  double* p = arr.lbegin();
  for (std::size_t i = 0; i < arr.lsize(); ++i) p[i] = 1.0 + double(i % 7);
}

// An array of units x (bytes / 8) doubles, BLOCKED: bytes of local data on every unit.
std::unique_ptr<Array> make_array(std::size_t bytes) {
  auto arr = std::make_unique<Array>(fx.units * (bytes / sizeof(double)), dash::BLOCKED);
  fill_local(*arr);
  return arr;
}

// Every unit, in the same order.
void setup(bool measuring, bool one_node) {
  for (std::size_t bytes = kMinLocalBytes; bytes <= kMaxLocalBytes; bytes *= 4) {
    fx.arrays[bytes] = make_array(bytes);
    if (measuring) fx.vectors[bytes].assign(bytes / sizeof(double), 1.0);
  }
  fx.matrix =
      std::make_unique<Matrix2>(dash::SizeSpec<2>(kMatrixRows * long(fx.units), kMatrixCols),
                                dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  for (double* p = fx.matrix->lbegin(); p != fx.matrix->lend(); ++p) *p = 1.0;
  std::mt19937_64 rng(20240601);
  for (std::size_t bytes : kRandomBytes) {
    RandomCase& c = fx.random[bytes];
    c.array = make_array(bytes);
    const MPI_Aint window_bytes = static_cast<MPI_Aint>(bytes);
    void* base = nullptr;
    MPI_Win_allocate(window_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &c.allocate_win);
    std::fill_n(static_cast<double*>(base), bytes / sizeof(double), 1.0);
    if (one_node) {
      MPI_Win_allocate_shared(window_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &c.shared_win);
      std::fill_n(static_cast<double*>(base), bytes / sizeof(double), 1.0);
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, c.allocate_win);
    if (c.shared_win != MPI_WIN_NULL) MPI_Win_lock_all(MPI_MODE_NOCHECK, c.shared_win);
    if (!measuring) continue;
    const auto& pattern = c.array->pattern();
    c.vector.assign(pattern.size(), 1.0);
    const dash::team_unit_t me = pattern.myid(), target(fx.target);
    std::uniform_int_distribution<index_t> mine(0, index_t(pattern.local_size(me)) - 1);
    std::uniform_int_distribution<index_t> theirs(0, index_t(pattern.local_size(target)) - 1);
    for (std::size_t k = 0; k < kReads; ++k) {
      c.local_indices.push_back(pattern.global_index(me, mine(rng)));
      const index_t l = theirs(rng);
      c.remote_indices.push_back(pattern.global_index(target, l));
      c.remote_disps.push_back(static_cast<MPI_Aint>(l * index_t(sizeof(double))));
    }
  }
}

// Every unit, in the same order.
void teardown() {
  for (auto& [bytes, c] : fx.random) {
    MPI_Win_unlock_all(c.allocate_win);
    MPI_Win_free(&c.allocate_win);
    if (c.shared_win != MPI_WIN_NULL) {
      MPI_Win_unlock_all(c.shared_win);
      MPI_Win_free(&c.shared_win);
    }
  }
  fx.random.clear();
  fx.matrix.reset();
  fx.arrays.clear();
  fx.vectors.clear();
}

}  // namespace

int main(int argc, char** argv) {
  return bench::guarded_main("containers", [&] {
    dash::init(&argc, &argv);
    const int me = dash::myid().id;
    fx.units = dash::size();
    fx.target = fx.units > 1 ? 1 : 0;
    MPI_Comm node;
    int node_size = 0, world_size = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    MPI_Comm_free(&node);
    setup(me == 0, node_size == world_size);
    dash::barrier();
    std::unique_ptr<Patterns> patterns;
    if (me == 0) {
      patterns = std::make_unique<Patterns>();
      register_pattern_benchmarks(*patterns);
    }
    bench::run_on_unit_zero(argc, argv, me, fx.units,
                            {{bench::env_context("DART_SHARED_WINDOWS", "1 (default)")}});
    patterns.reset();
    teardown();
    dash::finalize();
  });
}
