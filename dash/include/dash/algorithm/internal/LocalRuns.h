// The calling unit's part of a global range as runs of native memory, for
// the algorithms: for_each_local_run(first, last, f) calls
//   f(T* begin, T* end, I pos, I gidx)
// for runs of the calling unit's elements of [first, last), where pos is the
// range position of *begin (GlobIter: the global index; GlobViewIter: the
// position in the view) and gidx its global index in the container. Inside a
// run both grow by one per element.
//
// Ranges it takes: GlobIter of any 1-D pattern (runs in global order), and
// GlobIter or GlobViewIter of an N-D Cartesian pattern (BlockPattern,
// TilePattern; runs in no particular order). An N-D range [first, last) of
// iteration positions is cut into rectangles (for_each_box_of_range: at most
// 2N - 1, or O(N^2) for a container range in tile order), each rectangle is
// mapped to the calling unit's local rectangle in O(N), and that one is
// walked along its fastest local dimension.
//
// With Positions = false the caller ignores pos and gidx, and runs that
// continue each other in memory are merged (a whole tile of a TilePattern, or
// all full-width rows of a BlockPattern's local array, are then one run).
// Local; cost O(runs), no allocation.
#ifndef DASH__ALGORITHM__INTERNAL__LOCAL_RUNS_H_
#define DASH__ALGORITHM__INTERNAL__LOCAL_RUNS_H_

#include <dash/Exception.h>
#include <dash/algorithm/LocalRange.h>
#include <dash/algorithm/internal/PositionBoxes.h>
#include <dash/iterator/GlobIter.h>
#include <dash/iterator/GlobViewIter.h>
#include <dash/pattern/SizeSpec.h>
#include <dash/view/ViewFunctions.h>

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>

namespace dash {
namespace internal {

// Element type (const if the iterator is), index type and pattern of a
// global iterator; is_glob_iter_v is false for anything else.
template <class It>
struct glob_iter_traits {
  static constexpr bool value = false;
};
template <class T, class P>
struct glob_iter_traits<GlobIter<T, P>> {
  static constexpr bool value = true;
  static constexpr bool is_view = false;
  using element = T;
  using pattern = P;
  using index = typename P::index_type;
};
template <class T, class P>
struct glob_iter_traits<GlobViewIter<T, P>> {
  static constexpr bool value = true;
  static constexpr bool is_view = true;
  using element = T;
  using pattern = P;
  using index = typename P::index_type;
};
template <class It>
inline constexpr bool is_glob_iter_v = glob_iter_traits<std::decay_t<It>>::value;
template <class It>
using glob_element_t = typename glob_iter_traits<It>::element;
template <class It>
using glob_index_t = typename glob_iter_traits<It>::index;
template <class It>
using glob_value_t = std::remove_const_t<glob_element_t<It>>;
// Enables an algorithm for global iterators only (so it does not catch
// std:: calls made with native pointers).
template <class It, class R = void>
using if_glob_iter_t = std::enable_if_t<is_glob_iter_v<It>, R>;

// The rectangle a range's positions count in: a view's for GlobViewIter, the
// whole container's for GlobIter. Local.
template <class It>
auto positions_space(const It& it) {
  using P = typename glob_iter_traits<It>::pattern;
  using I = typename P::index_type;
  if constexpr (glob_iter_traits<It>::is_view)
    return it.viewspec();
  else
    return ViewSpec<P::ndim(), I>(std::array<I, P::ndim()>{}, it.pattern().extents());
}

// True if the positions of ranges of It are global indices in tile order
// (PatternBase::tile_order()).
template <class It>
inline constexpr bool tile_ordered_range_v =
    !glob_iter_traits<It>::is_view && glob_iter_traits<It>::pattern::tile_order();

// Calls box(goff, glen, at, stride) for rectangles of global coordinates that
// make up positions [first, first + n) of an N-D range (GlobIter or
// GlobViewIter), in order; the element at goff + r has position
// at + sum_d r[d] * stride[d]. Strided = false: a container's tile-ordered
// range may come as rectangles of whole tiles whose at and stride mean nothing
// (O(N^2) rectangles); true: such a range comes a box per tile at most. Every
// other range is at most 2N - 1 boxes. Local, no allocation.
template <bool Strided, class It, class Box>
void for_each_box_of_range(const It& first, std::size_t n, Box&& box) {
  using P = typename glob_iter_traits<It>::pattern;
  using I = typename P::index_type;
  constexpr dim_t N = P::ndim();
  constexpr MemArrange Arr = P::memory_order();
  const I p = I(first.pos());
  if constexpr (tile_ordered_range_v<It>) {
    for_each_box_of_tile_range<Strided>(first.pattern(), p, p + I(n), box);
  } else {
    const auto space = positions_space(first);
    std::array<dim_t, N> order;
    for (dim_t k = 0; k < N; ++k) order[k] = dim_at_order<N, Arr>(k);
    const auto stride = arrangement_strides<N, Arr, I>(space.extents());
    for_each_box_of_positions<N>(p, p + I(n), space.extents(), order,
                                 [&](const std::array<I, N>& off, const auto& len) {
                                   std::array<I, N> goff;
                                   I at = 0;
                                   for (dim_t d = 0; d < N; ++d) {
                                     goff[d] = space.offset(d) + off[d];
                                     at += off[d] * stride[d];
                                   }
                                   box(goff, len, at, stride);
                                 });
  }
}

// Checks that first and last can form a range of a container that still exists. Local.
template <class It>
void check_glob_range(const It& first, const It& last, const char* who) {
  // Once per call, not per element: the memory of an allocated container must still exist (an
  // unallocated one has none: its ranges are empty).
  if (first.memory() != nullptr && (!first.stamp().live() || !last.stamp().live()))
    throw_stale_handle(who);
  if (static_cast<const void*>(first.memory()) != static_cast<const void*>(last.memory()))
    throw exception::InvalidArgument(std::string(who) +
                                     ": first and last belong to different containers");
  if (last < first) throw exception::InvalidArgument(std::string(who) + ": last is before first");
}

// Walks the calling unit's part of the global rectangle (goff, glen) of an
// N-D Cartesian pattern; see the file comment for f. GlobalPositions: pos is
// the global index (a container's range); else `view_off`/`view_ext` describe
// the rectangle pos counts in, iterated in Arrangement order (a view). In a blocked layout
// (TilePattern) the local rectangle is walked tile by tile, so that the lines of a tile, which
// follow each other in memory, merge into one run; in a canonical layout
// (BlockPattern) line by line, a line crossing local blocks being contiguous.
// Local.
template <bool Positions, bool GlobalPositions, class T, class P, class F>
void for_each_local_run_of_rect(const P& pattern, T* base,
                                const std::array<typename P::index_type, P::ndim()>& goff,
                                const std::array<typename P::size_type, P::ndim()>& glen,
                                const std::array<typename P::index_type, P::ndim()>& view_off,
                                const std::array<typename P::size_type, P::ndim()>& view_ext,
                                F& f) {
  using I = typename P::index_type;
  using S = typename P::size_type;
  constexpr dim_t N = P::ndim();
  constexpr MemArrange Arr = P::memory_order();
  constexpr dim_t fast = Arr == ROW_MAJOR ? N - 1 : 0;
  constexpr bool blocked = P::layout_properties::blocked;
  auto lrect = pattern.local_rectangle(ViewSpec<N, I>(goff, glen));
  if (lrect.size() == 0) return;
  const I bs = pattern.blocksize(fast);
  T* run_b = nullptr;
  T* run_e = nullptr;
  I run_pos = 0, run_g = 0;
  auto flush = [&]() {
    if (run_b != run_e) f(run_b, run_e, run_pos, run_g);
    run_b = run_e = nullptr;
  };
  // Appends the piece of local line lc (fast coordinate x .. x + len) that
  // lies in one local block.
  auto piece = [&](std::array<I, N> lc, I len) {
    T* b = base + pattern.local_at(lc);
    T* e = b + len;
    if constexpr (Positions) {
      auto gc = pattern.global_coords(lc);
      const I g = pattern.global_index(gc);
      I pos = g;
      if constexpr (!GlobalPositions) {
        std::array<I, N> vc;
        for (dim_t d = 0; d < N; ++d) vc[d] = gc[d] - view_off[d];
        pos = linearize<N, Arr>(vc, view_ext);
      }
      if (b == run_e && pos == run_pos + I(run_e - run_b) && g == run_g + I(run_e - run_b)) {
        run_e = e;
      } else {
        flush();
        run_b = b, run_e = e, run_pos = pos, run_g = g;
      }
    } else {
      if (b == run_e) {
        run_e = e;
      } else {
        flush();
        run_b = b, run_e = e;
      }
    }
  };
  // Walks the lines of local rectangle (off, ext) along the fast dimension,
  // cut at local block borders.
  auto lines_of = [&](const std::array<I, N>& off, const std::array<S, N>& ext) {
    std::array<S, N> lines_ext = ext;
    lines_ext[fast] = 1;
    const I nlines = I(ViewSpec<N, I>(off, lines_ext).size());
    for (I line = 0; line < nlines; ++line) {
      auto lc = delinearize<N, Arr>(line, lines_ext);
      for (dim_t d = 0; d < N; ++d) lc[d] += off[d];
      const I x_end = lc[fast] + I(ext[fast]);
      for (I x = lc[fast]; x < x_end;) {
        const I chunk_end = std::min(x_end, (x / bs + 1) * bs);
        lc[fast] = x;
        piece(lc, chunk_end - x);
        x = chunk_end;
      }
    }
  };
  if constexpr (blocked) {
    // Local blocks [lo[d], hi[d]] overlapping lrect, visited in memory order.
    std::array<I, N> lo, nblk, bsz;
    for (dim_t d = 0; d < N; ++d) {
      bsz[d] = pattern.blocksize(d);
      lo[d] = lrect.offset(d) / bsz[d];
      nblk[d] = (lrect.offset(d) + I(lrect.extent(d)) - 1) / bsz[d] - lo[d] + 1;
    }
    std::array<S, N> nblk_s;
    for (dim_t d = 0; d < N; ++d) nblk_s[d] = S(nblk[d]);
    const I blocks = I(ViewSpec<N, I>(std::array<I, N>{}, nblk_s).size());
    for (I k = 0; k < blocks; ++k) {
      auto bc = delinearize<N, Arr>(k, nblk_s);
      std::array<I, N> off;
      std::array<S, N> ext;
      for (dim_t d = 0; d < N; ++d) {
        I b_lo = (lo[d] + bc[d]) * bsz[d];
        I from = std::max(b_lo, lrect.offset(d));
        I to = std::min(b_lo + bsz[d], lrect.offset(d) + I(lrect.extent(d)));
        off[d] = from;
        ext[d] = S(to - from);
      }
      lines_of(off, ext);
    }
  } else {
    lines_of(lrect.offsets(), lrect.extents());
  }
  flush();
}

// Calls f(begin, end, pos, gidx) for runs of the calling unit's elements of
// [first, last); see the file comment. Local.
template <bool Positions = true, class It, class F>
void for_each_local_run(const It& first, const It& last, F&& f) {
  using Tr = glob_iter_traits<It>;
  using T = typename Tr::element;
  using P = typename Tr::pattern;
  using I = typename Tr::index;
  constexpr dim_t N = P::ndim();
  check_glob_range(first, last, "dash algorithm");
  if (first == last || first.memory() == nullptr) return;
  static_assert(has_local_rectangle<P>::value,
                "dash algorithms need a pattern that deals blocks per dimension (BlockPattern, "
                "TilePattern): the local part of a range of this pattern is not a rectangle");
  const P& pattern = first.pattern();
  T* base = first.memory()->lbegin();
  if constexpr (!Tr::is_view && N == 1) {
    for (const Range<T>& seg : local_segments(first, last)) {
      if (seg.begin == seg.end) continue;
      I g = I(pattern.global(seg.begin - base));
      f(seg.begin, seg.end, g, g);
    }
  } else {
    for_each_box_of_range<false>(
        first, I(last - first), [&](const auto& goff, const auto& len, auto, const auto&) {
          if constexpr (Tr::is_view) {
            const auto& space = first.viewspec();
            for_each_local_run_of_rect<Positions, false>(pattern, base, goff, len, space.offsets(),
                                                         space.extents(), f);
          } else {
            for_each_local_run_of_rect<Positions, true>(pattern, base, goff, len, {},
                                                        pattern.extents(), f);
          }
        });
  }
}

}  // namespace internal
}  // namespace dash

#define DASH__ALGORITHM__INTERNAL__LOCAL_RUNS_COMPLETE
#endif  // DASH__ALGORITHM__INTERNAL__LOCAL_RUNS_H_

// After the guard, once the runs above are defined (LocalRange.h and this file include each
// other): local_index_range and local_range over view iterators, which use them.
#ifdef DASH__ALGORITHM__INTERNAL__LOCAL_RUNS_COMPLETE
#include <dash/algorithm/LocalRangeOfViews.h>
#endif
