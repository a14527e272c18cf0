// DASH's header <dash/GlobRef.h>, for programs that include it by path: dash::GlobRef.
#ifndef DASH__GLOBREF_H_
#define DASH__GLOBREF_H_

#include <dash/memory/GlobRef.h>

#endif  // DASH__GLOBREF_H_
