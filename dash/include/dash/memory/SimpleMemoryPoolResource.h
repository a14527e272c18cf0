// dash::SimpleMemoryPoolResource<LocalMemSpace>: a pool of small blocks over
// a local memory space (DASH's name), for node-based structures (lists,
// stacks) that allocate and free many small objects. It is C++17's
// std::pmr::unsynchronized_pool_resource with the memory space as upstream:
// memory taken from the space stays in the pool for reuse until release()
// or destruction; like DASH's it is not thread-safe.
//
// | call                     | cost                                            |
// |--------------------------|-------------------------------------------------|
// | allocate / deallocate    | local; a free block of the pool, or one chunk   |
// |                          | from the upstream space when none is free       |
// | reserve(n)               | local; at most a few upstream allocations       |
// | release()                | local; gives every chunk back to the upstream   |
#ifndef DASH__MEMORY__SIMPLE_MEMORY_POOL_RESOURCE_H_
#define DASH__MEMORY__SIMPLE_MEMORY_POOL_RESOURCE_H_

#include <dash/memory/MemorySpace.h>

#include <cstddef>
#include <memory>
#include <memory_resource>
#include <vector>

namespace dash {

template <class LocalMemSpace>
class SimpleMemoryPoolResource
    : public MemorySpace<memory_domain_local,
                         typename memory_space_traits<LocalMemSpace>::memory_space_type_category> {
  static_assert(memory_space_traits<LocalMemSpace>::is_local::value,
                "dash::SimpleMemoryPoolResource: the upstream memory space must be local");

 public:
  using memory_space_type_category =
      typename memory_space_traits<LocalMemSpace>::memory_space_type_category;
  using memory_space_domain_category = memory_domain_local;

  // Blocks up to this size (bytes) come from the pool's block lists, as DASH's.
  static constexpr std::size_t block_size = 16;

  // A pool over `upstream`, or if nullptr over the default instance of
  // LocalMemSpace (get_default_memory_space for HostSpace and HBWSpace).
  // Takes no memory yet. Local.
  explicit SimpleMemoryPoolResource(LocalMemSpace* upstream = nullptr) noexcept
      : upstream_(upstream != nullptr ? upstream : internal::default_local_space<LocalMemSpace>()) {
  }
  // A new, empty pool over other's upstream space (memory is not shared).
  SimpleMemoryPoolResource(const SimpleMemoryPoolResource& other) noexcept
      : upstream_(other.upstream_) {}
  // Takes other's memory; other is left empty and usable. Local.
  SimpleMemoryPoolResource(SimpleMemoryPoolResource&& other) noexcept
      : upstream_(other.upstream_), pool_(std::move(other.pool_)) {}
  SimpleMemoryPoolResource& operator=(const SimpleMemoryPoolResource&) = delete;
  SimpleMemoryPoolResource& operator=(SimpleMemoryPoolResource&&) = delete;
  // Gives all memory back to the upstream space. Local.
  ~SimpleMemoryPoolResource() = default;

  // The space the pool takes its memory from. Local.
  LocalMemSpace* upstream_resource() const noexcept { return upstream_; }

  // Gives every chunk back to the upstream space, also blocks still handed
  // out (which must not be used afterwards). Local.
  void release() {
    if (pool_) pool_->release();
  }
  // Makes sure the next `nblocks` allocations of at most block_size bytes
  // take no memory from the upstream space. Local.
  void reserve(std::size_t nblocks) {
    std::vector<void*> blocks;
    blocks.reserve(nblocks);
    for (std::size_t i = 0; i < nblocks; ++i) blocks.push_back(pool().allocate(block_size));
    for (void* b : blocks) pool().deallocate(b, block_size);
  }

 protected:
  // A block of the pool (bytes <= the pool's largest block size) or memory
  // straight from the upstream space; throws what the upstream throws. Local.
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    return pool().allocate(bytes, alignment);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    pool().deallocate(p, bytes, alignment);
  }
  // Only the pool itself frees what it gave.
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }

 private:
  std::pmr::unsynchronized_pool_resource& pool() {
    if (!pool_) {
      std::pmr::pool_options options;
      options.max_blocks_per_chunk = 32;  // DASH's chunk size
      options.largest_required_pool_block = block_size;
      pool_ = std::make_unique<std::pmr::unsynchronized_pool_resource>(options, upstream_);
    }
    return *pool_;
  }

  LocalMemSpace* upstream_;
  // Made on first use: a moved-from pool gets a new one.
  std::unique_ptr<std::pmr::unsynchronized_pool_resource> pool_;
};

}  // namespace dash

#endif  // DASH__MEMORY__SIMPLE_MEMORY_POOL_RESOURCE_H_
