// dart_put_get: blocking dart_get / dart_put of 8 B (latency) and 64 KiB .. 64 MiB
// (bandwidth) from unit 0 to unit 1, against raw MPI measured in the same benchmark,
// interleaved (bench::run_paired: each pass timed on its own, the order rotating, medians):
//   memcpy          between two local buffers (the fast-path limit)
//   mpi_allocate    raw MPI_Get / MPI_Put + MPI_Win_flush on an MPI_Win_allocate window
//   mpi_shared      the same on an MPI_Win_allocate_shared window (DART's single-window
//                   layout: one real node)
//   mpi_create      the same on an MPI_Win_create window over shared-window memory (DART's
//                   window pair: the team window of a team that spans real nodes); 2 units or
//                   more
// BM_get/<bytes>, BM_put/<bytes>; counters ns_per_transfer, <baseline>_ns_per_transfer and
// ratio_vs_<baseline> (time(dart) / time(baseline): 1.00 = as fast); bytes_per_second is
// DART's. A pass repeats the transfer up to 256 times (at most 1 MiB in all) so that reading
// the clock stays negligible. Run it as is (fast path on: load/store on the node), with
// DART_SHARED_WINDOWS=0 and with DART_VIRTUAL_NODE_SIZE=1 (both: the RMA path); scripts/bench.sh
// does all three. Unit 0 measures, the other units wait (runner.h: spinning in MPI when each has
// a core, which MPICH's RMA needs from its target). Intervals of a few seconds on this VM run at
// very different speeds, which is why the sides are interleaved rather than run one after
// another. Transfers of kColdFrom bytes and more start from cold caches: before each pass unit 0
// reads kFlushBytes (more than the L3), so no side finds its buffers in the cache the side
// before it left (at 4 MiB the sides' buffers together are near this machine's 32 MiB L3, and
// whichever ran before decided whose bytes were still cached: ratios of 0.8 and 1.4 in one run).
#include <benchmark/benchmark.h>
#include <dart/dart.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/paired.h"
#include "support/runner.h"

namespace {

constexpr std::size_t kMaxBytes = std::size_t(64) << 20;
constexpr std::size_t kColdFrom = std::size_t(4) << 20;
constexpr std::size_t kFlushBytes = std::size_t(128) << 20;

struct Fixture {
  int target = 0;  // unit 1, or 0 when running on one unit
  dart_gptr_t segment = DART_GPTR_NULL;
  MPI_Win allocate_win = MPI_WIN_NULL;
  MPI_Win shared_win = MPI_WIN_NULL;
  MPI_Win create_win = MPI_WIN_NULL;  // over shared_win's memory
  std::vector<char> local_a, local_b;
  std::vector<double> flush;  // unit 0: kFlushBytes
};
Fixture fx;

dart_gptr_t target_ptr() {
  dart_gptr_t p = fx.segment;
  dart_gptr_setunit(&p, DART_TEAM_UNIT_ID(fx.target));
  return p;
}

// How unit 0 reaches the target's segment: load/store or MPI RMA.
std::string path_of_target() {
  void* addr = nullptr;
  if (dart_gptr_getaddr_shared(target_ptr(), &addr) != DART_OK) return "unknown";
  return addr != nullptr ? "load/store through the shared window" : "MPI RMA";
}

// Evicts unit 0's caches, the shared L3 included, by reading kFlushBytes (one load per line).
void flush_caches() {
  double s = 0;
  const double* p = fx.flush.data();
  for (std::size_t i = 0; i < fx.flush.size(); i += 8) s += p[i];
  benchmark::DoNotOptimize(s);
  benchmark::ClobberMemory();
}

void check(dart_ret_t ret, const char* what) {
  if (ret != DART_OK) throw std::runtime_error(std::string(what) + " failed");
}
void check_mpi(int ret, const char* what) {
  if (ret != MPI_SUCCESS) throw std::runtime_error(std::string(what) + " failed");
}

// Transfers per pass for `bytes`: up to 256, at most 1 MiB in all, at least one.
std::size_t reps_for(std::size_t bytes) {
  return std::max<std::size_t>(1, std::min<std::size_t>(256, (std::size_t(1) << 20) / bytes));
}

// Raw MPI_Get / MPI_Put of `bytes` + MPI_Win_flush on win, reps times.
bench::Side raw_side(const char* name, MPI_Win win, bool get, std::size_t bytes, std::size_t reps) {
  return {
      name, [=] {
        char* local = fx.local_a.data();
        for (std::size_t r = 0; r < reps; ++r) {
          check_mpi(
              get ? MPI_Get(local, int(bytes), MPI_BYTE, fx.target, 0, int(bytes), MPI_BYTE, win)
                  : MPI_Put(local, int(bytes), MPI_BYTE, fx.target, 0, int(bytes), MPI_BYTE, win),
              get ? "MPI_Get" : "MPI_Put");
          check_mpi(MPI_Win_flush(fx.target, win), "MPI_Win_flush");
        }
      }};
}

void transfer_bench(benchmark::State& state, bool get) {
  const std::size_t bytes = state.range(0);
  const std::size_t reps = reps_for(bytes);
  const dart_gptr_t p = target_ptr();
  auto dart_pass = [&] {
    char* local = fx.local_a.data();
    for (std::size_t r = 0; r < reps; ++r) {
      if (get)
        check(dart_get_blocking(local, p, bytes, DART_TYPE_BYTE, DART_TYPE_BYTE),
              "dart_get_blocking");
      else
        check(dart_put_blocking(p, local, bytes, DART_TYPE_BYTE, DART_TYPE_BYTE),
              "dart_put_blocking");
    }
    benchmark::ClobberMemory();
  };
  std::vector<bench::Side> baselines = {{"memcpy",
                                         [&] {
                                           for (std::size_t r = 0; r < reps; ++r)
                                             std::memcpy(fx.local_a.data(), fx.local_b.data(),
                                                         bytes);
                                           benchmark::ClobberMemory();
                                         }},
                                        raw_side("mpi_allocate", fx.allocate_win, get, bytes, reps),
                                        raw_side("mpi_shared", fx.shared_win, get, bytes, reps)};
  if (fx.create_win != MPI_WIN_NULL)
    baselines.push_back(raw_side("mpi_create", fx.create_win, get, bytes, reps));
  state.SetLabel(std::string("dart_") + (get ? "get" : "put") + "_blocking of " +
                 std::to_string(bytes) + " B with unit " + std::to_string(fx.target) + " (" +
                 path_of_target() + "), " + std::to_string(reps) + " per pass; vs memcpy and MPI_" +
                 (get ? "Get" : "Put") +
                 " + MPI_Win_flush on MPI_Win_allocate / _allocate_shared / _create windows" +
                 (bytes >= kColdFrom ? "; cold caches" : ""));
  bench::run_paired(state, double(reps), "transfer", dart_pass, baselines,
                    bytes >= kColdFrom ? std::function<void()>(flush_caches) : nullptr);
  state.SetBytesProcessed(state.iterations() * bytes * reps);
}

void BM_get(benchmark::State& state) { transfer_bench(state, true); }
void BM_put(benchmark::State& state) { transfer_bench(state, false); }

// Wall-clock time per pass (manual): what a user waits for.
void sizes(benchmark::internal::Benchmark* b) {
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
  b->ArgName("bytes");
  b->Arg(8);
  for (std::size_t bytes = 64 << 10; bytes <= kMaxBytes; bytes *= 4) b->Arg(bytes);
}

BENCHMARK(BM_get)->Apply(sizes);
BENCHMARK(BM_put)->Apply(sizes);

}  // namespace

int main(int argc, char** argv) {
  if (dart_init(&argc, &argv) != DART_OK) return 1;
  dart_global_unit_t me;
  std::size_t units = 0;
  dart_myid(&me);
  dart_size(&units);
  fx.target = units > 1 ? 1 : 0;
  int failed = dart_team_memalloc_aligned(DART_TEAM_ALL, kMaxBytes, DART_TYPE_BYTE, &fx.segment);
  void* base = nullptr;
  MPI_Win_allocate(kMaxBytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &fx.allocate_win);
  MPI_Win_allocate_shared(kMaxBytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &fx.shared_win);
  // OpenMPI cannot create this window on 1 rank (docs/platform.md).
  if (units > 1) MPI_Win_create(base, kMaxBytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &fx.create_win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, fx.allocate_win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, fx.shared_win);
  if (fx.create_win != MPI_WIN_NULL) MPI_Win_lock_all(MPI_MODE_NOCHECK, fx.create_win);
  if (failed == DART_OK) {
    if (me.id == 0) {
      fx.local_a.assign(kMaxBytes, 1);
      fx.local_b.assign(kMaxBytes, 2);
      fx.flush.assign(kFlushBytes / sizeof(double), 1.0);
    }
    bench::RunOptions options;
    options.context = {bench::env_context("DART_SHARED_WINDOWS", "1 (default)"),
                       bench::env_context("DART_VIRTUAL_NODE_SIZE", "0 (default)"),
                       {"target_path", path_of_target()}};
    options.default_min_time = "0.2";  // seconds of DART passes per benchmark (plus baselines)
    bench::run_on_unit_zero(argc, argv, int(me.id), int(units), options);
  }
  if (fx.create_win != MPI_WIN_NULL) {
    MPI_Win_unlock_all(fx.create_win);
    MPI_Win_free(&fx.create_win);
  }
  MPI_Win_unlock_all(fx.allocate_win);
  MPI_Win_unlock_all(fx.shared_win);
  MPI_Win_free(&fx.allocate_win);
  MPI_Win_free(&fx.shared_win);
  dart_team_memfree(fx.segment);
  dart_exit();
  return failed;
}
