// Buffers for spill file reads and writes, on huge pages where they are big (DirectMemory.h).
#include "bp/store/DirectMemory.h"

#include <dash/internal/Flags.h>
#include <sys/mman.h>

#include <algorithm>
#include <boost/container/flat_map.hpp>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <utility>

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

// A mapping of exactly `size` bytes whose byte `before` lies on a 2 MiB boundary, advised
// onto transparent huge pages as a whole (one kernel mapping; only the whole aligned 2 MiB
// pages inside it become huge pages, so no memory is added); nullptr if memory is short. Maps
// a huge page more than `size` and gives back what lies before and after. Local.
char* map_on_huge_pages(std::size_t before, std::size_t size) {
  const std::size_t mapped_bytes = size + kHugePage;
  void* mapped =
      mmap(nullptr, mapped_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return nullptr;
  char* start = static_cast<char*>(mapped);
  const std::uintptr_t boundary =
      (reinterpret_cast<std::uintptr_t>(start) + before + kHugePage - 1) / kHugePage * kHugePage;
  char* first = reinterpret_cast<char*>(boundary - before);
  char* end = first + size;
  if (first > start) munmap(start, std::size_t(first - start));
  if (start + mapped_bytes > end) munmap(end, std::size_t(start + mapped_bytes - end));
  // Advice only: without transparent huge pages (or with them off) the memory stays in 4 KiB
  // pages and everything works as before.
  madvise(first, size, MADV_HUGEPAGE);
  return first;
}

// Buffers of kHugeFrom to kHugePage bytes share huge pages in pairs. A region of 4 MiB of
// address space is advised onto huge pages; the one aligned 2 MiB page inside it,
// [h, h + 2 MiB), holds 1 MiB of each of two buffers: the lower one is [h + 1 MiB - c, h + 1 MiB)
// (what passes 1 MiB lies before h, on 4 KiB pages), the upper one [h + 1 MiB, h + 1 MiB + c)
// (what passes 1 MiB lies after the huge page). So a block of 1 MiB and its trailer costs its
// own bytes, not a whole huge page, and an O_DIRECT request into it still spans few physical
// segments (half a huge page and the pages of its tail). A released buffer's half is handed
// out again (already faulted in, no split of the huge page); a region goes back to the system
// when both halves are free, but for one such region kept for the next request. What this
// holds beyond the buffers in use: at most one free half beside each buffer and one free region.
class HugePairs {
  struct Region {
    bool used[2] = {false, false};  // lower, upper
  };
  using Regions = boost::container::flat_map<char*, Region>;  // by h
  static constexpr std::size_t kHalf = kHugePage / 2;
  static constexpr std::size_t kRegion = 2 * kHugePage;
  static constexpr int kFreeRegions = 1;
  static_assert(kHugeFrom == kHalf, "a pair's buffer holds half a huge page");

 public:
  // A buffer of `capacity` bytes (kHugeFrom <= capacity < kHugePage, whole pages); nullptr
  // if memory is short. Local; a lock and a scan of the regions (one per two buffers).
  static char* take(std::size_t capacity) {
    HugePairs& p = get();
    std::lock_guard<std::mutex> lock(p.mutex_);
    // A free half beside a used one first, so that whole free regions can go.
    Regions::iterator pick = p.regions_.end();
    for (auto it = p.regions_.begin(); it != p.regions_.end(); ++it) {
      const int used = it->second.used[0] + it->second.used[1];
      if (used == 1) {
        pick = it;
        break;
      }
      if (used == 0 && pick == p.regions_.end()) pick = it;
    }
    if (pick == p.regions_.end()) {
      char* h = map_region();
      if (h == nullptr) return nullptr;
      pick = p.regions_.emplace(h, Region{}).first;
    } else if (!pick->second.used[0] && !pick->second.used[1]) {
      --p.free_regions_;
    }
    const int half = pick->second.used[0] ? 1 : 0;
    pick->second.used[half] = true;
    char* h = pick->first;
    return half == 0 ? h + kHalf - capacity : h + kHalf;
  }

  // Takes back a buffer of take(); false if `data` is not one (then it is not touched). Local.
  static bool give(char* data, std::size_t capacity) noexcept {
    HugePairs& p = get();
    std::lock_guard<std::mutex> lock(p.mutex_);
    int half = 0;
    const auto it = p.find(data, capacity, half);
    if (it == p.regions_.end()) return false;
    it->second.used[half] = false;
    if (it->second.used[1 - half]) return true;
    if (p.free_regions_ < kFreeRegions) {
      ++p.free_regions_;
      return true;
    }
    munmap(it->first - kHalf, kRegion);
    p.regions_.erase(it);
    return true;
  }

  // Whether `data` is a buffer of take(). Local.
  static bool holds(const char* data, std::size_t capacity) noexcept {
    HugePairs& p = get();
    std::lock_guard<std::mutex> lock(p.mutex_);
    int half = 0;
    return p.find(data, capacity, half) != p.regions_.end();
  }

 private:
  // The region whose used half `half` is the buffer [data, data + capacity), or end(). Call
  // with mutex_ held.
  Regions::iterator find(const char* data, std::size_t capacity, int& half) {
    char* at = const_cast<char*>(data);
    auto it = regions_.find(at - kHalf);  // an upper buffer starts at h + 1 MiB
    if (it != regions_.end() && it->second.used[1]) {
      half = 1;
      return it;
    }
    it = regions_.find(at + capacity - kHalf);  // a lower one ends there
    half = 0;
    return it != regions_.end() && it->second.used[0] ? it : regions_.end();
  }

  // [h - 1 MiB, h + 3 MiB) mapped, h 2 MiB-aligned; returns h, or nullptr.
  static char* map_region() {
    char* first = map_on_huge_pages(kHalf, kRegion);
    return first == nullptr ? nullptr : first + kHalf;
  }

  // Never destroyed: buffers may be released during static destruction.
  static HugePairs& get() {
    static HugePairs* pairs = new HugePairs;
    return *pairs;
  }

  std::mutex mutex_;
  Regions regions_;
  int free_regions_ = 0;  // regions with both halves free
};

}  // namespace

bool release_paired_bytes(char* data, std::size_t capacity) noexcept {
  if (capacity < kHugeFrom || capacity >= kHugePage) return false;
  return HugePairs::give(data, capacity);
}

bool paired_bytes(const char* data, std::size_t capacity) noexcept {
  if (capacity < kHugeFrom || capacity >= kHugePage) return false;
  return HugePairs::holds(data, capacity);
}

std::size_t direct_alignment(std::size_t capacity) {
  return capacity >= kHugeFrom && huge_pages_wanted() ? kHugePage : kPage;
}

dash::bp::Bytes direct_buffer(std::size_t capacity) {
  capacity = (std::max<std::size_t>(capacity, 1) + kPage - 1) / kPage * kPage;
  const bool huge = capacity >= kHugeFrom && huge_pages_wanted();
  // From 1 MiB to 2 MiB: half a huge page and 4 KiB pages (HugePairs).
  if (huge && capacity < kHugePage) {
    char* paired = HugePairs::take(capacity);
    if (paired == nullptr) return dash::bp::Bytes();
    return dash::bp::Bytes::adopt(paired, 0, capacity, false);
  }
  void* memory = nullptr;
  if (capacity < dash::bp::internal::kMapBytes) {  // malloc's, as Bytes releases it
    if (posix_memalign(&memory, kPage, capacity) != 0) return dash::bp::Bytes();
    return dash::bp::Bytes::adopt(static_cast<char*>(memory), 0, capacity, false);
  }
  // A mapping of exactly `capacity` bytes (ByteMemory.h), 2 MiB-aligned for huge pages (the
  // whole mapping advised, so it stays one kernel mapping that mremap can grow when a Bytes
  // outgrows it; the tail past the last whole huge page stays in 4 KiB pages).
  if (huge) {
    memory = map_on_huge_pages(0, capacity);
    if (memory == nullptr) return dash::bp::Bytes();
  } else {
    memory = mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return dash::bp::Bytes();
  }
  return dash::bp::Bytes::adopt(static_cast<char*>(memory), 0, capacity, false);
}

}  // namespace internal
}  // namespace bp
}  // namespace dash
