// dash::io's cost model with per-node tier tables: every (emulated) node
// reads its own tier file (DASH_IO_TIERS=.../io_node_tiers/node%n.txt,
// DART_VIRTUAL_NODE_SIZE=1): node 1's DRAM is a hundred times faster, node
// 3's has no room for the buffers. The aggregators go to node 1 first and
// never to node 3; the data still round-trips.
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/io/Pieces.h>
#include <dash/io/Tiers.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../../dash/src/io/TierMemory.h"  // white-box: tier_file_path's %n, %h and %% expansion
#include "mpi_test.h"
#include "shared_dir.h"

namespace {

using dash_test::myid;
using dash_test::nunits;
using dash_test::SharedDir;

TEST(IoNodeTiers, EachNodeReadsItsOwnFile) {
  const dash::io::Tier& dram = dash::io::node_tier("dram");
  EXPECT_EQ(dram.bandwidth_Bps, myid() == 1 ? 100e9 : 1e9);
  EXPECT_EQ(dram.capacity, myid() == 3 ? 1024u : std::uint64_t(16) << 30);
  EXPECT_NE(dram.source.find("node" + std::to_string(myid()) + ".txt:2"), std::string::npos)
      << dram.source;
  EXPECT_EQ(dash::io::internal::tier_file_path("a%n-%%-%h").substr(0, 5),
            "a" + std::to_string(myid()) + "-%-");
  EXPECT_THROW(dash::io::internal::tier_file_path("tiers.%x"), dash::exception::InvalidArgument);
}

// Unit u gives 256 KiB + 4 KiB * u, in unit order.
struct Data {
  std::vector<char> mine;
  std::vector<dash::io::Piece> pieces;
  explicit Data(char fill) {
    std::uint64_t at = 0;
    for (int u = 0; u < myid(); ++u) at += (256 + 4 * std::uint64_t(u)) << 10;
    mine.assign((256 + 4 * std::size_t(myid())) << 10, fill);
    for (std::size_t i = 0; i < mine.size(); i += 997) mine[i] = char(myid() + i % 101);
    pieces.push_back({at, mine.data(), mine.size()});
  }
};

dash::io::IoSettings Aggregators(int a) {
  dash::io::IoSettings s;
  s.aggregators = a;
  s.buffer_bytes = 64 << 10;
  return s;
}

TEST(IoNodeTiers, AggregatorsOnTheFastNode_NeverWhereBuffersDoNotFit) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.file("t");
  Data data(7);
  const dash::io::IoReport one =
      dash::io::write_pieces(path, data.pieces, dash::Team::All(), Aggregators(1));
  EXPECT_EQ(one.tier, "dram");
  EXPECT_EQ(one.aggregator_units, std::vector<int>{1});
  const int a = std::min(nunits(), 3);
  const dash::io::IoReport many =
      dash::io::write_pieces(path, data.pieces, dash::Team::All(), Aggregators(a));
  ASSERT_EQ(many.aggregator_units.size(), std::size_t(a));
  EXPECT_NE(std::find(many.aggregator_units.begin(), many.aggregator_units.end(), 1),
            many.aggregator_units.end());
  EXPECT_EQ(std::find(many.aggregator_units.begin(), many.aggregator_units.end(), 3),
            many.aggregator_units.end());
  Data back(0);
  std::fill(back.mine.begin(), back.mine.end(), char(0));
  const dash::io::IoReport read =
      dash::io::read_pieces(path, back.pieces, dash::Team::All(), Aggregators(1));
  EXPECT_EQ(read.aggregator_units, std::vector<int>{1});
  EXPECT_EQ(back.mine, data.mine);
}

}  // namespace
