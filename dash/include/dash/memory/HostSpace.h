// dash::HostSpace: the process heap as a local memory space (see
// MemorySpaceBase.h); the memory space of containers unless they name
// another. Local.
#ifndef DASH__MEMORY__HOST_SPACE_H_
#define DASH__MEMORY__HOST_SPACE_H_

#include <dash/memory/MemorySpaceBase.h>

#include <cstddef>
#include <memory_resource>

namespace dash {

class HostSpace : public MemorySpace<memory_domain_local, memory_space_host_tag> {
 public:
  using void_pointer = void*;
  using const_void_pointer = const void*;

 protected:
  // `bytes` aligned to `alignment` from operator new; throws std::bad_alloc
  // if there is no memory. Local.
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    return std::pmr::new_delete_resource()->allocate(bytes, alignment);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
  }
  // Every HostSpace frees what another allocated (one heap).
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return dynamic_cast<const HostSpace*>(&other) != nullptr;
  }
};

}  // namespace dash

#endif  // DASH__MEMORY__HOST_SPACE_H_
