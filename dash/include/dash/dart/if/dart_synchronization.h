// DASH's header <dash/dart/if/dart_synchronization.h>, for programs that include it by path: DART's
// locks under DASH's path.
#ifndef DASH__DART__IF__DART_SYNCHRONIZATION_H_
#define DASH__DART__IF__DART_SYNCHRONIZATION_H_

#include <dart/dart_synchronization.h>

#endif  // DASH__DART__IF__DART_SYNCHRONIZATION_H_
