// dash::Coarray (DASH's Fortran-style coarrays) and the dash::coarray runtime calls: every image
// reads and writes every other image's scalar or array value and its own natively; arrays with
// fixed, odd and open extents; the images in global iteration order; cobroadcast and coreduce
// from every master; sync_images over subsets; atomic elements; moves and swaps; bad input
// (images outside the team, a coarray without memory, a sync_images list with a stranger)
// throws with a message naming the call.
#include <dash/Atomic.h>
#include <dash/Coarray.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/algorithm/Operation.h>
#include <gtest/gtest.h>

#include <array>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::coarray::num_images;
using dash::coarray::sync_all;
using dash::coarray::this_image;
using dash_test::myid;
using dash_test::nunits;

// The value image u keeps at (i, j) in the array tests.
long value_at(long u, long i, long j = 0) { return 1000 * u + 10 * i + j; }

TEST(Coarray, ThisImageAndNumImagesAreTheUnitsOfTeamAll) {
  EXPECT_EQ(static_cast<long>(this_image()), myid());
  EXPECT_EQ(num_images(), nunits());
}

TEST(Coarray, ScalarImagesReadAndWriteEachOther) {
  const long n = nunits(), me = myid(), next = (me + 1) % n;
  dash::Coarray<long> x;
  EXPECT_EQ(x.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(x.local_size(), 1u);
  x = 100 * me;
  x.sync_all();
  EXPECT_EQ(static_cast<long>(x(next)), 100 * next);
  EXPECT_EQ(static_cast<long>(x(dash::team_unit_t{static_cast<int>(next)})), 100 * next);
  x.sync_all();
  // Every image adds to its right neighbour's value.
  x(next) = static_cast<long>(x(next)) + 1;
  x.sync_all();
  EXPECT_EQ(static_cast<long>(x), 100 * me + 1);
  x.sync_all();
}

TEST(Coarray, ScalarLocalOperatorsActOnTheOwnImage) {
  const long me = myid();
  dash::Coarray<int> i(static_cast<int>(me) + 3);  // every image starts with its own value
  EXPECT_EQ(static_cast<int>(i), me + 3);
  int b = i;
  EXPECT_EQ(i++, b);
  EXPECT_EQ(static_cast<int>(i), b + 1);
  EXPECT_EQ(i--, b + 1);
  EXPECT_EQ(++i, b + 1);
  EXPECT_EQ(--i, b);
  EXPECT_EQ(i += 4, b + 4);
  EXPECT_EQ(i -= 1, b + 3);
  EXPECT_EQ(i *= 2, 2 * (b + 3));
  EXPECT_EQ(i /= 2, b + 3);
  EXPECT_EQ(b + i, 2 * b + 3);
  EXPECT_EQ(i * 2, 2 * (b + 3));
  i.sync_all();
  EXPECT_EQ(static_cast<int>(i(me)), b + 3);
  i.sync_all();
}

TEST(Coarray, FixedArrayOfOddExtentsIsReachedFromEveryImage) {
  const long n = nunits(), me = myid(), next = (me + 1) % n;
  dash::Coarray<long[3][5]> x;
  EXPECT_EQ(x.size(), static_cast<std::size_t>(15 * n));
  EXPECT_EQ(x.local_size(), 15u);
  for (long i = 0; i < 3; ++i)
    for (long j = 0; j < 5; ++j) x[i][j] = value_at(me, i, j);
  x.sync_all();
  for (long u = 0; u < n; ++u)
    for (long i = 0; i < 3; ++i)
      for (long j = 0; j < 5; ++j)
        EXPECT_EQ(static_cast<long>(x(u)[i][j]), value_at(u, i, j))
            << "image " << u << " (" << i << ", " << j << ")";
  EXPECT_EQ(std::distance(x(next).begin(), x(next).end()), 15);
  x.sync_all();
  // Every image negates row 1 of its right neighbour.
  for (long j = 0; j < 5; ++j) x(next)[1][j] = -value_at(next, 1, j);
  x.sync_all();
  for (long i = 0; i < 3; ++i)
    for (long j = 0; j < 5; ++j)
      EXPECT_EQ(x[i][j], i == 1 ? -value_at(me, i, j) : value_at(me, i, j));
  x.sync_all();
}

TEST(Coarray, OpenExtentIsGivenAtRunTime) {
  const long n = nunits(), me = myid();
  dash::Coarray<int[]> y(7);
  ASSERT_EQ(y.local_size(), 7u);
  ASSERT_EQ(y.lend() - y.lbegin(), 7);
  for (long i = 0; i < 7; ++i) y[i] = static_cast<int>(value_at(me, i));
  ++y[6];
  y.sync_all();
  // Global iteration visits image 0's elements, then image 1's, ...
  long g = 0;
  for (auto it = y.begin(); it != y.end(); ++it, ++g) {
    const long u = g / 7, i = g % 7;
    EXPECT_EQ(static_cast<int>(*it), value_at(u, i) + (i == 6)) << "element " << g;
    EXPECT_EQ(y.is_local(g), u == me);
  }
  EXPECT_EQ(g, 7 * n);
  y.sync_all();

  dash::Coarray<double[][3]> z;  // without memory until allocate
  EXPECT_TRUE(z.empty());
  z.allocate(5);
  ASSERT_EQ(z.local_size(), 15u);
  z[4][2] = 0.5 + me;
  z.sync_all();
  for (long u = 0; u < n; ++u) EXPECT_EQ(static_cast<double>(z(u)[4][2]), 0.5 + u);
  z.sync_all();
}

TEST(Coarray, CobroadcastCopiesTheMastersValueFromEveryMaster) {
  const long n = nunits(), me = myid();
  for (long master = 0; master < n; ++master) {
    dash::Coarray<int> i;
    i = static_cast<int>(10 + me);
    dash::Coarray<long[2][3]> x;
    for (long k = 0; k < 6; ++k) x.lbegin()[k] = value_at(me, k);
    x.barrier();
    dash::coarray::cobroadcast(i, dash::team_unit_t{static_cast<int>(master)});
    dash::coarray::cobroadcast(x, dash::team_unit_t{static_cast<int>(master)});
    EXPECT_EQ(static_cast<int>(i), 10 + master);
    for (long k = 0; k < 6; ++k) EXPECT_EQ(x.lbegin()[k], value_at(master, k));
    x.barrier();
  }
}

TEST(Coarray, CoreduceToAllAndToOneMaster) {
  const long n = nunits(), me = myid();
  dash::Coarray<long[][5]> x(3);
  for (long k = 0; k < 15; ++k) x.lbegin()[k] = value_at(me, k);
  x.sync_all();
  dash::coarray::coreduce(x, dash::plus<long>());
  for (long k = 0; k < 15; ++k) {
    long sum = 0;
    for (long u = 0; u < n; ++u) sum += value_at(u, k);
    EXPECT_EQ(x.lbegin()[k], sum) << "element " << k;
  }
  x.sync_all();

  // To one master: only its value changes.
  const long master = n - 1;
  dash::Coarray<double> d;
  d = 1.5 * (me + 1);
  d.sync_all();
  dash::coarray::coreduce(d, dash::max<double>(), dash::team_unit_t{static_cast<int>(master)});
  d.sync_all();
  EXPECT_EQ(static_cast<double>(d), me == master ? 1.5 * n : 1.5 * (me + 1));
  dash::coarray::coreduce(d, dash::min<double>());
  EXPECT_EQ(static_cast<double>(d), 1.5);
  d.sync_all();
}

TEST(Coarray, SyncImagesWaitsForTheListedImagesOnly) {
  const long n = nunits(), me = myid();
  // The listed images write into the first one's array, then sync with each other: the first
  // one sees every write once sync_images returns there.
  std::vector<int> listed;
  for (long u = n - 1; u >= 0; u -= 2) listed.push_back(static_cast<int>(u));  // not sorted
  const long root = listed.back();
  dash::Coarray<int[]> x(n);
  std::fill(x.lbegin(), x.lend(), 0);
  x.sync_all();
  const bool in_list = std::find(listed.begin(), listed.end(), me) != listed.end();
  if (in_list) {
    x(root)[me] = static_cast<int>(me + 1);
    x.sync_images(listed);
    if (me == root)
      for (long u = 0; u < n; ++u) {
        const bool wrote = std::find(listed.begin(), listed.end(), u) != listed.end();
        EXPECT_EQ(x[u], wrote ? u + 1 : 0) << "image " << u;
      }
  } else {
    x.sync_images(listed);  // returns at once
  }
  // A list of every image, and one of the calling image alone.
  std::vector<long> all;
  for (long u = 0; u < n; ++u) all.push_back(u);
  dash::coarray::sync_images(all);
  dash::coarray::sync_images(std::array<long, 1>{me});
  // An image listed twice counts once (the first and the last image, the same at 1 unit).
  if (me == 0 || me == n - 1) dash::coarray::sync_images(std::vector<long>{0, n - 1, 0});
  sync_all();
}

TEST(Coarray, AtomicElementsCountEveryImagesUpdates) {
  const long n = nunits(), me = myid();
  dash::Coarray<dash::Atomic<long>> counter;
  counter(me) = 0;
  counter.sync_all();
  for (int k = 0; k < 5; ++k) ++counter(0);
  counter += 2;  // the own image, atomically
  counter -= 1;
  counter.sync_all();
  if (me == 0) {
    EXPECT_EQ(static_cast<long>(counter), 5 * n + 1);
  } else {
    EXPECT_EQ(static_cast<long>(counter), 1);
  }
  counter.sync_all();

  dash::Coarray<dash::Atomic<int>[3][2]> grid;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) grid(me)[i][j] = 0;
  grid.sync_all();
  grid((me + 1) % n)[2][1].add(3);
  grid[2][1].add(1);
  grid.sync_all();
  EXPECT_EQ(static_cast<int>(grid(me)[2][1]), 4);
  grid.sync_all();
}

TEST(Coarray, StructMembersOfTheOwnImage) {
  struct Pair {
    double weight;
    int count;
  };
  const long n = nunits(), me = myid();
  dash::Coarray<Pair> p;
  p.member(&Pair::count) = static_cast<int>(me);
  p.member<double>(0) = 0.25 * me;
  p.sync_all();
  const Pair other = p((me + 1) % n);
  EXPECT_EQ(other.count, (me + 1) % n);
  EXPECT_EQ(other.weight, 0.25 * ((me + 1) % n));
  p.sync_all();
}

TEST(Coarray, MovesAndSwapsKeepEveryImagesValues) {
  const long me = myid();
  dash::Coarray<int[4]> a, b;
  a[0] = 1;
  b[0] = 2;
  a.sync_all();
  std::swap(a, b);
  EXPECT_EQ(a[0], 2);
  EXPECT_EQ(b[0], 1);
  a.swap(b);
  EXPECT_EQ(a[0], 1);
  dash::Coarray<int[4]> c(std::move(a));
  EXPECT_EQ(c[0], 1);
  EXPECT_TRUE(a.empty());
  c.sync_all();
  EXPECT_EQ(static_cast<int>(c(me)[0]), 1);
  c.sync_all();
}

TEST(Coarray, BadInputThrowsWithTheCallsName) {
  const long n = nunits(), me = myid();
  dash::Coarray<int> x;
  EXPECT_THROW(x(-1), dash::exception::OutOfRange);
  try {
    x(n);
    ADD_FAILURE() << "x(n) did not throw";
  } catch (const dash::exception::OutOfRange& e) {
    EXPECT_NE(std::string(e.what()).find("dash::Coarray::operator(): image " + std::to_string(n) +
                                         " is not one of its " + std::to_string(n) + " images"),
              std::string::npos)
        << e.what();
  }
  // Every image throws alike for a master outside the team (before any communication).
  EXPECT_THROW(dash::coarray::cobroadcast(x, dash::team_unit_t{static_cast<int>(n)}),
               dash::exception::InvalidArgument);
  EXPECT_THROW(
      dash::coarray::coreduce(x, dash::plus<int>(), dash::team_unit_t{static_cast<int>(n)}),
      dash::exception::InvalidArgument);

  // Without memory.
  dash::Coarray<int[]> empty;
  EXPECT_THROW(empty(0), dash::exception::OutOfRange);
  EXPECT_THROW(dash::coarray::cobroadcast(empty, dash::team_unit_t{0}),
               dash::exception::InvalidArgument);
  EXPECT_THROW(empty.allocate(0), dash::exception::InvalidArgument);

  // A sync_images list with a stranger (checked before any message).
  try {
    dash::coarray::sync_images(std::vector<long>{me, n});
    ADD_FAILURE() << "a list with image n did not throw";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("dash::coarray::sync_images: image " + std::to_string(n) +
                                         " is not one of the"),
              std::string::npos)
        << e.what();
  }
  sync_all();
}

}  // namespace
