// dash::io's cost model: the toy example of Tessier, Vishwanath & Jeannot ("Adding topology
// and memory awareness in data aggregation algorithms", FGCS 2024) (four processes on four nodes
// holding 10, 50, 20 and 5 units of data, three memory tiers per node, a parallel file system as
// the target) ranks the tiers alike for every candidate and chooses HBM on process 1's node; costs
// match a hand computation; capacity and persistency exclude pairs; the table prints the choice.
//
// That paper's own table of tier figures is not at hand, so the figures below are
// representative ones of its kind (HBM fastest, DRAM next, NVRAM slow but persistent).
#include <dash/Exception.h>
#include <dash/io/CostModel.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

dash::io::Tier MakeTier(const char* name, double latency, double bandwidth, double capacity,
                        bool persistent) {
  dash::io::Tier t;
  t.name = name;
  t.latency_s = latency;
  t.bandwidth_Bps = bandwidth;
  t.capacity = std::uint64_t(capacity);
  t.persistent = persistent;
  return t;
}

dash::io::ModelInput ToyExample() {
  dash::io::ModelInput in;
  in.bytes = {10000000, 50000000, 20000000, 5000000};  // 10, 50, 20, 5 MB
  const std::vector<dash::io::Tier> tiers = {MakeTier("hbm", 50e-9, 400e9, 16e9, false),
                                             MakeTier("dram", 80e-9, 90e9, 192e9, false),
                                             MakeTier("nvram", 20e-6, 2e9, 128e9, true)};
  for (int u = 0; u < 4; ++u) {
    dash::io::Candidate c;
    c.unit = u;
    c.tiers = tiers;
    c.target = {1e-3, 5e9};  // the parallel file system
    in.candidates.push_back(c);
  }
  // Nodes 0 and 1 share a blade (1 us, 12 GB/s); others meet across the system (3 us, 8 GB/s).
  in.network = [](int p, int a) {
    const bool blade = (p < 2) == (a < 2);
    return blade ? dash::io::Link{1e-6, 12e9} : dash::io::Link{3e-6, 8e9};
  };
  in.buffer_bytes = 2 * (16 << 20);
  return in;
}

TEST(IoCostModel, ToyExample_SameTierRankingEverywhere_HbmOnProcessOneWins) {
  const dash::io::CostTable table = dash::io::evaluate(ToyExample());
  ASSERT_EQ(table.rows.size(), 12u);
  ASSERT_GE(table.best, 0);
  EXPECT_EQ(table.rows[std::size_t(table.best)].unit, 1);
  EXPECT_EQ(table.rows[std::size_t(table.best)].tier, "hbm");
  for (int u = 0; u < 4; ++u) {
    const dash::io::CostRow& hbm = table.rows[std::size_t(3 * u)];
    const dash::io::CostRow& dram = table.rows[std::size_t(3 * u + 1)];
    const dash::io::CostRow& nvram = table.rows[std::size_t(3 * u + 2)];
    EXPECT_LT(hbm.total_s, dram.total_s) << "process " << u;
    EXPECT_LT(dram.total_s, nvram.total_s) << "process " << u;
  }
  const std::string text = table.text();
  EXPECT_NE(text.find("hbm"), std::string::npos);
  EXPECT_NE(text.find("<- chosen"), std::string::npos);
}

// Process 1 on HBM by hand: its own 50 MB at the tier's speed, the others over the network.
TEST(IoCostModel, CostsMatchAHandComputation) {
  const dash::io::CostTable table = dash::io::evaluate(ToyExample());
  const dash::io::CostRow& r = table.rows[3];  // process 1, hbm
  ASSERT_EQ(r.unit, 1);
  ASSERT_EQ(r.tier, "hbm");
  const double a = (1e-6 + 50e-9 + 10e6 / 12e9) + (0 + 50e-9 + 50e6 / 400e9) +
                   (3e-6 + 50e-9 + 20e6 / 8e9) + (3e-6 + 50e-9 + 5e6 / 8e9);
  const double t = 1e-3 + 85e6 / 5e9;
  EXPECT_NEAR(r.aggregation_s, a, 1e-12);
  EXPECT_NEAR(r.transfer_s, t, 1e-12);
  EXPECT_NEAR(r.total_s, a + t, 1e-12);
}

// With chunks the rounds overlap: a two-stage pipeline of R rounds.
TEST(IoCostModel, PipelinedRoundsOverlap) {
  dash::io::ModelInput in = ToyExample();
  const dash::io::CostRow one_round = dash::io::evaluate(in).rows[3];  // process 1, hbm
  in.chunk_bytes = 16 << 20;                                           // 85 MB in 6 rounds
  const dash::io::CostRow r = dash::io::evaluate(in).rows[3];
  const double a = one_round.aggregation_s, t = one_round.transfer_s;
  EXPECT_EQ(r.aggregation_s, a);
  EXPECT_EQ(r.transfer_s, t);
  EXPECT_NEAR(r.total_s, (a + t) / 6 + 5.0 / 6 * std::max(a, t), 1e-12);
  EXPECT_LT(r.total_s, a + t);
  EXPECT_GT(r.total_s, std::max(a, t));
  // One round (a chunk as large as the data, or none given): no overlap.
  EXPECT_DOUBLE_EQ(dash::io::pipelined_total(a, t, 1000, 1000), a + t);
  EXPECT_DOUBLE_EQ(dash::io::pipelined_total(a, t, 1000, 0), a + t);
  EXPECT_DOUBLE_EQ(dash::io::pipelined_total(a, t, 0, 10), a + t);
  // Very many rounds: the slower stage alone.
  EXPECT_NEAR(dash::io::pipelined_total(a, t, 1ull << 40, 1), std::max(a, t), 1e-9);
  // The winner stays HBM on process 1.
  const dash::io::CostTable table = dash::io::evaluate(in);
  EXPECT_EQ(table.rows[std::size_t(table.best)].unit, 1);
  EXPECT_EQ(table.rows[std::size_t(table.best)].tier, "hbm");
}

// A tier too small for the buffers, or not persistent when that is required, is out.
TEST(IoCostModel, CapacityAndPersistencyExclude) {
  dash::io::ModelInput in = ToyExample();
  for (dash::io::Candidate& c : in.candidates) c.tiers[0].capacity = 1000;  // hbm too small
  dash::io::CostTable table = dash::io::evaluate(in);
  EXPECT_EQ(table.rows[std::size_t(table.best)].tier, "dram");
  EXPECT_NE(table.rows[0].excluded.find("capacity"), std::string::npos);
  in.persistent = true;
  table = dash::io::evaluate(in);
  EXPECT_EQ(table.rows[std::size_t(table.best)].tier, "nvram");
  EXPECT_EQ(table.rows[1].excluded, "not persistent");
  for (dash::io::Candidate& c : in.candidates) c.tiers.pop_back();  // no persistent tier
  EXPECT_EQ(dash::io::evaluate(in).best, -1);
}

// Placement over domains: each domain's producer of least cost, a producer
// aggregates one domain at most (a later domain whose producers are all
// taken gets the nearest free unit), the model's placement is never worse
// than rank order, and a domain without any free unit makes it impossible.
TEST(IoCostModel, PlacementOverDomains) {
  const dash::io::ModelInput toy = ToyExample();
  dash::io::PlacementInput in;
  in.units = 4;
  in.domains = {{{0, 10000000}, {1, 50000000}}, {{1, 20000000}, {3, 5000000}}, {{1, 1000000}}};
  in.tier = toy.candidates[0].tiers[1];  // dram
  in.target = toy.candidates[0].target;
  in.network = toy.network;
  in.buffer_bytes = toy.buffer_bytes;
  in.explain = true;
  const dash::io::Placement placed = dash::io::place_aggregators(in);
  ASSERT_TRUE(placed.possible);
  EXPECT_EQ(placed.units, (std::vector<int>{1, 3, 0}));
  EXPECT_NE(placed.text.find("domain 2"), std::string::npos) << placed.text;
  const dash::io::Placement same = dash::io::cost_of_placement(in, placed.units);
  EXPECT_DOUBLE_EQ(same.slowest_s, placed.slowest_s);
  const dash::io::Placement rank_order = dash::io::cost_of_placement(in, {0, 1, 2});
  EXPECT_GT(rank_order.slowest_s, placed.slowest_s);
  // Aggregator 0 for domain 0 pulls process 1's 50 MB over the blade: by hand.
  const double by_hand =
      (0 + 80e-9 + 10e6 / 90e9) + (1e-6 + 80e-9 + 50e6 / 12e9) + (1e-3 + 60e6 / 5e9);
  EXPECT_NEAR(rank_order.slowest_s, by_hand, 1e-12);
  // Three domains, two units: the third has no free unit.
  in.units = 2;
  in.domains = {{{0, 1000}, {1, 1000}}, {{1, 1000}}, {{0, 1000}}};
  const dash::io::Placement short_of_units = dash::io::place_aggregators(in);
  EXPECT_FALSE(short_of_units.possible);
  EXPECT_EQ(short_of_units.units[2], -1);
  // A producer outside the units, or a placement of the wrong length, is refused.
  in.domains[1] = {{2, 1000}};
  EXPECT_THROW(dash::io::place_aggregators(in), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::io::cost_of_placement(in, {0, 1, 0}), dash::exception::InvalidArgument);
  in.domains[1] = {{1, 1000}};
  EXPECT_THROW(dash::io::cost_of_placement(in, {0, 1}), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::io::cost_of_placement(in, {0, 1, 5}), dash::exception::InvalidArgument);
}

// Per-unit tier figures (per-node tables): a unit whose node's tier has no
// room for the buffers is never placed, a domain no free producer can take
// goes to the cheapest free unit, and a faster tier on a node draws it.
TEST(IoCostModel, PerUnitTiers_NoRoomFallsBackToAFreeUnit) {
  const dash::io::ModelInput toy = ToyExample();
  dash::io::PlacementInput in;
  in.units = 4;
  in.domains = {{{1, 50000000}}, {{1, 10000000}, {3, 20000000}}};
  in.tier = toy.candidates[0].tiers[1];  // dram, 90 GB/s
  in.tier_per_unit.assign(4, in.tier);
  in.tier_per_unit[3].capacity = 1000;        // no room on unit 3's node
  in.tier_per_unit[2].bandwidth_Bps = 400e9;  // a faster tier on unit 2's node
  in.target = toy.candidates[0].target;
  in.network = toy.network;
  in.buffer_bytes = toy.buffer_bytes;
  in.explain = true;
  const dash::io::Placement placed = dash::io::place_aggregators(in);
  ASSERT_TRUE(placed.possible) << placed.text;
  // Domain 1: unit 1 is taken, unit 3 has no room; unit 2 pulls 10 MB across the system
  // (8 GB/s) and 20 MB over its blade (12 GB/s), cheaper than unit 0 (12 and 8 GB/s).
  EXPECT_EQ(placed.units, (std::vector<int>{1, 2})) << placed.text;
  EXPECT_NE(placed.text.find("out: capacity 1000"), std::string::npos) << placed.text;
  in.tier_per_unit[2].bandwidth_Bps = 0;  // unit 2's node lacks the tier: unit 0 then
  EXPECT_EQ(dash::io::place_aggregators(in).units, (std::vector<int>{1, 0}));
}

}  // namespace
