// DASH's header <dash/dart/if/dart_communication.h>, for programs that include it by path: DART's
// communication calls under DASH's path.
#ifndef DASH__DART__IF__DART_COMMUNICATION_H_
#define DASH__DART__IF__DART_COMMUNICATION_H_

#include <dart/dart_communication.h>

#endif  // DASH__DART__IF__DART_COMMUNICATION_H_
