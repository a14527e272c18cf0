/* DART: the C runtime under the DASH containers (MPI-3 one-sided
 * communication with a shared-memory fast path). Include this header. */
#ifndef DART__DART_H_
#define DART__DART_H_

#include <dart/dart_communication.h>
#include <dart/dart_flags.h>
#include <dart/dart_globmem.h>
#include <dart/dart_initialization.h>
#include <dart/dart_io.h>
#include <dart/dart_locality.h>
#include <dart/dart_mapping_model.h>
#include <dart/dart_synchronization.h>
#include <dart/dart_team_group.h>
#include <dart/dart_types.h>
#include <dart/dart_unit_mapping.h>

#endif /* DART__DART_H_ */
