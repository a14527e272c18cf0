// Groups (local sets of global unit ids) and teams (creation from groups, split by color and by
// node, clone, parent, id translation, team memory, destruction without leaks, id reuse).
// Run plain and with DART_VIRTUAL_NODE_SIZE=2 (variant vnode2), which dart_team_split_node
// follows.
#include <dart/dart.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "dart_test_util.h"
#include "mpi_test.h"

namespace {

using dash_test::TeamUnits;

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

// Members of a group, ascending.
std::vector<int> Members(dart_group_t group) {
  size_t size = 0;
  EXPECT_EQ(dart_group_size(group, &size), DART_OK);
  std::vector<dart_global_unit_t> units(size);
  EXPECT_EQ(dart_group_getmembers(group, units.data()), DART_OK);
  std::vector<int> ids;
  for (const auto& u : units) ids.push_back(u.id);
  return ids;
}

dart_group_t MakeGroup(const std::vector<int>& units) {
  dart_group_t group = nullptr;
  EXPECT_EQ(dart_group_create(&group), DART_OK);
  for (int u : units) EXPECT_EQ(dart_group_addmember(group, DART_GLOBAL_UNIT_ID(u)), DART_OK);
  return group;
}

std::vector<int> Range(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

std::vector<int> Where(bool (*pred)(int)) {
  std::vector<int> v;
  for (int u = 0; u < N(); ++u) {
    if (pred(u)) v.push_back(u);
  }
  return v;
}

bool IsEven(int u) { return u % 2 == 0; }
bool IsOdd(int u) { return u % 2 == 1; }

// Checks that l2g and g2l invert each other on `team`, whose members in team order are
// `expected`, for every global unit (non-members map to DART_UNDEFINED_UNIT_ID).
void ExpectTranslationRoundTrips(dart_team_t team, const std::vector<int>& expected) {
  EXPECT_EQ(TeamUnits(team), expected);
  for (int g = 0; g < N(); ++g) {
    dart_team_unit_t local{-7};
    EXPECT_EQ(dart_team_unit_g2l(team, DART_GLOBAL_UNIT_ID(g), &local), DART_OK);
    auto at = std::find(expected.begin(), expected.end(), g);
    if (at == expected.end()) {
      EXPECT_EQ(local.id, DART_UNDEFINED_UNIT_ID) << "global unit " << g;
    } else {
      EXPECT_EQ(local.id, at - expected.begin()) << "global unit " << g;
      dart_global_unit_t back{-1};
      EXPECT_EQ(dart_team_unit_l2g(team, local, &back), DART_OK);
      EXPECT_EQ(back.id, g);
    }
  }
  dart_team_unit_t me{-1};
  EXPECT_EQ(dart_team_myid(team, &me), DART_OK);
  auto at = std::find(expected.begin(), expected.end(), Me());
  EXPECT_EQ(me.id, at - expected.begin());
}

// The team id every unit of DART_TEAM_ALL got (DART_TEAM_NULL as -1). Collective.
std::vector<int> AllTeamIds(dart_team_t team) {
  int mine = team;
  std::vector<int> ids(N(), -2);
  EXPECT_EQ(dart_allgather(&mine, ids.data(), 1, DART_TYPE_INT, DART_TEAM_ALL), DART_OK);
  return ids;
}

dart_runtime_stats_t Stats() {
  dart_runtime_stats_t stats{};
  EXPECT_EQ(dart_runtime_stats(&stats), DART_OK);
  return stats;
}

void ExpectSameCounts(const dart_runtime_stats_t& now, const dart_runtime_stats_t& start,
                      const std::string& where) {
  EXPECT_EQ(now.teams, start.teams) << where;
  EXPECT_EQ(now.segments, start.segments) << where;
  EXPECT_EQ(now.windows, start.windows) << where;
  EXPECT_EQ(now.communicators, start.communicators) << where;
  EXPECT_EQ(now.handles, start.handles) << where;
}

// ---- groups ----------------------------------------------------------------------------------

TEST(DartGroup, AddDelIsmemberSizeAndSortedMembers) {
  dart_group_t group = MakeGroup({});
  EXPECT_TRUE(Members(group).empty());
  EXPECT_EQ(dart_group_getmembers(group, nullptr), DART_OK);  // nothing to write
  for (int u = N() - 1; u >= 0; --u) {                        // descending, and every unit twice
    EXPECT_EQ(dart_group_addmember(group, DART_GLOBAL_UNIT_ID(u)), DART_OK);
    EXPECT_EQ(dart_group_addmember(group, DART_GLOBAL_UNIT_ID(u)), DART_OK);
  }
  EXPECT_EQ(Members(group), Range(N()));
  int32_t is = -1;
  for (int u = 0; u < N(); ++u) {
    EXPECT_EQ(dart_group_ismember(group, DART_GLOBAL_UNIT_ID(u), &is), DART_OK);
    EXPECT_EQ(is, 1);
  }
  EXPECT_EQ(dart_group_ismember(group, DART_GLOBAL_UNIT_ID(N()), &is), DART_OK);
  EXPECT_EQ(is, 0);

  const int last = N() - 1;
  EXPECT_EQ(dart_group_delmember(group, DART_GLOBAL_UNIT_ID(last)), DART_OK);
  EXPECT_EQ(dart_group_ismember(group, DART_GLOBAL_UNIT_ID(last), &is), DART_OK);
  EXPECT_EQ(is, 0);
  EXPECT_EQ(Members(group), Range(N() - 1));
  EXPECT_EQ(dart_group_delmember(group, DART_GLOBAL_UNIT_ID(last)), DART_ERR_NOTFOUND);
  EXPECT_EQ(dart_group_delmember(group, DART_GLOBAL_UNIT_ID(N() + 5)), DART_ERR_NOTFOUND);
  EXPECT_EQ(Members(group), Range(N() - 1));  // failed deletes changed nothing

  EXPECT_EQ(dart_group_destroy(&group), DART_OK);
  EXPECT_EQ(group, nullptr);
  dart_group_t empty = MakeGroup({});
  EXPECT_EQ(dart_group_delmember(empty, DART_GLOBAL_UNIT_ID(0)), DART_ERR_NOTFOUND);
  EXPECT_EQ(dart_group_destroy(&empty), DART_OK);
}

TEST(DartGroup, AddmemberRejectsUnitsOutsideTeamAll) {
  dart_group_t group = MakeGroup({0});
  EXPECT_EQ(dart_group_addmember(group, DART_GLOBAL_UNIT_ID(N())), DART_ERR_INVAL);
  EXPECT_EQ(dart_group_addmember(group, DART_GLOBAL_UNIT_ID(-1)), DART_ERR_INVAL);
  EXPECT_EQ(Members(group), std::vector<int>{0});
  EXPECT_EQ(dart_group_destroy(&group), DART_OK);
}

TEST(DartGroup, UnionAndIntersectOfEvenOddAndEmptyGroups) {
  dart_group_t evens = MakeGroup(Where(IsEven));
  dart_group_t odds = MakeGroup(Where(IsOdd));
  dart_group_t all = MakeGroup(Range(N()));
  dart_group_t empty = MakeGroup({});
  dart_group_t out = nullptr;

  EXPECT_EQ(dart_group_union(evens, odds, &out), DART_OK);
  EXPECT_EQ(Members(out), Range(N()));
  dart_group_destroy(&out);
  EXPECT_EQ(dart_group_intersect(evens, odds, &out), DART_OK);
  EXPECT_TRUE(Members(out).empty());
  dart_group_destroy(&out);
  EXPECT_EQ(dart_group_intersect(all, odds, &out), DART_OK);
  EXPECT_EQ(Members(out), Where(IsOdd));
  dart_group_destroy(&out);
  EXPECT_EQ(dart_group_union(empty, evens, &out), DART_OK);
  EXPECT_EQ(Members(out), Where(IsEven));
  dart_group_destroy(&out);
  EXPECT_EQ(dart_group_union(all, all, &out), DART_OK);
  EXPECT_EQ(Members(out), Range(N()));
  dart_group_destroy(&out);
  EXPECT_EQ(dart_group_intersect(empty, empty, &out), DART_OK);
  EXPECT_TRUE(Members(out).empty());
  dart_group_destroy(&out);
  // The inputs are untouched.
  EXPECT_EQ(Members(evens), Where(IsEven));
  EXPECT_EQ(Members(odds), Where(IsOdd));
  for (dart_group_t* g : {&evens, &odds, &all, &empty}) EXPECT_EQ(dart_group_destroy(g), DART_OK);
}

TEST(DartGroup, CloneIsAnIndependentCopy) {
  dart_group_t group = MakeGroup(Range(N()));
  dart_group_t copy = nullptr;
  EXPECT_EQ(dart_group_clone(group, &copy), DART_OK);
  EXPECT_EQ(Members(copy), Range(N()));
  EXPECT_EQ(dart_group_delmember(copy, DART_GLOBAL_UNIT_ID(0)), DART_OK);
  EXPECT_EQ(Members(group), Range(N()));
  EXPECT_EQ(Members(copy).size(), static_cast<size_t>(N() - 1));
  dart_group_t empty = MakeGroup({}), empty_copy = nullptr;
  EXPECT_EQ(dart_group_clone(empty, &empty_copy), DART_OK);
  EXPECT_TRUE(Members(empty_copy).empty());
  for (dart_group_t* g : {&group, &copy, &empty, &empty_copy}) dart_group_destroy(g);
}

// Splits `units` into n parts and checks: min(n, size) non-empty parts of consecutive members
// whose sizes differ by at most one, covering every member once; the other entries NULL.
void ExpectBalancedSplit(const std::vector<int>& units, size_t n) {
  SCOPED_TRACE("split of " + std::to_string(units.size()) + " members into " + std::to_string(n));
  dart_group_t group = MakeGroup(units);
  std::vector<dart_group_t> parts(n, reinterpret_cast<dart_group_t>(&group));  // garbage
  size_t nout = 12345;
  EXPECT_EQ(dart_group_split(group, n, &nout, parts.data()), DART_OK);
  EXPECT_EQ(nout, std::min(n, units.size()));
  std::vector<int> joined;
  size_t smallest = SIZE_MAX, largest = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i >= nout) {
      EXPECT_EQ(parts[i], nullptr) << "part " << i;
      continue;
    }
    ASSERT_NE(parts[i], nullptr) << "part " << i;
    std::vector<int> members = Members(parts[i]);
    EXPECT_FALSE(members.empty()) << "part " << i;
    smallest = std::min(smallest, members.size());
    largest = std::max(largest, members.size());
    joined.insert(joined.end(), members.begin(), members.end());
    dart_group_destroy(&parts[i]);
  }
  if (nout > 0) {
    EXPECT_LE(largest - smallest, 1u);
  }
  EXPECT_EQ(joined, units);  // consecutive, in order, each member once
  EXPECT_EQ(Members(group), units);
  dart_group_destroy(&group);
}

TEST(DartGroup, SplitGivesBalancedConsecutiveParts) {
  std::vector<int> all = Range(N());
  std::vector<int> without_first(all.begin() + 1, all.end());  // N - 1 members: odd for N = 2, 4
  for (size_t n :
       {size_t{1}, size_t{2}, size_t{3}, static_cast<size_t>(N()), static_cast<size_t>(N() + 3)}) {
    ExpectBalancedSplit(all, n);
    ExpectBalancedSplit(without_first, n);
    ExpectBalancedSplit(Where(IsOdd), n);
    ExpectBalancedSplit({}, n);
  }
}

TEST(DartGroup, SplitIntoZeroPartsIsRejected) {
  dart_group_t group = MakeGroup(Range(N()));
  dart_group_t parts[1] = {nullptr};
  size_t nout = 0;
  EXPECT_EQ(dart_group_split(group, 0, &nout, parts), DART_ERR_INVAL);
  dart_group_destroy(&group);
}

// ---- teams -----------------------------------------------------------------------------------

TEST(DartTeam, TeamAllHasEveryUnitAndNoParent) {
  ExpectTranslationRoundTrips(DART_TEAM_ALL, Range(N()));
  dart_team_t parent = 123;
  EXPECT_EQ(dart_team_get_parent(DART_TEAM_ALL, &parent), DART_OK);
  EXPECT_EQ(parent, DART_TEAM_NULL);
  dart_group_t group = nullptr;
  EXPECT_EQ(dart_team_get_group(DART_TEAM_ALL, &group), DART_OK);
  EXPECT_EQ(Members(group), Range(N()));
  dart_group_destroy(&group);
  dart_team_t all = DART_TEAM_ALL;
  EXPECT_EQ(dart_team_destroy(&all), DART_ERR_INVAL);
  EXPECT_EQ(all, DART_TEAM_ALL);
}

TEST(DartTeam, CreateFromEvenUnitsGivesOddUnitsNullTeam) {
  const std::vector<int> evens = Where(IsEven);
  dart_group_t group = MakeGroup(evens);
  dart_team_t team = 77;
  EXPECT_EQ(dart_team_create(DART_TEAM_ALL, group, &team), DART_OK);
  dart_group_destroy(&group);
  std::vector<int> ids = AllTeamIds(team);
  for (int u = 0; u < N(); ++u) {
    if (IsEven(u)) {
      EXPECT_EQ(ids[u], ids[0]) << "even unit " << u << " got another team id";
      EXPECT_NE(ids[u], DART_TEAM_NULL);
      EXPECT_NE(ids[u], DART_TEAM_ALL);
    } else {
      EXPECT_EQ(ids[u], DART_TEAM_NULL) << "odd unit " << u;
    }
  }
  if (team != DART_TEAM_NULL) {
    size_t size = 0;
    EXPECT_EQ(dart_team_size(team, &size), DART_OK);
    EXPECT_EQ(size, evens.size());
    ExpectTranslationRoundTrips(team, evens);
    dart_team_t parent = DART_TEAM_NULL;
    EXPECT_EQ(dart_team_get_parent(team, &parent), DART_OK);
    EXPECT_EQ(parent, DART_TEAM_ALL);
    dart_group_t members = nullptr;
    EXPECT_EQ(dart_team_get_group(team, &members), DART_OK);
    EXPECT_EQ(Members(members), evens);
    dart_group_destroy(&members);
    // A collective on the new team sees exactly its members.
    int mine = Me(), sum = -1;
    EXPECT_EQ(dart_allreduce(&mine, &sum, 1, DART_TYPE_INT, DART_OP_SUM, team), DART_OK);
    int expected = 0;
    for (int u : evens) expected += u;
    EXPECT_EQ(sum, expected);
    EXPECT_EQ(dart_team_destroy(&team), DART_OK);
    EXPECT_EQ(team, DART_TEAM_NULL);
  }
}

TEST(DartTeam, CreateFromEmptyGroupGivesEveryoneNullTeam) {
  dart_group_t group = MakeGroup({});
  dart_team_t team = 77;
  EXPECT_EQ(dart_team_create(DART_TEAM_ALL, group, &team), DART_OK);
  EXPECT_EQ(team, DART_TEAM_NULL);
  dart_group_destroy(&group);
}

TEST(DartTeam, SplitByColorOrdersUnitsByKeyThenUnitId) {
  // Colors by parity; key -id reverses the order inside each team.
  dart_team_t team = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, Me() % 2, -Me(), &team), DART_OK);
  std::vector<int> same = Where(Me() % 2 == 0 ? IsEven : IsOdd);
  std::vector<int> reversed(same.rbegin(), same.rend());
  if (team != DART_TEAM_NULL) {
    ExpectTranslationRoundTrips(team, reversed);
    dart_team_t parent = DART_TEAM_NULL;
    EXPECT_EQ(dart_team_get_parent(team, &parent), DART_OK);
    EXPECT_EQ(parent, DART_TEAM_ALL);
    // Broadcast from team unit 0 (the highest global id of the color) reaches every member.
    int value = Me();
    EXPECT_EQ(dart_bcast(&value, 1, DART_TYPE_INT, DART_TEAM_UNIT_ID(0), team), DART_OK);
    EXPECT_EQ(value, reversed.front());
  }
  EXPECT_NE(team, DART_TEAM_NULL);
  EXPECT_EQ(dart_team_destroy(&team), DART_OK);

  // Equal keys: order by unit id. One color for all: a team of every unit.
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, 5, 0, &team), DART_OK);
  ExpectTranslationRoundTrips(team, Range(N()));
  EXPECT_EQ(dart_team_destroy(&team), DART_OK);

  // Keys that group the upper half first: key = (id < N/2), ties by unit id.
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, 0, Me() < N() / 2 ? 1 : 0, &team), DART_OK);
  std::vector<int> expected;
  for (int u = N() / 2; u < N(); ++u) expected.push_back(u);
  for (int u = 0; u < N() / 2; ++u) expected.push_back(u);
  ExpectTranslationRoundTrips(team, expected);
  EXPECT_EQ(dart_team_destroy(&team), DART_OK);
}

TEST(DartTeam, SplitWithNegativeColorGivesNullTeam) {
  dart_team_t team = 77;
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, Me() == 0 ? -1 : 3, Me(), &team), DART_OK);
  if (Me() == 0) {
    EXPECT_EQ(team, DART_TEAM_NULL);
  } else {
    std::vector<int> rest = Range(N());
    rest.erase(rest.begin());
    EXPECT_NE(team, DART_TEAM_NULL);
    if (team != DART_TEAM_NULL) ExpectTranslationRoundTrips(team, rest);
    EXPECT_EQ(dart_team_destroy(&team), DART_OK);
  }
}

TEST(DartTeam, SplitNodeFollowsVirtualNodeSize) {
  // A node team holds the units of the caller's host, cut into groups of k consecutive units
  // by DART_VIRTUAL_NODE_SIZE=k.
  const char* env = std::getenv("DART_VIRTUAL_NODE_SIZE");
  std::vector<int> expected;
  for (int u = 0; u < N(); ++u) {
    if (dash_test::ExpectedNode(u) == dash_test::ExpectedNode(Me())) expected.push_back(u);
  }
  dart_team_t node = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_split_node(DART_TEAM_ALL, &node), DART_OK);
  EXPECT_NE(node, DART_TEAM_NULL);
  size_t size = 0;
  EXPECT_EQ(dart_team_size(node, &size), DART_OK);
  EXPECT_EQ(size, expected.size()) << "DART_VIRTUAL_NODE_SIZE=" << (env ? env : "(unset)");
  ExpectTranslationRoundTrips(node, expected);
  // Node teams of a sub-team: the odd units split further.
  dart_team_t odd = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, Me() % 2, Me(), &odd), DART_OK);
  dart_team_t odd_node = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_split_node(odd, &odd_node), DART_OK);
  std::vector<int> expected_odd;
  for (int u : expected) {
    if (u % 2 == Me() % 2) expected_odd.push_back(u);
  }
  ExpectTranslationRoundTrips(odd_node, expected_odd);
  dart_team_t parent = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_get_parent(odd_node, &parent), DART_OK);
  EXPECT_EQ(parent, odd);
  EXPECT_EQ(dart_team_destroy(&odd_node), DART_OK);
  EXPECT_EQ(dart_team_destroy(&odd), DART_OK);
  EXPECT_EQ(dart_team_destroy(&node), DART_OK);
}

TEST(DartTeam, CloneHasSameMembersNewIdAndOwnCollectives) {
  dart_team_t odd = DART_TEAM_NULL, clone = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, Me() % 2, -Me(), &odd), DART_OK);
  EXPECT_EQ(dart_team_clone(odd, &clone), DART_OK);
  EXPECT_NE(clone, DART_TEAM_NULL);
  EXPECT_NE(clone, odd);
  EXPECT_NE(clone, DART_TEAM_ALL);
  EXPECT_EQ(TeamUnits(clone), TeamUnits(odd));
  dart_team_t parent = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_get_parent(clone, &parent), DART_OK);
  EXPECT_EQ(parent, odd);
  int mine = 1, count = 0;
  EXPECT_EQ(dart_allreduce(&mine, &count, 1, DART_TYPE_INT, DART_OP_SUM, clone), DART_OK);
  EXPECT_EQ(count, static_cast<int>(TeamUnits(odd).size()));
  // Destroying the parent first leaves the clone working.
  EXPECT_EQ(dart_team_destroy(&odd), DART_OK);
  EXPECT_EQ(dart_barrier(clone), DART_OK);
  EXPECT_EQ(dart_team_get_parent(clone, &parent), DART_OK);
  EXPECT_EQ(dart_team_destroy(&clone), DART_OK);
}

TEST(DartTeam, MemoryOnSubTeamsIsPrivateToTheTeam) {
  dart_team_t team = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, Me() % 2, -Me(), &team), DART_OK);
  dart_team_unit_t me{-1};
  size_t size = 0;
  EXPECT_EQ(dart_team_myid(team, &me), DART_OK);
  EXPECT_EQ(dart_team_size(team, &size), DART_OK);
  const int n = static_cast<int>(size), nelem = 5;
  dart_gptr_t gptr = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(team, nelem, DART_TYPE_INT, &gptr), DART_OK);
  EXPECT_EQ(gptr.teamid, team);
  EXPECT_EQ(gptr.unitid, 0);
  // Own part through the local address; the right neighbour's first element by a put.
  dart_gptr_t mine = gptr;
  EXPECT_EQ(dart_gptr_setunit(&mine, me), DART_OK);
  int* local = nullptr;
  EXPECT_EQ(dart_gptr_getaddr(mine, reinterpret_cast<void**>(&local)), DART_OK);
  EXPECT_NE(local, nullptr);
  if (local != nullptr) {
    for (int i = 0; i < nelem; ++i) local[i] = 1000 * Me() + i;
  }
  EXPECT_EQ(dart_barrier(team), DART_OK);
  dart_gptr_t right = gptr;
  EXPECT_EQ(dart_gptr_setunit(&right, DART_TEAM_UNIT_ID((me.id + 1) % n)), DART_OK);
  int tag = -Me() - 1;
  EXPECT_EQ(dart_put_blocking(right, &tag, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(dart_barrier(team), DART_OK);
  for (int u = 0; u < n; ++u) {
    dart_gptr_t part = gptr;
    EXPECT_EQ(dart_gptr_setunit(&part, DART_TEAM_UNIT_ID(u)), DART_OK);
    std::vector<int> got(nelem, -99);
    EXPECT_EQ(dart_get_blocking(got.data(), part, nelem, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
    dart_global_unit_t owner{-1}, left{-1};
    EXPECT_EQ(dart_team_unit_l2g(team, DART_TEAM_UNIT_ID(u), &owner), DART_OK);
    EXPECT_EQ(dart_team_unit_l2g(team, DART_TEAM_UNIT_ID((u + n - 1) % n), &left), DART_OK);
    EXPECT_EQ(got[0], -left.id - 1) << "team unit " << u;
    for (int i = 1; i < nelem; ++i) EXPECT_EQ(got[i], 1000 * owner.id + i) << "team unit " << u;
  }
  // A unit of the team cannot be addressed beyond the team's size.
  dart_gptr_t beyond = gptr;
  EXPECT_EQ(dart_gptr_setunit(&beyond, DART_TEAM_UNIT_ID(n)), DART_OK);
  int dummy = 0;
  EXPECT_EQ(dart_get_blocking(&dummy, beyond, 1, DART_TYPE_INT, DART_TYPE_INT), DART_ERR_INVAL);
  EXPECT_EQ(dart_barrier(team), DART_OK);
  EXPECT_EQ(dart_team_memfree(gptr), DART_OK);
  EXPECT_EQ(dart_team_destroy(&team), DART_OK);
}

TEST(DartTeam, SplitCreateDestroyLoopLeaksNothing) {
  const dart_runtime_stats_t start = Stats();
  const int iterations = 300;
  for (int it = 0; it < iterations; ++it) {
    dart_team_t team = DART_TEAM_NULL;
    std::vector<int> members;
    if (it % 2 == 0) {  // split by a color that moves with the iteration
      const int color = (Me() + it / 2) % 2;
      EXPECT_EQ(dart_team_split(DART_TEAM_ALL, color, it % 3 == 0 ? -Me() : Me(), &team), DART_OK);
      for (int u = 0; u < N(); ++u) {
        if ((u + it / 2) % 2 == color) members.push_back(u);
      }
    } else {  // create from the units with (u + it) % 3 != 0 (sometimes none)
      for (int u = 0; u < N(); ++u) {
        if ((u + it) % 3 != 0) members.push_back(u);
      }
      dart_group_t group = MakeGroup(members);
      EXPECT_EQ(dart_team_create(DART_TEAM_ALL, group, &team), DART_OK);
      dart_group_destroy(&group);
    }
    const bool member = std::find(members.begin(), members.end(), Me()) != members.end();
    EXPECT_EQ(team != DART_TEAM_NULL, member) << "iteration " << it;
    if (team != DART_TEAM_NULL) {
      dart_gptr_t gptr = DART_GPTR_NULL;
      EXPECT_EQ(dart_team_memalloc_aligned(team, 1 + it % 5, DART_TYPE_INT, &gptr), DART_OK);
      dart_team_unit_t me{-1};
      EXPECT_EQ(dart_team_myid(team, &me), DART_OK);
      EXPECT_EQ(dart_gptr_setunit(&gptr, me), DART_OK);
      int* local = nullptr;
      EXPECT_EQ(dart_gptr_getaddr(gptr, reinterpret_cast<void**>(&local)), DART_OK);
      EXPECT_NE(local, nullptr);
      if (local != nullptr) *local = Me() + it;
      int mine = -1, sum = -1;
      EXPECT_EQ(dart_get_blocking(&mine, gptr, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
      EXPECT_EQ(dart_allreduce(&mine, &sum, 1, DART_TYPE_INT, DART_OP_SUM, team), DART_OK);
      int expected = 0;
      for (int u : members) expected += u + it;
      EXPECT_EQ(sum, expected) << "iteration " << it;
      if (it % 25 == 1) {  // now and then a lock, freed before the team
        dart_lock_t lock = nullptr;
        EXPECT_EQ(dart_team_lock_init(team, &lock), DART_OK);
        EXPECT_EQ(dart_lock_acquire(lock), DART_OK);
        EXPECT_EQ(dart_lock_release(lock), DART_OK);
        EXPECT_EQ(dart_team_lock_free(team, &lock), DART_OK);
      }
      if (it % 4 < 2) {  // else destroy frees it
        EXPECT_EQ(dart_team_memfree(gptr), DART_OK);
      }
      EXPECT_EQ(dart_team_destroy(&team), DART_OK);
    }
    if (it % 50 == 49) ExpectSameCounts(Stats(), start, "after iteration " + std::to_string(it));
  }
  ExpectSameCounts(Stats(), start, "after the loop");
}

TEST(DartTeam, TeamIdsAreReusedOnlyAfterDestroy) {
  // A team held by unit 0 alone: its id must not be handed out while it lives, even though the
  // other units do not know it.
  dart_group_t only0 = MakeGroup({0});
  dart_team_t solo = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_create(DART_TEAM_ALL, only0, &solo), DART_OK);
  dart_group_destroy(&only0);
  EXPECT_EQ(solo != DART_TEAM_NULL, Me() == 0);

  dart_team_t a = DART_TEAM_NULL, b = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_clone(DART_TEAM_ALL, &a), DART_OK);
  EXPECT_EQ(dart_team_clone(DART_TEAM_ALL, &b), DART_OK);
  for (dart_team_t t : {a, b}) {
    EXPECT_NE(t, DART_TEAM_NULL);
    EXPECT_NE(t, DART_TEAM_ALL);
    if (solo != DART_TEAM_NULL) {
      EXPECT_NE(t, solo);
    }
    std::vector<int> ids = AllTeamIds(t);
    for (int u = 0; u < N(); ++u) EXPECT_EQ(ids[u], ids[0]) << "unit " << u;
  }
  EXPECT_NE(a, b);

  // Memory of b stays reachable through its gptr while ids are freed and handed out again.
  dart_gptr_t gptr = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(b, 1, DART_TYPE_INT, &gptr), DART_OK);
  EXPECT_EQ(dart_gptr_setunit(&gptr, DART_TEAM_UNIT_ID(Me())), DART_OK);
  const int value = 4242 + Me();
  EXPECT_EQ(dart_put_blocking(gptr, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);

  const dart_team_t old_a = a;
  EXPECT_EQ(dart_team_destroy(&a), DART_OK);
  size_t size = 0;
  EXPECT_EQ(dart_team_size(old_a, &size), DART_ERR_INVAL);  // gone

  std::vector<dart_team_t> fresh;
  for (int i = 0; i < 3; ++i) {
    dart_team_t c = DART_TEAM_NULL;
    EXPECT_EQ(dart_team_clone(DART_TEAM_ALL, &c), DART_OK);
    EXPECT_NE(c, b);
    EXPECT_NE(c, DART_TEAM_ALL);
    if (solo != DART_TEAM_NULL) {
      EXPECT_NE(c, solo);
    }
    for (dart_team_t f : fresh) EXPECT_NE(c, f);
    fresh.push_back(c);
  }
  int got = -1;
  EXPECT_EQ(dart_get_blocking(&got, gptr, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(got, value);
  EXPECT_EQ(dart_team_memfree(gptr), DART_OK);
  for (dart_team_t& c : fresh) EXPECT_EQ(dart_team_destroy(&c), DART_OK);
  EXPECT_EQ(dart_team_destroy(&b), DART_OK);
  if (solo != DART_TEAM_NULL) {
    EXPECT_EQ(dart_team_destroy(&solo), DART_OK);
  }
}

}  // namespace
