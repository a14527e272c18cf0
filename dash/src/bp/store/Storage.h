// The block layer's spill storage as a whole (not public): its end at dash::finalize, and the
// disk quota that the unit's spill files share: the block stores' extents and, from the
// out-of-core layer above, local array files.
#ifndef DASH__SRC__BP__STORE__STORAGE_H_
#define DASH__SRC__BP__STORE__STORAGE_H_

#include <cstdint>
#include <string>

namespace dash {
namespace bp {

// Finishes the queued spill I/O, stops the I/O thread and removes the unit's spill directory
// (dash::finalize). Local.
void shutdown_spill_storage() noexcept;

// Counts `bytes` of a file that is not a block store's (a local array file at `path`) against
// DASH_OOC_MAX_BYTES with the stores' extents, giving up held free extents first; throws
// RuntimeError naming the file and the quota when it cannot hold them (nothing is counted then).
// Local.
void reserve_disk_bytes(std::uint64_t bytes, const std::string& path);

// Gives back what reserve_disk_bytes counted (the file is gone). Local.
void release_disk_bytes(std::uint64_t bytes) noexcept;

// The bytes of data the unit's spill files hold now: the stores' extents (not the free ones
// whose blocks are still held) and local array files. Local.
std::uint64_t stored_disk_bytes() noexcept;

}  // namespace bp
}  // namespace dash

#endif  // DASH__SRC__BP__STORE__STORAGE_H_
