/* dart_allocator_*: a team's pools of global memory from which each unit
 * allocates alone (DASH's DART allocator). dart_allocator_new makes one team
 * segment of pool_size bytes per unit (collective); alloc and free then work
 * on the calling unit's part with the first-fit bookkeeping of dart_pool.c
 * (blocks of multiples of 16 bytes: a pool of k x 32 bytes holds k blocks of
 * 32), kept in heap memory and guarded by a mutex, so threads may share an
 * allocator. The pointers are team pointers (unit = the allocating unit's id
 * in the team) and reach every unit of the team like the segment's own. */
#include <pthread.h>
#include <stdlib.h>

#include "dart_internal.h"

struct dart_allocator_struct {
  dart_gptr_t base;    /* the team segment; unit 0's part */
  dart_team_unit_t me; /* the calling unit in the team */
  size_t pool_size;    /* bytes per unit */
  dart_pool_t* pool;   /* the calling unit's part */
  pthread_mutex_t lock;
};

dart_ret_t dart_allocator_new(size_t pool_size, dart_team_t team, dart_allocator_t* new_allocator) {
  static const char* call = "dart_allocator_new";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, new_allocator != NULL, "new_allocator is NULL");
  *new_allocator = NULL;
  if (dart__team_checked(call, team) == NULL) return DART_ERR_INVAL;
  struct dart_allocator_struct* a = calloc(1, sizeof *a);
  dart_pool_t* pool = dart__pool_create(pool_size, 16);
  /* The units agree first whether each has its bookkeeping, so that the
   * allocation below is entered by all or by none. */
  const int mine = a != NULL && pool != NULL;
  int all = 0;
  dart_ret_t ret = dart_allreduce(&mine, &all, 1, DART_TYPE_INT, DART_OP_MIN, team);
  if (ret == DART_OK && !all) ret = DART_ERR_NOMEM;
  dart_gptr_t base = DART_GPTR_NULL;
  if (ret == DART_OK)
    ret = dart_team_memalloc_aligned(team, pool_size > 0 ? pool_size : 1, DART_TYPE_BYTE, &base);
  if (ret == DART_OK) ret = dart_team_myid(team, &a->me);
  if (ret != DART_OK) {
    if (!DART_GPTR_ISNULL(base)) dart_team_memfree(base);
    dart__pool_destroy(pool);
    free(a);
    return ret;
  }
  a->base = base;
  a->pool_size = pool_size;
  a->pool = pool;
  pthread_mutex_init(&a->lock, NULL);
  *new_allocator = a;
  return DART_OK;
}

dart_ret_t dart_allocator_alloc(size_t nelem, dart_datatype_t dtype, dart_gptr_t* gptr,
                                dart_allocator_t allocator) {
  static const char* call = "dart_allocator_alloc";
  size_t nbytes = 0;
  dart_ret_t ret = dart__local_alloc_args(call, nelem, dtype, gptr, &nbytes);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, allocator != NULL, "allocator is NULL");
  uint64_t offset = 0;
  pthread_mutex_lock(&allocator->lock);
  const bool ok = dart__pool_alloc(allocator->pool, nbytes, &offset);
  const size_t used = dart__pool_used(allocator->pool);
  pthread_mutex_unlock(&allocator->lock);
  if (!ok) {
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call,
                              "the allocator's pool is full: %zu bytes requested, %zu of %zu in "
                              "use (give dart_allocator_new a larger pool_size)",
                              nbytes, used, allocator->pool_size);
  }
  *gptr = allocator->base;
  gptr->unitid = allocator->me.id;
  gptr->addr_or_offs.offset += offset;
  return DART_OK;
}

dart_ret_t dart_allocator_free(dart_gptr_t* gptr, dart_allocator_t allocator) {
  static const char* call = "dart_allocator_free";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, gptr != NULL, "gptr is NULL");
  DART_CHECK_ARG(call, allocator != NULL, "allocator is NULL");
  if (DART_GPTR_ISNULL(*gptr)) return DART_OK;
  const dart_gptr_t g = *gptr;
  DART_CHECK_ARG(call, g.teamid == allocator->base.teamid && g.segid == allocator->base.segid,
                 "pointer (team %d, segment %d) is not from this allocator", (int)g.teamid,
                 (int)g.segid);
  DART_CHECK_ARG(call, g.unitid == allocator->me.id,
                 "memory of unit %d can only be freed by that unit", (int)g.unitid);
  const uint64_t offset = dart_gptr_offset(g) - dart_gptr_offset(allocator->base);
  pthread_mutex_lock(&allocator->lock);
  const bool ok = dart__pool_free(allocator->pool, offset);
  pthread_mutex_unlock(&allocator->lock);
  DART_CHECK_ARG(call, ok, "no allocation starts at offset %llu (double free or moved pointer)",
                 (unsigned long long)offset);
  *gptr = DART_GPTR_NULL;
  return DART_OK;
}

dart_ret_t dart_allocator_destroy(dart_allocator_t* allocator) {
  static const char* call = "dart_allocator_destroy";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, allocator != NULL && *allocator != NULL, "allocator is NULL");
  struct dart_allocator_struct* a = *allocator;
  const dart_ret_t ret = dart_team_memfree(a->base);
  if (ret != DART_OK) return ret;
  pthread_mutex_destroy(&a->lock);
  dart__pool_destroy(a->pool);
  free(a);
  *allocator = NULL;
  return DART_OK;
}
