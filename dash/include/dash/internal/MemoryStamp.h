// dash::internal::MemoryStamp: tells a reference or iterator whether the
// container memory it points into still exists, with one load and one compare.
//
// Every dash::GlobStaticMem takes a slot from a process-wide table whose
// storage never moves and is never freed, and remembers the slot's value at
// that time. When the memory goes away the slot's value changes (and the slot
// may later serve other memory with its new value). A GlobRef or iterator
// copies the stamp; `live()` is false once its memory is gone, and element
// access then throws dash::exception::InvalidArgument naming the call instead
// of touching freed memory.
//
// | call                         | cost                          |
// |------------------------------|-------------------------------|
// | acquire / release            | local, one mutex              |
// | live()                       | local, one load and compare   |
#ifndef DASH__INTERNAL__MEMORY_STAMP_H_
#define DASH__INTERNAL__MEMORY_STAMP_H_

#include <cstdint>

namespace dash {
namespace internal {

// The slot of handles that need no check (memory not owned by a container).
extern const std::uint32_t memory_stamp_always_live;

struct MemoryStamp {
  const std::uint32_t* slot = &memory_stamp_always_live;
  std::uint32_t value = 0;
  // True while the memory the stamp was taken for exists. Local.
  bool live() const { return __builtin_expect(*slot == value, 1); }
};

// A stamp for new container memory. Local.
MemoryStamp acquire_memory_stamp();

// Marks the memory of `stamp` as gone (every copy of the stamp turns stale).
// Local.
void release_memory_stamp(const MemoryStamp& stamp);

// Throws dash::exception::InvalidArgument: `call` used a reference or
// iterator whose container memory was freed.
[[noreturn, gnu::cold]] void throw_stale_handle(const char* call);

}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__MEMORY_STAMP_H_
