// dash::bp::Master with bulk-synchronous exchange: halo-style messages
// between face neighbours of 2-D and 3-D block grids (1 block, one per unit,
// several per unit, more blocks than fit evenly), with both assignments;
// many small items to random blocks, each arriving exactly once and in
// order per (source, target); mixed value types in one queue; an enqueue to
// a gid outside the decomposition throws on every unit (the failing unit
// InvalidArgument, the others RemoteFailure; no hang); queues
// below and above the size sent as messages of their own, over rounds; a
// unit sends only to the units its queues go to (last_exchange), and the
// program's own messages on the team, with the master's tags, stay apart.
#include <dart/dart.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "mpi_test.h"
#include "scoped_env.h"

namespace {

using dash::bp::Assignment;
using dash::bp::Master;
using dash::bp::Proxy;
using dash::bp::RegularDecomposer;
using dash_test::myid;
using dash_test::nunits;

struct Cell {
  int gid;
  std::map<int, std::vector<long>> halo;  // from neighbour gid
};

}  // namespace

// Cells can be evicted under a memory-block limit (DASH_OOC_MEM_BLOCKS).
template <>
struct dash::bp::Serialization<Cell> {
  static void save(MemoryBuffer& buf, const Cell& c) {
    dash::bp::save(buf, c.gid);
    dash::bp::save(buf, c.halo);
  }
  static void load(MemoryBuffer& buf, Cell& c) {
    dash::bp::load(buf, c.gid);
    dash::bp::load(buf, c.halo);
  }
};

namespace {

// What block `from` sends block `to`: a vector whose length and contents
// depend on both.
std::vector<long> HaloFor(int from, int to) {
  std::vector<long> v(std::size_t(3 + (from + 2 * to) % 5));
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = from * 100000L + to * 100L + long(k);
  return v;
}

template <dash::dim_t N>
void NeighbourExchange(const RegularDecomposer<N>& dec, Assignment a, bool corners) {
  Master<Cell> master(dec.nblocks(), a);
  for (int gid : dash::bp::local_gids(myid(), dec.nblocks(), nunits(), a)) {
    auto cell = std::make_unique<Cell>();
    cell->gid = gid;
    master.add(gid, std::move(cell), dec.neighbors(gid, corners));
  }
  for (int round = 0; round < 2; ++round) {
    master.foreach ([&](Cell& c, Proxy& p) {
      for (int n : p.link()) {
        p.enqueue(n, HaloFor(c.gid, n));
        p.enqueue(n, std::string("round ") + std::to_string(round));
      }
    });
    master.exchange();
    master.foreach ([&](Cell& c, Proxy& p) {
      EXPECT_EQ(p.incoming_from(), p.link()) << "block " << c.gid;
      for (int n : p.link()) {
        std::vector<long> h;
        std::string tag;
        p.dequeue(n, h);
        p.dequeue(n, tag);
        EXPECT_EQ(h, HaloFor(n, c.gid)) << "block " << c.gid << " from " << n;
        EXPECT_EQ(tag, "round " + std::to_string(round));
        EXPECT_EQ(p.incoming(n), 0u);
      }
    });
  }
}

// A block that sends to a few blocks keeps no table by gid (its queue memory is its queues'; a
// table per block of a decomposition's every block was local blocks x blocks pointers), one
// that sends to many gets it; every queue holds what was enqueued to it, in order, whether
// found by the last-used cache, the map or the table (queues made before the table is).
TEST(BlocksExchange, ProxyTableByGidOnlyForBlocksWithManyQueues) {
  const std::vector<int> link;
  constexpr int kBlocks = 4096;
  const std::size_t table_bytes = kBlocks * sizeof(void*);
  auto received = [](Proxy& p) {
    std::map<int, std::vector<int>> got;
    p.for_each_outgoing([&](int to, auto& queue) {
      dash::bp::MemoryBuffer copy;
      copy.write(queue.bytes.data(), queue.bytes.size());
      while (copy.remaining() > 0) {
        int v = 0;
        dash::bp::load(copy, v);
        got[to].push_back(v);
      }
    });
    return got;
  };
  Proxy few(0, &link, kBlocks);
  std::map<int, std::vector<int>> sent_few;
  for (int i = 0; i < 100; ++i) {
    const int to = i % 2 == 0 ? 7 : kBlocks - 1;  // two neighbours, alternating
    few.enqueue(to, i);
    sent_few[to].push_back(i);
  }
  EXPECT_LT(few.queue_memory(), table_bytes);
  EXPECT_EQ(received(few), sent_few);
  Proxy many(0, &link, kBlocks);
  std::map<int, std::vector<int>> sent_many;
  for (int i = 0; i < 2000; ++i) {
    const int to = (i * 37) % 40 * 100;  // 40 blocks, revisited in a scattered order
    many.enqueue(to, i);
    sent_many[to].push_back(i);
  }
  EXPECT_GE(many.queue_memory(), table_bytes);
  EXPECT_EQ(received(many), sent_many);
}

TEST(BlocksExchange, NeighbourHalos2D3D) {
  for (Assignment a : {Assignment::contiguous, Assignment::round_robin}) {
    for (int nb : {1, nunits(), 2 * nunits() + 1, 9}) {
      SCOPED_TRACE("blocks " + std::to_string(nb));
      NeighbourExchange(RegularDecomposer<2>({{0, 0}, {24, 24}}, nb), a, false);
      NeighbourExchange(RegularDecomposer<2>({{0, 0}, {24, 24}}, nb, {true, true}), a, true);
      NeighbourExchange(RegularDecomposer<3>({{0, 0, 0}, {12, 12, 12}}, nb, {false, true, false}),
                        a, false);
    }
  }
}

struct Item {
  int from, to, seq;
  float payload[2];
};
static_assert(sizeof(Item) == 20, "20-byte items, as in the small-item benchmark");

TEST(BlocksExchange, ManySmallItemsArriveOnceInOrder) {
  // One million 20-byte items in all, whatever the unit count.
  const int nb = 3 * nunits() + 2;
  const int per_block = (1000000 + nb - 1) / nb;
  struct Counter {
    int gid;
    long received = 0;
  };
  Master<Counter> master(nb, Assignment::round_robin);
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), Assignment::round_robin)) {
    auto c = std::make_unique<Counter>();
    c->gid = gid;
    master.add(gid, std::move(c), {});
  }
  master.foreach ([&](Counter& c, Proxy& p) {
    std::mt19937 rng(unsigned(c.gid));
    std::vector<int> seq(std::size_t(nb), 0);
    for (int k = 0; k < per_block; ++k) {
      int to = int(rng() % unsigned(nb));
      Item it{c.gid, to, seq[std::size_t(to)]++, {float(k), -1.f}};
      p.enqueue(to, it);
    }
  });
  master.exchange();
  long mine = 0;
  master.foreach ([&](Counter& c, Proxy& p) {
    for (int from : p.incoming_from()) {
      int expect_seq = 0;
      while (p.incoming(from) > 0) {
        Item it{};
        p.dequeue(from, it);
        ASSERT_EQ(it.from, from);
        ASSERT_EQ(it.to, c.gid);
        ASSERT_EQ(it.seq, expect_seq++);
        ++c.received;
      }
    }
    mine += c.received;
  });
  long total = 0;
  EXPECT_EQ(DART_OK, dart_allreduce(&mine, &total, 1, DART_TYPE_LONG, DART_OP_SUM, DART_TEAM_ALL));
  EXPECT_EQ(total, long(nb) * per_block);
  EXPECT_GE(total, 1000000L);
}

// dequeue_view reads a vector in place, after exchange and inside
// iexchange, small and large (a message of its own), aligned and not (after
// a one-byte value), and an empty one; then the queue is empty.
TEST(BlocksExchange, DequeueView_ReadsVectorsInPlace) {
  const int nb = 2 * nunits() + 1;
  struct Box {
    int gid;
    bool sent = false;
  };
  auto values = [](int from, std::size_t n) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = from * 1e6 + double(i);
    return v;
  };
  const std::size_t sizes[3] = {5, 10000, 0};  // 10000 doubles: 80 KB, a message of its own
  for (bool async : {false, true}) {
    SCOPED_TRACE(async ? "iexchange" : "exchange");
    Master<Box> master(nb, Assignment::contiguous);
    for (int gid : dash::bp::local_gids(myid(), nb, nunits(), Assignment::contiguous))
      master.add(gid, std::make_unique<Box>(Box{gid, false}), {});
    auto send = [&](Box& b, Proxy& p) {
      const int to = (b.gid + 1) % nb;
      for (std::size_t n : sizes) p.enqueue(to, values(b.gid, n));
      p.enqueue(to, char(7));  // the next vector starts misaligned
      p.enqueue(to, values(b.gid, 3));
    };
    std::atomic<int> checked{0};
    auto check = [&](Box& b, Proxy& p) {
      const int from = (b.gid + nb - 1) % nb;
      if (p.incoming(from) == 0) return;
      for (std::size_t n : sizes) {
        const dash::bp::QueueView<double> v = p.dequeue_view<double>(from);
        ASSERT_EQ(v.size(), n);
        const std::vector<double> want = values(from, n);
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(v[i], want[i]) << i;
      }
      char c = 0;
      p.dequeue(from, c);
      EXPECT_EQ(c, 7);
      const dash::bp::QueueView<double> last = p.dequeue_view<double>(from);
      EXPECT_EQ(std::vector<double>(last.begin(), last.end()), values(from, 3));
      EXPECT_EQ(p.incoming(from), 0u);
      EXPECT_THROW(p.dequeue_view<double>(from), dash::exception::InvalidArgument);
      ++checked;
    };
    if (!async) {
      master.foreach (send);
      master.exchange();
      master.foreach (check);
    } else {
      master.iexchange([&](Box& b, Proxy& p) {
        if (!b.sent) send(b, p);
        b.sent = true;
        check(b, p);  // once the queue has come (called again when it does)
        return true;
      });
    }
    EXPECT_EQ(checked.load(), int(master.size()));
  }
}

// Queues below and above the size that exchange() sends as messages of their
// own (32 KiB), mixed between the same units and changing from round to
// round: every byte arrives, in order, in the round it was sent.
TEST(BlocksExchange, SmallAndLargeQueuesMixOverRounds) {
  const int nb = 2 * nunits() + 1;
  Master<int> master(nb, Assignment::round_robin);
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), Assignment::round_robin))
    master.add(gid, std::make_unique<int>(gid), {});
  // Bytes from block s to block t in round r: 0, a few, just under, at and
  // well above 32 KiB.
  auto count = [](int s, int t, int r) -> std::size_t {
    static const std::size_t sizes[] = {0, 7, 32767, 32768, 100003, 4096};
    return sizes[std::size_t(s * 7 + t * 3 + r) % 6];
  };
  auto byte = [](int s, int t, int r, std::size_t i) {
    return static_cast<unsigned char>(
        (std::size_t(s) * 131 + std::size_t(t) * 31 + i + std::size_t(r)) % 251);
  };
  for (int r = 0; r < 4; ++r) {
    master.foreach ([&](int& gid, Proxy& p) {
      for (int t = 0; t < nb; ++t) {
        const std::size_t n = count(gid, t, r);
        if (n == 0) continue;
        std::vector<unsigned char> v(n);
        for (std::size_t i = 0; i < n; ++i) v[i] = byte(gid, t, r, i);
        p.enqueue(t, v);
      }
    });
    master.exchange();
    master.foreach ([&](int& gid, Proxy& p) {
      for (int s = 0; s < nb; ++s) {
        const std::size_t n = count(s, gid, r);
        if (n == 0) {
          EXPECT_EQ(p.incoming(s), 0u) << "round " << r << " from " << s;
          continue;
        }
        std::vector<unsigned char> v;
        p.dequeue(s, v);
        ASSERT_EQ(v.size(), n) << "round " << r << " from " << s << " to " << gid;
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(v[i], byte(s, gid, r, i)) << "round " << r << " byte " << i;
        EXPECT_EQ(p.incoming(s), 0u);
      }
    });
  }
}

TEST(BlocksExchange, BadTargetsThrowOnEveryUnit) {
  const int nb = 2 * nunits();
  Master<int> master(nb);
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), Assignment::contiguous))
    master.add(gid, std::make_unique<int>(gid), {});
  const int failing = nunits() - 1;
  if (myid() == failing) master.proxy(0).enqueue(nb + 5, 1);
  try {
    master.exchange();
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::RemoteFailure& e) {
    EXPECT_NE(myid(), failing);
    EXPECT_EQ(e.unit(), failing);
    EXPECT_NE(e.message().find("enqueued to gid " + std::to_string(nb + 5)), std::string::npos)
        << e.what();
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_EQ(myid(), failing) << e.what();
  }
  // Adding a block another unit owns, or twice.
  int other = dash::bp::owner(nb - 1, nb, nunits(), Assignment::contiguous);
  if (other != myid()) {
    EXPECT_THROW(master.add(nb - 1, std::make_unique<int>(0), {}),
                 dash::exception::InvalidArgument);
  }
  EXPECT_THROW(master.add(master.gid(0), std::make_unique<int>(0), {}),
               dash::exception::InvalidArgument);
  Proxy& p = master.proxy(0);
  int v = 0;
  EXPECT_THROW(p.dequeue(12345, v), dash::exception::InvalidArgument);
}

TEST(BlocksExchange, SendsOnlyToTheUnitsItsQueuesGoTo) {
  // One block per unit, each sends to the next block only (a ring): one message per unit
  // whatever the unit count; a 40 KiB view to the same block adds one message of its own.
  const int nb = nunits();
  Master<int> master(nb);
  master.add(myid(), std::make_unique<int>(myid()), {(myid() + 1) % nb});
  std::vector<double> big(5120, double(myid()));  // 40 KiB: sent on its own
  for (int round = 0; round < 3; ++round) {
    master.foreach ([&](int& gid, Proxy& p) {
      if (round == 2) return;  // nothing to send
      p.enqueue(p.link()[0], gid * 10 + round);
      if (round == 1) p.enqueue_view(p.link()[0], big.data(), big.size());
    });
    master.exchange();
    const std::size_t expected = nb == 1 || round == 2 ? 0 : round == 0 ? 1 : 2;
    EXPECT_EQ(master.last_exchange().messages, expected) << "round " << round;
    if (expected > 0) {
      EXPECT_GT(master.last_exchange().bytes, round == 1 ? big.size() * sizeof(double) : 0u);
    } else {
      EXPECT_EQ(master.last_exchange().bytes, 0u);
    }
    master.foreach ([&](int& gid, Proxy& p) {
      const int from = (gid + nb - 1) % nb;
      if (round == 2) {
        EXPECT_EQ(p.incoming(from), 0u);
        return;
      }
      int v = -1;
      p.dequeue(from, v);
      EXPECT_EQ(v, from * 10 + round);
      if (round == 1) {
        std::vector<double> got;
        p.dequeue(from, got);
        ASSERT_EQ(got.size(), big.size());
        EXPECT_EQ(got.front(), double(from));
        EXPECT_EQ(got.back(), double(from));
      }
    });
  }
}

TEST(BlocksExchange, ProgramMessagesWithTheMastersTagsStayApart) {
  // The program sends its own messages on the master's team with every tag the block layer
  // uses, before the exchange, and receives them after it: neither side takes the other's.
  if (nunits() < 2) GTEST_SKIP() << "needs two units";
  const int nb = 2 * nunits();
  Master<int> master(nb, Assignment::round_robin);
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), Assignment::round_robin))
    master.add(gid, std::make_unique<int>(gid), {});
  const int next = (myid() + 1) % nunits(), prev = (myid() + nunits() - 1) % nunits();
  const std::vector<int> tags = {30001, 30002, 30003, 30004, 30005};
  std::vector<std::vector<char>> mine(tags.size());
  std::vector<dart_handle_t> handles(tags.size(), DART_HANDLE_NULL);
  for (std::size_t k = 0; k < tags.size(); ++k) {
    mine[k].assign(48 << 10, char('a' + k + myid()));  // as large as a queue sent on its own
    ASSERT_EQ(dart_isend(mine[k].data(), mine[k].size(), tags[k], DART_TEAM_UNIT_ID(next),
                         DART_TEAM_ALL, &handles[k]),
              DART_OK);
  }
  std::vector<unsigned char> payload(40 << 10);
  master.foreach ([&](int& gid, Proxy& p) {
    for (int t = 0; t < nb; ++t) {
      std::fill(payload.begin(), payload.end(), static_cast<unsigned char>(gid * 7 + t));
      p.enqueue(t, payload);
      p.enqueue(t, gid);
    }
  });
  master.exchange();
  master.foreach ([&](int& gid, Proxy& p) {
    for (int s = 0; s < nb; ++s) {
      std::vector<unsigned char> v;
      int from = -1;
      p.dequeue(s, v);
      p.dequeue(s, from);
      EXPECT_EQ(from, s);
      ASSERT_EQ(v.size(), payload.size());
      EXPECT_EQ(v.front(), static_cast<unsigned char>(s * 7 + gid));
      EXPECT_EQ(v.back(), static_cast<unsigned char>(s * 7 + gid));
    }
  });
  for (std::size_t k = 0; k < tags.size(); ++k) {
    std::vector<char> got(48 << 10);
    ASSERT_EQ(dart_recv(got.data(), got.size(), DART_TYPE_BYTE, tags[k], dart_global_unit_t{prev}),
              DART_OK);
    EXPECT_EQ(got.front(), char('a' + k + prev));
    EXPECT_EQ(got.back(), char('a' + k + prev));
  }
  EXPECT_EQ(dart_waitall(handles.data(), handles.size()), DART_OK);
}

TEST(BlocksExchange, MalformedSparseUnitsFlagThrows) {
  for (const char* bad : {"-1", "eight", "1073741825", " 8"}) {
    dash_test::ScopedEnv flag("DASH_BP_EXCHANGE_SPARSE_UNITS", bad);
    try {
      Master<int> master(1);
      ADD_FAILURE() << "no exception for '" << bad << "'";
    } catch (const dash::exception::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("DASH_BP_EXCHANGE_SPARSE_UNITS"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace

// A queue to a block that its owner never added fails on the owner while it takes the queue in
// (a remote sender) or packs it (its own block), and on every unit: the owner throws
// InvalidArgument, the others RemoteFailure naming it, with queues sent on their own (40 KiB
// views) in flight to it and from it; nobody waits for ever, and the next exchange works. A
// failure while taking queues in on the dense path is held like one of foreach and thrown by
// the next collective call (report_failures here).
TEST(BlocksExchange, QueueToABlockNeverAddedFailsOnEveryUnit) {
  const int nb = 2 * nunits();
  const int owner = nunits() - 1, missing = nb - 1;
  std::vector<double> big(5120, 1.5);  // 40 KiB: sent on its own
  for (const bool from_owner : {false, true}) {
    SCOPED_TRACE(from_owner ? "sent by the owner itself" : "sent by unit 0");
    Master<int> master(nb);
    for (int gid : dash::bp::local_gids(myid(), nb, nunits(), Assignment::contiguous))
      if (gid != missing) master.add(gid, std::make_unique<int>(gid), {});
    const int sender = from_owner ? owner : 0;
    master.foreach ([&](int& gid, Proxy& p) {
      for (int to = 0; to < nb - 1; ++to) {  // every block that exists: also sent on their own
        p.enqueue(to, gid);
        p.enqueue_view(to, big.data(), big.size());
      }
      if (myid() == sender && gid == master.gid(0)) {
        p.enqueue(missing, gid);
        p.enqueue_view(missing, big.data(), big.size());
      }
    });
    try {
      master.exchange();
      master.report_failures();
      ADD_FAILURE() << "no exception on unit " << myid();
    } catch (const dash::exception::RemoteFailure& e) {
      EXPECT_NE(myid(), owner);
      EXPECT_EQ(e.unit(), owner);
      EXPECT_NE(e.message().find("block " + std::to_string(missing) + " is not on unit"),
                std::string::npos)
          << e.what();
    } catch (const dash::exception::InvalidArgument& e) {
      EXPECT_EQ(myid(), owner) << e.what();
    }
    // Nothing of the failed round is left on the failing unit; the next round delivers.
    master.foreach ([&](int& gid, Proxy& p) {
      if (myid() == owner) {
        EXPECT_TRUE(p.incoming_from().empty()) << "block " << gid;
      }
      p.enqueue((gid + 1) % (nb - 1), gid);
    });
    master.exchange();
    master.foreach ([&](int& gid, Proxy& p) {
      const int from = (gid + nb - 2) % (nb - 1);
      ASSERT_EQ(p.incoming_from(), std::vector<int>{from}) << "block " << gid;
      int v = -1;
      p.dequeue(from, v);
      EXPECT_EQ(v, from);
    });
  }
}
