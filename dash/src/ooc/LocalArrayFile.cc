// dash::ooc::LocalArrayFile (see dash/ooc/LocalArrayFile.h): a file in the block layer's spill
// directory, with that storage's buffers and disk quota (dash/src/bp/store/), used from above.
#include <dash/Exception.h>
#include <dash/bp/SpillDirectory.h>
#include <dash/bp/SpillStore.h>
#include <dash/internal/Flags.h>
#include <dash/ooc/LocalArrayFile.h>
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <boost/container/flat_map.hpp>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "Checksum.h"
#include "bp/store/DirectMemory.h"
#include "bp/store/Storage.h"

namespace dash {
namespace ooc {

namespace {

constexpr std::size_t kAlign = 4096;
// One write per file waits or runs at a time (put waits for the one before; unless the file
// was given write-behind bytes): with the slab a caller holds and the one read ahead, three
// slabs' buffers per file, the count dash::ooc::InMemory sizes slabs by.
// A region's checksums cover pieces of this many bytes (the last one shorter), so a part of a
// region reads and verifies only the pieces it touches. A multiple of kAlign.
constexpr std::size_t kPiece = std::size_t(64) << 10;
// Queued writes of regions that follow one another in the file go out as one pwritev of at
// most this many regions and bytes.
constexpr std::size_t kMaxBatch = 64;
constexpr std::uint64_t kMaxBatchBytes = std::uint64_t(16) << 20;

// The checksum of each piece of `n` bytes at `data`.
std::vector<std::uint64_t> piece_checksums(const char* data, std::size_t n) {
  std::vector<std::uint64_t> sums((n + kPiece - 1) / kPiece);
  for (std::size_t p = 0; p < sums.size(); ++p)
    sums[p] = dash::internal::spill_checksum(data + p * kPiece, std::min(kPiece, n - p * kPiece));
  return sums;
}

using dash::internal::errno_text;

// A page-aligned buffer of n bytes (uninitialised unless zero).
dash::bp::Bytes aligned_bytes(std::size_t n, bool zero) {
  dash::bp::Bytes b = bp::internal::direct_buffer(
      std::max<std::size_t>(kAlign, (n + kAlign - 1) / kAlign * kAlign));
  if (b.capacity() == 0) throw std::bad_alloc();
  b.resize(n);
  if (zero) std::memset(b.data(), 0, n);
  return b;
}

}  // namespace

struct LocalArrayFile::State {
  enum Phase { idle, write_queued, writing, write_failed, reading, read_done };
  struct Region {
    std::uint64_t offset = 0, size = 0;
    std::vector<std::uint64_t> checksums;  // one per kPiece bytes, as last written
    bool written = false;                  // false: still the zeros the file was made with
    Phase phase = idle;
    dash::bp::Bytes bytes;        // write_*: the data; read_done: what was read
    std::string error;            // read_done: why the read failed (empty: fine)
    dash::bp::Bytes read_into;    // reading: the buffer, taken by prefetch on the caller's
                                  // thread (so small ones come from its malloc arena)
    bool inject_failure = false;  // DASH_OOC_TEST_FAIL_WRITE chose this write
    bool discard = false;         // reading: a cancelled prefetch, its bytes not wanted
  };

  std::string path;
  int fd = -1;
  bool direct = false;
  std::uint64_t fail_write = 0;  // DASH_OOC_TEST_FAIL_WRITE: the n-th put's write fails (0: none)
  std::uint64_t puts = 0;  // DASH_OOC_DIRECT: O_DIRECT, regions at page offsets, whole pages moved
  boost::container::flat_map<std::uint64_t, Region> regions;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::uint64_t> jobs;  // keys whose region is write_queued or reading
  int queued_writes = 0;
  std::uint64_t queued_bytes = 0;  // of the queued and running writes
  // More writes than one may wait while their bytes stay within this (the constructor's
  // write_behind_bytes; 0: one write at a time); the pool keeps buffers up to it too.
  std::uint64_t write_behind = 0;
  std::uint64_t pool_bytes = 0;
  std::size_t largest = 0;            // the largest region's padded size
  std::string unreported;             // the first failed write not yet thrown
  std::vector<dash::bp::Bytes> pool;  // recycled buffers
  std::uint64_t disk_bytes = 0;       // the file's size, counted against DASH_OOC_MAX_BYTES
  // The pieces read_part read last (region part_key, from byte part_first on): a slab's two
  // end rows often lie in the same pieces. Dropped when the region is put again.
  std::uint64_t part_key = ~std::uint64_t(0), part_first = 0;
  dash::bp::Bytes part;
  dash::bp::SpillCounters counters;
  // Two I/O threads: a slab's write-back and the next slab's read reach the device together.
  std::thread threads[2];
  bool stopping = false;

  Region& region(std::uint64_t key, const char* call) {
    auto it = regions.find(key);
    if (it == regions.end())
      throw exception::InvalidArgument(std::string("dash::ooc::LocalArrayFile::") + call +
                                       ": no region " + std::to_string(key) + " in " + path);
    return it->second;
  }
  std::string where(std::uint64_t key, const Region& r) const {
    return path + ", region " + std::to_string(key) + " (bytes " + std::to_string(r.offset) +
           " to " + std::to_string(r.offset + r.size) + ")";
  }
  void throw_unreported() {
    if (unreported.empty()) return;
    std::string text = std::move(unreported);
    unreported.clear();
    throw exception::RuntimeError(text);
  }
  // Call with the mutex held.
  void submit(std::uint64_t key) {
    jobs.push_back(key);
    for (std::thread& t : threads)
      if (!t.joinable()) t = std::thread([this] { loop(); });
    changed.notify_all();
  }
  // Keeps a page-aligned buffer for a later read or put: one (the slab just written back, for
  // the next read ahead: a matrix's slabs in use, read ahead and being written are what
  // dash::ooc::InMemory counts; a second kept buffer is memory beyond it and did not make the
  // sweeps faster; figures:
  // bench/results/design_measurements.md#local-array-files-keep-one-recycled-buffer), or buffers up
  // to write_behind bytes. Call with the mutex held.
  void keep(dash::bp::Bytes bytes) {
    const bool room = pool.empty() || pool_bytes + bytes.capacity() <= write_behind;
    if (room && bytes.capacity() >= kAlign &&
        reinterpret_cast<std::uintptr_t>(bytes.data()) % kAlign == 0) {
      pool_bytes += bytes.capacity();
      pool.push_back(std::move(bytes));
    }
  }
  // Whether a write of n bytes may join the queue now. Call with the mutex held.
  bool write_fits(std::uint64_t n) const {
    return queued_writes == 0 || queued_bytes + n <= write_behind;
  }
  std::size_t padded(std::uint64_t n) const {
    return direct ? std::size_t((n + kAlign - 1) / kAlign * kAlign) : std::size_t(n);
  }
  // A page-aligned buffer of n bytes with room for padded(n); a new one is made as large as
  // the largest region when that is at most twice n: regions differ by a row or a column
  // strip (a matrix's slabs, a transpose's staging regions), and a kept buffer of a smaller
  // region would serve no larger one, so each took a new buffer while the kept ones stayed
  // (ooc-fft2d 4096 at 1/8 on 2 units peaked 7 MiB higher: bench/results/memory.md).
  dash::bp::Bytes buffer(std::size_t n) {
    for (std::size_t i = 0; i < pool.size(); ++i)
      if (pool[i].capacity() >= padded(n) && pool[i].capacity() <= 2 * n + kAlign) {
        dash::bp::Bytes b = std::move(pool[i]);
        pool.erase(pool.begin() + std::ptrdiff_t(i));
        pool_bytes -= b.capacity();
        b.resize(n);
        return b;
      }
    dash::bp::Bytes b = aligned_bytes(n <= largest && largest <= 2 * n ? largest : n, false);
    b.resize(n);
    return b;
  }

  // Reads bytes [from, from + n) of region r into `to` and checks the pieces they make up
  // against r.checksums; returns the error (empty: fine). `from` starts a piece, n ends one
  // or the region; `to` has room for padded(n) bytes, page-aligned if direct.
  std::string read_pieces(const Region& r, std::uint64_t from, std::size_t n, char* to) const {
    std::size_t done = 0;
    const std::size_t ask = padded(n);
    while (done < n) {
      const ssize_t got = pread(fd, to + done, ask - done, off_t(r.offset + from + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return "read failed: " + errno_text(errno);
      if (got == 0)
        return "the file ends after " + std::to_string(r.offset + from + done) +
               " bytes (truncated)";
      done += std::size_t(got);
    }
    return check_pieces(r, from, n, to);
  }
  // Checks bytes [from, from + n) of region r, read into `to`, against r.checksums (as
  // read_pieces); returns the error (empty: fine).
  std::string check_pieces(const Region& r, std::uint64_t from, std::size_t n,
                           const char* to) const {
    for (std::size_t at = 0; at < n; at += kPiece)
      if (dash::internal::spill_checksum(to + at, std::min(kPiece, n - at)) !=
          r.checksums[std::size_t((from + at) / kPiece)])
        return "checksum mismatch in bytes " + std::to_string(from + at) + " to " +
               std::to_string(from + at + std::min(kPiece, n - at)) +
               " (the file was changed or damaged)";
    return std::string();
  }
  // Reads region r into `to` (r.size bytes) and checks it; returns the error (empty: fine).
  // `to` has room for padded(r.size) bytes, page-aligned if direct.
  std::string read_region(const Region& r, char* to) const {
    return read_pieces(r, 0, std::size_t(r.size), to);
  }
  std::string write_region(const Region& r) const {
    if (r.inject_failure) return errno_text(ENOSPC) + " (injected by DASH_OOC_TEST_FAIL_WRITE)";
    const std::size_t total = padded(r.size);
    const char* from = r.bytes.data();
    dash::bp::Bytes copy;  // O_DIRECT needs an aligned source with room for whole pages
    if (direct &&
        (reinterpret_cast<std::uintptr_t>(from) % kAlign != 0 || r.bytes.capacity() < total)) {
      copy = aligned_bytes(total, false);
      std::memcpy(copy.data(), from, r.size);
      std::memset(copy.data() + r.size, 0, total - r.size);
      from = copy.data();
    }
    std::size_t done = 0;
    while (done < total) {
      const ssize_t n = pwrite(fd, from + done, total - done, off_t(r.offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return "write failed: " + errno_text(n < 0 ? errno : EIO);
      done += std::size_t(n);
    }
    return std::string();
  }

  // Reads regions that follow one another in the file into `into` (one buffer each, room for
  // padded sizes, page-aligned if direct) with one preadv, then checks each against its
  // checksums; a region the preadv left short is read alone. Returns each region's error
  // (empty: fine).
  std::vector<std::string> read_regions(const std::vector<Region*>& batch,
                                        std::vector<dash::bp::Bytes>& into) const {
    std::vector<std::string> errors(batch.size());
    if (batch.size() == 1) {
      errors[0] = read_region(*batch[0], into[0].data());
      return errors;
    }
    std::vector<iovec> parts;
    for (std::size_t i = 0; i < batch.size(); ++i)
      parts.push_back(iovec{into[i].data(), padded(batch[i]->size)});
    ssize_t n = -1;
    do {
      n = preadv(fd, parts.data(), int(parts.size()), off_t(batch.front()->offset));
    } while (n < 0 && errno == EINTR);
    std::size_t got = n < 0 ? 0 : std::size_t(n);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const Region& w = *batch[i];
      const std::size_t span = padded(w.size);
      if (got >= span) {
        got -= span;
        errors[i] = check_pieces(w, 0, std::size_t(w.size), into[i].data());
      } else {
        got = 0;
        errors[i] = read_region(w, into[i].data());
      }
    }
    return errors;
  }

  // Whether region r's buffer can go to the file as it is (O_DIRECT: aligned, with room for
  // whole pages), so it can join a batch.
  bool whole_pages(const Region& r) const {
    return !direct || (reinterpret_cast<std::uintptr_t>(r.bytes.data()) % kAlign == 0 &&
                       r.bytes.capacity() >= padded(r.size));
  }
  // Writes regions that follow one another in the file with one pwritev (the rest, if it
  // writes less, region by region); returns the error (empty: fine).
  std::string write_regions(const std::vector<Region*>& batch) const {
    std::vector<iovec> parts;
    for (const Region* w : batch) {
      if (direct && w->size < padded(w->size))  // the tail of the last page: zeros
        std::memset(const_cast<char*>(w->bytes.data()) + w->size, 0, padded(w->size) - w->size);
      parts.push_back(iovec{const_cast<char*>(w->bytes.data()), padded(w->size)});
    }
    ssize_t n = -1;
    do {
      n = pwritev(fd, parts.data(), int(parts.size()), off_t(batch.front()->offset));
    } while (n < 0 && errno == EINTR);
    if (n < 0) return "write failed: " + errno_text(errno);
    std::size_t done = std::size_t(n);
    for (const Region* w : batch) {  // a short write: the rest region by region
      const std::size_t span = padded(w->size);
      if (done >= span) {
        done -= span;
        continue;
      }
      for (std::size_t at = done; at < span;) {
        const ssize_t m = pwrite(fd, w->bytes.data() + at, span - at, off_t(w->offset + at));
        if (m < 0 && errno == EINTR) continue;
        if (m <= 0) return "write failed: " + errno_text(m < 0 ? errno : EIO);
        at += std::size_t(m);
      }
      done = 0;
    }
    return std::string();
  }

  // `key` and the jobs at the front of the queue whose regions follow it in the file one
  // after the other and satisfy `joins` (at most kMaxBatch regions, kMaxBatchBytes bytes),
  // taken off the queue. Call with the mutex held.
  template <class Joins>
  std::vector<std::uint64_t> adjacent_jobs(std::uint64_t key, Joins&& joins) {
    std::vector<std::uint64_t> batch{key};
    const Region& first = regions.find(key)->second;
    std::uint64_t end = first.offset + padded(first.size), bytes = padded(first.size);
    while (!jobs.empty() && batch.size() < kMaxBatch) {
      const Region& next = regions.find(jobs.front())->second;
      if (next.offset != end || bytes + padded(next.size) > kMaxBatchBytes || !joins(next)) break;
      batch.push_back(jobs.front());
      jobs.pop_front();
      end += padded(next.size);
      bytes += padded(next.size);
    }
    return batch;
  }

  void loop() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      changed.wait(lock, [this] { return !jobs.empty() || stopping; });
      if (jobs.empty()) return;
      const std::uint64_t key = jobs.front();
      jobs.pop_front();
      Region& r = regions.find(key)->second;
      if (r.phase == write_queued) {
        // This write and the queued writes of the regions right after it in the file, as one
        // (a transpose's staging regions of one round lie one after the other).
        const bool may_batch = !r.inject_failure && whole_pages(r);
        const std::vector<std::uint64_t> batch = adjacent_jobs(key, [&](const Region& next) {
          return may_batch && next.phase == write_queued && !next.inject_failure &&
                 whole_pages(next);
        });
        std::vector<Region*> written;
        for (std::uint64_t k : batch) {
          Region* w = &regions.find(k)->second;
          w->phase = writing;
          written.push_back(w);
        }
        lock.unlock();
        std::vector<std::vector<std::uint64_t>> sums;
        for (Region* w : written)
          sums.push_back(piece_checksums(w->bytes.data(), std::size_t(w->size)));
        const std::string error = written.size() == 1 ? write_region(r) : write_regions(written);
        lock.lock();
        for (std::size_t i = 0; i < written.size(); ++i) {
          Region& w = *written[i];
          --queued_writes;
          queued_bytes -= w.size;
          if (error.empty()) {
            w.checksums = std::move(sums[i]);
            w.written = true;
            w.phase = idle;
            counters.bytes_written += w.size;
            keep(std::move(w.bytes));
          } else {
            w.phase = write_failed;  // the bytes stay: take() returns them
            if (unreported.empty())
              unreported = "dash::ooc::LocalArrayFile: writing " + where(batch[i], w) +
                           " failed: " + error + " (its bytes stay in memory)";
          }
        }
      } else if (r.phase == reading) {
        // This read and the queued reads of the regions right after it in the file, as one
        // preadv (a slab's staging regions of a transpose lie one after the other).
        const std::vector<std::uint64_t> batch =
            adjacent_jobs(key, [](const Region& next) { return next.phase == reading; });
        std::vector<Region*> read;
        std::vector<dash::bp::Bytes> into;
        for (std::uint64_t k : batch) {
          read.push_back(&regions.find(k)->second);
          into.push_back(std::move(read.back()->read_into));
        }
        lock.unlock();
        std::vector<std::string> errors = read_regions(read, into);
        lock.lock();
        for (std::size_t i = 0; i < read.size(); ++i) {
          Region& w = *read[i];
          if (w.discard) {  // cancelled meanwhile: the buffer serves a later read
            w.discard = false;
            keep(std::move(into[i]));
            w.phase = idle;
          } else {
            w.bytes = std::move(into[i]);
            w.error = std::move(errors[i]);
            w.phase = read_done;
          }
        }
      }
      changed.notify_all();
    }
  }
};

LocalArrayFile::LocalArrayFile(const std::string& name,
                               const std::vector<std::pair<std::uint64_t, std::uint64_t>>& regions,
                               std::uint64_t write_behind_bytes)
    : state_(std::make_shared<State>()) {
  State& s = *state_;
  s.write_behind = write_behind_bytes;
  s.direct =
      dash::internal::read_flag_bool(dash::internal::Flag::ooc_direct, "dash::ooc::LocalArrayFile");
  s.fail_write = dash::internal::read_flag_number(dash::internal::Flag::ooc_test_fail_write,
                                                  "dash::ooc::LocalArrayFile");
  std::uint64_t offset = 0;
  s.regions.reserve(regions.size());
  for (const auto& [key, size] : regions) {
    State::Region r;
    r.offset = offset;
    r.size = size;
    if (!s.regions.emplace(key, std::move(r)).second)
      throw exception::InvalidArgument("dash::ooc::LocalArrayFile: region " + std::to_string(key) +
                                       " given twice");
    offset += s.padded(size);
    s.largest = std::max(s.largest, s.padded(size));
  }
  s.path = bp::SpillDirectory::instance().path() + "/" + name;
  bp::reserve_disk_bytes(offset, s.path);  // DASH_OOC_MAX_BYTES, with the spilled blocks
  s.disk_bytes = offset;
  s.fd = bp::spill_open(s.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | (s.direct ? O_DIRECT : 0),
                        0600);
  if (s.fd < 0) {
    const int e = errno;
    if (s.direct && e == EINVAL) bp::spill_unlink(s.path);
    bp::release_disk_bytes(s.disk_bytes);
    throw exception::RuntimeError(
        "dash::ooc::LocalArrayFile: cannot create " + s.path + ": " + errno_text(e) +
        (s.direct && e == EINVAL
             ? " (DASH_OOC_DIRECT=1, but the file system refuses O_DIRECT; tmpfs does)"
             : ""));
  }
  if (ftruncate(s.fd, off_t(offset)) != 0) {
    const int e = errno;
    close(s.fd);
    bp::spill_unlink(s.path);
    bp::release_disk_bytes(s.disk_bytes);
    throw exception::RuntimeError("dash::ooc::LocalArrayFile: cannot size " + s.path + " to " +
                                  std::to_string(offset) + " bytes: " + errno_text(e));
  }
}

LocalArrayFile::~LocalArrayFile() {
  State& s = *state_;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.stopping = true;
    s.changed.notify_all();
  }
  for (std::thread& t : s.threads)
    if (t.joinable()) t.join();
  close(s.fd);
  bp::spill_unlink(s.path);
  bp::release_disk_bytes(s.disk_bytes);
}

void LocalArrayFile::put(std::uint64_t key, dash::bp::Bytes bytes) {
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mutex);
  s.throw_unreported();
  State::Region& r = s.region(key, "put");
  if (bytes.size() != r.size)
    throw exception::InvalidArgument(
        "dash::ooc::LocalArrayFile::put: " + std::to_string(bytes.size()) + " bytes for " +
        s.where(key, r));
  // One write per region at a time; a read of it in flight finishes first.
  s.changed.wait(lock, [&] {
    return (r.phase == State::idle || r.phase == State::read_done ||
            r.phase == State::write_failed) &&
           s.write_fits(r.size);
  });
  if (key == s.part_key) s.part_key = ~std::uint64_t(0);
  r.bytes = std::move(bytes);
  r.error.clear();
  r.inject_failure = s.fail_write > 0 && ++s.puts == s.fail_write;
  r.phase = State::write_queued;
  ++s.queued_writes;
  s.queued_bytes += r.size;
  s.submit(key);
}

dash::bp::Bytes LocalArrayFile::buffer(std::size_t n) {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.buffer(n);
}

void LocalArrayFile::prefetch(std::uint64_t key) {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mutex);
  State::Region& r = s.region(key, "prefetch");
  if (r.phase == State::reading) r.discard = false;  // wanted again
  if (r.phase != State::idle || !r.written) return;
  r.read_into = s.buffer(std::size_t(r.size));
  r.phase = State::reading;
  s.submit(key);
}

void LocalArrayFile::cancel_prefetch(std::uint64_t key) {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mutex);
  State::Region& r = s.region(key, "cancel_prefetch");
  if (r.phase == State::reading) {
    r.discard = true;
  } else if (r.phase == State::read_done) {
    s.keep(std::move(r.bytes));
    r.bytes = dash::bp::Bytes();
    r.error.clear();
    r.phase = State::idle;
  }
}

dash::bp::Bytes LocalArrayFile::take(std::uint64_t key) {
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mutex);
  s.throw_unreported();
  State::Region& r = s.region(key, "take");
  r.discard = false;  // a cancelled prefetch still under way serves this take
  s.changed.wait(lock, [&] {
    return r.phase != State::write_queued && r.phase != State::writing && r.phase != State::reading;
  });
  if (r.phase == State::write_failed) return r.bytes;  // a copy: the region keeps them
  if (r.phase == State::read_done) {
    r.phase = State::idle;
    dash::bp::Bytes bytes = std::move(r.bytes);
    if (!r.error.empty())
      throw exception::RuntimeError("dash::ooc::LocalArrayFile: reading " + s.where(key, r) + ": " +
                                    r.error);
    s.counters.bytes_read += r.size;
    return bytes;
  }
  if (!r.written) return aligned_bytes(std::size_t(r.size), true);
  dash::bp::Bytes bytes = s.buffer(std::size_t(r.size));
  // An idle region changes only through put(), which no other thread calls for this key:
  // r is read without the mutex.
  lock.unlock();
  const std::string error = s.read_region(r, bytes.data());
  lock.lock();
  if (!error.empty())
    throw exception::RuntimeError("dash::ooc::LocalArrayFile: reading " + s.where(key, r) + ": " +
                                  error);
  s.counters.bytes_read += r.size;
  return bytes;
}

bool LocalArrayFile::read_part(std::uint64_t key, std::uint64_t offset, std::size_t n, char* out) {
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mutex);
  s.throw_unreported();
  State::Region& r = s.region(key, "read_part");
  if (offset > r.size || n > r.size - offset)
    throw exception::InvalidArgument("dash::ooc::LocalArrayFile::read_part: bytes " +
                                     std::to_string(offset) + " to " + std::to_string(offset + n) +
                                     " of " + s.where(key, r));
  if (n == 0) return true;
  // A read in flight finishes first; bytes waiting to be written, or read ahead, are copied.
  s.changed.wait(lock, [&] { return r.phase != State::reading; });
  if (r.phase == State::read_done && !r.error.empty())
    throw exception::RuntimeError("dash::ooc::LocalArrayFile: reading " + s.where(key, r) + ": " +
                                  r.error);
  if (r.phase != State::idle) {  // write_queued, writing, write_failed, read_done
    std::memcpy(out, r.bytes.data() + offset, n);
    return true;
  }
  if (!r.written) {
    std::memset(out, 0, n);
    return true;
  }
  const std::uint64_t first = offset / kPiece * kPiece;
  const std::size_t span = std::size_t(
      std::min<std::uint64_t>(r.size, (offset + n + kPiece - 1) / kPiece * kPiece) - first);
  if (key == s.part_key && first == s.part_first && span == s.part.size()) {
    std::memcpy(out, s.part.data() + (offset - first), n);
    return true;
  }
  dash::bp::Bytes bytes = s.buffer(span);
  lock.unlock();  // r is idle: read without the mutex, as in take()
  const std::string error = s.read_pieces(r, first, span, bytes.data());
  if (error.empty()) std::memcpy(out, bytes.data() + (offset - first), n);
  lock.lock();
  if (!error.empty())
    throw exception::RuntimeError("dash::ooc::LocalArrayFile: reading " + s.where(key, r) + ": " +
                                  error);
  s.counters.bytes_read += span;
  s.part = std::move(bytes);
  s.part_key = key, s.part_first = first;
  return true;
}

void LocalArrayFile::recycle(dash::bp::Bytes bytes) {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mutex);
  s.keep(std::move(bytes));
}

dash::bp::SpillCounters LocalArrayFile::counters() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->counters;
}

void LocalArrayFile::flush() {
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mutex);
  s.changed.wait(lock, [&] { return s.queued_writes == 0; });
  s.throw_unreported();
}

const std::string& LocalArrayFile::path() const { return state_->path; }

std::uint64_t LocalArrayFile::region_bytes(std::uint64_t key) const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->region(key, "region_bytes").size;
}

}  // namespace ooc
}  // namespace dash
