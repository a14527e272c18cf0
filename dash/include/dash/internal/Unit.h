// DASH's header <dash/internal/Unit.h>, for programs that include it by path: the unit id types
// (dash::global_unit_t, team_unit_t).
#ifndef DASH__INTERNAL__UNIT_H_
#define DASH__INTERNAL__UNIT_H_

#include <dash/Types.h>

#endif  // DASH__INTERNAL__UNIT_H_
