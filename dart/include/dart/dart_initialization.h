/* Start-up and shut-down of the DART runtime. */
#ifndef DART__DART_INITIALIZATION_H_
#define DART__DART_INITIALIZATION_H_

#include <dart/dart_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Initialises DART (and MPI unless the program already did): reads the
 * environment flags, builds DART_TEAM_ALL and the local allocation pool.
 * Collective over all processes. A malformed environment flag returns
 * DART_ERR_INVAL with a message naming the flag; calling it twice returns
 * DART_ERR_INVAL. */
dart_ret_t dart_init(int* argc, char*** argv);

/* Like dart_init, requesting MPI_THREAD_MULTIPLE when *provided asks for
 * DART_THREAD_MULTIPLE; on return *provided is what MPI granted. Collective. */
dart_ret_t dart_init_thread(int* argc, char*** argv, dart_thread_support_level_t* provided);

/* Frees every team, segment and lock still alive and finalises MPI if
 * dart_init initialised it. Collective over all units. */
dart_ret_t dart_exit(void);

/* 1 between a successful dart_init and dart_exit, else 0. Local. */
int dart_initialized(void);

/* Aborts all units with the given exit code (MPI_Abort), after running the
 * functions registered with dart_at_abort. */
void dart_abort(int errorcode);

/* Registers fn to run when this unit ends the job itself (dart_abort, the
 * watchdog's abort) just before MPI_Abort, which ends the process without
 * exit handlers: for removing files the process would leave behind. fn must
 * be async-signal-safe and must not call MPI. At most 8 functions; a
 * function registered twice runs once. Returns DART_ERR_INVAL beyond 8.
 * Local, thread-safe. */
dart_ret_t dart_at_abort(void (*fn)(void));

/* Thread level granted at init. Local. */
dart_ret_t dart_thread_support_level(dart_thread_support_level_t* provided);

/* 1 when waiting units poll and give their core away (DART_WAIT=yield, or
 * auto with more units on this node than cores), 0 when they spin; libraries
 * with their own polling loops follow it. Local. */
int dart_yield_when_idle(void);

/* A wait that a caller builds out of polls (dart_test, dart_improbe, ...),
 * watched by the watchdog (DART_WATCHDOG) like DART's own waits. */
typedef struct {
  const char* call;  /* named in the report: the caller's function */
  dart_team_t team;  /* the team whose messages the loop polls for */
  uint64_t since_ns; /* when the loop last made progress */
  int reported;
} dart_poll_watch_t;

/* Starts watching a polling loop named call on team. Local, no MPI call. */
void dart_poll_watch_begin(dart_poll_watch_t* watch, const char* call, dart_team_t team);

/* Once per poll, with whether the poll made progress (which restarts the
 * clock). Past DART_WATCHDOG seconds without progress it prints once
 * "[dart unit U] WATCHDOG <call>: waited S s on team T (N units); no progress
 * polling for messages from any unit (DART_WATCHDOG=S)" and, with
 * DART_WATCHDOG_ACTION=abort, ends the job (MPI_Abort, exit code 3). Local:
 * a clock read with the watchdog on, a branch with it off. */
void dart_poll_watch(dart_poll_watch_t* watch, int progress);

/* Live runtime objects, for leak checks in tests and long-running codes. */
typedef struct {
  long teams;             /* teams the calling unit is a member of, incl. DART_TEAM_ALL */
  long segments;          /* team memory segments, incl. the local allocation pool */
  long windows;           /* MPI windows held by DART */
  long communicators;     /* MPI communicators held by DART */
  long handles;           /* non-blocking handles not yet completed */
  size_t local_pool_used; /* bytes of the calling unit's dart_memalloc pool in use */
  long rma_transfers;     /* puts and gets the calling unit issued through MPI RMA (those to
                             units it reaches by load/store not counted), since dart_init;
                             exact when one thread transfers at a time (threads transferring
                             at once may lose counts: the count costs no atomic operation) */
} dart_runtime_stats_t;

/* Counts the live objects of the calling unit. Local. */
dart_ret_t dart_runtime_stats(dart_runtime_stats_t* stats);

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_INITIALIZATION_H_ */
