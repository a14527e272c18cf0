/* Internal state of the DART runtime: configuration, teams, segments.
 * Not installed; only dart/src includes it. */
#ifndef DART__INTERNAL_H_
#define DART__INTERNAL_H_

#include <dart/dart.h>
#include <mpi.h>

/* 1 when built against MPICH or an MPI derived from it (Intel MPI, MVAPICH,
 * Cray MPICH all define MPICH_VERSION). */
#ifdef MPICH_VERSION
#define DART_MPI_IS_MPICH 1
#else
#define DART_MPI_IS_MPICH 0
#endif
#include <stdbool.h>
#include <stdint.h>

/* ---- logging (dart_log.c) ---------------------------------------------- */

typedef enum {
  DART_LOG_ERROR = 0,
  DART_LOG_WARN = 1,
  DART_LOG_INFO = 2,
  DART_LOG_DEBUG = 3
} dart_log_level_t;

/* Prints one line "[dart unit U] LEVEL call: message" to stderr if level is
 * enabled. */
void dart__log(dart_log_level_t level, const char* call, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define DART_LOG_ERROR_RET(ret, call, ...) (dart__log(DART_LOG_ERROR, (call), __VA_ARGS__), (ret))

/* Turns an MPI error code into DART_ERR_OTHER with a log line naming the MPI
 * function and the MPI error string; DART_OK for MPI_SUCCESS. */
dart_ret_t dart__mpi_error(int mpi_ret, const char* call, const char* mpi_call);

/* DART_MPI_CALL(call, MPI_Xxx(...)): returns from the calling function with
 * dart__mpi_error when the MPI call fails, the log line naming the call by
 * its text. Write the MPI call itself as mpi_expr, never a saved result (the
 * line would name the variable); for a saved result call dart__mpi_error
 * with the function's name. */
#define DART_MPI_CALL(call, mpi_expr)                                                             \
  do {                                                                                            \
    int dart__mpi_ret_ = (mpi_expr);                                                              \
    if (dart__mpi_ret_ != MPI_SUCCESS) return dart__mpi_error(dart__mpi_ret_, (call), #mpi_expr); \
  } while (0)

/* ---- configuration from the environment (dart_env.c) ------------------- */

/* How a unit waits for a collective or a transfer: spin in MPI, or poll and
 * yield its core (for more units than cores on a node); auto picks yield
 * exactly then. */
typedef enum { DART_WAIT_AUTO, DART_WAIT_SPIN, DART_WAIT_YIELD } dart_wait_mode_t;

/* What the watchdog does once a wait passed its deadline. */
typedef enum { DART_WATCHDOG_REPORT, DART_WATCHDOG_ABORT } dart_watchdog_action_t;

typedef struct {
  dart_log_level_t log_level;       /* DART_LOG_LEVEL, default warn */
  bool shared_windows;              /* DART_SHARED_WINDOWS, default 1 */
  int virtual_node_size;            /* DART_VIRTUAL_NODE_SIZE, 0 = real nodes */
  size_t local_pool_size;           /* DART_LOCAL_POOL_SIZE, bytes per unit */
  size_t transfer_chunk_size;       /* DART_TRANSFER_CHUNK_SIZE, bytes */
  bool force_window_pair;           /* DART_TEST_FORCE_WINDOW_PAIR (test only) */
  dart_wait_mode_t wait_mode;       /* DART_WAIT, default auto */
  bool test_hwloc_fail;             /* DART_TEST_HWLOC_FAIL (test only): locality without hwloc */
  dart_unit_mapping_t unit_mapping; /* DART_UNIT_MAPPING, default none */
  int unit_mapping_dims;            /* DART_UNIT_MAPPING_DIMS, default 3 */
  bool unit_mapping_fallback; /* DART_UNIT_MAPPING_FALLBACK=identity: bad topology file -> none */
  char topology_file[4096];   /* DART_TOPOLOGY_FILE, "" = none */
  int watchdog_seconds;       /* DART_WATCHDOG, 0 = off */
  dart_watchdog_action_t watchdog_action; /* DART_WATCHDOG_ACTION, default report */
} dart_config_t;

/* Reads all DART_* flags. On a malformed value logs a line naming the flag
 * and returns DART_ERR_INVAL; cfg is then unchanged. */
dart_ret_t dart__config_read(dart_config_t* cfg);
/* dart_flags_agree over comm (usable inside dart_init). Collective over comm. */
dart_ret_t dart__flags_agree(MPI_Comm comm, const char* const* names, size_t n, char* err,
                             size_t errlen);

/* ---- types (dart_types.c) ----------------------------------------------- */

typedef enum {
  DART_KIND_BASIC,
  DART_KIND_STRIDED,
  DART_KIND_CUSTOM,
  DART_KIND_INDEXED
} dart_type_kind_t;

typedef struct {
  dart_type_kind_t kind;
  dart_datatype_t base; /* basic type of the elements (self for basic) */
  MPI_Datatype mpi;     /* MPI type of one element */
  size_t size;          /* bytes of one element */
  size_t stride;        /* strided: elements between block starts */
  size_t blocklen;      /* strided: elements per block */
  bool is_integer;      /* basic integer type (atomics, bitwise ops) */
  bool is_floating;     /* basic floating type */
  size_t nruns;         /* indexed: runs of run_len[i] elements at element run_off[i], */
  size_t* run_len;      /* run_total elements in all; run_disjoint if they ascend and */
  size_t* run_off;      /* none overlaps another */
  size_t run_total;
  bool run_disjoint;
} dart_type_info_t;

/* True for the types that describe a layout of elements (strided, indexed):
 * the source or destination of a put or get, never an element to allocate,
 * send or reduce. */
static inline bool dart__type_is_layout(const dart_type_info_t* t) {
  return t->kind == DART_KIND_STRIDED || t->kind == DART_KIND_INDEXED;
}

extern dart_type_info_t dart__basic_types[DART_TYPE_LAST];
extern bool dart__basic_types_ready;

/* Looks up any type; NULL if dtype is not a live type. Local, O(1). */
const dart_type_info_t* dart__type_lookup(dart_datatype_t dtype);

/* Looks up a type; basic types inline (every transfer does this). */
static inline const dart_type_info_t* dart__type(dart_datatype_t dtype) {
  if (dtype > DART_TYPE_UNDEFINED && dtype < DART_TYPE_LAST && dart__basic_types_ready) {
    return &dart__basic_types[dtype];
  }
  return dart__type_lookup(dtype);
}

/* MPI operation for op, or MPI_OP_NULL. */
MPI_Op dart__mpi_op(dart_operation_t op);

/* MPI operation for a reduction of op over type t: dart__mpi_op's, or, for
 * MIN and MAX of unsigned types on an MPI that compares them as signed,
 * one of DART's own (dart_types.c). */
MPI_Op dart__mpi_reduce_op(dart_operation_t op, const dart_type_info_t* t);

/* Whether op over t needs DART's own unsigned MIN/MAX (see above); atomics
 * then run a compare-and-swap loop. Local. */
bool dart__unsigned_minmax_emulated(dart_operation_t op, const dart_type_info_t* t);

/* Checks once, after MPI_Init, whether the MPI's MIN and MAX of unsigned
 * types are right, and makes the MPI types and ops reductions use (dart_init).
 * On an MPI failure logs it under call and returns DART_ERR_OTHER, with
 * nothing left made. Local. */
dart_ret_t dart__types_probe_mpi(const char* call);
/* DART_OP_MINMAX: the MPI type of a (min, max) pair of t's basic type, and the op. */
MPI_Datatype dart__minmax_pair_type(const dart_type_info_t* t);
MPI_Op dart__minmax_op(void);

/* Checks that op may be applied to the basic type t (reductions: not
 * REPLACE/NO_OP unless atomic). Logs and returns DART_ERR_INVAL otherwise. */
dart_ret_t dart__check_op(const char* call, dart_operation_t op, const dart_type_info_t* t,
                          bool atomic);

/* Frees all derived types (at exit). */
void dart__types_cleanup(void);

/* ---- operations of the program's own (dart_ops.c) ---------------------- */

/* An operation made by dart_op_create: the program's operator and its data, the DART type it
 * was made for, and the MPI op and element type (a duplicate carrying this entry) reductions
 * use. */
typedef struct {
  dart_operator_t fn;
  void* userdata;
  dart_datatype_t dtype;
  size_t size; /* bytes of one element */
  MPI_Datatype mpi_type;
  MPI_Op mpi_op;
} dart_custom_op_t;

/* The operation made by dart_op_create with id op, or NULL (a predefined operation, or one not
 * live). Local, O(1). */
const dart_custom_op_t* dart__custom_op(dart_operation_t op);
/* Frees every operation still live (at exit). */
void dart__ops_cleanup(void);

/* An MPI description (count x type) of nbytes bytes for point-to-point messages: MPI_BYTE x
 * nbytes up to INT_MAX, else one element of a type made now (1 GiB blocks and the rest), which the
 * caller frees with dart__byte_type_free once the call that uses it has started. Returns an MPI
 * error code. Local. */
int dart__byte_type(size_t nbytes, int* count, MPI_Datatype* type);
/* A committed type of nbytes bytes starting offset bytes into the buffer it is used with (1 GiB
 * blocks and the rest, absolute displacements): the collectives' path for counts or offsets
 * beyond INT_MAX (MPI_Alltoallw with count 1 and displacement 0). Free it with MPI_Type_free.
 * Returns an MPI error code. Local. */
int dart__byte_type_at(size_t offset, size_t nbytes, MPI_Datatype* type);
void dart__byte_type_free(MPI_Datatype* type);
/* Frees the committed MPI types of strided layouts dart_rma.c keeps (dart_exit). */
void dart__rma_layouts_free(void);

/* ---- segments (dart_segment.c) ----------------------------------------- */

struct dart_team_data;
struct dart_watch_team;

/* Every unit's part of a segment starts at an address aligned to this many
 * bytes (MPI does not align shared-window bases: OpenMPI's are page + 0x108). */
#define DART_SEGMENT_ALIGNMENT 64

/* Pointer generations: DART_GPTR_OFFSET_BITS (dart_globmem.h). */
/* Generation of the local allocation pool segment: matches no pointer's tag,
 * so pool pointers always take the checked path (dart__resolve_checked). */
#define DART_POOL_GENERATION UINT32_C(0x10000)

typedef struct dart_segment {
  int16_t segid;
  uint32_t generation; /* 16-bit tag its pointers carry, or DART_POOL_GENERATION */
  dart_team_t teamid;
  MPI_Win win;         /* window used for RMA and atomics */
  MPI_Win shm_win;     /* shared window (== win unless window-pair layout) */
  size_t nbytes;       /* bytes of every unit's part */
  char* local_base;    /* calling unit's part (aligned) */
  char** shm_base;     /* per team unit: load/store address or NULL */
  MPI_Aint* disp_base; /* per team unit: displacement of its part in win */
  int locked;          /* bit 0: win, bit 1: shm_win (window pair) in a lock_all epoch */
  bool registered;     /* memory the units brought (dart_team_memregister); win is
                          MPI_WIN_NULL for a team of one unit */
} dart_segment_t;

/* Allocates a segment of nbytes per unit on the team. Collective: the units
 * first agree (one allreduce) that every unit passed the same nbytes and
 * check value, that args_ok held and set-up memory was found everywhere and
 * that each node can back its units' parts; after MPI made the windows they
 * agree (one more allreduce) that it did so everywhere. Every unit returns
 * the same result. */
dart_ret_t dart__segment_alloc(const char* call, struct dart_team_data* team, size_t nbytes,
                               uint64_t check, bool args_ok, int16_t segid, dart_segment_t** seg);

/* Makes nbytes at base (the caller's memory) a segment of the team: one
 * MPI_Win_create window, no shared window (the caller reaches its own part
 * by load/store, every other unit by RMA). Collective; the same agreement
 * as dart__segment_alloc (without the node memory check). */
dart_ret_t dart__segment_register(const char* call, struct dart_team_data* team, size_t nbytes,
                                  void* base, bool args_ok, int16_t segid, dart_segment_t** seg);

/* Test hook: when set to n > 0 on a unit, its n-th next collective set-up
 * (segment or team) behaves as if memory ran out before communicating.
 * Returns true when the set-up must fail. */
bool dart__test_fail_now(void);
extern int dart__test_fail_collective_setup;

/* Frees the segment's windows and memory. Collective over its team. */
dart_ret_t dart__segment_free(const char* call, dart_segment_t* seg);

/* ---- teams (dart_team.c) ------------------------------------------------ */

#define DART_MAX_TEAMS 32768
#define DART_MAX_SEGMENTS 32768

typedef struct dart_team_data {
  dart_team_t id;
  dart_team_t parent;
  uint64_t serial;    /* unique per process, never reused */
  MPI_Comm comm;      /* the team's units, in team order */
  MPI_Comm node_comm; /* team units on the caller's real node */
  int myid;
  int size;
  int* l2g;              /* team unit -> global unit */
  int* g2l;              /* global unit -> team unit or -1 (size: all units) */
  int* node_rank;        /* team unit -> rank in node_comm or -1 */
  bool* reachable;       /* team unit -> load/store fast path allowed */
  bool single_node;      /* all team units share the caller's real node */
  bool window_pair;      /* team memory in the window pair (dart_segment.c) */
  dart_segment_t** segs; /* indexed by segid */
  int segs_cap;
  int16_t next_segid;
  int16_t freed_segid;           /* the last freed segment id, taken first; 0 if none */
  uint16_t next_generation;      /* tag of the next segment (see DART_GPTR_OFFSET_BITS) */
  uint64_t collectives;          /* collectives this unit entered on the team (watchdog on) */
  struct dart_watch_team* watch; /* the watchdog's counter window, NULL when it is off */
} dart_team_data_t;

/* Team data for an id, or NULL. Local, O(1). */
static inline dart_team_data_t* dart__team(dart_team_t teamid);

/* Builds team data around comm (takes ownership). Collective over comm. */
dart_ret_t dart__team_setup(const char* call, MPI_Comm comm, dart_team_t id, dart_team_t parent,
                            dart_team_data_t** team);

/* Frees the team's segments, communicators and data. Collective over it. */
dart_ret_t dart__team_teardown(const char* call, dart_team_data_t* team);

/* Picks the next free segment id of the team: the last one freed if it is still free (DASH's
 * order), else the next free one after the last given out. Local, O(1) mostly. */
int16_t dart__team_next_segid(dart_team_data_t* team);
dart_ret_t dart__team_add_segment(dart_team_data_t* team, dart_segment_t* seg);
/* Test hook: the next segment id the team tries (> 0). Call on every unit. */
void dart__test_set_next_segid(dart_team_t teamid, int16_t segid);
void dart__team_remove_segment(dart_team_data_t* team, int16_t segid);

/* ---- groups (dart_group.c) --------------------------------------------- */

/* False (with a log line naming call) for NULL or a destroyed group. Local. */
bool dart__group_valid(const char* call, const dart_group_t group);

/* Members (ascending) of a group. */
const dart_unit_t* dart__group_members(const dart_group_t group, size_t* count);

/* A new group holding the given global units. */
dart_ret_t dart__group_from_units(const int* units, size_t count, dart_group_t* gout);

/* The checks of a local allocation (dart_memalloc, dart_allocator_alloc):
 * DART running, gptr given (set to DART_GPTR_NULL), an element type, nelem
 * > 0 without overflow; *nbytes = the bytes to allocate. Logs and returns
 * DART_ERR_INVAL / NOTINIT otherwise. */
dart_ret_t dart__local_alloc_args(const char* call, size_t nelem, dart_datatype_t dtype,
                                  dart_gptr_t* gptr, size_t* nbytes);

/* ---- local allocation pool (dart_pool.c) -------------------------------- */

typedef struct dart_pool dart_pool_t;

/* A first-fit allocator over [0, capacity) with coalescing frees; blocks
 * start at multiples of alignment and take whole multiples of it. */
dart_pool_t* dart__pool_create(size_t capacity, size_t alignment);
void dart__pool_destroy(dart_pool_t* pool);
/* Offset of a block of nbytes (rounded up to the alignment), or false when
 * full. */
bool dart__pool_alloc(dart_pool_t* pool, size_t nbytes, uint64_t* offset);
/* Frees the block at offset; false if no block starts there. */
bool dart__pool_free(dart_pool_t* pool, uint64_t offset);
/* Bytes in use. */
size_t dart__pool_used(const dart_pool_t* pool);
/* True if [offset, offset + nbytes) lies inside one allocated block.
 * O(log blocks). */
bool dart__pool_contains(const dart_pool_t* pool, uint64_t offset, uint64_t nbytes);

/* ---- global state (dart_init.c) ---------------------------------------- */

typedef struct {
  bool initialized;
  bool mpi_initialized_by_dart;
  dart_thread_support_level_t thread_level;
  dart_config_t config;
  MPI_Comm comm_all; /* DART_TEAM_ALL's communicator */
  int myid;          /* global unit id */
  int size;          /* number of units */
  int* real_node;    /* global unit -> real node index */
  int* node;         /* global unit -> (real or emulated) node index */
  int num_nodes;     /* (real or emulated) nodes */
  dart_team_data_t* teams[DART_MAX_TEAMS];
  /* per team id: next segment generation, kept when a team is destroyed so
   * that a later team with the same id continues the sequence (its units
   * agree on the maximum in dart__team_setup) */
  uint16_t team_generation[DART_MAX_TEAMS];
  uint64_t next_team_serial;
  dart_segment_t* pool_segment; /* segment 0 of DART_TEAM_ALL */
  dart_pool_t* pool;
  /* live object counters (dart_runtime_stats) */
  long live_windows;
  long live_comms;
  long live_handles;
  long rma_transfers;   /* puts and gets through MPI RMA (relaxed, not atomic, increments) */
  bool yield_when_idle; /* waits poll and yield (DART_WAIT, see dart_progress.c) */
  bool poll_waits;      /* waits poll: the watchdog is on, or yield_when_idle where MPI spins */
} dart_state_t;

extern dart_state_t dart__state;

/* Elements of elem_size bytes per RMA chunk (DART_TRANSFER_CHUNK_SIZE),
 * at least 1; below INT_MAX since the chunk size is at most 1 GiB. */
static inline size_t dart__chunk_elems(size_t elem_size) {
  size_t elems = dart__state.config.transfer_chunk_size / elem_size;
  return elems == 0 ? 1 : elems;
}

/* ---- waiting (dart_progress.c) ---------------------------------------- */

/* Decides dart__state.yield_when_idle from DART_WAIT and, for auto, whether
 * the units of this real node (node_comm) outnumber the cores they may run
 * on together (the union of their affinity masks). Collective over
 * node_comm; returns an MPI error code and sets *failed to the name of the
 * MPI function that returned it. */
int dart__progress_setup(MPI_Comm node_comm, const char** failed);

/* In yield mode, what a polling loop does after its polls-th fruitless
 * poll (counting from 0): nothing for the first few, then sched_yield, then
 * 20 us sleeps. Nothing in spin mode (a watchdog-only poll loop). */
void dart__idle_pause(int polls);

/* What a waiting unit waits for, so that the watchdog can say it. */
typedef struct {
  const char* call;            /* the DART call that waits */
  struct dart_team_data* team; /* its team, NULL if unknown */
  int peer;                    /* team unit waited for; DART_WAIT_ANY_PEER; DART_WAIT_ALL */
  uint64_t collective;         /* DART_WAIT_ALL: the caller's collective count on team */
  MPI_Win win;                 /* an RMA wait: the window (its team is found when reporting) */
} dart_wait_site_t;

#define DART_WAIT_ANY_PEER (-1) /* a receive from any unit */
#define DART_WAIT_ALL (-2)      /* a collective: every unit that has not entered it */
#define DART_WAIT_POLLING (-3)  /* a caller's polling loop (dart_poll_watch): no progress */

/* Counts a collective this unit enters on team and returns the wait site
 * for it (watchdog on: one relaxed store into the team's counter window). */
dart_wait_site_t dart__wait_collective(const char* call, struct dart_team_data* team);

/* Completes the requests like MPI_Waitall; when waits poll
 * (dart__state.poll_waits) by MPI_Testall polls that give the core away
 * in yield mode and check the watchdog's deadline (site may be NULL). */
int dart__wait_requests(const dart_wait_site_t* site, int n, MPI_Request* reqs);

/* When waits poll: a polled barrier over the team, so that a blocking MPI
 * call that follows (communicator or window creation, which spin inside
 * MPI) starts with every unit present; counted and watched like a
 * collective. Nothing in spin mode without the watchdog. */
int dart__polled_barrier(const char* call, struct dart_team_data* team);

/* Runs a collective on team: the blocking MPI call, or when waits poll its
 * non-blocking twin (which must use the MPI_Request req_) and
 * dart__wait_requests with the watchdog's wait site. Returns from the
 * calling function on an MPI error. */
#define DART_MPI_COLLECTIVE(call, team, blocking, nonblocking)                    \
  do {                                                                            \
    int dart__coll_ret_;                                                          \
    if (__builtin_expect(dart__state.poll_waits, 0)) { /* off the fast path */    \
      MPI_Request req_ = MPI_REQUEST_NULL;                                        \
      const dart_wait_site_t dart__site_ = dart__wait_collective((call), (team)); \
      dart__coll_ret_ = (nonblocking);                                            \
      if (dart__coll_ret_ == MPI_SUCCESS)                                         \
        dart__coll_ret_ = dart__wait_requests(&dart__site_, 1, &req_);            \
    } else {                                                                      \
      dart__coll_ret_ = (blocking);                                               \
    }                                                                             \
    if (dart__coll_ret_ != MPI_SUCCESS)                                           \
      return dart__mpi_error(dart__coll_ret_, (call), #blocking);                 \
  } while (0)

/* Runs the functions registered with dart_at_abort (dart_init.c). */
void dart__run_abort_hooks(void);

/* ---- the watchdog (dart_watchdog.c, DART_WATCHDOG) --------------------- */

/* The watchdog's check in a polling loop that started at start_ns
 * (dart__watchdog_now): past the deadline it reports site once and, with
 * DART_WATCHDOG_ACTION=abort, ends the job. *reported keeps the state. */
void dart__watchdog_check(const dart_wait_site_t* site, uint64_t start_ns, bool* reported);

/* Monotonic clock in nanoseconds. */
uint64_t dart__watchdog_now(void);

/* Sets up (watchdog on) the team's counter window. Collective over the
 * team's communicator; returns an MPI error code. */
int dart__watchdog_team_setup(struct dart_team_data* team);

/* Frees the team's counter window (every step, even after a failed one). Returns the first MPI
 * failure as DART_ERR_OTHER, each logged under call. Collective over the team. */
dart_ret_t dart__watchdog_team_teardown(const char* call, struct dart_team_data* team);

/* Checks that every unit runs with the same DART_WATCHDOG and
 * DART_WATCHDOG_ACTION (the counter windows are collective). Collective
 * over comm_all. */
dart_ret_t dart__watchdog_agree(const char* call);

/* True once MPI_Finalize has run. */
bool dart__mpi_finalized(void);

static inline dart_team_data_t* dart__team(dart_team_t teamid) {
  if (teamid < 0) return NULL;
  return dart__state.teams[teamid];
}

#define DART_CHECK_INIT(call)                                                                   \
  do {                                                                                          \
    if (!dart__state.initialized)                                                               \
      return DART_LOG_ERROR_RET(DART_ERR_NOTINIT, (call),                                       \
                                "DART is not initialised (call dart_init; in C++ dash::init)"); \
  } while (0)

#define DART_CHECK_ARG(call, cond, ...)                                          \
  do {                                                                           \
    if (!(cond)) return DART_LOG_ERROR_RET(DART_ERR_INVAL, (call), __VA_ARGS__); \
  } while (0)

/* Team data for teamid or logs "unknown team" and returns NULL. */
dart_team_data_t* dart__team_checked(const char* call, dart_team_t teamid);

/* ---- global pointer resolution (dart_globmem.c) ------------------------- */

/* Where a transfer of nbytes at gptr goes. */
typedef struct {
  dart_segment_t* seg;
  int target;     /* team unit (rank in seg->win's communicator) */
  MPI_Aint disp;  /* byte displacement in the target's part */
  char* shm_addr; /* load/store address, or NULL for RMA */
} dart_target_t;

/* dart__resolve with a log line for every failure (the slow path). */
dart_ret_t dart__resolve_checked(const char* call, dart_gptr_t gptr, size_t nbytes,
                                 dart_target_t* out);

/* Validates gptr and the byte range [offset, offset + nbytes) and resolves
 * it. Logs and returns DART_ERR_INVAL for a null, foreign, freed, stale
 * (generation differs) or out-of-range pointer, DART_ERR_NOTINIT before
 * init. Local, O(1); inline because every transfer and atomic starts here
 * (pool pointers always go through dart__resolve_checked). */
static inline dart_ret_t dart__resolve(const char* call, dart_gptr_t gptr, size_t nbytes,
                                       dart_target_t* out) {
  dart_team_data_t* team = dart__state.initialized ? dart__team(gptr.teamid) : NULL;
  dart_segment_t* seg = team != NULL && gptr.segid >= 0 && gptr.segid < team->segs_cap
                            ? team->segs[gptr.segid]
                            : NULL;
  const int unit = gptr.unitid;
  const uint64_t tagged = gptr.addr_or_offs.offset;
  const uint64_t offset = tagged & DART_GPTR_OFFSET_MASK;
  if (seg == NULL || (tagged >> DART_GPTR_OFFSET_BITS) != seg->generation || unit < 0 ||
      unit >= team->size || offset > seg->nbytes || nbytes > seg->nbytes - offset) {
    return dart__resolve_checked(call, gptr, nbytes, out); /* logs the reason */
  }
  out->seg = seg;
  out->target = unit;
  out->disp = seg->disp_base[unit] + (MPI_Aint)offset;
  out->shm_addr = seg->shm_base[unit] != NULL ? seg->shm_base[unit] + offset : NULL;
  return DART_OK;
}

/* Number of memory bytes spanned by nelem elements laid out as type t;
 * SIZE_MAX if that overflows. */
size_t dart__type_span(const dart_type_info_t* t, size_t nelem);

/* ---- handles (dart_handle.c) -------------------------------------------- */

#define DART_HANDLE_INLINE_REQUESTS 4

typedef enum {
  DART_HANDLE_GET,
  DART_HANDLE_PUT,
  DART_HANDLE_COLL, /* a non-blocking collective */
  DART_HANDLE_P2P   /* a two-sided send */
} dart_handle_kind_t;

struct dart_handle_struct {
  dart_handle_kind_t kind;
  MPI_Win win;
  int target;
  int nreq;
  int capacity;
  MPI_Request* reqs; /* points at inline_reqs or a heap array */
  MPI_Request inline_reqs[DART_HANDLE_INLINE_REQUESTS];
  struct dart_handle_struct* next_free;
  dart_team_t team;    /* COLL / P2P: the team (watchdog reports), else DART_TEAM_NULL */
  uint64_t collective; /* COLL: the collective count when it started */
};

/* A fresh handle with room for nreq requests (NULL on out-of-memory). */
dart_handle_t dart__handle_new(dart_handle_kind_t kind, int nreq);
/* Returns the handle to the free list. */
void dart__handle_release(dart_handle_t handle);
/* dart_wait under the name of call (a blocking transfer the watchdog
 * watches reports as itself). */
dart_ret_t dart__handle_wait(const char* call, dart_handle_t* handle);
/* Frees the calling thread's free list (at exit). */
void dart__handles_cleanup(void);

/* ---- locks (dart_lock.c) ------------------------------------------------ */

/* ---- unit locality (dart_locality.c) ------------------------------------ */

/* Records every unit's locality (host, hwloc NUMA domain / socket / core)
 * under its current comm_all rank, with node ids from dart__state.node and
 * real_node (a later renumbering moves them: dart__locality_renumber).
 * Replaces an earlier set-up. Collective over comm_all. */
dart_ret_t dart__locality_setup(const char* call);

/* Frees the locality records and team domain trees. Local. */
void dart__locality_release(void);

/* The NUMA domain of a global unit (-1: unknown or no set-up yet). Local. */
int dart__locality_numa(int unit);

/* Moves the record of unit u to new_id[u] (unit ids renumbered); call before any team tree is
 * built. DART_ERR_NOMEM if memory runs out. Local. */
dart_ret_t dart__locality_renumber(const int* new_id);

/* ---- unit remapping (dart_unit_mapping.c) -------------------------------- */

/* Reads DART_TOPOLOGY_FILE, computes the unit mapping of DART_UNIT_MAPPING and, if it moves
 * any unit, renumbers: comm_all, myid, node, real_node and the locality records in the new
 * order. Call after the nodes and the locality are known, before teams exist. Collective over
 * comm_all. */
dart_ret_t dart__unit_mapping_setup(const char* call);

/* Frees what the set-up kept. Local. */
void dart__unit_mapping_release(void);

#endif /* DART__INTERNAL_H_ */
