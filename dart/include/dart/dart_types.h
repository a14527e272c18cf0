/* Basic types of the DART runtime: return codes, unit and team ids, data
 * types, reduction operations, global pointers.
 *
 * All types are plain C and cost nothing to copy. */
#ifndef DART__DART_TYPES_H_
#define DART__DART_TYPES_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result of every DART call. */
typedef enum {
  DART_OK = 0,           /* success */
  DART_PENDING = 1,      /* a test found the operation not yet complete */
  DART_ERR_INVAL = 2,    /* bad argument: pointer, team, unit, size, type */
  DART_ERR_NOTFOUND = 3, /* the named object does not exist */
  DART_ERR_NOTINIT = 4,  /* called before dart_init or after dart_exit */
  DART_ERR_NOMEM = 5,    /* out of memory (e.g. local allocation pool full) */
  DART_ERR_OTHER = 999   /* the MPI layer reported an error */
} dart_ret_t;

/* Raw unit id; use the strong forms below in interfaces. */
typedef int32_t dart_unit_t;

/* Unit id relative to DART_TEAM_ALL. */
typedef struct {
  dart_unit_t id;
} dart_global_unit_t;

/* Unit id relative to some team. */
typedef struct {
  dart_unit_t id;
} dart_team_unit_t;

#define DART_UNDEFINED_UNIT_ID ((dart_unit_t)(-1))
#ifdef __cplusplus
#define DART_GLOBAL_UNIT_ID(u) (dart_global_unit_t{(dart_unit_t)(u)})
#define DART_TEAM_UNIT_ID(u) (dart_team_unit_t{(dart_unit_t)(u)})
#else
#define DART_GLOBAL_UNIT_ID(u) ((dart_global_unit_t){.id = (u)})
#define DART_TEAM_UNIT_ID(u) ((dart_team_unit_t){.id = (u)})
#endif
#define DART_UNDEFINED_GLOBAL_UNIT_ID DART_GLOBAL_UNIT_ID(DART_UNDEFINED_UNIT_ID)
#define DART_UNDEFINED_TEAM_UNIT_ID DART_TEAM_UNIT_ID(DART_UNDEFINED_UNIT_ID)

/* Team id; DART_TEAM_ALL holds every unit. */
typedef int16_t dart_team_t;
#define DART_TEAM_ALL ((dart_team_t)0)
#define DART_TEAM_NULL ((dart_team_t)(-1))

/* Element data type. Values up to DART_TYPE_LAST are the basic types; larger
 * values name types made by dart_type_create_* (see dart_globmem.h). */
typedef intptr_t dart_datatype_t;
#define DART_TYPE_UNDEFINED ((dart_datatype_t)0)
#define DART_TYPE_BYTE ((dart_datatype_t)1)
#define DART_TYPE_CHAR ((dart_datatype_t)2)
#define DART_TYPE_SHORT ((dart_datatype_t)3)
#define DART_TYPE_INT ((dart_datatype_t)4)
#define DART_TYPE_UINT ((dart_datatype_t)5)
#define DART_TYPE_LONG ((dart_datatype_t)6)
#define DART_TYPE_ULONG ((dart_datatype_t)7)
#define DART_TYPE_LONGLONG ((dart_datatype_t)8)
#define DART_TYPE_ULONGLONG ((dart_datatype_t)9)
#define DART_TYPE_FLOAT ((dart_datatype_t)10)
#define DART_TYPE_DOUBLE ((dart_datatype_t)11)
#define DART_TYPE_LONG_DOUBLE ((dart_datatype_t)12)
#define DART_TYPE_LAST ((dart_datatype_t)13)

/* Reduction and atomic operations. */
typedef enum {
  DART_OP_UNDEFINED = 0,
  DART_OP_MIN,
  DART_OP_MAX,
  DART_OP_SUM,
  DART_OP_PROD,
  DART_OP_BAND,
  DART_OP_LAND,
  DART_OP_BOR,
  DART_OP_LOR,
  DART_OP_BXOR,
  DART_OP_LXOR,
  DART_OP_MINMAX,  /* reductions only: (min, max) pairs, see below */
  DART_OP_REPLACE, /* atomics only */
  DART_OP_NO_OP,   /* atomics only: fetch without modifying */
  DART_OP_LAST
} dart_operation_t;

/* DART_OP_MINMAX reduces pairs of an integer or floating basic type: nelem
 * (even) elements are nelem / 2 pairs, element DART_OP_MINMAX_MIN of a pair
 * becomes the minimum of those elements over all units, element
 * DART_OP_MINMAX_MAX the maximum. */
#define DART_OP_MINMAX_MIN 0
#define DART_OP_MINMAX_MAX 1

/* A reduction operator of the program's own (dart_op_create): combines len elements,
 * inoutvec[i] = invec[i] op inoutvec[i] for i in 0..len-1; user_data is the pointer given to
 * dart_op_create. */
typedef void (*dart_operator_t)(const void* invec, void* inoutvec, size_t len, void* user_data);

/* Thread support levels for dart_init_thread. */
typedef enum { DART_THREAD_SINGLE = 0, DART_THREAD_MULTIPLE = 1 } dart_thread_support_level_t;

/* A global pointer: 16 bytes naming a byte in the global address space.
 * unitid is relative to teamid; segid names the allocation (0 is the local
 * allocation pool of dart_memalloc, > 0 team allocations); addr_or_offs is
 * the byte offset inside the unit's part of the segment. */
typedef struct {
  unsigned int flags : 8;
  signed int unitid : 24;
  int16_t segid;
  dart_team_t teamid;
  union {
    uint64_t offset;
    void* addr;
  } addr_or_offs;
} dart_gptr_t;

#define DART_SEGMENT_LOCAL ((int16_t)0)

/* The null global pointer: unit -1, team DART_TEAM_NULL. */
#ifdef __cplusplus
#define DART_GPTR_NULL (dart_gptr_t{0, DART_UNDEFINED_UNIT_ID, 0, DART_TEAM_NULL, {0}})
#else
#define DART_GPTR_NULL                             \
  ((dart_gptr_t){.flags = 0,                       \
                 .unitid = DART_UNDEFINED_UNIT_ID, \
                 .segid = 0,                       \
                 .teamid = DART_TEAM_NULL,         \
                 .addr_or_offs = {.offset = 0}})
#endif

/* True (1) if gptr is the null pointer. */
#define DART_GPTR_ISNULL(gptr) ((gptr).unitid < 0 && (gptr).teamid == DART_TEAM_NULL)

/* True if two global pointers name the same byte: same unit, team, segment
 * and offset (flags are ignored). */
#define DART_GPTR_EQUAL(a, b)                                                        \
  ((a).unitid == (b).unitid && (a).segid == (b).segid && (a).teamid == (b).teamid && \
   (a).addr_or_offs.offset == (b).addr_or_offs.offset)

#ifdef __cplusplus
/* DART_GPTR_EQUAL as operators, for C++ programs. */
inline bool operator==(const dart_gptr_t& a, const dart_gptr_t& b) { return DART_GPTR_EQUAL(a, b); }
inline bool operator!=(const dart_gptr_t& a, const dart_gptr_t& b) {
  return !DART_GPTR_EQUAL(a, b);
}
#endif

/* Completion handle of a non-blocking operation; DART_HANDLE_NULL is an
 * operation that completed at once. */
typedef struct dart_handle_struct* dart_handle_t;
#define DART_HANDLE_NULL ((dart_handle_t)0)

/* An unordered set of global unit ids (see dart_team_group.h). */
typedef struct dart_group_struct* dart_group_t;

/* A team lock (see dart_synchronization.h). */
typedef struct dart_lock_struct* dart_lock_t;

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_TYPES_H_ */
