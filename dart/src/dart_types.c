/* Element types: the basic types, strided and custom types, and the mapping
 * of DART operations onto MPI. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dart_internal.h"

/* Derived types get ids DART_TYPE_DERIVED_BASE + index into this table. */
#define DART_TYPE_DERIVED_BASE ((dart_datatype_t)1024)

dart_type_info_t dart__basic_types[DART_TYPE_LAST];
bool dart__basic_types_ready = false;

static dart_type_info_t** derived_types = NULL;
static size_t derived_capacity = 0;

/* DART's own unsigned MIN and MAX, where the MPI's are wrong (see below). */
static bool unsigned_minmax_wrong[3] = {false, false, false}; /* uint, ulong, ull */
static MPI_Op unsigned_ops[2] = {MPI_OP_NULL, MPI_OP_NULL};   /* min, max */

/* DART_OP_MINMAX: one MPI type per basic type for a (min, max) pair, so MPI
 * never splits a pair, and one MPI op over all of them (see below). */
static MPI_Datatype pair_types[DART_TYPE_LAST];
static MPI_Op minmax_op = MPI_OP_NULL;

static void set_basic(dart_datatype_t id, MPI_Datatype mpi, size_t size, bool integer,
                      bool floating) {
  dart__basic_types[id] = (dart_type_info_t){.kind = DART_KIND_BASIC,
                                             .base = id,
                                             .mpi = mpi,
                                             .size = size,
                                             .stride = 1,
                                             .blocklen = 1,
                                             .is_integer = integer,
                                             .is_floating = floating};
}

static void init_basic_types(void) {
  set_basic(DART_TYPE_BYTE, MPI_BYTE, 1, false, false);
  set_basic(DART_TYPE_CHAR, MPI_SIGNED_CHAR, sizeof(char), true, false);
  set_basic(DART_TYPE_SHORT, MPI_SHORT, sizeof(short), true, false);
  set_basic(DART_TYPE_INT, MPI_INT, sizeof(int), true, false);
  set_basic(DART_TYPE_UINT, MPI_UNSIGNED, sizeof(unsigned), true, false);
  set_basic(DART_TYPE_LONG, MPI_LONG, sizeof(long), true, false);
  set_basic(DART_TYPE_ULONG, MPI_UNSIGNED_LONG, sizeof(unsigned long), true, false);
  set_basic(DART_TYPE_LONGLONG, MPI_LONG_LONG, sizeof(long long), true, false);
  set_basic(DART_TYPE_ULONGLONG, MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long), true, false);
  set_basic(DART_TYPE_FLOAT, MPI_FLOAT, sizeof(float), false, true);
  set_basic(DART_TYPE_DOUBLE, MPI_DOUBLE, sizeof(double), false, true);
  set_basic(DART_TYPE_LONG_DOUBLE, MPI_LONG_DOUBLE, sizeof(long double), false, true);
  dart__basic_types_ready = true;
}

const dart_type_info_t* dart__type_lookup(dart_datatype_t dtype) {
  if (dtype > DART_TYPE_UNDEFINED && dtype < DART_TYPE_LAST) {
    if (!dart__basic_types_ready) init_basic_types();
    return &dart__basic_types[dtype];
  }
  if (dtype >= DART_TYPE_DERIVED_BASE) {
    size_t index = (size_t)(dtype - DART_TYPE_DERIVED_BASE);
    if (index < derived_capacity) return derived_types[index];
  }
  return NULL;
}

dart_ret_t dart_op_type_size(dart_datatype_t dtype, size_t* size) {
  const dart_type_info_t* t = dart__type(dtype);
  DART_CHECK_ARG("dart_op_type_size", t != NULL, "unknown data type %ld", (long)dtype);
  DART_CHECK_ARG("dart_op_type_size", size != NULL, "size is NULL");
  *size = t->size;
  return DART_OK;
}

/* Stores info in the first free derived slot and returns its id. */
static dart_ret_t register_derived(const char* call, dart_type_info_t* info,
                                   dart_datatype_t* newtype) {
  size_t slot = 0;
  while (slot < derived_capacity && derived_types[slot] != NULL) ++slot;
  if (slot == derived_capacity) {
    size_t capacity = derived_capacity == 0 ? 16 : 2 * derived_capacity;
    dart_type_info_t** grown = realloc(derived_types, capacity * sizeof *grown);
    if (grown == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
    for (size_t i = derived_capacity; i < capacity; ++i) grown[i] = NULL;
    derived_types = grown;
    derived_capacity = capacity;
  }
  derived_types[slot] = info;
  *newtype = DART_TYPE_DERIVED_BASE + (dart_datatype_t)slot;
  return DART_OK;
}

dart_ret_t dart_type_create_strided(dart_datatype_t basetype, size_t stride, size_t blocklen,
                                    dart_datatype_t* newtype) {
  static const char* call = "dart_type_create_strided";
  const dart_type_info_t* base = dart__type(basetype);
  DART_CHECK_ARG(call, newtype != NULL, "newtype is NULL");
  DART_CHECK_ARG(call, base != NULL && base->kind == DART_KIND_BASIC,
                 "base type %ld is not a basic type", (long)basetype);
  DART_CHECK_ARG(call, blocklen > 0 && stride >= blocklen && stride <= INT32_MAX,
                 "need 0 < blocklen <= stride <= INT32_MAX (blocklen %zu, stride %zu)", blocklen,
                 stride);
  dart_type_info_t* info = malloc(sizeof *info);
  if (info == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  *info = *base;
  info->kind = DART_KIND_STRIDED;
  info->stride = stride;
  info->blocklen = blocklen;
  dart_ret_t ret = register_derived(call, info, newtype);
  if (ret != DART_OK) free(info);
  return ret;
}

dart_ret_t dart_type_create_indexed(dart_datatype_t basetype, size_t count, const size_t blocklen[],
                                    const size_t offset[], dart_datatype_t* newtype) {
  static const char* call = "dart_type_create_indexed";
  const dart_type_info_t* base = dart__type(basetype);
  DART_CHECK_ARG(call, newtype != NULL, "newtype is NULL");
  DART_CHECK_ARG(call, base != NULL && base->kind == DART_KIND_BASIC,
                 "base type %ld is not a basic type", (long)basetype);
  DART_CHECK_ARG(call, count > 0 && count <= INT32_MAX, "count %zu is not in [1, INT32_MAX]",
                 count);
  DART_CHECK_ARG(call, blocklen != NULL && offset != NULL, "blocklen or offset is NULL");
  size_t total = 0;
  bool disjoint = true; /* runs in ascending order, none overlapping the one before */
  for (size_t i = 0; i < count; ++i) {
    DART_CHECK_ARG(call, blocklen[i] > 0 && blocklen[i] <= INT32_MAX,
                   "run %zu: length %zu is not in [1, INT32_MAX]", i, blocklen[i]);
    DART_CHECK_ARG(call, offset[i] <= INT32_MAX - blocklen[i],
                   "run %zu ends beyond element INT32_MAX", i);
    if (i > 0 && offset[i] < offset[i - 1] + blocklen[i - 1]) disjoint = false;
    total += blocklen[i];
  }
  dart_type_info_t* info = malloc(sizeof *info);
  size_t* runs = malloc(2 * count * sizeof *runs);
  if (info == NULL || runs == NULL) {
    free(info);
    free(runs);
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  }
  memcpy(runs, blocklen, count * sizeof *runs);
  memcpy(runs + count, offset, count * sizeof *runs);
  *info = *base;
  info->kind = DART_KIND_INDEXED;
  info->nruns = count;
  info->run_len = runs;
  info->run_off = runs + count;
  info->run_total = total;
  info->run_disjoint = disjoint;
  dart_ret_t ret = register_derived(call, info, newtype);
  if (ret != DART_OK) {
    free(runs);
    free(info);
  }
  return ret;
}

dart_ret_t dart_type_create_custom(size_t num_bytes, dart_datatype_t* newtype) {
  static const char* call = "dart_type_create_custom";
  DART_CHECK_INIT(call); /* makes an MPI datatype: MPI must be running */
  DART_CHECK_ARG(call, newtype != NULL, "newtype is NULL");
  DART_CHECK_ARG(call, num_bytes > 0 && num_bytes <= INT32_MAX,
                 "element size %zu is not in [1, INT32_MAX]", num_bytes);
  dart_type_info_t* info = malloc(sizeof *info);
  if (info == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  MPI_Datatype mpi;
  int mpi_ret = MPI_Type_contiguous((int)num_bytes, MPI_BYTE, &mpi);
  if (mpi_ret == MPI_SUCCESS) mpi_ret = MPI_Type_commit(&mpi);
  if (mpi_ret != MPI_SUCCESS) {
    free(info);
    return dart__mpi_error(mpi_ret, call, "MPI_Type_contiguous");
  }
  *info = (dart_type_info_t){.kind = DART_KIND_CUSTOM,
                             .mpi = mpi,
                             .size = num_bytes,
                             .stride = 1,
                             .blocklen = 1,
                             .is_integer = false,
                             .is_floating = false};
  dart_ret_t ret = register_derived(call, info, newtype);
  if (ret != DART_OK) {
    (void)MPI_Type_free(&mpi); /* error path: the registration error is returned */
    free(info);
    return ret;
  }
  info->base = *newtype;
  return DART_OK;
}

dart_ret_t dart_type_destroy(dart_datatype_t* dtype) {
  static const char* call = "dart_type_destroy";
  DART_CHECK_ARG(call, dtype != NULL, "dtype is NULL");
  DART_CHECK_ARG(call, *dtype >= DART_TYPE_DERIVED_BASE && dart__type(*dtype) != NULL,
                 "type %ld is not a live derived type", (long)*dtype);
  size_t index = (size_t)(*dtype - DART_TYPE_DERIVED_BASE);
  dart_type_info_t* info = derived_types[index];
  int ret = MPI_SUCCESS;
  if (info->kind == DART_KIND_CUSTOM && !dart__mpi_finalized()) ret = MPI_Type_free(&info->mpi);
  if (info->kind == DART_KIND_INDEXED) free(info->run_len); /* one block: lengths, offsets */
  free(info); /* the type is gone for DART either way */
  derived_types[index] = NULL;
  *dtype = DART_TYPE_UNDEFINED;
  return dart__mpi_error(ret, call, "MPI_Type_free");
}

int dart__byte_type(size_t nbytes, int* count, MPI_Datatype* type) {
  if (nbytes <= INT_MAX) {
    *count = (int)nbytes;
    *type = MPI_BYTE;
    return MPI_SUCCESS;
  }
  *count = 1;
  return dart__byte_type_at(0, nbytes, type);
}

int dart__byte_type_at(size_t offset, size_t nbytes, MPI_Datatype* type) {
  const size_t block = (size_t)1 << 30;
  MPI_Datatype gib;
  int ret = MPI_Type_contiguous((int)block, MPI_BYTE, &gib);
  if (ret != MPI_SUCCESS) return ret;
  int lengths[2] = {(int)(nbytes / block), (int)(nbytes % block)};
  MPI_Aint displs[2] = {(MPI_Aint)offset, (MPI_Aint)(offset + nbytes / block * block)};
  MPI_Datatype types[2] = {gib, MPI_BYTE};
  ret = MPI_Type_create_struct(2, lengths, displs, types, type);
  (void)MPI_Type_free(&gib); /* the struct keeps what it needs; a failure only leaks gib */
  if (ret == MPI_SUCCESS) ret = MPI_Type_commit(type);
  return ret;
}

void dart__byte_type_free(MPI_Datatype* type) {
  /* The call that used the type has started and keeps what it needs: a failure only leaks it. */
  if (*type != MPI_BYTE && *type != MPI_DATATYPE_NULL) (void)MPI_Type_free(type);
}

/* Frees the pair types and the ops dart__types_probe_mpi made. At exit, or after the probe
 * failed: nothing to be done about a failed free (it leaks the object only). */
static void free_probe_objects(void) {
  const bool finalized = dart__mpi_finalized();
  for (int k = 0; k < DART_TYPE_LAST; ++k) {
    if (pair_types[k] != MPI_DATATYPE_NULL && pair_types[k] != 0 && !finalized)
      (void)MPI_Type_free(&pair_types[k]);
    pair_types[k] = MPI_DATATYPE_NULL;
  }
  if (minmax_op != MPI_OP_NULL && !finalized) (void)MPI_Op_free(&minmax_op);
  minmax_op = MPI_OP_NULL;
  for (int k = 0; k < 2; ++k)
    if (unsigned_ops[k] != MPI_OP_NULL && !finalized) (void)MPI_Op_free(&unsigned_ops[k]);
  unsigned_ops[0] = unsigned_ops[1] = MPI_OP_NULL;
  unsigned_minmax_wrong[0] = unsigned_minmax_wrong[1] = unsigned_minmax_wrong[2] = false;
}

void dart__types_cleanup(void) {
  free_probe_objects();
  for (size_t i = 0; i < derived_capacity; ++i) {
    dart_datatype_t id = DART_TYPE_DERIVED_BASE + (dart_datatype_t)i;
    if (derived_types[i] != NULL) dart_type_destroy(&id);
  }
  free(derived_types);
  derived_types = NULL;
  derived_capacity = 0;
}

/* ---- unsigned minimum and maximum ------------------------------------------
 * Debian 12's MPIs compare some unsigned integer types as signed in MPI_MIN
 * and MPI_MAX, in collectives and in RMA alike (measured: the minimum of 100
 * and the type's largest value comes out as the largest): MPICH 4.0.2 for
 * MPI_UNSIGNED, MPI_UNSIGNED_LONG and MPI_UNSIGNED_LONG_LONG, OpenMPI 4.1
 * for MPI_UNSIGNED_LONG. dart_init probes each type once
 * (MPI_Reduce_local); where it is wrong, reductions of that type use the ops
 * below and atomics a compare-and-swap loop (dart_atomic.c). */

#define DART_UNSIGNED_OP(name, T, pick)            \
  static void name(void* in, void* inout, int n) { \
    const T* a = (const T*)in;                     \
    T* b = (T*)inout;                              \
    for (int i = 0; i < n; ++i)                    \
      if (a[i] pick b[i]) b[i] = a[i];             \
  }
DART_UNSIGNED_OP(min_u, unsigned, <)
DART_UNSIGNED_OP(max_u, unsigned, >)
DART_UNSIGNED_OP(min_ul, unsigned long, <)
DART_UNSIGNED_OP(max_ul, unsigned long, >)
DART_UNSIGNED_OP(min_ull, unsigned long long, <)
DART_UNSIGNED_OP(max_ull, unsigned long long, >)

static void unsigned_min(void* in, void* inout, int* n, MPI_Datatype* dt) {
  if (*dt == MPI_UNSIGNED)
    min_u(in, inout, *n);
  else if (*dt == MPI_UNSIGNED_LONG)
    min_ul(in, inout, *n);
  else
    min_ull(in, inout, *n);
}

static void unsigned_max(void* in, void* inout, int* n, MPI_Datatype* dt) {
  if (*dt == MPI_UNSIGNED)
    max_u(in, inout, *n);
  else if (*dt == MPI_UNSIGNED_LONG)
    max_ul(in, inout, *n);
  else
    max_ull(in, inout, *n);
}

/* Sets *wrong to whether MPI_MIN of the largest value and 1 of MPI type dt does not give 1.
 * Returns an MPI error code. */
static int unsigned_min_wrong(MPI_Datatype dt, size_t size, bool* wrong) {
  unsigned long long big = ~0ull, one = 1, result = 1;
  memcpy(&result, &one, size);
  /* the low bytes: little-endian */
  const int ret = MPI_Reduce_local(&big, &result, 1, dt, MPI_MIN);
  unsigned long long got = 0;
  memcpy(&got, &result, size);
  *wrong = got != 1;
  return ret;
}

/* ---- DART_OP_MINMAX ---------------------------------------------------------
 * Pairs (min, max) combined element-wise: the smaller first elements, the
 * larger second ones. The MPI op finds the basic type from the pair type. */

#define DART_MINMAX_PAIRS(name, T)                                       \
  static void name(void* in, void* inout, int n) {                       \
    const T* a = (const T*)in;                                           \
    T* b = (T*)inout;                                                    \
    for (int i = 0; i < n; ++i) {                                        \
      if (a[2 * i + DART_OP_MINMAX_MIN] < b[2 * i + DART_OP_MINMAX_MIN]) \
        b[2 * i + DART_OP_MINMAX_MIN] = a[2 * i + DART_OP_MINMAX_MIN];   \
      if (a[2 * i + DART_OP_MINMAX_MAX] > b[2 * i + DART_OP_MINMAX_MAX]) \
        b[2 * i + DART_OP_MINMAX_MAX] = a[2 * i + DART_OP_MINMAX_MAX];   \
    }                                                                    \
  }
DART_MINMAX_PAIRS(minmax_char, signed char)
DART_MINMAX_PAIRS(minmax_short, short)
DART_MINMAX_PAIRS(minmax_int, int)
DART_MINMAX_PAIRS(minmax_uint, unsigned)
DART_MINMAX_PAIRS(minmax_long, long)
DART_MINMAX_PAIRS(minmax_ulong, unsigned long)
DART_MINMAX_PAIRS(minmax_longlong, long long)
DART_MINMAX_PAIRS(minmax_ulonglong, unsigned long long)
DART_MINMAX_PAIRS(minmax_float, float)
DART_MINMAX_PAIRS(minmax_double, double)
DART_MINMAX_PAIRS(minmax_long_double, long double)

static void minmax_pairs(void* in, void* inout, int* n, MPI_Datatype* dt) {
  dart_datatype_t base = DART_TYPE_UNDEFINED;
  for (dart_datatype_t k = DART_TYPE_CHAR; k < DART_TYPE_LAST; ++k)
    if (pair_types[k] == *dt) base = k;
  switch (base) {
    case DART_TYPE_CHAR:
      minmax_char(in, inout, *n);
      break;
    case DART_TYPE_SHORT:
      minmax_short(in, inout, *n);
      break;
    case DART_TYPE_INT:
      minmax_int(in, inout, *n);
      break;
    case DART_TYPE_UINT:
      minmax_uint(in, inout, *n);
      break;
    case DART_TYPE_LONG:
      minmax_long(in, inout, *n);
      break;
    case DART_TYPE_ULONG:
      minmax_ulong(in, inout, *n);
      break;
    case DART_TYPE_LONGLONG:
      minmax_longlong(in, inout, *n);
      break;
    case DART_TYPE_ULONGLONG:
      minmax_ulonglong(in, inout, *n);
      break;
    case DART_TYPE_FLOAT:
      minmax_float(in, inout, *n);
      break;
    case DART_TYPE_DOUBLE:
      minmax_double(in, inout, *n);
      break;
    case DART_TYPE_LONG_DOUBLE:
      minmax_long_double(in, inout, *n);
      break;
    default:
      break; /* not reached: dart__check_op admits these types only */
  }
}

MPI_Datatype dart__minmax_pair_type(const dart_type_info_t* t) { return pair_types[t->base]; }

MPI_Op dart__minmax_op(void) { return minmax_op; }

/* The pair types and the op of DART_OP_MINMAX. Whatever was made stays for the caller to
 * free (free_probe_objects) on failure. */
static dart_ret_t create_minmax(const char* call) {
  if (!dart__basic_types_ready) init_basic_types();
  for (dart_datatype_t k = 0; k < DART_TYPE_LAST; ++k) pair_types[k] = MPI_DATATYPE_NULL;
  for (dart_datatype_t k = 0; k < DART_TYPE_LAST; ++k) {
    const dart_type_info_t* t = &dart__basic_types[k];
    if (k == DART_TYPE_UNDEFINED || !(t->is_integer || t->is_floating)) continue;
    MPI_Datatype pair = MPI_DATATYPE_NULL;
    DART_MPI_CALL(call, MPI_Type_contiguous(2, t->mpi, &pair));
    pair_types[k] = pair;
    DART_MPI_CALL(call, MPI_Type_commit(&pair_types[k]));
  }
  MPI_Op op = MPI_OP_NULL;
  DART_MPI_CALL(call, MPI_Op_create(minmax_pairs, 1, &op));
  minmax_op = op;
  return DART_OK;
}

/* The probe and DART's own unsigned MIN and MAX where it finds the MPI's wrong. */
static dart_ret_t probe_unsigned_minmax(const char* call) {
  static const MPI_Datatype types[3] = {MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG};
  static const size_t sizes[3] = {sizeof(unsigned), sizeof(unsigned long),
                                  sizeof(unsigned long long)};
  for (int k = 0; k < 3; ++k) {
    const int ret = unsigned_min_wrong(types[k], sizes[k], &unsigned_minmax_wrong[k]);
    if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Reduce_local");
  }
  if (unsigned_minmax_wrong[0] || unsigned_minmax_wrong[1] || unsigned_minmax_wrong[2]) {
    MPI_Op op = MPI_OP_NULL;
    DART_MPI_CALL(call, MPI_Op_create(unsigned_min, 1, &op));
    unsigned_ops[0] = op;
    DART_MPI_CALL(call, MPI_Op_create(unsigned_max, 1, &op));
    unsigned_ops[1] = op;
  }
  return DART_OK;
}

dart_ret_t dart__types_probe_mpi(const char* call) {
  dart_ret_t ret = create_minmax(call);
  if (ret == DART_OK) ret = probe_unsigned_minmax(call);
  if (ret != DART_OK) free_probe_objects();
  return ret;
}

bool dart__unsigned_minmax_emulated(dart_operation_t op, const dart_type_info_t* t) {
  if (op != DART_OP_MIN && op != DART_OP_MAX) return false;
  switch (t->base) {
    case DART_TYPE_UINT:
      return unsigned_minmax_wrong[0];
    case DART_TYPE_ULONG:
      return unsigned_minmax_wrong[1];
    case DART_TYPE_ULONGLONG:
      return unsigned_minmax_wrong[2];
    default:
      return false;
  }
}

MPI_Op dart__mpi_reduce_op(dart_operation_t op, const dart_type_info_t* t) {
  if (dart__unsigned_minmax_emulated(op, t)) return unsigned_ops[op == DART_OP_MAX];
  return dart__mpi_op(op);
}

MPI_Op dart__mpi_op(dart_operation_t op) {
  switch (op) {
    case DART_OP_MIN:
      return MPI_MIN;
    case DART_OP_MAX:
      return MPI_MAX;
    case DART_OP_SUM:
      return MPI_SUM;
    case DART_OP_PROD:
      return MPI_PROD;
    case DART_OP_BAND:
      return MPI_BAND;
    case DART_OP_LAND:
      return MPI_LAND;
    case DART_OP_BOR:
      return MPI_BOR;
    case DART_OP_LOR:
      return MPI_LOR;
    case DART_OP_BXOR:
      return MPI_BXOR;
    case DART_OP_LXOR:
      return MPI_LXOR;
    case DART_OP_REPLACE:
      return MPI_REPLACE;
    case DART_OP_NO_OP:
      return MPI_NO_OP;
    default:
      return MPI_OP_NULL;
  }
}

dart_ret_t dart__check_op(const char* call, dart_operation_t op, const dart_type_info_t* t,
                          bool atomic) {
  DART_CHECK_ARG(call, t != NULL, "unknown data type");
  DART_CHECK_ARG(call, t->kind == DART_KIND_BASIC, "operations need a basic data type");
  switch (op) {
    case DART_OP_MIN:
    case DART_OP_MAX:
    case DART_OP_SUM:
    case DART_OP_PROD:
      DART_CHECK_ARG(call, t->is_integer || t->is_floating,
                     "arithmetic operation %d needs an integer or floating type", (int)op);
      return DART_OK;
    case DART_OP_LAND:
    case DART_OP_LOR:
    case DART_OP_LXOR:
      DART_CHECK_ARG(call, t->is_integer, "logical operation %d needs an integer type", (int)op);
      return DART_OK;
    case DART_OP_BAND:
    case DART_OP_BOR:
    case DART_OP_BXOR:
      DART_CHECK_ARG(call, t->is_integer || t->base == DART_TYPE_BYTE,
                     "bitwise operation %d needs an integer or byte type", (int)op);
      return DART_OK;
    case DART_OP_MINMAX:
      DART_CHECK_ARG(call, !atomic, "DART_OP_MINMAX is only allowed in reductions");
      DART_CHECK_ARG(call, t->is_integer || t->is_floating,
                     "DART_OP_MINMAX needs an integer or floating type");
      return DART_OK;
    case DART_OP_REPLACE:
    case DART_OP_NO_OP:
      DART_CHECK_ARG(call, atomic, "operation %d is only allowed in atomics", (int)op);
      return DART_OK;
    default:
      if (dart__custom_op(op) != NULL)
        return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                                  "operation %d (dart_op_create) is only allowed in reductions",
                                  (int)op);
      return DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "unknown operation %d", (int)op);
  }
}

size_t dart__type_span(const dart_type_info_t* t, size_t nelem) {
  size_t elements = nelem;
  /* strided layouts divide; contiguous ones (the hot path) do not */
  if (t->kind == DART_KIND_STRIDED && nelem > 0) {
    size_t full_blocks = nelem / t->blocklen;
    size_t rest = nelem % t->blocklen;
    size_t blocks_before_last = rest != 0 ? full_blocks : full_blocks - 1;
    size_t last = rest != 0 ? rest : t->blocklen;
    if (blocks_before_last > (SIZE_MAX - last) / t->stride) return SIZE_MAX;
    elements = blocks_before_last * t->stride + last;
  } else if (t->kind == DART_KIND_INDEXED && nelem > 0) {
    if (nelem > t->run_total) return SIZE_MAX;
    size_t i = 0, left = nelem;
    elements = 0; /* the furthest end of the runs reached (runs may come in any order) */
    for (; left > t->run_len[i]; left -= t->run_len[i++])
      if (t->run_off[i] + t->run_len[i] > elements) elements = t->run_off[i] + t->run_len[i];
    if (t->run_off[i] + left > elements) elements = t->run_off[i] + left;
  }
  size_t bytes; /* overflow check without a division: this is on every transfer */
  if (__builtin_mul_overflow(elements, t->size, &bytes) || bytes == SIZE_MAX) return SIZE_MAX;
  return bytes;
}
