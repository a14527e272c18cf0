/* Team memory segments and the windows behind them.
 *
 * Layout (see DESIGN.md "Window layout"):
 *   single window: the team lives on one real node. One
 *     MPI_Win_allocate_shared window over the team communicator; units that
 *     may use the fast path get each other's base address from
 *     MPI_Win_shared_query, all others use RMA on the same window.
 *   window pair: the team spans real nodes (or the test switch
 *     DART_TEST_FORCE_WINDOW_PAIR is set). A shared window over the units of
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

#include "dart_internal.h"

static MPI_Info segment_info(void) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  MPI_Info_set(info, "same_disp_unit", "true");
  return info;
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

dart_ret_t dart__segment_alloc(const char* call, dart_team_data_t* team, size_t nbytes,
                               int16_t segid, dart_segment_t** out) {
  dart_segment_t* seg = calloc(1, sizeof *seg);
  char** bases = calloc((size_t)team->size, sizeof *bases);
  MPI_Aint* disps = calloc((size_t)team->size, sizeof *disps);
  if (seg == NULL || bases == NULL || disps == NULL) {
    free(seg);
    free(bases);
    free(disps);
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  }
  seg->segid = segid;
  seg->teamid = team->id;
  seg->nbytes = nbytes;
  seg->shm_base = bases;
  seg->disp_base = disps;
  seg->win = MPI_WIN_NULL;
  seg->shm_win = MPI_WIN_NULL;

  bool pair = !team->single_node || dart__state.config.force_window_pair;
  MPI_Info info = segment_info();
  MPI_Comm shm_comm = pair ? team->node_comm : team->comm;
  char* raw_base = NULL;
  int ret = dart__gather_before_blocking(call, team);
  if (ret == MPI_SUCCESS)
    ret = MPI_Win_allocate_shared((MPI_Aint)(nbytes + DART_SEGMENT_ALIGNMENT), 1, info, shm_comm,
                                  &raw_base, &seg->shm_win);
  if (ret == MPI_SUCCESS) {
    seg->local_base = raw_base + align_pad(raw_base);
    ++dart__state.live_windows;
    MPI_Win_set_errhandler(seg->shm_win, MPI_ERRORS_RETURN);
    if (pair) {
      ret = MPI_Win_create(seg->local_base, (MPI_Aint)nbytes, 1, info, team->comm, &seg->win);
      if (ret == MPI_SUCCESS) {
        ++dart__state.live_windows;
        MPI_Win_set_errhandler(seg->win, MPI_ERRORS_RETURN);
      }
    } else {
      seg->win = seg->shm_win;
    }
  }
  MPI_Info_free(&info);
  if (ret != MPI_SUCCESS) {
    dart_ret_t dret =
        dart__mpi_error(ret, call, pair ? "MPI_Win_create" : "MPI_Win_allocate_shared");
    if (seg->shm_win != MPI_WIN_NULL) {
      MPI_Win_free(&seg->shm_win);
      --dart__state.live_windows;
    }
    free(bases);
    free(disps);
    free(seg);
    return dret;
  }
  MPI_Win_lock_all(MPI_MODE_NOCHECK, seg->win);
  if (pair) MPI_Win_lock_all(MPI_MODE_NOCHECK, seg->shm_win);
  dart_ret_t dret = query_shared_bases(call, team, seg, pair);
  if (dret != DART_OK) {
    dart__segment_free(call, seg);
    return dret;
  }
  *out = seg;
  return DART_OK;
}

dart_ret_t dart__segment_free(const char* call, dart_segment_t* seg) {
  dart_ret_t result = DART_OK;
  dart_team_data_t* team = seg->teamid >= 0 ? dart__state.teams[seg->teamid] : NULL;
  if (team != NULL) dart__gather_before_blocking(call, team);
  if (seg->win != MPI_WIN_NULL) {
    MPI_Win_unlock_all(seg->win);
    if (seg->win != seg->shm_win) {
      MPI_Win_unlock_all(seg->shm_win);
      int ret = MPI_Win_free(&seg->win);
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
