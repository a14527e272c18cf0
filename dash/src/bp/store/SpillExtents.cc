// The spill extents file of the block stores (see SpillExtents.h).
#include "bp/store/SpillExtents.h"

#include <dash/bp/SpillDirectory.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <iterator>

namespace dash {
namespace bp {
namespace internal {

SpillExtents::~SpillExtents() {
  for (int fd : fds_)
    if (fd >= 0) close(fd);
}

int SpillExtents::fd(bool direct) {
  std::lock_guard<std::mutex> lock(open_mutex_);
  int& fd = fds_[direct ? 1 : 0];
  if (fd < 0) fd = spill_open(path_, O_RDWR | O_CREAT | (direct ? O_DIRECT : 0), 0600);
  return fd;  // errno stays open's
}

std::uint64_t SpillExtents::allocate(std::uint64_t n) {
  auto fit = by_size_.lower_bound(n);
  if (fit == by_size_.end()) {
    const std::uint64_t offset = end_;
    end_ += n;
    return offset;
  }
  auto it = by_offset_.find(fit->second);
  const std::uint64_t offset = it->first;
  const Free free = it->second;
  erase_free(it);
  if (free.held) held_bytes_ -= n;
  if (free.bytes > n) {  // the rest stays free, as it was (its neighbours are not of its kind)
    by_offset_.emplace(offset + n, Free{free.bytes - n, free.held});
    by_size_.emplace(free.bytes - n, offset + n);
  }
  return offset;
}

void SpillExtents::release(std::uint64_t offset, std::uint64_t n) {
  if (n == 0) return;
  add_free(offset, n, true);
  held_bytes_ += n;
  if (held_bytes_ > kMaxHeldBytes) punch_to(kMaxHeldBytes / 2);
}

void SpillExtents::punch_to(std::uint64_t target) {
  const int fd = held_bytes_ > target ? this->fd(false) : -1;
  if (fd < 0) return;
  for (auto s = by_size_.rbegin(); s != by_size_.rend() && held_bytes_ > target;) {
    auto it = by_offset_.find(s->second);
    if (!it->second.held) {
      ++s;
      continue;
    }
    const std::uint64_t offset = it->first, bytes = it->second.bytes;
    if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(offset), off_t(bytes)) != 0)
      return;  // no hole punching here: the blocks stay held
    erase_free(it);
    held_bytes_ -= bytes;
    add_free(offset, bytes, false);
    s = by_size_.rbegin();  // the maps changed: from the largest again
  }
}

void SpillExtents::add_free(std::uint64_t offset, std::uint64_t bytes, bool held) {
  auto next = by_offset_.lower_bound(offset);
  if (next != by_offset_.end() && next->second.held == held && offset + bytes == next->first) {
    bytes += next->second.bytes;
    next = std::next(next);
    erase_free(std::prev(next));
  }
  if (next != by_offset_.begin()) {
    auto before = std::prev(next);
    if (before->second.held == held && before->first + before->second.bytes == offset) {
      offset = before->first;
      bytes += before->second.bytes;
      erase_free(before);
    }
  }
  by_offset_.emplace(offset, Free{bytes, held});
  by_size_.emplace(bytes, offset);
}

void SpillExtents::erase_free(std::map<std::uint64_t, Free>::iterator it) {
  auto [first, last] = by_size_.equal_range(it->second.bytes);
  for (auto s = first; s != last; ++s)
    if (s->second == it->first) {
      by_size_.erase(s);
      break;
    }
  by_offset_.erase(it);
}

}  // namespace internal
}  // namespace bp
}  // namespace dash
