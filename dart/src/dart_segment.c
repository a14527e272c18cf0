/* Team memory segments and the windows behind them.
 *
 * Layout:
 *   single window: the team lives on one real node. One
 *     MPI_Win_allocate_shared window over the team communicator; units that
 *     may use the fast path get each other's base address from
 *     MPI_Win_shared_query, all others use RMA on the same window.
 *   window pair: the team spans real nodes, or on MPICH some unit reaches
 *     another only by RMA (emulated nodes; see dart_team.c), or the test
 *     switch DART_TEST_FORCE_WINDOW_PAIR is set. A shared window over the units of
 *     each real node holds the memory; MPI_Win_create over the same bytes on
 *     the team communicator serves RMA.
 * A passive-target epoch (MPI_Win_lock_all) is opened once here and closed
 * when the segment is freed.
 *
 * MPI gives no alignment for shared-window bases, so each unit's window
 * memory has DART_SEGMENT_ALIGNMENT spare bytes and its part starts at the
 * first aligned address. A mapping keeps the in-page offset of every byte, so
 * the padding computed from a shared-query address is the owner's padding. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/sysinfo.h>

#include "dart_internal.h"

/* The hints of segment windows in *info (MPI_INFO_NULL on failure). Logs a failure under call;
 * returns false then. */
static bool segment_info(const char* call, MPI_Info* info) {
  *info = MPI_INFO_NULL;
  MPI_Info made = MPI_INFO_NULL;
  int ret = MPI_Info_create(&made);
  if (ret != MPI_SUCCESS) {
    dart__mpi_error(ret, call, "MPI_Info_create");
    return false;
  }
  ret = MPI_Info_set(made, "alloc_shared_noncontig", "true");
  if (ret == MPI_SUCCESS) ret = MPI_Info_set(made, "same_disp_unit", "true");
  if (ret != MPI_SUCCESS) {
    dart__mpi_error(ret, call, "MPI_Info_set");
    (void)MPI_Info_free(&made); /* error path: the MPI_Info_set failure is reported */
    return false;
  }
  *info = made;
  return true;
}

/* Bytes from p to the next multiple of DART_SEGMENT_ALIGNMENT. */
static size_t align_pad(const char* p) {
  return (DART_SEGMENT_ALIGNMENT - (uintptr_t)p % DART_SEGMENT_ALIGNMENT) % DART_SEGMENT_ALIGNMENT;
}

/* Fills seg->shm_base for the team units the fast path may reach and
 * seg->disp_base for all. The shared window is over the team (single window:
 * every unit can be queried, its part lies at its padding in seg->win) or over
 * the node's units (pair: seg->win was created over the aligned parts). */
static dart_ret_t query_shared_bases(const char* call, dart_team_data_t* team, dart_segment_t* seg,
                                     bool pair) {
  for (int unit = 0; unit < team->size; ++unit) {
    seg->shm_base[unit] = NULL;
    seg->disp_base[unit] = 0;
    if (pair && !team->reachable[unit]) continue;
    int rank = pair ? team->node_rank[unit] : unit;
    MPI_Aint size = 0;
    int disp_unit = 0;
    char* base = NULL;
    DART_MPI_CALL(call, MPI_Win_shared_query(seg->shm_win, rank, &size, &disp_unit, &base));
    const size_t pad = align_pad(base);
    if (!pair) seg->disp_base[unit] = (MPI_Aint)pad;
    if (team->reachable[unit]) seg->shm_base[unit] = base + pad;
  }
  return DART_OK;
}

/* Bytes one node can back with memory: RAM plus swap (sysinfo). */
static uint64_t node_memory_bytes(void) {
  struct sysinfo info;
  if (sysinfo(&info) != 0) return UINT64_MAX;
  return ((uint64_t)info.totalram + (uint64_t)info.totalswap) * (uint64_t)info.mem_unit;
}

int dart__test_fail_collective_setup = 0;

bool dart__test_fail_now(void) {
  return dart__test_fail_collective_setup > 0 && --dart__test_fail_collective_setup == 0;
}

/* What went wrong on some unit before the window was made (bits). */
enum { SETUP_BAD_ARGS = 1, SETUP_NOMEM = 2, SETUP_NODE_TOO_SMALL = 4, SETUP_MPI_FAILED = 8 };

/* The units agree, in one allreduce over the team, on everything that must
 * hold before MPI is asked for a window: the same size and argument check
 * value everywhere, every unit's set-up done, the size backed by each node's
 * memory. In yield mode this allreduce also gathers the units before the
 * blocking window creation. Returns the same verdict on every unit. */
static dart_ret_t agree_before_window(const char* call, dart_team_data_t* team, size_t nbytes,
                                      uint64_t check, int local_flags, int shm_units) {
  /* shm_units 0: memory the units brought (registered), nothing to back. */
  if (shm_units > 0 && nbytes > (node_memory_bytes() / (uint64_t)shm_units))
    local_flags |= SETUP_NODE_TOO_SMALL;
  /* MAX of x and of ~x gives max and min in one reduction. */
  uint64_t v[5] = {nbytes, ~(uint64_t)nbytes, check, ~check, (uint64_t)local_flags};
  DART_MPI_COLLECTIVE(call, team,
                      MPI_Allreduce(MPI_IN_PLACE, v, 5, MPI_UINT64_T, MPI_MAX, team->comm),
                      MPI_Iallreduce(MPI_IN_PLACE, v, 5, MPI_UINT64_T, MPI_MAX, team->comm, &req_));
  const int flags = (int)v[4];
  if (flags & SETUP_BAD_ARGS) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "invalid arguments on %s unit of team %d",
                              (local_flags & SETUP_BAD_ARGS) ? "this" : "another", (int)team->id);
  }
  if (v[0] != ~v[1]) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "the units of team %d asked for different sizes (%llu to %llu bytes "
                              "per unit, %zu here); a collective allocation needs the same size "
                              "on every unit",
                              (int)team->id, (unsigned long long)~v[1], (unsigned long long)v[0],
                              nbytes);
  }
  if (v[2] != ~v[3]) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "the units of team %d passed different collective arguments "
                              "(argument check value %llx here)",
                              (int)team->id, (unsigned long long)check);
  }
  if (flags & SETUP_NOMEM) {
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory on %s unit of team %d",
                              (local_flags & SETUP_NOMEM) ? "this" : "another", (int)team->id);
  }
  if (flags & SETUP_MPI_FAILED) {
    if (local_flags & SETUP_MPI_FAILED) return DART_ERR_OTHER; /* logged where it failed */
    return DART_LOG_ERROR_RET(DART_ERR_OTHER, call, "MPI failed on another unit of team %d",
                              (int)team->id);
  }
  if (flags & SETUP_NODE_TOO_SMALL) {
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call,
                              "%zu bytes per unit of team %d exceed what a node can back (%d "
                              "units here share %llu bytes of memory and swap)",
                              nbytes, (int)team->id, shm_units,
                              (unsigned long long)node_memory_bytes());
  }
  return DART_OK;
}

/* The units agree, in one allreduce over the team, on whether MPI made the
 * windows everywhere (MPI may fail on some units only). */
static dart_ret_t agree_after_window(const char* call, dart_team_data_t* team, int* failed) {
  DART_MPI_COLLECTIVE(call, team,
                      MPI_Allreduce(MPI_IN_PLACE, failed, 1, MPI_INT, MPI_BOR, team->comm),
                      MPI_Iallreduce(MPI_IN_PLACE, failed, 1, MPI_INT, MPI_BOR, team->comm, &req_));
  return DART_OK;
}

/* The end of making a segment's windows: the units agree whether MPI made
 * them everywhere (failed: bit 0 MPI made no window here, bit 1 a later
 * local step failed; ret: MPI's result here). On success *out = seg; on
 * failure the segment goes (its windows too, unless some unit has none:
 * those stay until MPI_Finalize, since MPI_Win_free is collective over all
 * of them). The same result on every unit. */
static dart_ret_t finish_window(const char* call, dart_team_data_t* team, dart_segment_t* seg,
                                int ret, int failed, dart_segment_t** out) {
  dart_ret_t dret = agree_after_window(call, team, &failed);
  if (dret == DART_OK && failed != 0 && ret == MPI_SUCCESS) {
    dret = DART_LOG_ERROR_RET(DART_ERR_OTHER, call,
                              "making the window of team %d failed on another unit", (int)team->id);
  }
  if (dret == DART_OK && failed != 0) dret = DART_ERR_OTHER;
  if (dret == DART_OK) {
    *out = seg;
    return DART_OK;
  }
  if (failed & 1) {
    if (ret == MPI_SUCCESS)
      dart__log(DART_LOG_WARN, call, "the window made on this unit is left until MPI_Finalize");
    free(seg->shm_base);
    free(seg->disp_base);
    free(seg);
  } else {
    (void)dart__segment_free(call, seg); /* error path: dret is returned */
  }
  return dret;
}

/* A new segment's record (no windows yet), after the units agreed that
 * every one could set up: NULL and the agreed error otherwise. shm_units 0:
 * memory the units brought (no node check). mpi_ok false: an MPI call of the
 * set-up failed here. Collective (one allreduce). */
static dart_segment_t* new_segment(const char* call, dart_team_data_t* team, size_t nbytes,
                                   uint64_t check, bool args_ok, bool mpi_ok, int shm_units,
                                   int16_t segid, dart_ret_t* dret) {
  int local_flags = (args_ok ? 0 : SETUP_BAD_ARGS) | (mpi_ok ? 0 : SETUP_MPI_FAILED);
  dart_segment_t* seg = calloc(1, sizeof *seg);
  char** bases = calloc((size_t)team->size, sizeof *bases);
  MPI_Aint* disps = calloc((size_t)team->size, sizeof *disps);
  if (dart__test_fail_now()) {
    free(seg);
    seg = NULL;
  }
  if (seg == NULL || bases == NULL || disps == NULL) local_flags |= SETUP_NOMEM;
  if (!args_ok) nbytes = 0; /* the size is not meaningful: compare zeros */
  *dret = agree_before_window(call, team, nbytes, check, local_flags, shm_units);
  if (*dret != DART_OK) {
    free(seg);
    free(bases);
    free(disps);
    return NULL;
  }
  seg->segid = segid;
  seg->teamid = team->id;
  seg->nbytes = nbytes;
  seg->shm_base = bases;
  seg->disp_base = disps;
  seg->win = MPI_WIN_NULL;
  seg->shm_win = MPI_WIN_NULL;
  return seg;
}

dart_ret_t dart__segment_alloc(const char* call, dart_team_data_t* team, size_t nbytes,
                               uint64_t check, bool args_ok, int16_t segid, dart_segment_t** out) {
  *out = NULL;
  bool pair = team->window_pair;
  MPI_Comm shm_comm = pair ? team->node_comm : team->comm;
  int shm_units = 1;
  /* Failures here join the agreement in new_segment, before any unit makes a window. */
  const int size_ret = MPI_Comm_size(shm_comm, &shm_units);
  bool mpi_ok = dart__mpi_error(size_ret, call, "MPI_Comm_size") == DART_OK;
  if (!mpi_ok) shm_units = 1;
  MPI_Info info = MPI_INFO_NULL;
  mpi_ok = segment_info(call, &info) && mpi_ok;
  dart_ret_t dret;
  dart_segment_t* seg =
      new_segment(call, team, nbytes, check, args_ok, mpi_ok, shm_units, segid, &dret);
  if (seg == NULL) {
    /* error path: the agreed error is returned */
    if (info != MPI_INFO_NULL) (void)MPI_Info_free(&info);
    return dret;
  }
  if (!args_ok) nbytes = 0;

  char* raw_base = NULL;
  /* agree_before_window gathered every unit (a watched collective): no other wait before
   * the window's own, which cannot be polled. */
  int ret = MPI_Win_allocate_shared((MPI_Aint)(nbytes + DART_SEGMENT_ALIGNMENT), 1, info, shm_comm,
                                    &raw_base, &seg->shm_win);
  int handler = MPI_SUCCESS; /* the windows' error handlers (a local step) */
  if (ret == MPI_SUCCESS) {
    seg->local_base = raw_base + align_pad(raw_base);
    ++dart__state.live_windows;
    handler = MPI_Win_set_errhandler(seg->shm_win, MPI_ERRORS_RETURN);
    if (pair) {
      ret = MPI_Win_create(seg->local_base, (MPI_Aint)nbytes, 1, info, team->comm, &seg->win);
      if (ret == MPI_SUCCESS) {
        ++dart__state.live_windows;
        const int win_handler = MPI_Win_set_errhandler(seg->win, MPI_ERRORS_RETURN);
        if (handler == MPI_SUCCESS) handler = win_handler;
      }
    } else {
      seg->win = seg->shm_win;
    }
  }
  (void)MPI_Info_free(&info); /* the windows are made: a failure only leaks the info */
  /* failed: bit 0 MPI made no window here, bit 1 the windows exist but a
   * later local step failed. */
  int failed = 0;
  if (ret != MPI_SUCCESS) {
    dart__mpi_error(ret, call, pair ? "MPI_Win_create" : "MPI_Win_allocate_shared");
    failed = 1;
  } else if (handler != MPI_SUCCESS) {
    dart__mpi_error(handler, call, "MPI_Win_set_errhandler");
    failed = 2;
  } else {
    int lock = MPI_Win_lock_all(MPI_MODE_NOCHECK, seg->win);
    if (lock == MPI_SUCCESS) seg->locked |= 1;
    if (lock == MPI_SUCCESS && pair) {
      lock = MPI_Win_lock_all(MPI_MODE_NOCHECK, seg->shm_win);
      if (lock == MPI_SUCCESS) seg->locked |= 2;
    }
    if (lock != MPI_SUCCESS) {
      dart__mpi_error(lock, call, "MPI_Win_lock_all");
      failed = 2;
    } else if (query_shared_bases(call, team, seg, pair) != DART_OK) {
      failed = 2;
    }
  }
  return finish_window(call, team, seg, ret, failed, out);
}

dart_ret_t dart__segment_register(const char* call, dart_team_data_t* team, size_t nbytes,
                                  void* base, bool args_ok, int16_t segid, dart_segment_t** out) {
  *out = NULL;
  dart_ret_t dret;
  dart_segment_t* seg = new_segment(call, team, nbytes, 0, args_ok, true, 0, segid, &dret);
  if (seg == NULL) return dret;
  if (!args_ok) nbytes = 0;
  seg->local_base = base;
  seg->shm_base[team->myid] = base; /* the caller's own part by load/store, the others' by RMA */
  seg->registered = true;
  /* A team of one unit reaches nothing remotely: no window (OpenMPI cannot
   * make an MPI_Win_create window on one rank, docs/platform.md). */
  int ret = team->size == 1
                ? MPI_SUCCESS
                : MPI_Win_create(base, (MPI_Aint)nbytes, 1, MPI_INFO_NULL, team->comm, &seg->win);
  int failed = 0;
  if (team->size == 1) {
    /* nothing more to make */
  } else if (ret != MPI_SUCCESS) {
    dart__mpi_error(ret, call, "MPI_Win_create");
    failed = 1;
  } else {
    ++dart__state.live_windows;
    const int handler = MPI_Win_set_errhandler(seg->win, MPI_ERRORS_RETURN);
    const int lock =
        handler == MPI_SUCCESS ? MPI_Win_lock_all(MPI_MODE_NOCHECK, seg->win) : MPI_SUCCESS;
    if (handler != MPI_SUCCESS) {
      dart__mpi_error(handler, call, "MPI_Win_set_errhandler");
      failed = 2;
    } else if (lock == MPI_SUCCESS) {
      seg->locked |= 1;
    } else {
      dart__mpi_error(lock, call, "MPI_Win_lock_all");
      failed = 2;
    }
  }
  return finish_window(call, team, seg, ret, failed, out);
}

dart_ret_t dart__segment_free(const char* call, dart_segment_t* seg) {
  dart_ret_t result = DART_OK;
  dart_team_data_t* team = seg->teamid >= 0 ? dart__state.teams[seg->teamid] : NULL;
  /* A failed barrier is reported; the frees below still run (they are collective). */
  if (team != NULL)
    result = dart__mpi_error(dart__polled_barrier(call, team), call, "MPI_Ibarrier");
  if (seg->win != MPI_WIN_NULL) {
    int ret = (seg->locked & 1) ? MPI_Win_unlock_all(seg->win) : MPI_SUCCESS;
    if (ret != MPI_SUCCESS) result = dart__mpi_error(ret, call, "MPI_Win_unlock_all");
    if (seg->win != seg->shm_win) {
      ret = (seg->locked & 2) ? MPI_Win_unlock_all(seg->shm_win) : MPI_SUCCESS;
      if (ret != MPI_SUCCESS) result = dart__mpi_error(ret, call, "MPI_Win_unlock_all");
      ret = MPI_Win_free(&seg->win);
      if (ret != MPI_SUCCESS) result = dart__mpi_error(ret, call, "MPI_Win_free");
      --dart__state.live_windows;
    }
  }
  if (seg->shm_win != MPI_WIN_NULL) {
    int ret = MPI_Win_free(&seg->shm_win);
    if (ret != MPI_SUCCESS) result = dart__mpi_error(ret, call, "MPI_Win_free");
    --dart__state.live_windows;
  }
  free(seg->shm_base);
  free(seg->disp_base);
  free(seg);
  return result;
}
