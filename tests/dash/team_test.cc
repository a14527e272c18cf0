// dash::Team: the team of all units, split into consecutive parts,
// locality_split by (real or emulated) node, id translation, nesting.
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

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

TEST(Team, RelativeIdOfNonMemberThrows) {
  dash::Team& sub = dash::Team::All().split(nunits());  // one unit each
  EXPECT_EQ(sub.size(), 1u);
  if (nunits() > 1) {
    EXPECT_THROW(sub.relative_id(dash::global_unit_t((myid() + 1) % nunits())),
                 dash::exception::InvalidArgument);
  }
  dash::barrier();
}

// Units per node: DART_VIRTUAL_NODE_SIZE when set (the test's variants), else all (one host).
int UnitsPerNode() {
  const char* v = std::getenv("DART_VIRTUAL_NODE_SIZE");
  return v ? std::atoi(v) : nunits();
}

TEST(Team, LocalitySplitByNode) {
  dash::Team& node = dash::Team::All().locality_split(dash::LocalityScope::Node);
  int per_node = UnitsPerNode();
  int first = myid() / per_node * per_node;
  int expected = std::min(per_node, nunits() - first);
  ASSERT_EQ(node.size(), std::size_t(expected));
  for (int i = 0; i < expected; ++i)
    EXPECT_EQ(int(node.global_id(dash::team_unit_t(i))), first + i);
  node.barrier();
}

}  // namespace
