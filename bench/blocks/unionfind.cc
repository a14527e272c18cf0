// Union-find (examples/unionfind): the merge of connected components across
// block faces with Master::iexchange (subject: a block sends label updates
// only when its face labels drop) against rounds of Master::exchange with an
// all-reduce per round (baseline), on n^3 grids (64^3, 128^3) with 1, 2 and 4
// blocks per unit, for two fields at threshold 0.3:
//   waves   about 28% of the cells selected, near percolation: one large
//           component crossing every block and many small ones; few rounds
//   spiral  a helical band winding through the blocks again and again:
//           labels travel far, many rounds (128^3 only)
// A pass is the merge alone (both protocols end in a collective: the last
// all-reduce, or termination detection); the local union-finds before it
// are untimed (prepare), so both sides start from the same local labels
// after a barrier. Counters: the median pass time of each side
// (iexchange_ms, exchange_ms), ratio_vs_exchange (median of iexchange /
// exchange per iteration) and exchange_over_iexchange (its inverse: > 1
// means iexchange is faster); as context, the median times of the local
// union-finds and of the count that complete the algorithm, and the work of
// each side (exchange rounds, iexchange block calls).
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <mpi.h>
#include <workloads/unionfind/unionfind.h>

#include <chrono>
#include <vector>

#include "../support/paired.h"

namespace {

void BM_unionfind(benchmark::State& state) {
  const long n = long(state.range(0));
  const int blocks_per_unit = int(state.range(1));
  unionfind::Config config;
  config.grid = {n, n, n};
  config.blocks_per_unit = blocks_per_unit;
  config.field = state.range(2) == 1 ? unionfind::FieldKind::spiral : unionfind::FieldKind::waves;
  unionfind::Components components(config);
  long long count = 0;
  std::vector<double> local_union_seconds;
  local_union_seconds.reserve(std::size_t(state.max_iterations) * 2);
  // Untimed: fresh local labels (timed on the side, as context).
  auto prepare = [&] {
    const auto start = bench::Clock::now();
    components.local_union();
    local_union_seconds.push_back(
        std::chrono::duration<double>(bench::Clock::now() - start).count());
  };
  auto pass = [&](unionfind::Protocol protocol) { components.merge(protocol); };
  // Warm-up: buffers reach their sizes; both sides must agree.
  components.local_union();
  pass(unionfind::Protocol::exchange);
  const long long by_exchange = components.count();
  components.local_union();
  pass(unionfind::Protocol::iexchange);
  count = components.count();
  if (count != by_exchange) {
    state.SkipWithError("exchange and iexchange count different components");
    return;
  }
  bench::run_paired(
      state, double(n * n * n), "cell",
      bench::Side{"iexchange", [&] { pass(unionfind::Protocol::iexchange); }, prepare},
      {bench::Side{"exchange", [&] { pass(unionfind::Protocol::exchange); }, prepare}},
      [] { bench::sleeping_barrier(); });
  // The work of each side and the time of the count, from a few more
  // untimed runs (collective).
  std::vector<double> count_seconds;
  unionfind::MergeStats exchange_stats, iexchange_stats;
  for (int k = 0; k < 5; ++k) {
    const auto protocol = k % 2 ? unionfind::Protocol::iexchange : unionfind::Protocol::exchange;
    components.local_union();
    pass(protocol);
    bench::sleeping_barrier();
    const auto start = bench::Clock::now();
    count = components.count();
    count_seconds.push_back(std::chrono::duration<double>(bench::Clock::now() - start).count());
    (k % 2 ? iexchange_stats : exchange_stats) = components.stats();
  }

  const double cells_per_ms = double(n * n * n) / 1e6;
  auto value = [&state](const char* name) { return state.counters[name].value; };
  state.counters["iexchange_ms"] = value("ns_per_cell") * cells_per_ms;
  state.counters["exchange_ms"] = value("exchange_ns_per_cell") * cells_per_ms;
  if (value("ratio_vs_exchange") > 0)
    state.counters["exchange_over_iexchange"] = 1 / value("ratio_vs_exchange");
  state.counters["local_union_ms"] = bench::median(local_union_seconds) * 1e3;
  state.counters["count_ms"] = bench::median(count_seconds) * 1e3;
  state.counters["blocks_per_unit"] = blocks_per_unit;
  state.counters["components"] = double(count);
  state.counters["exchange_rounds"] = double(exchange_stats.rounds);
  state.counters["iexchange_calls"] = double(iexchange_stats.calls);
  state.SetLabel("iexchange vs exchange, " + std::to_string(n) + "^3 cells, field " +
                 unionfind::to_string(config.field));
}

// Args: grid extent n, blocks per unit, field (0 waves, 1 spiral). Odd
// iteration counts: the median of ratios is one iteration's ratio, so
// exchange_over_iexchange is exactly the median of exchange / iexchange.
BENCHMARK(BM_unionfind)
    ->ArgNames({"n", "blocks_per_unit", "spiral"})
    ->Args({64, 1, 0})
    ->Args({64, 2, 0})
    ->Args({64, 4, 0})
    ->Iterations(51)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_unionfind)
    ->ArgNames({"n", "blocks_per_unit", "spiral"})
    ->Args({128, 1, 0})
    ->Args({128, 2, 0})
    ->Args({128, 4, 0})
    ->Args({128, 1, 1})
    ->Args({128, 2, 1})
    ->Args({128, 4, 1})
    ->Iterations(21)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
