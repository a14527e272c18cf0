// dash::ooc::detail::SpentFiles (see SpentFiles.h).
#include "ooc/SpentFiles.h"

#include <dash/ooc/SpillDirectory.h>

#include <iterator>

#include "SafeFile.h"

namespace dash {
namespace ooc {
namespace detail {

void SpentFiles::retire(const std::string& path, std::uint64_t bytes) {
  const std::string directory = dash::internal::directory_of(path);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (directory != directory_) {
      for (const auto& kv : by_size_) spill_unlink(kv.second);
      by_size_.clear();
      bytes_ = 0;
      directory_ = directory;
    }
    if (by_size_.size() < kMaxFiles && bytes_ + bytes <= kMaxBytes) {
      std::string spent = directory + "/.spent-" + std::to_string(next_name_++);
      if (spill_rename(path, spent) == 0) {
        by_size_.emplace(bytes, std::move(spent));
        bytes_ += bytes;
        return;
      }
    }
  }
  spill_unlink(path);
}

SpentFiles::File SpentFiles::reuse_as(const std::string& path, std::uint64_t bytes) {
  const std::string directory = dash::internal::directory_of(path);
  std::lock_guard<std::mutex> lock(mutex_);
  if (by_size_.empty() || directory != directory_) return File{};
  auto it = by_size_.lower_bound(bytes);  // equal, else the smallest larger
  if (it == by_size_.end()) it = std::prev(it);
  File file{std::move(it->second), it->first};
  by_size_.erase(it);
  bytes_ -= file.bytes;
  if (spill_rename(file.path, path) != 0) {
    spill_unlink(file.path);
    return File{};
  }
  file.path = path;
  return file;
}

void SpentFiles::shrink_to(std::uint64_t allowed) {
  std::lock_guard<std::mutex> lock(mutex_);
  while (bytes_ > allowed && !by_size_.empty()) {
    auto last = std::prev(by_size_.end());  // the largest first
    spill_unlink(last->second);
    bytes_ -= last->first;
    by_size_.erase(last);
  }
}

void SpentFiles::forget() {
  std::lock_guard<std::mutex> lock(mutex_);
  by_size_.clear();
  bytes_ = 0;
  directory_.clear();
}

std::uint64_t SpentFiles::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

SpentFiles& spent_files() {
  static SpentFiles* files = new SpentFiles;  // never destroyed: stores may outlive main
  return *files;
}

}  // namespace detail
}  // namespace ooc
}  // namespace dash
