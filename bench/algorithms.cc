// algorithms: what the dash:: algorithms over a distributed container cost against the same
// std:: algorithm on a std::vector<double> of the same local size, plus (for the algorithms that
// return a value) the one MPI collective a hand-written program needs to combine the partials.
// The claim: "each algorithm vs std:: on the local part plus the reduction (<= 1.1x)".
//
// Unlike containers.cc and copy.cc, every unit runs every benchmark, because the algorithms are
// collective. Each benchmark runs the dash call and its baselines in the same benchmark,
// interleaved (each timed on its own after an MPI_Barrier, the order rotating every iteration;
// every unit runs the same fixed number of iterations, so the collectives match up), and reports
// unit 0's times as counters
//   ns_per_elem             the dash call, per element of the calling unit's part
//   <base>_ns_per_elem      each baseline, per the same element
//   ratio_vs_<base>         median over the iterations of time(dash) / time(baseline):
//                           1.00 = as fast, 3.00 = 3x slower
// plus a label naming what is compared. The benchmark's own time (manual time) is the dash pass.
// Passes over fewer than kMinPassElements local elements repeat the call (dash and baseline
// alike, each repetition with its collective) until they cover that many.
//
//   BM_<algorithm>/<bytes>      (bytes of local data per unit: 32 KiB, 1 MiB, 16 MiB)
//     on dash::Array<double> a, b, out (BLOCKED, the same pattern) vs vectors va, vb, vout:
//       fill, generate, for_each (x = 0.5 x + 1), iota      local; baseline std (std:: alone)
//       accumulate (dash::plus<double>)   baseline std_mpi: std::accumulate + MPI_Allreduce(SUM)
//       min_element, max_element          std_mpi: std::min/max_element + MPI_Allreduce(MINLOC /
//                                         MAXLOC) of a {double, int} pair
//       find (a value not present: the whole range is searched)
//                                         std_mpi: std::find + MPI_Allreduce(MIN) of the position
//       count_if                          std_mpi: std::count_if + MPI_Allreduce(SUM)
//       all_of (all true), any_of (none true): the whole range is tested
//                                         std_mpi: std::all_of/any_of + MPI_Allreduce(LAND / LOR)
//       equal (a == b everywhere)         std_mpi: std::equal + MPI_Allreduce(LAND); also
//                                         std_mpi_lmem: the same on a's and b's local memory
//                                         (tells memory placement from dash overhead)
//       transform (out = a + b, inputs read in place)   std: std::transform
//   BM_transform_fetch/<bytes>
//       out = a_cyclic + b with a_cyclic a CYCLIC dash::Array, so each unit fetches all of its
//       a inputs (strided, from every unit). Baselines: std (std::transform alone); when all
//       units share a node, on an MPI_Win_allocate_shared window holding every unit's a_cyclic
//       part, read through MPI_Win_shared_query pointers: std_gather (the same elements copied
//       one by one in global order, + std::transform) and std_memcpy (memcpy of the same bytes,
//       contiguous, 1/P from each unit, + std::transform); and std_mpi_get (the same bytes by
//       MPI_Get, 1/P from each unit, + MPI_Win_flush_all on that window, + std::transform).
//   BM_sort/<bytes>
//       dash::sort of a dash::Array<double> of random values (a stable parallel sample sort) vs
//       std (std::sort of the unit's local part; no exchange, a lower bound) and mpi_sample_sort
//       (a hand-written sample sort: std::sort, MPI_Allgather of samples, MPI_Alltoall of
//       counts, MPI_Alltoallv, std::merge of the pieces, then an MPI_Allgather of counts and an
//       MPI_Alltoallv that gives every unit back its original number of elements; not stable,
//       moves 8-byte values where dash::sort moves 16-byte (value, position) items). The input
//       is restored (untimed) before every pass.
//   BM_matrix_fill/<view>, BM_matrix_accumulate/<view>
//       dash::fill / dash::accumulate over a 2048 x 2048 dash::Matrix<double, 2> (TilePattern,
//       TILE(256) x TILE(256)), over <view> = whole (m.begin()..m.end()), block (m.block({0,
//       0}), one tile, owned by unit 0) or rows (m.sub<0>(0, 1024), the top half), vs std::fill /
//       std::accumulate (+ MPI_Allreduce) on the unit's local memory of the view (m.lbegin() ..
//       + the number of its local elements, checked to be where dash writes).
//
// Every benchmark first checks the dash result against the baseline's (value, position, sorted
// order); a mismatch is reported as the benchmark's error on every unit. Iteration counts are
// fixed per benchmark (about 2 GiB of local data per side, at most 500 iterations; the sort
// fewer), so --benchmark_min_time has no effect. scripts/bench.sh runs it on 2 units (about a
// minute), and the transform_fetch cases once more with DART_SHARED_WINDOWS=0 (shm_off: DART
// fetches by MPI RMA); only unit 0 prints and writes the JSON.
#include <benchmark/benchmark.h>
#include <libdash.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/paired.h"
#include "support/runner.h"

namespace {

using bench::median;
using bench::Side;

using Array = dash::Array<double>;
using index_t = Array::index_type;
using Matrix = dash::Matrix<double, 2>;
using Clock = std::chrono::steady_clock;

// Local bytes per unit of the 1-D benchmarks.
const std::vector<std::size_t> kBytes = {std::size_t(32) << 10, std::size_t(1) << 20,
                                         std::size_t(16) << 20};
// The size for fill and transform (32M doubles on 2 units): 128 MiB per unit, far
// beyond the caches; only those two run at it.
constexpr std::size_t kLargeBytes = std::size_t(128) << 20;
// A pass repeats the call until it covers at least this many local elements.
constexpr std::size_t kMinPassElements = std::size_t(1) << 15;
// Iterations: about kIterationBytes of local data per side, within [kMinIterations,
// kMaxIterations]; the sort, which costs far more per byte, kSortIterationBytes.
constexpr double kIterationBytes = double(std::size_t(2) << 30);
constexpr double kSortIterationBytes = double(std::size_t(32) << 20);
constexpr std::int64_t kMinIterations = 5;
constexpr std::int64_t kMaxIterations = 500;
// The matrix: kMatrixExtent x kMatrixExtent doubles in kTile x kTile tiles.
constexpr index_t kMatrixExtent = 2048;
constexpr index_t kTile = 256;

// Every element's value: distinct-looking values in [1, 2), the same for an element of a dash
// container and the element of a vector at the same global index.
double value_at(std::int64_t g) {
  return 1.0 + double((std::uint64_t(g) * 2654435761u) % 1000003u) / 1000003.0;
}

// The arrays and vectors of one local size.
struct Case {
  std::size_t n = 0;  // local elements per unit
  std::unique_ptr<Array> a, b, out, cyclic, sorted;
  std::vector<double> va, vb, vout, fetched;
  std::vector<double> sort_source;  // the unit's random values, restored before every sort
  MPI_Win win = MPI_WIN_NULL;       // MPI_Win_allocate_shared (or _allocate), n doubles per unit
  std::vector<const double*> shared_parts;  // every unit's part of win, if load/store reachable
};

struct Fixture {
  int me = 0;
  int units = 1;
  bool one_node = true;
  std::map<std::size_t, Case> cases;
  std::unique_ptr<Matrix> matrix;
};
Fixture fx;

// ---- measuring ---------------------------------------------------------------------------

// A side of a benchmark: its name in the counters, an untimed preparation (may be empty) and a
// timed pass, which on the baselines must not allocate.

// Whether ok holds on every unit. Collective.
bool on_all_units(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

// bench::run_paired with a barrier before every pass (the algorithms are
// collective: all units start each pass together).
void run_paired(benchmark::State& state, double items, const Side& subject,
                const std::vector<Side>& baselines) {
  bench::run_paired(state, items, "elem", subject, baselines, [] { MPI_Barrier(MPI_COMM_WORLD); });
}

// v, unknown to the optimiser (a volatile read: benchmark::DoNotOptimize(double&) of Google
// Benchmark 1.7.1 can clobber the value under GCC, its "+m,r" constraint).
double opaque(double v) {
  volatile double hidden = v;
  return hidden;
}

// Repetitions of a call over n local elements per pass.
std::size_t repeats_for(std::size_t n) {
  return n == 0 || n >= kMinPassElements ? 1 : kMinPassElements / n;
}

// Fixed iteration count for passes over `bytes` local bytes (every unit must run the same).
std::int64_t iterations_for(double bytes, double budget) {
  return std::clamp<std::int64_t>(std::int64_t(budget / std::max(bytes, 1.0)), kMinIterations,
                                  kMaxIterations);
}

// Repeats f reps times.
template <class F>
std::function<void()> repeated(std::size_t reps, F f) {
  return [reps, f]() mutable {
    for (std::size_t r = 0; r < reps; ++r) f();
  };
}

// Skips the benchmark with `what` unless ok holds on every unit. Collective.
bool checked(benchmark::State& state, bool ok, const std::string& what) {
  if (on_all_units(ok)) return true;
  state.SkipWithError(("result differs from the baseline: " + what).c_str());
  return false;
}

// Global index of the calling unit's first element of a BLOCKED array with n per unit.
std::int64_t first_global(std::size_t n) { return std::int64_t(fx.me) * std::int64_t(n); }

// ---- 1. local algorithms (no collective) ---------------------------------------------------

// A local algorithm: dash(a range of out) vs std(vout); both checked to leave the same values.
void local_algorithm(benchmark::State& state, const std::string& label,
                     const std::function<void(Array&)>& dash_call,
                     const std::function<void(std::vector<double>&)>& std_call) {
  Case& c = fx.cases.at(state.range(0));
  Array& out = *c.out;
  std::vector<double>& vout = c.vout;
  const std::size_t reps = repeats_for(c.n);
  // The check: both from the same start values.
  std::fill(out.lbegin(), out.lend(), 1.0);
  std::fill(vout.begin(), vout.end(), 1.0);
  dash_call(out);
  std_call(vout);
  if (!checked(state, std::equal(out.lbegin(), out.lend(), vout.begin()), label)) return;
  state.SetLabel(label);
  run_paired(state, double(c.n * reps), {"dash", repeated(reps, [&] { dash_call(out); })},
             {{"std", repeated(reps, [&] { std_call(vout); })}});
  state.SetBytesProcessed(state.iterations() * std::int64_t(c.n * reps * sizeof(double)));
}

void BM_fill(benchmark::State& state) {
  const double value = opaque(3.0);
  local_algorithm(
      state, "dash::fill(out) vs std::fill(vout)",
      [value](Array& out) { dash::fill(out.begin(), out.end(), value); },
      [value](std::vector<double>& v) {
        std::fill(v.begin(), v.end(), value);
        benchmark::ClobberMemory();
      });
}

void BM_generate(benchmark::State& state) {
  local_algorithm(
      state, "dash::generate(out, g) vs std::generate(vout, g), g() = x += 0.5",
      [](Array& out) {
        double x = 0;
        dash::generate(out.begin(), out.end(), [&x] { return x += 0.5; });
      },
      [](std::vector<double>& v) {
        double x = 0;
        std::generate(v.begin(), v.end(), [&x] { return x += 0.5; });
        benchmark::ClobberMemory();
      });
}

void BM_for_each(benchmark::State& state) {
  // x -> 0.5 x + 1 keeps the values near 2: no overflow, no denormals.
  const double a = opaque(0.5), b = opaque(1.0);
  local_algorithm(
      state, "dash::for_each(out, x = 0.5 x + 1) vs std::for_each(vout, the same)",
      [a, b](Array& out) {
        dash::for_each(out.begin(), out.end(), [a, b](double& x) { x = x * a + b; });
      },
      [a, b](std::vector<double>& v) {
        std::for_each(v.begin(), v.end(), [a, b](double& x) { x = x * a + b; });
        benchmark::ClobberMemory();
      });
}

void BM_iota(benchmark::State& state) {
  // std::iota of the unit's part starts where the unit's elements start in the global order.
  local_algorithm(
      state, "dash::iota(out, 0) vs std::iota(vout, first global index of the unit)",
      [](Array& out) { dash::iota(out.begin(), out.end(), 0.0); },
      [](std::vector<double>& v) {
        std::iota(v.begin(), v.end(), double(first_global(v.size())));
        benchmark::ClobberMemory();
      });
}

// ---- 2. algorithms that return a value (one collective) ------------------------------------

// Runs the dash call and the baseline (std:: + MPI collective) after checking they agree.
// Further baselines (`extra`, each a name and one call) run repeated like the others.
void reduction(benchmark::State& state, const std::string& label, std::size_t n, bool agree,
               const std::function<void()>& dash_call, const std::function<void()>& std_call,
               const std::vector<std::pair<std::string, std::function<void()>>>& extra = {}) {
  if (!checked(state, agree, label)) return;
  const std::size_t reps = repeats_for(n);
  state.SetLabel(label);
  std::vector<Side> baselines = {{"std_mpi", repeated(reps, std_call)}};
  for (const auto& [name, call] : extra) baselines.push_back({name, repeated(reps, call)});
  run_paired(state, double(n * reps), {"dash", repeated(reps, dash_call)}, baselines);
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * reps * sizeof(double)));
}

double std_mpi_accumulate(const double* b, const double* e) {
  double partial = std::accumulate(b, e, 0.0), sum = 0;
  MPI_Allreduce(&partial, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

void BM_accumulate(benchmark::State& state) {
  Case& c = fx.cases.at(state.range(0));
  Array& a = *c.a;
  const double* vb = c.va.data();
  const double* ve = vb + c.va.size();
  const double d = dash::accumulate(a.begin(), a.end(), 0.0, dash::plus<double>());
  const double s = std_mpi_accumulate(vb, ve);
  reduction(
      state,
      "dash::accumulate(a, 0.0, dash::plus<double>()) vs std::accumulate(va) + MPI_Allreduce(SUM)",
      c.n, std::abs(d - s) <= 1e-9 * std::abs(s),
      [&] {
        double r = dash::accumulate(a.begin(), a.end(), 0.0, dash::plus<double>());
        benchmark::DoNotOptimize(r);
      },
      [&] {
        double r = std_mpi_accumulate(vb, ve);
        benchmark::DoNotOptimize(r);
      });
}

// {value, global index} of the smallest (largest) element over all units.
struct DoubleInt {
  double value;
  int index;
};

template <bool Max>
DoubleInt std_mpi_extreme(const std::vector<double>& v, std::int64_t first) {
  auto it = Max ? std::max_element(v.begin(), v.end()) : std::min_element(v.begin(), v.end());
  DoubleInt mine{*it, int(first + (it - v.begin()))}, all{};
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE_INT, Max ? MPI_MAXLOC : MPI_MINLOC, MPI_COMM_WORLD);
  return all;
}

template <bool Max>
void extreme_element(benchmark::State& state) {
  Case& c = fx.cases.at(state.range(0));
  Array& a = *c.a;
  const std::vector<double>& va = c.va;
  const std::int64_t first = first_global(c.n);
  auto dash_call = [&a] {
    return Max ? dash::max_element(a.begin(), a.end()) : dash::min_element(a.begin(), a.end());
  };
  const Array::iterator it = dash_call();
  const DoubleInt expected = std_mpi_extreme<Max>(va, first);
  const bool agree = it != a.end() && it.pos() == expected.index;
  const char* name = Max ? "max_element" : "min_element";
  reduction(
      state,
      std::string("dash::") + name + "(a) vs std::" + name + "(va) + MPI_Allreduce(" +
          (Max ? "MAXLOC" : "MINLOC") + ") of {double, int}",
      c.n, agree,
      [&] {
        Array::iterator r = dash_call();
        benchmark::DoNotOptimize(r);
      },
      [&] {
        DoubleInt r = std_mpi_extreme<Max>(va, first);
        benchmark::DoNotOptimize(r);
      });
}

void BM_min_element(benchmark::State& state) { extreme_element<false>(state); }
void BM_max_element(benchmark::State& state) { extreme_element<true>(state); }

long long std_mpi_find(const std::vector<double>& v, double value, std::int64_t first) {
  auto it = std::find(v.begin(), v.end(), value);
  long long mine = it == v.end() ? std::numeric_limits<long long>::max()
                                 : static_cast<long long>(first + (it - v.begin())),
            all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

void BM_find(benchmark::State& state) {
  Case& c = fx.cases.at(state.range(0));
  Array& a = *c.a;
  const std::vector<double>& va = c.va;
  const std::int64_t first = first_global(c.n);
  const double absent = opaque(-1.0);  // values are in [1, 2)
  const bool agree = dash::find(a.begin(), a.end(), absent) == a.end() &&
                     std_mpi_find(va, absent, first) == std::numeric_limits<long long>::max();
  reduction(
      state,
      "dash::find(a, absent value) vs std::find(va) + MPI_Allreduce(MIN) of the position; the "
      "whole range is searched",
      c.n, agree,
      [&] {
        Array::iterator r = dash::find(a.begin(), a.end(), absent);
        benchmark::DoNotOptimize(r);
      },
      [&] {
        long long r = std_mpi_find(va, absent, first);
        benchmark::DoNotOptimize(r);
      });
}

long long std_mpi_count_below(const std::vector<double>& v, double threshold) {
  long long mine =
                std::count_if(v.begin(), v.end(), [threshold](double x) { return x < threshold; }),
            all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

void BM_count_if(benchmark::State& state) {
  Case& c = fx.cases.at(state.range(0));
  Array& a = *c.a;
  const std::vector<double>& va = c.va;
  const double threshold = opaque(1.5);  // about half the values
  auto below = [threshold](double x) { return x < threshold; };
  const bool agree =
      (long long)(dash::count_if(a.begin(), a.end(), below)) == std_mpi_count_below(va, threshold);
  reduction(
      state, "dash::count_if(a, x < 1.5) vs std::count_if(va) + MPI_Allreduce(SUM)", c.n, agree,
      [&] {
        auto r = dash::count_if(a.begin(), a.end(), below);
        benchmark::DoNotOptimize(r);
      },
      [&] {
        long long r = std_mpi_count_below(va, threshold);
        benchmark::DoNotOptimize(r);
      });
}

// all_of(x > 0) (All) or any_of(x < 0) over v, combined with MPI_LAND / MPI_LOR.
template <bool All>
bool std_mpi_predicate(const std::vector<double>& v, double zero) {
  int mine = All ? std::all_of(v.begin(), v.end(), [zero](double x) { return x > zero; })
                 : std::any_of(v.begin(), v.end(), [zero](double x) { return x < zero; }),
      all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, All ? MPI_LAND : MPI_LOR, MPI_COMM_WORLD);
  return all != 0;
}

template <bool All>
void predicate(benchmark::State& state) {
  Case& c = fx.cases.at(state.range(0));
  Array& a = *c.a;
  const std::vector<double>& va = c.va;
  const double zero = opaque(0.0);
  auto dash_call = [&a, zero] {
    return All ? dash::all_of(a.begin(), a.end(), [zero](double x) { return x > zero; })
               : dash::any_of(a.begin(), a.end(), [zero](double x) { return x < zero; });
  };
  const bool dash_result = dash_call(), std_result = std_mpi_predicate<All>(va, zero);
  const bool agree = dash_result == All && std_result == All;
  reduction(
      state,
      All ? "dash::all_of(a, x > 0) (true) vs std::all_of(va) + MPI_Allreduce(LAND)"
          : "dash::any_of(a, x < 0) (false) vs std::any_of(va) + MPI_Allreduce(LOR)",
      c.n, agree,
      [&] {
        bool r = dash_call();
        benchmark::DoNotOptimize(r);
      },
      [&] {
        bool r = std_mpi_predicate<All>(va, zero);
        benchmark::DoNotOptimize(r);
      });
}

void BM_all_of(benchmark::State& state) { predicate<true>(state); }
void BM_any_of(benchmark::State& state) { predicate<false>(state); }

bool std_mpi_equal(const std::vector<double>& x, const std::vector<double>& y) {
  int mine = std::equal(x.begin(), x.end(), y.begin()), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

bool std_mpi_equal_lmem(const double* x, const double* x_end, const double* y) {
  int mine = std::equal(x, x_end, y), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

void BM_equal(benchmark::State& state) {
  Case& c = fx.cases.at(state.range(0));
  Array& a = *c.a;
  Array& b = *c.b;
  const bool agree = dash::equal(a.begin(), a.end(), b.begin()) && std_mpi_equal(c.va, c.vb);
  reduction(
      state,
      "dash::equal(a, b) (true, same pattern: read in place) vs std::equal(va, vb) + "
      "MPI_Allreduce(LAND) (std_mpi) and the same on a's and b's local memory (std_mpi_lmem)",
      c.n, agree,
      [&] {
        bool r = dash::equal(a.begin(), a.end(), b.begin());
        benchmark::DoNotOptimize(r);
      },
      [&] {
        bool r = std_mpi_equal(c.va, c.vb);
        benchmark::DoNotOptimize(r);
      },
      {{"std_mpi_lmem", [&] {
          bool r = std_mpi_equal_lmem(a.lbegin(), a.lend(), b.lbegin());
          benchmark::DoNotOptimize(r);
        }}});
}

// ---- 3. transform ----------------------------------------------------------------------------

void BM_transform(benchmark::State& state) {
  Case& c = fx.cases.at(state.range(0));
  Array& a = *c.a;
  Array& b = *c.b;
  Array& out = *c.out;
  const std::size_t reps = repeats_for(c.n);
  auto std_call = [&c] {
    std::transform(c.va.begin(), c.va.end(), c.vb.begin(), c.vout.begin(), std::plus<double>());
    benchmark::ClobberMemory();
  };
  dash::transform(a.begin(), a.end(), b.begin(), out.begin(), std::plus<double>());
  std_call();
  if (!checked(state, std::equal(out.lbegin(), out.lend(), c.vout.begin()), "transform")) return;
  state.SetLabel(
      "dash::transform(a, b, out, plus), a, b, out BLOCKED alike (inputs read in place) vs "
      "std::transform(va, vb, vout, plus)");
  run_paired(state, double(c.n * reps),
             {"dash", repeated(reps,
                               [&] {
                                 dash::transform(a.begin(), a.end(), b.begin(), out.begin(),
                                                 std::plus<double>());
                               })},
             {{"std", repeated(reps, std_call)}});
  state.SetBytesProcessed(state.iterations() * std::int64_t(c.n * reps * sizeof(double)));
}

// The unit's n inputs of a_cyclic, contiguous: 1/P from each unit's part of the window.
void fetch_by_memcpy(Case& c) {
  const std::size_t per_unit = c.n / std::size_t(fx.units);
  for (int u = 0; u < fx.units; ++u)
    std::memcpy(c.fetched.data() + std::size_t(u) * per_unit, c.shared_parts[u],
                per_unit * sizeof(double));
}

// The unit's n inputs of a_cyclic, element by element in global order from every unit's part of
// the window (which holds that unit's a_cyclic elements): what a hand-written program reading a
// CYCLIC distribution through shared memory does.
void fetch_by_gather(Case& c) {
  const std::size_t P = std::size_t(fx.units), g0 = std::size_t(first_global(c.n));
  std::size_t u = g0 % P, l = g0 / P;
  double* out = c.fetched.data();
  for (std::size_t i = 0; i < c.n; ++i) {
    out[i] = c.shared_parts[u][l];
    if (++u == P) u = 0, ++l;
  }
}

void fetch_by_mpi_get(Case& c) {
  const std::size_t per_unit = c.n / std::size_t(fx.units);
  for (int u = 0; u < fx.units; ++u)
    MPI_Get(c.fetched.data() + std::size_t(u) * per_unit, int(per_unit * sizeof(double)), MPI_BYTE,
            u, 0, int(per_unit * sizeof(double)), MPI_BYTE, c.win);
  MPI_Win_flush_all(c.win);
}

void BM_transform_fetch(benchmark::State& state) {
  Case& c = fx.cases.at(state.range(0));
  Array& a = *c.cyclic;
  Array& b = *c.b;
  Array& out = *c.out;
  const std::size_t reps = repeats_for(c.n);
  auto transform_fetched = [&c] {
    std::transform(c.fetched.begin(), c.fetched.end(), c.vb.begin(), c.vout.begin(),
                   std::plus<double>());
    benchmark::ClobberMemory();
  };
  // The check: out[g] = a_cyclic[g] + b[g] = 2 value_at(g).
  dash::transform(a.begin(), a.end(), b.begin(), out.begin(), std::plus<double>());
  bool ok = true;
  const std::int64_t first = first_global(c.n);
  for (std::size_t i = 0; i < c.n; ++i) ok = ok && out.lbegin()[i] == 2 * value_at(first + i);
  if (!checked(state, ok, "transform of a CYCLIC input")) return;
  std::vector<Side> baselines;
  baselines.push_back({"std", repeated(reps, [&c] {
                         std::transform(c.va.begin(), c.va.end(), c.vb.begin(), c.vout.begin(),
                                        std::plus<double>());
                         benchmark::ClobberMemory();
                       })});
  std::string against = "std::transform(va, vb, vout) alone (std)";
  if (!c.shared_parts.empty()) {
    fetch_by_gather(c);
    for (std::size_t i = 0; i < c.n; ++i) ok = ok && c.fetched[i] == value_at(first + i);
    if (!checked(state, ok, "the gather baseline")) return;
    baselines.push_back({"std_gather", repeated(reps, [&c, transform_fetched] {
                           fetch_by_gather(c);
                           transform_fetched();
                         })});
    against +=
        ", + the same elements gathered one by one from the units' shared-window parts "
        "(std_gather)";
    baselines.push_back({"std_memcpy", repeated(reps, [&c, transform_fetched] {
                           fetch_by_memcpy(c);
                           transform_fetched();
                         })});
    against += ", + memcpy of the same bytes from the units' shared-window parts (std_memcpy)";
  }
  baselines.push_back({"std_mpi_get", repeated(reps, [&c, transform_fetched] {
                         fetch_by_mpi_get(c);
                         transform_fetched();
                       })});
  against += ", + MPI_Get of the same bytes, 1/P from each unit, + MPI_Win_flush_all (std_mpi_get)";
  state.SetLabel(
      "dash::transform(a_cyclic, b, out, plus): a CYCLIC, b and out BLOCKED, so every a input is "
      "fetched; vs " +
      against);
  run_paired(state, double(c.n * reps),
             {"dash", repeated(reps,
                               [&] {
                                 dash::transform(a.begin(), a.end(), b.begin(), out.begin(),
                                                 std::plus<double>());
                               })},
             baselines);
  state.SetBytesProcessed(state.iterations() * std::int64_t(c.n * reps * sizeof(double)));
}

// ---- 4. sort -------------------------------------------------------------------------------

// A hand-written MPI sample sort of P parts of n doubles; every buffer is allocated up front.
class SampleSort {
 public:
  explicit SampleSort(std::size_t n)
      : n_(n),
        P_(std::size_t(fx.units)),
        samples_(P_),
        all_samples_(P_ * P_),
        splitters_(P_),
        send_counts_(P_),
        send_displs_(P_),
        recv_counts_(P_),
        recv_displs_(P_),
        counts_(P_),
        received_(n * P_),
        merged_(n * P_) {}

  // Sorts the parts `data` (n elements on every unit) globally; every unit keeps n elements.
  // Collective.
  void sort(std::vector<double>& data) {
    std::sort(data.begin(), data.end());
    if (P_ == 1) return;
    const int P = int(P_);
    // 1. P regular samples per unit; the same P - 1 splitters everywhere.
    for (std::size_t k = 0; k < P_; ++k) samples_[k] = data[k * n_ / P_];
    MPI_Allgather(samples_.data(), P, MPI_DOUBLE, all_samples_.data(), P, MPI_DOUBLE,
                  MPI_COMM_WORLD);
    std::sort(all_samples_.begin(), all_samples_.end());
    for (std::size_t u = 1; u < P_; ++u) splitters_[u - 1] = all_samples_[u * P_];
    // 2. Piece u (values below splitter u) goes to unit u.
    std::size_t at = 0;
    for (std::size_t u = 0; u < P_; ++u) {
      const std::size_t end = u + 1 < P_
                                  ? std::size_t(std::lower_bound(data.begin() + std::ptrdiff_t(at),
                                                                 data.end(), splitters_[u]) -
                                                data.begin())
                                  : n_;
      send_displs_[u] = int(at);
      send_counts_[u] = int(end - at);
      at = end;
    }
    MPI_Alltoall(send_counts_.data(), 1, MPI_INT, recv_counts_.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int u = 0; u < P; ++u) recv_displs_[u] = total, total += recv_counts_[u];
    MPI_Alltoallv(data.data(), send_counts_.data(), send_displs_.data(), MPI_DOUBLE,
                  received_.data(), recv_counts_.data(), recv_displs_.data(), MPI_DOUBLE,
                  MPI_COMM_WORLD);
    // 3. Merge the P sorted pieces (ping-pong between the two buffers).
    double* src = received_.data();
    double* dst = merged_.data();
    std::vector<int>& bounds = counts_;  // piece ends, reused below
    for (int u = 0; u < P; ++u) bounds[u] = recv_displs_[u] + recv_counts_[u];
    int pieces = P;
    while (pieces > 1) {
      int next = 0, begin = 0;
      for (int k = 0; k < pieces; k += 2) {
        const int mid = bounds[k], end = k + 1 < pieces ? bounds[k + 1] : mid;
        std::merge(src + begin, src + mid, src + mid, src + end, dst + begin);
        bounds[next++] = end;
        begin = end;
      }
      pieces = next;
      std::swap(src, dst);
    }
    // 4. Give every unit back n elements: this unit holds sorted positions [start, start + total).
    MPI_Allgather(&total, 1, MPI_INT, counts_.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::size_t start = 0;
    for (int u = 0; u < fx.me; ++u) start += std::size_t(counts_[u]);
    for (std::size_t u = 0; u < P_; ++u) {
      const std::size_t lo = std::max(start, u * n_);
      const std::size_t hi = std::min(start + std::size_t(total), (u + 1) * n_);
      send_counts_[u] = hi > lo ? int(hi - lo) : 0;
      send_displs_[u] = hi > lo ? int(lo - start) : 0;
    }
    // What unit u sends here: its positions [start_u, start_u + counts_u) within mine.
    std::size_t start_u = 0;
    const std::size_t my_lo = std::size_t(fx.me) * n_, my_hi = my_lo + n_;
    for (std::size_t u = 0; u < P_; ++u) {
      const std::size_t lo = std::max(start_u, my_lo);
      const std::size_t hi = std::min(start_u + std::size_t(counts_[u]), my_hi);
      recv_counts_[u] = hi > lo ? int(hi - lo) : 0;
      recv_displs_[u] = hi > lo ? int(lo - my_lo) : 0;
      start_u += std::size_t(counts_[u]);
    }
    MPI_Alltoallv(src, send_counts_.data(), send_displs_.data(), MPI_DOUBLE, data.data(),
                  recv_counts_.data(), recv_displs_.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  }

 private:
  std::size_t n_, P_;
  std::vector<double> samples_, all_samples_, splitters_;
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_, counts_;
  std::vector<double> received_, merged_;
};

// Whether every unit's part [b, e) is sorted and follows the previous unit's part. Collective.
bool globally_sorted(const double* b, const double* e) {
  const bool local = std::is_sorted(b, e);
  double ends[2] = {b != e ? *b : 0, b != e ? *(e - 1) : 0};
  std::vector<double> all(2 * std::size_t(fx.units));
  MPI_Allgather(ends, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, MPI_COMM_WORLD);
  bool order = true;
  for (int u = 1; u < fx.units; ++u) order = order && all[2 * u - 1] <= all[2 * u];
  return on_all_units(local) && order;
}

void BM_sort(benchmark::State& state) {
  Case& c = fx.cases.at(state.range(0));
  Array& arr = *c.sorted;
  std::vector<double>& v = c.vout;
  SampleSort sample_sort(c.n);
  auto restore_array = [&] { std::copy(c.sort_source.begin(), c.sort_source.end(), arr.lbegin()); };
  auto restore_vector = [&] { std::copy(c.sort_source.begin(), c.sort_source.end(), v.begin()); };
  restore_array();
  arr.barrier();
  dash::sort(arr.begin(), arr.end());
  restore_vector();
  sample_sort.sort(v);
  const bool dash_sorted = globally_sorted(arr.lbegin(), arr.lend());
  const bool mpi_sorted = globally_sorted(v.data(), v.data() + v.size());
  const bool same = on_all_units(std::equal(arr.lbegin(), arr.lend(), v.begin()));
  if (!checked(state, dash_sorted && mpi_sorted && same, "sort")) return;
  state.SetLabel(
      "dash::sort(arr) (stable sample sort) vs std::sort of the local part (std, no exchange) and "
      "a hand-written MPI sample sort (mpi_sample_sort); input restored before every pass");
  run_paired(state, double(c.n),
             {"dash", [&] { dash::sort(arr.begin(), arr.end()); }, restore_array},
             {{"std", [&] { std::sort(v.begin(), v.end()); }, restore_vector},
              {"mpi_sample_sort", [&] { sample_sort.sort(v); }, restore_vector}});
}

// ---- 5. matrix -----------------------------------------------------------------------------

// The calling unit's elements of view v of the matrix: dash::for_each counts them, then
// dash::fill marks them and the marks must be m.lbegin() .. + count (the baseline's range).
template <class View>
std::size_t local_count_of(Matrix& m, const View& v, bool& contiguous) {
  std::size_t count = 0;
  dash::for_each(v.begin(), v.end(), [&count](double&) { ++count; });
  std::fill(m.lbegin(), m.lend(), 0.0);
  dash::fill(v.begin(), v.end(), 1.0);
  const std::size_t lsize = std::size_t(m.lend() - m.lbegin());
  contiguous =
      std::all_of(m.lbegin(), m.lbegin() + count, [](double x) { return x == 1.0; }) &&
      std::all_of(m.lbegin() + count, m.lbegin() + lsize, [](double x) { return x == 0.0; });
  return count;
}

template <class F>
void with_matrix_view(const std::string& view, F&& f) {
  Matrix& m = *fx.matrix;
  if (view == "whole") {
    f(m.begin(), m.end());
  } else if (view == "block") {
    auto v = m.block({0, 0});
    f(v.begin(), v.end());
  } else {
    auto v = m.sub<0>(0, kMatrixExtent / 2);
    f(v.begin(), v.end());
  }
}

void matrix_case(benchmark::State& state, const std::string& view, bool accumulate) {
  Matrix& m = *fx.matrix;
  with_matrix_view(view, [&](auto first, auto last) {
    bool contiguous = false;
    std::size_t count = 0;
    if (view == "whole") {
      count = std::size_t(m.lend() - m.lbegin());
      contiguous = true;
    } else {
      auto v = view == "block" ? m.block({0, 0}) : m.sub<0>(0, kMatrixExtent / 2);
      count = local_count_of(m, v, contiguous);
    }
    if (!checked(state, contiguous, "the view's local elements are not m.lbegin() .. + count"))
      return;
    double* lb = m.lbegin();
    double* le = lb + count;
    const std::size_t reps = repeats_for(count);
    // Units without elements in the view still take part (the collective).
    const std::size_t items = std::max<std::size_t>(count * reps, 1);
    const std::string what = view == "whole"   ? "the whole matrix (m.begin()..m.end())"
                             : view == "block" ? "m.block({0, 0}) (one 256 x 256 tile of unit 0)"
                                               : "m.sub<0>(0, 1024) (the top half)";
    if (accumulate) {
      std::generate(m.lbegin(), m.lend(), [i = 0]() mutable { return value_at(i++); });
      const double d = dash::accumulate(first, last, 0.0, dash::plus<double>());
      const double s = std_mpi_accumulate(lb, le);
      if (!checked(state, std::abs(d - s) <= 1e-9 * std::abs(s), "accumulate over a view")) return;
      state.SetLabel("dash::accumulate over " + what +
                     " vs std::accumulate over the unit's local memory of it + "
                     "MPI_Allreduce(SUM); 2048 x 2048 TILE(256) x TILE(256)");
      run_paired(state, double(items),
                 {"dash", repeated(reps,
                                   [=] {
                                     double r =
                                         dash::accumulate(first, last, 0.0, dash::plus<double>());
                                     benchmark::DoNotOptimize(r);
                                   })},
                 {{"std_mpi", repeated(reps, [=] {
                     double r = std_mpi_accumulate(lb, le);
                     benchmark::DoNotOptimize(r);
                   })}});
    } else {
      const double value = opaque(3.0);
      state.SetLabel("dash::fill over " + what +
                     " vs std::fill over the unit's local memory of it; 2048 x 2048 TILE(256) x "
                     "TILE(256)");
      run_paired(state, double(items),
                 {"dash", repeated(reps, [=] { dash::fill(first, last, value); })},
                 {{"std", repeated(reps, [=] {
                     std::fill(lb, le, value);
                     benchmark::ClobberMemory();
                   })}});
    }
    state.SetBytesProcessed(state.iterations() * std::int64_t(count * reps * sizeof(double)));
  });
}

// ---- registration --------------------------------------------------------------------------

void register_benchmarks() {
  using Fn = void (*)(benchmark::State&);
  const std::vector<std::pair<const char*, Fn>> one_d = {
      {"BM_fill", BM_fill},
      {"BM_generate", BM_generate},
      {"BM_for_each", BM_for_each},
      {"BM_iota", BM_iota},
      {"BM_accumulate", BM_accumulate},
      {"BM_min_element", BM_min_element},
      {"BM_max_element", BM_max_element},
      {"BM_find", BM_find},
      {"BM_count_if", BM_count_if},
      {"BM_all_of", BM_all_of},
      {"BM_any_of", BM_any_of},
      {"BM_equal", BM_equal},
      {"BM_transform", BM_transform},
      {"BM_transform_fetch", BM_transform_fetch},
  };
  // One registration per size: the fixed iteration count depends on the size.
  for (const auto& [name, fn] : one_d)
    for (std::size_t bytes : kBytes) {
      const double pass_bytes = double(bytes * repeats_for(bytes / sizeof(double)));
      benchmark::RegisterBenchmark(name, fn)
          ->ArgName("bytes")
          ->Arg(std::int64_t(bytes))
          ->Iterations(iterations_for(pass_bytes, kIterationBytes))
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  for (const auto& [name, fn] : one_d)
    if (std::string(name) == "BM_fill" || std::string(name) == "BM_transform")
      benchmark::RegisterBenchmark(name, fn)
          ->ArgName("bytes")
          ->Arg(std::int64_t(kLargeBytes))
          ->Iterations(iterations_for(double(kLargeBytes), kIterationBytes))
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
  for (std::size_t bytes : kBytes)
    benchmark::RegisterBenchmark("BM_sort", BM_sort)
        ->ArgName("bytes")
        ->Arg(std::int64_t(bytes))
        ->Iterations(iterations_for(double(bytes), kSortIterationBytes))
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  const double matrix_bytes =
      double(kMatrixExtent) * double(kMatrixExtent) * sizeof(double) / double(fx.units);
  for (const char* view : {"whole", "block", "rows"})
    for (bool acc : {false, true})
      benchmark::RegisterBenchmark(
          (std::string(acc ? "BM_matrix_accumulate/" : "BM_matrix_fill/") + view).c_str(),
          [view = std::string(view), acc](benchmark::State& s) { matrix_case(s, view, acc); })
          ->Iterations(iterations_for(matrix_bytes, 2 * kIterationBytes))
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
}

// ---- set-up (collective) -----------------------------------------------------------------

void setup() {
  std::vector<std::size_t> sizes = kBytes;
  sizes.push_back(kLargeBytes);
  for (std::size_t bytes : sizes) {
    Case& c = fx.cases[bytes];
    c.n = bytes / sizeof(double);
    const std::size_t global = c.n * std::size_t(fx.units);
    const std::int64_t first = first_global(c.n);
    c.a = std::make_unique<Array>(global, dash::BLOCKED);
    c.b = std::make_unique<Array>(global, dash::BLOCKED);
    c.out = std::make_unique<Array>(global, dash::BLOCKED);
    c.sorted = std::make_unique<Array>(global, dash::BLOCKED);
    c.cyclic = std::make_unique<Array>(global, dash::CYCLIC);
    c.va.resize(c.n);
    for (std::size_t i = 0; i < c.n; ++i) c.va[i] = value_at(first + std::int64_t(i));
    c.vb = c.va;
    c.vout.assign(c.n, 1.0);
    c.fetched.assign(c.n, 0.0);
    std::copy(c.va.begin(), c.va.end(), c.a->lbegin());
    std::copy(c.va.begin(), c.va.end(), c.b->lbegin());
    std::fill(c.out->lbegin(), c.out->lend(), 1.0);
    const auto& cyclic = c.cyclic->pattern();
    for (std::size_t l = 0; l < c.cyclic->lsize(); ++l)
      c.cyclic->lbegin()[l] = value_at(cyclic.global_index(cyclic.myid(), index_t(l)));
    std::mt19937_64 rng(20240601 + std::uint64_t(fx.me));
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    c.sort_source.resize(c.n);
    for (double& x : c.sort_source) x = uniform(rng);
    // The fetch baselines' window: the same values as the unit's a part.
    double* base = nullptr;
    const MPI_Aint window_bytes = MPI_Aint(bytes);
    if (fx.one_node) {
      MPI_Win_allocate_shared(window_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &c.win);
    } else {
      MPI_Win_allocate(window_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &c.win);
    }
    std::copy(c.cyclic->lbegin(), c.cyclic->lend(), base);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, c.win);
    if (fx.one_node) {
      for (int u = 0; u < fx.units; ++u) {
        MPI_Aint size = 0;
        int disp = 0;
        void* part = nullptr;
        MPI_Win_shared_query(c.win, u, &size, &disp, &part);
        c.shared_parts.push_back(static_cast<const double*>(part));
      }
    }
  }
  fx.matrix =
      std::make_unique<Matrix>(dash::SizeSpec<2>(kMatrixExtent, kMatrixExtent),
                               dash::DistributionSpec<2>(dash::TILE(kTile), dash::TILE(kTile)));
  std::fill(fx.matrix->lbegin(), fx.matrix->lend(), 1.0);
  MPI_Barrier(MPI_COMM_WORLD);
}

void teardown() {
  for (auto& [bytes, c] : fx.cases) {
    MPI_Win_unlock_all(c.win);
    MPI_Win_free(&c.win);
  }
  fx.cases.clear();
  fx.matrix.reset();
}

}  // namespace

int main(int argc, char** argv) {
  return bench::guarded_main("algorithms", [&] {
    dash::init(&argc, &argv);
    fx.me = int(dash::myid().id);
    fx.units = int(dash::size());
    MPI_Comm node;
    int node_size = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    MPI_Comm_free(&node);
    fx.one_node = node_size == fx.units;
    setup();
    register_benchmarks();
    bench::run_on_every_unit(argc, argv, fx.me, fx.units);
    MPI_Barrier(MPI_COMM_WORLD);
    teardown();
    dash::finalize();
  });
}
