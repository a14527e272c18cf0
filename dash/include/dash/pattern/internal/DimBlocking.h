// Block arithmetic of one dimension: `extent` elements cut into blocks of
// `blocksize` (the last one possibly underfilled) and dealt round-robin to
// `units` unit coordinates. Every function is O(1) and allocation-free.
#ifndef DASH__PATTERN__INTERNAL__DIM_BLOCKING_H_
#define DASH__PATTERN__INTERNAL__DIM_BLOCKING_H_

#include <dash/Types.h>
#include <dash/internal/FastDivisor.h>

#include <algorithm>

namespace dash {
namespace internal {

// Consecutive local blocks of one unit coordinate in one dimension:
// `blocks` blocks from local coordinate `begin`, each `length` elements
// (blocks > 1 only for full blocks, length == blocksize).
template <class I>
struct LocalSegment {
  I begin;
  I blocks;
  I length;
};

template <class I>
struct DimBlocking {
  I extent = 0;     // elements
  I units = 1;      // unit coordinates in this dimension
  I blocksize = 1;  // elements per full block, >= 1
  I nblocks = 0;    // ceil(extent / blocksize)
  I last_block_extent = 0;
  // Precomputed so the per-element functions below divide only where the
  // index itself must be divided.
  I blocks_per_unit = 0;  // nblocks / units
  I extra_blocks = 0;     // nblocks % units: units below this own one more block
  I last_owner = -1;      // unit coordinate owning the last block, -1 if none
  FastDivisor by_blocksize, by_units;

  DimBlocking() = default;
  DimBlocking(I extent_, I units_, I blocksize_)
      : extent(extent_), units(units_), blocksize(blocksize_) {
    nblocks = extent / blocksize + (extent % blocksize != 0 ? 1 : 0);  // ceil, no overflow
    last_block_extent = nblocks > 0 ? extent - (nblocks - 1) * blocksize : 0;
    blocks_per_unit = nblocks / units;
    extra_blocks = nblocks % units;
    last_owner = nblocks > 0 ? (nblocks - 1) % units : -1;
    by_blocksize = FastDivisor(static_cast<std::uint64_t>(blocksize));
    by_units = FastDivisor(static_cast<std::uint64_t>(units));
  }

  // Block holding global coordinate g.
  I block_of(I g) const { return g / blocksize; }
  // Unit coordinate owning block j.
  I unit_of_block(I j) const { return j % units; }
  // Index of block j among its unit's blocks.
  I local_block_of(I j) const { return j / units; }
  // Extent of block j.
  I block_extent(I j) const { return j == nblocks - 1 ? last_block_extent : blocksize; }
  // Number of blocks unit coordinate u owns.
  I local_nblocks(I u) const { return blocks_per_unit + (u < extra_blocks ? 1 : 0); }
  // True if unit coordinate u owns the (possibly underfilled) last block.
  bool owns_last_block(I u) const { return u == last_owner; }
  // Elements unit coordinate u holds in this dimension.
  I local_extent(I u) const {
    I n = local_nblocks(u);
    if (n == 0) return 0;
    return (n - 1) * blocksize + (owns_last_block(u) ? last_block_extent : blocksize);
  }
  // Extent of unit coordinate u's local block c.
  I local_block_extent(I u, I c) const {
    return (owns_last_block(u) && c == local_nblocks(u) - 1) ? last_block_extent : blocksize;
  }
  // Unit coordinate u, local block c and position p inside that block of
  // global coordinate g (its local coordinate is c * blocksize + p). One
  // division by an invariant (FastDivisor: a multiply) in the common cases
  // (one unit, blocks of 1, at most one block per unit), two otherwise.
  void locate(I g, I& u, I& c, I& p) const {
    if (blocksize == 1) {
      c = divide(g, by_units);
      u = g - c * units;
      p = 0;
    } else if (units == 1) {
      u = 0;
      if (nblocks <= 1) {
        c = 0;
        p = g;
      } else {
        c = divide(g, by_blocksize);
        p = g - c * blocksize;
      }
    } else {
      I j = divide(g, by_blocksize);
      p = g - j * blocksize;
      if (nblocks <= units) {
        u = j;
        c = 0;
      } else {
        c = divide(j, by_units);
        u = j - c * units;
      }
    }
  }
  // Local coordinate of global coordinate g (at its owner).
  I local_of(I g) const {
    I j = g / blocksize;
    return (j / units) * blocksize + (g - j * blocksize);
  }
  // Number of unit coordinate u's local coordinates whose global coordinate
  // is below x (0 <= x <= extent). Since global coordinates grow with local
  // ones, the local coordinates of a global range [a, b) are the range
  // [local_count_below(u, a), local_count_below(u, b)).
  I local_count_below(I u, I x) const {
    I j = divide(x, by_blocksize);
    I full = j > u ? divide(j - u + units - 1, by_units) : 0;  // blocks j' < j, j' % units == u
    return full * blocksize + (j - divide(j, by_units) * units == u ? x - j * blocksize : 0);
  }
  // Unit coordinate u's local range [lo, hi) as at most three segments, in
  // order: a part of the first block, a run of full blocks, a part of the
  // last (or an underfilled last) block. Returns how many. A run of full
  // blocks sits contiguously in local coordinates and every
  // units * blocksize in global ones. O(1).
  int local_segments(I lo, I hi, LocalSegment<I> out[3]) const {
    int n = 0;
    if (lo >= hi) return 0;
    I start = lo;
    I in_block = lo - divide(lo, by_blocksize) * blocksize;
    if (in_block != 0) {
      I end = std::min(hi, lo - in_block + blocksize);
      out[n++] = LocalSegment<I>{lo, 1, end - lo};
      start = end;
    }
    I full = divide(hi - start, by_blocksize);  // an underfilled block never counts as full
    if (full > 0) {
      out[n++] = LocalSegment<I>{start, full, blocksize};
      start += full * blocksize;
    }
    if (start < hi) out[n++] = LocalSegment<I>{start, 1, hi - start};
    return n;
  }
  // Global coordinate of local coordinate l of unit coordinate u.
  I global_of(I u, I l) const {
    I c = divide(l, by_blocksize);
    return (c * units + u) * blocksize + (l - c * blocksize);
  }
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__PATTERN__INTERNAL__DIM_BLOCKING_H_
