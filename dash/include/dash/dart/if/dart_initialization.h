// DASH's header <dash/dart/if/dart_initialization.h>, for programs that include it by path: DART's
// start and end under DASH's path.
#ifndef DASH__DART__IF__DART_INITIALIZATION_H_
#define DASH__DART__IF__DART_INITIALIZATION_H_

#include <dart/dart_initialization.h>

#endif  // DASH__DART__IF__DART_INITIALIZATION_H_
