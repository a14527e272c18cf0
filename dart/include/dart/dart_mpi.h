/* DART's MPI underneath, for libraries that talk MPI themselves (parallel HDF5, MPI-IO): the
 * communicator of a team. Not part of <dart/dart.h>: it needs <mpi.h>.
 *
 * | call              | cost  |
 * |-------------------|-------|
 * | dart_team_mpi_comm | local |
 * | dart_gptr_mpi_window | local |
 */
#ifndef DART__DART_MPI_H_
#define DART__DART_MPI_H_

#include <dart/dart_types.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The communicator of team: its units in team order (team unit i is rank i). It belongs to
 * DART (do not free it) and lives as long as the team; use it for collectives of your own only
 * when no DART call of the team is in flight on any unit. DART_ERR_INVAL for a team that does
 * not exist. Local. */
dart_ret_t dart_team_mpi_comm(dart_team_t team, MPI_Comm* comm);

/* The MPI window, the target rank in it and the byte displacement at which DART's RMA reaches
 * gptr (whether or not DART would take its load/store path for it): MPI_Get / MPI_Put on
 * (*win, *rank, *disp) then MPI_Win_flush move the same bytes as dart_get / dart_put. DART holds
 * a passive-target epoch (MPI_Win_lock_all) on the window for the segment's life: do not lock,
 * unlock, fence or free it. For measuring DART against raw MPI on its own window, and for
 * libraries that issue RMA themselves. DART_ERR_INVAL for a null, freed or stale pointer. Local.
 */
dart_ret_t dart_gptr_mpi_window(dart_gptr_t gptr, MPI_Win* win, int* rank, MPI_Aint* disp);

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_MPI_H_ */
