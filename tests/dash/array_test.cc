// dash::Array: construction with every distribution, local access through
// lbegin/lend and `local`, element reads and writes from every unit to every
// other unit through operator[] and iterators, at() bounds, GlobRef
// operators and struct members, sub-teams, move and reallocation.
#include <dash/Array.h>
#include <dash/Init.h>
#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

std::vector<dash::Distribution> AllDistributions() {
  return {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(3), dash::TILE(4),
          dash::BLOCKCYCLIC(1000)};
}

TEST(Array, SeedListingReadsAndWrites) {
  dash::Array<double> arr(1000, dash::BLOCKED);
  for (auto it = arr.lbegin(); it != arr.lend(); ++it) *it = dash::myid();
  arr.barrier();
  double v = arr[999];
  EXPECT_EQ(v, double(arr.pattern().unit_at(999)));
  arr.barrier();
  if (myid() == nunits() - 1) arr[0] = 42.0;
  arr.barrier();
  EXPECT_EQ(double(arr[0]), 42.0);
  auto& l = arr.local;
  EXPECT_EQ(l.size(), arr.lsize());
  EXPECT_EQ(l.begin(), arr.lbegin());
  EXPECT_EQ(l.end(), arr.lend());
  arr.barrier();
}

TEST(Array, LocalSizesSumToSize) {
  for (auto dist : AllDistributions()) {
    for (std::size_t n : {0, 1, 2, 5, 17, 100, 1001}) {
      dash::Array<int> a(n, dist);
      std::size_t local = a.lsize(), total = 0;
      EXPECT_EQ(DART_OK,
                dart_allreduce(&local, &total, 1, DART_TYPE_ULONG, DART_OP_SUM, DART_TEAM_ALL));
      EXPECT_EQ(total, n);
      EXPECT_EQ(a.size(), n);
      EXPECT_EQ(std::size_t(a.lend() - a.lbegin()), a.lsize());
      EXPECT_LE(a.lsize(), a.lcapacity());
    }
  }
}

// Every unit writes the elements global index i with i % nunits == myid, then
// every unit reads every element: all pairs of units exchange data.
TEST(Array, EveryUnitWritesAndReadsEveryElement) {
  for (auto dist : AllDistributions()) {
    for (std::size_t n : {1, 7, 64, 333}) {
      dash::Array<long> a(n, dist);
      for (std::size_t i = myid(); i < n; i += nunits()) a[i] = 1000 * long(i) + 7;
      a.flush();
      a.barrier();
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(long(a[i]), 1000 * long(i) + 7) << i;
      // Local view agrees with the global one.
      for (std::size_t l = 0; l < a.lsize(); ++l) {
        auto g = a.local.global_index(l);
        EXPECT_EQ(a.local[l], 1000 * g + 7);
      }
      a.barrier();
    }
  }
}

TEST(Array, IteratorsVisitEveryElementInOrder) {
  dash::Array<int> a(101, dash::BLOCKCYCLIC(5));
  for (std::size_t l = 0; l < a.lsize(); ++l) a.local[l] = int(a.local.global_index(l));
  a.barrier();
  int expected = 0;
  for (auto it = a.begin(); it != a.end(); ++it) EXPECT_EQ(int(*it), expected++);
  EXPECT_EQ(expected, 101);
  EXPECT_EQ(a.end() - a.begin(), 101);
  auto it = a.begin() + 50;
  EXPECT_EQ(int(it[3]), 53);
  EXPECT_EQ(int(*(it - 10)), 40);
  EXPECT_TRUE(a.begin() < it);
  // is_local / local() agree with the pattern.
  for (auto i = a.begin(); i != a.end(); ++i) {
    bool mine = a.pattern().unit_at(i.pos()) == a.pattern().myid();
    EXPECT_EQ(i.is_local(), mine);
    EXPECT_EQ(i.local() != nullptr, mine);
    if (mine) {
      EXPECT_EQ(*i.local(), int(i.pos()));
    }
  }
  const auto& ca = a;
  EXPECT_EQ(int(*(ca.begin() + 7)), 7);
  a.barrier();
}

TEST(Array, AtThrowsOutOfRange) {
  dash::Array<int> a(10);
  EXPECT_THROW(a.at(10), std::out_of_range);
  EXPECT_THROW(a.at(-1), std::out_of_range);
  EXPECT_NO_THROW(a.at(9));
  dash::Array<int> empty(0);
  EXPECT_THROW(empty.at(0), std::out_of_range);
  EXPECT_EQ(empty.begin(), empty.end());
  EXPECT_EQ(empty.lbegin(), empty.lend());
  EXPECT_THROW(a.local.at(a.lsize()), std::out_of_range);
  a.barrier();
}

TEST(Array, GlobRefOperators) {
  dash::Array<int> a(nunits());
  a.local[0] = 10;
  a.barrier();
  // Each unit works on its right neighbour's element.
  int next = (myid() + 1) % nunits();
  auto r = a[next];
  EXPECT_EQ(r.is_local(), nunits() == 1);
  r += 5;
  r *= 2;
  r -= 1;
  ++r;
  EXPECT_EQ(r++, 30);
  EXPECT_EQ(r.get(), 31);
  r.put(7);
  r <<= 2;
  EXPECT_EQ(int(r), 28);
  a.barrier();
  EXPECT_EQ(a.local[0], 28);
  a.barrier();
}

TEST(Array, GlobRefAssignsValuesNotReferences) {
  dash::Array<int> a(2 * nunits());
  for (auto& v : a.local) v = int(myid());
  a.barrier();
  if (myid() == 0) {
    a[0] = a[a.size() - 1];  // copies the value
    EXPECT_EQ(int(a[0]), int(a.pattern().unit_at(a.size() - 1)));
    swap(a[0], a[1]);
    EXPECT_EQ(int(a[1]), int(a.pattern().unit_at(a.size() - 1)));
  }
  a.barrier();
}

struct Particle {
  double x, y;
  int id;
};

TEST(Array, GlobRefMembersOfStructs) {
  dash::Array<Particle> a(3 * nunits(), dash::CYCLIC);
  for (std::size_t l = 0; l < a.lsize(); ++l) {
    a.local[l] = Particle{0.5 * double(a.local.global_index(l)), -1.0, int(myid())};
  }
  a.barrier();
  std::size_t i = (myid() + 1) % a.size();
  auto p = a[i];
  EXPECT_EQ(double(p.member(&Particle::x)), 0.5 * double(i));
  EXPECT_EQ(int(p.member(&Particle::id)), int(a.pattern().unit_at(i)));
  a.barrier();
  p.member(&Particle::y) = double(myid());
  a.barrier();
  // Unit u wrote element u + 1 (for u + 1 < size); the others keep y = -1.
  for (std::size_t l = 0; l < a.lsize(); ++l) {
    long g = long(a.local.global_index(l));
    double expected = (g >= 1 && g - 1 < nunits()) ? double(g - 1) : -1.0;
    EXPECT_EQ(a.local[l].y, expected) << g;
  }
  Particle whole = a[i];
  EXPECT_EQ(whole.x, 0.5 * double(i));
  a.barrier();
}

TEST(Array, SubTeamArrays) {
  dash::Team& half = dash::Team::All().split(2);
  dash::Array<int> a(25, dash::BLOCKED, half);
  EXPECT_EQ(a.team(), half);
  for (std::size_t l = 0; l < a.lsize(); ++l) a.local[l] = int(a.local.global_index(l));
  a.barrier();
  for (int i = 0; i < 25; ++i) EXPECT_EQ(int(a[i]), i);
  a.barrier();
}

TEST(Array, MoveAndReallocate) {
  dash::Array<int> a;
  EXPECT_EQ(a.size(), 0u);
  a.allocate(40, dash::CYCLIC);
  EXPECT_EQ(a.size(), 40u);
  for (auto& v : a.local) v = 3;
  dash::Array<int> b(std::move(a));
  EXPECT_EQ(b.size(), 40u);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.local.size(), b.lsize());
  for (auto v : b.local) EXPECT_EQ(v, 3);
  b.allocate(12);
  EXPECT_EQ(b.size(), 12u);
  b.deallocate();
  EXPECT_EQ(b.size(), 0u);
  dash::barrier();
}

// DASH's forms: Array(n, {local values}) sets each unit's part; a DistributionSpec<1> works
// where a Distribution does; a unit whose list does not match what it owns fails on every unit
// (its own InvalidArgument, RemoteFailure elsewhere) and nothing is allocated.
TEST(Array, LocalValuesAndDistributionSpec) {
  const long n = nunits(), me = myid();
  // 3 elements per unit: BLOCKED puts global 3u..3u+2 on unit u.
  dash::Array<long> a(3 * n, {10 * me, 10 * me + 1, 10 * me + 2});
  EXPECT_EQ(a.lsize(), 3u);
  for (long i = 0; i < 3 * n; ++i) EXPECT_EQ(long(a[i]), 10 * (i / 3) + i % 3) << i;
  a.barrier();
  dash::Array<int> b(7, dash::DistributionSpec<1>(dash::CYCLIC), dash::Team::All());
  EXPECT_EQ(b.pattern().distspec()[0], dash::CYCLIC);
  EXPECT_TRUE(b.allocate(9, dash::DistributionSpec<1>(dash::BLOCKCYCLIC(2)), dash::Team::All()));
  EXPECT_EQ(b.size(), 9u);
  if (n > 1) {
    dash::Array<long> c;
    try {
      // Unit 0 gives one value too many.
      if (me == 0)
        c.allocate(2 * n, {1, 2, 3});
      else
        c.allocate(2 * n, {1, 2});
      ADD_FAILURE() << "no exception";
    } catch (const dash::exception::InvalidArgument& e) {
      EXPECT_EQ(me, 0);
      EXPECT_NE(std::string(e.what()).find("3 local values for the 2 elements"), std::string::npos)
          << e.what();
    } catch (const dash::exception::RemoteFailure& e) {
      EXPECT_NE(me, 0);
    }
    EXPECT_EQ(c.size(), 0u);
  }
  dash::barrier();
}

TEST(Array, BadDistributionThrows) {
  EXPECT_THROW(dash::Array<int>(10, dash::BLOCKCYCLIC(0)), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::Array<int>(10, dash::TILE(0)), dash::exception::InvalidArgument);
  dash::barrier();
}

}  // namespace
