// copy: throughput of dash::copy (global range of a dash::Array<double> -> local buffer) against
// plain C++ / raw MPI baselines, with cold caches. Like containers.cc, every benchmark runs the
// dash operation and its baselines in the same benchmark, interleaved (each timed on its own, the
// order rotating every iteration) and reports
//   bytes_per_second        the dash copy (manual time = the dash pass)
//   ns_per_copy, <base>_ns_per_copy   median pass time / copies per pass
//   ratio_vs_<base>         median over the iterations of time(dash) / time(baseline):
//                           1.00 = as fast, 3.00 = 3x slower
// plus a label naming what is compared.
//
//   BM_copy_remote/<bytes>
//       unit 0 copies <bytes> owned entirely by unit 1. Which path that is depends on the run's
//       environment: by default unit 1 is on the same node (load/store, memcpy inside DART);
//       with DART_VIRTUAL_NODE_SIZE=1 or DART_SHARED_WINDOWS=0 it is one-sided RMA. The label
//       and the context key "remote_path" say which.
//   BM_copy_local/<bytes>
//       unit 0 copies <bytes> it owns itself.
//   Baselines of both: memcpy of the same bytes between two local buffers (memcpy),
//   MPI_Get + MPI_Win_flush of the same bytes from the same owner's part of an MPI_Win_allocate
//   window (mpi_get) and of DART's own window of the array (mpi_get_dart_window,
//   dart_gptr_mpi_window): dash over mpi_get_dart_window is what dash::copy adds, mpi_get over
//   mpi_get_dart_window what the kind of window costs.
//   BM_copy_small_random_remote, BM_copy_small_random_local
//       10,000 dash::copy calls of 64 B through global iterators (a.begin() + off) at random
//       offsets of the first 8 MiB of unit 1's part (remote) or unit 0's own (local); baselines
//       memcpy from a local buffer at the same offsets, MPI_Get + MPI_Win_flush of the same
//       bytes on the MPI_Win_allocate window (mpi_get), the same on the window DART itself
//       uses for the array (mpi_get_dart_window: dart_gptr_mpi_window) and, on the load/store
//       path, memcpy from the owner's part itself (memcpy_window).
//   BM_globref_read_remote, BM_globref_write_remote, BM_globref_read_local
//       10,000 single-element reads (v += a[i]) or writes (a[i] = v) through GlobRef at random
//       offsets of the same 8 MiB; baselines the same on a local buffer (local) and MPI_Get /
//       MPI_Put + MPI_Win_flush of the 8 B on the MPI_Win_allocate window (mpi) and on DART's
//       own window of the array (mpi_dart_window).
//   BM_copy_async_overlap
//       copy_async of 16 MiB owned by unit 1, then an independent compute loop (calibrated to
//       last about as long as the copy), then wait(); counter
//         ratio_overlap = time(copy_async + compute + wait) / max(time(copy), time(compute))
//       1.00 = full overlap, 2.00 = none. The label says what the overlap can use: unit 0's
//       CPUs (a launcher that binds each unit to one core leaves the copy engine's worker no
//       core of its own; DASH_COPY_ASYNC_THREAD=auto then keeps it off), whether the copy
//       engine is on, and that the other unit sleeps (MPI_Ibarrier polled with sleeps) rather
//       than burning a core.
//   BM_copy_async_overlap_own
//       the same with unit 0's own elements as the source; runs on 1 unit.
//
// Cold source: every source is initialised by its owner, and before every timed pass (outside
// the timed region) unit 0 reads a separate 8 MiB buffer (larger than L2) to flush its caches.
// Small copies: a pass repeats the copy over distinct ranges (4 KiB apart, all cold after the
// flush) until it covers kPassBytes or kMaxReps copies, so that reading the clock stays
// negligible. scripts/bench.sh runs it as is (same node), with DART_VIRTUAL_NODE_SIZE=1 (vnode1:
// RMA path) and with DART_SHARED_WINDOWS=0 (shm_off).
// Remote cases need 2 units; on 1 unit they are skipped with a message. The minimum time per
// benchmark defaults to 0.05 s (about 20 s for the binary), overridable by --benchmark_min_time.
#include <benchmark/benchmark.h>
#include <dart/dart_mpi.h>
#include <dash/internal/CopyEngine.h>
#include <libdash.h>
#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
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
using bench::Side;

using Array = dash::Array<double>;
using index_t = Array::index_type;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kMinBytes = 8;
constexpr std::size_t kMaxBytes = std::size_t(64) << 20;   // per unit, the largest copy
constexpr std::size_t kFlushBytes = std::size_t(8) << 20;  // > L2
constexpr std::size_t kPassBytes = std::size_t(1) << 20;   // small copies repeat up to this
constexpr std::size_t kMaxReps = 1024;                     // ... or this many copies
constexpr std::size_t kSmallStride = 4096;                 // bytes between repeated ranges
constexpr std::size_t kOverlapBytes = std::size_t(16) << 20;
// The small random transfers: kSmallCopies of kSmallCopyBytes (copies) or one element (GlobRef)
// from random offsets in the first kSmallSourceBytes of the owner's part.
constexpr std::size_t kSmallCopies = 10000;
constexpr std::size_t kSmallCopyBytes = 64;
constexpr std::size_t kSmallSourceBytes = std::size_t(8) << 20;
constexpr const char* kDefaultMinTime = "0.05";  // seconds, see main

struct Fixture {
  std::size_t units = 1;
  int target = 0;                  // unit 1, or 0 on one unit
  std::unique_ptr<Array> array;    // kMaxBytes per unit, BLOCKED
  MPI_Win win = MPI_WIN_NULL;      // MPI_Win_allocate, kMaxBytes per unit
  std::vector<double> src;         // unit 0: memcpy source, kMaxBytes
  std::vector<double> dst;         // unit 0: destination of every side, kMaxBytes
  std::vector<double> flush;       // unit 0: kFlushBytes
  bool remote_load_store = false;  // unit 1's part reachable by load/store
};
Fixture fx;

// ---- helpers -----------------------------------------------------------------------------

// Evicts unit 0's caches (up to L2) by reading a separate buffer of kFlushBytes.
void flush_caches() {
  double s = 0;
  const double* p = fx.flush.data();
  const std::size_t n = fx.flush.size();
  for (std::size_t i = 0; i < n; i += 8) s += p[i];  // one read per 64 B line
  benchmark::DoNotOptimize(s);
  benchmark::ClobberMemory();
}

// Copies of one pass: count, and byte offset of copy r in the owner's part = r * stride.
struct Reps {
  std::size_t count, stride;
};
Reps reps_for(std::size_t bytes) {
  if (bytes >= kPassBytes) return {1, bytes};
  const std::size_t stride = std::max(bytes, kSmallStride);
  std::size_t n = std::min(kPassBytes / bytes, kMaxReps);
  n = std::min(n, kMaxBytes / stride);
  return {std::max<std::size_t>(n, 1), stride};
}

// bench::run_paired with a cache flush before every pass (untimed).
void run_paired(benchmark::State& state, double items, const std::string& item,
                const std::function<void()>& subject, std::vector<Side> baselines) {
  bench::run_paired(state, items, item, subject, baselines, flush_caches);
}

void skip_needs_two_units(benchmark::State& state) {
  state.SkipWithError("skipped: needs 2 units (copies a range owned by unit 1)");
  for (auto _ : state) {
  }
}

void check_mpi(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string(what) + " failed");
}

std::string remote_path() {
  return fx.remote_load_store ? "same node: load/store (memcpy in DART)" : "one-sided RMA";
}

// Where raw MPI RMA reaches `owner`'s first element: a window, the rank in it and the byte
// displacement. The baselines' MPI_Win_allocate window (allocate_window_of) and the very
// window DART uses for the array (dart_window_of, through dart_gptr_mpi_window).
struct RmaTarget {
  MPI_Win win = MPI_WIN_NULL;
  int rank = 0;
  MPI_Aint disp = 0;
};
RmaTarget allocate_window_of(int owner) { return {fx.win, owner, 0}; }
RmaTarget dart_window_of(int owner) {
  Array& arr = *fx.array;
  const Array::iterator first =
      arr.begin() + arr.pattern().global_index(dash::team_unit_t(owner), 0);
  RmaTarget t;
  if (dart_gptr_mpi_window(first.dart_gptr(), &t.win, &t.rank, &t.disp) != DART_OK)
    throw std::runtime_error("dart_gptr_mpi_window failed");
  return t;
}

// ---- dash::copy throughput ---------------------------------------------------------------

void copy_bench(benchmark::State& state, bool remote) {
  if (remote && fx.units < 2) return skip_needs_two_units(state);
  const std::size_t bytes = state.range(0);
  const std::size_t n = bytes / sizeof(double);
  const Reps reps = reps_for(bytes);
  const int owner = remote ? fx.target : 0;
  Array& arr = *fx.array;
  // Global index of the owner's first element (BLOCKED).
  const index_t base = arr.pattern().global_index(dash::team_unit_t(owner), 0);
  const Array::iterator gbegin = arr.begin() + base;
  const std::size_t stride_elems = reps.stride / sizeof(double);
  double* dst = fx.dst.data();
  const double* src = fx.src.data();

  auto dash_pass = [&] {
    for (std::size_t r = 0; r < reps.count; ++r) {
      const Array::iterator first = gbegin + index_t(r * stride_elems);
      dash::copy(first, first + index_t(n), dst + r * n);
    }
    benchmark::ClobberMemory();
  };
  auto memcpy_pass = [&] {
    for (std::size_t r = 0; r < reps.count; ++r) {
      std::memcpy(dst + r * n, src + r * stride_elems, bytes);
    }
    benchmark::ClobberMemory();
  };
  // MPI_Get + MPI_Win_flush of the same bytes at target t (one call per range: bytes is at most
  // kMaxBytes, far below 2^31).
  auto mpi_pass = [&](RmaTarget t) {
    return [&, t] {
      for (std::size_t r = 0; r < reps.count; ++r) {
        check_mpi(MPI_Get(dst + r * n, int(bytes), MPI_BYTE, t.rank,
                          t.disp + MPI_Aint(r * reps.stride), int(bytes), MPI_BYTE, t.win),
                  "MPI_Get");
        check_mpi(MPI_Win_flush(t.rank, t.win), "MPI_Win_flush");
      }
      benchmark::ClobberMemory();
    };
  };
  state.SetLabel(std::string("dash::copy of ") + (remote ? "unit 1's" : "the calling unit's") +
                 " elements to a local buffer (" + (remote ? remote_path() : "local") + "), " +
                 std::to_string(reps.count) +
                 " cold range(s) per pass; vs memcpy between local "
                 "buffers (memcpy), MPI_Get + MPI_Win_flush on an MPI_Win_allocate window "
                 "(mpi_get) and on DART's own window of the array (mpi_get_dart_window: what "
                 "the window kind costs apart from dash::copy); ratio = time(dash) / "
                 "time(baseline)");
  run_paired(state, double(reps.count), "copy", dash_pass,
             {{"memcpy", memcpy_pass},
              {"mpi_get", mpi_pass(allocate_window_of(owner))},
              {"mpi_get_dart_window", mpi_pass(dart_window_of(owner))}});
  state.SetBytesProcessed(state.iterations() * bytes * reps.count);
}

void BM_copy_remote(benchmark::State& state) { copy_bench(state, true); }
void BM_copy_local(benchmark::State& state) { copy_bench(state, false); }

// ---- small random copies and element references ------------------------------------------

// kSmallCopies offsets (elements) drawn uniformly from the first kSmallSourceBytes of a unit's
// part, each leaving room for `elems` elements; the same for every pass and every side.
std::vector<std::size_t> random_offsets(std::size_t elems) {
  const std::size_t span = kSmallSourceBytes / sizeof(double) - elems;
  std::mt19937_64 rng(20261127);
  std::uniform_int_distribution<std::size_t> pick(0, span);
  std::vector<std::size_t> offsets(kSmallCopies);
  for (std::size_t& o : offsets) o = pick(rng);
  return offsets;
}

// What a small-transfer benchmark reaches and how: unit 1's part, or the calling unit's.
std::string small_target(bool remote) {
  return remote ? "unit 1's part (" + remote_path() + ")" : "the calling unit's own part";
}

// kSmallCopies dash::copy calls of kSmallCopyBytes each, from random offsets of `owner`'s first
// kSmallSourceBytes through global iterators (a.begin() + off), to consecutive places of a local
// buffer; vs memcpy from a local buffer at the same offsets and MPI_Get + MPI_Win_flush of the
// same bytes from the same owner's part of an MPI_Win_allocate window.
void small_copy_bench(benchmark::State& state, bool remote) {
  if (remote && fx.units < 2) return skip_needs_two_units(state);
  const int owner = remote ? fx.target : 0;
  const std::size_t n = kSmallCopyBytes / sizeof(double);
  const std::vector<std::size_t> offsets = random_offsets(n);
  Array& arr = *fx.array;
  const Array::iterator gbegin =
      arr.begin() + arr.pattern().global_index(dash::team_unit_t(owner), 0);
  double* dst = fx.dst.data();
  const double* src = fx.src.data();
  auto dash_pass = [&] {
    double* out = dst;
    for (std::size_t off : offsets) {
      const Array::iterator first = gbegin + index_t(off);
      dash::copy(first, first + index_t(n), out);
      out += n;
    }
    benchmark::ClobberMemory();
  };
  auto memcpy_pass = [&] {
    double* out = dst;
    for (std::size_t off : offsets) {
      std::memcpy(out, src + off, kSmallCopyBytes);
      out += n;
    }
    benchmark::ClobberMemory();
  };
  // MPI_Get + MPI_Win_flush of the same bytes at target t.
  auto mpi_pass = [&](RmaTarget t) {
    return [&, t] {
      double* out = dst;
      for (std::size_t off : offsets) {
        check_mpi(
            MPI_Get(out, int(kSmallCopyBytes), MPI_BYTE, t.rank,
                    t.disp + MPI_Aint(off * sizeof(double)), int(kSmallCopyBytes), MPI_BYTE, t.win),
            "MPI_Get");
        check_mpi(MPI_Win_flush(t.rank, t.win), "MPI_Win_flush");
        out += n;
      }
      benchmark::ClobberMemory();
    };
  };
  state.SetLabel(std::to_string(kSmallCopies) + " dash::copy(a.begin() + off, +" +
                 std::to_string(n) + ", buf) of " + std::to_string(kSmallCopyBytes) +
                 " B at random offsets of " + small_target(remote) +
                 "; vs memcpy from a local buffer (memcpy), MPI_Get + MPI_Win_flush on an "
                 "MPI_Win_allocate window (mpi_get) and on DART's own window "
                 "(mpi_get_dart_window) and, where the part is reached by load/store, memcpy "
                 "from it (memcpy_window); ratio = time(dash) / time(baseline)");
  // The owner's part itself, where it is reached by load/store: the same copies as memcpy
  // from that memory (the hardware's limit for this path).
  const double* window = arr.globmem().shared_base(dash::team_unit_t(owner));
  auto window_pass = [&] {
    double* out = dst;
    for (std::size_t off : offsets) {
      std::memcpy(out, window + off, kSmallCopyBytes);
      out += n;
    }
    benchmark::ClobberMemory();
  };
  std::vector<Side> baselines = {{"memcpy", memcpy_pass},
                                 {"mpi_get", mpi_pass(allocate_window_of(owner))},
                                 {"mpi_get_dart_window", mpi_pass(dart_window_of(owner))}};
  if (window != nullptr) baselines.push_back({"memcpy_window", window_pass});
  (run_paired)(state, double(kSmallCopies), "copy", dash_pass, baselines);  // (): no ADL
  state.SetBytesProcessed(state.iterations() * kSmallCopies * kSmallCopyBytes);
}

void BM_copy_small_random_remote(benchmark::State& state) { small_copy_bench(state, true); }
void BM_copy_small_random_local(benchmark::State& state) { small_copy_bench(state, false); }

// kSmallCopies reads (v += a[i]) or writes (a[i] = v) of single elements through GlobRef
// (Array::operator[]) at random offsets of `owner`'s first kSmallSourceBytes; vs the same on a
// local buffer (local) and MPI_Get / MPI_Put + MPI_Win_flush of the same 8 B on an
// MPI_Win_allocate window (mpi).
void globref_bench(benchmark::State& state, bool remote, bool write) {
  if (remote && fx.units < 2) return skip_needs_two_units(state);
  const int owner = remote ? fx.target : 0;
  const std::vector<std::size_t> offsets = random_offsets(1);
  Array& arr = *fx.array;
  const index_t base = arr.pattern().global_index(dash::team_unit_t(owner), 0);
  double* local = fx.src.data();
  auto dash_pass = [&] {
    double v = 0;
    if (write) {
      for (std::size_t off : offsets) arr[base + index_t(off)] = double(off);
    } else {
      for (std::size_t off : offsets) v += arr[base + index_t(off)];
    }
    benchmark::DoNotOptimize(v);
    benchmark::ClobberMemory();
  };
  auto local_pass = [&] {
    double v = 0;
    if (write) {
      for (std::size_t off : offsets) local[off] = double(off);
    } else {
      for (std::size_t off : offsets) v += local[off];
    }
    benchmark::DoNotOptimize(v);
    benchmark::ClobberMemory();
  };
  // MPI_Put or MPI_Get + MPI_Win_flush of the same 8 B at target t.
  auto mpi_pass = [&](RmaTarget t) {
    return [&, t] {
      double v = 0, x = 0;
      for (std::size_t off : offsets) {
        const MPI_Aint disp = t.disp + MPI_Aint(off * sizeof(double));
        if (write) {
          x = double(off);
          check_mpi(MPI_Put(&x, 1, MPI_DOUBLE, t.rank, disp, 1, MPI_DOUBLE, t.win), "MPI_Put");
        } else {
          check_mpi(MPI_Get(&x, 1, MPI_DOUBLE, t.rank, disp, 1, MPI_DOUBLE, t.win), "MPI_Get");
        }
        check_mpi(MPI_Win_flush(t.rank, t.win), "MPI_Win_flush");
        v += x;
      }
      benchmark::DoNotOptimize(v);
      benchmark::ClobberMemory();
    };
  };
  state.SetLabel(std::to_string(kSmallCopies) + (write ? " a[i] = v" : " v += a[i]") +
                 " (GlobRef) at random offsets of " + small_target(remote) +
                 "; vs the same on "
                 "a local buffer (local) and MPI_" +
                 (write ? "Put" : "Get") +
                 " + MPI_Win_flush of 8 B on an MPI_Win_allocate window (mpi) and on DART's "
                 "own window (mpi_dart_window)");
  run_paired(state, double(kSmallCopies), write ? "write" : "read", dash_pass,
             {{"local", local_pass},
              {"mpi", mpi_pass(allocate_window_of(owner))},
              {"mpi_dart_window", mpi_pass(dart_window_of(owner))}});
}

void BM_globref_read_remote(benchmark::State& state) { globref_bench(state, true, false); }
void BM_globref_write_remote(benchmark::State& state) { globref_bench(state, true, true); }
void BM_globref_read_local(benchmark::State& state) { globref_bench(state, false, false); }

// ---- copy_async overlap ------------------------------------------------------------------

// An independent compute loop: `n` dependent multiply-adds on registers (no memory traffic).
[[gnu::noinline]] double compute(std::size_t n) {
  double x = 1.0, a = 0.999999, b = 1e-6;
  benchmark::DoNotOptimize(a);
  benchmark::DoNotOptimize(b);
  for (std::size_t i = 0; i < n; ++i) x = x * a + b;
  return x;
}

double seconds_of(const std::function<void()>& f) {
  flush_caches();
  const auto start = Clock::now();
  f();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Number of CPUs the calling unit (and so a thread it starts) may run on.
int affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return CPU_COUNT(&set);
}

// What the overlap can use: the unit's CPUs, whether copy_async's same-node memcpy runs on
// the copy engine's worker thread, and what the other units do meanwhile.
std::string overlap_configuration() {
  const std::size_t threshold = dash::internal::CopyEngine::instance().threshold_bytes();
  std::string engine =
      threshold == dash::internal::CopyEngine::kOff
          ? "copy engine off (memcpy inside copy_async)"
          : "copy engine on (worker thread, segments >= " + std::to_string(threshold) + " B)";
  return std::to_string(fx.units) + " unit(s), unit 0 may run on " +
         std::to_string(affinity_cpus()) + " CPU(s), " + engine +
         (fx.units > 1 ? ", the other units sleep in an MPI_Ibarrier poll loop" : "");
}

// copy_async of kOverlapBytes of `owner`'s elements, then the compute loop, then wait().
void overlap_bench(benchmark::State& state, int owner) {
  Array& arr = *fx.array;
  const index_t n = index_t(kOverlapBytes / sizeof(double));
  const Array::iterator first =
      arr.begin() + arr.pattern().global_index(dash::team_unit_t(owner), 0);
  double* dst = fx.dst.data();
  auto copy_only = [&] { dash::copy_async(first, first + n, dst).wait(); };
  // Calibrate the compute loop to the copy's median time.
  std::vector<double> copy_times;
  for (int i = 0; i < 5; ++i) copy_times.push_back(seconds_of(copy_only));
  const double copy_seconds = median(copy_times);
  std::size_t steps = 1 << 20;
  const double step_seconds = seconds_of([&] { benchmark::DoNotOptimize(compute(steps)); });
  steps = std::max<std::size_t>(1, std::size_t(copy_seconds / (step_seconds / double(steps))));
  auto compute_only = [&] { benchmark::DoNotOptimize(compute(steps)); };
  auto both = [&] {
    auto future = dash::copy_async(first, first + n, dst);
    benchmark::DoNotOptimize(compute(steps));
    future.wait();
  };
  std::vector<double> ratios, t_copy, t_compute, t_both;
  std::size_t turn = 0;
  try {
    for (auto _ : state) {
      double t[3];
      for (std::size_t k = 0; k < 3; ++k) {
        const std::size_t which = (turn + k) % 3;
        t[which] = seconds_of(which == 0   ? std::function<void()>(both)
                              : which == 1 ? std::function<void()>(copy_only)
                                           : std::function<void()>(compute_only));
      }
      state.SetIterationTime(t[0]);
      ratios.push_back(t[0] / std::max(t[1], t[2]));
      t_both.push_back(t[0]);
      t_copy.push_back(t[1]);
      t_compute.push_back(t[2]);
      ++turn;
    }
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  state.counters["ratio_overlap"] = median(ratios);
  state.counters["copy_ms"] = median(t_copy) * 1e3;
  state.counters["compute_ms"] = median(t_compute) * 1e3;
  state.counters["copy_compute_ms"] = median(t_both) * 1e3;
  state.SetLabel("copy_async of 16 MiB of " +
                 (owner == 0 ? std::string("the calling unit's own elements")
                             : "unit 1's elements (" + remote_path() + ")") +
                 ", then an independent compute loop of about the copy's duration, then "
                 "wait(); ratio_overlap = time(copy + compute) / max(time(copy), "
                 "time(compute)) with time(copy) = copy_async + wait: 1 = full overlap, 2 = "
                 "none; " +
                 overlap_configuration());
}

void BM_copy_async_overlap(benchmark::State& state) {
  if (fx.units < 2) return skip_needs_two_units(state);
  overlap_bench(state, fx.target);
}

// As BM_copy_async_overlap with the calling unit's own elements as the source (runs on 1 unit).
void BM_copy_async_overlap_own(benchmark::State& state) { overlap_bench(state, 0); }

// ---- registration ------------------------------------------------------------------------

void sizes(benchmark::internal::Benchmark* b) {
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
  b->ArgName("bytes");
  for (std::size_t bytes = kMinBytes; bytes < kMaxBytes; bytes *= 4) b->Arg(bytes);
  b->Arg(kMaxBytes);
}

BENCHMARK(BM_copy_remote)->Apply(sizes);
BENCHMARK(BM_copy_local)->Apply(sizes);
void small_args(benchmark::internal::Benchmark* b) {
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_copy_small_random_remote)->Apply(small_args);
BENCHMARK(BM_copy_small_random_local)->Apply(small_args);
BENCHMARK(BM_globref_read_remote)->Apply(small_args);
BENCHMARK(BM_globref_write_remote)->Apply(small_args);
BENCHMARK(BM_globref_read_local)->Apply(small_args);
BENCHMARK(BM_copy_async_overlap)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_copy_async_overlap_own)->UseManualTime()->Unit(benchmark::kMillisecond);

// ---- set-up (collective) -----------------------------------------------------------------

void setup(bool measuring) {
  const std::size_t elems = kMaxBytes / sizeof(double);
  fx.array = std::make_unique<Array>(fx.units * elems, dash::BLOCKED);
  double* p = fx.array->lbegin();  // first touch by the owner
  for (std::size_t i = 0; i < fx.array->lsize(); ++i) p[i] = 1.0 + double(i % 7);
  void* base = nullptr;
  MPI_Win_allocate(MPI_Aint(kMaxBytes), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &fx.win);
  std::fill_n(static_cast<double*>(base), elems, 1.0);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, fx.win);
  fx.remote_load_store =
      fx.units > 1 && fx.array->globmem().shared_base(dash::team_unit_t(fx.target)) != nullptr;
  if (!measuring) return;
  fx.src.assign(elems, 1.0);
  fx.dst.assign(elems, 0.0);
  fx.flush.assign(kFlushBytes / sizeof(double), 1.0);
}

void teardown() {
  MPI_Win_unlock_all(fx.win);
  MPI_Win_free(&fx.win);
  fx.array.reset();
}

}  // namespace

int main(int argc, char** argv) {
  return bench::guarded_main("copy", [&] {
    dash::init(&argc, &argv);
    const int me = dash::myid().id;
    fx.units = dash::size();
    fx.target = fx.units > 1 ? 1 : 0;
    setup(me == 0);
    dash::barrier();
    if (me == 0 && fx.units < 2)
      std::fprintf(stderr, "copy: 1 unit, skipping the remote benchmarks (need 2 units)\n");
    // The untimed cache flushes and baselines make a pass cost several times its dash part, and
    // the whole binary should finish in well under a minute: kDefaultMinTime by default.
    bench::RunOptions options;
    options.context = {bench::env_context("DART_SHARED_WINDOWS", "1 (default)"),
                       bench::env_context("DART_VIRTUAL_NODE_SIZE", "0 (default)"),
                       {"remote_path", fx.units > 1 ? remote_path() : "none (1 unit)"}};
    options.default_min_time = kDefaultMinTime;
    bench::run_on_unit_zero(argc, argv, me, int(fx.units), options);
    teardown();
    dash::finalize();
  });
}
