// DART start-up state: dart_initialized, unit ids against MPI_COMM_WORLD, a second dart_init,
// the granted thread level and the live-object counters of dart_runtime_stats.
// (Malformed environment flags: dart_init.bad_env_flag.* in CMakeLists.txt; use before init and
// after exit: dart_lifecycle.*.)
#include <dart/dart.h>
#include <mpi.h>

#include "mpi_test.h"

namespace {

TEST(DartInit, InitializedIsOneWhileRunning) { EXPECT_EQ(dart_initialized(), 1); }

TEST(DartInit, MyidAndSizeAgreeWithMpiCommWorld) {
  int rank = -1, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  dart_global_unit_t me{-2};
  size_t nunits = 0;
  EXPECT_EQ(dart_myid(&me), DART_OK);
  EXPECT_EQ(dart_size(&nunits), DART_OK);
  EXPECT_EQ(me.id, rank);
  EXPECT_EQ(nunits, static_cast<size_t>(size));
  dart_team_unit_t team_me{-2};
  size_t team_size = 0;
  EXPECT_EQ(dart_team_myid(DART_TEAM_ALL, &team_me), DART_OK);
  EXPECT_EQ(dart_team_size(DART_TEAM_ALL, &team_size), DART_OK);
  EXPECT_EQ(team_me.id, rank);
  EXPECT_EQ(team_size, static_cast<size_t>(size));
  // Every unit saw a distinct id: the ids sum to 0 + 1 + ... + (size - 1).
  int sum = 0;
  MPI_Allreduce(&me.id, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(sum, size * (size - 1) / 2);
}

TEST(DartInit, SecondInitReturnsInvalAndLeavesRuntimeUsable) {
  int argc = 0;
  char** argv = nullptr;
  EXPECT_EQ(dart_init(&argc, &argv), DART_ERR_INVAL);
  EXPECT_EQ(dart_init(nullptr, nullptr), DART_ERR_INVAL);
  dart_thread_support_level_t provided = DART_THREAD_MULTIPLE;
  EXPECT_EQ(dart_init_thread(nullptr, nullptr, &provided), DART_ERR_INVAL);
  EXPECT_EQ(dart_initialized(), 1);
  // Still fully working: a collective over all units gives the right value.
  int one = 1, total = 0;
  EXPECT_EQ(dart_allreduce(&one, &total, 1, DART_TYPE_INT, DART_OP_SUM, DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(total, dash_test::nunits());
}

TEST(DartInit, ThreadSupportLevelMatchesWhatMpiGranted) {
  dart_thread_support_level_t level = static_cast<dart_thread_support_level_t>(-1);
  EXPECT_EQ(dart_thread_support_level(&level), DART_OK);
  int mpi_level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&mpi_level);
  EXPECT_EQ(level, mpi_level >= MPI_THREAD_MULTIPLE ? DART_THREAD_MULTIPLE : DART_THREAD_SINGLE);
  EXPECT_EQ(dart_thread_support_level(nullptr), DART_ERR_INVAL);
}

TEST(DartInit, RuntimeStatsCountTeamAllAndItsLocalPool) {
  dart_runtime_stats_t stats{};
  ASSERT_EQ(dart_runtime_stats(&stats), DART_OK);
  EXPECT_GE(stats.teams, 1);     // DART_TEAM_ALL
  EXPECT_GE(stats.segments, 1);  // the local allocation pool
  EXPECT_GE(stats.windows, 1);   // its window
  EXPECT_GE(stats.communicators, 1);
  EXPECT_EQ(stats.handles, 0);
  EXPECT_EQ(stats.local_pool_used, 0u);
  EXPECT_EQ(dart_runtime_stats(nullptr), DART_ERR_INVAL);
}

TEST(DartInit, RuntimeStatsFollowAllocationsAndReturnToStart) {
  dart_runtime_stats_t start{}, now{};
  EXPECT_EQ(dart_runtime_stats(&start), DART_OK);

  dart_gptr_t local = DART_GPTR_NULL;
  EXPECT_EQ(dart_memalloc(100, DART_TYPE_BYTE, &local), DART_OK);
  EXPECT_EQ(dart_runtime_stats(&now), DART_OK);
  EXPECT_GE(now.local_pool_used, start.local_pool_used + 100);
  EXPECT_EQ(now.segments, start.segments);  // dart_memalloc uses the existing pool segment

  dart_gptr_t team_mem = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 16, DART_TYPE_INT, &team_mem), DART_OK);
  EXPECT_EQ(dart_runtime_stats(&now), DART_OK);
  EXPECT_EQ(now.segments, start.segments + 1);
  EXPECT_GT(now.windows, start.windows);

  dart_team_t clone = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_clone(DART_TEAM_ALL, &clone), DART_OK);
  EXPECT_EQ(dart_runtime_stats(&now), DART_OK);
  EXPECT_EQ(now.teams, start.teams + 1);
  EXPECT_GT(now.communicators, start.communicators);

  dart_handle_t handle = DART_HANDLE_NULL;
  EXPECT_EQ(dart_ibarrier(DART_TEAM_ALL, &handle), DART_OK);
  EXPECT_EQ(dart_runtime_stats(&now), DART_OK);
  EXPECT_EQ(now.handles, start.handles + 1);
  EXPECT_EQ(dart_wait(&handle), DART_OK);

  EXPECT_EQ(dart_team_destroy(&clone), DART_OK);
  EXPECT_EQ(dart_team_memfree(team_mem), DART_OK);
  EXPECT_EQ(dart_memfree(local), DART_OK);
  EXPECT_EQ(dart_runtime_stats(&now), DART_OK);
  EXPECT_EQ(now.teams, start.teams);
  EXPECT_EQ(now.segments, start.segments);
  EXPECT_EQ(now.windows, start.windows);
  EXPECT_EQ(now.communicators, start.communicators);
  EXPECT_EQ(now.handles, start.handles);
  EXPECT_EQ(now.local_pool_used, start.local_pool_used);
}

// dart_at_abort takes at most 8 distinct functions (one registered twice counts once) and no
// NULL; the functions run only when the unit aborts (dart_watchdog.abort and .poll_abort check
// that they do), so these never run.
void NoOp0() {}
void NoOp1() {}
void NoOp2() {}
void NoOp3() {}
void NoOp4() {}
void NoOp5() {}
void NoOp6() {}
void NoOp7() {}
void NoOp8() {}

TEST(DartInit, AtAbortTakesEightFunctionsAndRefusesMore) {
  EXPECT_EQ(dart_at_abort(nullptr), DART_ERR_INVAL);
  void (*const fns[])() = {NoOp0, NoOp1, NoOp2, NoOp3, NoOp4, NoOp5, NoOp6, NoOp7};
  for (auto fn : fns) EXPECT_EQ(dart_at_abort(fn), DART_OK);
  for (auto fn : fns) EXPECT_EQ(dart_at_abort(fn), DART_OK) << "registered twice: no new slot";
  EXPECT_EQ(dart_at_abort(NoOp8), DART_ERR_INVAL);
}

}  // namespace
