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

#define DART_UNDEFINED_UNIT_ID ((dart_unit_t)(-1))

/* Unit id relative to DART_TEAM_ALL. In C++ (as in DASH) it is made from a
 * dart_unit_t implicitly, and a default-made one is undefined (-1). */
typedef struct dart_global_unit {
#ifdef __cplusplus
  constexpr dart_global_unit() : id(DART_UNDEFINED_UNIT_ID) {}
  constexpr dart_global_unit(dart_unit_t uid) : id(uid) {}
#endif
  dart_unit_t id;
} dart_global_unit_t;

/* Unit id relative to some team; in C++ made as dart_global_unit_t is. */
typedef struct dart_local_unit {
#ifdef __cplusplus
  constexpr dart_local_unit() : id(DART_UNDEFINED_UNIT_ID) {}
  constexpr dart_local_unit(dart_unit_t uid) : id(uid) {}
#endif
  dart_unit_t id;
} dart_team_unit_t;
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

/* ---- locality (see dart_locality.h) ------------------------------------ */

/* Bytes of a host name, including the terminating NUL (longer names are
 * truncated). */
#define DART_LOCALITY_HOST_MAX_SIZE ((int)(128))
/* Bytes of a domain tag, including the terminating NUL. */
#define DART_LOCALITY_DOMAIN_TAG_MAX_SIZE ((int)(32))
/* Entries of dart_hwinfo_t.scopes. */
#define DART_LOCALITY_MAX_DOMAIN_SCOPES ((int)(12))
/* Cache levels described in dart_hwinfo_t (L1 .. L5). */
#define DART_LOCALITY_MAX_CACHE_LEVELS ((int)(5))

/* Kinds of locality domain (DASH's names and values). The domains DART
 * builds for a team use GLOBAL, NODE, MODULE, NUMA, CORE and UNIT (in this
 * order from the root: see dart_locality.h); GROUP is what
 * dart_domain_group makes; the others name hardware levels in
 * dart_hwinfo_t.scopes or are unused. */
typedef enum {
  DART_LOCALITY_SCOPE_UNDEFINED = -1,
  DART_LOCALITY_SCOPE_GLOBAL = 0, /* the whole team */
  DART_LOCALITY_SCOPE_GROUP = 1,  /* a group made by dart_domain_group */
  DART_LOCALITY_SCOPE_NETWORK = 50,
  DART_LOCALITY_SCOPE_NODE = 100,   /* a (real or emulated) node */
  DART_LOCALITY_SCOPE_MODULE = 200, /* a module of a node (here: one per node) */
  DART_LOCALITY_SCOPE_NUMA = 300,   /* a NUMA domain of a module */
  DART_LOCALITY_SCOPE_UNIT = 400,   /* one unit */
  DART_LOCALITY_SCOPE_PACKAGE = 500,
  DART_LOCALITY_SCOPE_UNCORE = 510,
  DART_LOCALITY_SCOPE_CACHE = 530,
  DART_LOCALITY_SCOPE_CORE = 550, /* a core of a NUMA domain */
  DART_LOCALITY_SCOPE_CPU = 600
} dart_locality_scope_t;

/* A domain's scope and its index in that scope. */
typedef struct {
  dart_locality_scope_t scope;
  int index;
} dart_locality_scope_pos_t;

/* The hardware a unit runs on, as hwloc saw it at start-up. Indices are
 * logical indices on the unit's real node; -1 means unknown (hwloc gave no
 * answer, or the value is not measured: clock rates, bandwidth, memory). */
typedef struct {
  char host[DART_LOCALITY_HOST_MAX_SIZE];
  int num_cores;                                   /* cores the unit's binding allows */
  int num_numa;                                    /* NUMA domains the unit's binding allows */
  int numa_id;                                     /* NUMA domain the unit ran on */
  int num_sockets;                                 /* packages the unit's binding allows */
  int core_id;                                     /* core the unit ran on */
  int cpu_id;                                      /* OS index of the hardware thread it ran on */
  int min_cpu_mhz;                                 /* not measured: -1 */
  int max_cpu_mhz;                                 /* not measured: -1 */
  int cache_sizes[DART_LOCALITY_MAX_CACHE_LEVELS]; /* bytes, L1 data first */
  int cache_line_sizes[DART_LOCALITY_MAX_CACHE_LEVELS]; /* bytes */
  int cache_ids[DART_LOCALITY_MAX_CACHE_LEVELS];        /* logical index of the cache */
  int min_threads;                                      /* hardware threads per core, */
  int max_threads;                                      /* over the unit's cores */
  int max_shmem_mbps;                                   /* not measured: -1 */
  int system_memory_bytes;                              /* not filled (does not fit an int): -1 */
  int numa_memory_bytes;                                /* not filled (does not fit an int): -1 */
  /* Hardware levels above the unit, innermost first: CORE, NUMA, PACKAGE,
   * NODE (known ones only), each with the unit's index in it. */
  dart_locality_scope_pos_t scopes[DART_LOCALITY_MAX_DOMAIN_SCOPES];
  int num_scopes;
} dart_hwinfo_t;

/* One domain of a locality hierarchy (see dart_locality.h). */
struct dart_domain_locality_s {
  char host[DART_LOCALITY_HOST_MAX_SIZE]; /* host of the domain; "" if it spans several */
  char domain_tag[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE]; /* ".0.1"; "." for the root */
  struct dart_domain_locality_s** aliases;            /* unused: NULL */
  int num_aliases;                                    /* 0 */
  dart_locality_scope_t scope;
  int level;          /* depth below the root (0) */
  int global_index;   /* position among the team's domains of the same scope, in tag order */
  int relative_index; /* position among its parent's children */
  struct dart_domain_locality_s* parent;    /* NULL for a root */
  int num_domains;                          /* children */
  struct dart_domain_locality_s** children; /* num_domains of them, in tag order */
  int is_symmetric;                         /* 1 if all children have as many cores */
  dart_team_t team;                         /* team whose units the domain holds */
  int num_units;
  dart_global_unit_t* unit_ids; /* global ids of the units inside, in team-unit order */
  int num_nodes;                /* (real or emulated) nodes inside */
  int node_id;                  /* the node, if one; else -1 */
  int num_cores;                /* cores: see dart_locality.h */
  int shared_mem_bytes;         /* not filled: -1 */
};
typedef struct dart_domain_locality_s dart_domain_locality_t;

/* Where one unit of a team runs. */
typedef struct {
  dart_team_unit_t unit; /* id in the team */
  dart_team_t team;
  dart_hwinfo_t hwinfo;
  char domain_tag[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE]; /* its UNIT domain in the team's tree */
} dart_unit_locality_t;

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_TYPES_H_ */
