// DASH's small utilities beside the benchmark ones: dash::ce's compile-time array building
// blocks (<dash/util/ArrayExpr.h>, <dash/util/FunctionalExpr.h>), checked both by the compiler
// (static_assert) and at run time on every unit, and dash::UniversalMember (refers to an lvalue,
// owns an rvalue, copies share, never copies the value).
#include <dash/util/ArrayExpr.h>
#include <dash/util/FunctionalExpr.h>
#include <dash/util/UniversalMember.h>
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <utility>

namespace {

constexpr std::array<int, 9> kNine = {0, 1, 2, 3, 4, 5, 6, 7, 8};

TEST(ConstexprArrays, AccumulateFoldsAnIndexRangeAtCompileTime) {
  constexpr int all = dash::ce::accumulate(kNine, 0, 9, 100, dash::ce::plus<int>);
  constexpr int middle = dash::ce::accumulate(kNine, 2, 8, 100, dash::ce::plus<int>);
  constexpr int empty = dash::ce::accumulate(kNine, 5, 5, 7, dash::ce::plus<int>);
  static_assert(all == 136 && middle == 127 && empty == 7, "accumulate at compile time");
  EXPECT_EQ(all, 136);
  EXPECT_EQ(middle, 127);
  EXPECT_EQ(empty, 7);
  // Left to right: ((1 - 0) - 1) - 2 = -2; a last index past the end stops at the end.
  EXPECT_EQ(dash::ce::accumulate(kNine, 0, 3, 1, dash::ce::minus<int>), -2);
  EXPECT_EQ(dash::ce::accumulate(kNine, 7, 20, 0, dash::ce::plus<int>), 15);
  EXPECT_EQ(dash::ce::accumulate(kNine, 1, 9, 1, dash::ce::multiply<int>), 40320);
  EXPECT_EQ(dash::ce::accumulate(kNine, 0, 9, -1, dash::ce::max<int>), 8);
  EXPECT_EQ(dash::ce::accumulate(kNine, 3, 9, 99, dash::ce::min<int>), 3);
}

TEST(ConstexprArrays, AppendTakeDropHeadTail) {
  constexpr std::array<int, 5> left = {0, 1, 2, 3, 4};
  constexpr std::array<int, 4> right = {5, 6, 7, 8};
  constexpr auto joined = dash::ce::append(left, right);
  static_assert(joined.size() == 9 && joined[4] == 4 && joined[5] == 5, "append");
  EXPECT_EQ(joined, kNine);
  EXPECT_EQ(dash::ce::append(left, 23), (std::array<int, 6>{0, 1, 2, 3, 4, 23}));
  constexpr auto middle = dash::ce::take<5>(dash::ce::drop<3>(kNine));
  EXPECT_EQ(middle, (std::array<int, 5>{3, 4, 5, 6, 7}));
  EXPECT_EQ(dash::ce::drop<9>(kNine).size(), 0u);
  EXPECT_EQ(dash::ce::take<0>(kNine).size(), 0u);
  EXPECT_EQ(dash::ce::take<9>(kNine), kNine);
  constexpr auto first = dash::ce::head(kNine);
  constexpr auto rest = dash::ce::tail(kNine);
  EXPECT_EQ(first, (std::array<int, 1>{0}));
  EXPECT_EQ(rest.size(), 8u);
  EXPECT_EQ(rest[0], 1);
  EXPECT_EQ(dash::ce::append(first, rest), kNine);
}

TEST(ConstexprArrays, ReverseReplaceAndSplit) {
  constexpr auto reversed = dash::ce::reverse(kNine);
  static_assert(reversed[0] == 8 && reversed[8] == 0, "reverse");
  EXPECT_EQ(reversed, (std::array<int, 9>{8, 7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(dash::ce::reverse(std::array<int, 0>{}).size(), 0u);
  constexpr auto replaced = dash::ce::replace_nth<3>(123, kNine);
  EXPECT_EQ(replaced, (std::array<int, 9>{0, 1, 2, 123, 4, 5, 6, 7, 8}));
  EXPECT_EQ(dash::ce::replace_nth<8>(-1, kNine)[8], -1);
  constexpr dash::ce::split<int, 4, 5> parts(kNine);
  static_assert(parts.left()[3] == 3 && parts.right()[0] == 4, "split");
  EXPECT_EQ(parts.left(), (std::array<int, 4>{0, 1, 2, 3}));
  EXPECT_EQ(parts.right(), (std::array<int, 5>{4, 5, 6, 7, 8}));
  constexpr dash::ce::split<int, 0, 9> nothing_left(kNine);
  EXPECT_EQ(nothing_left.right(), kNine);
}

// Neither copyable nor movable: a UniversalMember made from an lvalue of it must not copy.
struct Pinned {
  explicit Pinned(std::string v) : value(std::move(v)) {}
  Pinned(const Pinned&) = delete;
  Pinned(Pinned&&) = delete;
  Pinned& operator=(const Pinned&) = delete;
  Pinned& operator=(const std::string& v) {
    value = v;
    return *this;
  }
  std::string value;
};

// Movable only, counting its moves.
struct MoveOnly {
  explicit MoveOnly(std::string v) : value(std::move(v)) {}
  MoveOnly(const MoveOnly&) = delete;
  MoveOnly(MoveOnly&& o) noexcept : value(std::move(o.value)), moves(o.moves + 1) {}
  MoveOnly& operator=(MoveOnly&& o) noexcept {
    value = std::move(o.value);
    return *this;
  }
  std::string value;
  int moves = 0;
};

template <class T>
class Owner {
 public:
  explicit Owner(T& v) : member_(v) {}
  explicit Owner(T&& v) : member_(std::move(v)) {}
  T& value() { return member_; }

 private:
  dash::UniversalMember<T> member_;
};

TEST(UniversalMember, RefersToAnLvalueAndOwnsAnRvalue) {
  Pinned pinned("pinned");
  dash::UniversalMember<Pinned> referring(pinned);
  EXPECT_EQ(&static_cast<Pinned&>(referring), &pinned);
  static_cast<Pinned&>(referring) = std::string("changed through the member");
  EXPECT_EQ(pinned.value, "changed through the member");
  pinned.value = "changed outside";
  EXPECT_EQ(referring->value, "changed outside");

  dash::UniversalMember<MoveOnly> owning(MoveOnly("owned"));
  EXPECT_EQ(owning.get().value, "owned");
  EXPECT_EQ(owning.get().moves, 1);  // moved in once, never copied

  // Assigning a value writes into the held object: the referred one for an lvalue.
  MoveOnly outside("outside");
  dash::UniversalMember<MoveOnly> to_outside(outside);
  to_outside = MoveOnly("assigned");
  EXPECT_EQ(outside.value, "assigned");
}

TEST(UniversalMember, CopiesShareTheHeldObject) {
  dash::UniversalMember<MoveOnly> owning(MoveOnly("shared"));
  dash::UniversalMember<MoveOnly> copy = owning;
  copy.get().value = "written through the copy";
  EXPECT_EQ(owning.get().value, "written through the copy");
  EXPECT_EQ(&copy.get(), &owning.get());

  Pinned pinned("a");
  Owner<Pinned> by_reference(pinned);
  Owner<MoveOnly> by_value(MoveOnly("b"));
  by_reference.value() = std::string("a2");
  EXPECT_EQ(pinned.value, "a2");
  EXPECT_EQ(by_value.value().value, "b");
  const std::string text = "const";
  const dash::UniversalMember<std::string> from_const(text);
  EXPECT_EQ(&static_cast<const std::string&>(from_const), &text);
}

}  // namespace
