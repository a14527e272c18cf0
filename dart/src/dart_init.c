/* dart_init / dart_exit: MPI start-up, node discovery, unit remapping, locality,
 * DART_TEAM_ALL and the local allocation pool. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <dart/dart_flags.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dart_internal.h"

dart_state_t dart__state;

static int compare_int64(const void* a, const void* b) {
  int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return (x > y) - (x < y);
}

bool dart__mpi_finalized(void) {
  int finalized = 0;
  (void)MPI_Finalized(&finalized); /* allowed at any time; fails only for a NULL flag */
  return finalized != 0;
}

/* Replaces each key by the index of its value among the distinct values in
 * ascending order. */
static dart_ret_t compress_keys(int64_t* keys, int* out, size_t n) {
  int64_t* sorted = malloc(n * sizeof *sorted);
  if (sorted == NULL) return DART_ERR_NOMEM;
  memcpy(sorted, keys, n * sizeof *sorted);
  qsort(sorted, n, sizeof *sorted, compare_int64);
  size_t distinct = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i == 0 || sorted[i] != sorted[distinct - 1]) sorted[distinct++] = sorted[i];
  }
  for (size_t u = 0; u < n; ++u) {
    size_t lo = 0, hi = distinct;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (sorted[mid] < keys[u])
        lo = mid + 1;
      else
        hi = mid;
    }
    out[u] = (int)lo;
  }
  free(sorted);
  return DART_OK;
}

/* Fills real_node[] and node[] for every global unit. Real nodes are the MPI
 * shared-memory domains, numbered by their lowest unit id. A unit's node is
 * its real node, further cut into groups of DART_VIRTUAL_NODE_SIZE
 * consecutive unit ids when that flag is set. Collective. */
static dart_ret_t discover_nodes(const char* call) {
  MPI_Comm shm = MPI_COMM_NULL;
  DART_MPI_CALL(call, MPI_Comm_split_type(dart__state.comm_all, MPI_COMM_TYPE_SHARED, 0,
                                          MPI_INFO_NULL, &shm));
  int leader = dart__state.myid; /* lowest unit id on my real node */
  const char* failed = "MPI_Allreduce";
  int ret = MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, shm);
  if (ret == MPI_SUCCESS) ret = dart__progress_setup(shm, &failed);
  (void)MPI_Comm_free(&shm); /* a failure only leaks shm */
  if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, failed);
  const size_t n = (size_t)dart__state.size;
  int* leaders = malloc(n * sizeof *leaders);
  int64_t* keys = malloc(n * sizeof *keys);
  dart__state.real_node = malloc(n * sizeof *dart__state.real_node);
  dart__state.node = malloc(n * sizeof *dart__state.node);
  dart_ret_t result = DART_OK;
  if (!leaders || !keys || !dart__state.real_node || !dart__state.node) {
    result = DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
    goto done;
  }
  ret = MPI_Allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, dart__state.comm_all);
  if (ret != MPI_SUCCESS) {
    result = dart__mpi_error(ret, call, "MPI_Allgather");
    goto done;
  }
  for (size_t u = 0; u < n; ++u) keys[u] = leaders[u];
  if (compress_keys(keys, dart__state.real_node, n) != DART_OK) goto nomem;
  const int k = dart__state.config.virtual_node_size;
  for (size_t u = 0; u < n; ++u) {
    int64_t group = k > 0 ? (int64_t)u / k : 0;
    keys[u] = (int64_t)dart__state.real_node[u] * (int64_t)n + group;
  }
  if (compress_keys(keys, dart__state.node, n) != DART_OK) goto nomem;
  dart__state.num_nodes = 0;
  for (size_t u = 0; u < n; ++u) {
    if (dart__state.node[u] >= dart__state.num_nodes)
      dart__state.num_nodes = dart__state.node[u] + 1;
  }
  goto done;
nomem:
  result = DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
done:
  free(leaders);
  free(keys);
  return result;
}

/* OpenMPI's osc pt2pt, the one-sided component for windows across hosts on TCP, fails every
 * window at MPI_THREAD_MULTIPLE instead of declining. When the launcher lists it in
 * OMPI_MCA_osc (scripts/launch.sh --nodes does, beside osc ucx) and MULTIPLE is asked for, it is
 * taken out of that list before MPI starts, so the next component in it serves those windows.
 * Local; only environment variables change. */
static void drop_osc_pt2pt(const char* call, const dart_config_t* config) {
  if (DART_MPI_IS_MPICH) return;
  const char* list = getenv("OMPI_MCA_osc");
  if (list == NULL || strstr(list, "pt2pt") == NULL || list[0] == '^') return;
  char kept[256] = "";
  size_t used = 0;
  const char* p = list;
  while (*p != '\0') {
    size_t len = strcspn(p, ",");
    if (!(len == 5 && strncmp(p, "pt2pt", 5) == 0) && used + len + 2 < sizeof kept) {
      if (used > 0) kept[used++] = ',';
      memcpy(kept + used, p, len);
      used += len;
      kept[used] = '\0';
    }
    p += len;
    if (*p == ',') ++p;
  }
  if (used == 0) return; /* pt2pt was the only one: leave the user's choice and its error */
  if (config->log_level >= DART_LOG_INFO) {
    fprintf(stderr,
            "[dart] INFO %s: MPI_THREAD_MULTIPLE: OMPI_MCA_osc '%s' becomes '%s' (osc "
            "pt2pt refuses that level)\n",
            call, list, kept);
  }
  setenv("OMPI_MCA_osc", kept, 1);
}

static dart_ret_t create_team_all(const char* call) {
  MPI_Comm comm = MPI_COMM_NULL;
  DART_MPI_CALL(call, MPI_Comm_dup(dart__state.comm_all, &comm));
  ++dart__state.live_comms;
  dart_team_data_t* team = NULL;
  dart_ret_t ret = dart__team_setup(call, comm, DART_TEAM_ALL, DART_TEAM_NULL, &team);
  if (ret != DART_OK) {
    (void)MPI_Comm_free(&comm); /* error path: the set-up error is returned */
    --dart__state.live_comms;
    return ret;
  }
  dart__state.teams[DART_TEAM_ALL] = team;
  /* Segment 0 of DART_TEAM_ALL: every unit's local allocation pool. */
  dart_segment_t* pool = NULL;
  ret = dart__segment_alloc(call, team, dart__state.config.local_pool_size, 0, true,
                            DART_SEGMENT_LOCAL, &pool);
  if (ret != DART_OK) return ret;
  pool->generation = DART_POOL_GENERATION;
  dart__team_add_segment(team, pool);
  dart__state.pool_segment = pool;
  dart__state.pool = dart__pool_create(dart__state.config.local_pool_size, 64);
  if (dart__state.pool == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  return DART_OK;
}

/* Frees the teams, the pool and comm_all, all of them even after a failure. Returns the first
 * error (each is logged under call). Collective. */
static dart_ret_t release_state(const char* call) {
  dart_ret_t result = DART_OK;
  for (int t = DART_MAX_TEAMS - 1; t >= 0; --t) {
    dart_team_data_t* team = dart__state.teams[t];
    if (team == NULL) continue;
    dart__state.teams[t] = NULL;
    if (t == DART_TEAM_ALL && dart__state.pool_segment != NULL) {
      const dart_ret_t ret = dart__segment_free(call, dart__state.pool_segment);
      if (result == DART_OK) result = ret;
      dart__state.pool_segment = NULL;
    }
    const dart_ret_t ret = dart__team_teardown(call, team);
    if (result == DART_OK) result = ret;
  }
  dart__pool_destroy(dart__state.pool);
  dart__state.pool = NULL;
  dart__locality_release();
  dart__unit_mapping_release();
  free(dart__state.real_node);
  free(dart__state.node);
  dart__state.real_node = dart__state.node = NULL;
  if (dart__state.comm_all != MPI_COMM_NULL) {
    const dart_ret_t ret =
        dart__mpi_error(MPI_Comm_free(&dart__state.comm_all), call, "MPI_Comm_free");
    if (result == DART_OK) result = ret;
    dart__state.comm_all = MPI_COMM_NULL;
  }
  return result;
}

/* The flags that steer what every unit does together at start-up and later (a unit that read
 * them otherwise would wait for ever in another collective) must be alike on every unit: an
 * error naming the flag on every unit otherwise. Collective. */
static dart_ret_t agree_on_flags(const char* call) {
  static const char* const names[] = {"DART_UNIT_MAPPING",          "DART_UNIT_MAPPING_DIMS",
                                      "DART_UNIT_MAPPING_FALLBACK", "DART_TOPOLOGY_FILE",
                                      "DART_VIRTUAL_NODE_SIZE",     "DART_SHARED_WINDOWS",
                                      "DART_TEST_FORCE_WINDOW_PAIR"};
  char err[DART_FLAG_ERROR_SIZE];
  const dart_ret_t ret = dart__flags_agree(dart__state.comm_all, names,
                                           sizeof names / sizeof names[0], err, sizeof err);
  if (ret != DART_OK) return DART_LOG_ERROR_RET(ret, call, "%s", err);
  return DART_OK;
}

static dart_ret_t init_common(const char* call, int* argc, char*** argv,
                              dart_thread_support_level_t* provided) {
  if (dart__state.initialized) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "DART is already initialised");
  }
  dart_config_t config;
  dart_ret_t ret = dart__config_read(&config);
  if (ret != DART_OK) return ret;
  if (dart__mpi_finalized()) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "MPI was finalised; DART cannot start again in this process");
  }
  bool want_multiple = provided != NULL && *provided == DART_THREAD_MULTIPLE;
  int mpi_initialized = 0, mpi_provided = MPI_THREAD_SINGLE;
  DART_MPI_CALL(call, MPI_Initialized(&mpi_initialized));
  if (!mpi_initialized) {
    if (want_multiple) drop_osc_pt2pt(call, &config);
    int mpi_ret = MPI_Init_thread(
        argc, argv, want_multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &mpi_provided);
    if (mpi_ret != MPI_SUCCESS) return dart__mpi_error(mpi_ret, call, "MPI_Init_thread");
    dart__state.mpi_initialized_by_dart = true;
  } else {
    DART_MPI_CALL(call, MPI_Query_thread(&mpi_provided));
    dart__state.mpi_initialized_by_dart = false;
  }
  ret = dart__types_probe_mpi(call);
  if (ret != DART_OK) return ret;
  dart__state.config = config;
  dart__state.thread_level =
      mpi_provided >= MPI_THREAD_MULTIPLE ? DART_THREAD_MULTIPLE : DART_THREAD_SINGLE;
  if (provided != NULL) *provided = dart__state.thread_level;
  if (want_multiple && mpi_provided < MPI_THREAD_MULTIPLE) {
    dart__log(DART_LOG_WARN, call, "requested MPI_THREAD_MULTIPLE, MPI granted level %d",
              mpi_provided);
  }
  int mpi_ret = MPI_Comm_dup(MPI_COMM_WORLD, &dart__state.comm_all);
  if (mpi_ret != MPI_SUCCESS) return dart__mpi_error(mpi_ret, call, "MPI_Comm_dup");
  ret = dart__mpi_error(MPI_Comm_set_errhandler(dart__state.comm_all, MPI_ERRORS_RETURN), call,
                        "MPI_Comm_set_errhandler");
  if (ret == DART_OK)
    ret = dart__mpi_error(MPI_Comm_rank(dart__state.comm_all, &dart__state.myid), call,
                          "MPI_Comm_rank");
  if (ret == DART_OK)
    ret = dart__mpi_error(MPI_Comm_size(dart__state.comm_all, &dart__state.size), call,
                          "MPI_Comm_size");
  dart__state.next_team_serial = 1;
  if (ret == DART_OK) ret = dart__watchdog_agree(call);
  if (ret == DART_OK) ret = agree_on_flags(call);
  if (ret == DART_OK) ret = discover_nodes(call);
  if (ret == DART_OK) ret = dart__locality_setup(call);
  if (ret == DART_OK) ret = dart__unit_mapping_setup(call); /* uses the NUMA domains */
  if (ret == DART_OK) ret = create_team_all(call);
  if (ret != DART_OK) {
    (void)release_state(call); /* the set-up error is the one returned */
    return ret;
  }
  dart__state.initialized = true;
  dart__log(DART_LOG_INFO, call,
            "%d units on %d node(s) (virtual node size %d), shared windows %s, thread level %s",
            dart__state.size, dart__state.num_nodes, config.virtual_node_size,
            config.shared_windows ? "on" : "off",
            dart__state.thread_level == DART_THREAD_MULTIPLE ? "multiple" : "single");
  return DART_OK;
}

dart_ret_t dart_init(int* argc, char*** argv) { return init_common("dart_init", argc, argv, NULL); }

dart_ret_t dart_init_thread(int* argc, char*** argv, dart_thread_support_level_t* provided) {
  DART_CHECK_ARG("dart_init_thread", provided != NULL, "provided is NULL");
  return init_common("dart_init_thread", argc, argv, provided);
}

dart_ret_t dart_exit(void) {
  DART_CHECK_INIT("dart_exit");
  /* A failed barrier or release is reported, but the unit still releases its state and
   * finalises MPI. */
  int barrier = dart__state.poll_waits /* polled and watched (DART_WATCHDOG) */
                    ? dart__polled_barrier("dart_exit", dart__team(DART_TEAM_ALL))
                    : MPI_Barrier(dart__state.comm_all);
  dart_ret_t first_error = DART_OK;
  if (barrier != MPI_SUCCESS)
    first_error = dart__mpi_error(barrier, "dart_exit", "the closing barrier");
  dart__ops_cleanup();
  dart__types_cleanup();
  dart__rma_layouts_free();
  const dart_ret_t released = release_state("dart_exit");
  if (first_error == DART_OK) first_error = released;
  dart__handles_cleanup();
  dart__state.initialized = false;
  int ret = MPI_SUCCESS;
  if (dart__state.mpi_initialized_by_dart) ret = MPI_Finalize();
  dart__state.mpi_initialized_by_dart = false;
  if (ret != MPI_SUCCESS) return dart__mpi_error(ret, "dart_exit", "MPI_Finalize");
  return first_error;
}

int dart_initialized(void) { return dart__state.initialized ? 1 : 0; }

/* dart_at_abort's functions: slots filled once, never emptied, read without a lock. */
#define DART_MAX_ABORT_HOOKS 8
static void (*abort_hooks[DART_MAX_ABORT_HOOKS])(void);

dart_ret_t dart_at_abort(void (*fn)(void)) {
  DART_CHECK_ARG("dart_at_abort", fn != NULL, "fn is NULL");
  for (int i = 0; i < DART_MAX_ABORT_HOOKS; ++i) {
    void (*expected)(void) = NULL;
    if (__atomic_compare_exchange_n(&abort_hooks[i], &expected, fn, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE) ||
        expected == fn)
      return DART_OK;
  }
  return DART_LOG_ERROR_RET(DART_ERR_INVAL, "dart_at_abort",
                            "%d functions are registered already (the most there can be)",
                            DART_MAX_ABORT_HOOKS);
}

void dart__run_abort_hooks(void) {
  for (int i = 0; i < DART_MAX_ABORT_HOOKS; ++i) {
    void (*fn)(void) = __atomic_load_n(&abort_hooks[i], __ATOMIC_ACQUIRE);
    if (fn != NULL) fn();
  }
}

void dart_abort(int errorcode) {
  dart__run_abort_hooks();
  int mpi_initialized = 0;
  (void)MPI_Initialized(&mpi_initialized); /* on a failure the flag stays 0: exit below */
  /* MPI_Abort returns only when it failed: exit below then */
  if (mpi_initialized && !dart__mpi_finalized()) (void)MPI_Abort(MPI_COMM_WORLD, errorcode);
  exit(errorcode);
}

dart_ret_t dart_thread_support_level(dart_thread_support_level_t* provided) {
  DART_CHECK_INIT("dart_thread_support_level");
  DART_CHECK_ARG("dart_thread_support_level", provided != NULL, "provided is NULL");
  *provided = dart__state.thread_level;
  return DART_OK;
}

dart_ret_t dart_runtime_stats(dart_runtime_stats_t* stats) {
  DART_CHECK_INIT("dart_runtime_stats");
  DART_CHECK_ARG("dart_runtime_stats", stats != NULL, "stats is NULL");
  *stats = (dart_runtime_stats_t){0};
  for (int t = 0; t < DART_MAX_TEAMS; ++t) {
    const dart_team_data_t* team = dart__state.teams[t];
    if (team == NULL) continue;
    ++stats->teams;
    for (int s = 0; s < team->segs_cap; ++s) stats->segments += team->segs[s] != NULL;
  }
  stats->windows = dart__state.live_windows;
  stats->communicators = dart__state.live_comms + 1; /* + comm_all */
  stats->handles = __atomic_load_n(&dart__state.live_handles, __ATOMIC_RELAXED);
  stats->local_pool_used = dart__pool_used(dart__state.pool);
  stats->rma_transfers = __atomic_load_n(&dart__state.rma_transfers, __ATOMIC_RELAXED);
  return DART_OK;
}
