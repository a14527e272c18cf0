// The parts of a container file (the layout in dash/io/internal/ContainerFile.h)
// that its two writers share, dash::io::save (ContainerFile.cc) and
// dash::bp::save (BlockFile.cc): the header, the checksum table, and the
// file opened for reads of the caller's own.
#ifndef DASH__SRC__IO__CONTAINER_FORMAT_H_
#define DASH__SRC__IO__CONTAINER_FORMAT_H_

#include <dart/dart_types.h>
#include <dash/io/internal/ContainerFile.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/PartedFile.h"

namespace dash {
namespace io {
namespace internal {

// Where a container file's data start: its header takes the bytes before.
constexpr std::uint64_t kContainerHeaderBytes = 4096;

// The header (kContainerHeaderBytes bytes, checksummed) of a file of
// `layout` whose data_bytes are cut into nchunks chunks of `chunk` bytes,
// written by `units` units. Local.
std::vector<char> container_head(const FileLayout& layout, std::uint64_t data_bytes,
                                 std::uint64_t chunk, std::uint64_t nchunks, std::uint64_t units);

// The layout a container file's header describes, checked as by
// read_container_layout, and the file's parts (a single file, or those a
// subfile table names) for reads of its own, on every unit. Collective over
// team: unit 0 reads the header, broadcasts.
FileLayout open_container(const std::string& path, dart_team_t team, std::vector<FilePart>& parts,
                          const char* who);

// The checksum table that follows the data: the chunks' checksums, then the
// checksum of those. Local.
std::vector<char> container_tail(std::vector<std::uint64_t> sums);

}  // namespace internal
}  // namespace io
}  // namespace dash

#endif  // DASH__SRC__IO__CONTAINER_FORMAT_H_
