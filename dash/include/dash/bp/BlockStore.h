// dash::bp::BlockStore: bytes by key in the unit's spill directory, each
// key a checksummed extent of the unit's one spill file, written and read
// on two background I/O threads (a write and a read reach the device
// together). Part of the block layer: the store behind
// dash::bp::make_spill_store (bp/SpillStore.h), where a Master with a
// memory-block limit keeps its evicted blocks; the out-of-core layer's
// local array files share its spill directory and quota. The out-of-core
// layer's old header of the same name still calls it dash::ooc::BlockStore.
//
//   put(key, bytes):  the bytes wait in a queue; an I/O thread writes them
//                     into an extent of "<dir>/blocks" (mode 0600; whole
//                     pages, reused from freed ones where one fits): the
//                     bytes, then a trailer (magic, key, size, checksum of
//                     the bytes), and frees them
//   prefetch(key):    an I/O thread reads the extent into a buffer that
//                     becomes the bytes (no copy)
//   take(key):        the bytes of a write still queued come back without
//                     touching the disk; otherwise the prefetched (or now
//                     read) extent is checked (trailer, size, checksum) and
//                     its bytes returned; the extent is freed
//   read(key, kept):  as take, but an extent read stays the key's (kept =
//                     true) until the next put or erase of the key, so an
//                     unchanged block needs no new write; a write still
//                     queued or under way is let finish and its bytes are
//                     handed back (no read). Kept extents count against
//                     DASH_OOC_MAX_BYTES and are the first to go (after
//                     held free extents) when a put needs the room
//   put_kept(key):    the kept extent is the key's stored bytes again (the
//                     caller drops its unchanged copy instead of a put)
//
// One file for every store and key (dash/src/bp/store/SpillExtents.h): no file is made,
// renamed or removed per key, which on ext4 (inode allocation, directory
// updates) had made ooc-reduce's all-to-all much slower than on tmpfs
// (figures:
// bench/results/design_measurements.md#spill-extents-one-file-per-unit-instead-of-one-per-key). A
// freed extent keeps its disk blocks for the next write (up to 1 GiB per unit; beyond that, or when
// DASH_OOC_MAX_BYTES needs the room, they are given back by punching holes); they count against
// DASH_OOC_MAX_BYTES and go with the spill directory.
//
// Errors (dash::exception::RuntimeError naming the file, the extent, the key
// and the cause): an extent cut short or whose trailer or checksum differs, at take; a
// write that fails (full disk, I/O error), at the next put or flush of any
// store; the bytes of that key stay in memory and take() still returns them,
// so nothing is lost. DASH_OOC_MAX_BYTES caps the bytes on disk of all stores
// of the unit (a put beyond it throws, and the caller keeps its data).
// DASH_OOC_DIRECT=1 opens the files with O_DIRECT (page-aligned buffers and
// sizes), so reads and writes reach the device, not the page cache. A store
// reads these flags when it is made. Writes wait in memory behind the
// caller: one, queued or being written, for the whole unit (put waits for
// it), so the block in use, the one read ahead and the one written back are
// what a memory-block limit of one block costs in blocks' buffers.
//
// | call         | cost                                                   |
// |--------------|--------------------------------------------------------|
// | put          | local; O(log extents), the write on an I/O thread      |
// | prefetch     | local; O(1), the read happens on an I/O thread         |
// | take         | local; waits for the read (or reads), checksums        |
// | read         | local; as take, keeps the file (waits for its write)   |
// | put_kept     | local, O(1)                                            |
// | erase        | local; frees the extent (or drops the queued write)    |
// | buffer       | local; waits for the write behind, recycles its buffer |
// | recycle      | local; keeps one buffer for later I/O                  |
// | flush        | local; waits until every queued write is on disk       |
#ifndef DASH__BP__BLOCK_STORE_H_
#define DASH__BP__BLOCK_STORE_H_

#include <dash/bp/Serialization.h>

#include <boost/container/flat_map.hpp>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace dash {
namespace bp {

// Bytes and files one store moved.
struct StoreStats {
  std::uint64_t bytes_written = 0, bytes_read = 0, files_written = 0, files_read = 0;
};

class BlockStore {
 public:
  // A store named `name` (in messages) whose keys are extents of "<spill directory>/blocks".
  // Local; makes the spill directory on first use.
  explicit BlockStore(std::string name);
  // Frees the store's extents (after its queued I/O). Local.
  ~BlockStore();
  BlockStore(const BlockStore&) = delete;
  BlockStore& operator=(const BlockStore&) = delete;

  // Hands `bytes` to the store under `key` (replacing what it held). Local.
  void put(std::uint64_t key, Bytes bytes);
  // Bytes of size n (uninitialised) to fill and put: a recycled page-aligned
  // buffer with room for the file's padding and trailer, so put() writes it
  // in place (no copy, no fresh pages); a new one if none fits. Waits first
  // for the unit's write behind (as put() would), whose buffer it then
  // reuses: one buffer of written-back bytes per unit, not two. Local.
  Bytes buffer(std::size_t n);
  // Starts reading `key` in the background. Local.
  void prefetch(std::uint64_t key);
  // A prefetch of `key` not wanted any more: its buffer is recycled, the
  // file stays the key's. Local.
  void cancel_prefetch(std::uint64_t key);
  // The bytes of `key`, checked; the key leaves the store. Local.
  Bytes take(std::uint64_t key);
  // The bytes of `key`, checked, as take() returns them; if they came from
  // the file, the file stays the key's (kept: true) until the next put or
  // erase of it, or until a put needs its room under DASH_OOC_MAX_BYTES.
  // Local.
  Bytes read(std::uint64_t key, bool& kept);
  // The file read() kept for `key` is the key's again, as after a put of the
  // same bytes (no longer dropped for room); false if it was dropped. Local.
  bool put_kept(std::uint64_t key);
  // Gives back bytes that take() returned, once read: their memory serves a
  // later read (a fresh buffer of many MiB costs a page fault per 4 KiB).
  // Local.
  void recycle(Bytes bytes);
  // Whether the store holds `key`. Local.
  bool contains(std::uint64_t key) const;
  // Drops `key`. Local.
  void erase(std::uint64_t key);
  // Waits until every queued write of this store is on disk; throws the
  // first write error not yet reported. Local.
  void flush();
  // The file `key`'s bytes are in (the unit's one spill extents file, for every key). Local.
  std::string path_of(std::uint64_t key) const;
  // Where `key`'s extent starts in that file: its bytes, then the trailer (InvalidArgument as
  // take for a key not in the store). Local.
  std::uint64_t offset_of(std::uint64_t key) const;
  StoreStats stats() const;

  struct Entry;     // one key's state (dash/src/bp/store/BlockStore.cc)
  struct Settings;  // the flags, read when the store is made (dash/src/bp/store/BlockStore.cc)

 private:
  std::shared_ptr<Entry> find(std::uint64_t key) const;
  // Drops kept extents (read() and not put_kept since) of this store, as
  // held free extents, until `needed` more bytes fit DASH_OOC_MAX_BYTES beside
  // the stored ones. Call with the engine's mutex held.
  void drop_kept_files(std::uint64_t needed);

  // Throws for a key not in the store: the damage found in its file, if that is why (a later
  // read or take of the key says the same, whoever asks first), else InvalidArgument "no key".
  // Call with mutex_ held.
  [[noreturn]] void throw_missing(const char* call, std::uint64_t key) const;

  std::string name_;       // for messages
  std::string directory_;  // the spill directory when the store was made
  mutable std::mutex mutex_;
  // By key, sorted in one array: lookups (prefetch, take, contains) outnumber
  // inserts (a put of a new key) and erases (take), which move at most a few
  // thousand 24-byte entries against the file each of them reads or writes.
  boost::container::flat_map<std::uint64_t, std::shared_ptr<Entry>> entries_;
  // Keys whose file was found damaged, with the message; until the key is put or erased.
  boost::container::flat_map<std::uint64_t, std::string> damaged_;
  std::shared_ptr<StoreStats> stats_;
  std::shared_ptr<const Settings> settings_;
  std::uint64_t puts_ = 0;
};

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__BLOCK_STORE_H_
