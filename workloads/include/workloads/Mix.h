// Shared workload (workloads/Mix.h): a 64-bit mixing function for the seeded data and checksums
// of the examples (blocksort, kdtree, io-bench, ooc-*), the ooc-reduce work and bench/blocks.
#ifndef WORKLOADS__MIX_H_
#define WORKLOADS__MIX_H_

#include <cstdint>

namespace examples {

// x with its bits mixed (every input bit moves every output bit): a hash of
// an index, or of a value combined into a checksum. Local.
inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ull;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dull;
  return x ^ (x >> 33);
}

}  // namespace examples

#endif  // WORKLOADS__MIX_H_
