// The smaller pieces of DASH's API that DASH programs use: futures made from callables and
// Future<void>; unit ids that count; Team::is_leaf; operator<< of teams, unit grids, patterns
// and global pointers; == on dart_gptr_t; dash::distance, begin, end, local, index and
// addressof as free functions; a GlobPtr from a global iterator; GlobRef's set/put/get/swap
// spellings; dash::local_begin; dash::is_container_compatible; Team::free and num_siblings;
// dash::sort with a key function; array.async (GlobAsyncRef); as_view, blocks, domain,
// intersect, view_traits and extent<D>() on views; views of an Array's local part, index of
// iterators and iterators printed.
#include <dart/dart.h>
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Future.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/algorithm/Sort.h>
#include <dash/memory/GlobPtr.h>
#include <dash/view/ViewFunctions.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
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
  // Without a test callable test() completes the operation once and says true (DASH's).
  int gets = 0;
  dash::Future<long> h([&gets] { return long(++gets) * 6; });
  EXPECT_TRUE(h.test());
  EXPECT_TRUE(h.test());
  EXPECT_EQ(h.get(), 6);
  EXPECT_EQ(gets, 1);
  int ran = 0;
  dash::Future<void> v([&ran] { ++ran; });
  EXPECT_TRUE(v.valid());
  EXPECT_TRUE(v.test());
  v.wait();
  v.get();
  EXPECT_EQ(ran, 1);
  EXPECT_TRUE(dash::Future<void>::ready().test());
  EXPECT_FALSE(dash::Future<void>().valid());
}

TEST(DashSurface, UnitIdsCountAndTeamsKnowTheirLeaves) {
  std::vector<int> seen;
  for (dash::team_unit_t u(0); u < int(dash::Team::All().size()); ++u) seen.push_back(u.id);
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

TEST(DashSurface, GlobRefSpellingsAndLocalBegin) {
  const long n = nunits();
  dash::Array<long> a(3 * n);
  a.local[0] = 100 + myid(), a.local[1] = 200 + myid(), a.local[2] = 300 + myid();
  a.barrier();
  if (myid() == 0) {
    const long last = 3 * n - 1;  // the last unit's third element
    auto r = a[last];
    long v = 0;
    r.get(v);
    EXPECT_EQ(v, 300 + n - 1);
    r.set(7);
    EXPECT_EQ(long(a[last]), 7);
    const long nine = 9;
    r.put(&nine);
    EXPECT_EQ(long(a[last]), 9);
    a[0].swap(a[last]);
    EXPECT_EQ(long(a[0]), 9);
    EXPECT_EQ(long(a[last]), 100);
    swap(a[0], a[last]);
    EXPECT_EQ(long(a[0]), 100);
  }
  a.barrier();
  // local_begin: the calling unit's part; another unit's when it shares the node.
  auto g = static_cast<dash::GlobPtr<long>>(a.begin());
  EXPECT_EQ(dash::local_begin(g, dash::team_unit_t(myid())), a.lbegin());
  long* other = dash::local_begin(g, dash::team_unit_t((myid() + 1) % n));
  if (other != nullptr) {
    EXPECT_EQ(other[1], 200 + (myid() + 1) % n);
  }
  static_assert(dash::is_container_compatible<double>::value);
  static_assert(!dash::is_container_compatible<std::string>::value);
  a.barrier();
}

TEST(DashSurface, TeamsFreeAndCountSiblings) {
  dash::Team& all = dash::Team::All();
  EXPECT_EQ(all.num_siblings(), 1u);
  dash::Team& parts = all.split(2);
  EXPECT_EQ(parts.num_siblings(), std::size_t(std::min(2, nunits())));
  dash::Team& each = all.split(unsigned(nunits()));
  EXPECT_EQ(each.num_siblings(), std::size_t(nunits()));
  EXPECT_EQ(each.size(), 1u);
  parts.split(1);  // a sub-team of its own, freed with it
  EXPECT_FALSE(parts.is_leaf());
  parts.free();
  EXPECT_TRUE(parts.is_null());
  EXPECT_TRUE(parts.is_leaf());
  each.free();
  EXPECT_TRUE(each.is_null());
  dash::Array<int> still(4, all);  // All() keeps working
  still.barrier();
  // All().free() destroys All's sub-teams (DASH's Team::free); All and its containers stay.
  // (References to those sub-teams are invalid afterwards, as after dash::finalize.)
  const std::size_t parts_size = all.split(2).size();
  EXPECT_FALSE(all.is_leaf());
  all.free();
  EXPECT_TRUE(all.is_leaf());
  dash::Team& fresh = all.split(2);  // splitting again works
  EXPECT_EQ(fresh.size(), parts_size);
  fresh.free();
  EXPECT_FALSE(all.is_null());
  EXPECT_EQ(all.size(), std::size_t(nunits()));
  if (still.local.size() > 0) still.local[0] = int(dash::myid());
  still.barrier();
  for (std::size_t u = 0; u < still.size(); u += still.pattern().local_capacity()) {
    int owner = still[long(u)];
    EXPECT_EQ(owner, int(still.pattern().unit_at(long(u)).id));
  }
  dash::barrier();
}

TEST(DashSurface, SortByKeyFunction) {
  const long n = nunits(), size = 7 * n + 3;
  dash::Array<long> a(size);
  for (std::size_t i = 0; i < a.local.size(); ++i)
    a.local[i] = long((a.local.global_index(i) * 37) % size) - size / 2;
  a.barrier();
  dash::sort(a.begin(), a.end(), [](long v) { return v < 0 ? -v : v; });  // by |v|
  std::vector<long> all(static_cast<std::size_t>(size));
  for (long i = 0; i < size; ++i) all[std::size_t(i)] = a[i];
  std::vector<long> want = all;
  std::stable_sort(want.begin(), want.end(),
                   [](long x, long y) { return (x < 0 ? -x : x) < (y < 0 ? -y : y); });
  for (long i = 1; i < size; ++i)
    EXPECT_LE(std::abs(all[std::size_t(i - 1)]), std::abs(all[std::size_t(i)])) << i;
  std::sort(all.begin(), all.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(all, want);  // a permutation of the input
  a.barrier();
}

TEST(DashSurface, AsyncElementReferences) {
  const long n = nunits();
  dash::Array<int> a(4 * n);
  for (auto& x : a.local) x = -1;
  a.barrier();
  // Every unit writes its id into element 1 of the next unit's part, asynchronously.
  const long target = 4 * ((myid() + 1) % n) + 1;
  int value = myid();
  a.async[target] = value;
  value = -5;  // the write copied its value out
  a.async.flush();
  a.barrier();
  EXPECT_EQ(a.local[1], int((myid() + n - 1) % n));
  int got = -7;
  a.async[target].get(&got);
  a.async.flush();
  EXPECT_EQ(got, myid());
  EXPECT_EQ(a.async[target].get(), myid());
  dash::GlobAsyncRef<int> r = a.async[4 * myid()];
  EXPECT_TRUE(r.is_local());
  r.set(42);
  r.flush();
  EXPECT_EQ(a.local[0], 42);
  a.barrier();
}

TEST(DashSurface, ViewFunctionsAndTraits) {
  const long n = nunits();
  dash::Matrix<int, 2> m(4 * n, 6, dash::TILE(2), dash::TILE(3));
  auto whole = dash::as_view(m);
  EXPECT_EQ(whole.size(), m.size());
  auto bl = dash::blocks(m);
  EXPECT_EQ(long(bl.size()), 2 * n * 2);
  EXPECT_EQ(bl[1].offset<1>(), 3);
  EXPECT_EQ(bl[1].extent<0>(), 2u);
  auto a = dash::sub<0>(1, 3, m), b = dash::sub<1>(2, 5, m);
  auto both = dash::intersect(a, b);
  EXPECT_EQ(both.offset(0), 1);
  EXPECT_EQ(both.offset(1), 2);
  EXPECT_EQ(both.extent<0>(), 2u);
  EXPECT_EQ(both.extent<1>(), 3u);
  EXPECT_EQ(dash::domain(both).size(), m.size());
  EXPECT_EQ(dash::domain(m).size(), m.size());
  dash::Matrix<int, 2> other(4 * n, 6);
  EXPECT_THROW(dash::intersect(a, dash::sub<0>(0, 1, other)), dash::exception::InvalidArgument);
  using VT = dash::view_traits<decltype(both)>;
  static_assert(VT::is_view::value && !VT::is_origin::value && !VT::is_local::value);
  static_assert(VT::rank::value == 2);
  using CT = dash::view_traits<dash::Matrix<int, 2>>;
  static_assert(CT::is_origin::value && !CT::is_view::value);
  using LT = dash::view_traits<decltype(dash::local(both))>;
  static_assert(LT::is_local::value && LT::rank::value == 2);
  static_assert(dash::view_traits<dash::Array<int>>::rank::value == 1);
  dash::barrier();
}

// Views of an Array's local part and of its ranges, as DASH's 1-D view example uses them:
// sub(a, b, local(array)) is a local view whose index() gives local offsets; index(iterator)
// gives the element's global index; iterators print their position and index.
TEST(DashSurface, OneDimensionalViewsOfLocalAndGlobalRanges) {
  const long n = nunits(), bs = 10;
  dash::Array<int> array(n * bs);
  for (std::size_t l = 0; l < array.local.size(); ++l)
    array.local[l] = int((myid() + 1) * 1000 + l);
  array.barrier();
  auto v_subl = dash::sub(2, bs - 2, dash::local(array));
  EXPECT_EQ(v_subl.size(), std::size_t(bs - 4));
  auto idx = dash::index(v_subl);
  EXPECT_EQ(*dash::begin(idx), 2);
  EXPECT_EQ(*(dash::end(idx) - 1), bs - 3);
  // Iterators of a range made on the spot outlive it, and assign.
  auto first_index = dash::begin(dash::index(v_subl));
  auto last_index = dash::end(dash::index(v_subl));
  EXPECT_EQ(*first_index, 2);
  EXPECT_EQ(last_index - first_index, bs - 4);
  first_index = last_index - 1;
  EXPECT_EQ(*first_index, bs - 3);
  long k = 2;
  for (auto it = v_subl.begin(); it != v_subl.end(); ++it, ++k) {
    EXPECT_EQ(*it, (myid() + 1) * 1000 + k);
    EXPECT_EQ(&*it, array.local.begin() + k);
  }
  EXPECT_EQ(Text(v_subl.begin() + 1), "dash::LocalView::iterator(position 1, local offset 3)");
  EXPECT_EQ(Text(v_subl.end()), "dash::LocalView::iterator(position 6)");
  // A range across the units' blocks, and a range of it.
  const long first = bs / 2 * (n - 1);
  auto sub_0 = dash::sub(first, first + bs, array);
  auto sub_1 = dash::sub(2, bs - 2, sub_0);
  EXPECT_EQ(dash::index(dash::begin(sub_0)), first);
  EXPECT_EQ(dash::index(dash::end(sub_0)), first + bs);
  EXPECT_EQ(dash::index(dash::begin(sub_1)), first + 2);
  auto sub_0_index = dash::begin(dash::index(sub_0));
  EXPECT_EQ(*sub_0_index, first);
  sub_0_index = dash::end(dash::index(sub_0)) - 1;
  EXPECT_EQ(*sub_0_index, first + bs - 1);
  EXPECT_EQ(sub_1.size(), std::size_t(bs - 4));
  for (auto i = sub_1.begin(); i != sub_1.end(); ++i) {
    const long g = dash::index(i);
    EXPECT_EQ(int(*i), int((g / bs + 1) * 1000 + g % bs));
  }
  EXPECT_EQ(Text(sub_1.begin() + 1),
            "dash::GlobViewIter(position 1, index " + std::to_string(first + 3) + ")");
  EXPECT_EQ(Text(array.begin() + 4), "dash::GlobIter(index 4)");
  // The calling unit's part of a global range.
  const long hi = std::min(bs + 2, n * bs);
  auto v_sub = dash::sub(3, hi, array);
  auto lsub = dash::local(v_sub);
  const long mine_lo = std::max(3L, myid() * bs), mine_hi = std::min(hi, (myid() + 1) * bs);
  EXPECT_EQ(long(lsub.size()), std::max(0L, mine_hi - mine_lo));
  EXPECT_EQ(long(dash::end(lsub) - dash::begin(lsub)), long(lsub.size()));
  if (!lsub.empty()) {
    EXPECT_EQ(*dash::begin(dash::index(lsub)), mine_lo - myid() * bs);
  }
  array.barrier();
}

// The error helpers of Exception.h: DART errors map to one exception each (check_dart for
// calls given bad input; throw_dart_failure for operations that failed, where a refused file is
// no invalid argument but out of memory stays OutOfMemory).
TEST(DashSurface, DartErrorsMapToOneExceptionEach) {
  EXPECT_NO_THROW(dash::check_dart(DART_OK, "call"));
  EXPECT_THROW(dash::check_dart(DART_ERR_INVAL, "call"), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::check_dart(DART_ERR_NOMEM, "call"), dash::exception::OutOfMemory);
  EXPECT_THROW(dash::check_dart(DART_ERR_NOTINIT, "call"), dash::exception::NotInitialized);
  EXPECT_THROW(dash::check_dart(DART_ERR_OTHER, "call"), dash::exception::RuntimeError);
  EXPECT_THROW(dash::internal::throw_dart_failure(DART_ERR_NOMEM, "save"),
               dash::exception::OutOfMemory);
  EXPECT_THROW(dash::internal::throw_dart_failure(DART_ERR_NOTINIT, "save"),
               dash::exception::NotInitialized);
  for (dart_ret_t ret : {DART_ERR_INVAL, DART_ERR_NOTFOUND, DART_ERR_OTHER}) {
    try {
      dash::internal::throw_dart_failure(ret, "dash::bp::save: cannot create 'f'");
      ADD_FAILURE() << "no exception for " << int(ret);
    } catch (const dash::exception::RuntimeError& e) {
      EXPECT_STREQ(e.what(), "dash::bp::save: cannot create 'f'");
    }
  }
  EXPECT_EQ(dash::internal::errno_text(ENOENT), "No such file or directory");
}

}  // namespace
