// Proxy::enqueue_view on the master's proxies: arrays sent from the caller's
// memory with exchange (small ones packed, large ones as messages of their
// own, to blocks of the same and of other units, to the block itself) and
// iexchange, mixed with enqueue before and after; no copy before the
// exchange, one when more is enqueued to the same block; copied into the
// queue when blocks may leave memory (a memory-block limit set before or
// after the calls); dropped with the queues of a failed exchange; bad sizes.
#include <dash/Init.h>
#include <dash/bp/Master.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::bp::Assignment;
using dash::bp::Master;
using dash::bp::Proxy;
using dash::bp::QueueView;
using dash_test::myid;
using dash_test::nunits;

// A block's arrays: small (packed), big (80 KB: a message of its own from
// 32 KiB), none, and a second big one.
struct Arrays {
  int gid = -1;
  std::vector<double> small, big, none, big2;
  bool sent = false, got_from = false, got_own = false;  // iexchange
};

}  // namespace

// Arrays can be evicted under a memory-block limit.
template <>
struct dash::bp::Serialization<Arrays> {
  static void save(MemoryBuffer& buf, const Arrays& a) {
    dash::bp::save(buf, a.gid);
    dash::bp::save(buf, a.small);
    dash::bp::save(buf, a.big);
    dash::bp::save(buf, a.big2);
    dash::bp::save(buf, std::vector<bool>{a.sent, a.got_from, a.got_own});
  }
  static void load(MemoryBuffer& buf, Arrays& a) {
    dash::bp::load(buf, a.gid);
    dash::bp::load(buf, a.small);
    dash::bp::load(buf, a.big);
    dash::bp::load(buf, a.big2);
    std::vector<bool> flags;
    dash::bp::load(buf, flags);
    a.sent = flags.at(0);
    a.got_from = flags.at(1);
    a.got_own = flags.at(2);
  }
};

namespace {

std::vector<double> Values(int gid, std::size_t n, double salt) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = gid * 1e7 + salt * 1e6 + double(i);
  return v;
}

std::unique_ptr<Arrays> MakeArrays(int gid) {
  auto a = std::make_unique<Arrays>();
  a->gid = gid;
  a->small = Values(gid, 5, 1);
  a->big = Values(gid, 10000, 2);
  a->big2 = Values(gid, 7000, 3);
  return a;
}

std::unique_ptr<Master<Arrays>> MakeMaster(int nb, Assignment a) {
  auto m = std::make_unique<Master<Arrays>>(nb, a);
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), a)) m->add(gid, MakeArrays(gid), {});
  return m;
}

// To the next block: a value, then the four arrays as views (each view
// after another to the same block is copied into the queue then), then a
// last value; to the block itself: the small array alone.
void Send(Arrays& a, Proxy& p, int nb) {
  const int to = (a.gid + 1) % nb;
  p.enqueue(to, 11);
  p.enqueue_view(to, a.small.data(), a.small.size());
  p.enqueue_view(to, a.big.data(), a.big.size());
  p.enqueue_view(to, a.none.data(), a.none.size());
  p.enqueue_view(to, a.big2.data(), a.big2.size());
  if (to != a.gid) p.enqueue_view(a.gid, a.small.data(), a.small.size());
}

// What Send sent block a from the block before it, read with dequeue_view
// and dequeue; `big2_of_from` is what that block's big2 held when sent.
void CheckFrom(const Arrays& a, Proxy& p, int nb, const std::vector<double>& big2_of_from) {
  const int from = (a.gid + nb - 1) % nb;
  int first = 0;
  p.dequeue(from, first);
  EXPECT_EQ(first, 11);
  const QueueView<double> small = p.dequeue_view<double>(from);
  EXPECT_EQ(std::vector<double>(small.begin(), small.end()), Values(from, 5, 1));
  std::vector<double> big;
  p.dequeue(from, big);
  EXPECT_EQ(big, Values(from, 10000, 2));
  EXPECT_EQ(p.dequeue_view<double>(from).size(), 0u);
  const QueueView<double> big2 = p.dequeue_view<double>(from);
  EXPECT_EQ(std::vector<double>(big2.begin(), big2.end()), big2_of_from) << "block " << a.gid;
  EXPECT_EQ(p.incoming(from), 0u);
}

// What Send sent block a from itself (nothing when the block before it is
// itself).
void CheckOwn(const Arrays& a, Proxy& p, int nb) {
  if ((a.gid + nb - 1) % nb == a.gid) return;
  const QueueView<double> own = p.dequeue_view<double>(a.gid);
  EXPECT_EQ(std::vector<double>(own.begin(), own.end()), Values(a.gid, 5, 1));
  EXPECT_EQ(p.incoming(a.gid), 0u);
}

void Check(const Arrays& a, Proxy& p, int nb, const std::vector<double>& big2_of_from) {
  CheckFrom(a, p, nb, big2_of_from);
  CheckOwn(a, p, nb);
}

TEST(BlocksEnqueueView, Exchange_SendsArraysInOrderWithTheRest) {
  for (Assignment assign : {Assignment::contiguous, Assignment::round_robin}) {
    for (int nb : {1, nunits(), 2 * nunits() + 1}) {
      SCOPED_TRACE("blocks " + std::to_string(nb));
      auto m = MakeMaster(nb, assign);
      for (int round = 0; round < 2; ++round) {
        m->foreach ([&](Arrays& a, Proxy& p) { Send(a, p, nb); });
        m->exchange();
        std::atomic<int> checked{0};
        m->foreach ([&](Arrays& a, Proxy& p) {
          Check(a, p, nb, Values((a.gid + nb - 1) % nb, 7000, 3));
          ++checked;
        });
        EXPECT_EQ(checked.load(), int(m->size()));
      }
    }
  }
}

// Without a memory-block limit nothing is copied before the exchange: a
// change to the last view's memory after the call (which the contract
// forbids; here it shows when the bytes are read) reaches the receiver,
// while the earlier views, copied when the next one was enqueued, keep
// the values they had. Under a limit the views are copied when the call
// returns, so the change does not reach it.
TEST(BlocksEnqueueView, Exchange_ReadsTheLastViewAtTheExchange) {
  const int nb = 2 * nunits() + 1;
  auto m = MakeMaster(nb, Assignment::contiguous);
  const bool limited = m->limit() > 0;  // DASH_OOC_MEM_BLOCKS
  m->foreach ([&](Arrays& a, Proxy& p) { Send(a, p, nb); });
  if (!limited)
    m->foreach ([&](Arrays& a, Proxy& p) {
      EXPECT_TRUE(p.has_views());
      a.big2[0] = -1;
      a.small[0] = -1;  // copied already (more views followed to that block)
    });
  m->exchange();
  m->foreach ([&](Arrays& a, Proxy& p) {
    const int from = (a.gid + nb - 1) % nb;
    std::vector<double> want = Values(from, 7000, 3);
    if (!limited) want[0] = -1;
    int first = 0;
    p.dequeue(from, first);
    const QueueView<double> small = p.dequeue_view<double>(from);
    EXPECT_EQ(small[0], Values(from, 5, 1)[0]);
    std::vector<double> skip;
    p.dequeue(from, skip);
    p.dequeue(from, skip);
    const QueueView<double> big2 = p.dequeue_view<double>(from);
    EXPECT_EQ(std::vector<double>(big2.begin(), big2.end()), want) << "block " << a.gid;
  });
}

TEST(BlocksEnqueueView, IExchange_SendsArraysWhenTheCallbackReturns) {
  for (int threads : {1, 2}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    const int nb = 2 * nunits() + 1;
    auto m = MakeMaster(nb, Assignment::round_robin);
    m->threads(threads);
    std::atomic<int> checked{0};
    m->iexchange([&](Arrays& a, Proxy& p) {
      if (!a.sent) Send(a, p, nb);
      a.sent = true;
      const int from = (a.gid + nb - 1) % nb;
      if (!a.got_from && p.incoming(from) > 0) {
        CheckFrom(a, p, nb, Values(from, 7000, 3));
        a.got_from = true;
      }
      if (!a.got_own && p.incoming(a.gid) > 0) {
        CheckOwn(a, p, nb);
        a.got_own = true;
      }
      if (a.got_from && a.got_own) ++checked;
      return true;
    });
    EXPECT_EQ(checked.load(), int(m->size()));
  }
}

// A limit set after the views were enqueued copies them into the queues
// before any block leaves memory; so does write_back, for views enqueued
// through master.proxy(i) outside a call.
TEST(BlocksEnqueueView, LimitAndWriteBackCopyPendingViews) {
  const int nb = 2 * nunits() + 1;
  for (bool write_back : {false, true}) {
    SCOPED_TRACE(write_back ? "write_back" : "limit");
    auto m = MakeMaster(nb, Assignment::contiguous);
    if (write_back) {
      m->limit(m->size() + 1);  // nothing leaves memory yet
      for (std::size_t i = 0; i < m->size(); ++i) Send(m->block(i), m->proxy(i), nb);
      for (std::size_t i = 0; i < m->size(); ++i) EXPECT_TRUE(m->proxy(i).has_views());
      m->write_back();
    } else {
      m->foreach ([&](Arrays& a, Proxy& p) { Send(a, p, nb); });
      m->limit(1);
    }
    for (std::size_t i = 0; i < m->size(); ++i) EXPECT_FALSE(m->proxy(i).has_views());
    m->exchange();
    m->foreach (
        [&](Arrays& a, Proxy& p) { Check(a, p, nb, Values((a.gid + nb - 1) % nb, 7000, 3)); });
  }
}

// A failed exchange drops the views with the queues: the next exchange
// moves nothing of them.
TEST(BlocksEnqueueView, FailedExchangeDropsViews) {
  const int nb = 2 * nunits() + 1;
  auto m = MakeMaster(nb, Assignment::contiguous);
  m->foreach ([&](Arrays& a, Proxy& p) { Send(a, p, nb); });
  if (myid() == nunits() - 1) m->proxy(0).enqueue(nb + 3, 1);
  EXPECT_ANY_THROW(m->exchange());
  for (std::size_t i = 0; i < m->size(); ++i) {
    EXPECT_FALSE(m->proxy(i).has_views());
    EXPECT_FALSE(m->proxy(i).has_outgoing());
  }
  m->exchange();
  m->foreach ([&](Arrays&, Proxy& p) { EXPECT_FALSE(p.has_incoming()); });
}

TEST(BlocksEnqueueView, TooManyElementsThrow) {
  auto m = MakeMaster(nunits(), Assignment::contiguous);
  Proxy& p = m->proxy(0);
  const double x = 0;
  EXPECT_THROW(p.enqueue_view(0, &x, ~std::size_t(0) / 4), dash::exception::InvalidArgument);
  EXPECT_FALSE(p.has_views());
  EXPECT_FALSE(p.has_outgoing());
}

}  // namespace
