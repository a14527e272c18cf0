// Memory spaces (DASH's header): the local spaces (MemorySpaceBase.h,
// HostSpace.h, HBWSpace.h) with their default instances
// (DefaultMemorySpace.h), and the global ones: GlobStaticMem (team memory
// allocated collectively) and dash::memalloc (a unit's memory alone).
#ifndef DASH__MEMORY__MEMORY_SPACE_H_
#define DASH__MEMORY__MEMORY_SPACE_H_

#include <dash/memory/DefaultMemorySpace.h>
#include <dash/memory/GlobMemAlloc.h>
#include <dash/memory/GlobStaticMem.h>

#endif  // DASH__MEMORY__MEMORY_SPACE_H_
