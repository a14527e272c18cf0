// DASH's header <dash/dart/if/dart_team_group.h>, for programs that include it by path: DART's
// teams and groups under DASH's path.
#ifndef DASH__DART__IF__DART_TEAM_GROUP_H_
#define DASH__DART__IF__DART_TEAM_GROUP_H_

#include <dart/dart_team_group.h>

#endif  // DASH__DART__IF__DART_TEAM_GROUP_H_
