// The file of dash::bp::save and dash::bp::load (dash/io/SaveBlocks.h): a
// container file of dash::io (dash/io/internal/ContainerFile.h: its header,
// chunk checksums, temporary name and rename) whose data are the blocks'
// records, written and read by the two-phase engine. Not public.
//
//   header                  element type "dash::bp::blocks", element size 1,
//                           extents {data bytes}, the writer's unit count
//   data [0, 16 + 32 n)     the index: n (the block count), then per block
//                           in gid order its gid, the offset of its record
//                           in the data, the record's bytes and checksum,
//                           then the checksum of those
//   data [16 + 32 n, ...)   the records (links, block, unread queues), in
//                           rounds: round r holds every unit's r-th batch,
//                           unit by unit; round r > 0 starts at a multiple
//                           of the chunk (zeros in between), so that every
//                           round writes whole chunks and the file keeps
//                           one checksum per chunk
//
// A load reads the index (unit 0, checked against its checksum, and
// broadcast), then each unit its own records with independent reads, each
// checked against its checksum in the index: a load reads what it needs,
// not the whole file (the chunk checksums are there for readers of the
// whole data).
//
// Files of the earlier format ("DASHBP01": a 64-byte header, the records,
// an index with a checksum per record, written through dart_file_*) are
// still read; nothing writes them any more.
#ifndef DASH__IO__INTERNAL__BLOCK_FILE_H_
#define DASH__IO__INTERNAL__BLOCK_FILE_H_

#include <dash/Team.h>
#include <dash/bp/Serialization.h>
#include <dash/internal/Failure.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dash {
namespace io {
namespace internal {

// The element type name a block file's header gives.
constexpr const char* kBlockFileType = "dash::bp::blocks";

// Where a block's record lies in a block file's data, and its checksum.
struct BlockRecord {
  std::uint64_t gid = 0, offset = 0, bytes = 0, checksum = 0;
};

// The checksum of a record (the out-of-core files' 64-bit one). Local.
std::uint64_t record_checksum(const char* data, std::size_t n);

// Records of these sizes cut into batches: a record joins the batch while
// the batch holds fewer than round_bytes (so at least one record each);
// batch b is records [cuts[b], cuts[b + 1]). Local.
std::vector<std::size_t> batch_cuts(const std::vector<std::uint64_t>& sizes,
                                    std::size_t round_bytes);

// Writes a block file in rounds (one per batch; every unit takes part in
// every round) under a temporary name and puts it at path on commit();
// until then, and if anything fails, an earlier file at path stays as it
// was and the temporary goes when the object does.
class BlockFileWriter {
 public:
  // gids, sizes and sums (record_checksum): the calling unit's records in
  // the order it gives them; cuts: its batches (batch_cuts). Checks the
  // target and creates the temporary; InvalidArgument on every unit if a
  // block is held by no unit or by several. Collective over team: an allreduce, an allgather of the
  // batch sizes, the engine's set-up; throws on every unit.
  BlockFileWriter(const std::string& path, Team& team, int nblocks,
                  const std::vector<std::uint64_t>& gids, const std::vector<std::uint64_t>& sizes,
                  const std::vector<std::uint64_t>& sums, std::vector<std::size_t> cuts,
                  const char* who);
  ~BlockFileWriter();
  BlockFileWriter(const BlockFileWriter&) = delete;
  BlockFileWriter& operator=(const BlockFileWriter&) = delete;

  // Rounds every unit takes part in (the largest batch count of any unit).
  int rounds() const;
  // The calling unit's records of round r: [first, second) of its list
  // (empty beyond its batches). Local.
  std::pair<std::size_t, std::size_t> records_of(int r) const;
  // Writes round r: `bytes` holds the calling unit's records of the round,
  // one after the other (n bytes; they must be the bytes given at
  // construction: sizes and, after the first round, checksums are
  // compared). Agrees on `failure` first (throws on every unit if any unit
  // failed). Collective: the engine's rounds for the round's bytes.
  void write_round(int r, const char* bytes, std::size_t n, dash::internal::Failure& failure);
  // Writes the checksums and the header, syncs, renames the file to path.
  // Collective; throws on every unit.
  void commit();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Reads a block file (either format) checked: the header and the index when
// made, the records of each unit's blocks in rounds.
class BlockFileReader {
 public:
  // Opens path and reads its index (every unit). Throws on every unit:
  // RuntimeError for a missing, unreadable, truncated or damaged file or one
  // that dash::bp::save did not write, InvalidArgument for a file of another
  // block count than nblocks. Collective over team.
  BlockFileReader(const std::string& path, Team& team, int nblocks, const char* who);
  ~BlockFileReader();
  BlockFileReader(const BlockFileReader&) = delete;
  BlockFileReader& operator=(const BlockFileReader&) = delete;

  // The calling unit's gids cut into batches of at most round_bytes of
  // records (at least one each), and how many rounds every unit makes (the
  // largest batch count). Collective: an allreduce.
  std::vector<std::size_t> batches(const std::vector<int>& gids, std::size_t round_bytes,
                                   int& rounds);
  // Reads the records of `gids` (possibly none), record k into into[k]
  // (resized), each checked against its checksum. Throws on every unit if
  // any unit's read failed (RuntimeError naming the damaged block).
  // Independent reads, then an agreement: collective (call it as often on
  // every unit).
  void read(const std::vector<int>& gids, std::vector<dash::bp::MemoryBuffer>& into);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace internal
}  // namespace io
}  // namespace dash

#endif  // DASH__IO__INTERNAL__BLOCK_FILE_H_
