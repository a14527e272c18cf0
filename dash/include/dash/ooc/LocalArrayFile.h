// dash::ooc::LocalArrayFile: the calling unit's part of an out-of-core
// container, one file in the unit's spill directory, cut into regions
// (slabs) that move between the file and memory as a whole.
//
//   file "<spill dir>/<name>" (0600): region after region, each the bytes
//     of one slab (for dash::ooc::Matrix: its elements, row-major); made
//     sparse (all zero) by the constructor
//   put(key, bytes):  the bytes wait in a queue, one of the file's two I/O
//                     threads (a write-back and the next read overlap)
//                     writes them at the region's offset (pwrite) and
//                     records their checksums, one per 64 KiB (in memory;
//                     the file holds only the data)
//   prefetch(key):    an I/O thread reads the region into a page-aligned
//                     buffer
//   take(key):        the region's bytes (prefetched, or read now),
//                     checked against the recorded checksum; the region
//                     keeps them (keeps_taken()), so a slab that was only
//                     read need not be written back. A region never
//                     written is zero and costs no read.
//   read_part(key, offset, n, out):
//                     only those bytes of the region: the 64 KiB pieces
//                     they touch are read and checked (a checksum per
//                     piece), e.g. a slab's boundary rows for its
//                     neighbours' halos
//
// Errors (dash::exception::RuntimeError naming the path, the region, its
// offset and the cause): a region whose bytes no longer match their
// checksum or that the file cut short, at take; a failed write, at the next
// put, take or flush; the bytes of that write stay in memory and take()
// returns them, so nothing is lost. One write per file waits or runs at a
// time (put waits for the one before; or as many as the constructor's
// write-behind bytes allow): a caller that holds one region's
// bytes and reads the next one ahead has three regions' buffers in memory.
// Bytes read and written are counted. DASH_OOC_DIRECT=1 (read when the file
// is made) opens it with O_DIRECT: regions start at page offsets and move
// as whole pages, the device, not the page cache.
//
// | call         | cost                                                   |
// |--------------|--------------------------------------------------------|
// | constructor  | local; creates and sizes the file (no data written)    |
// | put          | local; the write happens on an I/O thread              |
// | prefetch     | local; the read happens on an I/O thread               |
// | take         | local; waits for the read (or reads), checksums        |
// | read_part    | local; reads the pieces holding the bytes, checksums   |
// | flush        | local; waits until every queued write is in the file   |
// | destructor   | local; finishes queued writes, removes the file        |
#ifndef DASH__OOC__LOCAL_ARRAY_FILE_H_
#define DASH__OOC__LOCAL_ARRAY_FILE_H_

#include <dash/bp/SpillStore.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dash {
namespace ooc {

class LocalArrayFile final : public dash::bp::SpillStore {
 public:
  // One region per (key, bytes) pair, laid out in that order; keys unique.
  // write_behind_bytes: puts queue behind the caller while the queued bytes
  // stay within it (for many small regions, e.g. a transpose's staging);
  // 0: one write at a time. Throws InvalidArgument for a repeated key,
  // RuntimeError naming the path if the file cannot be made. Local.
  LocalArrayFile(const std::string& name,
                 const std::vector<std::pair<std::uint64_t, std::uint64_t>>& regions,
                 std::uint64_t write_behind_bytes = 0);
  // Finishes queued writes and removes the file. Local.
  ~LocalArrayFile() override;
  LocalArrayFile(const LocalArrayFile&) = delete;
  LocalArrayFile& operator=(const LocalArrayFile&) = delete;

  // Writes `bytes` (exactly the region's size) into region `key`, behind
  // the caller. Local.
  void put(std::uint64_t key, dash::bp::Bytes bytes) override;
  // A buffer of n bytes (uninitialised) to fill and put: page aligned and
  // recycled from earlier reads and writes, so a put needs no copy and no
  // fresh pages (a page fault per 4 KiB). Local.
  dash::bp::Bytes buffer(std::size_t n) override;
  // Starts reading region `key`. Local.
  void prefetch(std::uint64_t key) override;
  // A prefetch of region `key` not wanted any more: its buffer goes back to
  // the file's recycled ones. Local.
  void cancel_prefetch(std::uint64_t key) override;
  // Region `key`'s bytes, checked. Local, waits.
  dash::bp::Bytes take(std::uint64_t key) override;
  // Bytes [offset, offset + n) of region `key` into `out`: only the 64 KiB pieces of the file
  // they touch are read and checked (each piece has its checksum); bytes still queued for
  // writing or read ahead are copied. Throws as take() does. Local, waits.
  bool read_part(std::uint64_t key, std::uint64_t offset, std::size_t n, char* out) override;
  bool reads_parts() const override { return true; }
  // Keeps a buffer take() returned for a later read. Local.
  void recycle(dash::bp::Bytes bytes) override;
  // Nothing: a region belongs to the container, not to the block. Local.
  void erase(std::uint64_t) override {}
  dash::bp::SpillCounters counters() const override;
  bool keeps_taken() const override { return true; }

  // Waits until every queued write is in the file; throws the first write
  // error not yet reported. Local.
  void flush() override;
  // The file's path, the size of region `key`. Local.
  const std::string& path() const;
  std::uint64_t region_bytes(std::uint64_t key) const;

  struct State;  // regions, queue and I/O threads (LocalArrayFile.cc)

 private:
  std::shared_ptr<State> state_;
};

}  // namespace ooc
}  // namespace dash

#endif  // DASH__OOC__LOCAL_ARRAY_FILE_H_
