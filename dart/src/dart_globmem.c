/* Global memory: team-collective and local allocation, global pointer
 * helpers and the resolution of a global pointer to a window target. */
#include <dart/dart_mpi.h>
#include <stdlib.h>

#include "dart_internal.h"

/* The full check with a log line naming what is wrong; dart__resolve (inline,
 * dart_internal.h) calls it when its fast checks fail. */
dart_ret_t dart__resolve_checked(const char* call, dart_gptr_t gptr, size_t nbytes,
                                 dart_target_t* out) {
  DART_CHECK_INIT(call);
  if (DART_GPTR_ISNULL(gptr)) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "global pointer is DART_GPTR_NULL");
  }
  dart_team_data_t* team = dart__team(gptr.teamid);
  if (team == NULL) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "global pointer names unknown team %d",
                              (int)gptr.teamid);
  }
  dart_segment_t* seg =
      gptr.segid >= 0 && gptr.segid < team->segs_cap ? team->segs[gptr.segid] : NULL;
  if (seg == NULL) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "global pointer names segment %d of team %d, which is not "
                              "allocated (freed or foreign pointer)",
                              (int)gptr.segid, (int)gptr.teamid);
  }
  const int unit = gptr.unitid;
  if (unit < 0 || unit >= team->size) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "global pointer names unit %d, team %d has %d units", unit,
                              (int)gptr.teamid, team->size);
  }
  const uint64_t tag = gptr.addr_or_offs.offset >> DART_GPTR_OFFSET_BITS;
  const uint64_t offset = gptr.addr_or_offs.offset & DART_GPTR_OFFSET_MASK;
  const bool pool = seg->generation == DART_POOL_GENERATION;
  if (pool ? tag != 0 : tag != seg->generation) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "global pointer to segment %d of team %d has generation %u, the "
                              "segment has %u: a stale pointer to memory freed since (or a "
                              "corrupt offset)",
                              (int)gptr.segid, (int)gptr.teamid, (unsigned)tag,
                              (unsigned)(pool ? 0 : seg->generation));
  }
  if (offset > seg->nbytes || nbytes > seg->nbytes - offset) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "range [%llu, %llu + %zu) is outside the %zu bytes of unit %d in "
                              "segment %d",
                              (unsigned long long)offset, (unsigned long long)offset, nbytes,
                              seg->nbytes, unit, (int)gptr.segid);
  }
  /* The owner knows its pool's blocks; other units cannot check them without
   * asking it (see docs/failures.md, "Stale global pointers"). */
  if (pool && unit == dart__state.myid && !dart__pool_contains(dart__state.pool, offset, nbytes)) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "range [%llu, %llu + %zu) of the local allocation pool is not inside "
                              "an allocated block (freed with dart_memfree?)",
                              (unsigned long long)offset, (unsigned long long)offset, nbytes);
  }
  out->seg = seg;
  out->target = unit;
  out->disp = seg->disp_base[unit] + (MPI_Aint)offset;
  out->shm_addr = seg->shm_base[unit] != NULL ? seg->shm_base[unit] + offset : NULL;
  return DART_OK;
}

/* A team segment of nelem elements of dtype per unit: allocated, or over
 * the caller's memory at addr when `registered`. Collective; the same
 * result on every unit. */
static dart_ret_t make_segment(const char* call, dart_team_t teamid, size_t nelem,
                               dart_datatype_t dtype, uint64_t args_check, void* addr,
                               bool registered, dart_gptr_t* gptr) {
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, gptr != NULL, "gptr is NULL");
  *gptr = DART_GPTR_NULL;
  dart_team_data_t* team = dart__team_checked(call, teamid);
  if (team == NULL) return DART_ERR_INVAL;
  /* From here on a bad argument on one unit is reported on every unit (the
   * others would otherwise wait in the allocation's agreement). */
  bool args_ok = true;
  const dart_type_info_t* t = dart__type(dtype);
  if (t == NULL || dart__type_is_layout(t)) {
    dart__log(DART_LOG_ERROR, call, "data type %ld is not a basic or custom type", (long)dtype);
    args_ok = false;
  } else if (nelem > (size_t)(INT64_MAX - DART_SEGMENT_ALIGNMENT) / t->size) {
    dart__log(DART_LOG_ERROR, call, "%zu elements of %zu bytes overflow the size of a segment",
              nelem, t->size);
    args_ok = false;
  } else if (registered && addr == NULL && nelem > 0) {
    dart__log(DART_LOG_ERROR, call, "addr is NULL for %zu elements", nelem);
    args_ok = false;
  }
  int16_t segid = dart__team_next_segid(team);
  if (segid < 0) {
    /* Every unit of the team holds the same segments: all see this. */
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "all %d segment ids of team %d are in use",
                              DART_MAX_SEGMENTS, (int)teamid);
  }
  dart_segment_t* seg = NULL;
  const size_t nbytes = args_ok ? nelem * t->size : 0;
  dart_ret_t ret = registered
                       ? dart__segment_register(call, team, nbytes, addr, args_ok, segid, &seg)
                       : dart__segment_alloc(call, team, nbytes, args_check, args_ok, segid, &seg);
  if (ret != DART_OK) return ret;
  seg->generation = team->next_generation++;
  if (dart__team_add_segment(team, seg) != DART_OK) {
    /* Growing the table failed here only; the others have the segment.
     * Keep it unnamed on this unit rather than free it alone (collective). */
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory (segment table)");
  }
  gptr->flags = 0;
  gptr->unitid = 0;
  gptr->segid = segid;
  gptr->teamid = teamid;
  gptr->addr_or_offs.offset = (uint64_t)seg->generation << DART_GPTR_OFFSET_BITS;
  return DART_OK;
}

dart_ret_t dart_team_memalloc_aligned_checked(dart_team_t teamid, size_t nelem,
                                              dart_datatype_t dtype, uint64_t args_check,
                                              dart_gptr_t* gptr) {
  return make_segment("dart_team_memalloc_aligned", teamid, nelem, dtype, args_check, NULL, false,
                      gptr);
}

dart_ret_t dart_team_memalloc_aligned(dart_team_t teamid, size_t nelem, dart_datatype_t dtype,
                                      dart_gptr_t* gptr) {
  return dart_team_memalloc_aligned_checked(teamid, nelem, dtype, 0, gptr);
}

dart_ret_t dart_team_memregister(dart_team_t teamid, size_t nelem, dart_datatype_t dtype,
                                 void* addr, dart_gptr_t* gptr) {
  return make_segment("dart_team_memregister", teamid, nelem, dtype, 0, addr, true, gptr);
}

dart_ret_t dart_team_memderegister(dart_gptr_t gptr) {
  /* The window goes; the memory was the caller's and stays. */
  return dart_team_memfree(gptr);
}

dart_ret_t dart_team_memfree(dart_gptr_t gptr) {
  static const char* call = "dart_team_memfree";
  DART_CHECK_INIT(call);
  if (DART_GPTR_ISNULL(gptr)) return DART_OK; /* like free(NULL) */
  DART_CHECK_ARG(call, gptr.segid != DART_SEGMENT_LOCAL,
                 "pointer is from dart_memalloc; use dart_memfree");
  dart_target_t target;
  dart_ret_t ret = dart__resolve(call, gptr, 0, &target);
  if (ret != DART_OK) return ret;
  dart_team_data_t* team = dart__team(gptr.teamid);
  dart__team_remove_segment(team, gptr.segid);
  return dart__segment_free(call, target.seg);
}

dart_ret_t dart__local_alloc_args(const char* call, size_t nelem, dart_datatype_t dtype,
                                  dart_gptr_t* gptr, size_t* nbytes) {
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, gptr != NULL, "gptr is NULL");
  *gptr = DART_GPTR_NULL;
  const dart_type_info_t* t = dart__type(dtype);
  DART_CHECK_ARG(call, t != NULL && !dart__type_is_layout(t),
                 "data type %ld is not a basic or custom type", (long)dtype);
  DART_CHECK_ARG(call, nelem > 0, "cannot allocate 0 elements");
  DART_CHECK_ARG(call, nelem <= SIZE_MAX / t->size, "%zu elements of %zu bytes overflow size_t",
                 nelem, t->size);
  *nbytes = nelem * t->size;
  return DART_OK;
}

dart_ret_t dart_memalloc(size_t nelem, dart_datatype_t dtype, dart_gptr_t* gptr) {
  static const char* call = "dart_memalloc";
  size_t nbytes = 0;
  dart_ret_t ret = dart__local_alloc_args(call, nelem, dtype, gptr, &nbytes);
  if (ret != DART_OK) return ret;
  uint64_t offset = 0;
  if (!dart__pool_alloc(dart__state.pool, nbytes, &offset)) {
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call,
                              "local allocation pool full: %zu bytes requested, %zu of %zu in use "
                              "(raise DART_LOCAL_POOL_SIZE)",
                              nbytes, dart__pool_used(dart__state.pool),
                              dart__state.config.local_pool_size);
  }
  gptr->flags = 0;
  gptr->unitid = dart__state.myid;
  gptr->segid = DART_SEGMENT_LOCAL;
  gptr->teamid = DART_TEAM_ALL;
  gptr->addr_or_offs.offset = offset;
  return DART_OK;
}

dart_ret_t dart_memfree(dart_gptr_t gptr) {
  static const char* call = "dart_memfree";
  DART_CHECK_INIT(call);
  if (DART_GPTR_ISNULL(gptr)) return DART_OK;
  DART_CHECK_ARG(call, gptr.teamid == DART_TEAM_ALL && gptr.segid == DART_SEGMENT_LOCAL,
                 "pointer (team %d, segment %d) is not from dart_memalloc", (int)gptr.teamid,
                 (int)gptr.segid);
  DART_CHECK_ARG(call, gptr.unitid == dart__state.myid,
                 "memory of unit %d can only be freed by that unit", (int)gptr.unitid);
  DART_CHECK_ARG(call, dart__pool_free(dart__state.pool, gptr.addr_or_offs.offset),
                 "no allocation starts at offset %llu (double free or moved pointer)",
                 (unsigned long long)gptr.addr_or_offs.offset);
  return DART_OK;
}

/* ---- global pointer helpers -------------------------------------------- */

dart_ret_t dart_gptr_getaddr(const dart_gptr_t gptr, void** addr) {
  static const char* call = "dart_gptr_getaddr";
  DART_CHECK_ARG(call, addr != NULL, "addr is NULL");
  *addr = NULL;
  dart_target_t target;
  dart_ret_t ret = dart__resolve(call, gptr, 0, &target);
  if (ret != DART_OK) return ret;
  if (target.target == dart__team(gptr.teamid)->myid) {
    *addr = target.seg->local_base + (gptr.addr_or_offs.offset & DART_GPTR_OFFSET_MASK);
  }
  return DART_OK;
}

dart_ret_t dart_gptr_getaddr_shared(const dart_gptr_t gptr, void** addr) {
  static const char* call = "dart_gptr_getaddr_shared";
  DART_CHECK_ARG(call, addr != NULL, "addr is NULL");
  *addr = NULL;
  dart_target_t target;
  dart_ret_t ret = dart__resolve(call, gptr, 0, &target);
  if (ret != DART_OK) return ret;
  *addr = target.shm_addr;
  return DART_OK;
}

dart_ret_t dart_gptr_mpi_window(dart_gptr_t gptr, MPI_Win* win, int* rank, MPI_Aint* disp) {
  static const char* call = "dart_gptr_mpi_window";
  DART_CHECK_ARG(call, win != NULL && rank != NULL && disp != NULL, "win, rank or disp is NULL");
  dart_target_t target;
  dart_ret_t ret = dart__resolve(call, gptr, 0, &target);
  if (ret != DART_OK) return ret;
  *win = target.seg->win;
  *rank = target.target;
  *disp = target.disp;
  return DART_OK;
}

dart_ret_t dart_gptr_setaddr(dart_gptr_t* gptr, void* addr) {
  static const char* call = "dart_gptr_setaddr";
  DART_CHECK_ARG(call, gptr != NULL, "gptr is NULL");
  dart_target_t target;
  dart_ret_t ret = dart__resolve(call, *gptr, 0, &target);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, target.target == dart__team(gptr->teamid)->myid,
                 "gptr names unit %d, not the calling unit", target.target);
  char* base = target.seg->local_base;
  DART_CHECK_ARG(call, (char*)addr >= base && (char*)addr <= base + target.seg->nbytes,
                 "address %p is outside the calling unit's part of segment %d", addr,
                 (int)gptr->segid);
  gptr->addr_or_offs.offset =
      (gptr->addr_or_offs.offset & ~DART_GPTR_OFFSET_MASK) | (uint64_t)((char*)addr - base);
  return DART_OK;
}

dart_ret_t dart_gptr_incaddr(dart_gptr_t* gptr, int64_t offs) {
  DART_CHECK_ARG("dart_gptr_incaddr", gptr != NULL, "gptr is NULL");
  gptr->addr_or_offs.offset += (uint64_t)offs;
  return DART_OK;
}

dart_ret_t dart_gptr_setunit(dart_gptr_t* gptr, dart_team_unit_t unit) {
  DART_CHECK_ARG("dart_gptr_setunit", gptr != NULL, "gptr is NULL");
  DART_CHECK_ARG("dart_gptr_setunit", unit.id >= 0 && unit.id < (1 << 23),
                 "unit %d does not fit a global pointer", unit.id);
  gptr->unitid = unit.id;
  return DART_OK;
}

dart_ret_t dart_gptr_getflags(dart_gptr_t gptr, uint16_t* flags) {
  DART_CHECK_ARG("dart_gptr_getflags", flags != NULL, "flags is NULL");
  *flags = (uint16_t)gptr.flags;
  return DART_OK;
}

dart_ret_t dart_gptr_setflags(dart_gptr_t* gptr, uint16_t flags) {
  DART_CHECK_ARG("dart_gptr_setflags", gptr != NULL, "gptr is NULL");
  DART_CHECK_ARG("dart_gptr_setflags", flags <= 0xff, "flags %u do not fit 8 bits", flags);
  gptr->flags = flags;
  return DART_OK;
}

dart_ret_t dart_gptr_segment_size(dart_gptr_t gptr, size_t* nbytes) {
  static const char* call = "dart_gptr_segment_size";
  DART_CHECK_ARG(call, nbytes != NULL, "nbytes is NULL");
  dart_target_t target;
  dart_gptr_t base = gptr;
  base.addr_or_offs.offset &= ~DART_GPTR_OFFSET_MASK; /* keeps the generation */
  dart_ret_t ret = dart__resolve(call, base, 0, &target);
  if (ret != DART_OK) return ret;
  *nbytes = target.seg->nbytes;
  return DART_OK;
}
