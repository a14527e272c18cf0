// The slot table behind dash::internal::MemoryStamp (dash/internal/MemoryStamp.h).
#include <dash/Exception.h>
#include <dash/internal/MemoryStamp.h>

#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace dash {
namespace internal {

const std::uint32_t memory_stamp_always_live = 0;

namespace {

struct StampTable {
  std::mutex lock;
  std::deque<std::uint32_t> slots;  // a deque never moves its elements when it grows
  std::vector<std::uint32_t*> free_slots;
};

StampTable& table() {
  static StampTable* t = new StampTable();  // never destroyed: handles may outlive main
  return *t;
}

}  // namespace

MemoryStamp acquire_memory_stamp() {
  StampTable& t = table();
  std::lock_guard<std::mutex> guard(t.lock);
  std::uint32_t* slot;
  if (!t.free_slots.empty()) {
    slot = t.free_slots.back();
    t.free_slots.pop_back();
  } else {
    t.slots.push_back(1);
    slot = &t.slots.back();
  }
  MemoryStamp stamp;
  stamp.slot = slot;
  stamp.value = *slot;
  return stamp;
}

void release_memory_stamp(const MemoryStamp& stamp) {
  if (stamp.slot == &memory_stamp_always_live) return;
  StampTable& t = table();
  std::lock_guard<std::mutex> guard(t.lock);
  auto* slot = const_cast<std::uint32_t*>(stamp.slot);
  if (++*slot == 0) *slot = 1;  // never the value of the always-live slot
  t.free_slots.push_back(slot);
}

void throw_stale_handle(const char* call) {
  throw exception::InvalidArgument(std::string(call) +
                                   ": the container memory this reference or iterator points "
                                   "into was freed (deallocate() or destructor)");
}

}  // namespace internal
}  // namespace dash
