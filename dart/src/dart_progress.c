/* Waiting for collectives and transfers. MPI implementations wait by
 * spinning in their progress engine; with more units than cores on a node
 * (a laptop, an oversubscribed test run) the spinning units take the cores
 * the others need to make progress, and a collective can take milliseconds
 * instead of microseconds. In yield mode DART polls instead and gives the
 * core away between polls. */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "dart_internal.h"

/* MPICH's headers make GCC 12 see a zero-sized status array in
 * MPI_Waitall/MPI_Testall with MPI_STATUSES_IGNORE (a false positive). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

/* True when the MPI library gives the core away by itself while it waits in a
 * blocking call. OpenMPI does when its launcher found more processes than
 * slots on the node (it then sets OMPI_MCA_mpi_oversubscribe=1 in the
 * processes' environment) unless mpi_yield_when_idle says otherwise; its
 * blocking collectives are then about twice as fast as its non-blocking ones
 * polled by DART (4 against 8-10 us for a small allreduce at 4 processes on 2
 * cores). MPICH spins. */
static bool mpi_yields_when_idle(void) {
#ifdef OPEN_MPI
  const char* asked = getenv("OMPI_MCA_mpi_yield_when_idle");
  if (asked != NULL && *asked != '\0')
    return strcmp(asked, "1") == 0 || strcasecmp(asked, "true") == 0 ||
           strcasecmp(asked, "yes") == 0;
  const char* over = getenv("OMPI_MCA_mpi_oversubscribe");
  return over != NULL && (strcmp(over, "1") == 0 || strcasecmp(over, "true") == 0);
#else
  return false;
#endif
}

int dart__progress_setup(MPI_Comm node_comm, const char** failed) {
  int on_node = 1;
  *failed = "MPI_Comm_size";
  int ret = MPI_Comm_size(node_comm, &on_node);
  if (ret != MPI_SUCCESS) return ret;
  /* Cores the node's units may use together: the union of their masks. */
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) {
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    for (long c = 0; c < online && c < CPU_SETSIZE; ++c) CPU_SET((int)c, &mine);
  }
  cpu_set_t all;
  *failed = "MPI_Allreduce";
  ret = MPI_Allreduce(&mine, &all, (int)sizeof(cpu_set_t), MPI_UNSIGNED_CHAR, MPI_BOR, node_comm);
  if (ret != MPI_SUCCESS) return ret;
  int cores = CPU_COUNT(&all);
  if (cores < 1) cores = 1;
  switch (dart__state.config.wait_mode) {
    case DART_WAIT_SPIN:
      dart__state.yield_when_idle = false;
      break;
    case DART_WAIT_YIELD:
      dart__state.yield_when_idle = true;
      break;
    default:
      dart__state.yield_when_idle = on_node > cores;
  }
  /* In auto mode an MPI that yields by itself waits in its blocking calls; the
   * units' own polling loops (dart_yield_when_idle) still yield. */
  const bool mpi_yields = dart__state.config.wait_mode == DART_WAIT_AUTO &&
                          dart__state.yield_when_idle && mpi_yields_when_idle();
  dart__state.poll_waits = (dart__state.yield_when_idle && !mpi_yields) ||
                           dart__state.config.watchdog_seconds > 0;
  dart__log(DART_LOG_INFO, "dart_init", "%d units on this node, %d cores between them: waits %s",
            on_node, cores,
            !dart__state.yield_when_idle ? "spin"
            : mpi_yields                 ? "yield in MPI's blocking calls"
                                         : "poll and yield");
  return MPI_SUCCESS;
}

int dart_yield_when_idle(void) { return dart__state.yield_when_idle ? 1 : 0; }

void dart__idle_pause(int polls) {
  if (!dart__state.yield_when_idle) return; /* spin mode, polled for the watchdog */
  if (polls >= 64) {
    /* Long waits: sleep briefly so that the units we wait for get a core. */
    struct timespec pause = {0, 20000};
    nanosleep(&pause, NULL);
  } else if (polls >= 4) {
    sched_yield();
  }
}

/* Polls between two looks at the clock (a few microseconds of polling). */
#define WATCHDOG_POLL_STRIDE 64

int dart__wait_requests(const dart_wait_site_t* site, int n, MPI_Request* reqs) {
  if (!dart__state.poll_waits) return MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
  const bool watch = dart__state.config.watchdog_seconds > 0;
  uint64_t start = 0;
  bool reported = false;
  for (int polls = 0;; ++polls) {
    int done = 0;
    int ret = MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE);
    if (ret != MPI_SUCCESS || done) return ret;
    if (watch && polls % WATCHDOG_POLL_STRIDE == 0) {
      if (polls == 0) {
        start = dart__watchdog_now();
      } else {
        dart__watchdog_check(site, start, &reported);
      }
    }
    dart__idle_pause(polls);
    if (polls == INT_MAX - 1) polls = 64; /* long waits: no overflow */
  }
}

int dart__polled_barrier(const char* call, dart_team_data_t* team) {
  if (!dart__state.poll_waits) return MPI_SUCCESS;
  const dart_wait_site_t site = dart__wait_collective(call, team);
  MPI_Request req = MPI_REQUEST_NULL;
  int ret = MPI_Ibarrier(team->comm, &req);
  return ret == MPI_SUCCESS ? dart__wait_requests(&site, 1, &req) : ret;
}
