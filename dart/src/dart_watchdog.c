/* The watchdog (DART_WATCHDOG=<seconds>): a unit that has waited that long
 * inside one DART collective or handle wait prints which call it is in, on
 * which team, and which units it still waits for; with
 * DART_WATCHDOG_ACTION=abort it then ends the job with MPI_Abort.
 *
 * MPI does not say which ranks a collective still waits for, so every team
 * carries a side channel while the watchdog is on:
 *
 *   team set-up:   a window with one 64-bit counter per unit
 *   enter a collective on the team (any unit u):
 *                  count[u] += 1        -- one relaxed store, no MPI call
 *   waiting past the deadline in the k-th collective (count[me] == k):
 *                  still waited for = { u : count[u] < k }
 *
 * Units read each other's counters by load through a shared window when the
 * team lives on one node, and by MPI_Rget (passive target, bounded wait)
 * otherwise. A point-to-point wait knows its peer; a caller's polling loop
 * (dart_poll_watch) reports the time since it last made progress. All of this exists only
 * with the watchdog on; with it off no window is made and no counter moves. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dart_internal.h"

/* MPICH's headers make GCC 12 see a zero-sized status array in
 * MPI_Waitall with MPI_STATUSES_IGNORE (a false positive). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

/* The exit code of a job the watchdog aborts. */
#define DART_WATCHDOG_EXIT_CODE 3

/* Nanoseconds the report waits for remote counters (RMA layout). */
#define REMOTE_READ_NS 200000000ull

/* Each unit's counter sits alone in a cache line. */
#define COUNTER_BYTES 64

struct dart_watch_team {
  MPI_Win win;
  bool shared;          /* every counter is reachable by load */
  uint64_t* mine;       /* this unit's counter */
  uint64_t** counters;  /* shared: per team unit, the counter's address */
  uint64_t* fetched;    /* RMA: per team unit, the counter read by MPI_Rget */
  MPI_Request* pending; /* RMA: per team unit, an MPI_Rget not yet complete */
};

uint64_t dart__watchdog_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

dart_wait_site_t dart__wait_collective(const char* call, dart_team_data_t* team) {
  dart_wait_site_t site = {call, team, DART_WAIT_ALL, 0, MPI_WIN_NULL};
  if (team != NULL && team->watch != NULL) {
    site.collective = ++team->collectives;
    __atomic_store_n(team->watch->mine, site.collective, __ATOMIC_RELAXED);
  }
  return site;
}

dart_ret_t dart__watchdog_agree(const char* call) {
  const dart_config_t* cfg = &dart__state.config;
  int mine[4] = {cfg->watchdog_seconds, -cfg->watchdog_seconds, (int)cfg->watchdog_action,
                 -(int)cfg->watchdog_action};
  int all[4];
  DART_MPI_CALL(call, MPI_Allreduce(mine, all, 4, MPI_INT, MPI_MAX, dart__state.comm_all));
  if (all[0] != -all[1] || all[2] != -all[3]) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "DART_WATCHDOG and DART_WATCHDOG_ACTION differ between units "
                              "(this unit: %d s, %s); set them alike on every unit",
                              cfg->watchdog_seconds,
                              cfg->watchdog_action == DART_WATCHDOG_ABORT ? "abort" : "report");
  }
  return DART_OK;
}

static void free_watch(struct dart_watch_team* w) {
  free(w->counters);
  free(w->fetched);
  free(w->pending);
  free(w);
}

int dart__watchdog_team_setup(dart_team_data_t* team) {
  team->watch = NULL;
  team->collectives = 0;
  if (dart__state.config.watchdog_seconds <= 0) return MPI_SUCCESS;
  struct dart_watch_team* w = calloc(1, sizeof *w);
  const size_t n = (size_t)team->size;
  if (w == NULL) return MPI_ERR_NO_MEM;
  w->shared = !team->window_pair;
  w->counters = calloc(n, sizeof *w->counters);
  w->fetched = calloc(n, sizeof *w->fetched);
  w->pending = malloc(n * sizeof *w->pending);
  if (w->counters == NULL || w->fetched == NULL || w->pending == NULL) {
    free_watch(w);
    return MPI_ERR_NO_MEM;
  }
  for (size_t u = 0; u < n; ++u) w->pending[u] = MPI_REQUEST_NULL;
  int ret =
      w->shared
          ? MPI_Win_allocate_shared(COUNTER_BYTES, 1, MPI_INFO_NULL, team->comm, &w->mine, &w->win)
          : MPI_Win_allocate(COUNTER_BYTES, 1, MPI_INFO_NULL, team->comm, &w->mine, &w->win);
  if (ret != MPI_SUCCESS) {
    free_watch(w);
    return ret;
  }
  ret = MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN);
  *w->mine = 0;
  for (int u = 0; u < team->size && w->shared && ret == MPI_SUCCESS; ++u) {
    MPI_Aint size = 0;
    int disp_unit = 0;
    ret = MPI_Win_shared_query(w->win, u, &size, &disp_unit, &w->counters[u]);
    if (ret != MPI_SUCCESS) break;
  }
  if (ret == MPI_SUCCESS) ret = MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win);
  if (ret == MPI_SUCCESS) ret = MPI_Barrier(team->comm); /* every counter is 0 */
  if (ret != MPI_SUCCESS) {
    (void)MPI_Win_free(&w->win); /* error path: ret is returned */
    free_watch(w);
    return ret;
  }
  team->watch = w;
  return MPI_SUCCESS;
}

dart_ret_t dart__watchdog_team_teardown(const char* call, dart_team_data_t* team) {
  struct dart_watch_team* w = team->watch;
  if (w == NULL) return DART_OK;
  team->watch = NULL;
  /* Every step runs after a failed one too (MPI_Win_free is collective). */
  const int waited = MPI_Waitall(team->size, w->pending, MPI_STATUSES_IGNORE);
  dart_ret_t ret = dart__mpi_error(waited, call, "MPI_Waitall");
  const int unlocked = MPI_Win_unlock_all(w->win);
  const dart_ret_t unlock_ret = dart__mpi_error(unlocked, call, "MPI_Win_unlock_all");
  if (ret == DART_OK) ret = unlock_ret;
  const dart_ret_t free_ret = dart__mpi_error(MPI_Win_free(&w->win), call, "MPI_Win_free");
  if (ret == DART_OK) ret = free_ret;
  /* Unless the reads completed (either call above), MPI may still write into fetched: then
   * the buffers are left. */
  if (waited == MPI_SUCCESS || unlocked == MPI_SUCCESS) free_watch(w);
  return ret;
}

/* Reads every other unit's counter into w->fetched; known[u] tells which
 * reads completed (remote counters: within REMOTE_READ_NS). */
static void read_counters(dart_team_data_t* team, bool* known) {
  struct dart_watch_team* w = team->watch;
  for (int u = 0; u < team->size; ++u) {
    known[u] = w->shared;
    if (w->shared) {
      w->fetched[u] = __atomic_load_n(w->counters[u], __ATOMIC_RELAXED);
    } else if (u != team->myid && w->pending[u] == MPI_REQUEST_NULL) {
      if (MPI_Rget(&w->fetched[u], 1, MPI_UINT64_T, u, 0, 1, MPI_UINT64_T, w->win,
                   &w->pending[u]) != MPI_SUCCESS) {
        w->pending[u] = MPI_REQUEST_NULL;
      }
    }
  }
  if (w->shared) return;
  known[team->myid] = true;
  w->fetched[team->myid] = *w->mine;
  const uint64_t start = dart__watchdog_now();
  for (bool open = true; open && dart__watchdog_now() - start < REMOTE_READ_NS;) {
    open = false;
    for (int u = 0; u < team->size; ++u) {
      if (u == team->myid || known[u]) continue;
      int done = 0;
      if (w->pending[u] != MPI_REQUEST_NULL &&
          MPI_Test(&w->pending[u], &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        done = 0; /* the counter stays unknown: the report says no answer */
      known[u] = done != 0;
      open = open || !known[u];
    }
  }
}

/* Appends text to buf (size bytes), truncating. */
static void append(char* buf, size_t size, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char* buf, size_t size, const char* fmt, ...) {
  size_t used = strlen(buf);
  if (used + 1 >= size) return;
  va_list args;
  va_start(args, fmt);
  vsnprintf(buf + used, size - used, fmt, args);
  va_end(args);
}

/* Lists the team units (and their global ids) of a set, at most 32. */
static void append_units(char* buf, size_t size, const dart_team_data_t* team, const bool* in_set) {
  int listed = 0, more = 0;
  for (int u = 0; u < team->size; ++u) {
    if (!in_set[u]) continue;
    if (listed == 32) {
      ++more;
      continue;
    }
    append(buf, size, "%s%d", listed > 0 ? ", " : "", u);
    if (team->id != DART_TEAM_ALL) append(buf, size, " (unit %d)", team->l2g[u]);
    ++listed;
  }
  if (more > 0) append(buf, size, " and %d more", more);
}

/* The team of a window (RMA handles know only their window). Slow path. */
static dart_team_data_t* team_of_window(MPI_Win win) {
  for (int t = 0; t < DART_MAX_TEAMS; ++t) {
    dart_team_data_t* team = dart__state.teams[t];
    for (int s = 0; team != NULL && s < team->segs_cap; ++s) {
      if (team->segs[s] != NULL && team->segs[s]->win == win) return team;
    }
  }
  return NULL;
}

/* Says what a collective still waits for. */
static void describe_collective(char* line, size_t size, dart_team_data_t* team,
                                uint64_t collective) {
  if (team->watch == NULL) {
    append(line, size, "for units that have not entered it (no counters)");
    return;
  }
  bool* known = calloc((size_t)team->size, sizeof *known);
  bool* missing = calloc((size_t)team->size, sizeof *missing);
  if (known == NULL || missing == NULL) {
    append(line, size, "(out of memory listing the units)");
  } else {
    read_counters(team, known);
    int nmissing = 0, nunknown = 0;
    for (int u = 0; u < team->size; ++u) {
      missing[u] = known[u] && team->watch->fetched[u] < collective;
      nmissing += missing[u];
      nunknown += !known[u];
    }
    if (nmissing > 0) {
      append(line, size, "still waiting for %s ",
             team->id == DART_TEAM_ALL ? "units" : "team units");
      append_units(line, size, team, missing);
    } else if (nunknown == 0) {
      append(line, size, "every unit has entered it (one may have died inside it)");
    }
    if (nunknown > 0) {
      /* An MPI_Rget whose target makes no MPI progress (it is not in an
       * MPI call) may not complete: such units are most likely the ones
       * still waited for. */
      for (int u = 0; u < team->size; ++u) known[u] = !known[u];
      append(line, size, "%sno answer from %s ", nmissing > 0 ? "; " : "",
             team->id == DART_TEAM_ALL ? "units" : "team units");
      append_units(line, size, team, known);
      append(line, size, " (not in an MPI call: likely the ones still waited for)");
    }
  }
  free(known);
  free(missing);
}

/* One line: the call, the team, what it waits for, the action. */
static void report(const dart_wait_site_t* site, uint64_t waited_ns) {
  const dart_config_t* cfg = &dart__state.config;
  char line[1536] = "";
  const char* call = site != NULL ? site->call : "an internal wait";
  dart_team_data_t* team = site != NULL ? site->team : NULL;
  append(line, sizeof line, "[dart unit %d] WATCHDOG %s: waited %.1f s", dart__state.myid, call,
         (double)waited_ns / 1e9);
  if (team != NULL) append(line, sizeof line, " on team %d (%d units)", (int)team->id, team->size);
  append(line, sizeof line, "; ");
  if (site == NULL) {
    append(line, sizeof line, "waiting inside MPI");
  } else if (site->peer == DART_WAIT_ALL && team != NULL) {
    describe_collective(line, sizeof line, team, site->collective);
  } else if (site->peer == DART_WAIT_ANY_PEER) {
    append(line, sizeof line, "waiting for a message from any unit");
  } else if (site->peer == DART_WAIT_POLLING) {
    append(line, sizeof line, "no progress polling for messages from any unit");
  } else if (team != NULL) {
    append(line, sizeof line, "waiting for %s %d", team->id == DART_TEAM_ALL ? "unit" : "team unit",
           site->peer);
    if (team->id != DART_TEAM_ALL && site->peer >= 0 && site->peer < team->size)
      append(line, sizeof line, " (unit %d)", team->l2g[site->peer]);
  } else {
    append(line, sizeof line, "waiting for unit %d", site->peer);
  }
  append(line, sizeof line, " (DART_WATCHDOG=%d)", cfg->watchdog_seconds);
  if (cfg->watchdog_action == DART_WATCHDOG_ABORT)
    append(line, sizeof line, "; aborting the job (DART_WATCHDOG_ACTION=abort)");
  fprintf(stderr, "%s\n", line);
  fflush(stderr);
}

void dart__watchdog_check(const dart_wait_site_t* site, uint64_t start_ns, bool* reported) {
  if (*reported) return;
  const uint64_t waited = dart__watchdog_now() - start_ns;
  if (waited < (uint64_t)dart__state.config.watchdog_seconds * 1000000000ull) return;
  *reported = true;
  dart_wait_site_t resolved;
  if (site != NULL && site->team == NULL && site->win != MPI_WIN_NULL) {
    /* An RMA handle knows only its window: find the window's team. */
    resolved = *site;
    resolved.team = team_of_window(site->win);
    site = &resolved;
  }
  report(site, waited);
  if (dart__state.config.watchdog_action == DART_WATCHDOG_ABORT) {
    /* The launcher forwards stderr through a pipe, and an abort that ends the job at once
       can drop the report on its way (MPICH's hydra did, once in a loaded test run). A
       moment for it to pass, against the seconds the deadline already waited. */
    const struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    dart__run_abort_hooks();
    (void)MPI_Abort(MPI_COMM_WORLD, DART_WATCHDOG_EXIT_CODE); /* returns only when it failed */
    exit(DART_WATCHDOG_EXIT_CODE);
  }
}

void dart_poll_watch_begin(dart_poll_watch_t* watch, const char* call, dart_team_t team) {
  watch->call = call;
  watch->team = team;
  watch->reported = 0;
  watch->since_ns = dart__state.config.watchdog_seconds > 0 ? dart__watchdog_now() : 0;
}

void dart_poll_watch(dart_poll_watch_t* watch, int progress) {
  if (__builtin_expect(dart__state.config.watchdog_seconds <= 0, 1)) return;
  if (progress) {
    watch->since_ns = dart__watchdog_now();
    watch->reported = 0;
    return;
  }
  dart_team_data_t* team = NULL;
  if (dart__state.initialized && watch->team >= 0) /* an int16_t: below DART_MAX_TEAMS */
    team = dart__team(watch->team);
  const dart_wait_site_t site = {watch->call, team, DART_WAIT_POLLING, 0, MPI_WIN_NULL};
  bool reported = watch->reported != 0;
  dart__watchdog_check(&site, watch->since_ns, &reported);
  watch->reported = reported ? 1 : 0;
}
