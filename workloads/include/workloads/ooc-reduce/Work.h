// Shared workload (workloads/ooc-reduce/Work.h): the work of examples/ooc-reduce apart from the
// library that runs it: the blocks' seeded bytes, the alltoall's destinations, the swap's slices
// and the checksum's hash. Also used by bench/diy/ooc_reduce_diy.cc (the DIY port), so that
// both programs do the same work by construction.
#ifndef WORKLOADS__OOC_REDUCE__WORK_H_
#define WORKLOADS__OOC_REDUCE__WORK_H_

#include <workloads/Mix.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace examples {
namespace ooc_reduce {

// Block gid's n bytes for `seed`. Local.
inline std::vector<std::uint8_t> seeded_bytes(std::uint64_t seed, int gid, std::size_t n) {
  std::vector<std::uint8_t> bytes(n);
  for (std::size_t w = 0; w < n; w += 8) {
    const std::uint64_t r = mix64(seed * 0x9e3779b97f4a7c15ull + std::uint64_t(gid) * n + w);
    for (std::size_t i = 0; i < 8 && w + i < n; ++i) bytes[w + i] = std::uint8_t(r >> (8 * i));
  }
  return bytes;
}

// alltoall: the block, of nblocks, that item `id` goes to. Local.
inline std::uint64_t destination(std::uint64_t id, std::uint64_t seed, int nblocks) {
  return mix64(id * 0x9e3779b97f4a7c15ull ^ seed) % std::uint64_t(nblocks);
}

// Part j of m of the items [begin, end). Local.
inline std::pair<std::uint64_t, std::uint64_t> part(std::uint64_t begin, std::uint64_t end,
                                                    std::size_t j, std::size_t m) {
  const std::uint64_t n = end - begin;
  return {begin + n * j / m, begin + n * (j + 1) / m};
}

// dst[i] += src[i] (mod 256). Local. Eight bytes at a time in a 64-bit word (the low seven
// bits of each byte added, the top bits by xor, so no carry crosses a byte): a byte loop is
// left scalar at -O2, and its speed then swung by 1.3 x between builds with the placement of
// its code.
inline void add_bytes(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
  constexpr std::uint64_t kHigh = 0x8080808080808080ull;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t a, b;
    std::memcpy(&a, dst + i, 8);
    std::memcpy(&b, src + i, 8);
    const std::uint64_t sum = ((a & ~kHigh) + (b & ~kHigh)) ^ ((a ^ b) & kHigh);
    std::memcpy(dst + i, &sum, 8);
  }
  for (; i < n; ++i) dst[i] = std::uint8_t(dst[i] + src[i]);
}

// Hash of item `index` with its bytes; summed over items for the checksum. Local.
inline std::uint64_t item_hash(std::uint64_t index, const std::uint8_t* item, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull ^ mix64(index + 1);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ item[i]) * 0x100000001b3ull;
  return mix64(h);
}

// alltoall's checksum term of item `id` held by block gid. Local.
inline std::uint64_t alltoall_term(std::uint64_t id, const std::uint8_t* item, std::size_t n,
                                   int gid) {
  return mix64(item_hash(id, item, n) ^ (std::uint64_t(gid) * 0xff51afd7ed558ccdull));
}

}  // namespace ooc_reduce
}  // namespace examples

#endif  // WORKLOADS__OOC_REDUCE__WORK_H_
