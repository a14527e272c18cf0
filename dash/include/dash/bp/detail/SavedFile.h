// The file of dash::bp::save and dash::bp::load (SaveLoad.h): its layout,
// writing it in collective rounds under a temporary name, and reading and
// checking it. Not public.
//
//   [0, 64)             header: "DASHBP01", version 1, block count, where
//                       the index starts, 0, checksum of these 40 bytes
//   [64, index)         block records, each unit's batches where the
//                       round's offsets put them
//   [index, +32 B)      per block in gid order: gid, offset, bytes,
//                       checksum of the record
//   [+32 B, +8)         checksum of the index
#ifndef DASH__BP__DETAIL__SAVED_FILE_H_
#define DASH__BP__DETAIL__SAVED_FILE_H_

#include <dart/dart_io.h>
#include <dart/dart_types.h>
#include <dash/bp/Serialization.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dash {
namespace bp {
namespace detail {

// Where a block's record lies in the file.
struct SavedRecord {
  std::uint64_t gid = 0, offset = 0, bytes = 0, checksum = 0;
};

// A 64-bit checksum of n bytes (the out-of-core files' one). Local.
std::uint64_t saved_checksum(const char* data, std::size_t n);

// Writes a file of `nblocks` block records as "<path>.tmp" and renames it to
// path when finished (an earlier file at path stays until then). Errors
// throw dash::exception::RuntimeError on every unit. Collective over team.
class SavedFileWriter {
 public:
  SavedFileWriter(const std::string& path, dart_team_t team, int nblocks);
  // Closes and removes the temporary file if finish() was not reached. Collective.
  ~SavedFileWriter();
  SavedFileWriter(const SavedFileWriter&) = delete;
  SavedFileWriter& operator=(const SavedFileWriter&) = delete;

  // Writes the calling unit's records `bytes` (records[i] says which gid
  // and how many bytes, one after the other) in one collective round; a
  // unit with nothing left passes none. Returns whether any unit wrote
  // anything. Collective.
  bool write_round(const char* bytes, const std::vector<SavedRecord>& records);
  // Writes the index and the header, syncs, closes and renames. Collective.
  void finish();

 private:
  std::string path_, temporary_;
  dart_team_t team_;
  int nblocks_, me_ = 0, units_ = 1;
  dart_file_t file_ = nullptr;
  std::uint64_t end_ = 64;  // where the next round's records start
  std::vector<SavedRecord> mine_;
};

// Opens and checks a saved file (header, index and its checksum, the file's
// size) for reading its records. Errors throw on every unit: InvalidArgument
// for a file of another block count, RuntimeError for a missing, truncated
// or damaged file. Collective over team.
class SavedFileReader {
 public:
  SavedFileReader(const std::string& path, dart_team_t team, int nblocks);
  // Closes the file. Collective.
  ~SavedFileReader();
  SavedFileReader(const SavedFileReader&) = delete;
  SavedFileReader& operator=(const SavedFileReader&) = delete;

  // Block gid's record, read into `into` (its bytes replaced, read from the
  // start) and checked (its size and checksum); throws RuntimeError (this
  // unit only) if it differs. Local.
  void read(int gid, MemoryBuffer& into);

 private:
  std::string path_;
  dart_file_t file_ = nullptr;
  std::vector<SavedRecord> index_;
};

}  // namespace detail
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__DETAIL__SAVED_FILE_H_
