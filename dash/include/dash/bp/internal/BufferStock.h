// dash::bp::internal::BufferStock: large byte buffers kept between rounds of a reduction or an
// exchange, and between reductions, so that the next queue or message of that size reuses
// memory that is already mapped. A fresh allocation of many MiB is mapped by the kernel page by
// page on first touch (a page fault and a zeroed page per 4 KiB), which costs more than
// copying the bytes into it; glibc's malloc maps such sizes anew each time.
//
// Buffers come from allocate_bytes and go back with release_bytes (internal/ByteMemory.h: from
// 128 KiB on, the library's own mappings). Only buffers of at least kMinBytes are kept,
// at most kMaxBuffers of them and kMaxBytes in all (the oldest go first), so what a process
// holds beyond its live data stays bounded. While a Short lives (a Master under a
// memory-block limit holds one), at most kShortBuffers of kShortSmallFrom bytes or more are
// kept and smaller ones up to kShortSmallBytes in all: memory the stock holds is memory the
// limit does not count.
//
// | call  | cost                                                      |
// |-------|-----------------------------------------------------------|
// | take  | local; a lock and a scan of at most kMaxBuffers entries    |
// | give  | local; a lock, sometimes a free of the oldest kept buffer  |
#ifndef DASH__BP__INTERNAL__BUFFER_STOCK_H_
#define DASH__BP__INTERNAL__BUFFER_STOCK_H_

#include <dash/bp/internal/ByteMemory.h>

#include <boost/container/static_vector.hpp>
#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <utility>

namespace dash {
namespace bp {
namespace internal {

class BufferStock {
 public:
  static constexpr std::size_t kMinBytes = std::size_t(64) << 10;
  static constexpr std::size_t kMaxBuffers = 64;
  static constexpr std::size_t kMaxBytes = std::size_t(256) << 20;
  // One (two kept a block more at the peak of ooc-reduce and particles out of core, for no
  // time) of kShortSmallFrom bytes or more; smaller ones up to kShortSmallBytes in all (an
  // out-of-core all_to_all round's arrays and the queues it reads back, which otherwise
  // fault in fresh pages every round). Figures:
  // bench/results/design_measurements.md#buffer-stock-one-large-buffer-and-up-to-1-mib-of-small-ones.
  static constexpr std::size_t kShortBuffers = 1;
  static constexpr std::size_t kShortSmallFrom = std::size_t(1) << 20;
  static constexpr std::size_t kShortSmallBytes = std::size_t(1) << 20;

  // While one lives, the stock keeps what trim_short allows (more is released now).
  // Movable; local.
  class Short {
   public:
    Short() : active_(true) { enter(); }
    Short(Short&& o) noexcept : active_(std::exchange(o.active_, false)) {}
    Short& operator=(Short&& o) noexcept {
      if (this != &o) {
        if (active_) leave();
        active_ = std::exchange(o.active_, false);
      }
      return *this;
    }
    Short(const Short&) = delete;
    Short& operator=(const Short&) = delete;
    ~Short() {
      if (active_) leave();
    }

   private:
    static void enter() {
      boost::container::static_vector<Buffer, kMaxBuffers> drop;
      {
        BufferStock& s = get();
        std::lock_guard<std::mutex> lock(s.mutex_);
        ++s.short_users_;
        s.trim_short(0, drop);
      }
      for (const Buffer& d : drop) release_bytes(d.data, d.capacity);
    }
    static void leave() {
      BufferStock& s = get();
      std::lock_guard<std::mutex> lock(s.mutex_);
      --s.short_users_;
    }
    bool active_;
  };

  struct Buffer {
    char* data = nullptr;
    std::size_t capacity = 0;
  };

  // The smallest kept buffer of at least n bytes, or {nullptr, 0} when none is kept (or n is
  // below kMinBytes). Local.
  static Buffer take(std::size_t n) {
    if (n < kMinBytes) return {};
    BufferStock& s = get();
    std::lock_guard<std::mutex> lock(s.mutex_);
    auto best = s.kept_.end();
    for (auto it = s.kept_.begin(); it != s.kept_.end(); ++it)
      if (it->capacity >= n && (best == s.kept_.end() || it->capacity < best->capacity)) best = it;
    if (best == s.kept_.end()) return {};
    Buffer b = *best;
    s.bytes_ -= b.capacity;
    s.kept_.erase(best);
    return b;
  }

  // Keeps the buffer (of allocate_bytes) for a later take, or releases it (too small or too
  // large); releases the oldest kept buffers beyond the limits. Local.
  static void give(char* data, std::size_t capacity) {
    if (data == nullptr) return;
    if (capacity < kMinBytes || capacity > kMaxBytes) {
      release_bytes(data, capacity);
      return;
    }
    boost::container::static_vector<Buffer, kMaxBuffers> drop;
    {
      BufferStock& s = get();
      std::lock_guard<std::mutex> lock(s.mutex_);
      // Room for one more buffer and for its bytes (capacity <= kMaxBytes: an empty stock has).
      if (s.short_users_ > 0)
        s.trim_short(capacity, drop);
      else
        s.trim(kMaxBuffers - 1, capacity, drop);
      s.kept_.push_back(Buffer{data, capacity});
      s.bytes_ += capacity;
    }
    for (const Buffer& d : drop) release_bytes(d.data, d.capacity);
  }

  // Bytes kept now. Local.
  static std::size_t kept_bytes() {
    BufferStock& s = get();
    std::lock_guard<std::mutex> lock(s.mutex_);
    return s.bytes_;
  }

 private:
  // Moves the oldest kept buffers to `drop` until at most `buffers` are kept and `adding` more
  // bytes fit kMaxBytes. Call with mutex_ held.
  void trim(std::size_t buffers, std::size_t adding,
            boost::container::static_vector<Buffer, kMaxBuffers>& drop) {
    while (!kept_.empty() && (kept_.size() > buffers || bytes_ + adding > kMaxBytes)) {
      drop.push_back(kept_.front());
      bytes_ -= kept_.front().capacity;
      kept_.erase(kept_.begin());
    }
  }

  // While short of memory: moves the oldest kept buffers to `drop` until a buffer of `adding`
  // bytes (0: none) fits kShortBuffers of kShortSmallFrom bytes or more and kShortSmallBytes
  // of smaller ones. Call with mutex_ held.
  void trim_short(std::size_t adding, boost::container::static_vector<Buffer, kMaxBuffers>& drop) {
    const bool large = adding >= kShortSmallFrom;
    for (;;) {
      std::size_t larges = large ? 1 : 0, small_bytes = large ? 0 : adding;
      for (const Buffer& b : kept_) {
        if (b.capacity >= kShortSmallFrom)
          ++larges;
        else
          small_bytes += b.capacity;
      }
      if (larges <= kShortBuffers && small_bytes <= kShortSmallBytes) return;
      // The oldest of the class that is over.
      const bool drop_large = larges > kShortBuffers;
      auto it = kept_.begin();
      while (it != kept_.end() && (it->capacity >= kShortSmallFrom) != drop_large) ++it;
      if (it == kept_.end()) return;  // only the new buffer is over (cannot be: one fits)
      drop.push_back(*it);
      bytes_ -= it->capacity;
      kept_.erase(it);
    }
  }

  // Never destroyed: buffers may be given back during static destruction.
  static BufferStock& get() {
    static BufferStock* stock = new BufferStock;
    return *stock;
  }

  std::mutex mutex_;
  boost::container::static_vector<Buffer, kMaxBuffers> kept_;  // oldest first
  std::size_t bytes_ = 0;
  int short_users_ = 0;  // live Short objects
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__BUFFER_STOCK_H_
