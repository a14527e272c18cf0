// The file of dash::io::save and dash::io::load (dash/io/Save.h) and the
// two-phase engine that writes and reads it. Not public.
//
//   [0, 4096)               header: "DASHIO01", version, element type name
//                           and size, extents, the writer's pattern (text),
//                           where the data and the checksums lie, the chunk
//                           size, checksum of the header
//   [4096, 4096 + D)        the elements in row-major order of the global
//                           index space, whatever the writer's pattern
//   [4096 + D, + 8 n + 8)   one checksum per chunk of the data (n chunks of
//                           chunk_bytes, the last one shorter), then the
//                           checksum of that table
//
// Two phases: the data's chunks are dealt to aggregator units in contiguous
// file domains; round r moves chunk r of every domain. Every unit puts the
// pieces of its elements that fall into a chunk into its aggregator's buffer
// (one-sided, DART), and the aggregator writes the buffer while the next
// round fills its second buffer. Reading runs the other way: an aggregator
// reads (and checks) a chunk ahead, the units get their pieces from it.
#ifndef DASH__IO__INTERNAL__CONTAINER_FILE_H_
#define DASH__IO__INTERNAL__CONTAINER_FILE_H_

#include <dart/dart_types.h>
#include <dash/io/Pieces.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dash {
namespace io {
namespace internal {

// Most dimensions a container file describes.
constexpr int kMaxFileDims = 8;

// What a container file holds, as its header says.
struct FileLayout {
  std::string type_name;  // e.g. "float64"; see dash::io::element_name
  std::uint64_t element_size = 0;
  std::vector<std::uint64_t> extents;  // global extents, slowest first
  std::string pattern;                 // the writer's pattern, for people (not checked)
  std::uint64_t units = 0;             // units that wrote it (not checked)
  // Bytes of the elements: the product of extents times element_size.
  std::uint64_t data_bytes() const;
};

// `count` pieces of `len` bytes of the calling unit: piece k lies at
// offset + k * stride of the data and at data + k * len in memory (the
// elements of a CYCLIC pattern, or the rows of a tile, are one run).
struct Run {
  std::uint64_t offset = 0;
  char* data = nullptr;
  std::uint64_t len = 0, stride = 0, count = 1;
  std::uint64_t end() const { return offset + (count - 1) * stride + len; }
};

// Builds runs from pieces given in the order of their memory: a piece that
// continues the last one in memory and in the file lengthens it, one that
// continues it in memory at the next step of a constant stride joins it.
// Local, O(1) per piece.
class RunMerger {
 public:
  void add(std::uint64_t offset, char* data, std::uint64_t len) {
    if (len == 0) return;
    if (!runs_.empty()) {
      Run& r = runs_.back();
      if (r.count == 1 && data == r.data + r.len && offset == r.offset + r.len) {
        r.len += len;
        return;
      }
      if (len == r.len && data == r.data + r.count * r.len) {
        if (r.count == 1 && offset >= r.offset + r.len) {
          r.stride = offset - r.offset;
          r.count = 2;
          return;
        }
        if (r.count > 1 && offset == r.offset + r.count * r.stride) {
          ++r.count;
          return;
        }
      }
    }
    runs_.push_back(Run{offset, data, len, 0, 1});
  }
  std::vector<Run>& runs() { return runs_; }

 private:
  std::vector<Run> runs_;
};

// One run per piece (user pieces are checked for overlaps, not merged).
// Local.
std::vector<Run> runs_of(const std::vector<Piece>& pieces);

// Writes `layout` and the elements of every unit's `runs` (together they
// must cover the data once; in any order) to "<path>.tmp-<n>" and renames
// it to path once every aggregator's chunks are on disk: a failure leaves
// an earlier file at path as it was. Errors throw on every unit
// (RuntimeError naming the path and the cause; the failing unit its own,
// the others RemoteFailure). Collective over team.
IoReport write_container_file(const std::string& path, Team& team, const FileLayout& layout,
                              std::vector<Run> runs, const IoSettings& settings, const char* who);

// The layout a container file's header describes, checked (magic,
// version, header checksum, the file's size). RuntimeError on every unit
// for a missing, unreadable, truncated or damaged file. Collective over
// team.
FileLayout read_container_layout(const std::string& path, dart_team_t team, const char* who);

// Reads the elements of the calling unit's `runs` from the container file
// at path (each chunk checked against its checksum). Throws on every unit
// if any chunk is damaged or unreadable; the runs' memory is then
// unspecified. Collective over team.
IoReport read_container_file(const std::string& path, Team& team, std::vector<Run> runs,
                             const IoSettings& settings, const char* who);

}  // namespace internal
}  // namespace io
}  // namespace dash

#endif  // DASH__IO__INTERNAL__CONTAINER_FILE_H_
