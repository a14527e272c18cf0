// The smaller pieces of DASH's API that DASH programs use: futures made from callables and
// Future<void>; unit ids that count; Team::is_leaf; operator<< of teams, unit grids, patterns
// and global pointers; == on dart_gptr_t; dash::distance, begin, end, local, index and
// addressof as free functions; a GlobPtr from a global iterator.
#include <dart/dart.h>
#include <dash/Array.h>
#include <dash/Future.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/memory/GlobPtr.h>
#include <dash/view/ViewFunctions.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

template <class X>
std::string Text(const X& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

TEST(DashSurface, FuturesFromCallables) {
  int polls = 0, destroyed = 0;
  {
    dash::Future<int> f([] { return 7; },
                        [&polls](int* out) {
                          if (++polls < 3) return false;
                          *out = 9;  // done on the third poll, with its own result
                          return true;
                        },
                        [&destroyed] { ++destroyed; });
    EXPECT_TRUE(f.valid());
    EXPECT_FALSE(f.test());
    EXPECT_FALSE(f.test());
    EXPECT_TRUE(f.test());
    EXPECT_EQ(f.get(), 9);
    EXPECT_EQ(f.get(), 9);
  }
  EXPECT_EQ(destroyed, 1);
  dash::Future<long> g([] { return 5L; });
  EXPECT_EQ(g.wait(), 5);
  int ran = 0;
  dash::Future<void> v([&ran] { ++ran; });
  EXPECT_TRUE(v.valid());
  v.wait();
  v.get();
  EXPECT_EQ(ran, 1);
  EXPECT_TRUE(dash::Future<void>::ready().test());
  EXPECT_FALSE(dash::Future<void>().valid());
}

TEST(DashSurface, UnitIdsCountAndTeamsKnowTheirLeaves) {
  std::vector<int> seen;
  for (dash::team_unit_t u(0); u < dash::Team::All().size(); ++u) seen.push_back(u.id);
  EXPECT_EQ(long(seen.size()), nunits());
  dash::global_unit_t g(1);
  g += 2;
  EXPECT_EQ(g.id, 3);
  --g;
  EXPECT_EQ(g.id, 2);
  dash::Team& all = dash::Team::All();
  dash::Team& half = all.split(2);
  EXPECT_FALSE(all.is_leaf());
  EXPECT_TRUE(half.is_leaf());
  dash::barrier();
}

TEST(DashSurface, StreamsNameWhatTheyPrint) {
  EXPECT_EQ(Text(dash::TeamSpec<2>(2, 3)), "dash::TeamSpec<2>(2 x 3)");
  const long n = nunits();
  dash::TilePattern<2> p(4, 6 * n, dash::TILE(2), dash::TILE(3), dash::TeamSpec<2>(1, n));
  EXPECT_EQ(Text(p), "dash::TilePattern<2>(extents 4 x " + std::to_string(6 * n) +
                         ", TILE(2) x TILE(3), units 1 x " + std::to_string(n) + ")");
  EXPECT_EQ(Text(dash::Team::All()).rfind("dash::Team(id 0, " + std::to_string(n) + " units", 0),
            0u);
  dash::Array<int> a(4 * n);
  const std::string ptr = Text(a.begin().globptr());
  EXPECT_EQ(ptr.rfind("dash::GlobPtr(unit 0, ", 0), 0u) << ptr;
  a.local[0] = 17;
  a.barrier();
  EXPECT_EQ(Text(a[4 * (n - 1)]), "17");  // a GlobRef prints its value
  a.barrier();
}

TEST(DashSurface, FreeFunctionsAndPointers) {
  const long n = nunits();
  dash::Array<int> a(5 * n);
  EXPECT_EQ(dash::distance(a.begin() + 2, a.begin() + 9), 7);
  EXPECT_TRUE(dash::begin(a) == a.begin());
  EXPECT_TRUE(dash::end(a) == a.end());
  EXPECT_EQ(&dash::local(a), &a.local);
  auto idx = dash::index(a);
  EXPECT_EQ(long(idx.size()), 5 * n);
  EXPECT_EQ(idx[3], 3);
  dash::GlobPtr<int> p = dash::addressof(a[3]);
  EXPECT_TRUE(p.dart_gptr() == a[3].dart_gptr());
  EXPECT_TRUE(static_cast<dash::GlobPtr<int>>(a.begin() + 3).dart_gptr() == p.dart_gptr());
  EXPECT_TRUE(a[3].dart_gptr() != a[4].dart_gptr());
  dart_gptr_t x = a[2].dart_gptr(), y = a[2].dart_gptr();
  EXPECT_TRUE(DART_GPTR_EQUAL(x, y));
  dash::Matrix<int, 2> m(2 * n, 3);
  auto v = m.view();
  EXPECT_EQ(dash::distance(dash::begin(v), dash::end(v)), 6 * n);
  dash::barrier();
}

}  // namespace
