// The checksum of out-of-core and saved files, with a clone for AVX-512.
#include "ooc/Checksum.h"

#include <cstring>

// GCC and Clang on x86-64 build an AVX-512 clone (its 64-bit multiplies
// vectorise the four lanes) next to the baseline one and pick one when the
// program loads.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define DASH_CHECKSUM_CLONES __attribute__((target_clones("arch=x86-64-v4", "default")))
#else
#define DASH_CHECKSUM_CLONES
#endif

namespace dash {
namespace ooc {
namespace detail {

DASH_CHECKSUM_CLONES std::uint64_t checksum64(const char* data, std::size_t n) {
  constexpr std::uint64_t kPrime1 = 0x9e3779b185ebca87ull, kPrime2 = 0xc2b2ae3d27d4eb4full;
  auto round = [](std::uint64_t acc, std::uint64_t word) {
    acc += word * kPrime2;
    acc = (acc << 31) | (acc >> 33);
    return acc * kPrime1;
  };
  std::uint64_t lane[4] = {kPrime1, kPrime2, ~kPrime1, ~kPrime2};
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int k = 0; k < 4; ++k) {
      std::uint64_t w;
      std::memcpy(&w, data + i + 8 * k, 8);
      lane[k] = round(lane[k], w);
    }
  std::uint64_t h = lane[0] ^ (lane[1] << 1) ^ (lane[2] << 2) ^ (lane[3] << 3) ^ n;
  for (; i < n; ++i) h = round(h, std::uint8_t(data[i]));
  h ^= h >> 29;
  h *= kPrime1;
  return h ^ (h >> 32);
}

}  // namespace detail
}  // namespace ooc
}  // namespace dash
