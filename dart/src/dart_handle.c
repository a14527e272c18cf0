/* Completion of non-blocking operations: handles, wait/test, flush.
 * Handles are recycled through a per-thread free list, so issuing a
 * non-blocking transfer allocates only while the list warms up. */
#include <stdlib.h>

#include "dart_internal.h"

/* MPICH's headers make GCC 12 see a zero-sized status array in
 * MPI_Waitall/MPI_Testall with MPI_STATUSES_IGNORE (a false positive). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

static _Thread_local dart_handle_t free_handles = NULL;

dart_handle_t dart__handle_new(dart_handle_kind_t kind, int nreq) {
  dart_handle_t h = free_handles;
  if (h != NULL) {
    free_handles = h->next_free;
  } else {
    h = malloc(sizeof *h);
    if (h == NULL) return NULL;
    h->reqs = h->inline_reqs;
    h->capacity = DART_HANDLE_INLINE_REQUESTS;
  }
  if (nreq > h->capacity) {
    MPI_Request* reqs = malloc((size_t)nreq * sizeof *reqs);
    if (reqs == NULL) {
      h->next_free = free_handles;
      free_handles = h;
      return NULL;
    }
    if (h->reqs != h->inline_reqs) free(h->reqs);
    h->reqs = reqs;
    h->capacity = nreq;
  }
  h->kind = kind;
  h->win = MPI_WIN_NULL;
  h->target = -1;
  h->nreq = 0;
  h->next_free = NULL;
  __atomic_add_fetch(&dart__state.live_handles, 1, __ATOMIC_RELAXED);
  return h;
}

void dart__handle_release(dart_handle_t h) {
  __atomic_sub_fetch(&dart__state.live_handles, 1, __ATOMIC_RELAXED);
  if (h->reqs != h->inline_reqs) { /* keep only small handles around */
    free(h->reqs);
    h->reqs = h->inline_reqs;
    h->capacity = DART_HANDLE_INLINE_REQUESTS;
  }
  h->next_free = free_handles;
  free_handles = h;
}

void dart__handles_cleanup(void) {
  while (free_handles != NULL) {
    dart_handle_t next = free_handles->next_free;
    free(free_handles);
    free_handles = next;
  }
}

/* After the requests completed: makes a put visible at the target (remote),
 * and makes sure a get's data has arrived. The latter is MPI_Rget's own
 * promise, but MPICH 4.0.2 (ch4:ucx) completes an MPI_Rget with a
 * non-contiguous datatype on an MPI_Win_create/MPI_Win_allocate window before
 * its data lands (it lands at the next flush), so a get is flushed locally. */
static int complete(dart_handle_t h, bool remote) {
  if (h->kind == DART_HANDLE_GET) return MPI_Win_flush_local(h->target, h->win);
  if (h->kind == DART_HANDLE_PUT && remote) return MPI_Win_flush(h->target, h->win);
  return MPI_SUCCESS;
}

static dart_ret_t wait_one(const char* call, dart_handle_t* handle, bool remote) {
  DART_CHECK_ARG(call, handle != NULL, "handle is NULL");
  dart_handle_t h = *handle;
  if (h == DART_HANDLE_NULL) return DART_OK;
  int ret;
  if (dart__state.poll_waits) {
    dart_wait_site_t site = {call, NULL, h->target, 0, MPI_WIN_NULL};
    if (h->kind == DART_HANDLE_COLL || h->kind == DART_HANDLE_P2P) {
      site.team = dart__team(h->team);
      if (h->kind == DART_HANDLE_COLL) site.peer = DART_WAIT_ALL;
      site.collective = h->collective;
    } else {
      site.win = h->win;
    }
    ret = dart__wait_requests(&site, h->nreq, h->reqs);
  } else {
    ret = MPI_Waitall(h->nreq, h->reqs, MPI_STATUSES_IGNORE);
  }
  if (ret == MPI_SUCCESS) ret = complete(h, remote);
  dart__handle_release(h);
  *handle = DART_HANDLE_NULL;
  return dart__mpi_error(ret, call, "MPI_Waitall");
}

static dart_ret_t test_one(const char* call, dart_handle_t* handle, int32_t* result, bool remote) {
  DART_CHECK_ARG(call, handle != NULL && result != NULL, "handle or result is NULL");
  dart_handle_t h = *handle;
  *result = 1;
  if (h == DART_HANDLE_NULL) return DART_OK;
  int done = 0;
  int ret = MPI_Testall(h->nreq, h->reqs, &done, MPI_STATUSES_IGNORE);
  if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Testall");
  if (!done) {
    *result = 0;
    return DART_OK;
  }
  ret = complete(h, remote);
  dart__handle_release(h);
  *handle = DART_HANDLE_NULL;
  return dart__mpi_error(ret, call, "MPI_Win_flush");
}

dart_ret_t dart_wait(dart_handle_t* handle) { return wait_one("dart_wait", handle, true); }

dart_ret_t dart__handle_wait(const char* call, dart_handle_t* handle) {
  return wait_one(call, handle, true);
}

dart_ret_t dart_wait_local(dart_handle_t* handle) {
  return wait_one("dart_wait_local", handle, false);
}

static dart_ret_t wait_all(const char* call, dart_handle_t handles[], size_t n, bool remote) {
  DART_CHECK_ARG(call, handles != NULL || n == 0, "handles is NULL");
  dart_ret_t result = DART_OK;
  for (size_t i = 0; i < n; ++i) {
    dart_ret_t ret = wait_one(call, &handles[i], remote);
    if (ret != DART_OK) result = ret;
  }
  return result;
}

dart_ret_t dart_waitall(dart_handle_t handles[], size_t n) {
  return wait_all("dart_waitall", handles, n, true);
}

dart_ret_t dart_waitall_local(dart_handle_t handles[], size_t n) {
  return wait_all("dart_waitall_local", handles, n, false);
}

dart_ret_t dart_test(dart_handle_t* handle, int32_t* result) {
  return test_one("dart_test", handle, result, true);
}

dart_ret_t dart_test_local(dart_handle_t* handle, int32_t* result) {
  return test_one("dart_test_local", handle, result, false);
}

static dart_ret_t test_all(const char* call, dart_handle_t handles[], size_t n, int32_t* result,
                           bool remote) {
  DART_CHECK_ARG(call, (handles != NULL || n == 0) && result != NULL, "handles or result is NULL");
  int32_t all_done = 1;
  for (size_t i = 0; i < n; ++i) {
    int32_t done = 1;
    dart_ret_t ret = test_one(call, &handles[i], &done, remote);
    if (ret != DART_OK) return ret;
    if (!done) all_done = 0;
  }
  *result = all_done;
  return DART_OK;
}

dart_ret_t dart_testall(dart_handle_t handles[], size_t n, int32_t* result) {
  return test_all("dart_testall", handles, n, result, true);
}

dart_ret_t dart_testall_local(dart_handle_t handles[], size_t n, int32_t* result) {
  return test_all("dart_testall_local", handles, n, result, false);
}

/* ---- flush --------------------------------------------------------------- */

typedef enum { FLUSH_ONE, FLUSH_ALL, FLUSH_LOCAL_ONE, FLUSH_LOCAL_ALL } flush_kind_t;

static dart_ret_t flush(const char* call, dart_gptr_t gptr, flush_kind_t kind) {
  dart_target_t to;
  dart_ret_t ret = dart__resolve(call, gptr, 0, &to);
  if (ret != DART_OK) return ret;
  __atomic_thread_fence(__ATOMIC_SEQ_CST); /* order fast-path stores */
  MPI_Win win = to.seg->win;
  if (win == MPI_WIN_NULL) return DART_OK; /* a registered segment of a one-unit team */
  switch (kind) {
    case FLUSH_ONE:
      DART_MPI_CALL(call, MPI_Win_flush(to.target, win));
      break;
    case FLUSH_ALL:
      DART_MPI_CALL(call, MPI_Win_flush_all(win));
      break;
    case FLUSH_LOCAL_ONE:
      DART_MPI_CALL(call, MPI_Win_flush_local(to.target, win));
      break;
    case FLUSH_LOCAL_ALL:
      DART_MPI_CALL(call, MPI_Win_flush_local_all(win));
      break;
  }
  return DART_OK;
}

dart_ret_t dart_flush(dart_gptr_t gptr) { return flush("dart_flush", gptr, FLUSH_ONE); }
dart_ret_t dart_flush_all(dart_gptr_t gptr) { return flush("dart_flush_all", gptr, FLUSH_ALL); }
dart_ret_t dart_flush_local(dart_gptr_t gptr) {
  return flush("dart_flush_local", gptr, FLUSH_LOCAL_ONE);
}
dart_ret_t dart_flush_local_all(dart_gptr_t gptr) {
  return flush("dart_flush_local_all", gptr, FLUSH_LOCAL_ALL);
}
