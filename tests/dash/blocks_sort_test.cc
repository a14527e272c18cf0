// dash::bp::sort: after the sort every block holds, sorted, a contiguous
// range of the global order, the ranges in increasing gid, every item kept
// (checked on every unit against the same items sorted serially), block
// sizes within the regular-sampling bound; for odd block counts, empty
// blocks, many equal keys, another comparator and item type, group sizes,
// threads and one block in memory. Bad arguments throw on every unit.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/bp/Master.h>
#include <dash/bp/Sort.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::bp::Assignment;
using dash::bp::Master;
using dash_test::myid;
using dash_test::nunits;

struct Block {
  int gid = -1;
  std::vector<std::uint64_t> values;
};

struct Pair {
  double key;
  std::int32_t id;
};

struct PairBlock {
  std::vector<Pair> items;
};

}  // namespace

template <>
struct dash::bp::Serialization<Block> {
  static void save(MemoryBuffer& buf, const Block& b) {
    dash::bp::save(buf, b.gid);
    dash::bp::save(buf, b.values);
  }
  static void load(MemoryBuffer& buf, Block& b) {
    dash::bp::load(buf, b.gid);
    dash::bp::load(buf, b.values);
  }
};

namespace {

// The items of block gid: a count that varies (some blocks empty), values
// from [0, range) (a small range: many equal keys).
std::vector<std::uint64_t> ItemsOf(int gid, std::uint64_t range, bool some_empty) {
  std::mt19937_64 random(std::uint64_t(gid) * 7919 + range);
  const std::size_t n = some_empty && gid % 3 == 1 ? 0 : 50 + std::size_t(random() % 300);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = random() % range;
  return v;
}

std::unique_ptr<Master<Block>> MakeMaster(int nb, Assignment a, std::uint64_t range,
                                          bool some_empty) {
  auto master = std::make_unique<Master<Block>>(nb, a);
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), a)) {
    auto b = std::make_unique<Block>();
    b->gid = gid;
    b->values = ItemsOf(gid, range, some_empty);
    master->add(gid, std::move(b), {});
  }
  return master;
}

// Every block's values, by gid, on every unit (one allreduce per block).
std::vector<std::vector<std::uint64_t>> Gather(Master<Block>& master) {
  const int nb = master.nblocks();
  std::vector<std::vector<std::uint64_t>> by_gid(static_cast<std::size_t>(nb));
  for (int gid = 0; gid < nb; ++gid) {
    std::vector<std::uint64_t> mine;
    for (std::size_t i = 0; i < master.size(); ++i)
      if (master.gid(i) == gid) mine = master.block(i).values;
    std::uint64_t n = mine.size(), total = 0;
    dash::internal::check_dart(
        dart_allreduce(&n, &total, 1, DART_TYPE_ULONGLONG, DART_OP_SUM, DART_TEAM_ALL), "n");
    mine.resize(std::size_t(total), 0);  // the owner has them, the others add zeros
    std::vector<std::uint64_t>& all = by_gid[std::size_t(gid)];
    all.resize(std::size_t(total));
    dash::internal::check_dart(dart_allreduce(mine.data(), all.data(), total, DART_TYPE_ULONGLONG,
                                              DART_OP_SUM, DART_TEAM_ALL),
                               "values");
  }
  return by_gid;
}

// The blocks hold the serially sorted items of all blocks, cut in gid
// order, each block within the sampling bound.
void CheckSorted(Master<Block>& master, std::uint64_t range, bool some_empty, int samples) {
  const int nb = master.nblocks();
  std::vector<std::uint64_t> expected;
  std::size_t n_max = 0;
  for (int gid = 0; gid < nb; ++gid) {
    const auto v = ItemsOf(gid, range, some_empty);
    expected.insert(expected.end(), v.begin(), v.end());
    n_max = std::max(n_max, v.size());
  }
  std::sort(expected.begin(), expected.end());
  const auto by_gid = Gather(master);
  std::vector<std::uint64_t> got;
  for (int gid = 0; gid < nb; ++gid) {
    const auto& v = by_gid[std::size_t(gid)];
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end())) << "block " << gid;
    got.insert(got.end(), v.begin(), v.end());
    if (range > 1000000) {  // distinct keys (almost surely): the bound holds
      EXPECT_LE(v.size(), n_max + n_max * std::size_t(nb) / std::size_t(samples) + 2)
          << "block " << gid;
    }
  }
  EXPECT_EQ(got, expected) << "the blocks in gid order are not the sorted items";
}

TEST(BlocksSort, EveryBlockHoldsItsRange_BlockCountsGroupSizesSamples) {
  for (int per_unit : {1, 3, 4}) {
    for (int k : {2, 3}) {
      for (int samples : {1, 8, 64}) {
        for (bool some_empty : {false, true}) {
          const int nb = per_unit * nunits() + (per_unit == 3 ? 1 : 0);  // odd counts too
          SCOPED_TRACE(std::to_string(nb) + " blocks, k " + std::to_string(k) + ", " +
                       std::to_string(samples) + " samples" + (some_empty ? ", empty ones" : ""));
          const std::uint64_t range = std::uint64_t(1) << 40;
          auto master = MakeMaster(nb, Assignment::round_robin, range, some_empty);
          dash::bp::sort(*master, &Block::values, std::less<>(), samples, k);
          CheckSorted(*master, range, some_empty, samples);
        }
      }
    }
  }
}

TEST(BlocksSort, ManyEqualKeys_StillSortedAndComplete) {
  const int nb = 3 * nunits();
  for (std::uint64_t range : {std::uint64_t(1), std::uint64_t(5)}) {
    SCOPED_TRACE("keys in [0, " + std::to_string(range) + ")");
    auto master = MakeMaster(nb, Assignment::contiguous, range, false);
    dash::bp::sort(*master, &Block::values);
    CheckSorted(*master, range, false, 32);
  }
}

// Out of core (one block in memory) and with two threads: the same result.
TEST(BlocksSort, OutOfCoreAndThreads_SameResult) {
  const int nb = 5 * nunits();
  const std::uint64_t range = std::uint64_t(1) << 40;
  for (int threads : {1, 2}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    auto master = MakeMaster(nb, Assignment::contiguous, range, true);
    master->threads(threads);
    master->limit(1);
    dash::bp::sort(*master, &Block::values, std::less<>(), 16);
    EXPECT_LE(master->resident_blocks(), 1u);
    EXPECT_GT(master->spill_counters().bytes_read, 0u);
    CheckSorted(*master, range, true, 16);
  }
}

// Another item type and order (descending keys), items reached through a
// callable: block gid's keys are all >= those of block gid + 1.
TEST(BlocksSort, Comparator_AndCallableItems) {
  const int nb = 2 * nunits() + 1;
  Master<PairBlock> master(nb, Assignment::round_robin);
  std::size_t total = 0;
  for (int gid = 0; gid < nb; ++gid) {
    std::mt19937 random(unsigned(gid) + 1);
    auto b = std::make_unique<PairBlock>();
    for (int i = 0; i < 100 + gid; ++i)
      b->items.push_back(Pair{double(random() % 100000) / 7.0, gid * 1000 + i});
    total += b->items.size();
    if (master.owner(gid) == myid()) master.add(gid, std::move(b), {});
  }
  auto descending = [](const Pair& a, const Pair& b) { return a.key > b.key; };
  dash::bp::sort(
      master, [](PairBlock& b) -> std::vector<Pair>& { return b.items; }, descending, 8);
  // Per gid: its first and last key, + 1 (0: empty block), summed over units.
  ASSERT_LE(nb, 64);
  double mine[2 * 64] = {}, ends[2 * 64] = {};
  std::uint64_t count = 0, all = 0;
  for (std::size_t i = 0; i < master.size(); ++i) {
    const auto& v = master.block(i).items;
    const int gid = master.gid(i);
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end(), descending)) << "block " << gid;
    count += v.size();
    if (!v.empty()) {
      mine[2 * gid] = v.front().key + 1;  // +1: 0 means empty
      mine[2 * gid + 1] = v.back().key + 1;
    }
  }
  dash::internal::check_dart(
      dart_allreduce(&count, &all, 1, DART_TYPE_ULONGLONG, DART_OP_SUM, DART_TEAM_ALL), "count");
  EXPECT_EQ(all, total);
  dash::internal::check_dart(
      dart_allreduce(mine, ends, 2 * 64, DART_TYPE_DOUBLE, DART_OP_SUM, DART_TEAM_ALL), "keys");
  double last = 1e300;
  for (int gid = 0; gid < nb; ++gid) {
    if (ends[2 * gid] == 0) continue;  // empty
    EXPECT_LE(ends[2 * gid], last) << "block " << gid << " starts above the one before ends";
    last = ends[2 * gid + 1];
  }
}

// A comparator that throws on one unit only: every unit throws (the failing one its exception,
// the others RemoteFailure), whether the local sorts meet it (many items) or only the sort of the
// gathered samples does (one item per block: the local sorts never compare).
TEST(BlocksSort, ComparatorThrowingOnOneUnit_ThrowsOnEveryUnit) {
  const int failing = nunits() - 1;
  for (std::uint64_t items : {std::uint64_t(1000), std::uint64_t(1)}) {
    SCOPED_TRACE("items per block " + std::to_string(items));
    auto master = std::make_unique<Master<Block>>(2 * nunits(), Assignment::contiguous);
    for (int gid : dash::bp::local_gids(myid(), 2 * nunits(), nunits(), Assignment::contiguous)) {
      auto b = std::make_unique<Block>();
      b->gid = gid;
      for (std::uint64_t i = 0; i < items; ++i) b->values.push_back((gid * 7919 + i * 31) % 1000);
      master->add(gid, std::move(b), {});
    }
    auto cmp = [failing](std::uint64_t a, std::uint64_t b) {
      if (myid() == failing) throw std::runtime_error("comparator refuses");
      return a < b;
    };
    try {
      dash::bp::sort(*master, &Block::values, cmp);
      ADD_FAILURE() << "no exception on unit " << myid();
    } catch (const dash::exception::RemoteFailure& e) {
      EXPECT_NE(myid(), failing) << e.what();
      EXPECT_NE(std::string(e.what()).find("comparator refuses"), std::string::npos) << e.what();
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(myid(), failing) << e.what();
    }
  }
}

TEST(BlocksSort, BadArguments_ThrowOnEveryUnit) {
  auto master = MakeMaster(2 * nunits(), Assignment::contiguous, 100, false);
  EXPECT_THROW(dash::bp::sort(*master, &Block::values, std::less<>(), 0),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::bp::sort(*master, &Block::values, std::less<>(), 8, 1),
               dash::exception::InvalidArgument);
  dash::bp::sort(*master, &Block::values);  // still usable
  CheckSorted(*master, 100, false, 32);
}

}  // namespace
