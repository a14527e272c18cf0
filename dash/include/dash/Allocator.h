// DASH's header <dash/Allocator.h>: the global allocators (GlobalAllocator,
// EpochSynchronizedAllocator, allocator_traits), the memory spaces and the
// pool resource they take memory from.
#ifndef DASH__ALLOCATOR_H_
#define DASH__ALLOCATOR_H_

#include <dash/allocator/AllocatorTraits.h>
#include <dash/allocator/EpochSynchronizedAllocator.h>
#include <dash/allocator/GlobalAllocator.h>
#include <dash/memory/MemorySpace.h>
#include <dash/memory/SimpleMemoryPoolResource.h>
#include <dash/memory/UniquePtr.h>

#endif  // DASH__ALLOCATOR_H_
