/* Global memory: allocation, global pointer arithmetic, element types.
 *
 * | call                        | cost                                   |
 * |-----------------------------|----------------------------------------|
 * | dart_team_memalloc_aligned  | collective over the team               |
 * | dart_team_memfree           | collective over the team               |
 * | dart_memalloc / memfree     | local (from the unit's allocation pool)|
 * | dart_allocator_new/destroy  | collective over the team               |
 * | dart_allocator_alloc / free | local (from the unit's pool)           |
 * | dart_gptr_*                 | local, no communication                |
 *
 * Team memory lives in one MPI-3 shared window over the team: units of the
 * same (real or emulated) node read and write it by load/store, the others by
 * MPI RMA on the same window. */
#ifndef DART__DART_GLOBMEM_H_
#define DART__DART_GLOBMEM_H_

#include <dart/dart_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- element types ------------------------------------------------------ */

/* Size in bytes of one element of dtype. Local. */
dart_ret_t dart_op_type_size(dart_datatype_t dtype, size_t* size);
#define dart_type_size dart_op_type_size

/* A strided type: blocks of blocklen elements of the basic type basetype,
 * starting every stride elements. Used as the source or destination type of
 * dart_get/dart_put to gather or scatter. Local. */
dart_ret_t dart_type_create_strided(dart_datatype_t basetype, size_t stride, size_t blocklen,
                                    dart_datatype_t* newtype);

/* An indexed type (DASH's): count runs of the basic type basetype, run i
 * holding blocklen[i] elements from element offset[i] on. As the source or
 * destination type of dart_get/dart_put it gathers or scatters the first
 * nelem elements of the runs, in run order (nelem at most their sum). Runs
 * may overlap: as a source an element is read once per run holding it; as a
 * get's destination the later run's value stays (such a get over MPI RMA goes
 * through a staging buffer and completes before it returns); a put's
 * destination on another node may not overlap (DART_ERR_INVAL). Local. */
dart_ret_t dart_type_create_indexed(dart_datatype_t basetype, size_t count, const size_t blocklen[],
                                    const size_t offset[], dart_datatype_t* newtype);

/* An opaque element of num_bytes bytes (moved, never reduced). Local. */
dart_ret_t dart_type_create_custom(size_t num_bytes, dart_datatype_t* newtype);

/* Frees a type made by dart_type_create_* and sets *dtype to
 * DART_TYPE_UNDEFINED. Local. */
dart_ret_t dart_type_destroy(dart_datatype_t* dtype);

/* ---- allocation --------------------------------------------------------- */

/* Allocates nelem elements of dtype on every unit of the team (the same size
 * everywhere) and returns a pointer to unit 0's part. Collective over the
 * team. nelem may be 0 (a valid, empty segment). Every unit returns the same
 * result: DART_ERR_INVAL if the units passed different sizes or a unit passed
 * a bad argument, DART_ERR_NOMEM if a unit ran out of memory or a node cannot
 * back its units' parts (RAM + swap), DART_ERR_OTHER if MPI failed on some
 * unit. */
dart_ret_t dart_team_memalloc_aligned(dart_team_t teamid, size_t nelem, dart_datatype_t dtype,
                                      dart_gptr_t* gptr);

/* dart_team_memalloc_aligned that also checks args_check, a value the caller
 * derives from its own collective arguments (e.g. a hash of a container's
 * extents and distribution): if it differs between units, every unit gets
 * DART_ERR_INVAL. Collective; the same cost (the check rides on the
 * allocation's agreement). */
dart_ret_t dart_team_memalloc_aligned_checked(dart_team_t teamid, size_t nelem,
                                              dart_datatype_t dtype, uint64_t args_check,
                                              dart_gptr_t* gptr);

/* Frees a team segment. Collective over the segment's team. */
dart_ret_t dart_team_memfree(dart_gptr_t gptr);

/* Makes nelem elements of dtype at addr, memory of the calling unit (e.g. a
 * file it mapped), a team segment and returns a pointer to unit 0's part:
 * the caller reaches its own part by load/store, every other unit, on its
 * node too, by MPI RMA. addr must stay valid until dart_team_memderegister.
 * Every unit passes the same nelem; errors as dart_team_memalloc_aligned
 * (the same result on every unit). Collective over the team. */
dart_ret_t dart_team_memregister(dart_team_t teamid, size_t nelem, dart_datatype_t dtype,
                                 void* addr, dart_gptr_t* gptr);

/* Ends a registration: the window goes, the memory stays the caller's.
 * Collective over the segment's team. */
dart_ret_t dart_team_memderegister(dart_gptr_t gptr);

/* Allocates nelem elements of dtype in the calling unit's allocation pool
 * (size set by DART_LOCAL_POOL_SIZE); other units reach it by put/get. Local.
 * Returns DART_ERR_NOMEM when the pool is full. */
dart_ret_t dart_memalloc(size_t nelem, dart_datatype_t dtype, dart_gptr_t* gptr);

/* Frees memory from dart_memalloc; must be called by the owning unit. Local. */
dart_ret_t dart_memfree(dart_gptr_t gptr);

/* ---- allocators: units allocate alone from a team's pools ---------------- */

/* An allocator (DASH's): a pool of global memory per unit of a team, from
 * which each unit allocates alone; the pointers reach every unit of the team. */
typedef struct dart_allocator_struct* dart_allocator_t;

/* Makes an allocator with pool_size bytes per unit of team. Collective over
 * the team (one team allocation). */
dart_ret_t dart_allocator_new(size_t pool_size, dart_team_t team, dart_allocator_t* new_allocator);

/* Allocates nelem elements of dtype in the calling unit's pool of allocator.
 * Local. Returns DART_ERR_NOMEM when the pool is full. Thread-safe. */
dart_ret_t dart_allocator_alloc(size_t nelem, dart_datatype_t dtype, dart_gptr_t* gptr,
                                dart_allocator_t allocator);

/* Frees memory from dart_allocator_alloc and sets *gptr to DART_GPTR_NULL;
 * only the allocating unit may. Local. Thread-safe. */
dart_ret_t dart_allocator_free(dart_gptr_t* gptr, dart_allocator_t allocator);

/* Frees the allocator's pools (allocations not freed go with them) and sets
 * *allocator to NULL. Collective over its team. */
dart_ret_t dart_allocator_destroy(dart_allocator_t* allocator);

/* ---- global pointers (all local) ---------------------------------------- */

/* A pointer to team memory carries its segment's generation in the top 16
 * bits of addr_or_offs.offset; the low DART_GPTR_OFFSET_BITS bits are the
 * byte offset in the unit's part. Arithmetic on the offset keeps the tag; a
 * pointer whose tag is not its segment's (freed segment, or segment or team
 * id reused since) is rejected with DART_ERR_INVAL. */
#define DART_GPTR_OFFSET_BITS 48
#define DART_GPTR_OFFSET_MASK ((UINT64_C(1) << DART_GPTR_OFFSET_BITS) - 1)

/* Byte offset of gptr in its unit's part of the segment (without the tag). */
static inline uint64_t dart_gptr_offset(const dart_gptr_t gptr) {
  return gptr.addr_or_offs.offset & DART_GPTR_OFFSET_MASK;
}

/* Address of the byte gptr names if the calling unit owns it, else NULL. */
dart_ret_t dart_gptr_getaddr(const dart_gptr_t gptr, void** addr);

/* Address through which the calling unit reaches gptr by load/store: set for
 * its own memory and for units of the same (real or emulated) node when the
 * shared-window fast path is on; NULL otherwise. */
dart_ret_t dart_gptr_getaddr_shared(const dart_gptr_t gptr, void** addr);

/* Points gptr (which must name the calling unit's memory) at the local
 * address addr inside the same segment part. */
dart_ret_t dart_gptr_setaddr(dart_gptr_t* gptr, void* addr);

/* Moves gptr by offs bytes. */
dart_ret_t dart_gptr_incaddr(dart_gptr_t* gptr, int64_t offs);

/* Sets the (team-relative) unit of gptr. */
dart_ret_t dart_gptr_setunit(dart_gptr_t* gptr, dart_team_unit_t unit);

/* Reads / writes the 8 flag bits of gptr. */
dart_ret_t dart_gptr_getflags(dart_gptr_t gptr, uint16_t* flags);
dart_ret_t dart_gptr_setflags(dart_gptr_t* gptr, uint16_t flags);

/* Size in bytes of the part of gptr's segment owned by gptr's unit. */
dart_ret_t dart_gptr_segment_size(dart_gptr_t gptr, size_t* nbytes);

/* 1 if both pointers name the same byte (flags ignored), else 0. */
static inline int dart_gptr_equal(const dart_gptr_t lhs, const dart_gptr_t rhs) {
  return lhs.unitid == rhs.unitid && lhs.segid == rhs.segid && lhs.teamid == rhs.teamid &&
         lhs.addr_or_offs.offset == rhs.addr_or_offs.offset;
}

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_GLOBMEM_H_ */
