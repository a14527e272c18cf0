// dash::allocate_unique<T>(alloc, n) (DASH's): n elements of T on every
// unit from a global allocator (GlobalAllocator), owned by a std::unique_ptr
// whose deleter (dash::DefaultDeleter) frees them with that allocator.
// Allocation and the deleter's free are collective, as the allocator's.
#ifndef DASH__MEMORY__UNIQUE_PTR_H_
#define DASH__MEMORY__UNIQUE_PTR_H_

#include <cstddef>
#include <memory>

namespace dash {

// Frees n elements with a copy of the allocator that made them.
template <class Allocator>
class DefaultDeleter {
 public:
  using memory = typename Allocator::memory_resource;
  using pointer = typename std::allocator_traits<Allocator>::pointer;

  DefaultDeleter() = default;
  DefaultDeleter(const Allocator& alloc, std::size_t nelem) : alloc_(alloc), nelem_(nelem) {}

  // alloc.deallocate(p, n): collective as the allocator's.
  void operator()(pointer p) { alloc_.deallocate(p, nelem_); }

  // Equal if their allocators are and they free as many elements. Local.
  friend bool operator==(const DefaultDeleter& a, const DefaultDeleter& b) noexcept {
    return a.alloc_ == b.alloc_ && a.nelem_ == b.nelem_;
  }
  friend bool operator!=(const DefaultDeleter& a, const DefaultDeleter& b) noexcept {
    return !(a == b);
  }

 private:
  Allocator alloc_{nullptr};
  std::size_t nelem_ = 0;
};

// n elements of T from alloc (rebound to T), in a std::unique_ptr. Costs
// what the allocator's allocate costs (collective for GlobalAllocator).
template <class T, class AllocatorT, template <class> class Deleter = DefaultDeleter>
auto allocate_unique(const AllocatorT& alloc, std::size_t n) {
  using allocator = typename std::allocator_traits<AllocatorT>::template rebind_alloc<T>;
  allocator rebound(alloc);
  return std::unique_ptr<T, Deleter<allocator>>(rebound.allocate(n),
                                                Deleter<allocator>(rebound, n));
}

}  // namespace dash

#endif  // DASH__MEMORY__UNIQUE_PTR_H_
