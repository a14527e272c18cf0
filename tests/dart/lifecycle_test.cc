// DART before dart_init and after dart_exit, in a program of its own (the shared test main
// initialises DART, so it cannot test this). Run as
//   dart_lifecycle user-mpi   the program calls MPI_Init_thread itself: dart_init_thread works on
//                             top of it, dart_exit leaves MPI running for the program, and DART
//                             can be started a second time;
//   dart_lifecycle dart-mpi   dart_init_thread starts MPI and dart_exit finalises it.
// In both modes every DART call before dart_init and after dart_exit returns DART_ERR_NOTINIT.
// Each unit checks its own values; the exit code is non-zero on any unit with a failure.
#include <dart/dart.h>
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

int failures = 0;
const char* phase = "";

#define CHECK(cond)                                                                              \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      ++failures;                                                                                \
      std::fprintf(stderr, "dart_lifecycle: %s: check failed at line %d: %s\n", phase, __LINE__, \
                   #cond);                                                                       \
    }                                                                                            \
  } while (0)

// Every call that needs a running DART returns DART_ERR_NOTINIT (and does not crash).
void CheckEverythingIsNotInit() {
  CHECK(dart_initialized() == 0);
  dart_global_unit_t me;
  size_t size = 0;
  CHECK(dart_myid(&me) == DART_ERR_NOTINIT);
  CHECK(dart_size(&size) == DART_ERR_NOTINIT);
  dart_team_unit_t team_me;
  CHECK(dart_team_myid(DART_TEAM_ALL, &team_me) == DART_ERR_NOTINIT);
  CHECK(dart_team_size(DART_TEAM_ALL, &size) == DART_ERR_NOTINIT);
  dart_global_unit_t global;
  CHECK(dart_team_unit_l2g(DART_TEAM_ALL, DART_TEAM_UNIT_ID(0), &global) == DART_ERR_NOTINIT);
  CHECK(dart_team_unit_g2l(DART_TEAM_ALL, DART_GLOBAL_UNIT_ID(0), &team_me) == DART_ERR_NOTINIT);
  dart_team_t team = DART_TEAM_NULL;
  CHECK(dart_team_split(DART_TEAM_ALL, 0, 0, &team) == DART_ERR_NOTINIT);
  CHECK(dart_team_split_node(DART_TEAM_ALL, &team) == DART_ERR_NOTINIT);
  CHECK(dart_team_clone(DART_TEAM_ALL, &team) == DART_ERR_NOTINIT);
  team = 1;
  CHECK(dart_team_destroy(&team) == DART_ERR_NOTINIT);
  dart_team_t parent;
  CHECK(dart_team_get_parent(DART_TEAM_ALL, &parent) == DART_ERR_NOTINIT);
  dart_group_t group = nullptr;
  CHECK(dart_group_create(&group) == DART_OK);  // groups are local objects
  CHECK(dart_team_create(DART_TEAM_ALL, group, &team) == DART_ERR_NOTINIT);
  if (group != nullptr) dart_group_destroy(&group);
  CHECK(dart_team_get_group(DART_TEAM_ALL, &group) == DART_ERR_NOTINIT);

  dart_thread_support_level_t level;
  CHECK(dart_thread_support_level(&level) == DART_ERR_NOTINIT);
  dart_runtime_stats_t stats;
  CHECK(dart_runtime_stats(&stats) == DART_ERR_NOTINIT);
  CHECK(dart_exit() == DART_ERR_NOTINIT);

  dart_gptr_t gptr = DART_GPTR_NULL;
  CHECK(dart_team_memalloc_aligned(DART_TEAM_ALL, 4, DART_TYPE_INT, &gptr) == DART_ERR_NOTINIT);
  CHECK(dart_memalloc(4, DART_TYPE_INT, &gptr) == DART_ERR_NOTINIT);
  dart_gptr_t some{0, 0, 1, DART_TEAM_ALL, {0}};  // what a team allocation would look like
  CHECK(dart_team_memfree(some) == DART_ERR_NOTINIT);
  dart_gptr_t pool{0, 0, DART_SEGMENT_LOCAL, DART_TEAM_ALL, {0}};
  CHECK(dart_memfree(pool) == DART_ERR_NOTINIT);
  void* addr = &addr;
  CHECK(dart_gptr_getaddr(some, &addr) == DART_ERR_NOTINIT);
  CHECK(dart_gptr_getaddr_shared(some, &addr) == DART_ERR_NOTINIT);
  CHECK(dart_gptr_setaddr(&some, addr) == DART_ERR_NOTINIT);
  CHECK(dart_gptr_segment_size(some, &size) == DART_ERR_NOTINIT);
  dart_datatype_t custom = DART_TYPE_UNDEFINED;
  CHECK(dart_type_create_custom(12, &custom) == DART_ERR_NOTINIT);  // would need MPI

  int value = 7, result = 0;
  CHECK(dart_put_blocking(some, &value, 1, DART_TYPE_INT, DART_TYPE_INT) == DART_ERR_NOTINIT);
  CHECK(dart_get_blocking(&result, some, 1, DART_TYPE_INT, DART_TYPE_INT) == DART_ERR_NOTINIT);
  CHECK(dart_put(some, &value, 1, DART_TYPE_INT, DART_TYPE_INT) == DART_ERR_NOTINIT);
  CHECK(dart_get(&result, some, 1, DART_TYPE_INT, DART_TYPE_INT) == DART_ERR_NOTINIT);
  dart_handle_t handle = DART_HANDLE_NULL;
  CHECK(dart_get_handle(&result, some, 1, DART_TYPE_INT, DART_TYPE_INT, &handle) ==
        DART_ERR_NOTINIT);
  CHECK(dart_put_handle(some, &value, 1, DART_TYPE_INT, DART_TYPE_INT, &handle) ==
        DART_ERR_NOTINIT);
  CHECK(dart_flush(some) == DART_ERR_NOTINIT);
  CHECK(dart_flush_all(some) == DART_ERR_NOTINIT);
  CHECK(dart_flush_local(some) == DART_ERR_NOTINIT);
  CHECK(dart_flush_local_all(some) == DART_ERR_NOTINIT);
  CHECK(dart_accumulate(some, &value, 1, DART_TYPE_INT, DART_OP_SUM) == DART_ERR_NOTINIT);
  CHECK(dart_fetch_and_op(some, &value, &result, DART_TYPE_INT, DART_OP_SUM) == DART_ERR_NOTINIT);
  CHECK(dart_compare_and_swap(some, &value, &value, &result, DART_TYPE_INT) == DART_ERR_NOTINIT);

  CHECK(dart_barrier(DART_TEAM_ALL) == DART_ERR_NOTINIT);
  CHECK(dart_bcast(&value, 1, DART_TYPE_INT, DART_TEAM_UNIT_ID(0), DART_TEAM_ALL) ==
        DART_ERR_NOTINIT);
  CHECK(dart_allreduce(&value, &result, 1, DART_TYPE_INT, DART_OP_SUM, DART_TEAM_ALL) ==
        DART_ERR_NOTINIT);
  CHECK(dart_allgather(&value, &result, 1, DART_TYPE_INT, DART_TEAM_ALL) == DART_ERR_NOTINIT);
  CHECK(dart_ibarrier(DART_TEAM_ALL, &handle) == DART_ERR_NOTINIT);
  CHECK(dart_iallreduce(&value, &result, 1, DART_TYPE_INT, DART_OP_SUM, DART_TEAM_ALL, &handle) ==
        DART_ERR_NOTINIT);
  CHECK(handle == DART_HANDLE_NULL);

  dart_lock_t lock = nullptr;
  CHECK(dart_team_lock_init(DART_TEAM_ALL, &lock) == DART_ERR_NOTINIT);
  CHECK(lock == nullptr);
  CHECK(dart_lock_acquire(lock) == DART_ERR_NOTINIT);
  CHECK(dart_lock_release(lock) == DART_ERR_NOTINIT);
}

// A short real workload while DART runs: a team allocation every unit writes to its right
// neighbour and reads back, and an allreduce.
void CheckDartWorks(int rank, int size) {
  dart_global_unit_t me{-1};
  size_t nunits = 0;
  CHECK(dart_myid(&me) == DART_OK && me.id == rank);
  CHECK(dart_size(&nunits) == DART_OK && nunits == static_cast<size_t>(size));
  dart_gptr_t gptr = DART_GPTR_NULL;
  CHECK(dart_team_memalloc_aligned(DART_TEAM_ALL, 1, DART_TYPE_INT, &gptr) == DART_OK);
  dart_gptr_t right = gptr;
  CHECK(dart_gptr_setunit(&right, DART_TEAM_UNIT_ID((rank + 1) % size)) == DART_OK);
  int value = 100 + rank;
  CHECK(dart_put_blocking(right, &value, 1, DART_TYPE_INT, DART_TYPE_INT) == DART_OK);
  CHECK(dart_barrier(DART_TEAM_ALL) == DART_OK);
  int got = -1;
  dart_gptr_t mine = gptr;
  CHECK(dart_gptr_setunit(&mine, DART_TEAM_UNIT_ID(rank)) == DART_OK);
  CHECK(dart_get_blocking(&got, mine, 1, DART_TYPE_INT, DART_TYPE_INT) == DART_OK);
  CHECK(got == 100 + (rank + size - 1) % size);
  int sum = 0;
  CHECK(dart_allreduce(&value, &sum, 1, DART_TYPE_INT, DART_OP_SUM, DART_TEAM_ALL) == DART_OK);
  CHECK(sum == 100 * size + size * (size - 1) / 2);
  CHECK(dart_team_memfree(gptr) == DART_OK);
}

int RunUserMpi(int argc, char** argv) {
  int granted = MPI_THREAD_SINGLE;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &granted) != MPI_SUCCESS) return 2;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  phase = "user-mpi, before dart_init";
  CheckEverythingIsNotInit();
  phase = "user-mpi, dart_init_thread on the program's MPI";
  dart_thread_support_level_t provided = DART_THREAD_MULTIPLE;
  CHECK(dart_init_thread(&argc, &argv, &provided) == DART_OK);
  CHECK(provided == (granted >= MPI_THREAD_MULTIPLE ? DART_THREAD_MULTIPLE : DART_THREAD_SINGLE));
  CHECK(dart_initialized() == 1);
  CheckDartWorks(rank, size);
  CHECK(dart_exit() == DART_OK);

  phase = "user-mpi, after dart_exit";
  int finalized = 1;
  MPI_Finalized(&finalized);
  CHECK(finalized == 0);  // DART did not start MPI, so it must not stop it
  CheckEverythingIsNotInit();

  // MPI is still running, so DART can start again, with nothing left over from the first run.
  phase = "user-mpi, second dart_init";
  CHECK(dart_init(&argc, &argv) == DART_OK);
  dart_runtime_stats_t fresh{}, later{};
  CHECK(dart_runtime_stats(&fresh) == DART_OK);
  CHECK(fresh.teams == 1);
  CHECK(fresh.handles == 0);
  CHECK(fresh.local_pool_used == 0);
  CheckDartWorks(rank, size);
  CHECK(dart_runtime_stats(&later) == DART_OK);
  CHECK(later.segments == fresh.segments && later.windows == fresh.windows &&
        later.communicators == fresh.communicators);
  CHECK(dart_exit() == DART_OK);
  MPI_Finalized(&finalized);
  CHECK(finalized == 0);

  phase = "user-mpi, after the second dart_exit";
  // MPI is still usable by the program: agree on the verdict with it.
  int all_failures = 0;
  CHECK(MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) ==
        MPI_SUCCESS);
  if (rank == 0) {
    std::printf("dart_lifecycle user-mpi on %d units: %d failure(s)\n", size, all_failures);
  }
  MPI_Finalize();
  return all_failures == 0 && failures == 0 ? 0 : 1;
}

int RunDartMpi(int argc, char** argv) {
  int initialized = 1;
  MPI_Initialized(&initialized);
  phase = "dart-mpi, before dart_init";
  CHECK(initialized == 0);
  CheckEverythingIsNotInit();

  phase = "dart-mpi, dart_init_thread starts MPI";
  dart_thread_support_level_t provided = DART_THREAD_MULTIPLE;
  CHECK(dart_init_thread(&argc, &argv, &provided) == DART_OK);
  MPI_Initialized(&initialized);
  CHECK(initialized == 1);
  int granted = MPI_THREAD_SINGLE;
  MPI_Query_thread(&granted);
  CHECK(provided == (granted >= MPI_THREAD_MULTIPLE ? DART_THREAD_MULTIPLE : DART_THREAD_SINGLE));
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CheckDartWorks(rank, size);
  CHECK(dart_exit() == DART_OK);

  phase = "dart-mpi, after dart_exit";
  int finalized = 0;
  MPI_Finalized(&finalized);
  CHECK(finalized == 1);  // DART started MPI, so dart_exit stopped it
  CheckEverythingIsNotInit();
  // MPI is gone: starting DART again is an error, not a crash.
  CHECK(dart_init(&argc, &argv) == DART_ERR_INVAL);
  CHECK(dart_initialized() == 0);
  std::printf("dart_lifecycle dart-mpi unit %d of %d: %d failure(s)\n", rank, size, failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "user-mpi") == 0) return RunUserMpi(argc, argv);
  if (argc >= 2 && std::strcmp(argv[1], "dart-mpi") == 0) return RunDartMpi(argc, argv);
  std::fprintf(stderr, "usage: dart_lifecycle user-mpi|dart-mpi\n");
  return 2;
}
