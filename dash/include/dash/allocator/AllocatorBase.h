// The local allocator DASH's global allocators take their units' memory
// with: a std::pmr::polymorphic_allocator over a local memory space. Local.
#ifndef DASH__ALLOCATOR__ALLOCATOR_BASE_H_
#define DASH__ALLOCATOR__ALLOCATOR_BASE_H_

#include <dash/allocator/AllocationPolicy.h>
#include <dash/memory/MemorySpace.h>

#include <memory_resource>

namespace dash {
namespace allocator {

template <class T>
using polymorphic_allocator = std::pmr::polymorphic_allocator<T>;

// polymorphic_allocator<T> over a memory space (the pmr default resource if
// made without one).
template <class T>
class DefaultAllocator : public polymorphic_allocator<T> {
 public:
  DefaultAllocator() = default;
  explicit DefaultAllocator(std::pmr::memory_resource* space) : polymorphic_allocator<T>(space) {}
  template <class U>
  DefaultAllocator(const DefaultAllocator<U>& other) noexcept
      : polymorphic_allocator<T>(other.resource()) {}
};

}  // namespace allocator
}  // namespace dash

#endif  // DASH__ALLOCATOR__ALLOCATOR_BASE_H_
