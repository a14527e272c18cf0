// dash::Atomic<T> elements and dash::Shared<T>: a histogram that every unit fills through
// add / fetch_add / ++ at once (every count right, also across emulated nodes and with the
// shared windows off), compare_exchange races with exactly one winner, exchange, op / fetch_op
// with min, max, bit_or and multiply, sub on unsigned and floating types, const references;
// a Shared counter, a Shared value set by one unit and read by all, a bad owner.
#include <dash/Array.h>
#include <dash/Atomic.h>
#include <dash/Init.h>
#include <dash/Shared.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

TEST(Atomic, HistogramFromEveryUnitCountsEveryUpdate) {
  const long n = nunits(), me = myid();
  const long bins = 7, rounds = 50;
  dash::Array<dash::Atomic<long>> hist(bins);
  for (auto& local : hist.local) local = 0;  // the owner initialises its bins
  hist.barrier();
  // Round r: bin (me + r) % bins, through add, fetch_add, ++ and += in turn.
  long fetched_sum = 0;
  for (long r = 0; r < rounds; ++r) {
    auto ref = hist[(me + r) % bins];
    switch (r % 4) {
      case 0:
        ref.add(1);
        break;
      case 1:
        fetched_sum += ref.fetch_add(1);
        break;
      case 2:
        ++ref;
        break;
      default:
        ref += 1;
    }
  }
  hist.barrier();
  std::vector<long> expected(bins, 0);
  for (long u = 0; u < n; ++u)
    for (long r = 0; r < rounds; ++r) ++expected[(u + r) % bins];
  for (long b = 0; b < bins; ++b) {
    EXPECT_EQ(hist[b].load(), expected[b]) << "bin " << b;
    EXPECT_EQ(long(hist[b]), expected[b]);
  }
  EXPECT_GE(fetched_sum, 0);
  const auto& chist = hist;
  EXPECT_EQ(chist[0].get(), expected[0]);
  hist.barrier();
  // Every unit on one bin at once: no update may be lost.
  for (int k = 0; k < 500; ++k) hist[bins - 1].fetch_add(2);
  hist.barrier();
  EXPECT_EQ(hist[bins - 1].load(), expected[bins - 1] + 1000 * n);
  hist.barrier();
}

TEST(Atomic, CompareExchangeHasOneWinnerAndExchangeReturnsThePrevious) {
  const long n = nunits(), me = myid();
  dash::Array<dash::Atomic<int>> a(n);
  if (me == 0) a[0].store(-1);
  a.barrier();
  const bool won = a[0].compare_exchange(-1, int(me));
  dash::Shared<dash::Atomic<long>> wins;
  if (won) wins.get().add(1);
  wins.barrier();
  EXPECT_EQ(wins.get().load(), 1);
  const int owner = a[0].load();
  EXPECT_GE(owner, 0);
  EXPECT_LT(owner, n);
  EXPECT_EQ(won, owner == me);
  a.barrier();
  // exchange: the values each unit saw and left form a chain over all units.
  if (me == 0) a[1 % n].set(100);
  a.barrier();
  dash::Shared<dash::Atomic<long>> seen_sum;
  seen_sum.get().add(a[1 % n].exchange(int(me)));
  seen_sum.barrier();
  const long last = a[1 % n].load();
  // Sum of what was seen = 100 + every unit's id except the one left in the element.
  EXPECT_EQ(seen_sum.get().load(), 100 + n * (n - 1) / 2 - last);
  a.barrier();
}

TEST(Atomic, OperationsAndTypes) {
  const long n = nunits(), me = myid();
  dash::Array<dash::Atomic<long>> l(4);
  dash::Array<dash::Atomic<std::uint32_t>> u(1);
  dash::Array<dash::Atomic<double>> d(1);
  if (me == 0) {
    l[0] = 0;
    l[1] = 1000;
    l[2] = 0;
    l[3] = 1;
    u[0] = 5u * std::uint32_t(n);
    d[0] = 0.0;
  }
  l.barrier();
  l[0].op(dash::max<long>(), 10 * me);
  l[1].op(dash::min<long>(), 10 * me + 3);
  l[2].fetch_op(dash::bit_or<long>(), 1L << me);
  if (me < 3) l[3].op(dash::multiply<long>(), 2);
  u[0].sub(5u);
  d[0].add(0.5);
  d[0].sub(0.25);
  l.barrier();
  EXPECT_EQ(l[0].load(), 10 * (n - 1));
  EXPECT_EQ(l[1].load(), 3);
  EXPECT_EQ(l[2].load(), (1L << n) - 1);
  EXPECT_EQ(l[3].load(), 1L << std::min(n, 3L));
  EXPECT_EQ(u[0].load(), 0u);
  EXPECT_DOUBLE_EQ(d[0].load(), 0.25 * double(n));
  l.barrier();
  if (me == 0) {
    EXPECT_EQ(--l[2], (1L << n) - 2);  // prefix: the new value
    EXPECT_EQ(l[2]++, (1L << n) - 2);  // postfix: the previous one
    EXPECT_EQ(l[2] -= 3, (1L << n) - 4);
  }
  l.barrier();
}

TEST(Shared, ValueSetByOneUnitIsSeenByAll) {
  const long n = nunits();
  dash::Shared<double> total(dash::team_unit_t(dart_unit_t(n - 1)));
  EXPECT_EQ(double(total.get()), 0.0);
  total.barrier();
  if (myid() == n - 1) total.set(2.5);
  total.flush();
  total.barrier();
  EXPECT_EQ(double(total.get()), 2.5);
  EXPECT_EQ(total.owner().id, n - 1);
  dash::Shared<int> preset(42);
  EXPECT_EQ(int(preset.get()), 42);
  dash::Shared<dash::Atomic<long>> counter;
  for (int i = 0; i < 10; ++i) counter.get().add(1);
  counter.barrier();
  EXPECT_EQ(counter.get().load(), 10 * n);
  EXPECT_THROW(dash::Shared<int>(dash::team_unit_t(dart_unit_t(n))),
               dash::exception::InvalidArgument);
  dash::barrier();
}

}  // namespace
