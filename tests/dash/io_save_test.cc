// dash::io::save and dash::io::load: round trips over 1-D and 2-D patterns,
// odd and empty sizes, any aggregator count and buffer size; a file loads
// into another pattern, another rank and a team of fewer units; every bad
// input throws on every unit (missing directory, a file of another type or
// size, damaged, truncated, not ours, a failing write) and a failed save
// leaves the earlier file whole and no temporary file behind.
#include <dart/dart.h>
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/Team.h>
#include <dash/algorithm/Copy.h>
#include <dash/io/Save.h>
#include <dash/io/Tiers.h>
#include <dirent.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "io_test_support.h"
#include "mpi_test.h"
#include "shared_dir.h"

namespace {

using dash_test::ExpectMatrixValues;
using dash_test::ExpectThrowEverywhere;
using dash_test::ExpectValues;
using dash_test::Fill;
using dash_test::FillMatrix;
using dash_test::Io;
using dash_test::myid;
using dash_test::nunits;
using dash_test::SharedDir;
using dash_test::Value;

TEST(IoSave, Array_RoundTrip_OddSizes_Patterns_Aggregators_Buffers) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::vector<std::size_t> sizes = {0, 1, 7, 1000, 4099};
  for (std::size_t n : sizes) {
    for (int aggregators : {0, 1, 2, 4}) {
      for (std::uint64_t buffer : {std::uint64_t(4096), std::uint64_t(0)}) {
        SCOPED_TRACE("n " + std::to_string(n) + " aggregators " + std::to_string(aggregators) +
                     " buffer " + std::to_string(buffer));
        dash::Array<std::int64_t> a(n, dash::BLOCKCYCLIC(7));
        Fill(a);
        const std::string path = dir.file("a" + std::to_string(n));
        dash::io::save(a, path, Io(aggregators, buffer));
        dash::Array<std::int64_t> b(n, dash::CYCLIC);
        dash::io::load(path, b, Io(aggregators, 0));
        ExpectValues(b);
        dash::Array<std::int64_t> c(n);  // BLOCKED, the flags' settings
        dash::io::load(path, c);
        ExpectValues(c);
      }
    }
  }
  dash::Team::All().barrier();
  if (myid() == 0) {
    for (const std::string& name : dir.names())
      EXPECT_EQ(name.find(".tmp"), std::string::npos) << name << " left behind";
  }
}

// A 2-D TILE matrix with odd extents loads into row blocks, into an Array of
// as many elements, and the header tells what the file holds.
TEST(IoSave, Matrix_Tile_LoadsAsRows_AsArray_Header) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const long rows = 37, cols = 53;
  dash::Matrix<std::int64_t, 2> m(rows, cols, dash::TILE(8), dash::TILE(5));
  FillMatrix(m);
  const std::string path = dir.file("m");
  dash::io::save(m, path, Io(0, 4096));
  const dash::io::FileLayout layout = dash::io::file_layout(path);
  EXPECT_EQ(layout.type_name, "int64");
  EXPECT_EQ(layout.element_size, 8u);
  EXPECT_EQ(layout.extents, (std::vector<std::uint64_t>{37, 53}));
  EXPECT_EQ(layout.units, std::uint64_t(nunits()));
  dash::Matrix<std::int64_t, 2> byrows(rows, cols, dash::BLOCKED, dash::NONE);
  dash::io::load(path, byrows);
  ExpectValues(byrows);
  dash::Array<std::int64_t> flat(std::size_t(rows * cols), dash::BLOCKCYCLIC(10));
  dash::io::load(path, flat);
  ExpectValues(flat);
  // And back: the array's file loads into a 3-D-free 2-D matrix of tiles.
  dash::io::save(flat, dir.file("flat"));
  dash::Matrix<std::int64_t, 2> tiles(rows, cols, dash::TILE(4), dash::TILE(16));
  dash::io::load(dir.file("flat"), tiles);
  ExpectValues(tiles);
}

// Elements of 12 bytes cut by the 4 KiB chunks' borders, in strided runs
// (CYCLIC, BLOCKCYCLIC) and a 2-D BLOCKED x BLOCKED matrix (strided rows).
struct Triple {
  std::int32_t a, b, c;
  bool operator==(const Triple& o) const { return a == o.a && b == o.b && c == o.c; }
};
Triple TripleAt(std::int64_t g) { return {std::int32_t(g), std::int32_t(-g), std::int32_t(g * 7)}; }

TEST(IoSave, PiecesCutByChunks_StridedRuns) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::size_t n = 3 * 4096 + 5;
  for (int way = 0; way < 3; ++way) {
    SCOPED_TRACE("way " + std::to_string(way));
    dash::Array<Triple> a(n, way == 0   ? dash::CYCLIC
                             : way == 1 ? dash::BLOCKCYCLIC(3)
                                        : dash::BLOCKED);
    for (std::size_t li = 0; li < a.lsize(); ++li)
      a.lbegin()[li] = TripleAt(std::int64_t(a.pattern().global(long(li))));
    a.barrier();
    dash::io::save(a, dir.file("t"), Io(0, 4096));
    EXPECT_EQ(dash::io::file_layout(dir.file("t")).type_name, "bytes<12>");
    dash::Array<Triple> b(n, way == 0 ? dash::BLOCKCYCLIC(5) : dash::CYCLIC);
    dash::io::load(dir.file("t"), b, Io(nunits() > 1 ? 2 : 1, 0));
    std::vector<Triple> all(n);
    dash::copy(b.begin(), b.end(), all.data());
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(all[i], TripleAt(std::int64_t(i))) << i;
  }
  const long rows = 41, cols = 29;
  dash::Matrix<std::int64_t, 2> m(rows, cols, dash::BLOCKED, dash::BLOCKED);
  FillMatrix(m);
  dash::io::save(m, dir.file("m"), Io(0, 4096));
  dash::Matrix<std::int64_t, 2> t(rows, cols, dash::TILE(3), dash::TILE(7));
  dash::io::load(dir.file("m"), t, Io(0, 0));
  ExpectValues(t);
  dash::Matrix<std::int64_t, 2> back(rows, cols, dash::BLOCKED, dash::BLOCKED);
  dash::io::save(t, dir.file("t2"), Io(0, 8192 + 8));
  dash::io::load(dir.file("t2"), back);
  ExpectValues(back);
}

// Column-major N-D patterns: the file is row-major whatever the memory order, so a
// column-major BLOCKCYCLIC x BLOCKED or TILE matrix loads into a row-major one and back, and
// files of either load into either (checked element by element through global references).
TEST(IoSave, ColumnMajorPatterns_RoundTrip_WithRowMajor) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  using ColBlock =
      dash::NArray<std::int64_t, 2, dash::default_index_t, dash::BlockPattern<2, dash::COL_MAJOR>>;
  using ColTile =
      dash::Matrix<std::int64_t, 2, dash::default_index_t, dash::TilePattern<2, dash::COL_MAJOR>>;
  const long rows = 37, cols = 23;  // odd: blocks end short
  const dash::SizeSpec<2> size(rows, cols);
  ColBlock a(size, dash::DistributionSpec<2>(dash::BLOCKCYCLIC(3), dash::BLOCKED));
  FillMatrix(a);
  dash::io::save(a, dir.file("col"), Io(0, 4096));
  dash::Matrix<std::int64_t, 2> row_major(rows, cols);
  dash::io::load(dir.file("col"), row_major);
  ExpectMatrixValues(row_major);
  dash::io::save(row_major, dir.file("row"), Io(nunits(), 1024));
  ColTile t(size, dash::DistributionSpec<2>(dash::TILE(5), dash::TILE(4)));
  dash::io::load(dir.file("row"), t, Io(1, 0));
  ExpectMatrixValues(t);
  dash::io::save(t, dir.file("tile"), Io(nunits(), 2048));
  ColBlock back(size, dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  dash::io::load(dir.file("tile"), back);
  ExpectMatrixValues(back);
  dash::Array<std::int64_t> flat(std::size_t(rows * cols), dash::CYCLIC);
  dash::io::load(dir.file("tile"), flat);
  ExpectValues(flat);
}

// A file written by every unit loads on a team of fewer units.
TEST(IoSave, LoadsOnTeamOfFewerUnits) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::size_t n = 3001;
  dash::Array<double> a(n);
  for (std::size_t li = 0; li < a.lsize(); ++li)
    a.lbegin()[li] = double(Value(std::int64_t(a.pattern().global(long(li)))));
  a.barrier();
  dash::io::save(a, dir.file("d"), Io(0, 8192));
  dash::Team& all = dash::Team::All();
  if (all.size() < 2) {
    dash::Array<double> b(n, dash::CYCLIC);
    dash::io::load(dir.file("d"), b);
    ExpectValues(b);
    return;
  }
  dash::Team& part = all.split(2);
  if (part.global_id(dash::team_unit_t{0}).id == 0) {  // unit 0's half
    dash::Array<double> b(n, dash::CYCLIC, part);
    dash::io::load(dir.file("d"), b, Io(1, 0));
    ExpectValues(b);
  }
  all.barrier();
}

// Every bad input throws on every unit; nothing is lost or left behind.
TEST(IoSave, BadInput_ThrowsEverywhere_OldFileIntact) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::size_t n = 5000;
  dash::Array<std::int64_t> a(n);
  Fill(a);
  const std::string path = dir.file("good");
  dash::io::save(a, path, Io(0, 4096));

  // A directory that does not exist, and a path through a regular file.
  ExpectThrowEverywhere<dash::exception::RuntimeError>(
      [&] { dash::io::save(a, dir.file("missing/x"), {}); }, "");
  ExpectThrowEverywhere<dash::exception::RuntimeError>([&] { dash::io::save(a, path + "/x", {}); },
                                                       "");
  ExpectThrowEverywhere<dash::exception::RuntimeError>([&] { dash::io::load(dir.file("none"), a); },
                                                       "");

  // Another element type, another count, other extents.
  dash::Array<double> wrong_type(n);
  ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { dash::io::load(path, wrong_type); },
                                                          "float64");
  dash::Array<std::int64_t> wrong_size(n + 1);
  ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { dash::io::load(path, wrong_size); },
                                                          "5000");
  dash::Matrix<std::int64_t, 2> m(50, 100);
  FillMatrix(m);
  dash::io::save(m, dir.file("m"));
  dash::Matrix<std::int64_t, 2> transposed(100, 50);
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::load(dir.file("m"), transposed); }, "50x100");

  // A failing write (as a full disk): the earlier file stays whole.
  dash::Array<std::int64_t> other(n);
  for (std::size_t li = 0; li < other.lsize(); ++li) other.lbegin()[li] = -1;
  other.barrier();
  setenv("DASH_IO_TEST_FAIL_WRITE", "1", 1);
  ExpectThrowEverywhere<dash::exception::RuntimeError>(
      [&] { dash::io::save(other, path, Io(0, 4096)); }, "");
  unsetenv("DASH_IO_TEST_FAIL_WRITE");
  dash::Array<std::int64_t> back(n, dash::CYCLIC);
  dash::io::load(path, back);
  ExpectValues(back);
  dash::Team::All().barrier();
  if (myid() == 0) {
    for (const std::string& name : dir.names())
      EXPECT_EQ(name.find(".tmp"), std::string::npos) << name << " left behind";
  }

  // Damaged files: a flipped header byte, a flipped data byte, cut short,
  // not ours. Unit 0 damages a copy; every unit must refuse it.
  struct Damage {
    const char* name;
    long at;    // byte to flip (-1: none)
    long keep;  // bytes to keep (-1: all)
    const char* text;
  };
  const long data_at = 4096 + 8 * 2500;
  for (const Damage& d :
       {Damage{"header", 40, -1, "damaged"}, Damage{"data", data_at, -1, "checksum"},
        Damage{"cut", -1, 4096 + 8 * 4000, "truncated"}, Damage{"short", -1, 100, "not a file"}}) {
    SCOPED_TRACE(d.name);
    const std::string copy = dir.file(std::string("damaged-") + d.name);
    if (myid() == 0) {
      std::ifstream in(path, std::ios::binary);
      std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      if (d.at >= 0) bytes[std::size_t(d.at)] ^= 0x5a;
      if (d.keep >= 0) bytes.resize(std::size_t(d.keep));
      std::ofstream out(copy, std::ios::binary);
      out.write(bytes.data(), std::streamsize(bytes.size()));
    }
    dash::Team::All().barrier();
    dash::Array<std::int64_t> into(n);
    ExpectThrowEverywhere<dash::exception::RuntimeError>([&] { dash::io::load(copy, into); },
                                                         myid() == 0 ? d.text : "");
  }
}

// A small tmpfs mounted by unit 0 (root only) under a shared directory,
// unmounted when the object goes; ok() is the same on every unit: true when every unit sees
// the tmpfs there (not so across hosts, where a unit 0's mount stays on its host).
class SmallFileSystem {
 public:
  SmallFileSystem(const SharedDir& dir, const char* size) : path_(dir.file("small")) {
    if (myid() == 0 && geteuid() == 0 && mkdir(path_.c_str(), 0700) == 0)
      mounted_ =
          mount("tmpfs", path_.c_str(), "tmpfs", 0, (std::string("size=") + size).c_str()) == 0;
    dart_barrier(DART_TEAM_ALL);
    struct statfs fs {};
    int seen = statfs(path_.c_str(), &fs) == 0 && fs.f_type == TMPFS_MAGIC ? 1 : 0, all = 0;
    dash::internal::check_dart(
        dart_allreduce(&seen, &all, 1, DART_TYPE_INT, DART_OP_MIN, DART_TEAM_ALL), "allreduce");
    ok_ = all != 0;
  }
  ~SmallFileSystem() {
    dart_barrier(DART_TEAM_ALL);
    if (mounted_) umount2(path_.c_str(), MNT_DETACH);
  }
  bool ok() const { return ok_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    if (DIR* d = opendir(path_.c_str())) {
      while (dirent* e = readdir(d))
        if (e->d_name[0] != '.') out.push_back(e->d_name);
      closedir(d);
    }
    return out;
  }

 private:
  std::string path_;
  bool mounted_ = false;
  bool ok_ = false;
};

// A real full disk: a save that does not fit a 256 KiB tmpfs fails on every
// unit naming the cause; the earlier file there loads whole and no
// temporary file is left (as root; skipped elsewhere, where
// BadInput_ThrowsEverywhere_OldFileIntact injects the failure instead).
TEST(IoSave, FullDisk_ThrowsEverywhere_OldFileIntact) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  SmallFileSystem small(dir, "256k");
  if (!small.ok()) GTEST_SKIP() << "no tmpfs that every unit sees (not root, or several hosts)";
  const std::string path = small.file("data");
  const std::size_t n = 5000;
  dash::Array<std::int64_t> a(n);
  Fill(a);
  dash::io::save(a, path, Io(0, 16384));
  dash::Array<std::int64_t> big(std::size_t(1) << 16);  // 512 KiB
  for (std::size_t li = 0; li < big.lsize(); ++li) big.lbegin()[li] = -1;
  big.barrier();
  for (int aggregators : {1, nunits()}) {
    SCOPED_TRACE("aggregators " + std::to_string(aggregators));
    ExpectThrowEverywhere<dash::exception::RuntimeError>(
        [&] { dash::io::save(big, path, Io(aggregators, 16384)); }, "No space left");
    dash::Array<std::int64_t> back(n, dash::CYCLIC);
    dash::io::load(path, back);
    ExpectValues(back);
    dash::Team::All().barrier();
    if (myid() == 0) {
      EXPECT_EQ(small.names(), std::vector<std::string>{"data"});
    }
  }
}

// Malformed flags are refused with the flag's name.
TEST(IoSave, MalformedFlags_InvalidArgument) {
  dash::Array<int> a(10);
  setenv("DASH_IO_BUFFER_SIZE", "12x", 1);
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(a, "/nonexistent-dash-io/x"); }, "DASH_IO_BUFFER_SIZE");
  unsetenv("DASH_IO_BUFFER_SIZE");
  setenv("DASH_IO_AGGREGATORS", "-1", 1);
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(a, "/nonexistent-dash-io/x"); }, "DASH_IO_AGGREGATORS");
  unsetenv("DASH_IO_AGGREGATORS");
}

}  // namespace

namespace {

// A byte of unit u's piece k at position i (never 0, so gaps show).
char PieceByte(int u, int k, std::uint64_t i) {
  return char(1 + (u * 31 + k * 7 + int(i % 251)) % 255);
}

// Every unit writes pieces of different sizes (some empty) at interleaved
// offsets, leaving gaps; the file is exactly the pieces with zeros between,
// and every unit reads its pieces (and others') back.
TEST(IoPieces, RandomSizes_Gaps_RoundTrip) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const int me = myid(), units = nunits();
  for (std::uint64_t buffer : {std::uint64_t(4096), std::uint64_t(0)}) {
    SCOPED_TRACE("buffer " + std::to_string(buffer));
    // Slot s of the file is [s * 10000, s * 10000 + len(s)); unit s % units writes it.
    auto len = [](int s) { return std::uint64_t((s * 7919) % 9000) + (s % 5 == 0 ? 0 : 1); };
    const int slots = 4 * units + 3;
    std::vector<std::vector<char>> mine;
    std::vector<dash::io::Piece> pieces;
    for (int s = me; s < slots; s += units) {
      mine.emplace_back(len(s));
      for (std::uint64_t i = 0; i < len(s); ++i) mine.back()[i] = PieceByte(me, s, i);
    }
    for (int s = me, k = 0; s < slots; s += units, ++k)
      pieces.push_back({std::uint64_t(s) * 10000, mine[std::size_t(k)].data(), len(s)});
    const std::string path = dir.file("pieces" + std::to_string(buffer));
    dash::io::write_pieces(path, pieces, dash::Team::All(), Io(0, buffer));
    // The file, byte by byte (unit 0).
    if (me == 0) {
      std::ifstream in(path, std::ios::binary);
      std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      int last = slots - 1;
      while (last > 0 && len(last) == 0) --last;
      ASSERT_EQ(bytes.size(), std::uint64_t(last) * 10000 + len(last));
      for (int s = 0; s < slots; ++s)
        for (std::uint64_t i = 0; i < 10000 && s * 10000ull + i < bytes.size(); ++i)
          ASSERT_EQ(bytes[s * 10000ull + i], i < len(s) ? PieceByte(s % units, s, i) : char(0))
              << "slot " << s << " byte " << i;
    }
    // Read back into other memory: every unit reads the next unit's slots.
    const int other = (me + 1) % units;
    std::vector<std::vector<char>> back;
    std::vector<dash::io::Piece> wanted;
    for (int s = other; s < slots; s += units) back.emplace_back(len(s), char(0));
    for (int s = other, k = 0; s < slots; s += units, ++k)
      wanted.push_back({std::uint64_t(s) * 10000, back[std::size_t(k)].data(), len(s)});
    dash::io::read_pieces(path, wanted, dash::Team::All(), Io(1, buffer));
    for (int s = other, k = 0; s < slots; s += units, ++k)
      for (std::uint64_t i = 0; i < len(s); ++i)
        ASSERT_EQ(back[std::size_t(k)][i], PieceByte(other, s, i)) << "slot " << s;
  }
}

TEST(IoPieces, Overlap_BeyondEnd_Missing_ThrowEverywhere) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  std::vector<char> bytes(100, 'x');
  std::vector<dash::io::Piece> overlapping = {{0, bytes.data(), 60}, {50, bytes.data(), 50}};
  std::vector<dash::io::Piece> fine = {{std::uint64_t(myid()) * 100, bytes.data(), 100}};
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::write_pieces(dir.file("o"), myid() == 0 ? overlapping : fine); }, "");
  EXPECT_TRUE(dir.names().empty() || myid() != 0) << "a file was left behind";
  dash::io::write_pieces(dir.file("f"), fine);
  std::vector<dash::io::Piece> beyond = {{std::uint64_t(nunits()) * 100 - 10, bytes.data(), 20}};
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::read_pieces(dir.file("f"), myid() == nunits() - 1 ? beyond : fine); }, "");
  ExpectThrowEverywhere<dash::exception::RuntimeError>(
      [&] { dash::io::read_pieces(dir.file("missing"), fine); }, "");
}

}  // namespace

namespace {

// Every usable tier carries the same file: save on one, load on another; the report says
// which tier held the buffers. A tier this node lacks is refused on every unit.
TEST(IoTiers, SaveAndLoadThroughEveryTier) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::vector<dash::io::Tier>& tiers = dash::io::node_tiers();
  ASSERT_FALSE(tiers.empty());
  EXPECT_EQ(tiers[0].name, "dram");
  const std::size_t n = 6007;
  dash::Array<std::int64_t> a(n, dash::BLOCKCYCLIC(5));
  Fill(a);
  std::vector<std::string> names;
  for (const dash::io::Tier& t : tiers) names.push_back(t.name);
  for (std::size_t i = 0; i < names.size(); ++i) {
    SCOPED_TRACE("tier " + names[i]);
    const std::string path = dir.file("tier-" + names[i]);
    const dash::io::IoReport wrote = dash::io::save(a, path, Io(0, 8192, names[i]));
    EXPECT_EQ(wrote.tier, names[i]);
    EXPECT_EQ(wrote.chunk_bytes, 8192u);
    dash::Array<std::int64_t> b(n, dash::CYCLIC);
    const std::string other = names[(i + 1) % names.size()];
    EXPECT_EQ(dash::io::load(path, b, Io(nunits(), 0, other)).tier, other);
    ExpectValues(b);
  }
  const dash::io::IoReport automatic = dash::io::save(a, dir.file("auto"), Io(0, 0, "auto"));
  EXPECT_NE(std::find(names.begin(), names.end(), automatic.tier), names.end());
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(a, dir.file("x"), Io(0, 0, "tape")); }, "tape");
}

// High-bandwidth memory through memkind: with MEMKIND_HBW_NODES set (the hbm variant of this
// test takes NUMA node 0 as HBM) the node has an hbm tier and a save goes through it;
// without HBM a forced hbm tier is refused on every unit, naming it.
TEST(IoTiers, HbmWhereMemkindFindsIt) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::vector<dash::io::Tier>& tiers = dash::io::node_tiers();
  const bool hbm = std::any_of(tiers.begin(), tiers.end(),
                               [](const dash::io::Tier& t) { return t.name == "hbm"; });
  const std::size_t n = 4099;
  dash::Array<std::int64_t> a(n, dash::BLOCKCYCLIC(3));
  Fill(a);
  if (std::getenv("MEMKIND_HBW_NODES") != nullptr) {
    ASSERT_TRUE(hbm) << "MEMKIND_HBW_NODES is set but there is no hbm tier (memkind missing?)";
    EXPECT_GT(dash::io::node_tier("hbm").bandwidth_Bps, 0);
    EXPECT_EQ(dash::io::save(a, dir.file("h"), Io(nunits(), 8192, "hbm")).tier, "hbm");
    dash::Array<std::int64_t> b(n, dash::CYCLIC);
    EXPECT_EQ(dash::io::load(dir.file("h"), b, Io(1, 0, "hbm")).tier, "hbm");
    ExpectValues(b);
  } else if (!hbm) {
    ExpectThrowEverywhere<dash::exception::InvalidArgument>(
        [&] { dash::io::save(a, dir.file("h"), Io(0, 0, "hbm")); }, "hbm");
  }
}

// A persistency requirement (IoSettings::persistent or DASH_IO_PERSISTENCY=1) leaves only
// persistent tiers: auto takes one, a forced volatile tier is refused on every unit.
TEST(IoTiers, PersistencyRequired_OnlyPersistentTiers) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::size_t n = 3001;
  dash::Array<std::int64_t> a(n);
  Fill(a);
  bool has_persistent = false;
  for (const dash::io::Tier& t : dash::io::node_tiers()) has_persistent |= t.persistent;
  dash::io::IoSettings s = Io(0, 4096, "auto");
  s.persistent = true;
  if (has_persistent) {
    const dash::io::IoReport r = dash::io::save(a, dir.file("p"), s);
    EXPECT_TRUE(dash::io::node_tier(r.tier).persistent) << r.tier;
    dash::Array<std::int64_t> b(n, dash::CYCLIC);
    dash::io::load(dir.file("p"), b, s);
    ExpectValues(b);
  }
  s.tier = "dram";
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(a, dir.file("q"), s); }, myid() == 0 ? "persistent" : "");
  setenv("DASH_IO_PERSISTENCY", "1", 1);
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(a, dir.file("q"), Io(0, 4096, "shm")); },
      myid() == 0 ? "persistent" : "");
  setenv("DASH_IO_PERSISTENCY", "often", 1);
  ExpectThrowEverywhere<dash::exception::InvalidArgument>(
      [&] { dash::io::save(a, dir.file("q"), Io(0, 4096)); }, "DASH_IO_PERSISTENCY");
  unsetenv("DASH_IO_PERSISTENCY");
  dash::Team::All().barrier();
  if (myid() == 0) {
    for (const std::string& name : dir.names()) EXPECT_NE(name, "q") << "a refused save wrote";
  }
}

// The tier file: good lines, comments, defaults; each kind of garbage named by line.
TEST(IoTiers, TierFileParsedAndGarbageNamedByLine) {
  const std::vector<dash::io::Tier> t = dash::io::parse_tiers(
      "# name latency bandwidth capacity persistent [directory]\n"
      "dram 100ns 8GB/s 16G no\n"
      "\n"
      "disk 40us 0.5GB/s 200G yes /scratch/local  # node-local SSD\n",
      "tiers.txt");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].name, "dram");
  EXPECT_DOUBLE_EQ(t[0].latency_s, 100e-9);
  EXPECT_DOUBLE_EQ(t[0].bandwidth_Bps, 8e9);
  EXPECT_EQ(t[0].capacity, std::uint64_t(16) << 30);
  EXPECT_FALSE(t[0].persistent);
  EXPECT_EQ(t[1].directory, "/scratch/local");
  EXPECT_TRUE(t[1].persistent);
  EXPECT_DOUBLE_EQ(t[1].latency_s, 40e-6);
  EXPECT_EQ(t[1].source, "tiers.txt:4");
  const std::pair<const char*, const char*> bad[] = {
      {"dram 1ns 1GB/s 1G no\nnvram 1ns 1GB/s 1G no\n", "tiers.txt:2: unknown tier 'nvram'"},
      {"dram 1ns 1GB/s 1G\n", "tiers.txt:1: expected: name latency"},
      {"dram fast 1GB/s 1G no\n", "tiers.txt:1: bad latency 'fast'"},
      {"dram 1ns 1GB 1G no\n", "tiers.txt:1: bad bandwidth '1GB'"},
      {"dram 1ns 1GB/s 1X no\n", "tiers.txt:1: bad capacity '1X'"},
      {"dram 1ns 1GB/s 1G maybe\n", "tiers.txt:1: persistent must be yes or no"},
      {"dram 1ns 1GB/s 1G no\ndram 2ns 1GB/s 1G no\n", "tiers.txt:2: tier 'dram' given twice"},
      {"dram 1ns 0GB/s 1G no\n", "tiers.txt:1: bandwidth must be above 0"},
      {"\x01\x02garbage\n", "tiers.txt:1: unknown tier"},
      {"# nothing\n", "tiers.txt:1: no tier described"}};
  for (const auto& [text, message] : bad) {
    SCOPED_TRACE(text);
    try {
      dash::io::parse_tiers(text, "tiers.txt");
      ADD_FAILURE() << "accepted";
    } catch (const dash::exception::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
