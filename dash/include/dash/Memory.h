// DASH's header <dash/Memory.h>, for programs that include it by path: global memory:
// GlobStaticMem, GlobHeapMem, dynamic allocation (memalloc), memory spaces, GlobPtr, GlobRef.
#ifndef DASH__MEMORY_H_
#define DASH__MEMORY_H_

#include <dash/memory/GlobAsyncRef.h>
#include <dash/memory/GlobHeapMem.h>
#include <dash/memory/GlobMemAlloc.h>
#include <dash/memory/GlobPtr.h>
#include <dash/memory/GlobRef.h>
#include <dash/memory/GlobStaticMem.h>
#include <dash/memory/MemorySpace.h>

#endif  // DASH__MEMORY_H_
