// DASH's header <dash/GlobAsyncRef.h>, for programs that include it by path: dash::GlobAsyncRef.
#ifndef DASH__GLOBASYNCREF_H_
#define DASH__GLOBASYNCREF_H_

#include <dash/memory/GlobAsyncRef.h>

#endif  // DASH__GLOBASYNCREF_H_
