// DASH's header <dash/dart/if/dart.h>, for programs that include it by path: DART's interface under
// DASH's path.
#ifndef DASH__DART__IF__DART_H_
#define DASH__DART__IF__DART_H_

#include <dart/dart.h>

#endif  // DASH__DART__IF__DART_H_
