// dash::bp::save and dash::bp::load: a round trip gives back every block,
// its links and its queues (incoming and outgoing), whatever the round size,
// on another assignment and on a team of fewer units, out of core too; a
// damaged, truncated or missing file, another block count or a master that
// holds blocks throws on every unit and loads nothing; a failed save leaves
// the file that was there whole and no temporary file behind.
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/Master.h>
#include <dash/bp/SaveLoad.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "mpi_test.h"
#include "shared_dir.h"

namespace {

using dash::bp::Assignment;
using dash::bp::Master;
using dash_test::myid;
using dash_test::nunits;
using dash_test::SharedDir;

struct Cell {
  int gid = -1;
  std::vector<std::uint64_t> values;
  bool fail_save = false;  // its serialisation throws (for the failure tests)
  bool unstable = false;   // each serialisation gives other bytes (counts its calls)
  mutable int saves = 0;
};

}  // namespace

template <>
struct dash::bp::Serialization<Cell> {
  static void save(MemoryBuffer& buf, const Cell& c) {
    if (c.fail_save) throw std::runtime_error("cell " + std::to_string(c.gid) + " cannot save");
    dash::bp::save(buf, c.gid);
    dash::bp::save(buf, c.values);
    if (c.unstable) dash::bp::save(buf, ++c.saves);
  }
  static void load(MemoryBuffer& buf, Cell& c) {
    dash::bp::load(buf, c.gid);
    dash::bp::load(buf, c.values);
  }
};

namespace {

std::uint64_t Value(int gid, std::size_t i) { return std::uint64_t(gid) * 1000003u + i * 7u + 1; }
std::size_t CountOf(int gid) { return gid % 4 == 3 ? 0 : 100 + std::size_t(gid) * 37; }

std::vector<int> LinksOf(int gid, int nb) {
  std::vector<int> l;
  if (nb > 1) l.push_back((gid + 1) % nb);
  if (nb > 2) l.push_back((gid + nb - 1) % nb);
  return l;
}

// Blocks with values and links; after one exchange each block's incoming
// queue from its successor holds (from, gid) and a vector, and its outgoing
// queue to its predecessor holds one value not yet sent.
std::unique_ptr<Master<Cell>> MakeMaster(int nb, Assignment a,
                                         dash::Team& team = dash::Team::All()) {
  auto m = std::make_unique<Master<Cell>>(nb, a, team);
  for (int gid : dash::bp::local_gids(int(team.myid().id), nb, int(team.size()), a)) {
    auto c = std::make_unique<Cell>();
    c->gid = gid;
    for (std::size_t i = 0; i < CountOf(gid); ++i) c->values.push_back(Value(gid, i));
    m->add(gid, std::move(c), LinksOf(gid, nb));
  }
  if (nb < 2) return m;
  m->foreach ([nb](Cell& c, dash::bp::Proxy& p) {
    const int to = (c.gid + nb - 1) % nb;
    p.enqueue(to, c.gid);
    p.enqueue(to, std::vector<std::uint64_t>(std::size_t(c.gid % 5), Value(c.gid, 9)));
  });
  m->exchange();
  m->foreach ([nb](Cell& c, dash::bp::Proxy& p) { p.enqueue((c.gid + 1) % nb, -c.gid); });
  return m;
}

// What MakeMaster made, checked on every block of `m`: values, links and
// queues (read from the incoming one, moved by one more exchange from the
// outgoing one).
void CheckMaster(Master<Cell>& m, bool queues = true) {
  const int nb = m.nblocks();
  std::size_t count = 0;
  for (std::size_t i = 0; i < m.size(); ++i) {
    const int gid = m.gid(i);
    const Cell& c = m.block(i);
    EXPECT_EQ(c.gid, gid);
    ASSERT_EQ(c.values.size(), CountOf(gid)) << "block " << gid;
    for (std::size_t j = 0; j < c.values.size(); ++j) EXPECT_EQ(c.values[j], Value(gid, j));
    EXPECT_EQ(m.proxy(i).link(), LinksOf(gid, nb)) << "block " << gid;
    ++count;
  }
  std::uint64_t all = 0, mine = count;
  dash::internal::check_dart(
      dart_allreduce(&mine, &all, 1, DART_TYPE_ULONGLONG, DART_OP_SUM, m.team().dart_id()),
      "count");
  EXPECT_EQ(all, std::uint64_t(nb)) << "blocks lost or doubled";
  if (!queues || nb < 2) return;
  m.foreach ([nb](Cell& c, dash::bp::Proxy& p) {
    const int from = (c.gid + 1) % nb;
    int who = -1;
    std::vector<std::uint64_t> v;
    p.dequeue(from, who);
    p.dequeue(from, v);
    EXPECT_EQ(who, from);
    EXPECT_EQ(v, std::vector<std::uint64_t>(std::size_t(from % 5), Value(from, 9)));
    EXPECT_EQ(p.incoming(from), 0u);
  });
  m.exchange();
  m.foreach ([nb](Cell& c, dash::bp::Proxy& p) {
    const int from = (c.gid + nb - 1) % nb;
    int v = 1;
    p.dequeue(from, v);
    EXPECT_EQ(v, -from) << "the unsent queue of block " << from;
  });
}

// Whether a save of `name` in `dir` left a temporary file behind ("<name>.tmp...").
bool TemporaryLeft(const SharedDir& dir, const std::string& name) {
  const std::string stem = name + ".tmp";
  for (const auto& entry : std::filesystem::directory_iterator(dir.file("")))
    if (entry.path().filename().string().rfind(stem, 0) == 0) return true;
  return false;
}

TEST(BlocksSave, RoundTrip_BlocksLinksQueues_AnyRoundSize) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  for (std::size_t round_bytes : {std::size_t(1), std::size_t(3000), std::size_t(64) << 20}) {
    SCOPED_TRACE("rounds of " + std::to_string(round_bytes) + " bytes");
    const int nb = 3 * nunits() + 2;
    auto master = MakeMaster(nb, Assignment::contiguous);
    dash::bp::save(*master, dir.file("ring"), round_bytes);
    EXPECT_FALSE(TemporaryLeft(dir, "ring"));
    CheckMaster(*master);  // save changed nothing
    Master<Cell> again(nb, Assignment::contiguous);
    dash::bp::load(again, dir.file("ring"));
    CheckMaster(again);
    Master<Cell> in_rounds(nb, Assignment::round_robin);  // read in rounds as well
    dash::bp::load(in_rounds, dir.file("ring"), round_bytes);
    CheckMaster(in_rounds);
  }
}

// Loaded by another rule (round robin), out of core, and on a team of fewer
// units: the blocks go where the loading master's owners say.
TEST(BlocksSave, Load_OtherAssignmentLimitAndTeam) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const int nb = 4 * nunits() + 1;
  auto master = MakeMaster(nb, Assignment::contiguous);
  master->limit(1);
  dash::bp::save(*master, dir.file("ckpt"), 4096);
  {
    Master<Cell> again(nb, Assignment::round_robin);
    dash::bp::load(again, dir.file("ckpt"));
    CheckMaster(again);
  }
  {
    Master<Cell> again(nb, Assignment::contiguous);
    again.limit(2);
    dash::bp::load(again, dir.file("ckpt"), 4096);  // checked, then added, in rounds
    EXPECT_LE(again.resident_blocks(), 2u);
    CheckMaster(again);
  }
  if (nunits() >= 2) {
    dash::Team& half = dash::Team::All().split(2);
    if (half.global_id(dash::team_unit_t{0}).id == 0) {  // the first half loads every block
      Master<Cell> fewer(nb, Assignment::contiguous, half);
      dash::bp::load(fewer, dir.file("ckpt"));
      EXPECT_EQ(int(fewer.size()),
                int(dash::bp::local_gids(int(half.myid().id), nb, int(half.size()),
                                         Assignment::contiguous)
                        .size()));
      CheckMaster(fewer);
    }
    dart_barrier(DART_TEAM_ALL);
  }
}

// A record damaged on disk: the unit that owns it throws RuntimeError, the
// others RemoteFailure; no unit loaded anything. A damaged header, a truncated or missing file, or
// a file of another block count: every unit throws.
TEST(BlocksSave, DamagedTruncatedMissing_ThrowOnEveryUnitLoadNothing) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const int nb = 2 * nunits() + 1;
  auto master = MakeMaster(nb, Assignment::contiguous);
  dash::bp::save(*master, dir.file("good"));
  const std::string damaged = dir.file("damaged"), truncated = dir.file("truncated"),
                    header = dir.file("header");
  if (myid() == 0) {
    std::ifstream in(dir.file("good"), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // The first record: after the container header (4096 bytes) and the index (16 + 32 per block).
    std::string d = bytes;
    d[std::size_t(4096 + 16 + 32 * nb + 10)] ^= 0x5a;
    std::ofstream(damaged, std::ios::binary) << d;
    std::string h = bytes;
    h[74] ^= 0x5a;  // inside the header
    std::ofstream(header, std::ios::binary) << h;
    std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() - 9);
  }
  dart_barrier(DART_TEAM_ALL);
  {
    Master<Cell> again(nb, Assignment::contiguous);
    try {
      dash::bp::load(again, damaged);
      ADD_FAILURE() << "no exception for a damaged record";
    } catch (const dash::exception::RemoteFailure& e) {
      EXPECT_NE(again.owner(0), myid()) << e.what();
    } catch (const dash::exception::RuntimeError& e) {
      EXPECT_EQ(again.owner(0), myid()) << e.what();
      EXPECT_NE(std::string(e.what()).find("block 0 is damaged"), std::string::npos) << e.what();
    }
    EXPECT_EQ(again.size(), 0u) << "loaded blocks of a damaged file";
  }
  for (const std::string& bad : {header, truncated, dir.file("missing")}) {
    Master<Cell> again(nb, Assignment::contiguous);
    EXPECT_THROW(dash::bp::load(again, bad), dash::exception::RuntimeError) << bad;
    EXPECT_EQ(again.size(), 0u);
  }
  {
    Master<Cell> other(nb + 1, Assignment::contiguous);
    EXPECT_THROW(dash::bp::load(other, dir.file("good")), dash::exception::InvalidArgument);
  }
  {
    auto full = MakeMaster(nb, Assignment::contiguous);
    EXPECT_THROW(dash::bp::load(*full, dir.file("good")), dash::exception::InvalidArgument);
  }
  Master<Cell> again(nb, Assignment::contiguous);
  dash::bp::load(again, dir.file("good"));  // the good file still loads
  CheckMaster(again);
}

// A save that fails (a path in no directory; a block that cannot be
// serialised on one unit) throws on every unit, leaves the file already at
// the path whole and no temporary file.
TEST(BlocksSave, FailedSave_ThrowsOnEveryUnitKeepsTheOldFile) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const int nb = 2 * nunits();
  auto master = MakeMaster(nb, Assignment::contiguous);
  EXPECT_THROW(dash::bp::save(*master, dir.file("no/such/dir/file")),
               dash::exception::RuntimeError);
  const std::string path = dir.file("kept");
  dash::bp::save(*master, path);
  const int last = nunits() - 1;
  if (myid() == last) master->block(master->size() - 1).fail_save = true;
  try {
    dash::bp::save(*master, path);
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::RemoteFailure& e) {
    EXPECT_NE(myid(), last) << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(myid(), last) << e.what();
  }
  EXPECT_FALSE(TemporaryLeft(dir, "kept"));
  if (myid() == last) master->block(master->size() - 1).fail_save = false;
  Master<Cell> again(nb, Assignment::contiguous);
  dash::bp::load(again, path);
  CheckMaster(again);
}

// A batch after the first is serialised twice (sized, then written): a block
// whose bytes change between the two fails the save on every unit, with a
// message saying so on its own; the file at the path stays as it was.
TEST(BlocksSave, BytesThatChangeBetweenSizingAndWriting_FailTheSave) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const int nb = 2 * nunits();
  auto master = MakeMaster(nb, Assignment::contiguous);
  const std::string path = dir.file("kept");
  dash::bp::save(*master, path);
  const int last = nunits() - 1;
  if (myid() == last) master->block(master->size() - 1).unstable = true;
  try {
    dash::bp::save(*master, path, 1);  // one block per batch: the last one in a later batch
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::RemoteFailure& e) {
    EXPECT_NE(myid(), last) << e.what();
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_EQ(myid(), last) << e.what();
    EXPECT_NE(std::string(e.what()).find("same bytes each time"), std::string::npos) << e.what();
  }
  dart_barrier(DART_TEAM_ALL);  // unit 0 removes the temporary as its save returns
  EXPECT_FALSE(TemporaryLeft(dir, "kept"));
  if (myid() == last) master->block(master->size() - 1).unstable = false;
  Master<Cell> again(nb, Assignment::contiguous);
  dash::bp::load(again, path);
  CheckMaster(again);
}

}  // namespace
