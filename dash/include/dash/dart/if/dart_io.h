// DASH's header <dash/dart/if/dart_io.h>, for programs that include it by path: DART's I/O calls
// under DASH's path.
#ifndef DASH__DART__IF__DART_IO_H_
#define DASH__DART__IF__DART_IO_H_

#include <dart/dart_io.h>

#endif  // DASH__DART__IF__DART_IO_H_
