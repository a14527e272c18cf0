// Files of dash::bp::save's earlier format ("DASHBP01"), still read by
// dash::bp::load (nothing writes them any more):
//
//   [0, 64)             header: "DASHBP01", version 1, block count, where
//                       the index starts, 0, checksum of these 40 bytes
//   [64, index)         block records
//   [index, +32 B)      per block in gid order: gid, offset, bytes,
//                       checksum of the record
//   [+32 B, +8)         checksum of the index
#ifndef DASH__SRC__IO__LEGACY_BLOCK_FILE_H_
#define DASH__SRC__IO__LEGACY_BLOCK_FILE_H_

#include <dart/dart_io.h>
#include <dart/dart_types.h>
#include <dash/bp/Serialization.h>

#include <cstdint>
#include <string>
#include <vector>

namespace dash {
namespace io {
namespace internal {

// The first eight bytes of such a file.
constexpr char kLegacyBlockMagic[8] = {'D', 'A', 'S', 'H', 'B', 'P', '0', '1'};

// One block's entry in the index.
struct LegacyBlockRecord {
  std::uint64_t gid = 0, offset = 0, bytes = 0, checksum = 0;
};

// An open file of the earlier format, its header and index checked.
class LegacyBlockFile {
 public:
  // Opens path and reads the header and the index (every unit the same
  // bytes: the same verdict everywhere). RuntimeError for a missing,
  // unreadable, truncated or damaged file, InvalidArgument for one of
  // another block count. Collective over team (the open).
  LegacyBlockFile(const std::string& path, dart_team_t team, int nblocks, const char* who);
  ~LegacyBlockFile();
  LegacyBlockFile(const LegacyBlockFile&) = delete;
  LegacyBlockFile& operator=(const LegacyBlockFile&) = delete;
  // The index entry of block gid. Local.
  const LegacyBlockRecord& record(int gid) const { return index_.at(std::size_t(gid)); }
  // Reads block gid's record into `into` and checks its checksum;
  // RuntimeError naming the block if it is damaged. Local (an independent
  // read).
  void read(int gid, dash::bp::MemoryBuffer& into);

 private:
  std::string path_, who_;
  dart_file_t file_ = nullptr;
  std::vector<LegacyBlockRecord> index_;
};

}  // namespace internal
}  // namespace io
}  // namespace dash

#endif  // DASH__SRC__IO__LEGACY_BLOCK_FILE_H_
