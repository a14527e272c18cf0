// MPI failures DART must not ignore, made on purpose: this binary defines a few MPI functions
// itself (the MPI profiling interface: each calls its PMPI_ twin unless a test armed it to fail
// on this unit). A failed window hint or team communicator set-up on one unit gives the same
// error on every unit and leaves nothing behind; a failed unlock of the watchdog's counter window
// is reported by dart_team_destroy; a message whose size MPI cannot tell stays queued for a later
// dart_recv; a file read whose size MPI cannot tell is an error, not an empty read; a file open
// that fails before MPI-IO frees what it made; a failed MPI call is logged by its own name (a
// strided transfer's MPI type, with DART_SHARED_WINDOWS=0).
// DART_TEST_MPI_FAIL=MPI_Op_create makes every MPI_Op_create fail, dart_init among them;
// DART_TEST_MPI_FAIL=node_allreduce every MPI_Allreduce over a node communicator (one made by
// MPI_Comm_split_type), so dart_init stops in its node discovery (dart_mpi_error.init_op_create,
// dart_mpi_error.init_node_allreduce in CMakeLists.txt).
#include <dart/dart.h>
#include <mpi.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mpi_test.h"
#include "shared_dir.h"

namespace {

// The MPI functions this binary can make fail.
enum Fault {
  kInfoCreate,
  kCommSetErrhandler,
  kWinUnlockAll,
  kGetCount,
  kOpCreate,
  kCommDup,
  kAllreduce,
  kTypeCreateStruct,
  kFaults
};

// Communicators made by MPI_Comm_dup and freed by MPI_Comm_free on this unit, to count what a
// failed call left behind.
long comm_dups = 0;
long comm_frees = 0;

// The last node communicator (MPI_Comm_split_type) made on this unit.
MPI_Comm node_comm = MPI_COMM_NULL;

// Whether DART_TEST_MPI_FAIL is `name`.
bool FailEvery(const char* name) {
  const char* all = std::getenv("DART_TEST_MPI_FAIL");
  return all != nullptr && std::strcmp(all, name) == 0;
}

// Per fault: how many more calls on this unit fail (0: none, -1: every one).
int failing[kFaults] = {};

// Whether this call of fault f fails (and counts it).
bool Fails(Fault f) {
  if (f == kOpCreate && failing[f] == 0 && FailEvery("MPI_Op_create")) failing[f] = -1;
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
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  if (Fails(kCommDup)) {
    *newcomm = MPI_COMM_NULL;
    return MPI_ERR_OTHER;
  }
  const int ret = PMPI_Comm_dup(comm, newcomm);
  if (ret == MPI_SUCCESS) ++comm_dups;
  return ret;
}
int MPI_Comm_free(MPI_Comm* comm) {
  const int ret = PMPI_Comm_free(comm);
  if (ret == MPI_SUCCESS) ++comm_frees;
  return ret;
}
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  const int ret = PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  if (ret == MPI_SUCCESS) node_comm = *newcomm;
  return ret;
}
int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  if (Fails(kAllreduce)) return MPI_ERR_OTHER;
  if (comm != MPI_COMM_NULL && comm == node_comm && FailEvery("node_allreduce"))
    return MPI_ERR_OTHER;
  return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}
int MPI_Type_create_struct(int count, const int lengths[], const MPI_Aint displacements[],
                           const MPI_Datatype types[], MPI_Datatype* newtype) {
  return Fails(kTypeCreateStruct)
             ? MPI_ERR_OTHER
             : PMPI_Type_create_struct(count, lengths, displacements, types, newtype);
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

TEST(DartMpiError, FileOpenFailingBeforeMpiIoLeavesNothingBehind) {
  dash_test::SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.file("never");
  // The communicator's duplicate, then the agreement on special files: each fails on every unit
  // alike (collective calls), and the open frees what it made before. Its communicator is
  // counted here; its file struct only LeakSanitizer sees, which the test environment turns off
  // (DashTesting.cmake: MPI leaks at exit): run this test by hand with
  // ASAN_OPTIONS=detect_leaks=1 in an address-sanitizer build and look for dart_file_open.
  for (Fault fault : {kCommDup, kAllreduce}) {
    const long dups = comm_dups, frees = comm_frees;
    FailNext(fault);
    dart_file_t f = nullptr;
    EXPECT_EQ(dart_file_open(path.c_str(), DART_FILE_WRITE, DART_TEAM_ALL, &f), DART_ERR_OTHER)
        << "fault " << fault;
    EXPECT_EQ(f, nullptr);
    EXPECT_EQ(comm_dups - dups, comm_frees - frees) << "communicators left, fault " << fault;
    EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
    struct stat st;
    EXPECT_NE(stat(path.c_str(), &st), 0) << "the file was made, fault " << fault;
  }
  // The next open works.
  dart_file_t f = nullptr;
  ASSERT_EQ(dart_file_open(path.c_str(), DART_FILE_WRITE, DART_TEAM_ALL, &f), DART_OK);
  EXPECT_EQ(dart_file_close(&f), DART_OK);
}

TEST(DartMpiError, FailedStridedLayoutIsLoggedByItsMpiCall) {
  const char* shared = std::getenv("DART_SHARED_WINDOWS");
  if (shared == nullptr || std::strcmp(shared, "0") != 0)
    GTEST_SKIP() << "needs DART_SHARED_WINDOWS=0 (transfers through MPI RMA, MPI types)";
  if (N() < 2) GTEST_SKIP() << "needs 2 units";
  dart_gptr_t g = DART_GPTR_NULL;
  ASSERT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 8, DART_TYPE_INT, &g), DART_OK);
  dart_gptr_t next = g;  // another unit's memory: a unit reaches its own by load/store
  ASSERT_EQ(dart_gptr_setunit(&next, DART_TEAM_UNIT_ID((Me() + 1) % N())), DART_OK);
  // Blocks of 2 ints every 3: 3 elements are one block and a rest, an MPI struct type.
  dart_datatype_t strided = DART_TYPE_UNDEFINED;
  ASSERT_EQ(dart_type_create_strided(DART_TYPE_INT, 3, 2, &strided), DART_OK);
  std::vector<int> buf(8, -1);
  FailNext(kTypeCreateStruct);
  testing::internal::CaptureStderr();
  const dart_ret_t failed = dart_get_blocking(buf.data(), next, 3, DART_TYPE_INT, strided);
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(failed, DART_ERR_OTHER);
  EXPECT_NE(log.find("MPI_Type_create_struct failed"), std::string::npos) << log;
  EXPECT_EQ(log.find("ret failed"), std::string::npos) << log;
  // The next transfer of that layout works.
  EXPECT_EQ(dart_get_blocking(buf.data(), next, 3, DART_TYPE_INT, strided), DART_OK);
  EXPECT_EQ(dart_type_destroy(&strided), DART_OK);
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(dart_team_memfree(g), DART_OK);
}

}  // namespace
