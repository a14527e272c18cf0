/* Team locks: an MCS queue lock built on MPI atomics.
 *
 * Memory: one team segment of three int32 words per unit:
 *   TAIL    (used on team unit 0 only) last unit in the queue, -1 if free
 *   NEXT    successor of this unit in the queue, -1 if none yet
 *   BLOCKED 1 while this unit waits for its predecessor to hand over
 *
 * acquire:  NEXT[me] = -1; BLOCKED[me] = 1
 *           prev = swap(TAIL, me)
 *           if prev != -1: NEXT[prev] = me; wait until BLOCKED[me] == 0
 * release:  if NEXT[me] == -1:
 *             if compare_and_swap(TAIL, me -> -1) succeeded: done
 *             wait until NEXT[me] != -1   (a successor is linking itself)
 *           BLOCKED[NEXT[me]] = 0
 * Each waiting unit polls only its own words, yielding the core between
 * polls, so contention does not pile onto one memory location. All accesses
 * are MPI atomics (accumulate / fetch-and-op / compare-and-swap), so they
 * are atomic with respect to each other on every window layout. */
#include <sched.h>
#include <stdlib.h>

#include "dart_internal.h"

enum { WORD_TAIL = 0, WORD_NEXT = 1, WORD_BLOCKED = 2, WORDS_PER_UNIT = 3 };

struct dart_lock_struct {
  dart_team_t teamid;
  uint64_t team_serial; /* detects a lock whose team was destroyed */
  dart_gptr_t gptr;     /* unit 0's part of the lock segment */
  bool held;
};

/* Global pointer to word `word` of team unit `unit`. */
static dart_gptr_t word_ptr(const struct dart_lock_struct* lock, int unit, int word) {
  dart_gptr_t p = lock->gptr;
  p.unitid = unit;
  p.addr_or_offs.offset += (uint64_t)word * sizeof(int32_t); /* keeps the generation */
  return p;
}

static dart_ret_t atomic_write(dart_gptr_t p, int32_t value) {
  dart_ret_t ret = dart_accumulate(p, &value, 1, DART_TYPE_INT, DART_OP_REPLACE);
  return ret == DART_OK ? dart_flush(p) : ret;
}

static dart_ret_t atomic_read(dart_gptr_t p, int32_t* value) {
  return dart_fetch_and_op(p, NULL, value, DART_TYPE_INT, DART_OP_NO_OP);
}

/* Polls word of the calling unit until (value == expected) == want_equal. */
static dart_ret_t wait_own_word(const struct dart_lock_struct* lock, int me, int word,
                                int32_t expected, bool want_equal, int32_t* seen) {
  for (unsigned polls = 0;; ++polls) {
    dart_ret_t ret = atomic_read(word_ptr(lock, me, word), seen);
    if (ret != DART_OK) return ret;
    if ((*seen == expected) == want_equal) return DART_OK;
    if (polls > 16) sched_yield(); /* oversubscribed units must not starve */
  }
}

static dart_ret_t check_lock(const char* call, dart_lock_t lock, dart_team_data_t** team) {
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, lock != NULL, "lock is NULL");
  *team = dart__team(lock->teamid);
  DART_CHECK_ARG(call, *team != NULL && (*team)->serial == lock->team_serial,
                 "the lock's team %d was destroyed", (int)lock->teamid);
  return DART_OK;
}

dart_ret_t dart_team_lock_init(dart_team_t teamid, dart_lock_t* lock) {
  static const char* call = "dart_team_lock_init";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, lock != NULL, "lock is NULL");
  *lock = NULL;
  dart_team_data_t* team = dart__team_checked(call, teamid);
  if (team == NULL) return DART_ERR_INVAL;
  struct dart_lock_struct* l = calloc(1, sizeof *l);
  if (l == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  dart_ret_t ret = dart_team_memalloc_aligned(teamid, WORDS_PER_UNIT, DART_TYPE_INT, &l->gptr);
  if (ret != DART_OK) {
    free(l);
    return ret;
  }
  l->teamid = teamid;
  l->team_serial = team->serial;
  for (int word = 0; word < WORDS_PER_UNIT; ++word) {
    ret = atomic_write(word_ptr(l, team->myid, word), word == WORD_BLOCKED ? 0 : -1);
    if (ret != DART_OK) break;
  }
  if (ret == DART_OK) ret = dart_barrier(teamid);
  if (ret != DART_OK) {
    dart_team_memfree(l->gptr);
    free(l);
    return ret;
  }
  *lock = l;
  return DART_OK;
}

dart_ret_t dart_team_lock_destroy(dart_lock_t* lock) {
  static const char* call = "dart_team_lock_destroy";
  DART_CHECK_ARG(call, lock != NULL && *lock != NULL, "lock is NULL");
  dart_team_data_t* team = dart__team((*lock)->teamid);
  dart_ret_t ret = DART_OK;
  if (team != NULL && team->serial == (*lock)->team_serial) {
    DART_CHECK_ARG(call, !(*lock)->held, "the calling unit still holds the lock");
    ret = dart_barrier((*lock)->teamid);
    if (ret == DART_OK) ret = dart_team_memfree((*lock)->gptr);
  } /* else: the team and with it the lock memory are gone already */
  free(*lock);
  *lock = NULL;
  return ret;
}

dart_ret_t dart_team_lock_free(dart_team_t teamid, dart_lock_t* lock) {
  DART_CHECK_ARG("dart_team_lock_free", lock != NULL && *lock != NULL, "lock is NULL");
  DART_CHECK_ARG("dart_team_lock_free", (*lock)->teamid == teamid,
                 "lock belongs to team %d, not %d", (int)(*lock)->teamid, (int)teamid);
  return dart_team_lock_destroy(lock);
}

dart_ret_t dart_lock_acquire(dart_lock_t lock) {
  static const char* call = "dart_lock_acquire";
  dart_team_data_t* team;
  dart_ret_t ret = check_lock(call, lock, &team);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, !lock->held, "the calling unit already holds the lock");
  const int me = team->myid;
  if ((ret = atomic_write(word_ptr(lock, me, WORD_NEXT), -1)) != DART_OK) return ret;
  if ((ret = atomic_write(word_ptr(lock, me, WORD_BLOCKED), 1)) != DART_OK) return ret;
  int32_t self = me, prev = -1;
  ret =
      dart_fetch_and_op(word_ptr(lock, 0, WORD_TAIL), &self, &prev, DART_TYPE_INT, DART_OP_REPLACE);
  if (ret != DART_OK) return ret;
  if (prev != -1) {
    if ((ret = atomic_write(word_ptr(lock, prev, WORD_NEXT), me)) != DART_OK) return ret;
    int32_t blocked;
    ret = wait_own_word(lock, me, WORD_BLOCKED, 0, true, &blocked);
    if (ret != DART_OK) return ret;
  }
  lock->held = true;
  return DART_OK;
}

dart_ret_t dart_lock_try_acquire(dart_lock_t lock, int32_t* result) {
  static const char* call = "dart_lock_try_acquire";
  dart_team_data_t* team;
  dart_ret_t ret = check_lock(call, lock, &team);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, result != NULL, "result is NULL");
  DART_CHECK_ARG(call, !lock->held, "the calling unit already holds the lock");
  const int me = team->myid;
  if ((ret = atomic_write(word_ptr(lock, me, WORD_NEXT), -1)) != DART_OK) return ret;
  int32_t self = me, free_value = -1, old = 0;
  ret =
      dart_compare_and_swap(word_ptr(lock, 0, WORD_TAIL), &self, &free_value, &old, DART_TYPE_INT);
  if (ret != DART_OK) return ret;
  *result = old == -1;
  lock->held = old == -1;
  return DART_OK;
}

dart_ret_t dart_lock_release(dart_lock_t lock) {
  static const char* call = "dart_lock_release";
  dart_team_data_t* team;
  dart_ret_t ret = check_lock(call, lock, &team);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, lock->held, "the calling unit does not hold the lock");
  const int me = team->myid;
  int32_t next = -1;
  if ((ret = atomic_read(word_ptr(lock, me, WORD_NEXT), &next)) != DART_OK) return ret;
  if (next == -1) {
    int32_t self = me, free_value = -1, old = -1;
    ret = dart_compare_and_swap(word_ptr(lock, 0, WORD_TAIL), &free_value, &self, &old,
                                DART_TYPE_INT);
    if (ret != DART_OK) return ret;
    if (old == me) {
      lock->held = false;
      return DART_OK;
    }
    /* A successor swapped itself into TAIL but has not linked yet. */
    ret = wait_own_word(lock, me, WORD_NEXT, -1, false, &next);
    if (ret != DART_OK) return ret;
  }
  if ((ret = atomic_write(word_ptr(lock, next, WORD_BLOCKED), 0)) != DART_OK) return ret;
  lock->held = false;
  return DART_OK;
}

int32_t dart_lock_initialized(const dart_lock_t lock) {
  if (lock == NULL) return 0;
  dart_team_data_t* team = dart__team(lock->teamid);
  return team != NULL && team->serial == lock->team_serial;
}
