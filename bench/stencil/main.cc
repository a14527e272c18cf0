// bench/stencil: the stencil3d kernel (six blocking puts to the face neighbours on the periodic
// grid of all units, then a barrier) with the units in MPI rank order ("none") and in the
// order DART_UNIT_MAPPING gave them ("mapped"), measured in the same run, interleaved; and the
// modelled exchange time of a sparse allocation, 384 nodes x 24 cores on a
// Cray XC40-like machine, without and with remapping.
//
// BM_exchange/<bytes>: ns_per_exchange (mapped), none_ns_per_exchange and ratio_vs_none
//   (mapped / none: below 1 = remapping helps), the node crossings of both layouts and the
//   modelled times of this run's machine (virtual nodes, topology file). Remapping changes
//   nothing unless the run sets DART_UNIT_MAPPING (scripts/bench.sh has runs that do).
// BM_modelled_cray384/<bytes>/<scrambled>: model only (no communication): modelled time with
//   the rank order over that with hierarchical and with Hilbert mapping (improvement factors),
//   node crossings of each; scrambled = 1: nodes in random order, 0: in nid order.
#include <benchmark/benchmark.h>
#include <dart/dart_mapping_model.h>
#include <dash/Init.h>
#include <mpi.h>
#include <workloads/cray_allocation.h>
#include <workloads/stencil3d/kernel.h>

#include <array>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "../support/runner.h"

namespace {

using stencil3d::check;

constexpr std::size_t kMaxBytes = std::size_t(2) << 20;

struct ExchangeCase {
  std::array<int, 3> dims{};
  stencil3d::Layout none, mapped;
  std::array<std::array<int, 6>, 2> to{};
  dart_gptr_t buffer = DART_GPTR_NULL;
  std::vector<char> message;

  ExchangeCase() {
    dart_global_unit_t me{};
    std::size_t size = 0;
    check(dart_myid(&me), "dart_myid");
    check(dart_size(&size), "dart_size");
    check(dart_balanced_dims(int(size), 3, dims.data()), "dart_balanced_dims");
    none = stencil3d::rank_order_layout(int(size));
    mapped = stencil3d::id_layout(int(size));
    to = {stencil3d::neighbours(none, dims, me.id), stencil3d::neighbours(mapped, dims, me.id)};
    check(dart_team_memalloc_aligned(DART_TEAM_ALL, 6 * kMaxBytes, DART_TYPE_BYTE, &buffer),
          "dart_team_memalloc_aligned");
    message.assign(kMaxBytes, char(me.id));
  }
  ~ExchangeCase() {
    if (!DART_GPTR_ISNULL(buffer)) dart_team_memfree(buffer);
  }
};

// One buffer for every size; released before dash::finalize.
std::unique_ptr<ExchangeCase> exchange_case;

void BM_exchange(benchmark::State& state) {
  const std::size_t bytes = std::size_t(state.range(0));
  if (!exchange_case) exchange_case = std::make_unique<ExchangeCase>();
  ExchangeCase* c = exchange_case.get();
  auto pass = [&](int layout) {
    return [&, layout] {
      stencil3d::exchange(c->to[std::size_t(layout)], c->buffer, kMaxBytes, c->message, bytes);
    };
  };
  bench::run_paired(state, 1, "exchange", bench::Side{"mapped", pass(1)},
                    {bench::Side{"none", pass(0)}}, [] { dart_barrier(DART_TEAM_ALL); });
  dart_unit_mapping_cost_t cost_none{}, cost_mapped{};
  check(dart_unit_mapping_cost(c->none.unit_at.data(), 3, c->dims.data(), DART_STENCIL_FACES, 1,
                               bytes, &cost_none),
        "dart_unit_mapping_cost");
  check(dart_unit_mapping_cost(c->mapped.unit_at.data(), 3, c->dims.data(), DART_STENCIL_FACES, 1,
                               bytes, &cost_mapped),
        "dart_unit_mapping_cost");
  state.counters["node_crossings_none"] = double(cost_none.node_crossings);
  state.counters["node_crossings_mapped"] = double(cost_mapped.node_crossings);
  state.counters["modelled_none_us"] = cost_none.modelled_us;
  state.counters["modelled_mapped_us"] = cost_mapped.modelled_us;
  state.counters["bytes"] = double(bytes);
}
BENCHMARK(BM_exchange)
    ->ArgName("bytes")
    ->RangeMultiplier(16)
    ->Range(1, 1 << 20)
    ->Arg(2 << 20)
    ->UseManualTime()
    ->Iterations(60);

// The case through the library's model (dart/dart_mapping_model.h): 384 nodes x 24
// cores.
void BM_modelled_cray384(benchmark::State& state) {
  const std::size_t bytes = std::size_t(state.range(0));
  const bool scrambled = state.range(1) != 0;
  const int nodes = 384, cores = 24, nunits = nodes * cores;
  dash_test::SplitMix64 rng(2024);
  const std::string text = dash_test::CrayAllocation(rng, nodes, scrambled);
  std::vector<int> unit_node(nunits);
  for (int u = 0; u < nunits; ++u) unit_node[std::size_t(u)] = u / cores;
  dart_mapping_model_t model = nullptr;
  char err[256] = "";
  if (dart_mapping_model_create(text.c_str(), "cray384", nunits, unit_node.data(), &model, err,
                                sizeof err) != DART_OK) {
    state.SkipWithError(err);
    return;
  }
  std::array<int, 3> dims{};
  std::array<std::vector<int>, 3> unit_at;  // identity, hierarchical, hilbert
  bool ok = dart_balanced_dims(nunits, 3, dims.data()) == DART_OK;
  const dart_unit_mapping_t modes[3] = {DART_UNIT_MAPPING_NONE, DART_UNIT_MAPPING_HIERARCHICAL,
                                        DART_UNIT_MAPPING_HILBERT};
  for (int m = 0; m < 3 && ok; ++m) {
    std::vector<int> new_id(std::size_t(nunits), 0);
    ok = dart_mapping_model_compute(model, modes[m], 3, dims.data(), new_id.data(), nullptr) ==
         DART_OK;
    unit_at[std::size_t(m)].assign(std::size_t(nunits), 0);
    for (int u = 0; u < nunits; ++u)
      unit_at[std::size_t(m)][std::size_t(new_id[std::size_t(u)])] = u;
  }
  std::array<dart_unit_mapping_cost_t, 3> cost{};
  for (auto _ : state) {
    for (int m = 0; m < 3 && ok; ++m) {
      ok = dart_mapping_model_cost(model, unit_at[std::size_t(m)].data(), 3, dims.data(),
                                   DART_STENCIL_FACES, 1, bytes, &cost[std::size_t(m)]) == DART_OK;
    }
  }
  dart_mapping_model_destroy(&model);
  if (!ok) {
    state.SkipWithError("the mapping model failed");
    return;
  }
  state.counters["modelled_none_us"] = cost[0].modelled_us;
  state.counters["modelled_hierarchical_us"] = cost[1].modelled_us;
  state.counters["improvement_hierarchical"] = cost[0].modelled_us / cost[1].modelled_us;
  state.counters["improvement_hilbert"] = cost[0].modelled_us / cost[2].modelled_us;
  state.counters["node_crossings_none"] = double(cost[0].node_crossings);
  state.counters["node_crossings_hierarchical"] = double(cost[1].node_crossings);
  state.counters["node_crossings_hilbert"] = double(cost[2].node_crossings);
}
BENCHMARK(BM_modelled_cray384)
    ->ArgNames({"bytes", "scrambled"})
    ->ArgsProduct({{1, 1 << 10, 1 << 16, 2 << 20}, {1, 0}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  return bench::guarded_main("bench/stencil", [&] {
    dash::init(&argc, &argv);
    dart_unit_mapping_info_t info{};
    check(dart_unit_mapping_info(&info), "dart_unit_mapping_info");
    bench::run_on_every_unit(argc, argv, int(dash::myid().id), int(dash::size()),
                             {{{"dart_nodes", std::to_string(info.nodes)},
                               {"dart_unit_renumbered", std::to_string(info.renumbered)}}});
    exchange_case.reset();
    MPI_Barrier(MPI_COMM_WORLD);
    dash::finalize();
  });
}
