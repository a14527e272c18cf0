// dash::bp::internal::SpillExtents: the one file of a unit's spill directory
// that holds the bytes of every block store, in extents of whole pages (the
// block layer's spill storage; not public).
//
// Every key of every BlockStore of the unit has an extent of
// "<spill dir>/blocks": a put writes its bytes (and trailer) at the
// extent's offset, a take reads them back and frees the extent. No file is
// made, renamed or removed per key: on ext4 those metadata operations (inode
// allocation, directory updates) had made ooc-reduce's all-to-all much
// slower than the same run on tmpfs (figures:
// bench/results/design_measurements.md#spill-extents-one-file-per-unit-instead-of-one-per-key).
//
//   allocate(n)  the free extent that fits best (the rest stays free), else
//                n more bytes at the end of the file
//   release      the extent is free again, merged with free neighbours; its
//                disk blocks stay allocated ("held": a later write into it
//                allocates nothing) until punch_to() gives them back
//                (fallocate PUNCH_HOLE), which happens when held bytes pass
//                kMaxHeldBytes or DASH_OOC_MAX_BYTES needs the room
//
// The file is opened once per mode (buffered, O_DIRECT) on first use and
// closed when the last user lets go of this object: stores' entries hold it,
// so a spill directory removed under them (dash::finalize, a test) leaves
// their bytes readable until they are dropped. allocate, release, punch_to
// and held_bytes: call with the block store engine's mutex held; fd is
// thread-safe.
//
// | call       | cost                                                  |
// |------------|-------------------------------------------------------|
// | allocate   | local; O(log free extents)                            |
// | release    | local; O(log free extents)                            |
// | punch_to   | local; one fallocate per extent given back            |
// | fd         | local; the first call per mode opens the file         |
#ifndef DASH__SRC__BP__STORE__SPILL_EXTENTS_H_
#define DASH__SRC__BP__STORE__SPILL_EXTENTS_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace dash {
namespace bp {
namespace internal {

class SpillExtents {
 public:
  // The name of the file in the spill directory.
  static constexpr const char* kFileName = "blocks";
  // Held bytes beyond this are punched (without DASH_OOC_MAX_BYTES: the file's disk use stays
  // within the bytes stored plus this).
  static constexpr std::uint64_t kMaxHeldBytes = std::uint64_t(1) << 30;

  // The extents of the file `path` (in the current spill directory; made on first fd()).
  explicit SpillExtents(std::string path) : path_(std::move(path)) {}
  ~SpillExtents();
  SpillExtents(const SpillExtents&) = delete;
  SpillExtents& operator=(const SpillExtents&) = delete;

  const std::string& path() const { return path_; }
  // The file's descriptor, buffered or O_DIRECT, opened (O_RDWR | O_CREAT, 0600) on first use;
  // -1 with errno set if it cannot be.
  int fd(bool direct);
  // The offset of a new extent of n bytes (a multiple of the page).
  std::uint64_t allocate(std::uint64_t n);
  // Frees the extent [offset, offset + n); its blocks are held.
  void release(std::uint64_t offset, std::uint64_t n);
  // Bytes of free extents whose disk blocks are still allocated.
  std::uint64_t held_bytes() const { return held_bytes_; }
  // Gives back the disk blocks of free extents, largest first, until at most `target` bytes
  // are held (or none can be given back: a file system without hole punching).
  void punch_to(std::uint64_t target);

 private:
  struct Free {
    std::uint64_t bytes;
    bool held;
  };
  // Adds a free extent, merged with free neighbours of the same kind.
  void add_free(std::uint64_t offset, std::uint64_t bytes, bool held);
  void erase_free(std::map<std::uint64_t, Free>::iterator it);

  std::string path_;
  std::mutex open_mutex_;
  int fds_[2] = {-1, -1};  // buffered, O_DIRECT
  std::uint64_t end_ = 0;  // the file's extents end here
  std::uint64_t held_bytes_ = 0;
  std::map<std::uint64_t, Free> by_offset_;              // the free extents
  std::multimap<std::uint64_t, std::uint64_t> by_size_;  // their sizes -> offsets
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__SRC__BP__STORE__SPILL_EXTENTS_H_
