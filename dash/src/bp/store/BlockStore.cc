// dash::bp::BlockStore and the process-wide I/O thread behind it (see dash/bp/BlockStore.h):
// the block layer's spill storage, with the disk quota of the unit's spill files (Storage.h).
#include <dash/Exception.h>
#include <dash/bp/BlockStore.h>
#include <dash/bp/SpillDirectory.h>
#include <dash/internal/Flags.h>
#include <sched.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <new>
#include <thread>
#include <utility>
#include <vector>

#include "Checksum.h"
#include "bp/store/DirectMemory.h"
#include "bp/store/SpillExtents.h"
#include "bp/store/Storage.h"

namespace dash {
namespace bp {

namespace {

constexpr std::uint64_t kMagic = 0x31534f432d687364ull;  // "dsh-COS1"
// A key's extent of the spill extents file (SpillExtents.h), whole pages: the bytes, then
// a trailer (magic, key, size, checksum); with O_DIRECT zeros between them, so that the trailer
// ends the extent and the extent is written and read as it is.
constexpr std::size_t kTrailerBytes = 32;
constexpr std::size_t kDirectAlign = 4096;

using dash::internal::spill_checksum;
using internal::SpillExtents;

// n rounded up to whole pages.
std::size_t padded(std::size_t n) { return (n + kDirectAlign - 1) / kDirectAlign * kDirectAlign; }

}  // namespace

// The flags of a store, read when it is made.
struct BlockStore::Settings {
  std::uint64_t max_bytes = 0;  // 0: no quota
  bool direct = false;
  std::uint64_t fail_write = 0;  // test: the n-th write fails (0: none)
};

namespace {

using Settings = BlockStore::Settings;

Settings read_settings() {
  using dash::internal::Flag;
  const char* const who = "dash::bp::BlockStore";
  Settings s;
  s.max_bytes = dash::internal::read_flag_number(Flag::ooc_max_bytes, who);
  s.direct = dash::internal::read_flag_bool(Flag::ooc_direct, who);
  s.fail_write = dash::internal::read_flag_number(Flag::ooc_test_fail_write, who);
  return s;
}

using dash::internal::errno_text;

}  // namespace

// One key's state. Guarded by the engine's mutex.
struct BlockStore::Entry {
  enum State { queued, writing, on_disk, reading, read_done, write_failed, dropped };
  std::uint64_t key = 0;
  std::shared_ptr<SpillExtents> file;  // the extents file its extent is in
  std::uint64_t offset = 0;            // the extent: [offset, offset + disk_bytes)
  std::uint64_t size = 0;              // the bytes put
  State state = queued;
  dash::bp::Bytes bytes;         // queued/writing/write_failed: the data; read_done: the file's
  std::string error;             // read_done: why the read failed (empty: fine)
  std::uint64_t disk_bytes = 0;  // the extent's bytes, counted against the quota while it is held
  std::shared_ptr<StoreStats> stats;
  bool direct = false;          // DASH_OOC_DIRECT of its store
  bool inject_failure = false;  // DASH_OOC_TEST_FAIL_WRITE chose this write
  bool kept = false;            // on disk after read(): the caller has the bytes too
  // Where the extent is, for messages: "<file> (bytes <offset>-<end>)".
  std::string where() const {
    return file->path() + " (bytes " + std::to_string(offset) + "-" +
           std::to_string(offset + disk_bytes) + ")";
  }
  // read() waits for this entry's write: once written, the bytes stay
  // (read_done) and go back to the reader instead of being freed.
  bool hand_back = false;
  bool discard = false;  // reading: a cancelled prefetch, its bytes not wanted
};

namespace {

// The process-wide I/O thread and its queue.
class Engine {
 public:
  using Entry = BlockStore::Entry;
  enum class Op { write, read };

  static Engine& get() {
    static Engine* engine = new Engine;  // never destroyed: stores may outlive main
    return *engine;
  }

  std::mutex mutex;
  std::condition_variable changed;  // an entry changed state, or the queue
  std::atomic<std::uint64_t> disk_bytes{0};
  std::string unreported_error;  // the first failed write not yet thrown
  // Writes handed over and not yet on disk (queued or being written): put()
  // waits while kMaxQueuedWrites are, so a unit's written-back bytes in
  // memory are one block's, beside the block in use and the one read ahead.
  int queued_writes = 0;
  static constexpr int kMaxQueuedWrites = 1;

  // The extents file of the current spill directory (a new one once the directory was
  // removed and made again). Call with mutex held.
  const std::shared_ptr<SpillExtents>& extents() {
    const std::string path = SpillDirectory::instance().path() + "/" + SpillExtents::kFileName;
    if (!extents_ || extents_->path() != path) extents_ = std::make_shared<SpillExtents>(path);
    return extents_;
  }
  // Bytes of the unit's disk the stores use: their extents and the free ones still held. Call
  // with mutex held.
  std::uint64_t used_bytes() const { return disk_bytes + (extents_ ? extents_->held_bytes() : 0); }
  // Gives back held blocks until `more` bytes fit within max beside the used ones, as far as
  // possible. Call with mutex held.
  void make_room(std::uint64_t more, std::uint64_t max) {
    if (!extents_) return;
    const std::uint64_t wanted = disk_bytes + more;
    extents_->punch_to(wanted < max ? max - wanted : 0);
  }
  // Frees entry's extent and gives its bytes back to the quota. Call with mutex held.
  void release_extent(Entry& e) {
    if (e.disk_bytes == 0) return;
    e.file->release(e.offset, e.disk_bytes);
    disk_bytes -= e.disk_bytes;
    e.disk_bytes = 0;
  }
  // Lets go of the extents file (dash::finalize, before the directory goes). Call with mutex
  // held.
  void close_extents() { extents_.reset(); }

  // Queues op on entry and starts the thread if needed. Call with mutex held.
  void submit(Op op, std::shared_ptr<Entry> entry) {
    jobs_.emplace_back(op, std::move(entry));
    for (std::thread& t : threads_)
      if (!t.joinable()) t = std::thread([this] { loop(); });
    changed.notify_all();
  }

  // Waits until queued jobs are done and stops the thread. Local.
  void stop() {
    std::unique_lock<std::mutex> lock(mutex);
    stopping_ = true;
    changed.notify_all();
    lock.unlock();
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
    lock.lock();
    stopping_ = false;
  }

  // Reads entry's extent into (payload, error) without the mutex: the whole
  // extent lands in the buffer that becomes the payload (the trailer after the
  // bytes is cut off), so nothing is copied. Checks the trailer, the size and
  // the checksum.
  void read_file(const Entry& e, dash::bp::Bytes& payload, std::string& error) {
    error.clear();
    const int fd = e.file->fd(e.direct);
    if (fd < 0) {
      error = "cannot open: " + errno_text(errno);
      return;
    }
    // Buffered, the bytes and the trailer; O_DIRECT, the whole padded extent.
    const std::size_t file_bytes = std::size_t(e.direct ? e.disk_bytes : e.size + kTrailerBytes);
    const std::size_t capacity = std::max<std::size_t>(1, padded(file_bytes));
    dash::bp::Bytes buffer = aligned_buffer(capacity);
    if (buffer.capacity() == 0) {
      error = "out of memory for " + std::to_string(capacity) + " bytes";
      return;
    }
    bool ok;
    {
      // One read at a time (a write may run beside it): two concurrent
      // reads of different files were no faster at the median and had a
      // tail of much slower passes (figures:
      // bench/results/design_measurements.md#blockstore-one-file-read-at-a-time).
      readers_waiting_.fetch_add(1, std::memory_order_relaxed);
      std::lock_guard<std::mutex> one_read(reading_);
      readers_waiting_.fetch_sub(1, std::memory_order_relaxed);
      ok = read_all(fd, buffer.data(), file_bytes, e.offset, error);
    }
    // A unit's threads share its core: the other I/O thread, woken by the
    // unlock, would wait for this one's checksum before it starts its read,
    // and the device would idle meanwhile. Let it start first: loads were
    // faster with the yield than without (figures:
    // bench/results/design_measurements.md#blockstore-the-next-reader-starts-before-the-checksum).
    if (readers_waiting_.load(std::memory_order_relaxed) > 0) sched_yield();
    if (!ok) return;
    std::uint64_t fields[4];
    std::memcpy(fields, buffer.data() + file_bytes - kTrailerBytes, sizeof fields);
    if (fields[0] != kMagic || fields[1] != e.key) {
      error = "not the extent of this key (trailer damaged or overwritten)";
      return;
    }
    const std::uint64_t size = fields[2];
    if (size != e.size) {
      error = "its trailer says " + std::to_string(size) + " bytes, " + std::to_string(e.size) +
              " were written";
      return;
    }
    if (spill_checksum(buffer.data(), std::size_t(size)) != fields[3]) {
      error = "checksum mismatch (the file was changed or damaged)";
      return;
    }
    buffer.resize(std::size_t(size));
    payload = std::move(buffer);
  }

  // Keeps a page-aligned buffer (one that read_file made, or the bytes of a
  // block once written) for a later read or write: a fresh buffer of many
  // MiB costs a page fault per 4 KiB. At most kMaxRecycled buffers,
  // kMaxRecycledBytes in all; others are freed.
  void recycle(dash::bp::Bytes bytes) {
    if (!aligned(bytes)) return;
    std::lock_guard<std::mutex> lock(pool_mutex_);
    if (pool_.size() >= kMaxRecycled || pool_bytes_ + bytes.capacity() > kMaxRecycledBytes) return;
    pool_bytes_ += bytes.capacity();
    pool_.push_back(std::move(bytes));
  }

  // A page-aligned buffer of at least `capacity` bytes: a recycled one, or
  // a new one (empty, capacity 0, if memory is short). Local.
  dash::bp::Bytes aligned_buffer(std::size_t capacity) {
    dash::bp::Bytes buffer = recycled(capacity);
    if (buffer.capacity() > 0) return buffer;
    if (capacity >= dash::bp::internal::kMapBytes && capacity < internal::kHugeFrom)
      return stock_buffer(capacity);
    return internal::direct_buffer(capacity);
  }

 private:
  Engine() = default;

  // One: beside the buffer in use and the one being read or written, a second kept one was
  // idle memory (ooc-reduce and particles out of core: peaks 1-2 blocks lower, times alike).
  static constexpr std::size_t kMaxRecycled = 1;

  // Whether b is aligned as direct_buffer aligns its size (a buffer of Bytes' own, page-aligned
  // but not on a huge page, is not kept for a request of 1 MiB or more).
  static bool aligned(const dash::bp::Bytes& b) {
    return b.capacity() >= kDirectAlign &&
           reinterpret_cast<std::uintptr_t>(b.data()) % internal::direct_alignment(b.capacity()) ==
               0;
  }
  static constexpr std::size_t kMaxRecycledBytes = std::size_t(256) << 20;

  // A buffer of at least `capacity` bytes (kMapBytes <= capacity < kHugeFrom) as Bytes makes
  // one: a kept buffer of the process-wide stock, else a fresh mapping (page-aligned, as all of
  // the library's mappings are); released, it goes back to the stock. So the queues read back
  // in every round of a reduction reuse memory that is mapped already. Local; empty if memory
  // is short.
  static dash::bp::Bytes stock_buffer(std::size_t capacity) {
    try {
      dash::bp::Bytes b;
      b.reserve(capacity);
      return b;
    } catch (const std::bad_alloc&) {
      return dash::bp::Bytes();
    }
  }

  // A recycled buffer of at least `capacity` bytes and at most twice that, aligned as
  // direct_buffer aligns that size, or an empty one. Local.
  dash::bp::Bytes recycled(std::size_t capacity) {
    const std::size_t alignment = internal::direct_alignment(capacity);
    std::lock_guard<std::mutex> lock(pool_mutex_);
    for (std::size_t i = 0; i < pool_.size(); ++i) {
      const std::size_t c = pool_[i].capacity();
      if (c < capacity || c > 2 * capacity) continue;
      if (reinterpret_cast<std::uintptr_t>(pool_[i].data()) % alignment != 0) continue;
      dash::bp::Bytes b = std::move(pool_[i]);
      pool_.erase(pool_.begin() + std::ptrdiff_t(i));
      pool_bytes_ -= c;
      b.clear();
      return b;
    }
    return dash::bp::Bytes();
  }

  // Reads n bytes at `offset` into `to`; false with `error` set if they are not all there.
  static bool read_all(int fd, char* to, std::size_t n, std::uint64_t offset, std::string& error) {
    std::size_t done = 0;
    while (done < n) {
      const ssize_t k = pread(fd, to + done, n - done, off_t(offset + done));
      if (k < 0 && errno == EINTR) continue;
      if (k < 0) {
        error = "read failed: " + errno_text(errno);
        return false;
      }
      if (k == 0) {
        error = "truncated: the file ended after " + std::to_string(done) + " of the extent's " +
                std::to_string(n) + " bytes";
        return false;
      }
      done += std::size_t(k);
    }
    return true;
  }

  // Writes entry's bytes to its extent; returns the error text (empty: fine).
  std::string write_file(Entry& e) {
    if (e.inject_failure) return errno_text(ENOSPC) + " (injected by DASH_OOC_TEST_FAIL_WRITE)";
    const int fd = e.file->fd(e.direct);
    if (fd < 0) {
      if (e.direct && errno == EINVAL)
        return "DASH_OOC_DIRECT=1, but the file system refuses O_DIRECT (tmpfs does): " +
               errno_text(errno);
      return "cannot open: " + errno_text(errno);
    }
    std::uint64_t fields[4] = {kMagic, e.key, e.bytes.size(),
                               spill_checksum(e.bytes.data(), e.bytes.size())};
    std::string error;
    const std::size_t total = e.bytes.size() + kTrailerBytes;
    if (e.direct) {
      // O_DIRECT writes whole pages from a page-aligned buffer. Bytes that
      // have room for the padding and trailer on whole pages (those of a read,
      // and the library's mappings, which Bytes of 128 KiB and more are) are
      // written in place: a copy would hold the bytes twice until written.
      // Others are copied into a recycled aligned buffer.
      const std::size_t file_bytes = std::size_t(e.disk_bytes);
      dash::bp::Bytes& bytes = e.bytes;
      const std::size_t size = bytes.size();
      // Pads [size, file_bytes) of `at`: zeros, then the trailer.
      auto pad = [&](char* at) {
        std::memset(at + size, 0, file_bytes - size - kTrailerBytes);
        std::memcpy(at + file_bytes - kTrailerBytes, fields, kTrailerBytes);
      };
      if (reinterpret_cast<std::uintptr_t>(bytes.data()) % kDirectAlign == 0 &&
          bytes.capacity() >= file_bytes) {
        bytes.resize(file_bytes);
        pad(bytes.data());
        error = write_all(fd, bytes.data(), file_bytes, e.offset);
        bytes.resize(size);
      } else {
        dash::bp::Bytes buffer = aligned_buffer(file_bytes);
        if (buffer.capacity() == 0) {
          return "out of memory for an aligned buffer of " + std::to_string(file_bytes) + " bytes";
        }
        buffer.resize(file_bytes);
        if (size > 0) std::memcpy(buffer.data(), bytes.data(), size);
        pad(buffer.data());
        error = write_all(fd, buffer.data(), file_bytes, e.offset);
        recycle(std::move(buffer));
      }
    } else {
      iovec parts[2] = {{const_cast<char*>(e.bytes.data()), e.bytes.size()},
                        {fields, kTrailerBytes}};
      std::size_t left = total;
      int first = 0;
      while (left > 0 && error.empty()) {
        const ssize_t n = pwritev(fd, parts + first, 2 - first, off_t(e.offset + total - left));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          error = "write failed: " + errno_text(n < 0 ? errno : EIO);
          break;
        }
        left -= std::size_t(n);
        std::size_t k = std::size_t(n);
        while (first < 2 && k >= parts[first].iov_len) k -= parts[first++].iov_len;
        if (first < 2) {
          parts[first].iov_base = static_cast<char*>(parts[first].iov_base) + k;
          parts[first].iov_len -= k;
        }
      }
    }
    return error;
  }

  static std::string write_all(int fd, const char* from, std::size_t n, std::uint64_t offset) {
    std::size_t done = 0;
    while (done < n) {
      const ssize_t k = pwrite(fd, from + done, n - done, off_t(offset + done));
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) return "write failed: " + errno_text(k < 0 ? errno : EIO);
      done += std::size_t(k);
    }
    return std::string();
  }

  void loop() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      changed.wait(lock, [this] { return !jobs_.empty() || stopping_; });
      if (jobs_.empty()) return;  // stopping and nothing left
      auto [op, entry] = std::move(jobs_.front());
      jobs_.pop_front();
      if (op == Op::write) {
        if (entry->state != Entry::queued) {  // taken or erased meanwhile
          --queued_writes;
          changed.notify_all();
          continue;
        }
        entry->state = Entry::writing;
        lock.unlock();
        const std::string error = write_file(*entry);
        lock.lock();
        --queued_writes;
        if (error.empty()) {
          entry->state = Entry::on_disk;
          entry->stats->bytes_written += entry->bytes.size();
          entry->stats->files_written += 1;
          if (entry->hand_back)
            entry->state = Entry::read_done;  // read() takes the bytes: no file read
          else
            recycle(std::exchange(entry->bytes, dash::bp::Bytes()));
        } else {
          entry->state = Entry::write_failed;  // the bytes stay: take() returns them
          if (unreported_error.empty())
            unreported_error = "dash::bp::BlockStore: writing key " + std::to_string(entry->key) +
                               " to " + entry->where() + " failed: " + error +
                               " (its bytes stay in memory)";
          release_extent(*entry);
        }
      } else {
        if (entry->state != Entry::reading) continue;
        lock.unlock();
        dash::bp::Bytes payload;
        std::string error;
        read_file(*entry, payload, error);
        lock.lock();
        if (entry->discard) {  // cancelled meanwhile: the buffer serves a later read
          entry->discard = false;
          recycle(std::move(payload));
          entry->state = Entry::on_disk;
        } else {
          entry->bytes = std::move(payload);
          entry->error = std::move(error);
          entry->state = Entry::read_done;
        }
      }
      changed.notify_all();
    }
  }

  std::mutex pool_mutex_;
  std::mutex reading_;                   // held by the one file read under way
  std::atomic<int> readers_waiting_{0};  // I/O threads waiting for reading_
  std::vector<dash::bp::Bytes> pool_;    // recycled read buffers
  std::size_t pool_bytes_ = 0;
  std::deque<std::pair<Op, std::shared_ptr<Entry>>> jobs_;
  // Two I/O threads: a write and a read reach the device together (reads
  // take turns: reading_).
  std::thread threads_[2];
  bool stopping_ = false;
  std::shared_ptr<SpillExtents> extents_;  // of the current spill directory
};

// Throws the first failed write not yet reported. Call with the engine's mutex held.
void throw_unreported(Engine& engine) {
  if (engine.unreported_error.empty()) return;
  std::string text = std::move(engine.unreported_error);
  engine.unreported_error.clear();
  throw exception::RuntimeError(text);
}

// Reads entry e (on disk) on the calling thread: the bytes, or the error,
// as a prefetch leaves them (read_done). Call with the engine's mutex held
// in `lock`; it is let go during the read.
void read_here(Engine& engine, BlockStore::Entry& e, std::unique_lock<std::mutex>& lock) {
  e.state = BlockStore::Entry::reading;
  lock.unlock();
  dash::bp::Bytes payload;
  std::string error;
  engine.read_file(e, payload, error);
  lock.lock();
  e.bytes = std::move(payload);
  e.error = std::move(error);
  e.state = BlockStore::Entry::read_done;
  engine.changed.notify_all();
}

}  // namespace

BlockStore::BlockStore(std::string name)
    : name_(std::move(name)),
      directory_(SpillDirectory::instance().path()),
      stats_(std::make_shared<StoreStats>()),
      settings_(std::make_shared<Settings>(read_settings())) {}

BlockStore::~BlockStore() {
  std::vector<std::uint64_t> keys;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& kv : entries_) keys.push_back(kv.first);
  }
  for (std::uint64_t key : keys) erase(key);
}

std::string BlockStore::path_of(std::uint64_t key) const {
  std::shared_ptr<Entry> e = find(key);
  std::lock_guard<std::mutex> lock(Engine::get().mutex);
  return e && e->file ? e->file->path() : directory_ + "/" + SpillExtents::kFileName;
}

std::uint64_t BlockStore::offset_of(std::uint64_t key) const {
  std::shared_ptr<Entry> e = find(key);
  if (!e) {
    std::lock_guard<std::mutex> lock(mutex_);
    throw_missing("offset_of", key);
  }
  std::lock_guard<std::mutex> lock(Engine::get().mutex);
  return e->offset;
}

std::shared_ptr<BlockStore::Entry> BlockStore::find(std::uint64_t key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : it->second;
}

void BlockStore::put(std::uint64_t key, dash::bp::Bytes bytes) {
  Engine& engine = Engine::get();
  const Settings& settings = *settings_;
  if (find(key)) erase(key);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    damaged_.erase(key);  // a new file for the key
  }
  auto e = std::make_shared<Entry>();
  e->key = key;
  e->size = bytes.size();
  e->stats = stats_;
  e->direct = settings.direct;
  e->inject_failure = settings.fail_write > 0 && ++puts_ == settings.fail_write;
  e->disk_bytes = padded(kTrailerBytes + bytes.size());
  std::unique_lock<std::mutex> lock(engine.mutex);
  engine.changed.wait(lock, [&] { return engine.queued_writes < Engine::kMaxQueuedWrites; });
  throw_unreported(engine);
  e->file = engine.extents();
  if (settings.max_bytes > 0) {  // held blocks go first, then kept extents (held in turn)
    engine.make_room(e->disk_bytes, settings.max_bytes);
    if (engine.used_bytes() + e->disk_bytes > settings.max_bytes) {
      drop_kept_files(e->disk_bytes);
      engine.make_room(e->disk_bytes, settings.max_bytes);
    }
  }
  if (settings.max_bytes > 0 && engine.used_bytes() + e->disk_bytes > settings.max_bytes)
    throw exception::RuntimeError(
        "dash::bp::BlockStore: key " + std::to_string(key) + " (" + std::to_string(e->disk_bytes) +
        " bytes) for " + e->file->path() +
        " would exceed DASH_OOC_MAX_BYTES=" + std::to_string(settings.max_bytes) + " (" +
        std::to_string(engine.used_bytes()) + " bytes on disk)");
  e->offset = e->file->allocate(e->disk_bytes);
  engine.disk_bytes += e->disk_bytes;
  e->bytes = std::move(bytes);
  e->state = Entry::queued;
  {
    std::lock_guard<std::mutex> store_lock(mutex_);
    entries_[key] = e;
  }
  ++engine.queued_writes;
  engine.submit(Engine::Op::write, e);
}

void BlockStore::prefetch(std::uint64_t key) {
  std::shared_ptr<Entry> e = find(key);
  if (!e) return;
  Engine& engine = Engine::get();
  std::lock_guard<std::mutex> lock(engine.mutex);
  if (e->state == Entry::reading) e->discard = false;  // wanted again
  if (e->state != Entry::on_disk) return;
  e->state = Entry::reading;
  engine.submit(Engine::Op::read, e);
}

void BlockStore::cancel_prefetch(std::uint64_t key) {
  std::shared_ptr<Entry> e = find(key);
  if (!e) return;
  Engine& engine = Engine::get();
  std::lock_guard<std::mutex> lock(engine.mutex);
  if (e->hand_back) return;  // a read() waits for these bytes
  if (e->state == Entry::reading) {
    e->discard = true;
  } else if (e->state == Entry::read_done) {
    engine.recycle(std::move(e->bytes));
    e->bytes = dash::bp::Bytes();
    e->error.clear();
    e->state = Entry::on_disk;
  }
}

dash::bp::Bytes BlockStore::take(std::uint64_t key) {
  std::shared_ptr<Entry> e;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) throw_missing("take", key);
    e = it->second;
    entries_.erase(it);
  }
  Engine& engine = Engine::get();
  std::unique_lock<std::mutex> lock(engine.mutex);
  e->discard = false;  // a cancelled prefetch still under way serves this take
  engine.changed.wait(lock,
                      [&] { return e->state != Entry::writing && e->state != Entry::reading; });
  if (e->state == Entry::queued || e->state == Entry::write_failed) {
    // Never reached the disk: the bytes are here.
    engine.release_extent(*e);
    e->state = Entry::dropped;
    return std::move(e->bytes);
  }
  if (e->state == Entry::on_disk) read_here(engine, *e, lock);
  e->state = Entry::dropped;
  const std::string where = e->where();
  engine.release_extent(*e);  // its blocks serve a later write (damaged ones too)
  const std::string error = std::move(e->error);
  dash::bp::Bytes bytes = std::move(e->bytes);
  if (error.empty()) {
    e->stats->bytes_read += bytes.size();
    e->stats->files_read += 1;
  }
  lock.unlock();
  if (!error.empty()) {
    std::string message = "dash::bp::BlockStore: reading key " + std::to_string(key) + " from " +
                          where + ": " + error;
    {
      std::lock_guard<std::mutex> store_lock(mutex_);
      damaged_[key] = message;
    }
    throw exception::RuntimeError(message);
  }
  return bytes;
}

void BlockStore::throw_missing(const char* call, std::uint64_t key) const {
  auto it = damaged_.find(key);  // the caller holds mutex_
  if (it != damaged_.end()) throw exception::RuntimeError(it->second);
  throw exception::InvalidArgument(std::string("dash::bp::BlockStore::") + call + ": no key " +
                                   std::to_string(key) + " in store '" + name_ + "'");
}

dash::bp::Bytes BlockStore::read(std::uint64_t key, bool& kept) {
  kept = false;
  std::shared_ptr<Entry> e = find(key);
  if (!e) {
    std::lock_guard<std::mutex> lock(mutex_);
    throw_missing("read", key);
  }
  Engine& engine = Engine::get();
  std::unique_lock<std::mutex> lock(engine.mutex);
  // A write queued or under way is let finish and its bytes handed back: the
  // file is then the key's (an unchanged block is not written again), and
  // nothing is read. At most one write of the unit waits ahead of it.
  if (e->state == Entry::queued || e->state == Entry::writing) e->hand_back = true;
  e->discard = false;  // a cancelled prefetch still under way serves this read
  engine.changed.wait(lock, [&] {
    return e->state != Entry::queued && e->state != Entry::writing && e->state != Entry::reading;
  });
  const bool handed_back = std::exchange(e->hand_back, false) && e->state == Entry::read_done;
  if (e->state == Entry::on_disk) read_here(engine, *e, lock);
  if (e->state != Entry::read_done || !e->error.empty()) {
    // Still in memory (a queued or failed write), or damaged: take() hands
    // the bytes over, or reports the damage and drops the file.
    lock.unlock();
    return take(key);
  }
  dash::bp::Bytes bytes = std::move(e->bytes);
  e->bytes = dash::bp::Bytes();
  e->state = Entry::on_disk;
  e->kept = true;
  if (!handed_back) {
    e->stats->bytes_read += bytes.size();
    e->stats->files_read += 1;
  }
  kept = true;
  return bytes;
}

bool BlockStore::put_kept(std::uint64_t key) {
  std::shared_ptr<Entry> e = find(key);
  if (!e) return false;
  std::lock_guard<std::mutex> lock(Engine::get().mutex);
  e->kept = false;
  return true;
}

void BlockStore::drop_kept_files(std::uint64_t needed) {
  Engine& engine = Engine::get();
  const std::uint64_t max = settings_->max_bytes;
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (engine.disk_bytes + needed <= max) return;
    Entry& k = *it->second;
    if (k.kept && k.state == Entry::on_disk) {
      engine.release_extent(k);
      k.state = Entry::dropped;
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
}

bool BlockStore::contains(std::uint64_t key) const { return find(key) != nullptr; }

void BlockStore::recycle(dash::bp::Bytes bytes) { Engine::get().recycle(std::move(bytes)); }

dash::bp::Bytes BlockStore::buffer(std::size_t n) {
  Engine& engine = Engine::get();
  {
    // The write behind first (put() would wait for it anyway): its buffer, recycled, becomes
    // this one, so the unit holds one buffer of written-back bytes, not two.
    std::unique_lock<std::mutex> lock(engine.mutex);
    engine.changed.wait(lock, [&] { return engine.queued_writes < Engine::kMaxQueuedWrites; });
  }
  dash::bp::Bytes b = engine.aligned_buffer(padded(n + kTrailerBytes));
  b.resize(n);  // a new plain buffer if no aligned memory was there
  return b;
}

void BlockStore::erase(std::uint64_t key) {
  std::shared_ptr<Entry> e;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    damaged_.erase(key);
    auto it = entries_.find(key);
    if (it == entries_.end()) return;
    e = it->second;
    entries_.erase(it);
  }
  Engine& engine = Engine::get();
  std::unique_lock<std::mutex> lock(engine.mutex);
  engine.changed.wait(lock,
                      [&] { return e->state != Entry::writing && e->state != Entry::reading; });
  engine.release_extent(*e);
  e->state = Entry::dropped;
  e->bytes = dash::bp::Bytes();
}

void BlockStore::flush() {
  std::vector<std::shared_ptr<Entry>> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& kv : entries_) all.push_back(kv.second);
  }
  Engine& engine = Engine::get();
  std::unique_lock<std::mutex> lock(engine.mutex);
  for (const auto& e : all)
    engine.changed.wait(lock,
                        [&] { return e->state != Entry::queued && e->state != Entry::writing; });
  throw_unreported(engine);
}

StoreStats BlockStore::stats() const {
  std::lock_guard<std::mutex> lock(Engine::get().mutex);
  return *stats_;
}

void reserve_disk_bytes(std::uint64_t bytes, const std::string& path) {
  const std::uint64_t max = read_settings().max_bytes;
  Engine& engine = Engine::get();
  std::lock_guard<std::mutex> lock(engine.mutex);
  if (max > 0) {
    engine.make_room(bytes, max);
    if (engine.used_bytes() + bytes > max)
      throw exception::RuntimeError(
          "dash::ooc: " + path + " (" + std::to_string(bytes) +
          " bytes) would exceed DASH_OOC_MAX_BYTES=" + std::to_string(max) + " (" +
          std::to_string(engine.used_bytes()) + " bytes of the unit's out-of-core files on disk)");
  }
  engine.disk_bytes += bytes;
}

void release_disk_bytes(std::uint64_t bytes) noexcept { Engine::get().disk_bytes -= bytes; }

std::uint64_t stored_disk_bytes() noexcept { return Engine::get().disk_bytes; }

void shutdown_spill_storage() noexcept {
  Engine& engine = Engine::get();
  engine.stop();
  {
    std::lock_guard<std::mutex> lock(engine.mutex);
    engine.close_extents();  // closed once no store's entry holds it
  }
  remove_spill_directory();  // with the extents file
}

}  // namespace bp
}  // namespace dash
