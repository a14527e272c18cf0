// DASH's names around global memory that its unit tests use: DART's unit ids made from integers
// (default: undefined), dash::Shared made before dash::init (init(), local(), dash::swap),
// dart_datatype / dart_punned_datatype / dart_storage / dart_reduce_operation, dash::is_range and
// dash::make_range, the one-sided value transfers of <dash/Onesided.h>, and the conversions and
// member references of dash::GlobAsyncRef. Values checked on every unit.
#include <dash/Array.h>
#include <dash/Domain.h>
#include <dash/Exception.h>
#include <dash/GlobAsyncRef.h>
#include <dash/Init.h>
#include <dash/Onesided.h>
#include <dash/Range.h>
#include <dash/Shared.h>
#include <dash/algorithm/Operation.h>
#include <dash/internal/DartType.h>
#include <dash/view/ViewFunctions.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <sstream>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

// Made at program start, before dash::init: allocates at init().
dash::Shared<int> shared_before_init;

TEST(DashNamesMemory, UnitIdsConvertFromIntegersAndDefaultToUndefined) {
  dart_team_unit_t t;
  dart_global_unit_t g;
  EXPECT_EQ(t.id, DART_UNDEFINED_UNIT_ID);
  EXPECT_EQ(g.id, DART_UNDEFINED_UNIT_ID);
  const dart_unit_t three = 3;
  dart_team_unit_t t3 = three;
  dart_global_unit_t g3 = 3;
  EXPECT_EQ(t3.id, 3);
  EXPECT_EQ(g3.id, 3);
  std::vector<dart_team_unit_t> ids(3);
  for (const auto& id : ids) EXPECT_EQ(id.id, DART_UNDEFINED_UNIT_ID);
  // A DART call given the root as an integer.
  long mine = 10 + myid(), got = -1;
  ASSERT_EQ(dart_reduce(&mine, &got, 1, DART_TYPE_LONG, DART_OP_SUM, 0, DART_TEAM_ALL), DART_OK);
  if (myid() == 0) EXPECT_EQ(got, 10L * nunits() + nunits() * (nunits() - 1) / 2);
  EXPECT_EQ(DART_TEAM_UNIT_ID(5).id, 5);
}

TEST(DashNamesMemory, SharedMadeBeforeInitAllocatesAtInit) {
  EXPECT_TRUE(shared_before_init.init(100 + 0));
  EXPECT_FALSE(shared_before_init.init(7));  // allocated already: unchanged
  if (myid() == 0) {
    ASSERT_NE(shared_before_init.local(), nullptr);
    EXPECT_EQ(*shared_before_init.local(), 100);
  } else {
    EXPECT_EQ(shared_before_init.local(), nullptr);
  }
  EXPECT_EQ(static_cast<int>(shared_before_init.get()), 100);
  shared_before_init.barrier();
  if (myid() == 0) *shared_before_init.local() = 1000;
  shared_before_init.barrier();
  EXPECT_EQ(static_cast<int>(shared_before_init.get()), 1000);
  // dash::swap exchanges storage and owners; the last unit owns `other`.
  dash::Shared<int> other(42, dash::team_unit_t(nunits() - 1));
  dash::swap(shared_before_init, other);
  EXPECT_EQ(static_cast<int>(shared_before_init.get()), 42);
  EXPECT_EQ(shared_before_init.owner().id, nunits() - 1);
  EXPECT_EQ(shared_before_init.local() != nullptr, myid() == nunits() - 1);
  EXPECT_EQ(static_cast<int>(other.get()), 1000);
  other.barrier();
  // Made after dash::init, a Shared allocates at once, and refuses an owner outside its team.
  EXPECT_THROW(dash::Shared<int>(5, dash::team_unit_t(nunits())), dash::exception::InvalidArgument);
}

TEST(DashNamesMemory, SharedOfAStructAssignedFromATemporary) {
  struct Four {
    char c[4];
  };
  dash::Shared<Four> s;
  s = dash::Shared<Four>(Four{{'a', 'b', 'c', 'd'}});
  const Four v = s.get();
  EXPECT_EQ(v.c[0], 'a');
  EXPECT_EQ(v.c[3], 'd');
  s.barrier();
}

TEST(DashNamesMemory, DartTypeTraits) {
  struct Four {
    char c[4];
  };
  struct Eight {
    char c[8];
  };
  struct Point {
    int x, y;
  };
  static_assert(dash::dart_datatype<unsigned char>::value == DART_TYPE_BYTE);
  static_assert(dash::dart_datatype<const int>::value == DART_TYPE_INT);
  static_assert(dash::dart_datatype<std::array<int, 4>>::value == DART_TYPE_UNDEFINED);
  static_assert(dash::dart_punned_datatype<double>::value == DART_TYPE_DOUBLE);
  static_assert(dash::dart_punned_datatype<Four>::value == DART_TYPE_INT);
  static_assert(dash::dart_punned_datatype<Eight>::value == DART_TYPE_LONGLONG);
  static_assert(dash::dart_punned_datatype<std::array<char, 3>>::value == DART_TYPE_UNDEFINED);
  static_assert(dash::internal::dart_reduce_operation<dash::plus<int>>::value == DART_OP_SUM);
  static_assert(dash::internal::dart_reduce_operation<dash::max<double>>::value == DART_OP_MAX);
  static_assert(dash::internal::dart_reduce_operation<dash::plus<Point>>::value ==
                DART_OP_UNDEFINED);
  auto lambda = [](int a, int b) { return a + b; };
  static_assert(dash::internal::dart_reduce_operation<decltype(lambda)>::value ==
                DART_OP_UNDEFINED);
  const dash::dart_storage<int> ints(5);
  EXPECT_EQ(ints.nelem, 5u);
  EXPECT_EQ(ints.dtype, DART_TYPE_INT);
  const dash::dart_storage<Point> points(5);
  EXPECT_EQ(points.nelem, 5 * sizeof(Point));
  EXPECT_EQ(points.dtype, DART_TYPE_BYTE);
  // The storage description moves values between units (a ring of Points).
  dash::Array<Point> arr(nunits());
  arr.local[0] = Point{myid(), -myid()};
  arr.barrier();
  const int next = (myid() + 1) % nunits();
  Point got{-1, -1};
  const dash::dart_storage<Point> one(1);
  ASSERT_EQ(
      dart_get_blocking(&got, (arr.begin() + next).dart_gptr(), one.nelem, one.dtype, one.dtype),
      DART_OK);
  EXPECT_EQ(got.x, next);
  EXPECT_EQ(got.y, -next);
  arr.barrier();
}

TEST(DashNamesMemory, RangesAndMakeRange) {
  dash::Array<int> array(nunits() * 10 + 3);
  auto v_sub = dash::sub(0, 10, array);
  static_assert(dash::is_range<dash::Array<int>>::value);
  static_assert(dash::is_range<dash::Array<int>::local_type>::value);
  static_assert(!dash::is_range<dash::Array<int>::iterator>::value);
  static_assert(!dash::is_range<int>::value);
  static_assert(dash::is_range<decltype(v_sub)>::value);
  static_assert(dash::is_range<decltype(dash::index(v_sub))>::value);
  static_assert(dash::is_range<std::vector<int>>::value);
  for (std::size_t i = 0; i < array.lsize(); ++i) array.local[i] = static_cast<int>(i) * 2;
  auto range = dash::make_range(array.local.begin(), array.local.end());
  static_assert(dash::is_range<decltype(range)>::value);
  EXPECT_EQ(range.size(), array.lsize());
  EXPECT_EQ(range.empty(), array.lsize() == 0);
  int i = 0;
  for (int v : range) EXPECT_EQ(v, 2 * i++);
  EXPECT_EQ(std::size_t(i), array.lsize());
  auto empty = dash::make_range(array.local.end(), array.local.end());
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.size(), 0u);
  array.barrier();
}

TEST(DashNamesMemory, OnesidedValueTransfers) {
  dash::Array<long> arr(nunits() * 3);
  for (int i = 0; i < 3; ++i) arr.local[i] = -1;
  arr.barrier();
  const int next = (myid() + 1) % nunits();
  // Each unit writes its id into element 0 of the next unit, blocking, and into element 1,
  // started and fenced; then reads them back both ways.
  auto first = static_cast<dash::GlobPtr<long>>(arr.begin() + 3 * next);
  dash::put_value(100L + myid(), first);
  const long v = 200L + myid();
  dash::put_value_async(v, first + 1);
  dash::fence(first);
  long a = 0, b = 0;
  dash::get_value(&a, first);
  dash::get_value_async(&b, (first + 1).dart_gptr());
  dash::fence_local(first);
  EXPECT_EQ(a, 100L + myid());
  EXPECT_EQ(b, 200L + myid());
  arr.barrier();
  const int prev = (myid() + nunits() - 1) % nunits();
  EXPECT_EQ(arr.local[0], 100L + prev);
  EXPECT_EQ(arr.local[1], 200L + prev);
  EXPECT_EQ(arr.local[2], -1L);
  arr.barrier();
}

// A pointer from a container's iterator moves through the memory space across units (every unit's
// part in team order), as DASH's; one made from a dart_gptr_t alone stays in its unit's part.
TEST(DashNamesMemory, PointersOfContainersCrossUnits) {
  using array_t = dash::Array<int>;
  array_t one_each(nunits());
  dash::GlobRef<int> ref = one_each[(myid() + 1) % nunits()];
  auto address = dash::addressof<array_t::memory_type>(ref);
  EXPECT_TRUE(static_cast<array_t::pointer>(one_each.begin()) + (myid() + 1) % nunits() == address);
  // 5 elements per unit (the last unit's part underfilled: 5n - 2 elements in all).
  const long n = 5L * nunits() - 2;
  array_t arr(n);
  for (std::size_t i = 0; i < arr.lsize(); ++i) arr.local[i] = 100 * myid() + static_cast<int>(i);
  arr.barrier();
  const long cap = (n + nunits() - 1) / nunits();  // 5, or 3 on one unit
  const auto begin = static_cast<array_t::pointer>(arr.begin());
  EXPECT_EQ(begin.unit_capacity(), cap);
  for (long k = 0; k < n; ++k) {
    auto p = begin + k;
    EXPECT_EQ(p.unit().id, k / cap);
    EXPECT_EQ(static_cast<int>(*p), 100 * (k / cap) + k % cap) << k;
    EXPECT_EQ(p - begin, k);
    EXPECT_TRUE(p == static_cast<array_t::pointer>(arr.begin() + k));
  }
  auto walk = begin;
  for (long k = 0; k < 7; ++k) ++walk;
  EXPECT_EQ(walk - begin, 7);
  walk -= 3;
  EXPECT_EQ(walk - begin, 4);
  if (n > 4) {
    EXPECT_EQ(static_cast<int>(*walk), 100 * (4 / cap) + 4 % cap);
  }
  // Past the last unit's part: its end pointer, not a unit that does not exist.
  auto past = begin + 5L * nunits() + 3;
  EXPECT_EQ(past.unit().id, nunits() - 1);
  EXPECT_EQ(past - begin, 5L * nunits() + 3);
  // Without the layout: arithmetic stays in the unit's part.
  dash::GlobPtr<int> plain(begin.dart_gptr());
  EXPECT_EQ(plain.unit_capacity(), 0);
  EXPECT_EQ((plain + 7).unit().id, 0);
  arr.barrier();
}

TEST(DashNamesMemory, DomainBoxesMoveAndGrow) {
  dash::Domain<3, int> dom({{0, 10}, {10, 20}, {5, 10}});
  EXPECT_EQ(dom.size(), 10 * 10 * 5);
  dom.translate({0, 3, 0}).expand({0, 0, 10});
  EXPECT_EQ(dom.extents(), (std::array<int, 3>{10, 10, 15}));
  EXPECT_EQ(dom.offsets(), (std::array<int, 3>{0, 13, 5}));
  dom.resize({1, 0, 2});
  EXPECT_EQ(dom.size(), 0);
  EXPECT_EQ(dom.extent(2), 2);
  EXPECT_EQ(dom.offset(1), 13);
  std::ostringstream os;
  os << dash::Domain<2>({{1, 3}, {0, 4}});
  EXPECT_EQ(os.str(), "dash::Domain(extents(2, 4), offsets(1, 0))");
  EXPECT_THROW((dash::Domain<2, int>({{0, 1}})), dash::exception::InvalidArgument);
  EXPECT_THROW((dash::Domain<1, int>({{5, 4}})), dash::exception::InvalidArgument);
}

TEST(DashNamesMemory, AsyncReferenceConversionsAndMembers) {
  struct Pair {
    int a;
    double b;
  };
  dash::Array<Pair> arr(nunits());
  arr.local[0] = Pair{myid(), 0.5 * myid()};
  arr.barrier();
  const int next = (myid() + 1) % nunits();
  auto async_ref = arr.async[next];
  auto sync_ref = static_cast<dash::GlobRef<Pair>>(async_ref);
  EXPECT_EQ(sync_ref.dart_gptr(), async_ref.dart_gptr());
  dash::GlobAsyncRef<Pair> from_sync = arr[next];
  EXPECT_EQ(from_sync.dart_gptr(), async_ref.dart_gptr());
  dash::GlobAsyncRef<const Pair> to_const = async_ref;
  auto back = static_cast<dash::GlobAsyncRef<Pair>>(to_const);
  EXPECT_EQ(back.dart_gptr(), async_ref.dart_gptr());
  dash::GlobRef<const Pair> cref = arr[next];
  dash::GlobRef<Pair> mutable_again(cref);
  EXPECT_EQ(mutable_again.dart_gptr(), cref.dart_gptr());
  dash::GlobAsyncRef<const Pair> from_const_sync = cref;
  EXPECT_EQ(from_const_sync.dart_gptr(), cref.dart_gptr());
  auto member_a = async_ref.member<int>(&Pair::a);
  auto member_b = async_ref.member<double>(&Pair::b);
  EXPECT_EQ(member_a.is_local(), nunits() == 1);
  EXPECT_EQ(member_a.get(), next);
  EXPECT_EQ(member_b.get(), 0.5 * next);
  arr.barrier();
  member_b = 7.25 + myid();
  member_b.flush();
  arr.barrier();
  const int prev = (myid() + nunits() - 1) % nunits();
  EXPECT_EQ(arr.local[0].b, 7.25 + prev);
  EXPECT_EQ(arr.local[0].a, myid());
  arr.barrier();
}

}  // namespace
