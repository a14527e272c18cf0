/* DART's MPI underneath, for libraries that talk MPI themselves (parallel HDF5, MPI-IO): the
 * communicator of a team. Not part of <dart/dart.h>: it needs <mpi.h>.
 *
 * | call              | cost  |
 * |-------------------|-------|
 * | dart_team_mpi_comm | local |
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

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_MPI_H_ */
