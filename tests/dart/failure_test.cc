// Failures agreed by every unit, and stale handles rejected: a collective allocation that a node
// cannot back, that the units ask for in different sizes, or whose set-up runs out of memory on
// one unit returns the same error on every unit (none is left waiting); pointers to freed memory
// (team segments, the local pool) and to segments or teams whose ids were reused since are
// rejected with DART_ERR_INVAL and never reach the new memory; a copy of a destroyed group is
// rejected. Run plain and as the variants shm_off / vnode1 (see CMakeLists.txt).
#include <dart/dart.h>
#include <sys/sysinfo.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dart_test_util.h"
#include "mpi_test.h"

// Test hook of the runtime (dart_internal.h): the n-th next collective set-up on this unit
// behaves as if memory ran out, before it communicates.
extern "C" int dart__test_fail_collective_setup;
// Test hook: the next segment id a team tries (on every unit), to reach the wrap quickly.
extern "C" void dart__test_set_next_segid(dart_team_t teamid, int16_t segid);

namespace {

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

// Every unit's value of x (to check that all units got the same result). Collective.
std::vector<int> AllValues(int x) {
  std::vector<int> all(N(), -1);
  EXPECT_EQ(dart_allgather(&x, all.data(), 1, DART_TYPE_INT, DART_TEAM_ALL), DART_OK);
  return all;
}

void ExpectEveryUnitGot(dart_ret_t mine, dart_ret_t expected, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(mine, expected);
  std::vector<int> all = AllValues(mine);
  for (int u = 0; u < N(); ++u) EXPECT_EQ(all[u], expected) << "unit " << u;
}

// A working allocation after a failed one: every unit writes its id, reads its neighbour's.
void ExpectAllocationStillWorks() {
  dart_gptr_t g = DART_GPTR_NULL;
  ASSERT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 1, DART_TYPE_INT, &g), DART_OK);
  dart_gptr_t mine = g;
  mine.unitid = Me();
  const int value = 100 + Me();
  EXPECT_EQ(dart_put_blocking(mine, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  dart_gptr_t next = g;
  next.unitid = (Me() + 1) % N();
  int got = -1;
  EXPECT_EQ(dart_get_blocking(&got, next, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(got, 100 + (Me() + 1) % N());
  EXPECT_EQ(dart_team_memfree(g), DART_OK);
}

uint64_t NodeMemoryBytes() {
  struct sysinfo info {};
  EXPECT_EQ(sysinfo(&info), 0);
  return (static_cast<uint64_t>(info.totalram) + info.totalswap) * info.mem_unit;
}

// ---- allocation agreement --------------------------------------------------------------------

TEST(DartAllocationAgreement, MoreThanTheNodeCanBackFailsOnEveryUnit) {
  dart_gptr_t g = DART_GPTR_NULL;
  // 2^60 bytes per unit, and just more than the node's memory and swap for this unit alone.
  for (uint64_t nbytes : {uint64_t{1} << 60, NodeMemoryBytes() + 4096}) {
    ExpectEveryUnitGot(dart_team_memalloc_aligned(DART_TEAM_ALL, nbytes, DART_TYPE_BYTE, &g),
                       DART_ERR_NOMEM, std::to_string(nbytes) + " bytes per unit");
    EXPECT_TRUE(DART_GPTR_ISNULL(g));
  }
  // 16 GiB per unit on a sub-team: fails on every unit when some node cannot back it (a host
  // of this machine's size with 2 or more units), never on some units only.
  dart_team_t clone = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_clone(DART_TEAM_ALL, &clone), DART_OK);
  const uint64_t big = uint64_t{16} << 30;
  dart_ret_t ret = dart_team_memalloc_aligned(clone, big, DART_TYPE_BYTE, &g);
  const std::vector<int>& hosts = dash_test::RankHosts();
  uint64_t most_units_on_a_host = 0;
  for (int host : hosts) {
    const auto units = std::count(hosts.begin(), hosts.end(), host);
    most_units_on_a_host = std::max(most_units_on_a_host, static_cast<uint64_t>(units));
  }
  if (most_units_on_a_host * big > NodeMemoryBytes()) {
    ExpectEveryUnitGot(ret, DART_ERR_NOMEM, "16 GiB per unit");
  } else {
    std::vector<int> all = AllValues(ret);
    for (int u = 0; u < N(); ++u) EXPECT_EQ(all[u], all[0]) << "unit " << u;
    if (ret == DART_OK) {
      EXPECT_EQ(dart_team_memfree(g), DART_OK);
    }
  }
  EXPECT_EQ(dart_team_destroy(&clone), DART_OK);
  ExpectAllocationStillWorks();
}

TEST(DartAllocationAgreement, DifferentSizesOnTheUnitsFailOnEveryUnit) {
  if (N() < 2) GTEST_SKIP() << "needs two units";
  dart_gptr_t g = DART_GPTR_NULL;
  const size_t nelem = Me() == 0 ? 10 : 20;
  ExpectEveryUnitGot(dart_team_memalloc_aligned(DART_TEAM_ALL, nelem, DART_TYPE_INT, &g),
                     DART_ERR_INVAL, "10 ints on unit 0, 20 elsewhere");
  // A bad argument on one unit only: the others do not wait for it.
  const size_t bad = Me() == N() - 1 ? SIZE_MAX : 4;
  ExpectEveryUnitGot(dart_team_memalloc_aligned(DART_TEAM_ALL, bad, DART_TYPE_INT, &g),
                     DART_ERR_INVAL, "overflowing size on the last unit");
  // The caller's check value (e.g. a hash of a container's extents) must agree too.
  ExpectEveryUnitGot(
      dart_team_memalloc_aligned_checked(DART_TEAM_ALL, 4, DART_TYPE_INT, Me() == 0 ? 7 : 8, &g),
      DART_ERR_INVAL, "different check values");
  EXPECT_TRUE(DART_GPTR_ISNULL(g));
  ExpectEveryUnitGot(dart_team_memalloc_aligned_checked(DART_TEAM_ALL, 4, DART_TYPE_INT, 7, &g),
                     DART_OK, "equal check values");
  EXPECT_EQ(dart_team_memfree(g), DART_OK);
  ExpectAllocationStillWorks();
}

TEST(DartAllocationAgreement, SetupOutOfMemoryOnOneUnitFailsOnEveryUnit) {
  const bool failing = Me() == N() - 1;
  dart_gptr_t g = DART_GPTR_NULL;
  if (failing) dart__test_fail_collective_setup = 1;
  ExpectEveryUnitGot(dart_team_memalloc_aligned(DART_TEAM_ALL, 8, DART_TYPE_INT, &g),
                     DART_ERR_NOMEM, "segment set-up");
  EXPECT_TRUE(DART_GPTR_ISNULL(g));
  // Team set-up: the new team's units agree before they exchange their ids.
  dart_team_t clone = DART_TEAM_NULL;
  if (failing) dart__test_fail_collective_setup = 1;
  ExpectEveryUnitGot(dart_team_clone(DART_TEAM_ALL, &clone), DART_ERR_NOMEM, "team set-up");
  EXPECT_EQ(clone, DART_TEAM_NULL);
  EXPECT_EQ(dart__test_fail_collective_setup, 0);
  ExpectAllocationStillWorks();
}

// ---- stale pointers --------------------------------------------------------------------------

TEST(DartStalePointer, FreedTeamMemoryIsRejectedEvenWhenItsSegmentIdIsReused) {
  dart_gptr_t old = DART_GPTR_NULL;
  ASSERT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 4, DART_TYPE_INT, &old), DART_OK);
  old.unitid = Me();
  EXPECT_EQ(dart_team_memfree(old), DART_OK);
  const int value = 77;
  EXPECT_EQ(dart_put_blocking(old, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_ERR_INVAL);
  // A freed segment's id is the next one given out (DASH's order): the new segment has the old
  // one's id, the old pointer must still be rejected, the new one work.
  dart_gptr_t reused = DART_GPTR_NULL;
  ASSERT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 4, DART_TYPE_INT, &reused), DART_OK);
  ASSERT_EQ(reused.segid, old.segid);
  reused.unitid = Me();
  const int fresh = 5;
  EXPECT_EQ(dart_put_blocking(reused, &fresh, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  dart_gptr_t again = old;
  again.segid = reused.segid;  // same team, same segment id, old generation
  EXPECT_EQ(dart_put_blocking(again, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_ERR_INVAL);
  int got = -1;
  EXPECT_EQ(dart_get_blocking(&got, again, 1, DART_TYPE_INT, DART_TYPE_INT), DART_ERR_INVAL);
  EXPECT_EQ(dart_get_blocking(&got, reused, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(got, 5);
  EXPECT_EQ(dart_team_memfree(again), DART_ERR_INVAL);  // every unit: no hang
  EXPECT_EQ(dart_team_memfree(reused), DART_OK);
}

TEST(DartStalePointer, SegmentIdsWrapAroundAndStalePointersStayRejected) {
  // Without a freed id to take, ids run on through the 32,767 ids of a team and then start again
  // at the lowest free one (the hook skips most of them; the generations advance by one per
  // allocation): a pointer into a freed segment whose id comes round again is still rejected.
  dart__test_set_next_segid(DART_TEAM_ALL, 32767);
  dart_gptr_t last = DART_GPTR_NULL, wrapped = DART_GPTR_NULL, held = DART_GPTR_NULL;
  ASSERT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 4, DART_TYPE_INT, &last), DART_OK);
  EXPECT_EQ(last.segid, 32767);
  ASSERT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 4, DART_TYPE_INT, &wrapped), DART_OK);
  EXPECT_GT(wrapped.segid, 0);
  EXPECT_LT(wrapped.segid, 32767);
  const int16_t wrapped_id = wrapped.segid;
  wrapped.unitid = Me();
  EXPECT_EQ(dart_team_memfree(wrapped), DART_OK);
  ASSERT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 4, DART_TYPE_INT, &held), DART_OK);
  ASSERT_EQ(held.segid, wrapped_id);  // the freed id first
  const int value = 3;
  EXPECT_EQ(dart_put_blocking(wrapped, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_ERR_INVAL);
  held.unitid = Me();
  EXPECT_EQ(dart_put_blocking(held, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(dart_team_memfree(held), DART_OK);
  EXPECT_EQ(dart_team_memfree(last), DART_OK);
}

TEST(DartStalePointer, MemoryOfADestroyedTeamIsNotReachedThroughTheNextTeamWithItsId) {
  dart_team_t first = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_clone(DART_TEAM_ALL, &first), DART_OK);
  const dart_team_t first_id = first;
  dart_gptr_t stale = DART_GPTR_NULL;
  ASSERT_EQ(dart_team_memalloc_aligned(first, 2, DART_TYPE_INT, &stale), DART_OK);
  EXPECT_EQ(dart_team_destroy(&first), DART_OK);
  dart_team_t second = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_clone(DART_TEAM_ALL, &second), DART_OK);
  ASSERT_EQ(second, first_id) << "the test expects the lowest free id to be taken again";
  dart_gptr_t live = DART_GPTR_NULL;
  ASSERT_EQ(dart_team_memalloc_aligned(second, 2, DART_TYPE_INT, &live), DART_OK);
  ASSERT_EQ(live.segid, stale.segid);  // same team id, same segment id
  live.unitid = Me();
  stale.unitid = Me();
  const int mine[2] = {Me(), Me()};
  EXPECT_EQ(dart_put_blocking(live, mine, 2, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(dart_barrier(second), DART_OK);
  for (int u = 0; u < N(); ++u) {
    dart_gptr_t s = stale;
    s.unitid = u;
    const int garbage[2] = {-1, -1};
    EXPECT_EQ(dart_put_blocking(s, garbage, 2, DART_TYPE_INT, DART_TYPE_INT), DART_ERR_INVAL);
    void* addr = reinterpret_cast<void*>(0x1);
    EXPECT_EQ(dart_gptr_getaddr(s, &addr), DART_ERR_INVAL);
  }
  EXPECT_EQ(dart_barrier(second), DART_OK);
  int got[2] = {-7, -7};
  EXPECT_EQ(dart_get_blocking(got, live, 2, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(got[0], Me());
  EXPECT_EQ(got[1], Me());
  EXPECT_EQ(dart_team_destroy(&second), DART_OK);
}

TEST(DartStalePointer, PoolMemoryFreedByItsOwnerIsRejectedOnTheOwner) {
  dart_gptr_t block = DART_GPTR_NULL;
  ASSERT_EQ(dart_memalloc(4, DART_TYPE_INT, &block), DART_OK);
  const int values[4] = {1, 2, 3, 4};
  EXPECT_EQ(dart_put_blocking(block, values, 4, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(dart_memfree(block), DART_OK);
  EXPECT_EQ(dart_put_blocking(block, values, 1, DART_TYPE_INT, DART_TYPE_INT), DART_ERR_INVAL);
  int got = 0;
  EXPECT_EQ(dart_get_blocking(&got, block, 1, DART_TYPE_INT, DART_TYPE_INT), DART_ERR_INVAL);
  void* addr = nullptr;
  EXPECT_EQ(dart_gptr_getaddr(block, &addr), DART_ERR_INVAL);
  // A live block in the pool is still reached, up to its end and not beyond it.
  dart_gptr_t live = DART_GPTR_NULL;
  ASSERT_EQ(dart_memalloc(16, DART_TYPE_INT, &live), DART_OK);
  EXPECT_EQ(dart_put_blocking(live, values, 4, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(dart_get_blocking(&got, live, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(got, 1);
  EXPECT_EQ(dart_memfree(live), DART_OK);
}

// ---- groups ----------------------------------------------------------------------------------

TEST(DartStaleGroup, CopyOfADestroyedGroupIsRejected) {
  dart_group_t group = nullptr;
  ASSERT_EQ(dart_group_create(&group), DART_OK);
  EXPECT_EQ(dart_group_addmember(group, DART_GLOBAL_UNIT_ID(0)), DART_OK);
  dart_group_t copy = group;
  EXPECT_EQ(dart_group_destroy(&group), DART_OK);
  EXPECT_EQ(group, nullptr);
  // A new group must not take the destroyed one's place.
  dart_group_t other = nullptr;
  ASSERT_EQ(dart_group_create(&other), DART_OK);
  EXPECT_EQ(dart_group_destroy(&copy), DART_ERR_INVAL);
  size_t size = 99;
  EXPECT_EQ(dart_group_size(copy, &size), DART_ERR_INVAL);
  EXPECT_EQ(size, 99u);
  EXPECT_EQ(dart_group_addmember(copy, DART_GLOBAL_UNIT_ID(0)), DART_ERR_INVAL);
  dart_group_t out = nullptr;
  EXPECT_EQ(dart_group_union(copy, other, &out), DART_ERR_INVAL);
  EXPECT_EQ(dart_group_clone(copy, &out), DART_ERR_INVAL);
  EXPECT_EQ(out, nullptr);
  dart_team_t team = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_create(DART_TEAM_ALL, copy, &team), DART_ERR_INVAL);  // every unit
  EXPECT_EQ(dart_group_size(other, &size), DART_OK);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(dart_group_destroy(&other), DART_OK);
}

}  // namespace
