// DASH's header <dash/GlobPtr.h>, for programs that include it by path: dash::GlobPtr.
#ifndef DASH__GLOBPTR_H_
#define DASH__GLOBPTR_H_

#include <dash/memory/GlobPtr.h>

#endif  // DASH__GLOBPTR_H_
