// dash::ooc::detail::SpentFiles: spill files whose bytes were read back,
// kept to be overwritten by later writes (not public).
//
// On ext4 (and most file systems) removing a file frees its blocks, and with
// the `discard` mount option trims them on the device; creating the next
// file allocates blocks again. Measured on this project's machines: removing
// a 1 MiB spill file costs about 0.3 ms, a third of the time of reading it,
// and writes into a file's existing blocks run about twice as fast as into a
// new file. So a file whose bytes were taken is renamed to ".spent-<n>" in
// its directory, and the next write in that directory renames a spent file
// to its own name and overwrites it in place (resized if the sizes differ).
//
// At most kMaxFiles files and kMaxBytes bytes, all in one directory, are
// kept; others are removed. Spent files count against DASH_OOC_MAX_BYTES (the block store removes
// them first when a write would exceed it) and go with the spill directory at dash::finalize.
// Thread-safe; every call is local and costs one rename or unlink at most.
#ifndef DASH__SRC__OOC__SPENT_FILES_H_
#define DASH__SRC__OOC__SPENT_FILES_H_

#include <boost/container/flat_map.hpp>
#include <cstdint>
#include <mutex>
#include <string>

namespace dash {
namespace ooc {
namespace detail {

class SpentFiles {
 public:
  static constexpr std::size_t kMaxFiles = 4096;
  static constexpr std::uint64_t kMaxBytes = std::uint64_t(1) << 30;

  struct File {
    std::string path;  // empty: none
    std::uint64_t bytes = 0;
  };

  // Keeps the file at `path` (of `bytes` bytes, contents no longer needed)
  // for reuse, or removes it if the pool is full or the rename fails.
  void retire(const std::string& path, std::uint64_t bytes);
  // A spent file in the directory of `path`, renamed to `path`: one of
  // `bytes` bytes, else the smallest larger one, else the largest; none if
  // there is none or the rename fails. The caller owns the returned file.
  File reuse_as(const std::string& path, std::uint64_t bytes);
  // Removes spent files until at most `allowed` bytes are kept.
  void shrink_to(std::uint64_t allowed);
  // Forgets every spent file without touching the disk (their directory
  // is being removed).
  void forget();
  // Bytes the spent files hold.
  std::uint64_t bytes() const;

 private:
  mutable std::mutex mutex_;
  std::string directory_;                                                // where the kept files are
  boost::container::flat_multimap<std::uint64_t, std::string> by_size_;  // bytes -> path
  std::uint64_t bytes_ = 0;
  std::uint64_t next_name_ = 0;
};

// The unit's spent files (one pool for every block store). Local.
SpentFiles& spent_files();

}  // namespace detail
}  // namespace ooc
}  // namespace dash

#endif  // DASH__SRC__OOC__SPENT_FILES_H_
