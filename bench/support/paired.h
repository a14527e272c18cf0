// What the benchmarks share: a dash operation and its baselines measured in
// the same benchmark, interleaved, with medians; and a barrier that leaves
// the cores to the measuring unit. How a binary runs them: runner.h.
#ifndef DASH_BENCH_SUPPORT_PAIRED_H_
#define DASH_BENCH_SUPPORT_PAIRED_H_

#include <benchmark/benchmark.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

// One side of a comparison: its name in the counters, an untimed preparation
// (optional) and a timed pass (which must not allocate).
struct Side {
  std::string name;
  std::function<void()> pass;
  std::function<void()> prepare = nullptr;
};

// Median of v (reorders v).
inline double median(std::vector<double>& v) {
  if (v.empty()) return 0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  if (v.size() % 2 == 1) return v[mid];
  return (v[mid] + *std::max_element(v.begin(), v.begin() + mid)) / 2;
}

// Runs the subject's pass and every baseline's pass once per benchmark
// iteration, each timed on its own, in an order that rotates every
// iteration; before each pass (untimed) the side's prepare and then
// before_pass (e.g. a cache flush, or a barrier for collective operations).
// The iteration's (manual) time is the subject's. A pass covers `items`
// items of kind `item` (e.g. "elem"). Sets the counters
//   ns_per_<item>, <baseline>_ns_per_<item>   median pass time / items
//   ratio_vs_<baseline>                       median over the iterations of
//                                             subject time / baseline time
// Medians, because the machine is shared: a pass that lost its core to
// another process must not move the figure. An exception skips the
// benchmark with its message.
inline void run_paired(benchmark::State& state, double items, const std::string& item,
                       const Side& subject, const std::vector<Side>& baselines,
                       const std::function<void()>& before_pass = nullptr) {
  const std::size_t sides = baselines.size() + 1;
  // Reserved here so the timing loop does not allocate.
  const std::size_t capacity =
      static_cast<std::size_t>(std::min<benchmark::IterationCount>(state.max_iterations, 1 << 22));
  std::vector<std::vector<double>> times(sides);
  for (auto& t : times) t.reserve(capacity);
  std::vector<double> pass_seconds(sides);
  std::size_t turn = 0;
  try {
    for (auto _ : state) {
      for (std::size_t k = 0; k < sides; ++k) {
        const std::size_t which = (turn + k) % sides;
        const Side& side = which == 0 ? subject : baselines[which - 1];
        if (side.prepare) side.prepare();
        if (before_pass) before_pass();
        const auto start = Clock::now();
        side.pass();
        pass_seconds[which] = std::chrono::duration<double>(Clock::now() - start).count();
      }
      state.SetIterationTime(pass_seconds[0]);
      if (times[0].size() < capacity)
        for (std::size_t k = 0; k < sides; ++k) times[k].push_back(pass_seconds[k]);
      ++turn;
    }
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  if (times[0].empty() || items <= 0) return;
  const double ns_per_item = 1e9 / items;
  for (std::size_t b = 0; b < baselines.size(); ++b) {
    std::vector<double> ratios(times[0].size());
    for (std::size_t i = 0; i < ratios.size(); ++i) ratios[i] = times[0][i] / times[b + 1][i];
    state.counters["ratio_vs_" + baselines[b].name] = median(ratios);
    state.counters[baselines[b].name + "_ns_per_" + item] = median(times[b + 1]) * ns_per_item;
  }
  state.counters["ns_per_" + item] = median(times[0]) * ns_per_item;
}

// The same with an unnamed subject pass.
inline void run_paired(benchmark::State& state, double items, const std::string& item,
                       const std::function<void()>& subject, const std::vector<Side>& baselines,
                       const std::function<void()>& before_pass = nullptr) {
  run_paired(state, items, item, Side{"subject", subject}, baselines, before_pass);
}

// A barrier over MPI_COMM_WORLD that polls every 500 us instead of spinning,
// so the waiting units leave their cores to the measuring one.
inline void sleeping_barrier() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  int done = 0;
  while (MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
    std::this_thread::sleep_for(std::chrono::microseconds(500));
}

}  // namespace bench

#endif  // DASH_BENCH_SUPPORT_PAIRED_H_
