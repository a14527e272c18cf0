// DASH's header <dash/dart/if/dart_types.h>, for programs that include it by path: DART's types
// under DASH's path.
#ifndef DASH__DART__IF__DART_TYPES_H_
#define DASH__DART__IF__DART_TYPES_H_

#include <dart/dart_types.h>

#endif  // DASH__DART__IF__DART_TYPES_H_
