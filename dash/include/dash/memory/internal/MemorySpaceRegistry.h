// dash::internal::MemorySpaceRegistry (DASH's name): which global memory
// resource allocated a segment, by (team, segment id) of its pointers.
// GlobalAllocator enters its contiguous resources' allocations and removes
// them when it frees them. Local; not thread-safe.
#ifndef DASH__MEMORY__INTERNAL__MEMORY_SPACE_REGISTRY_H_
#define DASH__MEMORY__INTERNAL__MEMORY_SPACE_REGISTRY_H_

#include <dart/dart.h>

#include <map>
#include <utility>

namespace dash {
namespace internal {

class MemorySpaceRegistry {
 public:
  // The process's registry. Local.
  static MemorySpaceRegistry& GetInstance() {
    static MemorySpaceRegistry registry;
    return registry;
  }
  MemorySpaceRegistry(const MemorySpaceRegistry&) = delete;
  MemorySpaceRegistry& operator=(const MemorySpaceRegistry&) = delete;

  // Records that `space` allocated gptr's segment; false (and nothing
  // changes) if the segment is recorded already. Local.
  bool add(dart_gptr_t gptr, void* space) { return spaces_.emplace(key(gptr), space).second; }
  // Forgets gptr's segment. Local.
  void erase(dart_gptr_t gptr) { spaces_.erase(key(gptr)); }
  // The resource that allocated gptr's segment, or nullptr. Local.
  void* lookup(dart_gptr_t gptr) const noexcept {
    auto it = spaces_.find(key(gptr));
    return it == spaces_.end() ? nullptr : it->second;
  }

 private:
  MemorySpaceRegistry() = default;
  static std::pair<int, int> key(const dart_gptr_t& g) { return {g.teamid, g.segid}; }
  std::map<std::pair<int, int>, void*> spaces_;
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__MEMORY__INTERNAL__MEMORY_SPACE_REGISTRY_H_
