// The checksum of out-of-core files (not public).
#ifndef DASH__SRC__OOC__CHECKSUM_H_
#define DASH__SRC__OOC__CHECKSUM_H_

#include <cstddef>
#include <cstdint>

namespace dash {
namespace ooc {
namespace detail {

// A 64-bit checksum of n bytes: four multiply-rotate lanes over 8-byte
// words, then the tail; fast enough not to slow the device down (10 GB/s,
// 17 on AVX-512 machines, which run a clone of it). The value is part of
// file formats (saved containers): every clone gives the same. Local.
std::uint64_t checksum64(const char* data, std::size_t n);

}  // namespace detail
}  // namespace ooc
}  // namespace dash

#endif  // DASH__SRC__OOC__CHECKSUM_H_
