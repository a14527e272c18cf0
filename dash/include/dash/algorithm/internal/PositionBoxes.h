// Ranges of iteration positions as rectangles of global coordinates, for the
// algorithms and copies: positions of a rectangle iterated in Arrangement
// order (a view; a container in row- or column-major order) as at most
// 2N - 1 boxes, and global indices [p, q) of a pattern whose global order
// goes tile by tile (PatternBase::tile_order()) as the rest of p's tile, the
// whole tiles up to q's tile and the start of q's tile. Local, no allocation.
#ifndef DASH__ALGORITHM__INTERNAL__POSITION_BOXES_H_
#define DASH__ALGORITHM__INTERNAL__POSITION_BOXES_H_

#include <dash/pattern/SizeSpec.h>

#include <algorithm>
#include <array>

namespace dash {
namespace internal {

// Calls box(offsets, extents) for the rectangles that make up iteration
// positions [p, q) of a rectangle with extents `ext`, iterated with its
// dimension order[N-1] fastest; offsets are relative to the rectangle.
// At most 2N - 1 calls, in iteration order. Local.
template <dim_t N, class I, class S, class Box>
void for_each_box_of_positions(I p, I q, const std::array<S, N>& ext,
                               const std::array<dim_t, N>& order, Box&& box) {
  // stride[k]: elements per step of dimension order[k].
  std::array<I, N + 1> stride;
  stride[N] = 1;
  for (dim_t k = N; k-- > 0;) stride[k] = stride[k + 1] * I(ext[order[k]]);
  while (p < q) {
    // The slowest dimension k whose faster dimensions are all at 0 and one of
    // whose steps fits into what remains.
    // (k = N - 1 always qualifies: its step is one element.)
    dim_t k = 0;
    while (p % stride[k + 1] != 0 || stride[k + 1] > q - p) ++k;
    dim_t d = order[k];
    I c = (p / stride[k + 1]) % I(ext[d]);
    I steps = std::min<I>(I(ext[d]) - c, (q - p) / stride[k + 1]);
    std::array<I, N> off{};
    std::array<S, N> len{};
    I rest = p;
    for (dim_t j = N; j-- > 0;) {
      dim_t dj = order[j];
      off[dj] = rest % I(ext[dj]);
      rest /= I(ext[dj]);
      len[dj] = j < k ? S(1) : (j == k ? S(steps) : ext[dj]);
    }
    box(off, len);
    p += steps * stride[k + 1];
  }
}

// Strides of the dimensions of a rectangle of extents `ext` iterated in Arrangement order (a
// tile's elements, or a view's positions). Local.
template <dim_t N, MemArrange Arr, class I, class S>
std::array<I, N> arrangement_strides(const std::array<S, N>& ext) {
  std::array<I, N> stride;
  I s = 1;
  for (dim_t k = N; k-- > 0;) {
    const dim_t d = dim_at_order<N, Arr>(k);
    stride[d] = s;
    s *= I(ext[d]);
  }
  return stride;
}

// Calls box(goff, glen, at, stride) for rectangles that make up global indices [p, q) of
// tile_order() pattern `pattern`, in order: element goff + r has global index
// at + sum_d r[d] * stride[d]. Strided = false: the whole tiles come as at most 2N - 1
// rectangles of tiles (their `at` and `stride` then mean nothing): O(N^2) rectangles in all.
// Strided = true: every box lies inside one tile (a whole tile is one box): O(tiles) boxes.
// Local, no allocation.
template <bool Strided, class P, class Box>
void for_each_box_of_tile_range(const P& pattern, typename P::index_type p,
                                typename P::index_type q, Box&& box) {
  using I = typename P::index_type;
  using S = typename P::size_type;
  constexpr dim_t N = P::ndim();
  constexpr MemArrange Arr = P::memory_order();
  static_assert(P::tile_order(), "for_each_box_of_tile_range: the pattern's order is not tiled");
  if (p >= q) return;
  std::array<dim_t, N> order;
  for (dim_t k = 0; k < N; ++k) order[k] = dim_at_order<N, Arr>(k);
  // Positions [lo, hi) counted from the start of tile t.
  auto part = [&](const auto& t, I lo, I hi) {
    const auto stride = arrangement_strides<N, Arr, I>(t.extents);
    for_each_box_of_positions<N>(lo, hi, t.extents, order, [&](const auto& off, const auto& len) {
      std::array<I, N> goff;
      I at = t.first;
      for (dim_t d = 0; d < N; ++d) {
        goff[d] = t.origin[d] + off[d];
        at += off[d] * stride[d];
      }
      box(goff, len, at, stride);
    });
  };
  const auto grid = pattern.blockspec().extents();
  std::array<I, N> bs;
  for (dim_t d = 0; d < N; ++d) bs[d] = pattern.blocksize(d);
  const auto head = pattern.tile_of_index(p);
  if (p != head.first || q < head.first + head.size()) {
    const I end = std::min(q, head.first + head.size());
    part(head, p - head.first, end - head.first);
    p = end;
    if (p >= q) return;
  }
  // p starts a tile: the whole tiles [t0, t1), then the start of q's tile.
  std::array<I, N> tc;
  for (dim_t d = 0; d < N; ++d) tc[d] = pattern.tile_of_index(p).origin[d] / bs[d];
  const I t0 = linearize<N, Arr>(tc, grid);
  const bool at_end = q >= I(pattern.size());
  const auto tail = pattern.tile_of_index(at_end ? p : q);
  I t1 = I(pattern.blockspec().size());
  if (!at_end) {
    for (dim_t d = 0; d < N; ++d) tc[d] = tail.origin[d] / bs[d];
    t1 = linearize<N, Arr>(tc, grid);
  }
  for_each_box_of_positions<N>(t0, t1, grid, order, [&](const auto& toff, const auto& tlen) {
    std::array<I, N> goff;
    std::array<S, N> glen;
    for (dim_t d = 0; d < N; ++d) {
      goff[d] = toff[d] * bs[d];
      glen[d] = S(std::min(I(pattern.extent(d)), (toff[d] + I(tlen[d])) * bs[d]) - goff[d]);
    }
    if constexpr (Strided) {
      // Each tile of the rectangle of tiles, in order.
      std::array<S, N> ntiles;
      for (dim_t d = 0; d < N; ++d) ntiles[d] = S(tlen[d]);
      const I count = I(SizeSpec<N, I>(ntiles).size());
      for (I k = 0; k < count; ++k) {
        const auto rel = delinearize<N, Arr>(k, ntiles);
        std::array<I, N> origin;
        std::array<S, N> ext;
        for (dim_t d = 0; d < N; ++d) {
          origin[d] = (toff[d] + rel[d]) * bs[d];
          ext[d] = S(pattern.tile_extent(d, toff[d] + rel[d]));
        }
        box(origin, ext, pattern.global_index(origin), arrangement_strides<N, Arr, I>(ext));
      }
    } else {
      box(goff, glen, I(0), std::array<I, N>{});
    }
  });
  if (!at_end && q > tail.first) part(tail, I(0), q - tail.first);
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__ALGORITHM__INTERNAL__POSITION_BOXES_H_
