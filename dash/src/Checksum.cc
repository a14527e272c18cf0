// The checksums of the library's files, with a clone for AVX-512.
#include "Checksum.h"

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
#define DASH_SPILL_CRC32C 1
#endif

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
namespace internal {

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

#ifdef DASH_SPILL_CRC32C
namespace {

// CRC32C of three equal stripes at once (the instruction's latency is three cycles, its
// throughput one per cycle), the rest in the first lane; the lanes and the length mixed into
// 64 bits.
__attribute__((target("sse4.2"))) std::uint64_t crc32c_three_lanes(const char* data,
                                                                   std::size_t n) {
  const std::size_t stripe = n / 24 * 8;
  std::uint64_t a = 0xffffffffull, b = 0xffffffffull, c = 0xffffffffull;  // 32-bit CRCs
  const char* second = data + stripe;
  const char* third = data + 2 * stripe;
  for (std::size_t i = 0; i < stripe; i += 8) {
    std::uint64_t x, y, z;
    std::memcpy(&x, data + i, 8);
    std::memcpy(&y, second + i, 8);
    std::memcpy(&z, third + i, 8);
    a = _mm_crc32_u64(a, x);
    b = _mm_crc32_u64(b, y);
    c = _mm_crc32_u64(c, z);
  }
  std::size_t i = 3 * stripe;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x;
    std::memcpy(&x, data + i, 8);
    a = _mm_crc32_u64(a, x);
  }
  for (; i < n; ++i) a = _mm_crc32_u8(std::uint32_t(a), std::uint8_t(data[i]));
  std::uint64_t h = (a << 32 | b) ^ (c * 0x9e3779b185ebca87ull) ^ n;
  h ^= h >> 31;
  h *= 0xc2b2ae3d27d4eb4full;
  return h ^ (h >> 29);
}

}  // namespace
#endif

std::uint64_t spill_checksum(const char* data, std::size_t n) {
#ifdef DASH_SPILL_CRC32C
  static const bool crc32c = __builtin_cpu_supports("sse4.2");
  if (crc32c) return crc32c_three_lanes(data, n);
#endif
  return checksum64(data, n);
}

}  // namespace internal
}  // namespace dash
