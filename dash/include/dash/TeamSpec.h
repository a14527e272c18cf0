// <dash/TeamSpec.h>, where DASH programs find dash::TeamSpec (the arrangement of a team's units
// in N dimensions, dash/pattern/TeamSpec.h). Only includes it; no cost of its own.
#ifndef DASH__TEAM_SPEC_H_
#define DASH__TEAM_SPEC_H_

#include <dash/pattern/TeamSpec.h>

#endif  // DASH__TEAM_SPEC_H_
