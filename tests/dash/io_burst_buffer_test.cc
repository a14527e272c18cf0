// dash::io's burst buffer (IoSettings::burst_buffer, DASH_IO_BURST_BUFFER):
// a write lands in node-local files (DASH_IO_NODE_DIR), returns, and drains
// to its path in the background; dash::io::drain (or the next write of the
// path, or the team's end) puts the file in place. Runs on emulated nodes
// (DART_VIRTUAL_NODE_SIZE=1), so each aggregator's file is "its node's".
// Checks: before the drain the path still holds the old file while reads
// get the new data from the node-local copy (each aggregator reads only its
// own files: another's would be an error); after it the path holds exactly
// what a direct write leaves and the node-local files are gone; a failed
// drain keeps the old file and the node-local copy; bad node directories,
// failed writes and reads on another team throw on every unit.
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
using dash_test::nunits;
using dash_test::SharedDir;
using dash_test::SlotPieces;

dash::io::IoSettings Burst(int aggregators, std::uint64_t buffer) {
  dash::io::IoSettings s = Io(aggregators, buffer);
  s.burst_buffer = true;
  return s;
}

// DASH_IO_NODE_DIR pointed at a fresh directory for the test's life.
class NodeDir {
 public:
  NodeDir() { setenv("DASH_IO_NODE_DIR", dir_.path().c_str(), 1); }
  ~NodeDir() { unsetenv("DASH_IO_NODE_DIR"); }
  // The node-local files (unit 0's view; every emulated node shares it).
  std::size_t staged_files() const {
    std::size_t n = 0;
    for (const std::string& name : dir_.names()) n += name.find(".bb.") != std::string::npos;
    return n;
  }
  bool ok() const { return dir_.ok(); }

 private:
  SharedDir dir_;
};

// What a load into a CYCLIC array reports, checking every value.
dash::io::IoReport LoadAndCheck(const std::string& path, std::size_t n) {
  dash::Array<std::int64_t> b(n, dash::CYCLIC);
  const dash::io::IoReport r = dash::io::load(path, b, Io(1, 0));
  ExpectValues(b);
  return r;
}

TEST(IoBurstBuffer, Save_ReadFromNodeLocalCopy_ThenDrain) {
  SharedDir dir;
  NodeDir node;
  ASSERT_TRUE(dir.ok() && node.ok());
  const std::size_t n = 20011;  // odd: chunks and domains end mid-element
  const std::string path = dir.file("a");
  dash::Array<std::int64_t> old(n);
  std::fill(old.lbegin(), old.lend(), -5);
  old.barrier();
  dash::io::save(old, path);
  const std::string old_bytes = myid() == 0 ? Contents(path) : "";
  dash::Array<std::int64_t> a(n, dash::BLOCKCYCLIC(7));
  Fill(a);
  const dash::io::IoReport w = dash::io::save(a, path, Burst(nunits(), 8192));
  EXPECT_TRUE(w.staged);
  EXPECT_EQ(w.aggregators, nunits());
  dash::Team::All().barrier();
  if (myid() == 0) {
    EXPECT_EQ(Contents(path), old_bytes) << "the path changed before the drain";
    EXPECT_EQ(node.staged_files(), std::size_t(nunits() + 2));  // head, domains, tail
  }
  // Read before the drain: the node-local copy, by the writer's aggregators.
  EXPECT_TRUE(LoadAndCheck(path, n).staged);
  EXPECT_EQ(dash::io::file_layout(path).extents, std::vector<std::uint64_t>{n});
  dash::io::drain();
  dash::Team::All().barrier();
  if (myid() == 0) {
    EXPECT_EQ(node.staged_files(), 0u);
    EXPECT_EQ(dir.names(), std::vector<std::string>{"a"});  // no temporary file left
  }
  EXPECT_FALSE(LoadAndCheck(path, n).staged);
  dash::io::drain();  // nothing pending: no effect
}

// write_pieces with gaps: the drained file is byte for byte a direct write's.
TEST(IoBurstBuffer, Pieces_DrainedFileEqualsDirectWrite) {
  SharedDir dir;
  NodeDir node;
  ASSERT_TRUE(dir.ok() && node.ok());
  const int me = myid(), units = nunits();
  const SlotPieces written(3 * units + 1, 5000, 3000, 37);
  const std::vector<dash::io::Piece>& mine = written.pieces;
  dash::Team& all = dash::Team::All();
  dash::io::write_pieces(dir.file("direct"), mine, all, Io(units, 4096));
  EXPECT_TRUE(dash::io::write_pieces(dir.file("p"), mine, all, Burst(units, 4096)).staged);
  SlotPieces back = written.Blank();
  EXPECT_TRUE(dash::io::read_pieces(dir.file("p"), back.pieces, all, Io(1, 8192)).staged);
  for (std::size_t k = 0; k < back.memory.size(); ++k)
    EXPECT_EQ(back.memory[k], written.memory[k]) << "piece " << k << " on unit " << me;
  dash::io::drain(all);
  all.barrier();
  if (me == 0) {
    EXPECT_EQ(Contents(dir.file("p")), Contents(dir.file("direct")));
  }
}

// The flag; a second write of the path drains the first; remove refuses a
// path that has not drained; with subfiling the drained file is parted.
TEST(IoBurstBuffer, Flag_SecondWrite_Remove_Subfiling) {
  SharedDir dir;
  NodeDir node;
  ASSERT_TRUE(dir.ok() && node.ok());
  const std::size_t n = 9001;
  const std::string path = dir.file("f");
  dash::Array<std::int64_t> a(n);
  std::fill(a.lbegin(), a.lend(), 3);
  a.barrier();
  setenv("DASH_IO_BURST_BUFFER", "1", 1);
  EXPECT_TRUE(dash::io::save(a, path, Io(nunits(), 4096)).staged);
  Fill(a);
  dash::io::IoSettings parted = Io(nunits(), 4096);
  parted.subfiling = 1;
  const dash::io::IoReport second = dash::io::save(a, path, parted);  // drains the first first
  EXPECT_TRUE(second.staged);
  const char* virtual_nodes = getenv("DART_VIRTUAL_NODE_SIZE");
  if (virtual_nodes && std::string(virtual_nodes) == "1" && nunits() > 1) {
    EXPECT_GT(second.subfiles, 1);  // subfiling goes on behind the burst buffer
  }
  unsetenv("DASH_IO_BURST_BUFFER");
  dash::Team::All().barrier();
  if (myid() == 0) {
    EXPECT_EQ(node.staged_files(), std::size_t(nunits() + 2));  // only the second write's
    ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { dash::io::remove(path); },
                                                            "drain");
  }
  LoadAndCheck(path, n);
  dash::io::drain();
  dash::Team::All().barrier();
  if (myid() == 0) {
    // One part per (emulated) node: a subfile table at the path.
    EXPECT_EQ(Contents(path).rfind("DASHSUB1\n", 0) == 0, second.subfiles > 1);
  }
  LoadAndCheck(path, n);
  if (myid() == 0) dash::io::remove(path);
}

// A drain that fails (DASH_IO_TEST_FAIL_DRAIN): every unit throws, the old
// file stays at the path, the node-local copy stays, no temporary file.
TEST(IoBurstBuffer, FailedDrain_KeepsOldFileAndCopy) {
  SharedDir dir;
  NodeDir node;
  ASSERT_TRUE(dir.ok() && node.ok());
  const std::size_t n = 12000;
  const std::string path = dir.file("d");
  dash::Array<std::int64_t> a(n);
  Fill(a);
  dash::io::save(a, path);
  const std::string old_bytes = myid() == 0 ? Contents(path) : "";
  dash::Array<std::int64_t> other(n);
  std::fill(other.lbegin(), other.lend(), -1);
  other.barrier();
  setenv("DASH_IO_TEST_FAIL_DRAIN", "1", 1);
  dash::io::save(other, path, Burst(nunits(), 4096));
  unsetenv("DASH_IO_TEST_FAIL_DRAIN");
  ExpectThrowEverywhere<dash::exception::RuntimeError>([&] { dash::io::drain(); }, "");
  dash::Team::All().barrier();
  if (myid() == 0) {
    EXPECT_EQ(Contents(path), old_bytes);
    EXPECT_EQ(dir.names(), std::vector<std::string>{"d"});
    EXPECT_EQ(node.staged_files(), std::size_t(nunits() + 2));
  }
  LoadAndCheck(path, n);  // the old file, whole
}

// Bad node directory, missing target directory, a failing node-local write:
// errors on every unit, the old file intact, nothing left behind.
TEST(IoBurstBuffer, BadInput_ThrowsEverywhere_NothingLeft) {
  SharedDir dir;
  NodeDir node;
  ASSERT_TRUE(dir.ok() && node.ok());
  const std::size_t n = 7000;
  const std::string path = dir.file("b");
  dash::Array<std::int64_t> a(n);
  Fill(a);
  dash::io::save(a, path);
  dash::Array<std::int64_t> other(n);
  std::fill(other.lbegin(), other.lend(), -1);
  other.barrier();
  ExpectThrowEverywhere<dash::exception::RuntimeError>(
      [&] { dash::io::save(other, dir.file("missing/b"), Burst(nunits(), 4096)); }, "");
  setenv("DASH_IO_TEST_FAIL_WRITE", "1", 1);
  ExpectThrowEverywhere<dash::exception::RuntimeError>(
      [&] { dash::io::save(other, path, Burst(nunits(), 4096)); }, "DASH_IO_TEST_FAIL_WRITE");
  unsetenv("DASH_IO_TEST_FAIL_WRITE");
  dash::Team::All().barrier();
  if (myid() == 0) {
    EXPECT_EQ(node.staged_files(), 0u);
    EXPECT_EQ(dir.names(), std::vector<std::string>{"b"});
  }
  setenv("DASH_IO_NODE_DIR", dir.file("no-such-dir").c_str(), 1);
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(other, path, Burst(nunits(), 4096)); }, "writable directory");
  dash::Team::All().barrier();
  if (myid() == 0) {
    EXPECT_EQ(dir.names(), std::vector<std::string>{"b"});
  }
  LoadAndCheck(path, n);
  dash::io::drain();
}

// A write on a sub-team: another team's read of the path is refused until
// it drains; freeing the sub-team drains it.
TEST(IoBurstBuffer, SubTeam_ForeignReadRefused_FreeDrains) {
  if (nunits() < 2) GTEST_SKIP() << "needs two teams";
  SharedDir dir;
  NodeDir node;
  ASSERT_TRUE(dir.ok() && node.ok());
  const std::size_t n = 5003;
  const std::string path = dir.file("s");
  dash::Team& all = dash::Team::All();
  dash::Team& half = all.split(2);
  if (half.global_id(dash::team_unit_t{0}).id == 0) {  // unit 0's half
    dash::Array<std::int64_t> a(n, dash::BLOCKED, half);
    Fill(a);
    EXPECT_TRUE(dash::io::save(a, path, Burst(0, 4096)).staged);
  }
  all.barrier();
  dash::Array<std::int64_t> b(n);
  ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { dash::io::load(path, b); },
                                                          "another team");
  half.free();
  all.barrier();
  LoadAndCheck(path, n);
  if (myid() == 0) {
    EXPECT_EQ(node.staged_files(), 0u);
  }
}

}  // namespace
