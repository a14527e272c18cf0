// Team locks: mutual exclusion for a non-atomic read-modify-write, try_acquire while the lock
// is held and when it is free, misuse errors, locks on sub-teams, and no leaks when many locks
// are created and freed.
#include <dart/dart.h>
#include <gtest/gtest.h>
#include <sched.h>

#include <string>
#include <vector>

#include "dart_test_util.h"
#include "mpi_test.h"

namespace {

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

void Barrier(dart_team_t team = DART_TEAM_ALL) { EXPECT_EQ(DART_OK, dart_barrier(team)); }

// nelem longs on every unit of a team, zeroed; freed at scope exit (collective).
class TeamLongs : public dash_test::TeamArray<long> {
 public:
  TeamLongs(size_t nelem, dart_team_t team) : TeamArray<long>(nelem, team) {
    if (Local() != nullptr) Fill(0);
  }
};

long AtomicAdd(dart_gptr_t p, long delta) {
  long old = -999;
  EXPECT_EQ(DART_OK, dart_fetch_and_op(p, &delta, &old, DART_TYPE_LONG, DART_OP_SUM));
  return old;
}

// Under `lock`, `iterations` times: enter (an atomic occupancy count on team unit 0 must read
// 0), read the counter on team unit 0 with a blocking get, yield the core, add 1, write it back
// with a blocking put, leave. Returns the number of times another unit was seen inside.
int IncrementUnderLock(dart_lock_t lock, const TeamLongs& mem, int iterations) {
  int overlaps = 0;
  const dart_gptr_t counter = mem.At(0, 0), occupancy = mem.At(0, 1);
  for (int k = 0; k < iterations; ++k) {
    EXPECT_EQ(DART_OK, dart_lock_acquire(lock));
    overlaps += AtomicAdd(occupancy, 1) != 0;
    long value = -1;
    EXPECT_EQ(DART_OK, dart_get_blocking(&value, counter, 1, DART_TYPE_LONG, DART_TYPE_LONG));
    sched_yield();  // widens the race window: a broken lock lets another unit in right here
    ++value;
    EXPECT_EQ(DART_OK, dart_put_blocking(counter, &value, 1, DART_TYPE_LONG, DART_TYPE_LONG));
    overlaps += AtomicAdd(occupancy, -1) != 1;
    EXPECT_EQ(DART_OK, dart_lock_release(lock));
  }
  return overlaps;
}

TEST(DartLock, NonAtomicIncrementsUnderTheLockNeverLoseAnUpdate) {
  const int n = N(), me = Me();
  const int iterations = 100;
  dart_lock_t lock = nullptr;
  EXPECT_EQ(DART_OK, dart_team_lock_init(DART_TEAM_ALL, &lock));
  EXPECT_EQ(1, dart_lock_initialized(lock));
  {
    TeamLongs mem(2, DART_TEAM_ALL);  // [counter, occupancy] used on unit 0
    Barrier();
    EXPECT_EQ(0, IncrementUnderLock(lock, mem, iterations)) << "units were inside together";
    Barrier();
    long final_value = -1;
    EXPECT_EQ(DART_OK,
              dart_get_blocking(&final_value, mem.At(0), 1, DART_TYPE_LONG, DART_TYPE_LONG));
    EXPECT_EQ(static_cast<long>(iterations) * n, final_value);
    if (me == 0) {
      EXPECT_EQ(static_cast<long>(iterations) * n, mem.Local()[0]);
    }
    Barrier();
  }
  EXPECT_EQ(DART_OK, dart_team_lock_free(DART_TEAM_ALL, &lock));
  EXPECT_EQ(nullptr, lock);
}

// While unit 0 holds the lock every other unit's try_acquire fails; once it is free and all
// units try at once, exactly one succeeds (and releases after everyone has tried).
TEST(DartLock, TryAcquireFailsWhileHeldAndSucceedsForExactlyOneUnitWhenFree) {
  const int n = N(), me = Me();
  dart_lock_t lock = nullptr;
  EXPECT_EQ(DART_OK, dart_team_lock_init(DART_TEAM_ALL, &lock));
  const int rounds = 10;
  for (int r = 0; r < rounds; ++r) {
    // Held by unit 0: nobody else gets it.
    if (me == 0) {
      EXPECT_EQ(DART_OK, dart_lock_acquire(lock));
    }
    Barrier();
    if (me != 0) {
      int32_t got = -1;
      EXPECT_EQ(DART_OK, dart_lock_try_acquire(lock, &got));
      EXPECT_EQ(0, got) << "round " << r << ": unit " << me << " took a lock unit 0 holds";
      if (got == 1) {
        EXPECT_EQ(DART_OK, dart_lock_release(lock));
      }
    }
    Barrier();
    if (me == 0) {
      EXPECT_EQ(DART_OK, dart_lock_release(lock));
    }
    Barrier();
    // Free: all try at once, one wins.
    int32_t got = -1;
    EXPECT_EQ(DART_OK, dart_lock_try_acquire(lock, &got));
    EXPECT_TRUE(got == 0 || got == 1) << "result " << got;
    std::vector<int32_t> all(n, -1);
    EXPECT_EQ(DART_OK, dart_allgather(&got, all.data(), 1, DART_TYPE_INT, DART_TEAM_ALL));
    int winners = 0;
    for (int32_t g : all) winners += g == 1;
    EXPECT_EQ(1, winners) << "round " << r;
    if (got == 1) {
      EXPECT_EQ(DART_OK, dart_lock_release(lock));
    }
    Barrier();
  }
  // The lock is usable afterwards by every unit in turn.
  EXPECT_EQ(DART_OK, dart_lock_acquire(lock));
  EXPECT_EQ(DART_OK, dart_lock_release(lock));
  Barrier();
  EXPECT_EQ(DART_OK, dart_team_lock_free(DART_TEAM_ALL, &lock));
}

TEST(DartLock, AcquireWhileHoldingAndReleaseWithoutHoldingReturnInval) {
  dart_lock_t lock = nullptr;
  EXPECT_EQ(DART_OK, dart_team_lock_init(DART_TEAM_ALL, &lock));
  EXPECT_EQ(DART_ERR_INVAL, dart_lock_release(lock)) << "released a lock never acquired";
  EXPECT_EQ(DART_OK, dart_lock_acquire(lock));
  EXPECT_EQ(DART_ERR_INVAL, dart_lock_acquire(lock)) << "acquired a lock already held";
  EXPECT_EQ(DART_OK, dart_lock_release(lock));
  EXPECT_EQ(DART_ERR_INVAL, dart_lock_release(lock)) << "released a lock twice";
  // Still a working lock after the rejected calls.
  EXPECT_EQ(DART_OK, dart_lock_acquire(lock));
  EXPECT_EQ(DART_OK, dart_lock_release(lock));
  Barrier();
  EXPECT_EQ(DART_OK, dart_team_lock_free(DART_TEAM_ALL, &lock));
}

// Units split by parity; each sub-team's lock protects a counter on that team's unit 0 and
// does not exclude the other team.
TEST(DartLock, LocksOnSubTeamsSplitByParityExcludeWithinTheirTeam) {
  const int me = Me();
  const int iterations = 50;
  dart_team_t team = DART_TEAM_NULL;
  EXPECT_EQ(DART_OK, dart_team_split(DART_TEAM_ALL, me % 2, me, &team));
  size_t team_size = 0;
  EXPECT_EQ(DART_OK, dart_team_size(team, &team_size));
  EXPECT_EQ(static_cast<size_t>((N() + 1 - me % 2) / 2), team_size);
  dart_team_unit_t team_me;
  EXPECT_EQ(DART_OK, dart_team_myid(team, &team_me));
  EXPECT_EQ(me / 2, team_me.id);
  dart_lock_t lock = nullptr;
  EXPECT_EQ(DART_OK, dart_team_lock_init(team, &lock));
  {
    TeamLongs mem(2, team);
    Barrier(team);
    EXPECT_EQ(0, IncrementUnderLock(lock, mem, iterations)) << "units were inside together";
    Barrier(team);
    long final_value = -1;
    EXPECT_EQ(DART_OK,
              dart_get_blocking(&final_value, mem.At(0), 1, DART_TYPE_LONG, DART_TYPE_LONG));
    EXPECT_EQ(static_cast<long>(iterations) * static_cast<long>(team_size), final_value);
    Barrier(team);
  }
  // While the even team's unit 0 holds its lock, the odd team's lock is still free.
  const bool leader = team_me.id == 0;
  if (leader && me % 2 == 0) {
    EXPECT_EQ(DART_OK, dart_lock_acquire(lock));
  }
  Barrier();
  int32_t got = -1;
  if (leader && me % 2 == 1) {
    EXPECT_EQ(DART_OK, dart_lock_try_acquire(lock, &got));
    EXPECT_EQ(1, got) << "the odd team's lock is taken by the even team's holder";
  }
  Barrier();
  if (leader && (me % 2 == 0 || got == 1)) {
    EXPECT_EQ(DART_OK, dart_lock_release(lock));
  }
  EXPECT_EQ(DART_OK, dart_team_lock_free(team, &lock));
  EXPECT_EQ(DART_OK, dart_team_destroy(&team));
  Barrier();
}

TEST(DartLock, CreatingAndFreeingHundredLocksLeaksNothing) {
  const int me = Me();
  dart_runtime_stats_t before;
  EXPECT_EQ(DART_OK, dart_runtime_stats(&before));
  for (int i = 0; i < 100; ++i) {
    dart_lock_t lock = nullptr;
    EXPECT_EQ(DART_OK, dart_team_lock_init(DART_TEAM_ALL, &lock));
    EXPECT_EQ(1, dart_lock_initialized(lock));
    if (i % 10 == me % 10) {  // use some of them
      EXPECT_EQ(DART_OK, dart_lock_acquire(lock));
      EXPECT_EQ(DART_OK, dart_lock_release(lock));
    }
    EXPECT_EQ(DART_OK, dart_team_lock_free(DART_TEAM_ALL, &lock));
    EXPECT_EQ(nullptr, lock);
  }
  dart_runtime_stats_t after;
  EXPECT_EQ(DART_OK, dart_runtime_stats(&after));
  EXPECT_EQ(before.segments, after.segments);
  EXPECT_EQ(before.windows, after.windows);
  EXPECT_EQ(before.communicators, after.communicators);
  EXPECT_EQ(before.teams, after.teams);
  EXPECT_EQ(before.handles, after.handles);
  EXPECT_EQ(before.local_pool_used, after.local_pool_used);
}

}  // namespace
