// Unit remapping at start-up (DART_UNIT_MAPPING, DART_TOPOLOGY_FILE) seen from a running
// program: the ids form a permutation of the MPI ranks that every unit agrees on, DART_TEAM_ALL
// and puts work with the new ids, the layout in force never has more node crossings than the
// rank order, and the public cost and info queries answer consistently. The variants in
// CMakeLists.txt set the flags; DASH_TEST_RENUMBERED_UNITS=<n>,<m> names the unit counts at
// which the variant must renumber (at all others it must not).
#include <dart/dart.h>
#include <mpi.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

// Whether this run must renumber, from DASH_TEST_RENUMBERED_UNITS.
bool ExpectRenumbered() {
  const char* list = std::getenv("DASH_TEST_RENUMBERED_UNITS");
  if (list == nullptr) return false;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty() && std::stoi(item) == nunits()) return true;
  return false;
}

std::vector<int> WorldRanks() {
  std::vector<int> rank(static_cast<size_t>(nunits()), -1);
  for (int u = 0; u < nunits(); ++u)
    EXPECT_EQ(dart_unit_mpi_rank(dart_global_unit_t{u}, &rank[static_cast<size_t>(u)]), DART_OK);
  return rank;
}

TEST(UnitMapping, IdsArePermutedMpiRanksAllUnitsAgreeOn) {
  const std::vector<int> rank = WorldRanks();
  std::vector<int> seen(rank.size(), 0);
  for (int r : rank) {
    ASSERT_GE(r, 0);
    ASSERT_LT(r, nunits());
    ++seen[static_cast<size_t>(r)];
  }
  for (int s : seen) EXPECT_EQ(s, 1);
  int world = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  EXPECT_EQ(rank[static_cast<size_t>(myid())], world);
  // Every unit holds the same table.
  std::vector<int> all(rank.size() * rank.size());
  ASSERT_EQ(dart_allgather(rank.data(), all.data(), rank.size(), DART_TYPE_INT, DART_TEAM_ALL),
            DART_OK);
  for (size_t u = 0; u < rank.size(); ++u)
    for (size_t i = 0; i < rank.size(); ++i) EXPECT_EQ(all[u * rank.size() + i], rank[i]);
}

TEST(UnitMapping, InfoSaysWhatWasDone) {
  dart_unit_mapping_info_t info;
  ASSERT_EQ(dart_unit_mapping_info(&info), DART_OK);
  const std::vector<int> rank = WorldRanks();
  bool moved = false;
  for (int u = 0; u < nunits(); ++u) moved = moved || rank[static_cast<size_t>(u)] != u;
  EXPECT_EQ(info.renumbered, moved ? 1 : 0);
  EXPECT_EQ(info.renumbered == 1, ExpectRenumbered());
  if (info.mode == DART_UNIT_MAPPING_NONE) {
    EXPECT_EQ(info.renumbered, 0);
  }
  EXPECT_EQ(info.ndims, 3);
  std::vector<int> dims(3);
  ASSERT_EQ(dart_balanced_dims(nunits(), 3, dims.data()), DART_OK);
  for (int d = 0; d < 3; ++d) EXPECT_EQ(info.dims[d], dims[static_cast<size_t>(d)]);
  EXPECT_GE(info.nodes, 1);
  EXPECT_LE(info.nodes, nunits());
  ASSERT_GE(info.nlevels, 2);
  EXPECT_STREQ(info.level_names[0], "node");
  EXPECT_STREQ(info.level_names[info.nlevels - 1], "system");
  if (info.topology_nodes == 0) {
    EXPECT_EQ(info.nlevels, 2);
  }
  for (int l = 0; l < info.nlevels; ++l) {
    EXPECT_GE(info.cost[l].latency_us, 0);
    EXPECT_GT(info.cost[l].bandwidth_GBps, 0);
  }
  const char* mode = std::getenv("DART_UNIT_MAPPING");
  const char* fallback = std::getenv("DART_UNIT_MAPPING_FALLBACK");
  if (fallback == nullptr && mode != nullptr && std::string(mode) == "hierarchical") {
    EXPECT_EQ(info.mode, DART_UNIT_MAPPING_HIERARCHICAL);
  }
}

TEST(UnitMapping, LayoutInForceNeverCrossesMoreNodesThanRankOrder) {
  dart_unit_mapping_info_t info;
  ASSERT_EQ(dart_unit_mapping_info(&info), DART_OK);
  const std::vector<int> rank = WorldRanks();
  std::vector<dart_global_unit_t> by_rank(rank.size()), by_id(rank.size());
  for (int u = 0; u < nunits(); ++u) {
    by_rank[static_cast<size_t>(rank[static_cast<size_t>(u)])] = dart_global_unit_t{u};
    by_id[static_cast<size_t>(u)] = dart_global_unit_t{u};
  }
  for (int periodic : {0, 1}) {
    dart_unit_mapping_cost_t none{}, mapped{};
    ASSERT_EQ(dart_unit_mapping_cost(by_rank.data(), 3, info.dims, DART_STENCIL_FACES, periodic,
                                     1024, &none),
              DART_OK);
    ASSERT_EQ(dart_unit_mapping_cost(by_id.data(), 3, info.dims, DART_STENCIL_FACES, periodic, 1024,
                                     &mapped),
              DART_OK);
    EXPECT_LE(mapped.node_crossings, none.node_crossings) << "periodic " << periodic;
    ASSERT_EQ(mapped.nlevels, info.nlevels);
    int64_t links_none = 0, links_mapped = 0, off_node = 0;
    for (int l = 0; l < mapped.nlevels; ++l) {
      links_none += none.links[l];
      links_mapped += mapped.links[l];
      if (l > 0) off_node += mapped.links[l];
    }
    EXPECT_EQ(links_none, links_mapped);
    EXPECT_EQ(off_node, mapped.node_crossings);
    EXPECT_EQ(mapped.modelled_us > 0, links_mapped > 0);
    EXPECT_GE(mapped.modelled_us, mapped.mean_node_us - 1e-9);
    if (info.renumbered && periodic == 0 && mapped.node_crossings == none.node_crossings) {
      // Then better from the top: fewer links at the first level where the two differ.
      int l = mapped.nlevels - 1;
      while (l > 0 && mapped.links[l] == none.links[l]) --l;
      EXPECT_LT(mapped.links[l], none.links[l]) << "level " << l;
    }
  }
}

TEST(UnitMapping, CostRejectsBadLayouts) {
  dart_unit_mapping_info_t info;
  ASSERT_EQ(dart_unit_mapping_info(&info), DART_OK);
  std::vector<dart_global_unit_t> twice(static_cast<size_t>(nunits()), dart_global_unit_t{0});
  dart_unit_mapping_cost_t cost;
  if (nunits() > 1) {
    EXPECT_EQ(dart_unit_mapping_cost(twice.data(), 3, info.dims, DART_STENCIL_FACES, 0, 8, &cost),
              DART_ERR_INVAL);
  }
  std::vector<dart_global_unit_t> ok(static_cast<size_t>(nunits()));
  for (int u = 0; u < nunits(); ++u) ok[static_cast<size_t>(u)] = dart_global_unit_t{u};
  const int wrong_dims[3] = {nunits() + 1, 1, 1};
  EXPECT_EQ(dart_unit_mapping_cost(ok.data(), 3, wrong_dims, DART_STENCIL_FACES, 0, 8, &cost),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_unit_mapping_cost(nullptr, 3, info.dims, DART_STENCIL_FACES, 0, 8, &cost),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_unit_mapping_cost(ok.data(), 3, info.dims, DART_STENCIL_FACES, 0, 8, nullptr),
            DART_ERR_INVAL);
  int r = 0;
  EXPECT_EQ(dart_unit_mpi_rank(dart_global_unit_t{nunits()}, &r), DART_ERR_INVAL);
  EXPECT_EQ(dart_unit_mpi_rank(dart_global_unit_t{-1}, &r), DART_ERR_INVAL);
  EXPECT_EQ(dart_unit_mpi_rank(dart_global_unit_t{0}, nullptr), DART_ERR_INVAL);
  int dims[3];
  EXPECT_EQ(dart_balanced_dims(0, 3, dims), DART_ERR_INVAL);
  EXPECT_EQ(dart_balanced_dims(12, 3, dims), DART_OK);
  EXPECT_EQ(dims[0] * dims[1] * dims[2], 12);
  EXPECT_EQ(dims[0], 3);
}

TEST(UnitMapping, PutsReachTheUnitsOfTheNewIds) {
  // Every unit writes its id into the next unit's memory (by DART id) and reads back what the
  // previous one wrote: the ring of new ids, whatever the MPI ranks are.
  dart_gptr_t g;
  ASSERT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 1, DART_TYPE_INT, &g), DART_OK);
  const int next = (myid() + 1) % nunits();
  dart_gptr_t at = g;
  ASSERT_EQ(dart_gptr_setunit(&at, dart_team_unit_t{next}), DART_OK);
  const int mine = myid();
  ASSERT_EQ(dart_put_blocking(at, &mine, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  ASSERT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  dart_gptr_t self = g;
  ASSERT_EQ(dart_gptr_setunit(&self, dart_team_unit_t{myid()}), DART_OK);
  int got = -1;
  ASSERT_EQ(dart_get_blocking(&got, self, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(got, (myid() + nunits() - 1) % nunits());
  ASSERT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  ASSERT_EQ(dart_team_memfree(g), DART_OK);
}

}  // namespace

namespace {

// The link between two units: symmetric, rung 0 exactly for units of one node, a rung of the
// ladder otherwise, with that rung's latency and bandwidth; a unit out of range is refused.
TEST(UnitMapping, LinkCostFollowsNodesAndTheLadder) {
  dart_unit_mapping_info_t info;
  ASSERT_EQ(dart_unit_mapping_info(&info), DART_OK);
  for (int a = 0; a < nunits(); ++a)
    for (int b = 0; b < nunits(); ++b) {
      int rung = -1, back = -1;
      dart_link_cost_t cost, cost_back;
      ASSERT_EQ(dart_unit_link_cost(dart_global_unit_t{a}, dart_global_unit_t{b}, &rung, &cost),
                DART_OK);
      ASSERT_EQ(
          dart_unit_link_cost(dart_global_unit_t{b}, dart_global_unit_t{a}, &back, &cost_back),
          DART_OK);
      EXPECT_EQ(rung, back);
      dart_unit_placement_t la, lb;
      ASSERT_EQ(dart_unit_placement(DART_TEAM_ALL, dart_team_unit_t{a}, &la), DART_OK);
      ASSERT_EQ(dart_unit_placement(DART_TEAM_ALL, dart_team_unit_t{b}, &lb), DART_OK);
      EXPECT_EQ(rung == 0, la.node == lb.node) << a << " and " << b;
      ASSERT_GE(rung, 0);
      ASSERT_LT(rung, info.nlevels);
      EXPECT_EQ(cost.latency_us, info.cost[rung].latency_us);
      EXPECT_EQ(cost.bandwidth_GBps, info.cost[rung].bandwidth_GBps);
    }
  int rung = 0;
  dart_link_cost_t cost;
  EXPECT_EQ(dart_unit_link_cost(dart_global_unit_t{nunits()}, dart_global_unit_t{0}, &rung, &cost),
            DART_ERR_INVAL);
}

}  // namespace
