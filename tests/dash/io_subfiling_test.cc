// dash::io subfiling (IoSettings::subfiling, DASH_IO_SUBFILING): a file of
// one part per k nodes and a subfile table at its path. Runs on emulated
// nodes (DART_VIRTUAL_NODE_SIZE=1, and 2 as a variant), so the parts are
// real. Round trips of save/load and write_pieces/read_pieces into other
// patterns, aggregator counts and unit counts; replacing a file (parted or
// not) removes the parts it had; a missing or truncated part and a damaged
// table throw on every unit; a failed write leaves the old file and no
// part behind.
#include <dart/dart.h>
#include <dart/dart_unit_mapping.h>
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/io/Pieces.h>
#include <dash/io/Save.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
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

// Parts for k nodes per file with `aggregators` aggregators (at most one part each).
int ExpectedParts(int k, int aggregators) {
  return std::max(1, std::min((Nodes() + k - 1) / k, aggregators));
}

dash::io::IoSettings Subfiled(int k, int aggregators, std::uint64_t buffer) {
  dash::io::IoSettings s = Io(aggregators, buffer);
  s.subfiling = k;
  return s;
}

// The files of dir besides the table (unit 0's view), sorted.
std::vector<std::string> PartsIn(const SharedDir& dir, const std::string& table) {
  std::vector<std::string> names = dir.names();
  names.erase(std::remove(names.begin(), names.end(), table), names.end());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(IoSubfiling, SaveLoad_PartsPerNode_AnyReader) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::size_t n = 20011;  // odd: chunks and domains end mid-element
  dash::Array<std::int64_t> a(n, dash::BLOCKCYCLIC(7));
  Fill(a);
  const std::string path = dir.file("a");
  for (int k : {1, 2}) {
    SCOPED_TRACE("nodes per file " + std::to_string(k));
    const int parts = ExpectedParts(k, nunits());
    const dash::io::IoReport r = dash::io::save(a, path, Subfiled(k, nunits(), 8192));
    EXPECT_EQ(r.subfiles, parts);
    dash::Team::All().barrier();
    if (myid() == 0) {
      EXPECT_EQ(Contents(path).rfind("DASHSUB1\n", 0) == 0, parts > 1);
      EXPECT_EQ(PartsIn(dir, "a").size(), std::size_t(parts > 1 ? parts : 0));
    }
    for (int readers : {1, nunits()}) {
      dash::Array<std::int64_t> b(n, dash::CYCLIC);
      EXPECT_EQ(dash::io::load(path, b, Io(readers, 0)).subfiles, parts);
      ExpectValues(b);
    }
    EXPECT_EQ(dash::io::file_layout(path).extents, std::vector<std::uint64_t>{n});
  }
  // A single file replaces the parted one: its parts go.
  EXPECT_EQ(dash::io::save(a, path, Io(nunits(), 8192)).subfiles, 1);
  dash::Team::All().barrier();
  if (myid() == 0) {
    EXPECT_TRUE(PartsIn(dir, "a").empty());
  }
  dash::Array<std::int64_t> c(n);
  dash::io::load(path, c);
  ExpectValues(c);
  // dash::io::remove takes a parted file with its parts (and a missing one quietly).
  dash::io::save(a, path, Subfiled(1, nunits(), 8192));
  dash::Team::All().barrier();
  if (myid() == 0) {
    dash::io::remove(path);
    EXPECT_TRUE(dir.names().empty());
    dash::io::remove(path);
  }
}

// The flag does what the setting does; a team of fewer units reads the file.
TEST(IoSubfiling, Flag_TeamOfFewerUnits) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::size_t n = 9001;
  dash::Array<std::int64_t> a(n);
  Fill(a);
  setenv("DASH_IO_SUBFILING", "1", 1);
  const dash::io::IoReport r = dash::io::save(a, dir.file("f"), Io(nunits(), 4096));
  unsetenv("DASH_IO_SUBFILING");
  EXPECT_EQ(r.subfiles, ExpectedParts(1, nunits()));
  dash::Team& all = dash::Team::All();
  if (all.size() >= 2) {
    dash::Team& half = all.split(2);
    if (half.global_id(dash::team_unit_t{0}).id == 0) {  // unit 0's half
      dash::Array<std::int64_t> b(n, dash::CYCLIC, half);
      dash::io::load(dir.file("f"), b, Io(1, 0));
      ExpectValues(b);
    }
  }
  dash::Team::All().barrier();
  setenv("DASH_IO_SUBFILING", "-2", 1);
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(a, dir.file("g"), {}); }, "DASH_IO_SUBFILING");
  unsetenv("DASH_IO_SUBFILING");
}

// Plain files: pieces with gaps, parted, read back by other aggregators.
TEST(IoSubfiling, Pieces_RoundTrip_Gaps) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const int me = myid(), units = nunits();
  // Slot s of the file is [s * 5000, s * 5000 + 3000 + 37 s); unit s % units writes it.
  const SlotPieces written(4 * units + 1, 5000, 3000, 37);
  const std::vector<dash::io::Piece>& mine = written.pieces;
  const std::string path = dir.file("p");
  const dash::io::IoReport r =
      dash::io::write_pieces(path, mine, dash::Team::All(), Subfiled(1, units, 4096));
  EXPECT_EQ(r.subfiles, ExpectedParts(1, units));
  SlotPieces back = written.Blank();
  dash::io::read_pieces(path, back.pieces, dash::Team::All(), Io(1, 8192));
  for (std::size_t k = 0; k < back.memory.size(); ++k)
    EXPECT_EQ(back.memory[k], written.memory[k]) << "piece " << k << " on unit " << me;
  // The gap after the last slot's piece of the previous slot reads as zeros.
  std::vector<char> gap(100, 1);
  std::vector<dash::io::Piece> gaps;
  if (me == 0) gaps.push_back({5000 - 100, gap.data(), gap.size()});
  dash::io::read_pieces(path, gaps, dash::Team::All(), Subfiled(1, units, 0));
  if (me == 0) {
    EXPECT_EQ(gap, std::vector<char>(100, 0));
  }
}

// A damaged table, a missing part, a truncated part: clear errors on every
// unit. A failing parted write leaves the old file, and no part of its own.
TEST(IoSubfiling, DamagedParts_FailedWrite_ThrowEverywhere) {
  if (Nodes() < 2) GTEST_SKIP() << "one node: no parts";
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::size_t n = 12000;
  dash::Array<std::int64_t> a(n);
  Fill(a);
  const std::string path = dir.file("d");
  ASSERT_GT(dash::io::save(a, path, Subfiled(1, nunits(), 4096)).subfiles, 1);
  std::vector<std::string> parts;
  if (myid() == 0) parts = PartsIn(dir, "d");
  // A failing write: the old file and its parts stay, nothing new is left.
  dash::Array<std::int64_t> other(n);
  std::fill(other.lbegin(), other.lend(), -1);
  other.barrier();
  setenv("DASH_IO_TEST_FAIL_WRITE", "2", 1);
  ExpectThrowEverywhere<dash::exception::RuntimeError>(
      [&] { dash::io::save(other, path, Subfiled(1, nunits(), 4096)); }, "");
  unsetenv("DASH_IO_TEST_FAIL_WRITE");
  dash::Team::All().barrier();
  if (myid() == 0) {
    EXPECT_EQ(PartsIn(dir, "d"), parts) << "a failed write left files behind";
  }
  dash::Array<std::int64_t> back(n, dash::CYCLIC);
  dash::io::load(path, back);
  ExpectValues(back);
  // Then damage, one after the other: the last part cut short, gone, the table changed.
  struct Damage {
    const char* name;
    const char* text;
  };
  for (const Damage& d : {Damage{"truncated", "truncated"}, Damage{"missing", "No such file"},
                          Damage{"table", "damaged"}}) {
    SCOPED_TRACE(d.name);
    if (myid() == 0) {
      const std::string part = dir.file(parts.back()), name = d.name;
      if (name == "truncated") {
        EXPECT_EQ(truncate(part.c_str(), 10), 0);
      }
      if (name == "missing") {
        EXPECT_EQ(std::remove(part.c_str()), 0);
      }
      if (name == "table") {
        std::string table = Contents(path);
        table[table.find("size ") + 5] ^= 1;
        std::ofstream(path, std::ios::binary | std::ios::trunc) << table;
      }
    }
    dash::Team::All().barrier();
    dash::Array<std::int64_t> into(n);
    ExpectThrowEverywhere<dash::exception::RuntimeError>([&] { dash::io::load(path, into); },
                                                         d.text);
  }
}

}  // namespace
