// dash::Team: the team of all units, split into consecutive parts,
// locality_split by (real or emulated) node, id translation, nesting; the
// collectives with std:: types (allreduce, bcast, allgather).
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/util/Locality.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "dart_test_util.h"
#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

TEST(Team, AllHoldsEveryUnit) {
  dash::Team& all = dash::Team::All();
  EXPECT_EQ(all.size(), std::size_t(nunits()));
  EXPECT_EQ(int(all.myid()), myid());
  EXPECT_EQ(int(dash::myid()), myid());
  EXPECT_EQ(dash::size(), std::size_t(nunits()));
  EXPECT_EQ(all.dart_id(), DART_TEAM_ALL);
  EXPECT_TRUE(all.parent().is_null());
  EXPECT_EQ(all.position(), 0);
  EXPECT_EQ(&dash::Team::All(), &all);
  EXPECT_TRUE(dash::is_initialized());
  all.barrier();
}

TEST(Team, NullIsEmpty) {
  EXPECT_TRUE(dash::Team::Null().is_null());
  EXPECT_EQ(dash::Team::Null().size(), 0u);
  EXPECT_THROW(dash::Team::Null().split(2), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::Array<int>(10, dash::BLOCKED, dash::Team::Null()),
               dash::exception::InvalidArgument);
}

TEST(Team, SplitMakesConsecutiveBalancedParts) {
  for (unsigned parts : {1u, 2u, 3u, 4u, 7u, 0u}) {
    dash::Team& sub = dash::Team::All().split(parts);
    unsigned p = parts == 0 ? 1 : std::min<unsigned>(parts, nunits());
    // Reference: unit u is in part u * p / n.
    int my_part = myid() * int(p) / nunits();
    std::vector<int> members;
    for (int u = 0; u < nunits(); ++u)
      if (u * int(p) / nunits() == my_part) members.push_back(u);
    ASSERT_EQ(sub.size(), members.size());
    for (std::size_t i = 0; i < members.size(); ++i) {
      EXPECT_EQ(int(sub.global_id(dash::team_unit_t(int(i)))), members[i]);
      EXPECT_EQ(int(sub.relative_id(dash::global_unit_t(members[i]))), int(i));
    }
    EXPECT_EQ(int(sub.global_id(sub.myid())), myid());
    EXPECT_EQ(&sub.parent(), &dash::Team::All());
    EXPECT_EQ(sub.position(), 1);
    sub.barrier();
  }
  dash::barrier();
}

TEST(Team, NestedSplits) {
  dash::Team& half = dash::Team::All().split(2);
  dash::Team& quarter = half.split(2);
  EXPECT_EQ(&quarter.parent(), &half);
  EXPECT_EQ(quarter.position(), 2);
  EXPECT_LE(quarter.size(), half.size());
  // A container on the innermost team works.
  dash::Array<int> a(10, dash::CYCLIC, quarter);
  for (auto& v : a.local) v = int(quarter.myid());
  a.barrier();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(int(a[i]), i % int(quarter.size()));
  a.barrier();
}

// What a layer keeps per team (Team::extension): one object per type and
// team, made by the first call; ended once, collectively, when the team goes,
// the last made first.
std::vector<std::string>* ended_extensions = nullptr;
struct FirstProbe : dash::Team::Extension {
  int uses = 0;
  void end(dash::Team& team) override {
    ended_extensions->push_back("first");
    team.barrier();  // the team still works while its extensions end
  }
};
struct SecondProbe : dash::Team::Extension {
  void end(dash::Team&) override { ended_extensions->push_back("second"); }
};
struct QuietProbe : dash::Team::Extension {  // also made on All(), which ends at finalize
  void end(dash::Team&) override {}
};

TEST(Team, ExtensionsAreOnePerTypeAndEndWithTheTeam) {
  std::vector<std::string> ended;
  ended_extensions = &ended;
  dash::Team& sub = dash::Team::All().split(2);
  FirstProbe& first = sub.extension<FirstProbe>();
  first.uses = 7;
  EXPECT_EQ(&sub.extension<FirstProbe>(), &first);
  EXPECT_EQ(sub.extension<FirstProbe>().uses, 7);
  const void* second = &sub.extension<SecondProbe>();
  EXPECT_NE(second, static_cast<const void*>(&first));
  EXPECT_EQ(static_cast<const void*>(&sub.extension<SecondProbe>()), second);
  EXPECT_NE(&dash::Team::All().extension<QuietProbe>(), &sub.extension<QuietProbe>());
  EXPECT_TRUE(ended.empty());
  sub.free();
  EXPECT_EQ(ended, (std::vector<std::string>{"second", "first"}));
  dash::barrier();
}

TEST(Team, RelativeIdOfNonMemberThrows) {
  dash::Team& sub = dash::Team::All().split(nunits());  // one unit each
  EXPECT_EQ(sub.size(), 1u);
  if (nunits() > 1) {
    EXPECT_THROW(sub.relative_id(dash::global_unit_t((myid() + 1) % nunits())),
                 dash::exception::InvalidArgument);
  }
  dash::barrier();
}

TEST(Team, LocalitySplitByNode) {
  dash::Team& node = dash::Team::All().locality_split(dash::LocalityScope::Node);
  // The units of my (emulated) node: my host, cut by DART_VIRTUAL_NODE_SIZE.
  std::vector<int> expected;
  for (int u = 0; u < nunits(); ++u) {
    if (dash_test::ExpectedNode(u) == dash_test::ExpectedNode(myid())) expected.push_back(u);
  }
  ASSERT_EQ(node.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(int(node.global_id(dash::team_unit_t(static_cast<int>(i)))), expected[i]);
  node.barrier();
}

// dash::LocalityScope is dash::util::LocalityScope: every scope splits into its domains.
TEST(Team, LocalitySplitByAnyScope) {
  static_assert(std::is_same_v<dash::LocalityScope, dash::util::Locality::Scope>);
  dash::Team& units = dash::Team::All().locality_split(dash::LocalityScope::Unit);
  EXPECT_EQ(units.size(), 1u);
  EXPECT_EQ(int(units.global_id(dash::team_unit_t(0))), myid());
  dash::Team& global = dash::Team::All().locality_split(dash::LocalityScope::Global);
  EXPECT_EQ(global.size(), std::size_t(nunits()));
  global.barrier();
}

}  // namespace

// Team collectives with std:: types: values from every unit combined, broadcast and gathered
// on the whole team and on a sub-team (unit ids relative to it).
TEST(TeamCollectives, AllreduceBcastAllgather) {
  for (dash::Team* team : {&dash::Team::All(), &dash::Team::All().split(2)}) {
    const int me = int(team->myid().id), n = int(team->size());
    EXPECT_EQ(team->allreduce(me + 1, dash::plus<int>()), n * (n + 1) / 2);
    EXPECT_EQ(team->allreduce(double(me), dash::max<double>()), double(n - 1));
    EXPECT_EQ(team->allreduce(std::uint64_t(100 + me), dash::min<std::uint64_t>()), 100u);
    EXPECT_EQ(team->allreduce(long(2), dash::multiply<long>()), 1L << n);
    const std::vector<long long> sums =
        team->allreduce(std::vector<long long>{me, 1, -me}, dash::plus<long long>());
    EXPECT_EQ(sums, (std::vector<long long>{n * (n - 1) / 2, n, -n * (n - 1) / 2}));
    EXPECT_TRUE(team->allreduce(std::vector<float>{}, dash::plus<float>()).empty());

    struct Pair {
      int a;
      double b;
    };
    Pair p{me == n - 1 ? 7 : -1, me == n - 1 ? 2.5 : -1.0};
    team->bcast(p, dash::team_unit_t(n - 1));
    EXPECT_EQ(p.a, 7);
    EXPECT_EQ(p.b, 2.5);
    std::string text = me == 0 ? std::string(70000, 'x') + "end" : std::string("stale");
    team->bcast(text);
    EXPECT_EQ(text.size(), 70003u);
    EXPECT_EQ(text.substr(text.size() - 3), "end");
    std::vector<int> v = me == 0 ? std::vector<int>{3, 1, 4} : std::vector<int>(9, -1);
    team->bcast(v);
    EXPECT_EQ(v, (std::vector<int>{3, 1, 4}));
    std::vector<double> empty = me == 0 ? std::vector<double>{} : std::vector<double>(5, 1.0);
    team->bcast(empty);
    EXPECT_TRUE(empty.empty());

    const std::vector<Pair> all = team->allgather(Pair{me, 0.5 * me});
    ASSERT_EQ(all.size(), std::size_t(n));
    for (int u = 0; u < n; ++u) {
      EXPECT_EQ(all[std::size_t(u)].a, u);
      EXPECT_EQ(all[std::size_t(u)].b, 0.5 * u);
    }
  }
  dash::Team::All().barrier();
}

namespace {

// An allocator that throws std::bad_alloc on the units where `refuse` is set: a unit that
// cannot make room for the broadcast elements.
bool refuse_allocation = false;
template <class T>
struct RefusingAllocator {
  using value_type = T;
  RefusingAllocator() = default;
  template <class U>
  RefusingAllocator(const RefusingAllocator<U>&) {}
  T* allocate(std::size_t n) {
    if (refuse_allocation) throw std::bad_alloc();
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) { std::allocator<T>().deallocate(p, n); }
  bool operator==(const RefusingAllocator&) const { return true; }
  bool operator!=(const RefusingAllocator&) const { return false; }
};

}  // namespace

// A vector broadcast that one unit cannot make room for fails on every unit (that unit with its
// std::bad_alloc, the others with RemoteFailure naming it) instead of leaving the others waiting
// for the elements, and the team is usable after.
TEST(TeamCollectives, BcastThatOneUnitCannotHoldFailsOnEveryUnit) {
  dash::Team& team = dash::Team::All();
  const int me = int(team.myid().id), n = int(team.size());
  if (n < 2) GTEST_SKIP() << "needs 2 units";
  const int refusing = n - 1;
  using Vector = std::vector<int, RefusingAllocator<int>>;
  Vector v;
  if (me == 0) v.assign(1000, 5);
  refuse_allocation = me == refusing;
  if (me == refusing) {
    EXPECT_THROW(team.bcast(v), std::bad_alloc);
  } else {
    try {
      team.bcast(v);
      ADD_FAILURE() << "bcast returned on unit " << me;
    } catch (const dash::exception::RemoteFailure& e) {
      EXPECT_EQ(e.unit(), refusing);
    }
  }
  refuse_allocation = false;
  team.bcast(v);
  EXPECT_EQ(v, Vector(1000, 5));
  team.barrier();
}
