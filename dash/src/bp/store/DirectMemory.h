// Memory that spill files (the block stores' extents, the out-of-core layer's local array files)
// are read into and written from; part of the block layer's spill storage (not public).
#ifndef DASH__SRC__BP__STORE__DIRECT_MEMORY_H_
#define DASH__SRC__BP__STORE__DIRECT_MEMORY_H_

#include <dash/bp/Serialization.h>

#include <cstddef>

namespace dash {
namespace bp {
namespace internal {

// An empty buffer with room for at least `capacity` bytes (rounded up to
// whole 4 KiB pages), page-aligned, or an empty one of capacity 0 if memory
// is short. From kHugeFrom bytes on, unless DASH_OOC_HUGE_PAGES=0, it is
// 2 MiB-aligned and its whole 2 MiB pages are advised to be transparent huge
// pages (madvise(MADV_HUGEPAGE)); below 2 MiB it holds half of one (two
// such buffers share a huge page, what passes 1 MiB on 4 KiB pages). An
// O_DIRECT request into them spans few physical segments. A virtio disk
// takes at most max_segments (254 here) per request, so into scattered 4 KiB
// pages a request carries at most 1 MiB and a read may run at half the
// device's speed (docs/flags.md, DASH_OOC_HUGE_PAGES). Local; costs the page
// faults of fresh memory.
dash::bp::Bytes direct_buffer(std::size_t capacity);

// The alignment direct_buffer gives a buffer of `capacity` bytes (2 MiB or 4 KiB): a
// recycled buffer serves such a request only if it has it (buffers of 1-2 MiB, which share
// huge pages, never have it: they are not recycled). Local.
std::size_t direct_alignment(std::size_t capacity);

constexpr std::size_t kHugeFrom = std::size_t(1) << 20;
constexpr std::size_t kHugePage = std::size_t(2) << 20;

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__SRC__BP__STORE__DIRECT_MEMORY_H_
