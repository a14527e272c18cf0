// DASH's header <dash/dart/if/dart_locality.h>, for programs that include it by path: DART's
// locality calls under DASH's path.
#ifndef DASH__DART__IF__DART_LOCALITY_H_
#define DASH__DART__IF__DART_LOCALITY_H_

#include <dart/dart_locality.h>

#endif  // DASH__DART__IF__DART_LOCALITY_H_
