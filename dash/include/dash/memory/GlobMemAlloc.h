// Dynamic global memory, one unit at a time (DASH's dash::memalloc): a unit
// allocates elements in its own part of global memory without the others
// taking part, and hands the global pointer to whoever should reach them
// (typically by storing it in a dash::Array). Any unit then reads and writes
// them through the pointer, as it would elements of a container.
//
// | call                    | cost                                          |
// |-------------------------|-----------------------------------------------|
// | memalloc<T>(n)          | local (the unit's allocation pool, no message)|
// | memfree(ptr [, n])      | local; only the owning unit may free          |
// | ptr[i], *ptr            | a GlobRef: load/store on the node, else one   |
// |                         | blocking one-sided get or put per access      |
// | static_cast<T*>(ptr)    | local: the native pointer for the owner,      |
// |                         | nullptr on every other unit (as in DASH)      |
//
// The memory comes from DART's local allocation pool (dart_memalloc), which
// every unit maps into one window at dash::init: no collective call is needed
// to make it globally addressable. Its size per unit is DART_LOCAL_POOL_SIZE
// (64 MiB unless set); a request the pool cannot hold throws
// dash::exception::OutOfMemory naming the variable. Like DASH's, memalloc
// does not clear the memory it returns.
#ifndef DASH__MEMORY__GLOB_MEM_ALLOC_H_
#define DASH__MEMORY__GLOB_MEM_ALLOC_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/memory/GlobPtr.h>

#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>

namespace dash {

// The pointer type dash::memalloc<T> returns (DASH's name for it).
template <class T>
using GlobMemAllocPtr = GlobPtr<T>;

// Allocates nelem elements of T in the calling unit's part of global memory
// and returns a global pointer to the first; the elements are not
// initialised. nelem 0 gives a null pointer. Local. Throws
// dash::exception::InvalidArgument if nelem * sizeof(T) overflows and
// dash::exception::OutOfMemory if the unit's pool cannot hold it.
template <class T>
GlobPtr<T> memalloc(std::size_t nelem) {
  static_assert(std::is_trivially_copyable_v<T>,
                "dash::memalloc: T must be trivially copyable (its elements move as bytes)");
  static_assert(alignof(T) <= alignof(std::max_align_t),
                "dash::memalloc: T needs more alignment than the pool guarantees");
  if (nelem == 0) return GlobPtr<T>();
  if (nelem > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
    throw exception::InvalidArgument("dash::memalloc: " + std::to_string(nelem) + " elements of " +
                                     std::to_string(sizeof(T)) +
                                     " bytes overflow the address space");
  }
  dart_gptr_t gptr = DART_GPTR_NULL;
  internal::check_dart(dart_memalloc(nelem * sizeof(T), DART_TYPE_BYTE, &gptr),
                       "dash::memalloc: dart_memalloc");
  return GlobPtr<T>(gptr);
}

// Frees memory from dash::memalloc; nelem (DASH passes the element count) is
// not needed and ignored. A null pointer is ignored. Local. Throws
// dash::exception::InvalidArgument if the pointer is not one memalloc
// returned on the calling unit, or was freed before.
template <class T>
void memfree(GlobPtr<T> gptr, std::size_t nelem = 0) {
  (void)nelem;
  internal::check_dart(dart_memfree(gptr.dart_gptr()), "dash::memfree: dart_memfree");
}

}  // namespace dash

#endif  // DASH__MEMORY__GLOB_MEM_ALLOC_H_
