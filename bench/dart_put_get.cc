// dart_put_get: latency (8 B) and bandwidth (64 KiB .. 64 MiB) of blocking
// dart_get / dart_put between unit 0 and unit 1, against baselines measured
// in the same run:
//   memcpy                    between two local buffers (the fast-path limit)
//   mpi_get/put_win_allocate  raw MPI_Get / MPI_Put + flush on an MPI_Win_allocate window
//   mpi_get/put_shared_window raw MPI_Get / MPI_Put + flush on an MPI_Win_allocate_shared
//                             window (DART's single-window layout: one real node)
//   mpi_get/put_win_create    raw MPI_Get / MPI_Put + flush on an MPI_Win_create window over
//                             shared-window memory (DART's window pair: the team window of a
//                             team that spans real nodes); 2 units or more
// Run it twice: as is (fast path on) and with DART_SHARED_WINDOWS=0 (RMA path);
// scripts/bench.sh does both. Unit 0 measures, the other units wait.
#include <benchmark/benchmark.h>
#include <dart/dart.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "support/runner.h"

namespace {

constexpr std::size_t kMaxBytes = std::size_t(64) << 20;

struct Fixture {
  int target = 0;  // unit 1, or 0 when running on one unit
  dart_gptr_t segment = DART_GPTR_NULL;
  MPI_Win allocate_win = MPI_WIN_NULL;
  MPI_Win shared_win = MPI_WIN_NULL;
  MPI_Win create_win = MPI_WIN_NULL;  // over shared_win's memory
  std::vector<char> local_a, local_b;
};
Fixture fx;

dart_gptr_t target_ptr() {
  dart_gptr_t p = fx.segment;
  dart_gptr_setunit(&p, DART_TEAM_UNIT_ID(fx.target));
  return p;
}

void check(dart_ret_t ret, benchmark::State& state) {
  if (ret != DART_OK) state.SkipWithError("DART call failed");
}

void BM_memcpy(benchmark::State& state) {
  const std::size_t bytes = state.range(0);
  for (auto _ : state) {
    std::memcpy(fx.local_a.data(), fx.local_b.data(), bytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

void BM_dart_get_blocking(benchmark::State& state) {
  const std::size_t bytes = state.range(0);
  const dart_gptr_t p = target_ptr();
  for (auto _ : state) {
    check(dart_get_blocking(fx.local_a.data(), p, bytes, DART_TYPE_BYTE, DART_TYPE_BYTE), state);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

void BM_dart_put_blocking(benchmark::State& state) {
  const std::size_t bytes = state.range(0);
  const dart_gptr_t p = target_ptr();
  for (auto _ : state) {
    check(dart_put_blocking(p, fx.local_a.data(), bytes, DART_TYPE_BYTE, DART_TYPE_BYTE), state);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

void raw_rma(benchmark::State& state, MPI_Win win, bool get) {
  const int bytes = static_cast<int>(state.range(0));
  for (auto _ : state) {
    int ret = get ? MPI_Get(fx.local_a.data(), bytes, MPI_BYTE, fx.target, 0, bytes, MPI_BYTE, win)
                  : MPI_Put(fx.local_a.data(), bytes, MPI_BYTE, fx.target, 0, bytes, MPI_BYTE, win);
    if (ret == MPI_SUCCESS) ret = MPI_Win_flush(fx.target, win);
    if (ret != MPI_SUCCESS) state.SkipWithError("MPI RMA failed");
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::size_t>(bytes));
}

void BM_mpi_get_win_allocate(benchmark::State& s) { raw_rma(s, fx.allocate_win, true); }
void BM_mpi_put_win_allocate(benchmark::State& s) { raw_rma(s, fx.allocate_win, false); }
void BM_mpi_get_shared_window(benchmark::State& s) { raw_rma(s, fx.shared_win, true); }
void BM_mpi_put_shared_window(benchmark::State& s) { raw_rma(s, fx.shared_win, false); }
void BM_mpi_get_win_create(benchmark::State& s) {
  if (fx.create_win == MPI_WIN_NULL) return s.SkipWithError("needs 2 units");
  raw_rma(s, fx.create_win, true);
}
void BM_mpi_put_win_create(benchmark::State& s) {
  if (fx.create_win == MPI_WIN_NULL) return s.SkipWithError("needs 2 units");
  raw_rma(s, fx.create_win, false);
}

// Wall-clock time: what a user waits for (CPU time hides waiting in MPI).
void sizes(benchmark::internal::Benchmark* b) {
  b->UseRealTime();
  b->Arg(8);
  for (std::size_t bytes = 64 << 10; bytes <= kMaxBytes; bytes *= 4) b->Arg(bytes);
}

BENCHMARK(BM_memcpy)->Apply(sizes);
BENCHMARK(BM_dart_get_blocking)->Apply(sizes);
BENCHMARK(BM_dart_put_blocking)->Apply(sizes);
BENCHMARK(BM_mpi_get_win_allocate)->Apply(sizes);
BENCHMARK(BM_mpi_put_win_allocate)->Apply(sizes);
BENCHMARK(BM_mpi_get_shared_window)->Apply(sizes);
BENCHMARK(BM_mpi_put_shared_window)->Apply(sizes);
BENCHMARK(BM_mpi_get_win_create)->Apply(sizes);
BENCHMARK(BM_mpi_put_win_create)->Apply(sizes);

// Console reporter that also remembers bytes/s per benchmark name and prints
// the ratios of DART against raw MPI at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      auto it = run.counters.find("bytes_per_second");
      if (it == run.counters.end()) continue;
      std::string name = run.benchmark_name();
      const std::string suffix = "/real_time";
      if (name.size() > suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        name.resize(name.size() - suffix.size());
      }
      rate_[name] = it->second.value;
    }
  }
  void PrintRatios() const {
    const char* shm = std::getenv("DART_SHARED_WINDOWS");
    const bool fast_path = shm == nullptr || std::strcmp(shm, "0") != 0;
    std::printf("\nratios (bytes/s of dart / bytes/s of baseline; fast path %s)\n",
                fast_path ? "on" : "off");
    const char* baselines[] = {"BM_memcpy", "BM_mpi_get_win_allocate", "BM_mpi_get_shared_window",
                               "BM_mpi_get_win_create"};
    for (const char* op : {"get", "put"}) {
      for (std::size_t bytes = 8; bytes <= kMaxBytes; bytes = bytes == 8 ? 64 << 10 : bytes * 4) {
        std::string size = "/" + std::to_string(bytes);
        auto dart = rate_.find(std::string("BM_dart_") + op + "_blocking" + size);
        if (dart == rate_.end()) continue;
        std::printf("dart_%s_blocking %9zu B:", op, bytes);
        for (const char* base : baselines) {
          std::string name = base;
          if (std::strcmp(op, "put") == 0) {
            auto at = name.find("_get_");
            if (at != std::string::npos) name.replace(at, 5, "_put_");
          }
          auto b = rate_.find(name + size);
          if (b != rate_.end() && b->second > 0) {
            std::printf("  vs %s %.2f", name.c_str() + 3, dart->second / b->second);
          }
        }
        std::printf("\n");
      }
    }
  }

 private:
  std::map<std::string, double> rate_;
};

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
  // OpenMPI cannot create this window on 1 rank (PLATFORM.md).
  if (units > 1) MPI_Win_create(base, kMaxBytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &fx.create_win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, fx.allocate_win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, fx.shared_win);
  if (fx.create_win != MPI_WIN_NULL) MPI_Win_lock_all(MPI_MODE_NOCHECK, fx.create_win);
  if (failed == DART_OK) {
    if (me.id == 0) {
      fx.local_a.assign(kMaxBytes, 1);
      fx.local_b.assign(kMaxBytes, 2);
    }
    RatioReporter reporter;
    bench::RunOptions options;
    options.context = {bench::env_context("DART_SHARED_WINDOWS", "1 (default)")};
    options.reporter = &reporter;
    bench::run_on_unit_zero(argc, argv, int(me.id), int(units), options);
    if (me.id == 0) reporter.PrintRatios();
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
