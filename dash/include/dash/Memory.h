// DASH's header <dash/Memory.h>, for programs that include it by path: global memory:
// GlobStaticMem, dynamic allocation (memalloc), GlobPtr, GlobRef.
#ifndef DASH__MEMORY_H_
#define DASH__MEMORY_H_

#include <dash/memory/GlobAsyncRef.h>
#include <dash/memory/GlobMemAlloc.h>
#include <dash/memory/GlobPtr.h>
#include <dash/memory/GlobRef.h>
#include <dash/memory/GlobStaticMem.h>

#endif  // DASH__MEMORY_H_
