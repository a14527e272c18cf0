// The checksums of the library's files (not public): saved containers and checkpoints
// (dash::bp::save, dash::io::save) and the files a process writes and reads back itself
// (out-of-core spills and local array files).
#ifndef DASH__SRC__CHECKSUM_H_
#define DASH__SRC__CHECKSUM_H_

#include <cstddef>
#include <cstdint>

namespace dash {
namespace internal {

// A 64-bit checksum of n bytes: four multiply-rotate lanes over 8-byte
// words, then the tail (bench/ooc BM_checksum; AVX-512 machines run a clone
// of it). The value is part of file formats (saved containers): every clone
// gives the same. Local.
std::uint64_t checksum64(const char* data, std::size_t n);

// The checksum of bytes a process writes to its own files and reads back
// itself (spill files, local array files; never saved containers): CRC32C
// in three interleaved lanes where the CPU has the instruction (x86-64 with
// SSE4.2: several times checksum64's speed; figures:
// bench/results/design_measurements.md#spill-checksum-crc32c-where-the-cpu-has-it), else
// checksum64. Its values may differ between machines, so they never leave the process. Local.
std::uint64_t spill_checksum(const char* data, std::size_t n);

}  // namespace internal
}  // namespace dash

#endif  // DASH__SRC__CHECKSUM_H_
