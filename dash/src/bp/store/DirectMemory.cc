// Buffers for spill file reads and writes, on huge pages where they are big (DirectMemory.h).
#include "bp/store/DirectMemory.h"

#include <dash/internal/Flags.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace dash {
namespace bp {
namespace internal {

namespace {

constexpr std::size_t kPage = 4096;

// DASH_OOC_HUGE_PAGES (default on), read at each fresh allocation: a few
// hundred nanoseconds against the page faults of a MiB or more. dash::init
// refuses a malformed value; one set later keeps the default, as this runs
// on the I/O threads too, which cannot throw.
bool huge_pages_wanted() {
  return dash::internal::read_flag_bool_or_default(dash::internal::Flag::ooc_huge_pages);
}

}  // namespace

std::size_t direct_alignment(std::size_t capacity) {
  return capacity >= kHugeFrom && huge_pages_wanted() ? kHugePage : kPage;
}

dash::bp::Bytes direct_buffer(std::size_t capacity) {
  capacity = (std::max<std::size_t>(capacity, 1) + kPage - 1) / kPage * kPage;
  const bool huge = capacity >= kHugeFrom && huge_pages_wanted();
  // From 1 MiB to 2 MiB: one whole huge page (a 1 MiB block's request then
  // spans one segment, at up to twice the memory of its bytes).
  if (huge && capacity < kHugePage) capacity = kHugePage;
  void* memory = nullptr;
  if (capacity < dash::bp::internal::kMapBytes) {  // malloc's, as Bytes releases it
    if (posix_memalign(&memory, kPage, capacity) != 0) return dash::bp::Bytes();
    return dash::bp::Bytes::adopt(static_cast<char*>(memory), 0, capacity, false);
  }
  // A mapping of exactly `capacity` bytes (ByteMemory.h), 2 MiB-aligned for huge pages: map
  // a huge page more and give back what lies before and after the aligned part.
  const std::size_t slack = huge ? kHugePage : 0;
  void* mapped =
      mmap(nullptr, capacity + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return dash::bp::Bytes();
  char* start = static_cast<char*>(mapped);
  char* aligned = start;
  if (huge) {
    aligned = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(start) + kHugePage - 1) /
                                      kHugePage * kHugePage);
    if (aligned > start) munmap(start, std::size_t(aligned - start));
    char* end = aligned + capacity;
    const std::size_t after = std::size_t(start + capacity + slack - end);
    if (after > 0) munmap(end, after);
  }
  memory = aligned;
  // Advice only: without transparent huge pages (or with them off) the
  // memory stays in 4 KiB pages and everything works as before. The whole
  // mapping is advised, so it stays one kernel mapping that mremap can grow
  // (a Bytes that outgrows it); the tail past the last whole huge page stays
  // in 4 KiB pages: no memory is added.
  if (huge) madvise(memory, capacity, MADV_HUGEPAGE);
  return dash::bp::Bytes::adopt(static_cast<char*>(memory), 0, capacity, false);
}

}  // namespace internal
}  // namespace bp
}  // namespace dash
