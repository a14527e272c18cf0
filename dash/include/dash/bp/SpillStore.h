// dash::bp::SpillStore: where a Master keeps the blocks it evicted under a
// memory-block limit, as the bytes dash::bp::save made of them, by key.
//
// A Master sees only this interface. make_spill_store gives the unit's
// spill storage, also in the block layer (bp/BlockStore.h: checksummed
// extents of one file in the unit's private spill directory, written and
// read on I/O threads, dash/src/bp/store/); layers above bring their own
// stores (the out-of-core layer's local array files).
//
// | call     | cost                                                        |
// |----------|-------------------------------------------------------------|
// | put      | local; returns at once, the bytes are written behind        |
// | prefetch | local; starts reading in the background                     |
// | take     | local; waits for the bytes (no disk access if still queued) |
// | read     | local; as take, the store may keep its copy                 |
// | read_part| local; only the bytes asked for (stores that reads_parts()) |
// | put_kept | local, O(1): the kept copy is stored again                  |
// | erase    | local                                                       |
//
// A store that keeps what take() returned (keeps_taken(), e.g.
// dash::ooc::LocalArrayFile) holds a container's data: its bytes stay valid
// after take, so a block that was only read is dropped, not written back.
// Other stores may keep a copy when asked through read() (the unit's spill
// files do), with the same effect while they hold it.
#ifndef DASH__BP__SPILL_STORE_H_
#define DASH__BP__SPILL_STORE_H_

#include <dash/bp/Serialization.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace dash {
namespace bp {

// Bytes moved to and from storage by one store.
struct SpillCounters {
  std::uint64_t bytes_written = 0, bytes_read = 0;
};

class SpillStore {
 public:
  virtual ~SpillStore() = default;
  // Hands the bytes of `key` to the store (written in the background). Local.
  virtual void put(std::uint64_t key, Bytes bytes) = 0;
  // Bytes of size n (uninitialised) to fill and put(): the store's own
  // recycled memory when it has some (page aligned, so put() writes it
  // without a copy and no fresh page is touched), else new memory. Local.
  virtual Bytes buffer(std::size_t n) {
    Bytes b;
    b.resize(n);
    return b;
  }
  // Starts loading `key` in the background. Local.
  virtual void prefetch(std::uint64_t key) = 0;
  // The bytes a prefetch of `key` read (or is reading) are not wanted after
  // all: their memory goes back to the store (the key stays; a later take
  // reads it again). Nothing for a store that reads nothing ahead. Local.
  virtual void cancel_prefetch(std::uint64_t) {}
  // The bytes of `key`, verified, removed from the store; errors of its
  // background write or read surface here. Local, waits.
  virtual Bytes take(std::uint64_t key) = 0;
  // The bytes of `key`, verified, as take() gives them; but a store that can
  // keeps its copy (until the next put or erase of `key`) and sets `kept`, so
  // a block that was only read can later be dropped instead of written
  // again. Local, waits.
  virtual Bytes read(std::uint64_t key, bool& kept) {
    kept = keeps_taken();
    return take(key);
  }
  // As put() of the bytes read() returned for `key` (and which did not
  // change), without writing them: the copy read() kept becomes the key's
  // bytes again. False if the store has dropped that copy meanwhile (a
  // store may, to stay within its quota): put() them then. Local.
  virtual bool put_kept(std::uint64_t /*key*/) { return keeps_taken(); }
  // Copies bytes [offset, offset + n) of `key` into `out` without taking the rest: read from
  // the file and verified, or copied from bytes waiting to be written or read ahead; true.
  // False (nothing done) if the store cannot read parts (reads_parts()). Local, waits.
  virtual bool read_part(std::uint64_t /*key*/, std::uint64_t /*offset*/, std::size_t /*n*/,
                         char* /*out*/) {
    return false;
  }
  // Whether read_part works: the store keeps its bytes in place (a container's file). Local.
  virtual bool reads_parts() const { return false; }
  // Gives back bytes that take() returned, once read, for a later take. Local.
  virtual void recycle(Bytes bytes) = 0;
  // Drops `key`. Local.
  virtual void erase(std::uint64_t key) = 0;
  // Bytes written and read so far. Local.
  virtual SpillCounters counters() const = 0;
  // True if take() leaves the bytes in the store (a container's local array
  // file): a block taken and not changed can then be dropped, not written
  // back. Local.
  virtual bool keeps_taken() const { return false; }
  // Waits until every write handed over is stored; throws the first write
  // error not yet reported. Local.
  virtual void flush() {}
};

// A store named `name` in the calling unit's spill directory (DASH_OOC_DIR).
// Local; creates the directory on first use.
std::unique_ptr<SpillStore> make_spill_store(const std::string& name);

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__SPILL_STORE_H_
