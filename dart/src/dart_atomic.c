/* Atomics. They always go through MPI (also for same-node targets), so that
 * they are atomic with respect to each other whichever unit issues them. */
#include <limits.h>
#include <string.h>

#include "dart_internal.h"

/* Validates an atomic on nelem elements of dtype at gptr. */
static dart_ret_t prepare(const char* call, dart_gptr_t gptr, size_t nelem, dart_datatype_t dtype,
                          dart_operation_t op, const dart_type_info_t** t, dart_target_t* to) {
  DART_CHECK_INIT(call);
  *t = dart__type(dtype);
  dart_ret_t ret = dart__check_op(call, op, *t, true);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, nelem <= SIZE_MAX / (*t)->size, "%zu elements overflow size_t", nelem);
  ret = dart__resolve(call, gptr, nelem * (*t)->size, to);
  if (ret != DART_OK) return ret;
  /* OpenMPI's atomics on MPI_Win_create windows crash (docs/platform.md). */
  DART_CHECK_ARG(call, !to->seg->registered,
                 "atomics on registered memory (dart_team_memregister) are not supported");
  return DART_OK;
}

/* MIN or MAX of one unsigned element at disp, as a compare-and-swap loop
 * (for an MPI whose own compares unsigned values as signed: dart_types.c);
 * *old gets the value it replaced or kept. Atomic with respect to the
 * other atomics on the element. */
static dart_ret_t unsigned_min_max(const char* call, const dart_target_t* to,
                                   const dart_type_info_t* t, MPI_Aint disp, const void* value,
                                   void* old, dart_operation_t op) {
  unsigned long long cur = 0, seen = 0, v = 0;
  memcpy(&v, value, t->size); /* little-endian: the low bytes */
  DART_MPI_CALL(call,
                MPI_Fetch_and_op(NULL, &cur, t->mpi, to->target, disp, MPI_NO_OP, to->seg->win));
  DART_MPI_CALL(call, MPI_Win_flush(to->target, to->seg->win));
  for (;;) {
    const bool replace = op == DART_OP_MIN ? v < cur : v > cur;
    if (!replace) break;
    DART_MPI_CALL(call,
                  MPI_Compare_and_swap(&v, &cur, &seen, t->mpi, to->target, disp, to->seg->win));
    DART_MPI_CALL(call, MPI_Win_flush(to->target, to->seg->win));
    if (seen == cur) break;
    cur = seen;
  }
  if (old != NULL) memcpy(old, &cur, t->size);
  return DART_OK;
}

static dart_ret_t accumulate(const char* call, dart_gptr_t gptr, const void* values, size_t nelem,
                             dart_datatype_t dtype, dart_operation_t op, bool flush_local) {
  const dart_type_info_t* t;
  dart_target_t to;
  dart_ret_t ret = prepare(call, gptr, nelem, dtype, op, &t, &to);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, op != DART_OP_NO_OP, "DART_OP_NO_OP makes no sense in an accumulate");
  if (nelem == 0) return DART_OK;
  DART_CHECK_ARG(call, values != NULL, "values is NULL");
  if (dart__unsigned_minmax_emulated(op, t)) {
    for (size_t i = 0; i < nelem; ++i) {
      const MPI_Aint offset = (MPI_Aint)(i * t->size);
      ret =
          unsigned_min_max(call, &to, t, to.disp + offset, (const char*)values + offset, NULL, op);
      if (ret != DART_OK) return ret;
    }
    return DART_OK;
  }
  const size_t chunk =
      nelem * t->size > dart__state.config.transfer_chunk_size ? dart__chunk_elems(t->size) : nelem;
  for (size_t first = 0; first < nelem; first += chunk) {
    int count = (int)(nelem - first < chunk ? nelem - first : chunk);
    MPI_Aint offset = (MPI_Aint)(first * t->size);
    DART_MPI_CALL(call,
                  MPI_Accumulate((const char*)values + offset, count, t->mpi, to.target,
                                 to.disp + offset, count, t->mpi, dart__mpi_op(op), to.seg->win));
  }
  if (flush_local) DART_MPI_CALL(call, MPI_Win_flush_local(to.target, to.seg->win));
  return DART_OK;
}

dart_ret_t dart_accumulate(dart_gptr_t gptr, const void* values, size_t nelem,
                           dart_datatype_t dtype, dart_operation_t op) {
  return accumulate("dart_accumulate", gptr, values, nelem, dtype, op, false);
}

dart_ret_t dart_accumulate_blocking_local(dart_gptr_t gptr, const void* values, size_t nelem,
                                          dart_datatype_t dtype, dart_operation_t op) {
  return accumulate("dart_accumulate_blocking_local", gptr, values, nelem, dtype, op, true);
}

dart_ret_t dart_fetch_and_op(dart_gptr_t gptr, const void* value, void* result,
                             dart_datatype_t dtype, dart_operation_t op) {
  static const char* call = "dart_fetch_and_op";
  const dart_type_info_t* t;
  dart_target_t to;
  dart_ret_t ret = prepare(call, gptr, 1, dtype, op, &t, &to);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, result != NULL && (value != NULL || op == DART_OP_NO_OP),
                 "value or result is NULL");
  if (dart__unsigned_minmax_emulated(op, t))
    return unsigned_min_max(call, &to, t, to.disp, value, result, op);
  DART_MPI_CALL(call, MPI_Fetch_and_op(value, result, t->mpi, to.target, to.disp, dart__mpi_op(op),
                                       to.seg->win));
  DART_MPI_CALL(call, MPI_Win_flush(to.target, to.seg->win));
  return DART_OK;
}

dart_ret_t dart_compare_and_swap(dart_gptr_t gptr, const void* value, const void* compare,
                                 void* result, dart_datatype_t dtype) {
  static const char* call = "dart_compare_and_swap";
  const dart_type_info_t* t;
  dart_target_t to;
  dart_ret_t ret = prepare(call, gptr, 1, dtype, DART_OP_REPLACE, &t, &to);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, t->is_integer || t->base == DART_TYPE_BYTE,
                 "compare-and-swap needs an integer type");
  DART_CHECK_ARG(call, value != NULL && compare != NULL && result != NULL,
                 "value, compare or result is NULL");
  DART_MPI_CALL(
      call, MPI_Compare_and_swap(value, compare, result, t->mpi, to.target, to.disp, to.seg->win));
  DART_MPI_CALL(call, MPI_Win_flush(to.target, to.seg->win));
  return DART_OK;
}
