/* Team locks: a queue lock (MCS) on MPI atomics. Waiting units spin only on
 * their own queue slot and yield the core while they wait; the lock word
 * lives on team unit 0 and is touched once per acquire and release. */
#ifndef DART__DART_SYNCHRONIZATION_H_
#define DART__DART_SYNCHRONIZATION_H_

#include <dart/dart_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Creates a lock shared by the team's units. Collective over teamid. */
dart_ret_t dart_team_lock_init(dart_team_t teamid, dart_lock_t* lock);

/* Frees the lock and sets *lock to NULL. Collective over teamid; the lock
 * must be free. */
dart_ret_t dart_team_lock_free(dart_team_t teamid, dart_lock_t* lock);

/* Same as dart_team_lock_free on the lock's own team. Collective. */
dart_ret_t dart_team_lock_destroy(dart_lock_t* lock);

/* Blocks until the calling unit holds the lock (FIFO order). One-sided.
 * DART_ERR_INVAL if the unit already holds it. */
dart_ret_t dart_lock_acquire(dart_lock_t lock);

/* Takes the lock if it is free: *result = 1 if taken, else 0. One-sided. */
dart_ret_t dart_lock_try_acquire(dart_lock_t lock, int32_t* result);

/* Releases the lock and hands it to the next waiting unit. One-sided.
 * DART_ERR_INVAL if the unit does not hold it. */
dart_ret_t dart_lock_release(dart_lock_t lock);

/* 1 if lock is a live lock made by dart_team_lock_init, else 0. Local. */
int32_t dart_lock_initialized(const dart_lock_t lock);

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_SYNCHRONIZATION_H_ */
