// dash::bp::Master::iexchange and threaded foreach.
//
// The iexchange workload is a random tree of work items: every item a block
// processes may spawn children for random blocks, so blocks go idle and get
// work again (non-monotonic), and the total is known in advance (the tree is
// a function of the random seed). Every unit checks that all items were processed
// exactly once (count and two independent hash sums over item ids, summed
// over all units), for 1, 3, 8 and 16 blocks per unit, 1 and 2 threads, several
// seeds, both assignments. Blocks process at most a few items per call and
// return "not done" while their backlog lasts, and some items take a while,
// so timing varies. The same binary runs again with delays injected into
// the send path (DASH_BP_TEST_SEND_DELAY_US, variant send_delay).
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::bp::Assignment;
using dash::bp::Master;
using dash::bp::Proxy;
using dash_test::myid;
using dash_test::nunits;

std::uint64_t Mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Item {
  std::uint64_t id;
  std::uint32_t depth;
};

// The workload of one seed: roots per block, children per item, targets.
struct Tree {
  std::uint64_t seed;
  int nblocks;
  int roots_per_block = 6;
  std::uint32_t max_depth = 9;

  // Root r of block b; roots are multiples of 3, children never are.
  Item root(int b, int r) const {
    return {3 * (std::uint64_t(b) * 1000 + std::uint64_t(r) + 1) * (seed + 1), 0};
  }
  int children(const Item& it) const {
    if (it.depth >= max_depth) return 0;
    const std::uint64_t h = Mix(it.id ^ (seed << 48)) % 5;
    return h == 0 ? 0 : (h <= 2 ? 1 : 2);
  }
  Item child(const Item& it, int c) const {
    return {3 * it.id + 1 + std::uint64_t(c), it.depth + 1};
  }
  int target(const Item& it) const { return int(Mix(it.id + seed) % std::uint64_t(nblocks)); }
  // Some items take a while (about one in 60, 100 us).
  bool slow(const Item& it) const { return Mix(it.id * 7 + seed) % 60 == 0; }
};

struct Sums {
  std::uint64_t count = 0, a = 0, b = 0;
  void add(std::uint64_t id) {
    ++count;
    a += Mix(id);
    b += Mix(id ^ 0x5555555555555555ull) * 3;
  }
};

Sums Expected(const Tree& t) {
  Sums s;
  std::vector<Item> stack;
  for (int b = 0; b < t.nblocks; ++b)
    for (int r = 0; r < t.roots_per_block; ++r) stack.push_back(t.root(b, r));
  while (!stack.empty()) {
    Item it = stack.back();
    stack.pop_back();
    s.add(it.id);
    for (int c = 0; c < t.children(it); ++c) stack.push_back(t.child(it, c));
  }
  return s;
}

struct Worker {
  int gid = -1;
  bool kicked = false;
  std::deque<Item> backlog;
  Sums sums;
};

}  // namespace

// Workers can be evicted under a memory-block limit (DASH_OOC_MEM_BLOCKS).
template <>
struct dash::bp::Serialization<Worker> {
  static void save(MemoryBuffer& buf, const Worker& w) {
    dash::bp::save(buf, w.gid);
    dash::bp::save(buf, w.kicked);
    dash::bp::save(buf, std::vector<Item>(w.backlog.begin(), w.backlog.end()));
    dash::bp::save(buf, w.sums);
  }
  static void load(MemoryBuffer& buf, Worker& w) {
    std::vector<Item> backlog;
    dash::bp::load(buf, w.gid);
    dash::bp::load(buf, w.kicked);
    dash::bp::load(buf, backlog);
    w.backlog.assign(backlog.begin(), backlog.end());
    dash::bp::load(buf, w.sums);
  }
};

namespace {

void RunTree(std::uint64_t seed, int blocks_per_unit, int threads, Assignment a) {
  SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(blocks_per_unit) +
               " blocks per unit, " + std::to_string(threads) + " threads");
  Tree tree{seed, blocks_per_unit * nunits()};
  Master<Worker> master(tree.nblocks, a);
  master.threads(threads);
  for (int gid : dash::bp::local_gids(myid(), tree.nblocks, nunits(), a)) {
    auto w = std::make_unique<Worker>();
    w->gid = gid;
    for (int r = 0; r < tree.roots_per_block; ++r) w->backlog.push_back(tree.root(gid, r));
    master.add(gid, std::move(w), {});
  }
  std::atomic<int> calls{0};
  master.iexchange([&](Worker& w, Proxy& p) {
    ++calls;
    for (int from : p.incoming_from()) {
      while (p.incoming(from) > 0) {
        Item it;
        p.dequeue(from, it);
        w.backlog.push_back(it);
      }
    }
    for (int k = 0; k < 4 && !w.backlog.empty(); ++k) {
      const Item it = w.backlog.front();
      w.backlog.pop_front();
      w.sums.add(it.id);
      if (tree.slow(it)) std::this_thread::sleep_for(std::chrono::microseconds(100));
      for (int c = 0; c < tree.children(it); ++c) {
        const Item child = tree.child(it, c);
        p.enqueue(tree.target(child), child);
      }
    }
    return w.backlog.empty();
  });
  Sums local;
  std::mutex mutex;  // the callbacks run on two threads
  master.foreach ([&](Worker& w, Proxy& p) {
    std::lock_guard<std::mutex> lock(mutex);
    EXPECT_TRUE(w.backlog.empty()) << "block " << w.gid;
    EXPECT_TRUE(p.incoming_from().empty()) << "block " << w.gid;
    local.count += w.sums.count;
    local.a += w.sums.a;
    local.b += w.sums.b;
  });
  Sums total;
  MPI_Allreduce(&local.count, &total.count, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&local.a, &total.a, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&local.b, &total.b, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  const Sums expected = Expected(tree);
  EXPECT_EQ(total.count, expected.count);
  EXPECT_EQ(total.a, expected.a);
  EXPECT_EQ(total.b, expected.b);
  EXPECT_GE(calls.load(), int(master.size()));
}

TEST(BlocksIexchange, RandomTreesEveryItemOnce) {
  for (int threads : {1, 2})
    for (int blocks : {1, 3, 8, 16})
      for (std::uint64_t seed : {1u, 2u, 3u})
        RunTree(seed, blocks, threads, seed % 2 ? Assignment::contiguous : Assignment::round_robin);
}

TEST(BlocksIexchange, NothingToDoTerminates) {
  // No block has work: every call returns done at once, on every unit.
  Master<Worker> master(2 * nunits());
  for (int gid : dash::bp::local_gids(myid(), 2 * nunits(), nunits(), Assignment::contiguous))
    master.add(gid, std::make_unique<Worker>(), {});
  int calls = 0;
  master.iexchange([&](Worker&, Proxy&) {
    ++calls;
    return true;
  });
  EXPECT_EQ(calls, int(master.size()));
}

TEST(BlocksIexchange, WorkAppearsLateOnOneUnit) {
  // Only the last block has work, and only after a pause: all others are
  // done at once and must not terminate before its messages arrive. Each
  // message hops through every block once (a relay), then stops.
  const int nblocks = 2 * nunits();
  Master<Worker> master(nblocks);
  for (int gid : dash::bp::local_gids(myid(), nblocks, nunits(), Assignment::contiguous))
    master.add(gid, std::make_unique<Worker>(), {});
  std::vector<int> relayed(std::size_t(nblocks), 0);
  master.iexchange([&](Worker& w, Proxy& p) {
    const int gid = p.gid();
    if (gid == nblocks - 1 && !w.kicked) {  // first call of the last block
      w.kicked = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      p.enqueue(0, Item{std::uint64_t(nblocks), 0});
      return true;
    }
    for (int from : p.incoming_from()) {
      while (p.incoming(from) > 0) {
        Item it;
        p.dequeue(from, it);
        ++relayed[std::size_t(gid)];
        if (it.depth + 1 < std::uint32_t(nblocks))
          p.enqueue((gid + 1) % nblocks, Item{it.id, it.depth + 1});
      }
    }
    return true;
  });
  std::vector<int> all(relayed.size());
  MPI_Allreduce(relayed.data(), all.data(), nblocks, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int b = 0; b < nblocks; ++b) EXPECT_EQ(all[std::size_t(b)], 1) << "block " << b;
}

// A ring: every block has two neighbours whatever the unit count, and passes
// tokens on to the next one until their hops run out. Every block retires
// exactly the tokens that started `hops` blocks before it, and the routing
// work per block call follows the neighbours: the per-unit buffers iexchange
// looks at stay within the destinations a call sends to (one here), not the
// unit count.
struct Hops {
  int gid = 0;
  int started = 0;
  std::uint64_t retired = 0;
};

TEST(BlocksIexchange, RingOfTwoNeighboursAtAnyUnitCount) {
  constexpr int kTokens = 3;
  for (Assignment a : {Assignment::contiguous, Assignment::round_robin})
    for (int per_unit : {1, 3}) {
      const int nb = per_unit * nunits();
      const int hops = 2 * nb + 1;
      Master<Hops> master(nb, a);
      for (int gid : dash::bp::local_gids(myid(), nb, nunits(), a)) {
        auto h = std::make_unique<Hops>();
        h->gid = gid;
        master.add(gid, std::move(h), {(gid + nb - 1) % nb, (gid + 1) % nb});
      }
      master.iexchange([&](Hops& h, Proxy& p) {
        const int prev = (h.gid + nb - 1) % nb, next = (h.gid + 1) % nb;
        std::vector<int> out;
        if (!h.started) {
          h.started = 1;
          out.assign(kTokens, hops);
        }
        while (p.incoming(prev) > 0) {
          std::vector<int> in;
          p.dequeue(prev, in);
          for (int left : in) {
            if (left == 1)
              ++h.retired;
            else
              out.push_back(left - 1);
          }
        }
        if (!out.empty()) p.enqueue(next, out);
        return true;
      });
      const auto stats = master.last_iexchange();
      std::uint64_t retired = 0;
      master.foreach ([&](Hops& h, Proxy&) {
        EXPECT_EQ(h.retired, std::uint64_t(kTokens)) << "block " << h.gid;
        retired += h.retired;
      });
      std::uint64_t all = 0;
      MPI_Allreduce(&retired, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
      EXPECT_EQ(all, std::uint64_t(kTokens) * std::uint64_t(nb));
      EXPECT_GE(stats.block_calls, master.size());
      EXPECT_LE(stats.buffers_visited, stats.block_calls)
          << nunits() << " units, " << per_unit << " blocks per unit";
      EXPECT_LE(stats.messages, stats.block_calls);
    }
}

TEST(BlocksIexchange, BadTargetThrows) {
  if (nunits() != 1) GTEST_SKIP() << "a throwing unit would leave the others waiting";
  Master<Worker> master(2);
  master.add(0, std::make_unique<Worker>(), {});
  master.add(1, std::make_unique<Worker>(), {});
  EXPECT_THROW(master.iexchange([](Worker&, Proxy& p) {
    p.enqueue(7, 1);
    return true;
  }),
               dash::exception::InvalidArgument);
}

TEST(BlocksForeach, ThreadsRunEveryBlockOnceConcurrently) {
  const int nblocks = 12 * nunits();
  Master<Worker> master(nblocks, Assignment::round_robin);
  for (int gid : dash::bp::local_gids(myid(), nblocks, nunits(), Assignment::round_robin)) {
    auto w = std::make_unique<Worker>();
    w->gid = gid;
    master.add(gid, std::move(w), {(gid + 1) % nblocks});
  }
  master.threads(2);
  EXPECT_EQ(master.threads(), 2);
  std::atomic<int> running{0}, most{0}, calls{0};
  // Under a memory-block limit of 1 (DASH_OOC_MEM_BLOCKS) one block at a time.
  const int expected = master.limit() == 1 ? 1 : 2;
  // A call waits (up to 20 s) until a second call runs beside it, so that the overlap does not
  // depend on how the threads are scheduled on a loaded machine; calls that run one after the
  // other never see a second one and the check below fails.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  master.foreach ([&](Worker& w, Proxy& p) {
    const int now = ++running;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    while (most.load() < expected && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    p.enqueue(p.link()[0], w.gid);
    ++calls;
    --running;
  });
  EXPECT_EQ(calls.load(), int(master.size()));
  EXPECT_EQ(most.load(), expected) << "two threads should have overlapped";
  master.exchange();
  // Skip predicate: only blocks with something incoming run (all of them
  // here), then none (queues read).
  calls = 0;
  master.foreach (
      [&](Worker& w, Proxy& p) {
        int from = -1;
        p.dequeue((w.gid + nblocks - 1) % nblocks, from);
        EXPECT_EQ(from, (w.gid + nblocks - 1) % nblocks);
        ++calls;
      },
      [](const Proxy& p) { return p.incoming_from().empty(); });
  EXPECT_EQ(calls.load(), int(master.size()));
  calls = 0;
  master.foreach ([&](Worker&, Proxy&) { ++calls; },
                  [](const Proxy& p) { return p.incoming_from().empty(); });
  EXPECT_EQ(calls.load(), 0);
  // An exception in a block is held by the master after the pass (blocks
  // not started are skipped) and thrown by the next collective call.
  const int failing = master.gid(master.size() / 2);
  calls = 0;
  master.foreach ([&](Worker& w, Proxy&) {
    ++calls;
    if (w.gid == failing) throw std::runtime_error("block failed");
  });
  EXPECT_GE(calls.load(), 1);
  EXPECT_LE(calls.load(), int(master.size()));
  calls = 0;
  master.foreach ([&](Worker&, Proxy&) { ++calls; });
  EXPECT_EQ(calls.load(), 0) << "a master holding a failure runs no callbacks";
  EXPECT_THROW(master.exchange(), std::runtime_error);
  master.foreach ([&](Worker&, Proxy&) { ++calls; });
  EXPECT_EQ(calls.load(), int(master.size())) << "usable again after the failure was reported";
  EXPECT_THROW(master.threads(0), dash::exception::InvalidArgument);
}

// iexchange calls of different masters on one team, one after the other: a
// unit that finished one call and sends for the next (on another master)
// while another unit still polls for the one before must not hand it those
// messages. Unit 0 lags behind the others in every call.
TEST(BlocksIExchange, ConsecutiveMastersKeepTheirMessages) {
  const int nb = 2 * nunits() + 1;
  for (int call = 0; call < 12; ++call) {
    Master<int> master(nb, Assignment::round_robin);
    for (int gid : dash::bp::local_gids(myid(), nb, nunits(), Assignment::round_robin))
      master.add(gid, std::make_unique<int>(gid), {});
    std::vector<char> sent(master.size(), 0), got(master.size(), 0);
    master.iexchange([&](int& gid, Proxy& p) {
      const std::size_t i = std::size_t(gid / nunits());  // round robin: the local index
      if (!sent[i]) {
        if (myid() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        p.enqueue((gid + 1) % nb, std::vector<int>{call, gid});
        sent[i] = 1;
      }
      const int from = (gid + nb - 1) % nb;
      while (p.incoming(from) > 0) {
        std::vector<int> v;
        p.dequeue(from, v);
        EXPECT_EQ(v, (std::vector<int>{call, from})) << "block " << gid << " in call " << call;
        ++got[i];
      }
      return true;
    });
    for (std::size_t i = 0; i < master.size(); ++i)
      EXPECT_EQ(got[i], 1) << "block " << master.gid(i) << " in call " << call;
  }
}

}  // namespace
