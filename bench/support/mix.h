// A 64-bit mixing function for the benchmarks' seeded data.
#ifndef DASH_BENCH_SUPPORT_MIX_H_
#define DASH_BENCH_SUPPORT_MIX_H_

#include <cstdint>

namespace bench {

// x with its bits mixed (every input bit moves every output bit). Local.
inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ull;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dull;
  return x ^ (x >> 33);
}

}  // namespace bench

#endif  // DASH_BENCH_SUPPORT_MIX_H_
