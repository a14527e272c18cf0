// DASH's header <dash/dart/if/dart_globmem.h>, for programs that include it by path: DART's global
// memory calls under DASH's path.
#ifndef DASH__DART__IF__DART_GLOBMEM_H_
#define DASH__DART__IF__DART_GLOBMEM_H_

#include <dart/dart_globmem.h>

#endif  // DASH__DART__IF__DART_GLOBMEM_H_
