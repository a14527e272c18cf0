// dash::bp::all_to_all: every block's queues to any blocks arrive complete
// and in order, for any block count, group size, assignment, thread count
// and memory-block limit; bad input and failures throw on every unit.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/bp/AllToAll.h>
#include <dash/bp/Master.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::bp::AllToAllProxy;
using dash::bp::Assignment;
using dash::bp::Master;
using dash_test::myid;
using dash_test::nunits;

// What a block received: per source, the values in order.
struct Block {
  int gid = -1;
  std::vector<std::int64_t> got;  // (source, count, values...) per source
  int calls = 0;
  std::vector<std::vector<std::int64_t>> sent;  // views: the arrays, until the call ends
};

}  // namespace

template <>
struct dash::bp::Serialization<Block> {
  static void save(MemoryBuffer& buf, const Block& b) {
    dash::bp::save(buf, b.gid);
    dash::bp::save(buf, b.got);
    dash::bp::save(buf, b.calls);
  }
  static void load(MemoryBuffer& buf, Block& b) {
    dash::bp::load(buf, b.gid);
    dash::bp::load(buf, b.got);
    dash::bp::load(buf, b.calls);
  }
};

namespace {

std::unique_ptr<Master<Block>> MakeMaster(int nb, Assignment a, std::size_t limit) {
  auto master = std::make_unique<Master<Block>>(nb, a);
  master->limit(limit);
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), a)) {
    auto b = std::make_unique<Block>();
    b->gid = gid;
    master->add(gid, std::move(b), {});
  }
  return master;
}

// Block s sends to block t (when (s + 2t) % 3 != 0, itself included) the
// values s * 1000 + t, then `words` words, in two enqueues.
bool Sends(int s, int t) { return (s + 2 * t) % 3 != 0; }
std::int64_t Value(int s, int t, std::size_t i) {
  return (std::int64_t(s) * 1000 + t) * 100000 + std::int64_t(i);
}

// With views, the words go by enqueue_view (from memory the block keeps
// until the receiving call) and come back by dequeue_view; every fourth
// target then gets one more value after them (the view is copied into the
// queue first).
void SendEverywhere(Master<Block>& master, int k, std::size_t words, bool views = false) {
  const int nb = master.nblocks();
  dash::bp::all_to_all(
      master,
      [&](Block& b, AllToAllProxy& ap) {
        ++b.calls;
        EXPECT_EQ(ap.gid(), b.gid);
        EXPECT_EQ(ap.nblocks(), nb);
        if (ap.sending()) {
          b.sent.assign(std::size_t(nb), {});
          for (int t = 0; t < nb; ++t) {
            if (!Sends(b.gid, t)) continue;
            ap.enqueue(t, std::int64_t(b.gid) * 1000 + t);
            std::vector<std::int64_t>& v = b.sent[std::size_t(t)];
            v.resize(words);
            for (std::size_t i = 0; i < words; ++i) v[i] = Value(b.gid, t, i);
            if (!views) {
              ap.enqueue(t, v.data(), v.size());
              continue;
            }
            ap.enqueue_view(t, v.data(), v.size());
            if (t % 4 == 0) ap.enqueue(t, std::int64_t(-t));
          }
          return;
        }
        b.sent.clear();
        for (int from : ap.incoming_from()) {
          std::int64_t head = 0;
          std::vector<std::int64_t> v;
          ap.dequeue(from, head);
          if (views) {
            const dash::bp::QueueView<std::int64_t> view = ap.dequeue_view<std::int64_t>(from);
            v.assign(view.begin(), view.end());
            if (b.gid % 4 == 0) {
              std::int64_t last = 1;
              ap.dequeue(from, last);
              EXPECT_EQ(last, -b.gid);
            }
          } else {
            ap.dequeue(from, v);
          }
          EXPECT_EQ(ap.incoming(from), 0u) << "block " << b.gid << " from " << from;
          b.got.push_back(from);
          b.got.push_back(head);
          b.got.insert(b.got.end(), v.begin(), v.end());
        }
      },
      k);
}

void Check(Master<Block>& master, std::size_t words) {
  const int nb = master.nblocks();
  master.foreach ([&](Block& b, dash::bp::Proxy&) {
    EXPECT_EQ(b.calls, 2) << "block " << b.gid;
    std::vector<std::int64_t> expected;
    for (int s = 0; s < nb; ++s) {
      if (!Sends(s, b.gid)) continue;
      expected.push_back(s);
      expected.push_back(std::int64_t(s) * 1000 + b.gid);
      for (std::size_t i = 0; i < words; ++i) expected.push_back(Value(s, b.gid, i));
    }
    EXPECT_EQ(b.got, expected) << "block " << b.gid;
  });
}

TEST(BlocksAllToAll, EveryQueueArrivesInOrder_AnyBlockCountAndGroupSize) {
  for (int per_unit : {1, 3, 5}) {
    for (int k : {2, 3, 4}) {
      for (Assignment a : {Assignment::contiguous, Assignment::round_robin}) {
        const int nb = per_unit * nunits();
        SCOPED_TRACE(std::to_string(nb) + " blocks, k " + std::to_string(k));
        auto master = MakeMaster(nb, a, 0);
        SendEverywhere(*master, k, 3);
        Check(*master, 3);
      }
    }
  }
}

TEST(BlocksAllToAll, Views_ArriveInOrder) {
  for (int per_unit : {1, 4}) {
    for (int k : {2, 3}) {
      const int nb = per_unit * nunits();
      SCOPED_TRACE(std::to_string(nb) + " blocks, k " + std::to_string(k));
      for (std::size_t limit : {std::size_t(0), std::size_t(1)}) {
        auto master = MakeMaster(nb, Assignment::round_robin, limit);
        SendEverywhere(*master, k, 5, true);
        Check(*master, 5);
        SendEverywhere(*master, k, 0, true);  // empty arrays
      }
    }
  }
}

// Out of core: one block in memory, queues far above the inline threshold,
// one and two threads: the same arrivals.
TEST(BlocksAllToAll, OutOfCore_SameArrivals) {
  constexpr std::size_t kWords = 2048;  // 16 KiB per queue
  const int nb = 4 * nunits();
  for (int threads : {1, 2}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    auto master = MakeMaster(nb, Assignment::contiguous, 1);
    master->threads(threads);
    SendEverywhere(*master, 2, kWords);
    Check(*master, kWords);
    EXPECT_LE(master->resident_blocks(), 1u);
    EXPECT_GT(master->spill_counters().bytes_written, 0u);
  }
}

// The unit's spill store, counting the blocks it hands back (keys below
// 2^40 are blocks; queues have keys of their own).
class LoadCountingStore : public dash::bp::SpillStore {
 public:
  void put(std::uint64_t key, dash::bp::Bytes bytes) override {
    store_->put(key, std::move(bytes));
  }
  dash::bp::Bytes take(std::uint64_t key) override {
    loads += key < (std::uint64_t(1) << 40);
    return store_->take(key);
  }
  dash::bp::Bytes read(std::uint64_t key, bool& kept) override {
    loads += key < (std::uint64_t(1) << 40);
    return store_->read(key, kept);
  }
  bool put_kept(std::uint64_t key) override { return store_->put_kept(key); }
  void prefetch(std::uint64_t key) override { store_->prefetch(key); }
  void recycle(dash::bp::Bytes b) override { store_->recycle(std::move(b)); }
  void erase(std::uint64_t key) override { store_->erase(key); }
  dash::bp::SpillCounters counters() const override { return store_->counters(); }
  int loads = 0;

 private:
  std::unique_ptr<dash::bp::SpillStore> store_ = dash::bp::make_spill_store("alltoall-loads");
};

// Out of core the rounds between the first (sending) and the last
// (receiving) only pass records on: each block is loaded at most twice,
// whatever the number of rounds (8 blocks per unit: out of core the groups
// hold at least 8 blocks, so one round at 1 unit, two at 2-4 units).
TEST(BlocksAllToAll, OutOfCore_MiddleRoundsDoNotLoadBlocks) {
  constexpr int kPerUnit = 8;
  const int nb = kPerUnit * nunits();
  auto store = std::make_shared<LoadCountingStore>();
  auto master = std::make_unique<Master<Block>>(nb, Assignment::contiguous);
  master->spill_store(store);
  master->limit(1);
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), Assignment::contiguous)) {
    auto b = std::make_unique<Block>();
    b->gid = gid;
    master->add(gid, std::move(b), {});
  }
  const int before = store->loads;
  SendEverywhere(*master, 2, 5);
  EXPECT_LE(store->loads - before, 2 * kPerUnit);
  EXPECT_GE(store->loads - before, 2 * (kPerUnit - 1));
  Check(*master, 5);
}

TEST(BlocksAllToAll, BadInput_ThrowsOnEveryUnit) {
  const int nb = 2 * nunits();
  auto master = MakeMaster(nb, Assignment::round_robin, 0);
  EXPECT_THROW(dash::bp::all_to_all(
                   *master, [](Block&, AllToAllProxy&) {}, 1),
               dash::exception::InvalidArgument);
  // Block 0 enqueues outside [0, nb): its unit throws InvalidArgument, the
  // others RemoteFailure naming it.
  auto outside = [nb](Block& b, AllToAllProxy& ap) {
    if (ap.sending() && b.gid == 0) ap.enqueue(nb, 1);
  };
  try {
    dash::bp::all_to_all(*master, outside);
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::RemoteFailure& e) {
    EXPECT_NE(myid(), 0);
    EXPECT_NE(e.message().find("outside [0, " + std::to_string(nb) + ")"), std::string::npos)
        << e.what();
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_EQ(myid(), 0) << e.what();
  }
  // Dequeue while sending, enqueue while receiving: refused.
  EXPECT_THROW(dash::bp::all_to_all(*master,
                                    [](Block& b, AllToAllProxy& ap) {
                                      long v;
                                      if (ap.sending()) ap.dequeue(b.gid, v);
                                    }),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::bp::all_to_all(*master,
                                    [](Block& b, AllToAllProxy& ap) {
                                      if (!ap.sending()) ap.enqueue(b.gid, 1);
                                    }),
               dash::exception::InvalidArgument);
  // The master works afterwards.
  auto fresh = MakeMaster(nb, Assignment::round_robin, 0);
  SendEverywhere(*fresh, 2, 1);
  Check(*fresh, 1);
}

}  // namespace
