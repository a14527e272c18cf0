/* put / get: shared-window memcpy for units the fast path reaches, MPI RMA
 * (chunked, optionally strided or indexed) for the others. No allocation on the fast
 * path; the RMA path allocates only a handle when one is asked for. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dart_internal.h"

typedef enum { DIR_GET, DIR_PUT } direction_t;
typedef enum { MODE_FLUSH, MODE_BLOCKING, MODE_HANDLE } completion_t;

/* Copies nelem elements between two local buffers laid out as types st and
 * dt (same basic type, either may be strided) with one memcpy per run. */
/* Copies nelem elements of es bytes between a strided layout t and a
 * contiguous one (gather if the source is strided, else scatter), block by
 * block; small power-of-two blocks (one double of a cyclic pattern) are
 * copied with fixed-size moves instead of a memcpy call each. */
static void copy_blocks(char* dst, const char* src, size_t nelem, size_t es,
                        const dart_type_info_t* t, bool gather) {
  const size_t block = t->blocklen * es;
  const size_t stride = t->stride * es;
  size_t full = nelem / t->blocklen;
  const size_t rest = (nelem - full * t->blocklen) * es;
  const size_t s_step = gather ? stride : block;
  const size_t d_step = gather ? block : stride;
#define DART_COPY_BLOCKS(bytes) \
  for (; full > 0; --full, src += s_step, dst += d_step) memcpy(dst, src, (bytes))
  switch (block) {
    case 4:
      DART_COPY_BLOCKS(4);
      break;
    case 8:
      DART_COPY_BLOCKS(8);
      break;
    case 16:
      DART_COPY_BLOCKS(16);
      break;
    case 32:
      DART_COPY_BLOCKS(32);
      break;
    default:
      DART_COPY_BLOCKS(block);
  }
#undef DART_COPY_BLOCKS
  if (rest > 0) memcpy(dst, src, rest);
}

/* Run r of layout t: its first element (counted from the buffer's start) and
 * length; a contiguous layout is one endless run. */
static void layout_run(const dart_type_info_t* t, size_t r, size_t* start, size_t* len) {
  if (t->kind == DART_KIND_INDEXED) {
    *start = t->run_off[r];
    *len = t->run_len[r];
  } else if (t->kind == DART_KIND_STRIDED) {
    *start = r * t->stride;
    *len = t->blocklen;
  } else {
    *start = 0;
    *len = SIZE_MAX;
  }
}

/* Copies nelem elements between any two layouts, run against run (the
 * indexed types' path: one memcpy per piece where runs meet). */
static void copy_runs(char* dst, const dart_type_info_t* dt, const char* src,
                      const dart_type_info_t* st, size_t nelem) {
  const size_t es = st->size;
  size_t s_run = 0, s_in = 0, d_run = 0, d_in = 0;
  while (nelem > 0) {
    size_t s_start, s_len, d_start, d_len;
    layout_run(st, s_run, &s_start, &s_len);
    layout_run(dt, d_run, &d_start, &d_len);
    size_t run = nelem;
    if (s_len - s_in < run) run = s_len - s_in;
    if (d_len - d_in < run) run = d_len - d_in;
    memmove(dst + (d_start + d_in) * es, src + (s_start + s_in) * es, run * es);
    nelem -= run;
    s_in += run;
    d_in += run;
    if (s_in == s_len) ++s_run, s_in = 0;
    if (d_in == d_len) ++d_run, d_in = 0;
  }
}

static void copy_typed(char* dst, const dart_type_info_t* dt, const char* src,
                       const dart_type_info_t* st, size_t nelem) {
  const size_t es = st->size;
  if (st->kind == DART_KIND_INDEXED || dt->kind == DART_KIND_INDEXED) {
    copy_runs(dst, dt, src, st, nelem);
    return;
  }
  if (st->kind != DART_KIND_STRIDED && dt->kind != DART_KIND_STRIDED) {
    memmove(dst, src, nelem * es); /* a unit may copy within its own part */
    return;
  }
  if ((st->kind == DART_KIND_STRIDED) != (dt->kind == DART_KIND_STRIDED)) {
    copy_blocks(dst, src, nelem, es, st->kind == DART_KIND_STRIDED ? st : dt,
                st->kind == DART_KIND_STRIDED);
    return;
  }
  const size_t s_block = st->kind == DART_KIND_STRIDED ? st->blocklen : SIZE_MAX;
  const size_t d_block = dt->kind == DART_KIND_STRIDED ? dt->blocklen : SIZE_MAX;
  const size_t s_gap = st->kind == DART_KIND_STRIDED ? (st->stride - st->blocklen) * es : 0;
  const size_t d_gap = dt->kind == DART_KIND_STRIDED ? (dt->stride - dt->blocklen) * es : 0;
  size_t s_in = 0, d_in = 0; /* position inside the current block */
  while (nelem > 0) {
    size_t run = nelem;
    if (s_block - s_in < run) run = s_block - s_in;
    if (d_block - d_in < run) run = d_block - d_in;
    memcpy(dst, src, run * es);
    src += run * es;
    dst += run * es;
    s_in += run;
    d_in += run;
    nelem -= run;
    if (s_in == s_block) {
      src += s_gap;
      s_in = 0;
    }
    if (d_in == d_block) {
      dst += d_gap;
      d_in = 0;
    }
  }
}

/* ---- committed MPI types of strided layouts, kept for reuse ----------------
 * A tile copy moves many pieces of one shape, and creating and committing an
 * MPI type costs microseconds, more than a small transfer. The types of the
 * last DART_LAYOUT_CACHE shapes stay committed (replaced round-robin, freed
 * at dart_exit). The lock is held from the lookup until the transfer was
 * issued (layout_release), so no thread frees a type another is about to
 * use; MPI lets a type be freed while issued transfers still use it. */
#define DART_LAYOUT_CACHE 16

typedef struct {
  MPI_Datatype base, type;
  size_t blocklen, stride, blocks, rest;
} layout_entry_t;

static layout_entry_t layout_cache[DART_LAYOUT_CACHE];
static int layout_used = 0, layout_next = 0;
static pthread_mutex_t layout_lock = PTHREAD_MUTEX_INITIALIZER;

void dart__rma_layouts_free(void) {
  pthread_mutex_lock(&layout_lock);
  for (int i = 0; i < layout_used; ++i) /* at exit: a failure only leaks the type */
    if (!dart__mpi_finalized()) (void)MPI_Type_free(&layout_cache[i].type);
  layout_used = layout_next = 0;
  pthread_mutex_unlock(&layout_lock);
}

static dart_ret_t create_layout(const char* call, const dart_type_info_t* t, size_t blocks,
                                size_t rest, MPI_Datatype* type);

/* MPI description (count x type) of nelem elements laid out as t. For a
 * strided layout the type comes from the cache, which stays locked
 * (*locked = true) until layout_release after the transfer is issued; the
 * cached type `keep` (the transfer's other side) is not replaced. */
static dart_ret_t mpi_layout(const char* call, const dart_type_info_t* t, size_t nelem, int* count,
                             MPI_Datatype* type, MPI_Datatype keep, bool* locked) {
  dart_type_info_t dense;
  if (t->kind != DART_KIND_STRIDED) {
    if (nelem <= INT_MAX) {
      *count = (int)nelem;
      *type = t->mpi;
      return DART_OK;
    }
    /* The contiguous side of a strided transfer of more than INT_MAX elements: blocks of 2^30
     * elements, one after the other (a layout like the strided ones, cached alike). */
    dense = *t;
    dense.blocklen = dense.stride = (size_t)1 << 30;
    t = &dense;
  }
  size_t blocks = nelem / t->blocklen, rest = nelem % t->blocklen;
  DART_CHECK_ARG(call, blocks <= INT_MAX, "%zu strided blocks exceed one MPI transfer", blocks);
  *count = 1;
  if (!*locked) pthread_mutex_lock(&layout_lock);
  *locked = true;
  for (int i = 0; i < layout_used; ++i) {
    const layout_entry_t* e = &layout_cache[i];
    if (e->base == t->mpi && e->blocklen == t->blocklen && e->stride == t->stride &&
        e->blocks == blocks && e->rest == rest) {
      *type = e->type;
      return DART_OK;
    }
  }
  MPI_Datatype made;
  dart_ret_t ret = create_layout(call, t, blocks, rest, &made);
  if (ret != DART_OK) return ret;
  layout_entry_t* slot;
  if (layout_used < DART_LAYOUT_CACHE) {
    slot = &layout_cache[layout_used++];
  } else { /* replace the oldest, never the type the other side of this transfer holds */
    if (layout_cache[layout_next].type == keep) layout_next = (layout_next + 1) % DART_LAYOUT_CACHE;
    slot = &layout_cache[layout_next];
    layout_next = (layout_next + 1) % DART_LAYOUT_CACHE;
    (void)MPI_Type_free(&slot->type); /* a failure only leaks the old layout */
  }
  *slot = (layout_entry_t){t->mpi, made, t->blocklen, t->stride, blocks, rest};
  *type = made;
  return DART_OK;
}

static void layout_release(bool* locked) {
  if (*locked) pthread_mutex_unlock(&layout_lock);
  *locked = false;
}

/* A committed MPI type of `blocks` blocks of t plus `rest` elements. */
static dart_ret_t create_layout(const char* call, const dart_type_info_t* t, size_t blocks,
                                size_t rest, MPI_Datatype* type) {
  MPI_Datatype vector;
  DART_MPI_CALL(call,
                MPI_Type_vector((int)blocks, (int)t->blocklen, (int)t->stride, t->mpi, &vector));
  if (rest == 0) {
    *type = vector;
  } else {
    int lengths[2] = {1, (int)rest};
    MPI_Aint displs[2] = {0, (MPI_Aint)(blocks * t->stride * t->size)};
    MPI_Datatype types[2] = {vector, t->mpi};
    int ret = MPI_Type_create_struct(2, lengths, displs, types, type);
    (void)MPI_Type_free(&vector); /* the struct keeps what it needs; a failure only leaks */
    if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Type_create_struct");
  }
  const int ret = MPI_Type_commit(type);
  if (ret != MPI_SUCCESS) {
    (void)MPI_Type_free(type); /* error path: the commit's failure is returned */
    return dart__mpi_error(ret, call, "MPI_Type_commit");
  }
  return DART_OK;
}

/* A committed MPI type of the first nelem elements of the indexed layout t
 * (the caller frees it once the transfer is issued). */
static dart_ret_t indexed_layout(const char* call, const dart_type_info_t* t, size_t nelem,
                                 MPI_Datatype* type) {
  size_t runs = 0, left = nelem;
  while (left > t->run_len[runs]) left -= t->run_len[runs++];
  ++runs; /* the run holding the last element, `left` of it */
  int* lens = malloc(2 * runs * sizeof *lens);
  if (lens == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  int* displs = lens + runs;
  for (size_t i = 0; i < runs; ++i) {
    lens[i] = (int)(i + 1 < runs ? t->run_len[i] : left); /* checked <= INT32_MAX at creation */
    displs[i] = (int)t->run_off[i];
  }
  int ret = MPI_Type_indexed((int)runs, lens, displs, t->mpi, type);
  free(lens);
  if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Type_indexed");
  ret = MPI_Type_commit(type);
  if (ret != MPI_SUCCESS) {
    (void)MPI_Type_free(type); /* error path: the commit's failure is returned */
    return dart__mpi_error(ret, call, "MPI_Type_commit");
  }
  return DART_OK;
}

/* The MPI description of nelem elements laid out as t: indexed layouts made
 * for this transfer (*owned, to free after issuing), the others as
 * mpi_layout gives them. */
static dart_ret_t any_layout(const char* call, const dart_type_info_t* t, size_t nelem, int* count,
                             MPI_Datatype* type, MPI_Datatype keep, bool* locked,
                             MPI_Datatype* owned) {
  if (t->kind != DART_KIND_INDEXED) return mpi_layout(call, t, nelem, count, type, keep, locked);
  *count = 1;
  dart_ret_t ret = indexed_layout(call, t, nelem, type);
  if (ret == DART_OK) *owned = *type;
  return ret;
}

/* A get whose destination layout has overlapping runs (MPI forbids such a
 * receive buffer): into a contiguous staging buffer over RMA, then run by run
 * into place, later runs winning. Completes before it returns. */
static dart_ret_t staged_get(const char* call, void* local, const dart_type_info_t* local_t,
                             const dart_target_t* to, const dart_type_info_t* remote_t,
                             size_t nelem) {
  DART_CHECK_ARG(call, nelem <= INT_MAX, "%zu elements exceed one staged transfer", nelem);
  const dart_type_info_t* dense = dart__type(local_t->base);
  char* staging = malloc(nelem * local_t->size);
  if (staging == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  int remote_count = 0;
  MPI_Datatype remote_mpi = MPI_DATATYPE_NULL, owned = MPI_DATATYPE_NULL;
  bool locked = false;
  dart_ret_t ret = any_layout(call, remote_t, nelem, &remote_count, &remote_mpi, MPI_DATATYPE_NULL,
                              &locked, &owned);
  int mpi_ret = MPI_SUCCESS;
  if (ret == DART_OK)
    mpi_ret = MPI_Get(staging, (int)nelem, dense->mpi, to->target, to->disp, remote_count,
                      remote_mpi, to->seg->win);
  layout_release(&locked);
  if (owned != MPI_DATATYPE_NULL) (void)MPI_Type_free(&owned); /* a failure only leaks */
  if (ret == DART_OK && mpi_ret == MPI_SUCCESS) mpi_ret = MPI_Win_flush(to->target, to->seg->win);
  if (ret == DART_OK && mpi_ret == MPI_SUCCESS) copy_runs(local, local_t, staging, dense, nelem);
  free(staging);
  if (ret != DART_OK) return ret;
  return dart__mpi_error(mpi_ret, call, "MPI_Get");
}

static int issue_rma(direction_t dir, completion_t mode, void* local, int local_count,
                     MPI_Datatype local_type, const dart_target_t* to, MPI_Aint disp,
                     int remote_count, MPI_Datatype remote_type, MPI_Request* request) {
  MPI_Win win = to->seg->win;
  if (mode == MODE_HANDLE) {
    return dir == DIR_GET ? MPI_Rget(local, local_count, local_type, to->target, disp, remote_count,
                                     remote_type, win, request)
                          : MPI_Rput(local, local_count, local_type, to->target, disp, remote_count,
                                     remote_type, win, request);
  }
  return dir == DIR_GET ? MPI_Get(local, local_count, local_type, to->target, disp, remote_count,
                                  remote_type, win)
                        : MPI_Put(local, local_count, local_type, to->target, disp, remote_count,
                                  remote_type, win);
}

static dart_ret_t transfer(const char* call, direction_t dir, completion_t mode, void* local,
                           dart_gptr_t gptr, size_t nelem, dart_datatype_t src_type,
                           dart_datatype_t dst_type, dart_handle_t* handle) {
  DART_CHECK_INIT(call);
  if (mode == MODE_HANDLE) {
    DART_CHECK_ARG(call, handle != NULL, "handle is NULL");
    *handle = DART_HANDLE_NULL;
  }
  const dart_type_info_t* st = dart__type(src_type);
  const dart_type_info_t* dt = dart__type(dst_type);
  DART_CHECK_ARG(call, st != NULL && dt != NULL, "unknown data type (source %ld, destination %ld)",
                 (long)src_type, (long)dst_type);
  DART_CHECK_ARG(call, st->base == dt->base,
                 "source and destination types differ in their element type");
  DART_CHECK_ARG(call, st->kind != DART_KIND_INDEXED || nelem <= st->run_total,
                 "%zu elements requested of a source type of %zu elements", nelem, st->run_total);
  DART_CHECK_ARG(call, dt->kind != DART_KIND_INDEXED || nelem <= dt->run_total,
                 "%zu elements requested of a destination type of %zu elements", nelem,
                 dt->run_total);
  const dart_type_info_t* remote_t = dir == DIR_GET ? st : dt;
  const dart_type_info_t* local_t = dir == DIR_GET ? dt : st;
  const size_t remote_span = dart__type_span(remote_t, nelem);
  DART_CHECK_ARG(call, remote_span != SIZE_MAX && dart__type_span(local_t, nelem) != SIZE_MAX,
                 "%zu elements overflow the address space", nelem);
  dart_target_t to; /* a zero-element transfer still needs a valid pointer */
  dart_ret_t ret = dart__resolve(call, gptr, remote_span, &to);
  if (ret != DART_OK || nelem == 0) return ret;
  DART_CHECK_ARG(call, local != NULL, "local buffer is NULL");

  if (to.shm_addr != NULL) { /* fast path: load/store through the shared window */
    if (dir == DIR_GET)
      copy_typed(local, dt, to.shm_addr, st, nelem);
    else
      copy_typed(to.shm_addr, dt, local, st, nelem);
    return DART_OK;
  }

  /* Overlapping indexed runs on the written side: a get stages (MPI forbids a
   * receive buffer with overlapping entries), a put is refused (its writes to
   * one element would race). */
  if (dir == DIR_PUT) {
    DART_CHECK_ARG(call, remote_t->kind != DART_KIND_INDEXED || remote_t->run_disjoint,
                   "a put's destination layout on another node may not have overlapping runs");
  } else if (local_t->kind == DART_KIND_INDEXED && !local_t->run_disjoint) {
    return staged_get(call, local, local_t, &to, remote_t, nelem);
  }
  /* A relaxed load and store, not an atomic add: a locked add would cost as much as a tenth
   * of a small get. Increments of threads transferring at the same time may be lost. */
  __atomic_store_n(&dart__state.rma_transfers,
                   __atomic_load_n(&dart__state.rma_transfers, __ATOMIC_RELAXED) + 1,
                   __ATOMIC_RELAXED);
  const bool contiguous = !dart__type_is_layout(st) && !dart__type_is_layout(dt);
  /* One chunk unless the transfer exceeds the chunk size (no divisions on
   * the common path: they cost more than the rest of the set-up). A single
   * chunk never exceeds INT_MAX elements: the chunk size is at most 1 GiB. */
  size_t chunk_elems = nelem;
  size_t nchunks = 1;
  if (contiguous && remote_span > dart__state.config.transfer_chunk_size) {
    chunk_elems = dart__chunk_elems(st->size);
    nchunks = (nelem + chunk_elems - 1) / chunk_elems;
  }
  DART_CHECK_ARG(call, nchunks <= INT_MAX, "transfer of %zu elements has too many chunks", nelem);
  dart_handle_t watched = DART_HANDLE_NULL;
  if (mode == MODE_BLOCKING && __builtin_expect(dart__state.config.watchdog_seconds > 0, 0)) {
    mode = MODE_HANDLE; /* a polled wait the watchdog can see (dart_watchdog.c) */
    handle = &watched;
  }
  dart_handle_t h = DART_HANDLE_NULL;
  if (mode == MODE_HANDLE) {
    h = dart__handle_new(dir == DIR_GET ? DART_HANDLE_GET : DART_HANDLE_PUT, (int)nchunks);
    if (h == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
    h->win = to.seg->win;
    h->target = to.target;
  }
  int mpi_ret = MPI_SUCCESS;
  if (contiguous) {
    for (size_t c = 0; c < nchunks && mpi_ret == MPI_SUCCESS; ++c) {
      size_t first = c * chunk_elems;
      int count = (int)(nelem - first < chunk_elems ? nelem - first : chunk_elems);
      MPI_Aint byte_offset = (MPI_Aint)(first * st->size);
      mpi_ret = issue_rma(dir, mode, (char*)local + byte_offset, count, st->mpi, &to,
                          to.disp + byte_offset, count, st->mpi, h ? &h->reqs[c] : NULL);
      if (h != NULL && mpi_ret == MPI_SUCCESS) h->nreq = (int)c + 1;
    }
  } else {
    int local_count, remote_count;
    MPI_Datatype local_mpi, remote_mpi;
    MPI_Datatype owned[2] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL}; /* indexed layouts */
    bool locked = false; /* the layout cache, until the transfer is issued */
    ret = any_layout(call, local_t, nelem, &local_count, &local_mpi, MPI_DATATYPE_NULL, &locked,
                     &owned[0]);
    if (ret == DART_OK)
      ret = any_layout(call, remote_t, nelem, &remote_count, &remote_mpi, local_mpi, &locked,
                       &owned[1]);
    if (ret == DART_OK)
      mpi_ret = issue_rma(dir, mode, local, local_count, local_mpi, &to, to.disp, remote_count,
                          remote_mpi, h ? &h->reqs[0] : NULL);
    layout_release(&locked);
    /* MPI keeps what an issued transfer needs: the types may go now (a failure only leaks) */
    for (int i = 0; i < 2; ++i)
      if (owned[i] != MPI_DATATYPE_NULL) (void)MPI_Type_free(&owned[i]);
    if (ret != DART_OK) {
      if (h != NULL) dart__handle_release(h);
      return ret;
    }
    if (h != NULL && mpi_ret == MPI_SUCCESS) h->nreq = 1;
  }
  if (mpi_ret == MPI_SUCCESS && mode == MODE_BLOCKING) {
    mpi_ret = MPI_Win_flush(to.target, to.seg->win);
  }
  if (mpi_ret != MPI_SUCCESS) {
    if (h != NULL) dart_wait(&h); /* complete what was issued, nothing dangles */
    return dart__mpi_error(mpi_ret, call, dir == DIR_GET ? "MPI_Get" : "MPI_Put");
  }
  if (mode == MODE_HANDLE) *handle = h;
  if (handle == &watched) return dart__handle_wait(call, &watched);
  return DART_OK;
}

dart_ret_t dart_get(void* dest, dart_gptr_t gptr, size_t nelem, dart_datatype_t src_type,
                    dart_datatype_t dst_type) {
  return transfer("dart_get", DIR_GET, MODE_FLUSH, dest, gptr, nelem, src_type, dst_type, NULL);
}

dart_ret_t dart_put(dart_gptr_t gptr, const void* src, size_t nelem, dart_datatype_t src_type,
                    dart_datatype_t dst_type) {
  return transfer("dart_put", DIR_PUT, MODE_FLUSH, (void*)src, gptr, nelem, src_type, dst_type,
                  NULL);
}

dart_ret_t dart_get_blocking(void* dest, dart_gptr_t gptr, size_t nelem, dart_datatype_t src_type,
                             dart_datatype_t dst_type) {
  return transfer("dart_get_blocking", DIR_GET, MODE_BLOCKING, dest, gptr, nelem, src_type,
                  dst_type, NULL);
}

dart_ret_t dart_put_blocking(dart_gptr_t gptr, const void* src, size_t nelem,
                             dart_datatype_t src_type, dart_datatype_t dst_type) {
  return transfer("dart_put_blocking", DIR_PUT, MODE_BLOCKING, (void*)src, gptr, nelem, src_type,
                  dst_type, NULL);
}

dart_ret_t dart_get_handle(void* dest, dart_gptr_t gptr, size_t nelem, dart_datatype_t src_type,
                           dart_datatype_t dst_type, dart_handle_t* handle) {
  return transfer("dart_get_handle", DIR_GET, MODE_HANDLE, dest, gptr, nelem, src_type, dst_type,
                  handle);
}

dart_ret_t dart_put_handle(dart_gptr_t gptr, const void* src, size_t nelem,
                           dart_datatype_t src_type, dart_datatype_t dst_type,
                           dart_handle_t* handle) {
  return transfer("dart_put_handle", DIR_PUT, MODE_HANDLE, (void*)src, gptr, nelem, src_type,
                  dst_type, handle);
}
