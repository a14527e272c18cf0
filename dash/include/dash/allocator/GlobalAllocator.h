// dash::GlobalAllocator<T, GlobMem>: DASH's allocator of elements of T in a
// global memory resource GlobMem (e.g. GlobStaticMem<HostSpace>): allocate(n)
// gives n elements on every unit of the resource's team and returns a
// GlobPtr<T> to unit 0's first one, which moves through all units' parts;
// std::allocator_traits and dash::allocate_unique (UniquePtr.h) take it.
//
// | call                  | cost                                             |
// |-----------------------|--------------------------------------------------|
// | allocate(n)           | what the resource's allocate costs (collective)  |
// | deallocate(p, n)      | what the resource's deallocate costs             |
// | constructors, ==      | local                                            |
//
// Allocations of contiguous resources are entered in
// internal::MemorySpaceRegistry (which resource made a segment).
#ifndef DASH__ALLOCATOR__GLOBAL_ALLOCATOR_H_
#define DASH__ALLOCATOR__GLOBAL_ALLOCATOR_H_

#include <dash/Exception.h>
#include <dash/Types.h>
#include <dash/memory/GlobPtr.h>
#include <dash/memory/MemorySpace.h>
#include <dash/memory/internal/MemorySpaceRegistry.h>

#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>

namespace dash {

template <class T, class GlobMemType>
class GlobalAllocator {
  static constexpr bool contiguous =
      std::is_same_v<typename memory_space_traits<GlobMemType>::memory_space_layout_tag,
                     memory_space_contiguous>;

 public:
  using value_type = std::remove_cv_t<std::remove_reference_t<T>>;
  using pointer = GlobPtr<value_type>;
  using const_pointer = GlobPtr<const value_type>;
  using void_pointer = GlobPtr<void>;
  using const_void_pointer = GlobPtr<const void>;
  using size_type = std::size_t;
  using difference_type = gptrdiff_t;
  using memory_resource = GlobMemType;
  template <class U>
  struct rebind {
    using other = GlobalAllocator<U, GlobMemType>;
  };

  // An allocator without a resource: allocate() throws. Local.
  GlobalAllocator() noexcept = default;
  // An allocator in `resource`, which must outlive it. Local.
  explicit GlobalAllocator(memory_resource* resource) noexcept : resource_(resource) {}
  template <class U>
  GlobalAllocator(const GlobalAllocator<U, GlobMemType>& other) noexcept
      : resource_(other.resource()) {}

  // n elements on every unit; the pointer to unit 0's first. Collective
  // over the resource's team; throws dash::exception::InvalidArgument if
  // there is no resource or n elements overflow.
  pointer allocate(size_type n) {
    if (resource_ == nullptr)
      throw exception::InvalidArgument("dash::GlobalAllocator::allocate: no memory resource");
    if (n > std::numeric_limits<size_type>::max() / sizeof(value_type))
      throw exception::InvalidArgument("dash::GlobalAllocator::allocate: " + std::to_string(n) +
                                       " elements overflow size_t");
    pointer p(resource_->allocate(n * sizeof(value_type), alignof(value_type)));
    if constexpr (contiguous)
      internal::MemorySpaceRegistry::GetInstance().add(p.dart_gptr(), resource_);
    return p;
  }
  // Frees what allocate(n) gave. Collective (as the resource's deallocate);
  // a null pointer does nothing.
  void deallocate(pointer p, size_type n) {
    if (resource_ == nullptr || !p) return;
    const dart_gptr_t g = p.dart_gptr();
    resource_->deallocate(void_pointer(p), n * sizeof(value_type), alignof(value_type));
    if constexpr (contiguous) internal::MemorySpaceRegistry::GetInstance().erase(g);
  }

  memory_resource* resource() const noexcept { return resource_; }

 private:
  memory_resource* resource_ = nullptr;
};

// Equal if they allocate in the same resource (each frees the other's).
template <class T, class U, class GlobMemType>
bool operator==(const GlobalAllocator<T, GlobMemType>& a,
                const GlobalAllocator<U, GlobMemType>& b) noexcept {
  return a.resource() == b.resource();
}
template <class T, class U, class GlobMemType>
bool operator!=(const GlobalAllocator<T, GlobMemType>& a,
                const GlobalAllocator<U, GlobMemType>& b) noexcept {
  return !(a == b);
}

}  // namespace dash

#endif  // DASH__ALLOCATOR__GLOBAL_ALLOCATOR_H_
