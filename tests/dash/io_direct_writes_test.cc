// dash::io writes without aggregation (IoSettings::aggregation,
// DASH_IO_AGGREGATION): every unit writes its own pieces. The files are the
// same bytes an aggregated write leaves (gaps as zeros, a container file's
// chunk checksums, also for chunks across two units' pieces, which are read
// back); "auto" steps aside only when no two units share a node and every
// unit's pieces are large; "off" with subfiling or the burst buffer, and a
// bad flag value, are refused on every unit. (dash_io_save also runs whole
// as the variant "direct", with DASH_IO_AGGREGATION=off.)
#include <dart/dart.h>
#include <dart/dart_unit_mapping.h>
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/io/Pieces.h>
#include <dash/io/Save.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io_test_support.h"
#include "mpi_test.h"
#include "shared_dir.h"

namespace {

using dash_test::Contents;
using dash_test::ExpectThrowEverywhere;
using dash_test::ExpectValues;
using dash_test::Fill;
using dash_test::Io;
using dash_test::myid;
using dash_test::Nodes;
using dash_test::nunits;
using dash_test::SharedDir;
using dash_test::SlotPieces;

dash::io::IoSettings Aggregation(const char* mode, std::uint64_t buffer) {
  dash::io::IoSettings s = Io(0, buffer);
  s.aggregation = mode;
  return s;
}

// Pieces with gaps, some cut across chunks: the same file both ways.
TEST(IoDirectWrites, Pieces_SameFileAsAggregated) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const int me = myid(), units = nunits();
  const SlotPieces written(3 * units + 2, 7000, 4000, 51);
  const std::vector<dash::io::Piece>& mine = written.pieces;
  dash::Team& all = dash::Team::All();
  const dash::io::IoReport direct =
      dash::io::write_pieces(dir.file("direct"), mine, all, Aggregation("off", 4096));
  EXPECT_EQ(direct.tier, "none");
  EXPECT_EQ(direct.aggregators, 0);
  EXPECT_TRUE(direct.aggregator_units.empty());
  const dash::io::IoReport aggregated =
      dash::io::write_pieces(dir.file("aggregated"), mine, all, Aggregation("on", 4096));
  EXPECT_GT(aggregated.aggregators, 0);
  all.barrier();
  if (me == 0) {
    EXPECT_EQ(Contents(dir.file("direct")), Contents(dir.file("aggregated")));
  }
  SlotPieces back = written.Blank();
  dash::io::read_pieces(dir.file("direct"), back.pieces, all);
  for (std::size_t k = 0; k < back.memory.size(); ++k)
    EXPECT_EQ(back.memory[k], written.memory[k]) << "piece " << k << " on unit " << me;
}

// A container file: byte for byte an aggregated save's (the chunk
// checksums included: chunks inside one unit's block from memory, chunks
// across two blocks read back), from a BLOCKED and a CYCLIC array.
TEST(IoDirectWrites, Save_SameFileAsAggregated_LoadsElsewhere) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::size_t n = 30011;  // odd: blocks end mid-chunk
  dash::Array<std::int64_t> blocked(n);
  Fill(blocked);
  dash::Array<std::int64_t> cyclic(n, dash::CYCLIC);
  Fill(cyclic);
  EXPECT_EQ(dash::io::save(blocked, dir.file("b.direct"), Aggregation("off", 8192)).tier, "none");
  dash::io::save(blocked, dir.file("b.aggregated"), Aggregation("on", 8192));
  dash::io::save(cyclic, dir.file("c.direct"), Aggregation("off", 8192));
  dash::Team::All().barrier();
  if (myid() == 0) {
    EXPECT_EQ(Contents(dir.file("b.direct")), Contents(dir.file("b.aggregated")));
    EXPECT_EQ(Contents(dir.file("c.direct")), Contents(dir.file("b.aggregated")));
  }
  dash::Array<std::int64_t> back(n, dash::BLOCKCYCLIC(13));
  dash::io::load(dir.file("c.direct"), back);
  ExpectValues(back);
}

// "auto": without aggregation where every unit's pieces are at least a chunk, whether or not
// units share a node; smaller pieces or any explicit setting keep aggregation.
TEST(IoDirectWrites, Auto_LargePieces_OnAnyNodeLayout) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::size_t n = 4096 * nunits();
  dash::Array<std::int64_t> a(n);
  Fill(a);
  EXPECT_EQ(dash::io::save(a, dir.file("a"), Aggregation("auto", 4096)).tier, "none")
      << Nodes() << " nodes";
  // Pieces smaller than a chunk (the chunk is at most the file: one unit's
  // piece is the whole file), or an aggregator count, a tier: aggregated.
  EXPECT_EQ(dash::io::save(a, dir.file("a"), Aggregation("auto", 1 << 20)).tier == "none",
            nunits() == 1);
  dash::io::IoSettings counted = Aggregation("auto", 4096);
  counted.aggregators = 1;
  EXPECT_NE(dash::io::save(a, dir.file("a"), counted).tier, "none");
  dash::io::IoSettings tiered = Aggregation("auto", 4096);
  tiered.tier = "dram";
  EXPECT_EQ(dash::io::save(a, dir.file("a"), tiered).tier, "dram");
  setenv("DASH_IO_AGGREGATION", "off", 1);
  EXPECT_EQ(dash::io::save(a, dir.file("a"), Io(0, 1 << 20)).tier, "none");
  unsetenv("DASH_IO_AGGREGATION");
  dash::Array<std::int64_t> b(n, dash::CYCLIC);
  dash::io::load(dir.file("a"), b);
  ExpectValues(b);
}

// Refused on every unit, the earlier file intact: "off" with subfiling or
// the burst buffer, a bad setting or flag value; a failing write.
TEST(IoDirectWrites, BadInput_ThrowsEverywhere) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::size_t n = 5000;
  dash::Array<std::int64_t> a(n);
  Fill(a);
  const std::string path = dir.file("x");
  dash::io::save(a, path);
  dash::Array<std::int64_t> other(n);
  std::fill(other.lbegin(), other.lend(), -1);
  other.barrier();
  dash::io::IoSettings parted = Aggregation("off", 4096);
  parted.subfiling = 1;
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(other, path, parted); }, "subfiling");
  dash::io::IoSettings staged = Aggregation("off", 4096);
  staged.burst_buffer = true;
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(other, path, staged); }, "burst buffer");
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(other, path, Aggregation("sometimes", 4096)); }, "aggregation");
  setenv("DASH_IO_AGGREGATION", "never", 1);
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(other, path, Io(0, 4096)); }, "DASH_IO_AGGREGATION");
  unsetenv("DASH_IO_AGGREGATION");
  setenv("DASH_IO_TEST_FAIL_WRITE", "1", 1);
  ExpectThrowEverywhere<dash::exception::RuntimeError>(
      [&] { dash::io::save(other, path, Aggregation("off", 4096)); }, "DASH_IO_TEST_FAIL_WRITE");
  unsetenv("DASH_IO_TEST_FAIL_WRITE");
  dash::Team::All().barrier();
  if (myid() == 0) {
    EXPECT_EQ(dir.names(), std::vector<std::string>{"x"});
  }
  dash::Array<std::int64_t> b(n);
  dash::io::load(path, b);
  ExpectValues(b);
}

}  // namespace
