// The public mapping model (dart_mapping_model.h): a machine described in text, units put on
// its nodes, the mapping DART_UNIT_MAPPING would compute there and what a layout costs. Every
// call is local: each unit computes on its own, and the results must agree across units. Bad
// arguments give DART_ERR_INVAL and a log line naming the call and the fault. In the run_*
// variants (a topology file, one unit per emulated node, a mapping mode) the model of the
// run's own machine must agree with the run's mapping and its cost queries.
#include <dart/dart.h>
#include <gtest/gtest.h>
#include <workloads/cray_allocation.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "dart_test_util.h"
#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

// A model that destroys itself.
struct Model {
  dart_mapping_model_t m = nullptr;
  char err[256] = "";
  Model(const std::string& text, const std::vector<int>& unit_node) {
    EXPECT_EQ(dart_mapping_model_create(text.c_str(), "test.txt", int(unit_node.size()),
                                        unit_node.data(), &m, err, sizeof err),
              DART_OK)
        << err;
  }
  ~Model() { EXPECT_EQ(dart_mapping_model_destroy(&m), DART_OK); }
};

// What fn wrote to stderr (DART's log).
std::string Stderr(const std::function<void()>& fn) {
  testing::internal::CaptureStderr();
  fn();
  return testing::internal::GetCapturedStderr();
}

std::vector<int> LayoutOf(const std::vector<int>& new_id) {
  std::vector<int> unit_at(new_id.size(), -1);
  for (size_t u = 0; u < new_id.size(); ++u) unit_at[size_t(new_id[u])] = int(u);
  return unit_at;
}

bool IsPermutation(const std::vector<int>& v) {
  std::vector<char> seen(v.size(), 0);
  for (int x : v) {
    if (x < 0 || x >= int(v.size()) || seen[size_t(x)]) return false;
    seen[size_t(x)] = 1;
  }
  return true;
}

// FNV-1a of the bytes of v: one number per result, to compare across units.
template <typename T>
uint64_t Digest(const std::vector<T>& v) {
  uint64_t h = 1469598103934665603ull;
  const auto* bytes = reinterpret_cast<const unsigned char*>(v.data());
  for (size_t i = 0; i < v.size() * sizeof(T); ++i) h = (h ^ bytes[i]) * 1099511628211ull;
  return h;
}

// Every unit's value of x equals unit 0's.
void ExpectSameOnEveryUnit(uint64_t x, const char* what) {
  std::vector<uint64_t> all(size_t(nunits()), 0);
  ASSERT_EQ(dart_allgather(&x, all.data(), 1, DART_TYPE_ULONGLONG, DART_TEAM_ALL), DART_OK);
  for (int u = 0; u < nunits(); ++u) EXPECT_EQ(all[size_t(u)], all[0]) << what << ", unit " << u;
}

dart_unit_mapping_cost_t CostOf(const Model& model, const std::vector<int>& unit_at,
                                std::vector<int> dims, dart_stencil_t stencil, int periodic,
                                size_t bytes) {
  dart_unit_mapping_cost_t cost{};
  EXPECT_EQ(dart_mapping_model_cost(model.m, unit_at.data(), int(dims.size()), dims.data(), stencil,
                                    periodic, bytes, &cost),
            DART_OK);
  return cost;
}

// Four nodes of two units each; nodes 0, 1 on blade 0, nodes 2, 3 on blade 1.
const char* const kTwoBlades =
    "levels blade\n"
    "cost node 0.5 10\n"
    "cost blade 2 5\n"
    "cost system 4 2\n"
    "node 0\nnode 0\nnode 1\nnode 1\n";

TEST(MappingModel, InfoAndLinkCostsOfATable) {
  Model model(kTwoBlades, {0, 0, 1, 1, 2, 2, 3, 3});
  dart_mapping_model_info_t info{};
  ASSERT_EQ(dart_mapping_model_info(model.m, &info), DART_OK);
  EXPECT_EQ(info.nunits, 8);
  EXPECT_EQ(info.nodes, 4);
  ASSERT_EQ(info.nlevels, 3);
  EXPECT_STREQ(info.level_names[0], "node");
  EXPECT_STREQ(info.level_names[1], "blade");
  EXPECT_STREQ(info.level_names[2], "system");
  const double latency[3] = {0.5, 2, 4}, bandwidth[3] = {10, 5, 2};
  for (int j = 0; j < 3; ++j) {
    EXPECT_DOUBLE_EQ(info.cost[j].latency_us, latency[j]) << "rung " << j;
    EXPECT_DOUBLE_EQ(info.cost[j].bandwidth_GBps, bandwidth[j]) << "rung " << j;
  }
  // {a, b, rung}: the same node, nodes on one blade, different blades.
  const int cases[][3] = {{0, 1, 0}, {7, 7, 0}, {1, 2, 1}, {2, 1, 1},
                          {5, 7, 1}, {3, 4, 2}, {0, 7, 2}};
  for (const auto& c : cases) {
    int rung = -1;
    dart_link_cost_t cost{};
    ASSERT_EQ(dart_mapping_model_link_cost(model.m, c[0], c[1], &rung, &cost), DART_OK);
    EXPECT_EQ(rung, c[2]) << "units " << c[0] << ", " << c[1];
    EXPECT_DOUBLE_EQ(cost.latency_us, latency[c[2]]);
    EXPECT_DOUBLE_EQ(cost.bandwidth_GBps, bandwidth[c[2]]);
  }
}

TEST(MappingModel, CostOfALineByHand) {
  Model model(kTwoBlades, {0, 0, 1, 1, 2, 2, 3, 3});
  const std::vector<int> rank_order = {0, 1, 2, 3, 4, 5, 6, 7};
  // Links 0-1, 2-3, 4-5, 6-7 stay on a node, 1-2 and 5-6 cross nodes on a blade, 3-4 blades.
  dart_unit_mapping_cost_t c = CostOf(model, rank_order, {8}, DART_STENCIL_FACES, 0, 0);
  EXPECT_EQ(c.nlevels, 3);
  EXPECT_EQ(c.links[0], 4);
  EXPECT_EQ(c.links[1], 2);
  EXPECT_EQ(c.links[2], 1);
  EXPECT_EQ(c.node_crossings, 3);
  // No bytes: latencies only. Units 3 and 4 pay 0.5 + 4 us, units 1, 2, 5, 6 0.5 + 2 us: nodes
  // 2.5, 4.5, 4.5, 2.5 us.
  EXPECT_NEAR(c.modelled_us, 4.5, 1e-9);
  EXPECT_NEAR(c.mean_node_us, 3.5, 1e-9);
  // 1 MB per message: node 1 sends 1 MB to node 0 at 5 GB/s (200 us) and 1 MB to node 2 at
  // 2 GB/s (500 us) through its link, 2 x 1 MB at 10 GB/s (200 us) through its memory: 4.5 +
  // 700 us; node 0: 2.5 + max(200, 200) us.
  c = CostOf(model, rank_order, {8}, DART_STENCIL_FACES, 0, 1000000);
  EXPECT_NEAR(c.modelled_us, 704.5, 1e-6);
  EXPECT_NEAR(c.mean_node_us, (202.5 + 704.5) / 2, 1e-6);
  // Periodic: 7-0 crosses blades too.
  c = CostOf(model, rank_order, {8}, DART_STENCIL_FACES, 1, 0);
  EXPECT_EQ(c.links[0], 4);
  EXPECT_EQ(c.links[1], 2);
  EXPECT_EQ(c.links[2], 2);
  EXPECT_EQ(c.node_crossings, 4);
  // A 4 x 2 grid with every 3^2 - 1 neighbour: 4 x 1 faces + 3 x 2 faces + 2 x 3 diagonals.
  c = CostOf(model, rank_order, {4, 2}, DART_STENCIL_FULL, 0, 0);
  EXPECT_EQ(c.links[0] + c.links[1] + c.links[2], 4 + 6 + 6);
}

TEST(MappingModel, HierarchicalMappingGathersNodesAndBlades) {
  // Units dealt to the nodes round-robin: in rank order every link of the line crosses nodes.
  Model model(kTwoBlades, {0, 1, 0, 1, 2, 3, 2, 3});
  const std::vector<int> rank_order = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(CostOf(model, rank_order, {8}, DART_STENCIL_FACES, 0, 0).node_crossings, 7);
  std::vector<int> new_id(8, -1);
  int used_identity = -1;
  ASSERT_EQ(dart_mapping_model_compute(model.m, DART_UNIT_MAPPING_HIERARCHICAL, 1,
                                       std::vector<int>{8}.data(), new_id.data(), &used_identity),
            DART_OK);
  ASSERT_TRUE(IsPermutation(new_id));
  EXPECT_EQ(used_identity, 0);
  const dart_unit_mapping_cost_t c = CostOf(model, LayoutOf(new_id), {8}, DART_STENCIL_FACES, 0, 0);
  EXPECT_EQ(c.node_crossings, 3);  // the fewest: four nodes in a line
  EXPECT_EQ(c.links[2], 1);        // the two blades meet once
  // none keeps the rank order.
  ASSERT_EQ(dart_mapping_model_compute(model.m, DART_UNIT_MAPPING_NONE, 1,
                                       std::vector<int>{8}.data(), new_id.data(), &used_identity),
            DART_OK);
  EXPECT_EQ(new_id, rank_order);
  EXPECT_EQ(used_identity, 1);
}

// A sparse allocation of 64 nodes x 4 units on a Cray XC40-like machine, nodes in random
// order: every mode gives a permutation, never more node crossings than the rank order, and
// the same numbers on every unit.
TEST(MappingModel, SparseCrayAllocationOnEveryUnit) {
  const int nodes = 64, cores = 4, n = nodes * cores;
  dash_test::SplitMix64 rng(43);
  std::vector<int> unit_node(size_t(n), 0);
  for (int u = 0; u < n; ++u) unit_node[size_t(u)] = u / cores;
  Model model(dash_test::CrayAllocation(rng, nodes, true), unit_node);
  std::vector<int> dims(3, 0);
  ASSERT_EQ(dart_balanced_dims(n, 3, dims.data()), DART_OK);
  std::vector<int> rank_order(size_t(n), 0);
  for (int u = 0; u < n; ++u) rank_order[size_t(u)] = u;
  const int64_t identity_crossings =
      CostOf(model, rank_order, dims, DART_STENCIL_FACES, 0, 0).node_crossings;
  for (dart_unit_mapping_t mode : {DART_UNIT_MAPPING_HIERARCHICAL, DART_UNIT_MAPPING_HILBERT}) {
    SCOPED_TRACE(dart_unit_mapping_name(mode));
    std::vector<int> new_id(size_t(n), -1);
    ASSERT_EQ(dart_mapping_model_compute(model.m, mode, 3, dims.data(), new_id.data(), nullptr),
              DART_OK);
    ASSERT_TRUE(IsPermutation(new_id));
    const std::vector<int> unit_at = LayoutOf(new_id);
    const dart_unit_mapping_cost_t faces = CostOf(model, unit_at, dims, DART_STENCIL_FACES, 0, 0);
    EXPECT_LE(faces.node_crossings, identity_crossings);
    // Periodic faces of an 8 x 8 x 4 grid: one link per unit and dimension.
    const dart_unit_mapping_cost_t c = CostOf(model, unit_at, dims, DART_STENCIL_FACES, 1, 4096);
    int64_t links = 0;
    for (int j = 0; j < c.nlevels; ++j) links += c.links[j];
    EXPECT_EQ(links, 3 * n);
    EXPECT_EQ(c.node_crossings, links - c.links[0]);
    EXPECT_GT(c.modelled_us, 0);
    ExpectSameOnEveryUnit(Digest(new_id), "new ids");
    ExpectSameOnEveryUnit(Digest(std::vector<double>{c.modelled_us, c.mean_node_us}), "times");
  }
  // Scattered nodes in random order: the hierarchical mapping must gain something.
  std::vector<int> new_id(size_t(n), -1);
  ASSERT_EQ(dart_mapping_model_compute(model.m, DART_UNIT_MAPPING_HIERARCHICAL, 3, dims.data(),
                                       new_id.data(), nullptr),
            DART_OK);
  EXPECT_LT(CostOf(model, LayoutOf(new_id), dims, DART_STENCIL_FACES, 0, 0).node_crossings,
            identity_crossings);
}

TEST(MappingModel, CreateRejectsBadInputAndSaysWhy) {
  const std::vector<int> unit_node = {0, 0, 1, 3};
  auto create = [&](const char* text, int n, const int* nodes, dart_mapping_model_t* out,
                    char* err) {
    return dart_mapping_model_create(text, "bad.txt", n, nodes, out, err, 256);
  };
  // {what, text, nunits, unit_node, model pointer, expected message}
  struct Case {
    const char* what;
    const char* text;
    int n;
    const int* nodes;
    bool model;
    const char* message;
  };
  const Case cases[] = {
      {"no model", kTwoBlades, 4, unit_node.data(), false, "model is NULL"},
      {"no text", nullptr, 4, unit_node.data(), true, "need topology_text, unit_node"},
      {"no unit_node", kTwoBlades, 4, nullptr, true, "need topology_text, unit_node"},
      {"no units", kTwoBlades, 0, unit_node.data(), true, "nunits >= 1 (0)"},
      {"node past the end", "levels blade\nnode 0\nnode 1\n", 4, unit_node.data(), true,
       "unit_node[3] = 3: the topology describes nodes 0..1"},
      {"malformed text", "levels blade\nnode 0\nnode x\n", 2, unit_node.data(), true,
       "bad.txt:3: "},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    char err[256] = "untouched";
    dart_mapping_model_t model = reinterpret_cast<dart_mapping_model_t>(&err);  // garbage in
    dart_ret_t ret = DART_OK;
    const std::string log =
        Stderr([&] { ret = create(c.text, c.n, c.nodes, c.model ? &model : nullptr, err); });
    EXPECT_EQ(ret, DART_ERR_INVAL);
    if (c.model) {
      EXPECT_EQ(model, nullptr);
    }
    EXPECT_NE(std::string(err).find(c.message), std::string::npos) << err;
    EXPECT_NE(log.find("dart_mapping_model_create: "), std::string::npos) << log;
    EXPECT_NE(log.find(c.message), std::string::npos) << log;
  }
  // err may be NULL.
  dart_mapping_model_t model = nullptr;
  EXPECT_EQ(dart_mapping_model_create("node x\n", nullptr, 1, unit_node.data(), &model, nullptr, 0),
            DART_ERR_INVAL);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(dart_mapping_model_destroy(nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_mapping_model_destroy(&model), DART_OK);  // a NULL model
}

TEST(MappingModel, QueriesRejectBadInputAndSaysWhy) {
  Model model(kTwoBlades, {0, 0, 1, 1, 2, 2, 3, 3});
  dart_mapping_model_t none = nullptr;
  int rung = -1;
  dart_link_cost_t link{};
  dart_mapping_model_info_t info{};
  std::vector<int> new_id(8, -5);
  const std::vector<int> untouched = new_id;
  const std::vector<int> line = {8}, two_by_four = {2, 4}, seven = {7}, zero = {0, 8},
                         five_dims = {1, 1, 1, 1, 8};
  const std::vector<int> rank_order = {0, 1, 2, 3, 4, 5, 6, 7}, twice = {0, 0, 2, 3, 4, 5, 6, 7},
                         too_high = {0, 1, 2, 3, 4, 5, 6, 8};
  dart_unit_mapping_cost_t cost{};
  // {what, call, the log line's text}
  struct Case {
    const char* what;
    std::function<dart_ret_t()> call;
    const char* message;
  };
  const Case cases[] = {
      {"info: no model", [&] { return dart_mapping_model_info(none, &info); },
       "dart_mapping_model_info: model and info must not be NULL"},
      {"info: no info", [&] { return dart_mapping_model_info(model.m, nullptr); },
       "dart_mapping_model_info: model and info must not be NULL"},
      {"link: unit 8 of 8",
       [&] { return dart_mapping_model_link_cost(model.m, 0, 8, &rung, &link); },
       "dart_mapping_model_link_cost: units 0 and 8: not both in [0, 8)"},
      {"link: unit -1", [&] { return dart_mapping_model_link_cost(model.m, -1, 0, &rung, &link); },
       "not both in [0, 8)"},
      {"link: no rung", [&] { return dart_mapping_model_link_cost(model.m, 0, 1, nullptr, &link); },
       "model, rung and cost must not be NULL"},
      {"compute: no model",
       [&] {
         return dart_mapping_model_compute(none, DART_UNIT_MAPPING_HILBERT, 1, line.data(),
                                           new_id.data(), nullptr);
       },
       "dart_mapping_model_compute: model, dims and new_id must not be NULL"},
      {"compute: no new_id",
       [&] {
         return dart_mapping_model_compute(model.m, DART_UNIT_MAPPING_HILBERT, 1, line.data(),
                                           nullptr, nullptr);
       },
       "model, dims and new_id must not be NULL"},
      {"compute: unknown mode",
       [&] {
         return dart_mapping_model_compute(model.m, dart_unit_mapping_t(7), 1, line.data(),
                                           new_id.data(), nullptr);
       },
       "unknown mapping mode 7"},
      {"compute: 0 dims",
       [&] {
         return dart_mapping_model_compute(model.m, DART_UNIT_MAPPING_HIERARCHICAL, 0, line.data(),
                                           new_id.data(), nullptr);
       },
       "ndims 0 is not in [1, 4]"},
      {"compute: 5 dims",
       [&] {
         return dart_mapping_model_compute(model.m, DART_UNIT_MAPPING_HIERARCHICAL, 5,
                                           five_dims.data(), new_id.data(), nullptr);
       },
       "ndims 5 is not in [1, 4]"},
      {"compute: 7 positions",
       [&] {
         return dart_mapping_model_compute(model.m, DART_UNIT_MAPPING_HIERARCHICAL, 1, seven.data(),
                                           new_id.data(), nullptr);
       },
       "the grid of 1 dims does not hold the model's 8 units"},
      {"compute: extent 0",
       [&] {
         return dart_mapping_model_compute(model.m, DART_UNIT_MAPPING_HIERARCHICAL, 2, zero.data(),
                                           new_id.data(), nullptr);
       },
       "dims[0] = 0: every extent must be >= 1"},
      {"cost: no cost",
       [&] {
         return dart_mapping_model_cost(model.m, rank_order.data(), 1, line.data(),
                                        DART_STENCIL_FACES, 0, 0, nullptr);
       },
       "dart_mapping_model_cost: model, unit_at, dims and cost must not be NULL"},
      {"cost: unknown stencil",
       [&] {
         return dart_mapping_model_cost(model.m, rank_order.data(), 1, line.data(),
                                        dart_stencil_t(9), 0, 0, &cost);
       },
       "unknown stencil 9"},
      {"cost: 7 positions",
       [&] {
         return dart_mapping_model_cost(model.m, rank_order.data(), 1, seven.data(),
                                        DART_STENCIL_FACES, 0, 0, &cost);
       },
       "does not hold the model's 8 units"},
      {"cost: a unit twice",
       [&] {
         return dart_mapping_model_cost(model.m, twice.data(), 2, two_by_four.data(),
                                        DART_STENCIL_FACES, 0, 0, &cost);
       },
       "unit_at[1] = 0: the layout must hold every unit of [0, 8) exactly once"},
      {"cost: unit 8 of 8",
       [&] {
         return dart_mapping_model_cost(model.m, too_high.data(), 1, line.data(), DART_STENCIL_FULL,
                                        1, 0, &cost);
       },
       "unit_at[7] = 8"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    dart_ret_t ret = DART_OK;
    const std::string log = Stderr([&] { ret = c.call(); });
    EXPECT_EQ(ret, DART_ERR_INVAL);
    EXPECT_NE(log.find(c.message), std::string::npos) << log;
    EXPECT_EQ(new_id, untouched);
  }
}

std::string ReadFile(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The run's machine as a model: the topology file, unit_node[r] = the node of the unit with
// MPI rank r (the model's units are the run's units in rank order).
TEST(MappingModel, AgreesWithTheRunsMapping) {
  const char* path = std::getenv("DART_TOPOLOGY_FILE");
  if (path == nullptr) GTEST_SKIP() << "only in the run_* variants (DART_TOPOLOGY_FILE)";
  const int n = nunits();
  std::vector<int> rank(size_t(n), -1), unit_node(size_t(n), -1);
  for (int v = 0; v < n; ++v) {
    rank[size_t(v)] = dash_test::RankOf(v);
    unit_node[size_t(rank[size_t(v)])] = dash_test::ExpectedNode(v);
  }
  Model model(ReadFile(path), unit_node);
  ASSERT_NE(model.m, nullptr) << model.err;
  dart_unit_mapping_info_t run{};
  dart_mapping_model_info_t info{};
  ASSERT_EQ(dart_unit_mapping_info(&run), DART_OK);
  ASSERT_EQ(dart_mapping_model_info(model.m, &info), DART_OK);
  ASSERT_EQ(info.nlevels, run.nlevels);
  for (int j = 0; j < run.nlevels; ++j) {
    EXPECT_STREQ(info.level_names[j], run.level_names[j]);
    EXPECT_EQ(info.cost[j].latency_us, run.cost[j].latency_us);
    EXPECT_EQ(info.cost[j].bandwidth_GBps, run.cost[j].bandwidth_GBps);
  }
  // The model's mapping is the run's: the unit of rank r got id new_id[r].
  std::vector<int> new_id(size_t(n), -1);
  ASSERT_EQ(
      dart_mapping_model_compute(model.m, run.mode, run.ndims, run.dims, new_id.data(), nullptr),
      DART_OK);
  for (int v = 0; v < n; ++v) EXPECT_EQ(new_id[size_t(rank[size_t(v)])], v) << "unit " << v;
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      int run_rung = -1, model_rung = -2;
      dart_link_cost_t run_cost{}, model_cost{};
      ASSERT_EQ(dart_unit_link_cost({a}, {b}, &run_rung, &run_cost), DART_OK);
      ASSERT_EQ(dart_mapping_model_link_cost(model.m, rank[size_t(a)], rank[size_t(b)], &model_rung,
                                             &model_cost),
                DART_OK);
      EXPECT_EQ(model_rung, run_rung) << "units " << a << ", " << b;
      EXPECT_EQ(model_cost.latency_us, run_cost.latency_us);
    }
  }
  // The run's layout (unit v at position v) costs the same in both.
  std::vector<dart_global_unit_t> run_at(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) run_at[size_t(v)] = {v};
  for (int periodic : {0, 1}) {
    for (dart_stencil_t stencil : {DART_STENCIL_FACES, DART_STENCIL_FULL}) {
      SCOPED_TRACE(std::to_string(periodic) + (stencil == DART_STENCIL_FULL ? " full" : " faces"));
      dart_unit_mapping_cost_t in_run{}, in_model{};
      ASSERT_EQ(dart_unit_mapping_cost(run_at.data(), run.ndims, run.dims, stencil, periodic, 65536,
                                       &in_run),
                DART_OK);
      ASSERT_EQ(dart_mapping_model_cost(model.m, rank.data(), run.ndims, run.dims, stencil,
                                        periodic, 65536, &in_model),
                DART_OK);
      EXPECT_EQ(in_model.nlevels, in_run.nlevels);
      for (int j = 0; j < in_run.nlevels; ++j) EXPECT_EQ(in_model.links[j], in_run.links[j]);
      EXPECT_EQ(in_model.node_crossings, in_run.node_crossings);
      EXPECT_DOUBLE_EQ(in_model.modelled_us, in_run.modelled_us);
      EXPECT_DOUBLE_EQ(in_model.mean_node_us, in_run.mean_node_us);
    }
  }
}

}  // namespace
