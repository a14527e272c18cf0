// dash::Atomic<T> elements and dash::Shared<T>: a histogram that every unit fills through
// add / fetch_add / ++ at once (every count right, also across emulated nodes and with the
// shared windows off), compare_exchange races with exactly one winner, exchange, op / fetch_op
// with min, max, bit_or and multiply, sub on unsigned and floating types, const references;
// a Shared counter, a Shared value set by one unit and read by all, a bad owner, an owner
// whose allocation pool is full (OutOfMemory everywhere) and freed values reused; DASH's
// asynchronous atomic references (array.async[i]: updates complete at the flush, fetched values
// in place), its dash::atomic:: free functions, multiply, the read-only GlobRef<Atomic<const T>>
// and the is_atomic / remove_atomic traits.
#include <dash/Array.h>
#include <dash/Atomic.h>
#include <dash/Init.h>
#include <dash/Shared.h>
#include <dash/algorithm/Fill.h>
#include <dash/memory/GlobMemAlloc.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <stdexcept>
#include <type_traits>
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

TEST(Atomic, AsyncReferencesCompleteAtTheFlush) {
  const long n = nunits(), me = myid();
  dash::Array<dash::Atomic<long>> a(n);
  for (auto& local : a.local) local = 0;
  a.barrier();
  // Every unit adds me + 1 to every element without waiting, then flushes once.
  for (long i = 0; i < n; ++i) a.async[i].add(me + 1);
  a.async.flush();
  a.barrier();
  for (long i = 0; i < n; ++i) EXPECT_EQ(a.async[i].get(), n * (n + 1) / 2) << "element " << i;
  a.barrier();
  // fetch_add on one element from every unit: the fetched values are 0 .. n-1 in some order.
  if (me == 0) a.async[0].set(0);
  a.async.flush();
  a.barrier();
  long fetched = -1;
  a.async[0].fetch_add(1, &fetched);
  a.async.flush();
  std::vector<long> all = dash::Team::All().allgather(fetched);
  std::sort(all.begin(), all.end());
  for (long u = 0; u < n; ++u) EXPECT_EQ(all[u], u);
  a.barrier();
  // compare_exchange: exactly one unit wins; exchange and sub, multiply on the own element.
  long seen = -1;
  a.async[0].compare_exchange(n, -5, &seen);
  a.async[0].flush();
  const std::vector<long> winners = dash::Team::All().allgather(long(seen == n));
  EXPECT_EQ(std::accumulate(winners.begin(), winners.end(), 0L), 1);
  a.async[me].exchange(3, &seen);
  a.async[me].multiply(4);
  a.async[me].sub(2);
  a.async[me].flush();
  EXPECT_EQ(a[me].load(), 10);
  a.barrier();
  if (me == 0) {
    EXPECT_EQ(a.async[0].load(), 10);
  }
  // The read-only forms convert from the writable ones.
  const dash::GlobAsyncRef<dash::Atomic<const long>> ro = a.async[me];
  EXPECT_EQ(ro.get(), 10);
  a.barrier();
}

TEST(Atomic, FreeFunctionsMultiplyAndTraits) {
  const long n = nunits(), me = myid();
  static_assert(dash::is_atomic<dash::Atomic<int>>::value && !dash::is_atomic_v<int>);
  static_assert(std::is_same_v<dash::remove_atomic_t<dash::Atomic<short>>, short>);
  static_assert(std::is_same_v<dash::remove_atomic_t<double>, double>);
  dash::Array<dash::Atomic<int>> a(n);
  dash::fill(a.begin(), a.end(), 1);
  a.barrier();
  for (long i = 0; i < n; ++i) dash::atomic::add(a[i], 2);  // an int literal for Atomic<int>
  a.barrier();
  EXPECT_EQ(dash::atomic::load(a[me]), 1 + 2 * n);
  a.barrier();
  if (me == 0) {
    for (long i = 0; i < n; ++i) {
      dash::atomic::store(a[i], 3);
      dash::atomic::multiply(a[i], -2);
      dash::atomic::sub(a[i], 1);
      EXPECT_EQ(dash::atomic::fetch_add(a[i], 10), -7);
      EXPECT_EQ(dash::atomic::fetch_sub(a[i], 1), 3);
      EXPECT_EQ(dash::atomic::exchange(a[i], 5), 2);
      EXPECT_TRUE(dash::atomic::compare_exchange(a[i], 5, 6));
      EXPECT_FALSE(dash::atomic::compare_exchange(a[i], 5, 7));
      dash::atomic::op(a[i], dash::max<int>(), 9);
      EXPECT_EQ(dash::atomic::fetch_op(a[i], dash::plus<int>(), 1), 9);
    }
  }
  a.barrier();
  EXPECT_EQ(a[me].load(), 10);
  a[me].multiply(3);
  EXPECT_EQ(a[me].get(), 30);
  // The read-only reference, from a writable and from a const one; the explicit way back.
  const dash::GlobRef<dash::Atomic<const int>> ro = a[me];
  const auto& ca = a;
  const dash::GlobRef<dash::Atomic<const int>> ro2 = ca[me];
  EXPECT_EQ(ro.get() + ro2.load(), 60);
  const auto rw = static_cast<dash::GlobRef<dash::Atomic<int>>>(ca[me]);
  rw.add(1);
  EXPECT_EQ(ro.load(), 31);
  a.barrier();
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

// The value lives in its owner's allocation pool: with that pool full every unit gets
// OutOfMemory (none waits for the others), and a destroyed value's memory serves the next.
TEST(Shared, OwnersFullPoolThrowsOnEveryUnitAndFreedValuesAreReused) {
  const long n = nunits();
  const dash::team_unit_t owner(dart_unit_t(n - 1));
  std::vector<dash::GlobPtr<char>> held;
  if (myid() == owner.id) {
    for (std::size_t chunk : {std::size_t(1) << 20, std::size_t(64)}) {
      try {
        for (;;) held.push_back(dash::memalloc<char>(chunk));
      } catch (const dash::exception::OutOfMemory&) {
      }
    }
    ASSERT_FALSE(held.empty());
  }
  EXPECT_THROW(dash::Shared<long>(7L, owner), dash::exception::OutOfMemory);
  // One 64-byte block back: enough for one value at a time, so each value made below
  // takes the block the one before it gave back.
  if (myid() == owner.id) {
    dash::memfree(held.back());
    held.pop_back();
  }
  for (long i = 0; i < 200; ++i) {
    dash::Shared<long> value(i, owner);
    EXPECT_EQ(long(value.get()), i);
    value.barrier();  // every unit read it before its owner frees it
  }
  for (auto& p : held) dash::memfree(p);
  dash::barrier();
}

// A value whose copy throws: the owner's copy fails inside the collective init, the owner
// rethrows it and every other unit throws too (none is left waiting for the owner).
struct CopyThrows {
  int x = 0;
  CopyThrows() = default;
  CopyThrows(const CopyThrows&) { throw std::runtime_error("CopyThrows: no copies"); }
  CopyThrows& operator=(const CopyThrows&) = default;
};

TEST(Shared, OwnersFailingCopyThrowsOnEveryUnit) {
  const dash::team_unit_t owner(dart_unit_t(nunits() - 1));
  const CopyThrows value;
  if (myid() == owner.id) {
    EXPECT_THROW(dash::Shared<CopyThrows>(value, owner), std::runtime_error);
  } else {
    EXPECT_THROW(dash::Shared<CopyThrows>(value, owner), dash::exception::OutOfMemory);
  }
  dash::Shared<long> after(5L, owner);  // the team goes on
  EXPECT_EQ(long(after.get()), 5);
  after.barrier();
}

}  // namespace
