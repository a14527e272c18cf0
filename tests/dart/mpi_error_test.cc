// MPI failures DART must not ignore, made on purpose: this binary defines a few MPI functions
// itself (the MPI profiling interface: each calls its PMPI_ twin unless a test armed it to fail
// on this unit). A failed window hint or team communicator set-up on one unit gives the same
// error on every unit and leaves nothing behind; a failed unlock of the watchdog's counter window
// is reported by dart_team_destroy; a message whose size MPI cannot tell stays queued for a later
// dart_recv; a file read whose size MPI cannot tell is an error, not an empty read.
// DART_TEST_MPI_FAIL=MPI_Op_create makes every MPI_Op_create fail, dart_init among them
// (dart_mpi_error.init_op_create in CMakeLists.txt).
#include <dart/dart.h>
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mpi_test.h"
#include "shared_dir.h"

namespace {

// The MPI functions this binary can make fail.
enum Fault { kInfoCreate, kCommSetErrhandler, kWinUnlockAll, kGetCount, kOpCreate, kFaults };

// Per fault: how many more calls on this unit fail (0: none, -1: every one).
int failing[kFaults] = {};

// Whether this call of fault f fails (and counts it).
bool Fails(Fault f) {
  if (f == kOpCreate && failing[f] == 0) {
    const char* all = std::getenv("DART_TEST_MPI_FAIL");
    if (all != nullptr && std::strcmp(all, "MPI_Op_create") == 0) failing[f] = -1;
  }
  if (failing[f] == 0) return false;
  if (failing[f] > 0) --failing[f];
  return true;
}

// Makes the next call of f on this unit fail.
void FailNext(Fault f) { failing[f] = 1; }

}  // namespace

// The failing functions fail as MPI would, returning an error code without calling the error
// handler; the unlock unlocks first, so that only the report of the failure is made up.
extern "C" {
int MPI_Info_create(MPI_Info* info) {
  if (!Fails(kInfoCreate)) return PMPI_Info_create(info);
  *info = MPI_INFO_NULL;
  return MPI_ERR_OTHER;
}
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  return Fails(kCommSetErrhandler) ? MPI_ERR_OTHER : PMPI_Comm_set_errhandler(comm, errhandler);
}
int MPI_Win_unlock_all(MPI_Win win) {
  const int ret = PMPI_Win_unlock_all(win);
  return ret == MPI_SUCCESS && Fails(kWinUnlockAll) ? MPI_ERR_OTHER : ret;
}
int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return Fails(kGetCount) ? MPI_ERR_OTHER : PMPI_Get_count(status, datatype, count);
}
int MPI_Op_create(MPI_User_function* function, int commute, MPI_Op* op) {
  return Fails(kOpCreate) ? MPI_ERR_OTHER : PMPI_Op_create(function, commute, op);
}
}

namespace {

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

dart_runtime_stats_t Stats() {
  dart_runtime_stats_t stats{};
  EXPECT_EQ(dart_runtime_stats(&stats), DART_OK);
  return stats;
}

// mine on this unit and the same on every other unit. Collective.
void ExpectEveryUnitGot(dart_ret_t mine, dart_ret_t expected) {
  EXPECT_EQ(mine, expected);
  std::vector<int> all(N(), -1);
  const int value = mine;
  EXPECT_EQ(dart_allgather(&value, all.data(), 1, DART_TYPE_INT, DART_TEAM_ALL), DART_OK);
  for (int u = 0; u < N(); ++u) EXPECT_EQ(all[u], expected) << "unit " << u;
}

TEST(DartMpiError, WindowHintsFailingOnOneUnitFailTheAllocationEverywhere) {
  const dart_runtime_stats_t before = Stats();
  if (Me() == N() - 1) FailNext(kInfoCreate);
  dart_gptr_t g = DART_GPTR_NULL;
  ExpectEveryUnitGot(dart_team_memalloc_aligned(DART_TEAM_ALL, 64, DART_TYPE_BYTE, &g),
                     DART_ERR_OTHER);
  EXPECT_TRUE(DART_GPTR_ISNULL(g));
  EXPECT_EQ(Stats().windows, before.windows);
  EXPECT_EQ(Stats().segments, before.segments);
  // The next allocation works.
  ASSERT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 64, DART_TYPE_BYTE, &g), DART_OK);
  EXPECT_EQ(dart_team_memfree(g), DART_OK);
}

TEST(DartMpiError, TeamSetUpFailingOnOneUnitFailsEverywhere) {
  const dart_runtime_stats_t before = Stats();
  if (Me() == N() - 1) FailNext(kCommSetErrhandler);
  dart_team_t team = 7;
  ExpectEveryUnitGot(dart_team_clone(DART_TEAM_ALL, &team), DART_ERR_OTHER);
  EXPECT_EQ(team, DART_TEAM_NULL);
  EXPECT_EQ(Stats().teams, before.teams);
  EXPECT_EQ(Stats().communicators, before.communicators);
  // The next team works.
  ASSERT_EQ(dart_team_clone(DART_TEAM_ALL, &team), DART_OK);
  EXPECT_EQ(dart_barrier(team), DART_OK);
  EXPECT_EQ(dart_team_destroy(&team), DART_OK);
}

TEST(DartMpiError, FailedUnlockOfTheWatchdogWindowIsReportedByTeamDestroy) {
  const char* watchdog = std::getenv("DART_WATCHDOG");
  if (watchdog == nullptr || std::atoi(watchdog) <= 0) GTEST_SKIP() << "needs DART_WATCHDOG";
  const dart_runtime_stats_t before = Stats();
  dart_team_t team = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_clone(DART_TEAM_ALL, &team), DART_OK);
  FailNext(kWinUnlockAll);  // the counter window's: a new team holds no other window
  ExpectEveryUnitGot(dart_team_destroy(&team), DART_ERR_OTHER);
  EXPECT_EQ(team, DART_TEAM_NULL);
  // The team's communicators and window were freed nonetheless.
  EXPECT_EQ(Stats().teams, before.teams);
  EXPECT_EQ(Stats().communicators, before.communicators);
}

TEST(DartMpiError, MessageOfUnknownSizeStaysQueued) {
  if (N() < 2) GTEST_SKIP() << "needs 2 units";
  const int tag = 11;
  if (Me() == 1) {
    const int value = 42;
    EXPECT_EQ(dart_send(&value, 1, DART_TYPE_INT, tag, DART_GLOBAL_UNIT_ID(0)), DART_OK);
  } else if (Me() == 0) {
    int got = -1;
    FailNext(kGetCount);
    const dart_ret_t first = dart_recv(&got, 1, DART_TYPE_INT, tag, DART_GLOBAL_UNIT_ID(1));
    EXPECT_EQ(first, DART_ERR_OTHER);
    EXPECT_EQ(got, -1);
    if (first == DART_ERR_OTHER) {  // else the message may be gone: a second receive would hang
      EXPECT_EQ(dart_recv(&got, 1, DART_TYPE_INT, tag, DART_GLOBAL_UNIT_ID(1)), DART_OK);
      EXPECT_EQ(got, 42);
    }
  }
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
}

TEST(DartMpiError, FileReadOfUnknownSizeFails) {
  dash_test::SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.file("data");
  const std::vector<char> data(100, 'x');
  dart_file_t f = nullptr;
  ASSERT_EQ(dart_file_open(path.c_str(), DART_FILE_WRITE, DART_TEAM_ALL, &f), DART_OK);
  EXPECT_EQ(dart_file_write_at_all(f, 0, data.data(), Me() == 0 ? data.size() : 0), DART_OK);
  ASSERT_EQ(dart_file_close(&f), DART_OK);
  ASSERT_EQ(dart_file_open(path.c_str(), DART_FILE_READ, DART_TEAM_ALL, &f), DART_OK);
  std::vector<char> got(data.size(), '-');
  size_t nread = 7;
  FailNext(kGetCount);
  EXPECT_EQ(dart_file_read_at(f, 0, got.data(), got.size(), &nread), DART_ERR_OTHER);
  EXPECT_EQ(dart_file_read_at(f, 0, got.data(), got.size(), &nread), DART_OK);
  EXPECT_EQ(nread, data.size());
  EXPECT_EQ(got, data);
  EXPECT_EQ(dart_file_close(&f), DART_OK);
}

}  // namespace
