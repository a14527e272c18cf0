// dash::bp::Master under a memory-block limit (Master::limit, DASH_OOC_MEM_BLOCKS):
// at most the limit of blocks stay in memory between calls, the others go
// to the unit's spill directory and come back intact for foreach, exchange,
// iexchange and reduce; the results equal those of the in-memory run.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/AllToAll.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <dash/bp/Reduce.h>
#include <dash/bp/ReducePartners.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "mpi_test.h"
#include "peak_memory.h"

namespace {

using dash::bp::Assignment;
using dash::bp::Master;
using dash::bp::Proxy;
using dash::bp::ReduceProxy;
using dash_test::myid;
using dash_test::nunits;

// A block with a payload large enough that keeping it matters, and a
// value that depends on everything it received.
struct Heavy {
  int gid = -1;
  std::vector<std::uint64_t> data;  // kWords words
  std::uint64_t sum = 0;            // what the block received, summed
  int calls = 0;
};

constexpr std::size_t kWords = 4096;  // 32 KiB per block

}  // namespace

template <>
struct dash::bp::Serialization<Heavy> {
  static void save(MemoryBuffer& buf, const Heavy& b) {
    dash::bp::save(buf, b.gid);
    dash::bp::save(buf, b.data);
    dash::bp::save(buf, b.sum);
    dash::bp::save(buf, b.calls);
  }
  static void load(MemoryBuffer& buf, Heavy& b) {
    dash::bp::load(buf, b.gid);
    dash::bp::load(buf, b.data);
    dash::bp::load(buf, b.sum);
    dash::bp::load(buf, b.calls);
  }
};

namespace {
// A block of a reduction's bytes (PeakMemoryUnderALimit).
struct Bytes2 {
  int gid = -1;
  std::vector<std::uint8_t> bytes;
};
}  // namespace

template <>
struct dash::bp::Serialization<Bytes2> {
  static void save(MemoryBuffer& buf, const Bytes2& b) {
    dash::bp::save(buf, b.gid);
    dash::bp::save(buf, b.bytes);
  }
  static void load(MemoryBuffer& buf, Bytes2& b) {
    dash::bp::load(buf, b.gid);
    dash::bp::load(buf, b.bytes);
  }
};

namespace {

std::uint64_t Word(int gid, std::size_t i) { return std::uint64_t(gid) * 1000003u + i * 7919u; }

// A ring of nb Heavy blocks (each linked to the next gid), the calling
// unit's ones added, with at most `limit` in memory (0: no limit), evicted
// to `store` if given.
std::unique_ptr<Master<Heavy>> MakeRing(int nb, std::size_t limit, Assignment a,
                                        std::shared_ptr<dash::bp::SpillStore> store = nullptr) {
  auto master = std::make_unique<Master<Heavy>>(nb, a);
  if (store) master->spill_store(std::move(store));
  master->limit(limit);
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), a)) {
    auto b = std::make_unique<Heavy>();
    b->gid = gid;
    b->data.resize(kWords);
    for (std::size_t i = 0; i < kWords; ++i) b->data[i] = Word(gid, i);
    master->add(gid, std::move(b), {(gid + 1) % nb});
    if (limit > 0) {
      EXPECT_LE(master->resident_blocks(), limit);
    }
  }
  return master;
}

// Every block checks its payload and returns gid-dependent state.
void CheckPayloads(Master<Heavy>& master, int calls) {
  std::atomic<int> seen{0};  // foreach may run blocks on several threads
  master.foreach ([&](Heavy& b, Proxy&) {
    ++seen;
    ASSERT_EQ(b.data.size(), kWords) << "block " << b.gid;
    for (std::size_t i = 0; i < kWords; ++i) ASSERT_EQ(b.data[i], Word(b.gid, i)) << b.gid;
    EXPECT_EQ(b.calls, calls) << "block " << b.gid;
  });
  EXPECT_EQ(seen.load(), int(master.size()));
}

// Rounds of foreach (send the payload's first word and the running sum to
// the next block) and exchange; the sums of every block after `rounds`.
// With `words`, each message carries that many more words (big queues).
std::vector<std::uint64_t> RunRing(Master<Heavy>& master, int rounds, std::size_t words = 0) {
  for (int r = 0; r < rounds; ++r) {
    master.foreach ([&](Heavy& b, Proxy& p) {
      for (int from : p.incoming_from()) {
        std::vector<std::uint64_t> v;
        p.dequeue(from, v);
        for (std::uint64_t x : v) b.sum = b.sum * 31 + x;
      }
      ++b.calls;
      std::vector<std::uint64_t> message{b.data[0], b.sum, std::uint64_t(r)};
      for (std::size_t i = 0; i < words; ++i) message.push_back(b.sum + i);
      p.enqueue(p.link()[0], message);
    });
    master.exchange();
  }
  std::vector<std::uint64_t> sums(std::size_t(master.nblocks()), 0);
  master.foreach ([&](Heavy& b, Proxy&) { sums[std::size_t(b.gid)] = b.sum; });
  return sums;
}

TEST(BlocksOutOfCore, ForeachExchange_SameResultsAsInMemory_WithinTheLimit) {
  for (int blocks_per_unit : {1, 3, 8}) {
    for (std::size_t limit : {std::size_t(1), std::size_t(2), std::size_t(5)}) {
      for (int threads : {1, 2}) {
        SCOPED_TRACE(std::to_string(blocks_per_unit) + " blocks per unit, limit " +
                     std::to_string(limit) + ", " + std::to_string(threads) + " threads");
        const int nb = blocks_per_unit * nunits();
        auto in_memory = MakeRing(nb, 0, Assignment::round_robin);
        auto spilled = MakeRing(nb, limit, Assignment::round_robin);
        spilled->threads(threads);
        EXPECT_EQ(spilled->limit(), limit);
        const auto expected = RunRing(*in_memory, 4);
        const auto got = RunRing(*spilled, 4);
        EXPECT_EQ(got, expected);
        EXPECT_LE(spilled->resident_blocks(), limit);
        CheckPayloads(*spilled, 4);
        // Nothing moves when every block fits (writes of evicted blocks
        // taken back before the I/O thread got to them never reach the disk,
        // so how much moves otherwise depends on timing).
        const auto moved = spilled->spill_counters();
        if (std::size_t(blocks_per_unit) <= limit) {
          EXPECT_EQ(moved.bytes_written, 0u);
          EXPECT_EQ(moved.bytes_read, 0u);
        }
        EXPECT_LE(moved.bytes_read, moved.bytes_written);
      }
    }
  }
}

// Queues of 128 KiB (far above DASH_OOC_QUEUE_INLINE) to evicted blocks go
// to storage and come back, complete, with their block.
TEST(BlocksOutOfCore, LargeQueues_GoToStorageWithTheirBlock) {
  constexpr std::size_t kQueueWords = 16384;
  for (int threads : {1, 2}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    const int nb = 4 * nunits();
    auto in_memory = MakeRing(nb, 0, Assignment::contiguous);
    auto spilled = MakeRing(nb, 1, Assignment::contiguous);
    spilled->threads(threads);
    const auto expected = RunRing(*in_memory, 3, kQueueWords);
    EXPECT_EQ(RunRing(*spilled, 3, kQueueWords), expected);
    CheckPayloads(*spilled, 3);
  }
}

TEST(BlocksOutOfCore, LimitChangesBetweenPhases) {
  const int nb = 6 * nunits();
  auto in_memory = MakeRing(nb, 0, Assignment::contiguous);
  auto master = MakeRing(nb, 0, Assignment::contiguous);
  const auto first = RunRing(*in_memory, 2);
  EXPECT_EQ(RunRing(*master, 2), first);
  master->limit(2);  // evicts down to 2 at once
  EXPECT_LE(master->resident_blocks(), 2u);
  const auto second = RunRing(*in_memory, 2);
  EXPECT_EQ(RunRing(*master, 2), second);
  master->limit(0);  // no limit: evicted blocks come back as they are used
  EXPECT_EQ(RunRing(*master, 1), RunRing(*in_memory, 1));
  EXPECT_EQ(master->resident_blocks(), master->size());
  CheckPayloads(*master, 5);
}

TEST(BlocksOutOfCore, SkippedBlocksAreNotLoaded) {
  const int nb = 4 * nunits();
  // The evictions while the ring is built are written in the background:
  // flush them before reading the counters, else a late write counts as one
  // the foreach made.
  std::shared_ptr<dash::bp::SpillStore> store = dash::bp::make_spill_store("skipped");
  auto master = MakeRing(nb, 1, Assignment::contiguous, store);
  store->flush();
  const auto before = master->spill_counters();
  EXPECT_GE(before.bytes_written, 3 * (kWords * sizeof(std::uint64_t)));  // 3 of 4 evicted
  int ran = 0;
  master->foreach ([&](Heavy&, Proxy&) { ++ran; }, [](const Proxy&) { return true; });
  EXPECT_EQ(ran, 0);
  const auto after = master->spill_counters();
  EXPECT_EQ(after.bytes_read, before.bytes_read);
  EXPECT_EQ(after.bytes_written, before.bytes_written);
}

// iexchange: a token goes around the ring `laps` times; every block counts
// what passed it.
TEST(BlocksOutOfCore, Iexchange_TokenRing_SameCountsAsInMemory) {
  for (std::size_t limit : {std::size_t(0), std::size_t(1), std::size_t(3)}) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE("limit " + std::to_string(limit) + ", " + std::to_string(threads) + " threads");
      const int nb = 5 * nunits();
      const std::uint64_t laps = 3;
      auto master = MakeRing(nb, limit, Assignment::round_robin);
      master->threads(threads);
      master->iexchange([&](Heavy& b, Proxy& p) {
        if (b.gid == 0 && b.calls++ == 0) p.enqueue(p.link()[0], std::uint64_t(0));
        for (int from : p.incoming_from()) {
          while (p.incoming(from) > 0) {
            std::uint64_t hops = 0;
            p.dequeue(from, hops);
            b.sum += 1;
            if (hops + 1 < laps * std::uint64_t(nb)) p.enqueue(p.link()[0], hops + 1);
          }
        }
        return true;
      });
      std::vector<long> counts(std::size_t(nb), 0);
      master->foreach ([&](Heavy& b, Proxy&) { counts[std::size_t(b.gid)] = long(b.sum); });
      MPI_Allreduce(MPI_IN_PLACE, counts.data(), nb, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      for (int gid = 0; gid < nb; ++gid) EXPECT_EQ(counts[std::size_t(gid)], long(laps)) << gid;
      if (limit > 0) {
        EXPECT_LE(master->resident_blocks(), limit);
      }
    }
  }
}

// A merge of the ring's payloads (32 KiB queues, far above the inline
// threshold) to block 0 by enqueue_view.
void MergePayloads(Master<Heavy>& master) {
  const int nb = master.nblocks();
  dash::bp::RegularDecomposer<1> dec({{0}, {nb}}, nb);
  dash::bp::RegularMergePartners<1> partners(dec, 2);
  dash::bp::reduce(master, partners, [](Heavy& b, ReduceProxy& rp) {
    for (int from : rp.in_link()) {
      if (from == rp.gid()) continue;
      auto v = rp.dequeue_view<std::uint64_t>(from);
      ASSERT_EQ(v.size(), kWords);
      for (std::size_t i = 0; i < kWords; ++i) b.data[i] += v[i];
    }
    for (int to : rp.out_link())
      if (to != rp.gid()) rp.enqueue_view(to, b.data.data(), b.data.size());
  });
}

// Merge of every block's payload into block 0, with enqueue_view (the
// block's own memory), under limits that evict the viewed blocks.
TEST(BlocksOutOfCore, ReduceMerge_WithViews_SameSumAsInMemory) {
  for (std::size_t limit : {std::size_t(0), std::size_t(1), std::size_t(2)}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    const int nb = 4 * nunits();
    auto master = MakeRing(nb, limit, Assignment::contiguous);
    MergePayloads(*master);
    master->foreach ([&](Heavy& b, Proxy&) {
      if (b.gid != 0) return;
      for (std::size_t i = 0; i < kWords; ++i) {
        std::uint64_t expected = 0;
        for (int g = 0; g < nb; ++g) expected += Word(g, i);
        ASSERT_EQ(b.data[i], expected) << "word " << i;
      }
    });
    if (limit > 0) {
      EXPECT_LE(master->resident_blocks(), limit);
    }
  }
}

// A store in memory that records what a master hands it; keys with the top
// bit set are the queues of a reduction, keys in [2^41, 2^42) the queue
// parts of exchange(). It can refuse those (a full disk).
class RecordingStore : public dash::bp::SpillStore {
 public:
  static bool is_queue(std::uint64_t key) { return (key >> 63) != 0; }
  static bool is_part(std::uint64_t key) { return (key >> 41) == 1; }
  void put(std::uint64_t key, dash::bp::Bytes bytes) override {
    if (is_queue(key)) {
      if (refuse_queues)
        throw dash::exception::RuntimeError("RecordingStore: no room for queue " +
                                            std::to_string(key));
      ++queue_puts;
      queue_keys.push_back(key);
    }
    if (is_part(key)) {
      if (refuse_parts)
        throw dash::exception::RuntimeError("RecordingStore: no room for part " +
                                            std::to_string(key));
      ++part_puts;
    }
    held[key] = std::move(bytes);
  }
  void prefetch(std::uint64_t) override {}
  dash::bp::Bytes take(std::uint64_t key) override {
    auto it = held.find(key);
    if (it == held.end())
      throw dash::exception::InvalidArgument("RecordingStore: no key " + std::to_string(key));
    dash::bp::Bytes b = std::move(it->second);
    held.erase(it);
    queue_takes += is_queue(key);
    return b;
  }
  void recycle(dash::bp::Bytes) override {}
  dash::bp::Bytes buffer(std::size_t n) override {
    buffer_asks.push_back(n);
    return dash::bp::SpillStore::buffer(n);
  }
  void erase(std::uint64_t key) override { held.erase(key); }
  dash::bp::SpillCounters counters() const override { return {}; }
  int queues_held() const {
    int n = 0;
    for (const auto& kv : held) n += is_queue(kv.first);
    return n;
  }
  int parts_held() const {
    int n = 0;
    for (const auto& kv : held) n += is_part(kv.first);
    return n;
  }
  std::map<std::uint64_t, dash::bp::Bytes> held;
  std::vector<std::size_t> buffer_asks;  // the sizes buffer() was asked for
  int queue_puts = 0, queue_takes = 0, part_puts = 0;
  std::vector<std::uint64_t> queue_keys;  // of every queue put
  bool refuse_queues = false, refuse_parts = false;
};

// An evicted block is saved into memory the store hands out (a store's recycled, aligned
// buffer is then written without a copy), sized as the block's bytes were before or, if
// larger, as the largest block saved; only the very first eviction has no size to ask for.
TEST(BlocksOutOfCore, EvictionAgain_SavesIntoTheStoresBuffer) {
  const int nb = 3 * nunits();
  auto store = std::make_shared<RecordingStore>();
  auto master = MakeRing(nb, 1, Assignment::contiguous, store);
  const std::size_t added = master->size();
  // Adding evicts all but the last block added, the first of them with no size known.
  EXPECT_EQ(store->buffer_asks.size(), added > 1 ? added - 2 : 0);
  const std::size_t first_size = store->held.empty() ? 0 : store->held.begin()->second.size();
  ASSERT_GT(first_size, kWords * sizeof(std::uint64_t));
  const std::size_t asked_adding = store->buffer_asks.size();
  for (int pass = 0; pass < 2; ++pass) CheckPayloads(*master, 0);
  // Each pass loads every block but the one in memory and evicts one per load (the block
  // added last, never stored before, asks for the size of those stored).
  EXPECT_EQ(store->buffer_asks.size() - asked_adding, 2 * (added - 1));
  for (std::size_t n : store->buffer_asks) EXPECT_EQ(n, first_size);
  EXPECT_EQ(store->queues_held() + store->parts_held(), 0);
}

// The unit's spill store (dash/bp/BlockStore.h), counting the blocks
// handed to put() and the bytes read() returned (the store's own counters
// follow its I/O thread).
class CountingStore : public dash::bp::SpillStore {
 public:
  void put(std::uint64_t key, dash::bp::Bytes bytes) override {
    ++puts;
    store_->put(key, std::move(bytes));
  }
  dash::bp::Bytes read(std::uint64_t key, bool& kept) override {
    dash::bp::Bytes b = store_->read(key, kept);
    read_bytes += b.size();
    return b;
  }
  bool put_kept(std::uint64_t key) override { return store_->put_kept(key); }
  void prefetch(std::uint64_t key) override { store_->prefetch(key); }
  dash::bp::Bytes take(std::uint64_t key) override { return store_->take(key); }
  void recycle(dash::bp::Bytes b) override { store_->recycle(std::move(b)); }
  void erase(std::uint64_t key) override { store_->erase(key); }
  dash::bp::SpillCounters counters() const override { return store_->counters(); }
  int puts = 0;
  std::size_t read_bytes = 0;

 private:
  std::unique_ptr<dash::bp::SpillStore> store_ = dash::bp::make_spill_store("counting");
};

// A block only read since it was loaded (foreach_read) is dropped, not
// written again, while the unit's spill store keeps the file it was read
// from; a call that may write saves it again. Rounds of exchange between
// read-only passes give the sums of a run all in memory.
TEST(BlocksOutOfCore, ReadOnlyPasses_WriteNothingAgain) {
  const int nb = 3 * nunits();
  auto store = std::make_shared<CountingStore>();
  auto master = MakeRing(nb, 1, Assignment::contiguous, store);
  auto in_memory = MakeRing(nb, 0, Assignment::contiguous);
  CheckPayloads(*master, 0);  // may write: every block has been saved once
  auto read_pass = [](Master<Heavy>& m) {
    std::atomic<int> seen{0};
    m.foreach_read([&](const Heavy& b, Proxy&) {
      ++seen;
      ASSERT_EQ(b.data.size(), kWords) << "block " << b.gid;
      for (std::size_t i = 0; i < kWords; ++i) ASSERT_EQ(b.data[i], Word(b.gid, i)) << b.gid;
    });
    EXPECT_EQ(seen.load(), int(m.size()));
  };
  read_pass(*master);  // saves the block the writing pass left in memory (once evicted)
  const int puts = store->puts;
  const std::size_t read_bytes = store->read_bytes;
  for (int pass = 0; pass < 2; ++pass) read_pass(*master);
  EXPECT_EQ(store->puts, puts) << "read-only passes wrote blocks";
  EXPECT_GE(store->read_bytes - read_bytes,
            2 * (master->size() - 1) * kWords * sizeof(std::uint64_t));
  CheckPayloads(*master, 0);
  EXPECT_EQ(store->puts, puts + int(master->size()) - 1)
      << "a writing pass saves each block evicted";
  for (int round = 0; round < 3; ++round) {
    const std::vector<std::uint64_t> expected = RunRing(*in_memory, 1);
    EXPECT_EQ(RunRing(*master, 1), expected) << "round " << round;
    read_pass(*master);
  }
}

// An evicted block's queues leave memory with it: once every queue is
// empty, the proxies of evicted blocks hold no queue memory, while without
// a limit (and for the block still in memory) the queues keep theirs for
// the next round.
TEST(BlocksOutOfCore, EvictedBlocks_FreeTheirQueueMemory) {
  constexpr std::size_t kQueueWords = 2048;  // 16 KiB messages
  const int nb = 4 * nunits();
  auto drain = [](Master<Heavy>& master) {
    master.foreach ([](Heavy&, Proxy& p) {
      for (int from : p.incoming_from()) {
        std::vector<std::uint64_t> v;
        p.dequeue(from, v);
      }
    });
  };
  for (std::size_t limit : {std::size_t(0), std::size_t(1)}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    auto master = MakeRing(nb, limit, Assignment::contiguous);
    RunRing(*master, 2, kQueueWords);
    drain(*master);
    for (std::size_t i = 0; i < master->size(); ++i) {
      Proxy& p = master->proxy(i);
      EXPECT_EQ(p.incoming_bytes(), 0u);
      if (limit == 0) {
        EXPECT_GE(p.queue_memory(), 2 * kQueueWords * sizeof(std::uint64_t))
            << "block " << master->gid(i) << " keeps its queues' memory in memory";
      } else if (!master->resident(i)) {
        EXPECT_EQ(p.queue_memory(), 0u) << "evicted block " << master->gid(i);
      }
    }
  }
}

// Under a memory-block limit short of memory, iexchange keeps at most about
// twice the largest block (at least 4 MiB) in messages being sent: unit 0
// sends 1 MiB from each of its 8 blocks to unit 1, which stays in its first
// call, receiving nothing, until unit 0 says on a communicator of the test's
// own that its block call that fills the window runs (the 4th: 4 messages of
// 1 MiB and a header pass 4 MiB; without a limit the 8th). Its message is
// counted as sent right after that call, before any send can complete, so
// more than the window is in flight whatever the scheduling of the units.
TEST(BlocksOutOfCore, Iexchange_MessagesInFlightStayWithinTheWindow) {
  if (nunits() < 2) GTEST_SKIP() << "needs a second unit to send to";
  constexpr std::size_t kWords = std::size_t(1) << 17;  // 1 MiB per message
  constexpr int kWindowFilledAt = 4;  // unit 0's call that passes the 4 MiB window
  const int per_unit = 8, nb = per_unit * nunits();
  MPI_Comm signal;
  MPI_Comm_dup(MPI_COMM_WORLD, &signal);
  int tag = 7;  // one per case: a signal that came too late stays out of the next case
  for (auto [limit, threads] : {std::pair<std::size_t, int>{0, 1}, {1, 1}, {1, 2}}) {
    SCOPED_TRACE("limit " + std::to_string(limit) + ", " + std::to_string(threads) + " threads");
    ++tag;
    auto master = MakeRing(nb, limit, Assignment::contiguous);
    master->threads(threads);
    const int signal_at = limit == 0 ? per_unit : kWindowFilledAt;
    std::atomic<std::uint64_t> received{0};
    std::atomic<bool> busy{myid() == 1};  // unit 1's first call waits, receiving nothing
    std::atomic<int> first_calls{0};
    auto wait_for_unit0 = [&] {
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      int arrived = 0;
      while (!arrived && std::chrono::steady_clock::now() < give_up) {
        MPI_Iprobe(0, tag, signal, &arrived, MPI_STATUS_IGNORE);
        if (!arrived) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      if (!arrived) {
        ADD_FAILURE() << "unit 0 did not run its call " << signal_at << " within 30 s";
        return;
      }
      int word = 0;
      MPI_Recv(&word, 1, MPI_INT, 0, tag, signal, MPI_STATUS_IGNORE);
    };
    master->iexchange([&](Heavy& b, Proxy& p) {
      if (b.calls++ == 0 && myid() == 0) {
        p.enqueue(b.gid + per_unit, std::vector<std::uint64_t>(kWords, std::uint64_t(b.gid)));
        if (++first_calls == signal_at) {
          int word = 1;
          MPI_Send(&word, 1, MPI_INT, 1, tag, signal);
        }
      }
      if (busy.exchange(false)) wait_for_unit0();
      for (int from : p.incoming_from()) {
        std::vector<std::uint64_t> v;
        p.dequeue(from, v);
        received += v.size();
      }
      return true;
    });
    EXPECT_EQ(received.load(), myid() == 1 ? per_unit * kWords : 0u);
    if (myid() == 0) {
      const std::size_t mib = std::size_t(1) << 20;
      if (limit == 0) {
        EXPECT_GE(master->peak_sending_bytes(), 6 * mib) << "nothing holds the sends back";
      } else {
        EXPECT_GT(master->peak_sending_bytes(), 4 * mib) << "the window was never filled";
        EXPECT_LE(master->peak_sending_bytes(), 4 * mib + mib + 4096);
      }
    }
  }
  MPI_Comm_free(&signal);
}

// iexchange with 16 KiB messages: those for blocks not in memory wait in
// the store (when the unit's blocks exceed the limit), and every block
// receives the same as in memory.
TEST(BlocksOutOfCore, Iexchange_BigMessagesToEvictedBlocks_WaitInTheStore) {
  constexpr std::size_t kWords = 2048;
  const int nb = 4 * nunits();
  auto run = [&](Master<Heavy>& master) {
    master.iexchange([&](Heavy& b, Proxy& p) {
      if (b.calls++ == 0) {
        std::vector<std::uint64_t> message(kWords, std::uint64_t(b.gid) + 1);
        for (int k = 1; k <= 3; ++k) p.enqueue((b.gid + k) % nb, message);
      }
      for (int from : p.incoming_from()) {
        std::vector<std::uint64_t> v;
        p.dequeue(from, v);
        for (std::uint64_t x : v) b.sum += x;  // whatever the order of arrival
      }
      return true;
    });
    std::vector<long long> sums(std::size_t(nb), 0);
    master.foreach ([&](Heavy& b, Proxy&) { sums[std::size_t(b.gid)] = (long long)(b.sum); });
    MPI_Allreduce(MPI_IN_PLACE, sums.data(), nb, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return sums;
  };
  auto in_memory = MakeRing(nb, 0, Assignment::contiguous);
  const auto expected = run(*in_memory);
  for (int g = 0; g < nb; ++g) {
    long long words = 0;  // block g hears from g - 1, g - 2 and g - 3
    for (int k = 1; k <= 3; ++k) words += (g - k + 3 * nb) % nb + 1;
    ASSERT_EQ(expected[std::size_t(g)], words * (long long)(kWords)) << "block " << g;
  }
  for (std::size_t limit : {std::size_t(1), std::size_t(4)}) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE("limit " + std::to_string(limit) + ", " + std::to_string(threads) + " threads");
      auto store = std::make_shared<RecordingStore>();
      auto master = MakeRing(nb, limit, Assignment::contiguous, store);
      master->threads(threads);
      EXPECT_EQ(run(*master), expected);
      if (limit < 4) {
        EXPECT_GT(store->part_puts, 0) << "messages to evicted blocks go to the store";
      } else {
        EXPECT_EQ(store->part_puts, 0) << "every block fits: messages stay in memory";
      }
      EXPECT_EQ(store->parts_held(), 0) << "every part read, nothing left behind";
    }
  }
}

// Runs `run`, which must throw on every unit: the last unit its own
// RuntimeError, the others RemoteFailure naming it; both say `phrase`.
void ExpectFailureOfLastUnit(const std::function<void()>& run, const std::string& phrase) {
  const bool failing = myid() == nunits() - 1;
  try {
    run();
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::RemoteFailure& e) {
    EXPECT_FALSE(failing) << e.what();
    EXPECT_EQ(e.unit(), nunits() - 1);
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
  } catch (const dash::exception::RuntimeError& e) {
    EXPECT_TRUE(failing) << e.what();
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
  }
}

TEST(BlocksOutOfCore, ExchangeQueues_GoThroughTheStoreWhenMemoryIsShort) {
  constexpr std::size_t kQueueWords = 2048;  // 16 KiB per queue
  const int nb = 4 * nunits();
  auto in_memory = MakeRing(nb, 0, Assignment::contiguous);
  const auto expected = RunRing(*in_memory, 3, kQueueWords);
  // 4 blocks per unit: a limit below 4 is short of memory, 4 is not.
  for (std::size_t limit : {std::size_t(1), std::size_t(3), std::size_t(4)}) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE("limit " + std::to_string(limit) + ", " + std::to_string(threads) + " threads");
      auto store = std::make_shared<RecordingStore>();
      auto spilled = MakeRing(nb, limit, Assignment::contiguous, store);
      spilled->threads(threads);
      EXPECT_EQ(RunRing(*spilled, 3, kQueueWords), expected);
      CheckPayloads(*spilled, 3);
      if (limit < 4) {
        EXPECT_GT(store->part_puts, 0) << "outgoing queues go to the store";
      } else {
        EXPECT_EQ(store->part_puts, 0) << "every block fits: queues stay in memory";
      }
      EXPECT_EQ(store->parts_held(), 0) << "every part read, nothing left behind";
    }
  }
}

TEST(BlocksOutOfCore, ExchangeQueues_AFailedSpillFailsEveryUnitAndLeavesNothing) {
  constexpr std::size_t kQueueWords = 2048;
  const int nb = 4 * nunits();
  auto store = std::make_shared<RecordingStore>();
  auto master = MakeRing(nb, 1, Assignment::contiguous, store);
  store->refuse_parts = myid() == nunits() - 1;
  ExpectFailureOfLastUnit([&] { RunRing(*master, 1, kQueueWords); }, "no room for part");
  EXPECT_EQ(store->parts_held(), 0) << "nothing left behind";
  store->refuse_parts = false;  // the master works again
  EXPECT_NO_THROW(RunRing(*master, 2, kQueueWords));
  EXPECT_EQ(store->parts_held(), 0);
}

TEST(BlocksOutOfCore, ReduceQueues_GoThroughTheStoreWhenMemoryIsShort) {
  // 4 blocks per unit: a limit below 4 is short of memory, 4 is not.
  for (std::size_t limit : {std::size_t(1), std::size_t(3), std::size_t(4)}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    const int nb = 4 * nunits();
    auto store = std::make_shared<RecordingStore>();
    auto master = MakeRing(nb, limit, Assignment::contiguous, store);
    MergePayloads(*master);
    master->foreach ([&](Heavy& b, Proxy&) {
      if (b.gid != 0) return;
      for (std::size_t i = 0; i < kWords; ++i) {
        std::uint64_t expected = 0;
        for (int g = 0; g < nb; ++g) expected += Word(g, i);
        ASSERT_EQ(b.data[i], expected) << "word " << i;
      }
    });
    EXPECT_LE(master->resident_blocks(), limit);
    if (limit < 4) {
      EXPECT_GT(store->queue_puts, 0) << "big queues go to the store";
    } else {
      EXPECT_EQ(store->queue_puts, 0) << "every block fits: queues stay in memory";
    }
    EXPECT_EQ(store->queue_takes, store->queue_puts) << "each stored queue read once";
    EXPECT_EQ(store->queues_held(), 0) << "nothing left behind";
  }
}

// A reduction that moves each ring payload (32 KiB) to the next block in its first round and
// then runs `rounds` - 1 empty ones.
struct RingThenEmptyRounds {
  int nb, rounds_;
  int rounds() const { return rounds_; }
  int nblocks() const { return nb; }
  bool active(int, int) const { return true; }
  void incoming(int round, int gid, std::vector<int>& in) const {
    in.clear();
    if (round == 1) in.push_back((gid + nb - 1) % nb);
  }
  void outgoing(int round, int gid, std::vector<int>& out) const {
    out.clear();
    if (round == 0) out.push_back((gid + 1) % nb);
  }
};

// Out of core, a queue to another unit is sent right after its block's call, not stored by its
// sender (the store sees only queues between blocks of one unit and those received for blocks
// out of memory); with 2048 rounds or more (tags of their own per round run out) it goes
// through the sender's store as before. The same payloads arrive either way.
TEST(BlocksOutOfCore, ReduceQueues_ToOtherUnitsSentAtOnce_StoredBeyond2048Rounds) {
  const int nb = 4 * nunits();
  for (int rounds : {2, 2049}) {
    SCOPED_TRACE(std::to_string(rounds) + " rounds");
    auto store = std::make_shared<RecordingStore>();
    auto master = MakeRing(nb, 1, Assignment::contiguous, store);
    const RingThenEmptyRounds partners{nb, rounds};
    int checked = 0;
    dash::bp::reduce(*master, partners, [&](Heavy& b, ReduceProxy& rp) {
      if (rp.round() == 0) rp.enqueue(rp.out_link()[0], b.data);
      if (rp.round() != 1) return;
      std::vector<std::uint64_t> got;
      rp.dequeue(rp.in_link()[0], got);
      ASSERT_EQ(got.size(), kWords);
      for (std::size_t i = 0; i < kWords; ++i) ASSERT_EQ(got[i], Word(rp.in_link()[0], i)) << i;
      ++checked;
    });
    EXPECT_EQ(checked, 4);
    // Queues this unit's blocks sent to another unit's, as the store saw them.
    int sent_through_store = 0;
    for (std::uint64_t key : store->queue_keys) {
      const int from = int((key >> 31) & 0x7fffffff), to = int(key & 0x7fffffff);
      sent_through_store += master->owner(from) == myid() && master->owner(to) != myid();
    }
    EXPECT_EQ(sent_through_store, rounds < 2048 || nunits() == 1 ? 0 : 1);
    EXPECT_GT(store->queue_puts, 0) << "queues between this unit's blocks are stored";
    EXPECT_EQ(store->queue_takes, store->queue_puts) << "each stored queue read once";
    EXPECT_EQ(store->queues_held(), 0) << "nothing left behind";
  }
}

TEST(BlocksOutOfCore, ReduceQueues_AFailedSpillFailsEveryUnitAndLeavesNothing) {
  const int nb = 4 * nunits();
  auto store = std::make_shared<RecordingStore>();
  auto master = MakeRing(nb, 1, Assignment::contiguous, store);
  store->refuse_queues = myid() == nunits() - 1;
  ExpectFailureOfLastUnit([&] { MergePayloads(*master); }, "no room for queue");
  EXPECT_EQ(store->queues_held(), 0) << "nothing left behind";
  // The master works again once the store takes queues.
  store->refuse_queues = false;
  store->queue_puts = store->queue_takes = 0;  // the failed run erased some unread
  EXPECT_NO_THROW(MergePayloads(*master));
  EXPECT_EQ(store->queues_held(), 0);
  EXPECT_EQ(store->queue_takes, store->queue_puts);
}

// A block type without serialisation cannot be evicted: limit() says so.
struct Opaque {
  std::unique_ptr<int> p;
};

TEST(BlocksOutOfCore, BlockWithoutSerialisation_LimitThrows) {
  static_assert(!dash::bp::is_spillable_v<Opaque>);
  static_assert(dash::bp::is_spillable_v<Heavy>);
  Master<Opaque> master(nunits());
  try {
    master.limit(1);
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("serialisation"), std::string::npos) << e.what();
  }
  EXPECT_EQ(master.limit(), 0u);
}

// DASH_OOC_MEM_BLOCKS sets the limit of every master made afterwards whose
// blocks can be evicted; a malformed value makes the master throw.
TEST(BlocksOutOfCore, MemBlocksFlag) {
  const char* before = std::getenv("DASH_OOC_MEM_BLOCKS");
  const std::string saved = before ? before : "";
  setenv("DASH_OOC_MEM_BLOCKS", "2", 1);
  {
    Master<Heavy> heavy(nunits());
    EXPECT_EQ(heavy.limit(), 2u);
    Master<Opaque> opaque(nunits());  // cannot be evicted: stays in memory (one stderr line)
    EXPECT_EQ(opaque.limit(), 0u);
  }
  for (const char* bad : {" 2", "-1", "two", "", "1073741825"}) {
    setenv("DASH_OOC_MEM_BLOCKS", bad, 1);
    try {
      Master<Heavy> master(nunits());
      ADD_FAILURE() << "no exception for '" << bad << "'";
    } catch (const dash::exception::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("DASH_OOC_MEM_BLOCKS"), std::string::npos) << e.what();
    }
  }
  if (before)
    setenv("DASH_OOC_MEM_BLOCKS", saved.c_str(), 1);
  else
    unsetenv("DASH_OOC_MEM_BLOCKS");
}

}  // namespace

namespace {

// delay(): consecutive foreach calls run back to back on each block, one
// load per block under a limit; their effects come at the end of the scope
// (or at the next exchange); the results equal those of separate calls.
TEST(BlocksOoc, DelayedForeachCallsLoadEachBlockOnce) {
  const int nb = 5 * nunits();
  auto separate = MakeRing(nb, 1, Assignment::contiguous);
  auto delayed = MakeRing(nb, 1, Assignment::contiguous);
  auto add = [](Heavy& b, Proxy&) { b.sum += std::uint64_t(b.gid) + 1; };
  auto twice = [](Heavy& b, Proxy&) { b.sum *= 2, ++b.calls; };
  separate->foreach (add);
  separate->foreach (twice);
  const auto before = delayed->spill_counters();
  int ran = 0;
  {
    auto scope = delayed->delay();
    delayed->foreach (add);
    delayed->foreach ([&](Heavy& b, Proxy& p) { twice(b, p), ++ran; });
    EXPECT_EQ(ran, 0) << "a delayed foreach ran before the end of its scope";
  }
  EXPECT_EQ(ran, 5);
  const auto after = delayed->spill_counters();
  // Each of the 5 blocks loaded once (the last one of MakeRing is still in memory).
  EXPECT_LE(after.bytes_read - before.bytes_read, 4 * (kWords * sizeof(std::uint64_t) + 64))
      << "a block was loaded twice";
  for (std::size_t i = 0; i < delayed->size(); ++i) {
    EXPECT_EQ(delayed->block(i).sum, separate->block(i).sum);
    EXPECT_EQ(delayed->block(i).calls, 1);
  }
  // An exchange inside the scope runs what was delayed first.
  {
    auto scope = delayed->delay();
    delayed->foreach ([](Heavy& b, Proxy& p) { p.enqueue((b.gid + 1) % (5 * nunits()), b.sum); });
    delayed->exchange();
    delayed->foreach ([](Heavy& b, Proxy& p) {
      std::uint64_t v = 0;
      p.dequeue((b.gid + 5 * nunits() - 1) % (5 * nunits()), v);
      b.sum = v;
    });
  }
  for (std::size_t i = 0; i < delayed->size(); ++i) {
    const int gid = delayed->gid(i), from = (gid + nb - 1) % nb;
    EXPECT_EQ(delayed->block(i).sum, 2 * (std::uint64_t(from) + 1)) << gid;
  }
}

#if defined(__linux__)
// Under a limit of one block, 24 blocks of 2 MiB per unit: a merge reduction (each member's
// bytes sent by enqueue_view and added up) holds a few blocks' bytes above what the unit held
// before, not its 24, and an all-to-all of 64-byte items less than its 24 plus 4 (in memory
// it holds about three times its blocks); every byte arrives. Measured 2026-11-29 at 1-4
// units: merge 7.5-9.2 blocks (bound 12); all-to-all 3.9-7.6 at 1, 2 and 4 units but 17-21
// at 3 (bound 28; ooc-reduce shows the same count of blocks at 12, 24 and 48 blocks per
// unit: a constant, not a share). Issue 46 asks M + 2 = 3: not there yet.
TEST(BlocksOutOfCore, PeakMemoryUnderALimit_AFewBlocksNotAll) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's allocator keeps freed memory resident";
#endif
  const int per_unit = 24, nb = per_unit * nunits();
  const std::size_t block = std::size_t(2) << 20, item = 64;
  for (const bool alltoall : {false, true}) {
    SCOPED_TRACE(alltoall ? "all_to_all" : "merge");
    std::uint64_t total = 0;  // bytes summed over the reduced blocks (merge) or items (all)
    const long before = dash_test::AnonymousResidentBytes();
    const long peak =
        dash_test::PeakAnonymousResidentBytes([&] {
          Master<Bytes2> master(nb, Assignment::contiguous);
          master.limit(1);
          for (int gid : dash::bp::local_gids(myid(), nb, nunits(), Assignment::contiguous)) {
            auto b = std::make_unique<Bytes2>();
            b->gid = gid;
            b->bytes.resize(block);
            for (std::size_t i = 0; i < block; ++i) b->bytes[i] = std::uint8_t(gid + i * 7);
            master.add(gid, std::move(b), {});
          }
          if (!alltoall) {
            dash::bp::RegularDecomposer<1> dec({{0}, {nb}}, nb);
            dash::bp::reduce(master, dash::bp::RegularMergePartners<1>(dec, 2),
                             [](Bytes2& b, ReduceProxy& rp) {
                               for (int from : rp.in_link()) {
                                 if (from == rp.gid()) continue;
                                 const auto v = rp.dequeue_view<std::uint8_t>(from);
                                 for (std::size_t i = 0; i < v.size(); ++i)
                                   b.bytes[i] = std::uint8_t(b.bytes[i] + v.data()[i]);
                               }
                               for (int to : rp.out_link())
                                 if (to != rp.gid())
                                   rp.enqueue_view(to, b.bytes.data(), b.bytes.size());
                             });
          } else {
            dash::bp::all_to_all(master, [&](Bytes2& b, dash::bp::AllToAllProxy& ap) {
              if (ap.sending()) {
                for (std::size_t i = 0; i < b.bytes.size(); i += item)
                  ap.enqueue(int((i / item * 2654435761u + std::size_t(b.gid)) % std::size_t(nb)),
                             b.bytes.data() + i, item);
                b.bytes = {};
                return;
              }
              std::vector<std::uint8_t> v;
              for (int from : ap.incoming_from())
                while (ap.incoming(from) > 0) {
                  ap.dequeue(from, v);
                  b.bytes.insert(b.bytes.end(), v.begin(), v.end());
                }
            });
          }
          master.foreach ([&](Bytes2& b, Proxy&) {
            if (alltoall || b.gid == 0)
              for (std::uint8_t x : b.bytes) total += x;
          });
        }) -
        before;
    // Every byte arrived: the merge's block 0 holds the sum of all blocks, the all-to-all's
    // blocks every item.
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < block; ++i) {
      std::uint64_t column = 0;
      for (int gid = 0; gid < nb; ++gid) column += std::uint8_t(gid + i * 7);
      expected += alltoall ? column : column % 256;
    }
    std::uint64_t all = 0;
    MPI_Allreduce(&total, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(all, expected);
    const long bound = long((alltoall ? per_unit + 4 : 12) * long(block));
    EXPECT_LE(peak, bound) << "peak " << double(peak) / double(block) << " blocks above the start";
    std::printf("[ peak     ] unit %d: %s %.1f blocks above the start\n", myid(),
                alltoall ? "all_to_all" : "merge", double(peak) / double(block));
    dash::barrier();
  }
}

// Issue 46: under a limit of M blocks, a reduction's peak is the start plus about M + 2
// blocks (the blocks in memory, then the queues of a call and the store's buffers), at any
// block count per unit. Merge and swap (each block's bytes sent by enqueue_view), blocks of
// 2 MiB, M = 1 and 2: a first run with 8 blocks per unit makes the process-wide I/O threads
// and kept buffers (the test above counts those too); then runs with 8 and 32 blocks per unit
// stay below M + 2 + 4 blocks above their start, and the one with 32 at most three blocks
// above the one with 8 (measured 2026-12-01 at 2 and 4 units: 1.5-5.9 blocks, 32 per unit up
// to 2 above 8 per unit; the huge pages of the spill buffers make steps of one block). Not at
// unit counts that are not powers of two: at 3 units (rounds with groups of 3) unit 1 reached
// 7.0 and 9.0 blocks with 32 per unit against 5.9 with 8 (merge, M = 2): issue 46 is open there.
TEST(BlocksOutOfCore, PeakMemoryUnderALimit_FollowsTheLimitNotTheBlockCount) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's allocator keeps freed memory resident";
#endif
  if ((nunits() & (nunits() - 1)) != 0)
    GTEST_SKIP() << "at " << nunits()
                 << " units the peak still grows with the block count (issue 46)";
  const std::size_t block = std::size_t(2) << 20;
  for (const bool swap : {false, true})
    for (const std::size_t limit : {std::size_t(1), std::size_t(2)}) {
      double peaks[3] = {0, 0, 0};  // blocks above the start: first run, 8 and 32 per unit
      for (const int run : {0, 1, 2}) {
        const int per_unit = run < 2 ? 8 : 32;
        SCOPED_TRACE(std::string(swap ? "swap" : "merge") + ", limit " + std::to_string(limit) +
                     ", " + std::to_string(per_unit) + " blocks per unit");
        const int nb = per_unit * nunits();
        std::uint64_t total = 0;  // merge: block 0's bytes; swap: each block's slice
        const long before = dash_test::AnonymousResidentBytes();
        const long peak =
            dash_test::PeakAnonymousResidentBytes([&] {
              Master<Bytes2> master(nb, Assignment::contiguous);
              master.limit(limit);
              for (int gid : dash::bp::local_gids(myid(), nb, nunits(), Assignment::contiguous)) {
                auto b = std::make_unique<Bytes2>();
                b->gid = gid;
                b->bytes.resize(block);
                for (std::size_t i = 0; i < block; ++i) b->bytes[i] = std::uint8_t(gid + i * 7);
                master.add(gid, std::move(b), {});
              }
              dash::bp::RegularDecomposer<1> dec({{0}, {nb}}, nb);
              // Swap: the slice [lo, hi) of its bytes that each block reduces, by gid.
              std::vector<std::pair<std::size_t, std::size_t>> slice(std::size_t(nb), {0, block});
              auto add = [](std::uint8_t* to, const std::uint8_t* from, std::size_t n) {
                for (std::size_t i = 0; i < n; ++i) to[i] = std::uint8_t(to[i] + from[i]);
              };
              if (!swap) {
                dash::bp::reduce(master, dash::bp::RegularMergePartners<1>(dec, 2),
                                 [&](Bytes2& b, ReduceProxy& rp) {
                                   for (int from : rp.in_link()) {
                                     if (from == rp.gid()) continue;
                                     const auto v = rp.dequeue_view<std::uint8_t>(from);
                                     add(b.bytes.data(), v.data(), v.size());
                                   }
                                   for (int to : rp.out_link())
                                     if (to != rp.gid())
                                       rp.enqueue_view(to, b.bytes.data(), b.bytes.size());
                                 });
              } else {
                dash::bp::reduce(
                    master, dash::bp::RegularSwapPartners<1>(dec, 2),
                    [&](Bytes2& b, ReduceProxy& rp) {
                      auto& [lo, hi] = slice[std::size_t(b.gid)];
                      const auto& in = rp.in_link();
                      if (!in.empty()) {
                        const std::size_t pos =
                            std::size_t(std::find(in.begin(), in.end(), rp.gid()) - in.begin());
                        const std::size_t n = hi - lo;
                        std::tie(lo, hi) =
                            std::pair(lo + n * pos / in.size(), lo + n * (pos + 1) / in.size());
                        for (int from : in) {
                          if (from == rp.gid()) continue;
                          const auto v = rp.dequeue_view<std::uint8_t>(from);
                          EXPECT_EQ(v.size(), hi - lo);
                          add(b.bytes.data() + lo, v.data(), std::min(v.size(), hi - lo));
                        }
                      }
                      const auto& out = rp.out_link();
                      const std::size_t n = hi - lo;
                      for (std::size_t j = 0; j < out.size(); ++j) {
                        if (out[j] == rp.gid()) continue;
                        const std::size_t a = lo + n * j / out.size(),
                                          e = lo + n * (j + 1) / out.size();
                        rp.enqueue_view(out[j], b.bytes.data() + a, e - a);
                      }
                    });
              }
              master.foreach ([&](Bytes2& b, Proxy&) {
                if (swap) {
                  for (std::size_t i = slice[std::size_t(b.gid)].first;
                       i < slice[std::size_t(b.gid)].second; ++i)
                    total += b.bytes[i];
                } else if (b.gid == 0) {
                  for (std::uint8_t x : b.bytes) total += x;
                }
              });
            }) -
            before;
        // Every byte reduced: the sums of the columns modulo 256, over the whole block.
        std::uint64_t expected = 0;
        for (std::size_t i = 0; i < block; ++i) {
          std::uint64_t column = 0;
          for (int gid = 0; gid < nb; ++gid) column += std::uint8_t(gid + i * 7);
          expected += column % 256;
        }
        std::uint64_t all = 0;
        MPI_Allreduce(&total, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        EXPECT_EQ(all, expected);
        const double blocks = double(peak) / double(block);
        peaks[run] = blocks;
        if (run > 0) {
          EXPECT_LE(blocks, double(limit + 2 + 4))
              << "peak " << blocks << " blocks above the start";
        }
        std::printf(
            "[ peak     ] unit %d: %s, limit %zu, %d blocks per unit: %.1f blocks above "
            "the start\n",
            myid(), swap ? "swap" : "merge", limit, per_unit, blocks);
        if (run == 0) std::printf("[ peak     ] unit %d: (the first run)\n", myid());
        dash::barrier();
      }
      EXPECT_LE(peaks[2], peaks[1] + 3.0) << (swap ? "swap" : "merge") << ", limit " << limit
                                          << ": the peak grows with the block count: " << peaks[1]
                                          << " blocks at 8 per unit, " << peaks[2] << " at 32";
    }
}
#endif

// A reduction's calls start with the blocks the pass before left in
// memory: with 6 blocks a unit and a limit of 2, the foreach before and
// each of the reduction's two calls load 4 blocks, not 6.
TEST(BlocksOoc, ReduceCallsRunBlocksInMemoryFirst) {
  const int nb = 6 * nunits();
  auto master = MakeRing(nb, 2, Assignment::contiguous);
  struct TwoCalls {  // every block in both calls, no messages
    int nb;
    int rounds() const { return 1; }
    int nblocks() const { return nb; }
    bool active(int, int) const { return true; }
    void incoming(int, int, std::vector<int>& in) const { in.clear(); }
    void outgoing(int, int, std::vector<int>& out) const { out.clear(); }
  };
  master->foreach ([](Heavy& b, Proxy&) { ++b.calls; });
  const auto before = master->spill_counters();
  dash::bp::reduce(*master, TwoCalls{nb}, [](Heavy& b, ReduceProxy&) { ++b.calls; });
  const auto after = master->spill_counters();
  EXPECT_LE(after.bytes_read - before.bytes_read, 8 * (kWords * sizeof(std::uint64_t) + 64))
      << "blocks in memory were evicted and loaded again";
  for (std::size_t i = 0; i < master->size(); ++i) EXPECT_EQ(master->block(i).calls, 3);
}

}  // namespace
