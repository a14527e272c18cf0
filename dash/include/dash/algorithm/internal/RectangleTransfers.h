// The transfers that move a rectangle of an N-D container (BlockPattern,
// TilePattern) between its owners' memory and a local buffer holding the
// rectangle as a strided array, and the N-D ranges built from rectangles.
//
// How a rectangle is cut (no per-element work, no allocation):
//   for every unit u owning part of the rectangle (per dimension, the unit
//   coordinates of the blocks it touches):
//     u's local rectangle (Pattern::local_rectangle), each dimension cut into
//     <= 3 segments: part of a block, a run of full blocks, part of a block
//     (DimBlocking::local_segments)
//     for every combination of segments (a "piece", <= 3^N of them):
//       the piece is a strided array on both sides, with one axis per
//       dimension and two for a run of blocks (which block, where in it);
//       the local strides come from the pattern's layout, the buffer strides
//       from the global coordinates; axes whose steps follow each other on
//       both sides merge;
//       the innermost axis if contiguous on both sides is one run, the
//       longest other axis the repeat count: ONE transfer (strided on either
//       side) for each index of the axes left
// So a row range of a row-distributed matrix is one transfer per owner,
// full rows of a 2-D block one transfer, a tile of a TilePattern one.
//
// An iteration range [p, q) of a container or of a view is at most 2N - 1
// rectangles, or a few per tile for a container in tile order
// (for_each_box_of_range); each is cut as above.
#ifndef DASH__ALGORITHM__INTERNAL__RECTANGLE_TRANSFERS_H_
#define DASH__ALGORITHM__INTERNAL__RECTANGLE_TRANSFERS_H_

#include <dash/algorithm/internal/LocalRuns.h>
#include <dash/algorithm/internal/Transfers.h>
#include <dash/pattern/internal/DimBlocking.h>
#include <dash/pattern/internal/IrregularPattern.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace dash {
namespace internal {

// One transfer of a piece, in elements: `count` runs of `length` elements,
// starting every local_stride elements in the owner's memory from
// local_offset and every buffer_stride elements in the buffer from
// buffer_offset (relative to the rectangle's origin in the buffer).
template <class I>
struct StridedRun {
  I local_offset;
  I buffer_offset;
  I count;
  I length;
  I local_stride;
  I buffer_stride;
};

// One axis of a piece: `extent` steps, each moving local_stride elements in
// the owner's memory and buffer_stride elements in the buffer.
template <class I>
struct PieceAxis {
  I extent;
  I local_stride;
  I buffer_stride;
};

// Calls run(StridedRun) for the transfers of one piece with `na` axes
// (origin local_offset / buffer_offset). Local, O(na^2) plus one call per
// transfer.
template <class I, std::size_t M, class Run>
void for_each_run_of_piece(std::array<PieceAxis<I>, M>& axes, int na, I local_offset,
                           I buffer_offset, Run&& run) {
  // Local memory order: largest local stride first (insertion sort, na <= 2N).
  for (int i = 1; i < na; ++i)
    for (int j = i; j > 0 && axes[j - 1].local_stride < axes[j].local_stride; --j)
      std::swap(axes[j - 1], axes[j]);
  // Merge an axis into the next inner one where its step is a whole inner
  // extent on both sides.
  int m = 0;
  for (int i = 0; i < na; ++i) {
    if (m > 0) {
      PieceAxis<I>& outer = axes[m - 1];
      const PieceAxis<I>& inner = axes[i];
      if (outer.local_stride == inner.extent * inner.local_stride &&
          outer.buffer_stride == inner.extent * inner.buffer_stride) {
        outer = PieceAxis<I>{outer.extent * inner.extent, inner.local_stride, inner.buffer_stride};
        continue;
      }
    }
    axes[m++] = axes[i];
  }
  na = m;
  I length = 1;
  if (na > 0 && axes[na - 1].local_stride == 1 && axes[na - 1].buffer_stride == 1)
    length = axes[--na].extent;
  // The longest axis left repeats the run inside one transfer.
  PieceAxis<I> repeat{1, length, length};
  if (na > 0) {
    int longest = 0;
    for (int i = 1; i < na; ++i)
      if (axes[i].extent > axes[longest].extent) longest = i;
    repeat = axes[longest];
    for (int i = longest; i + 1 < na; ++i) axes[i] = axes[i + 1];
    --na;
  }
  // One transfer per index of the other axes (odometer).
  std::array<I, M> index{};
  I loff = local_offset, boff = buffer_offset;
  for (;;) {
    run(StridedRun<I>{loff, boff, repeat.extent, length, repeat.local_stride,
                      repeat.buffer_stride});
    int k = na - 1;
    for (; k >= 0; --k) {
      loff += axes[k].local_stride;
      boff += axes[k].buffer_stride;
      if (++index[k] < axes[k].extent) break;
      loff -= axes[k].extent * axes[k].local_stride;
      boff -= axes[k].extent * axes[k].buffer_stride;
      index[k] = 0;
    }
    if (k < 0) return;
  }
}

// Calls run(StridedRun) for the transfers that move unit's part of global
// rectangle `rect` (see the top of the file); buffer offsets count from the
// buffer position of rect's first element, buffer_stride[d] elements per
// step in dimension d. Local, no allocation.
template <class P, class Run>
void for_each_strided_run(const P& pattern, team_unit_t unit,
                          const ViewSpec<P::ndim(), typename P::index_type>& rect,
                          const std::array<typename P::index_type, P::ndim()>& buffer_stride,
                          Run&& run) {
  constexpr dim_t N = P::ndim();
  using I = typename P::index_type;
  const auto lrect = pattern.local_rectangle(unit, rect);
  if (lrect.size() == 0) return;
  LocalSegment<I> segs[N][3];
  int nseg[N];
  for (dim_t d = 0; d < N; ++d)
    nseg[d] =
        pattern.local_segments(d, lrect.offset(d), lrect.offset(d) + I(lrect.extent(d)), segs[d]);
  std::array<int, N> pick{};  // the segment of each dimension (odometer)
  for (;;) {
    std::array<I, N> l0;
    for (dim_t d = 0; d < N; ++d) l0[d] = segs[d][pick[d]].begin;
    const I off0 = pattern.local_offset(unit, l0);
    const auto g0 = pattern.global_coords(unit, l0);
    I buf0 = 0;
    for (dim_t d = 0; d < N; ++d) buf0 += (g0[d] - rect.offset(d)) * buffer_stride[d];
    // Local offset moved by `step` local coordinates along d.
    auto local_step = [&](dim_t d, I step) {
      auto l = l0;
      l[d] += step;
      return pattern.local_offset(unit, l) - off0;
    };
    std::array<PieceAxis<I>, 2 * N> axes;
    int na = 0;
    for (dim_t d = 0; d < N; ++d) {
      const LocalSegment<I>& s = segs[d][pick[d]];
      if (s.blocks > 1) {
        const I global_step = I(pattern.teamspec().extent(d)) * pattern.blocksize(d);
        axes[na++] =
            PieceAxis<I>{s.blocks, local_step(d, s.length), global_step * buffer_stride[d]};
      }
      if (s.length > 1) axes[na++] = PieceAxis<I>{s.length, local_step(d, 1), buffer_stride[d]};
    }
    for_each_run_of_piece(axes, na, off0, buf0, run);
    dim_t d = N - 1;
    for (; d >= 0; --d) {
      if (++pick[d] < nseg[d]) break;
      pick[d] = 0;
    }
    if (d < 0) return;
  }
}

// Calls f(unit) for every unit owning blocks of global rectangle `rect`
// (non-empty). Local, no allocation.
template <class P, class F>
void for_each_owner_of_rectangle(const P& pattern,
                                 const ViewSpec<P::ndim(), typename P::index_type>& rect, F&& f) {
  if constexpr (is_irregular_pattern_v<P>) {
    pattern.for_each_owner(rect, f);  // blocks of any size, one per unit
    return;
  }
  constexpr dim_t N = P::ndim();
  using I = typename P::index_type;
  std::array<I, N> first, count, coord;
  for (dim_t d = 0; d < N; ++d) {
    const I units = I(pattern.teamspec().extent(d));
    const I b = pattern.blocksize(d);
    const I j0 = rect.offset(d) / b;
    const I blocks = (rect.offset(d) + I(rect.extent(d)) - 1) / b - j0 + 1;
    first[d] = blocks >= units ? 0 : j0 % units;
    count[d] = blocks >= units ? units : blocks;
  }
  std::array<I, N> k{};
  for (;;) {
    for (dim_t d = 0; d < N; ++d) {
      const I units = I(pattern.teamspec().extent(d));
      coord[d] = (first[d] + k[d]) % units;
    }
    f(team_unit_t(static_cast<dart_unit_t>(pattern.teamspec().at(coord))));
    dim_t d = N - 1;
    for (; d >= 0; --d) {
      if (++k[d] < count[d]) break;
      k[d] = 0;
    }
    if (d < 0) return;
  }
}

// Starts the transfers of a range one by one, joining a transfer that is
// contiguous on both sides and continues the previous one (same unit, next
// bytes on both sides) into it: the rectangles of a canonical range whose
// owner holds whole rows move as one transfer. Start() the runs, then
// finish(). Local; one-sided transfers.
template <bool Get, class I, class Mem, class Buf, class Transfers>
class TransferStarter {
 public:
  TransferStarter(const Mem& mem, Buf* buf, Transfers& transfers)
      : mem_(mem), buf_(buf), transfers_(transfers) {}
  // Run r of unit's part, its buffer offsets counted from buffer element `at`.
  void start(team_unit_t unit, I at, const StridedRun<I>& r) {
    const bool contiguous =
        r.count == 1 || (r.local_stride == r.length && r.buffer_stride == r.length);
    if (contiguous) {
      const I n = r.count * r.length;
      if (pending_ && unit == unit_ && local_end_ == r.local_offset &&
          buffer_end_ == at + r.buffer_offset) {
        local_end_ += n;
        buffer_end_ += n;
        return;
      }
      finish();
      pending_ = true;
      unit_ = unit;
      local_begin_ = r.local_offset;
      local_end_ = r.local_offset + n;
      buffer_begin_ = at + r.buffer_offset;
      buffer_end_ = buffer_begin_ + n;
      return;
    }
    finish();
    const std::size_t elem = sizeof(std::remove_const_t<Buf>);
    start_transfer<Get>(
        buf_ + at + r.buffer_offset, mem_.dart_gptr_at(unit, r.local_offset),
        std::size_t(r.count) * std::size_t(r.length) * elem,
        TransferLayout{std::size_t(r.length) * elem, std::size_t(r.local_stride) * elem,
                       std::size_t(r.buffer_stride) * elem},
        transfers_);
  }
  // Starts the transfer held back for joining, if any.
  void finish() {
    if (!pending_) return;
    pending_ = false;
    const std::size_t elem = sizeof(std::remove_const_t<Buf>);
    start_transfer<Get>(buf_ + buffer_begin_, mem_.dart_gptr_at(unit_, local_begin_),
                        std::size_t(local_end_ - local_begin_) * elem, TransferLayout{},
                        transfers_);
  }

 private:
  const Mem& mem_;
  Buf* buf_;
  Transfers& transfers_;
  bool pending_ = false;
  team_unit_t unit_;
  I local_begin_ = 0, local_end_ = 0, buffer_begin_ = 0, buffer_end_ = 0;
};

// Starts the transfers between global rectangle `rect` of (pattern, mem) and
// the buffer of `starter`, rect's first element at buffer element `at`
// (buffer_stride[d] elements per step in dimension d). Local; one-sided
// transfers.
template <class P, class Starter>
void start_rectangle_transfers(const P& pattern,
                               const ViewSpec<P::ndim(), typename P::index_type>& rect,
                               typename P::index_type at,
                               const std::array<typename P::index_type, P::ndim()>& buffer_stride,
                               Starter& starter) {
  using I = typename P::index_type;
  if (rect.size() == 0) return;
  for_each_owner_of_rectangle(pattern, rect, [&](team_unit_t unit) {
    for_each_strided_run(pattern, unit, rect, buffer_stride,
                         [&](const StridedRun<I>& r) { starter.start(unit, at, r); });
  });
}

// Calls f(rect, buffer_offset, buffer_stride) for the rectangles of
// positions [first, first + n) of an N-D range (GlobIter or GlobViewIter),
// where buffer element k holds position first + k: at most 2N - 1, or a few
// per tile for a container range in tile order (for_each_box_of_range).
// Local.
template <class It, class F>
void for_each_rectangle_of_range(const It& first, std::size_t n, F&& f) {
  using P = typename glob_iter_traits<It>::pattern;
  using I = typename P::index_type;
  constexpr dim_t N = P::ndim();
  if (n == 0) return;
  const I p = I(first.pos());
  for_each_box_of_range<true>(
      first, n,
      [&](const std::array<I, N>& goff, const auto& len, I at, const std::array<I, N>& stride) {
        std::array<typename P::size_type, N> ext;
        for (dim_t d = 0; d < N; ++d) ext[d] = typename P::size_type(len[d]);
        f(ViewSpec<N, I>(goff, ext), at - p, stride);
      });
}

// Starts the transfers between positions [first, first + n) of an N-D range
// and buf[0, n). Get: global to buffer. Appends the handles. One-sided.
template <bool Get, class It, class Buf, class Transfers>
void start_nd_transfers(const It& first, std::size_t n, Buf* buf, Transfers& transfers) {
  using Mem = std::remove_const_t<std::remove_pointer_t<decltype(first.memory())>>;
  TransferStarter<Get, glob_index_t<It>, Mem, Buf, Transfers> starter(*first.memory(), buf,
                                                                      transfers);
  for_each_rectangle_of_range(first, n, [&](const auto& rect, auto at, const auto& stride) {
    start_rectangle_transfers(first.pattern(), rect, at, stride, starter);
  });
  starter.finish();
}

// True if local bytes [begin, end) share bytes with the calling unit's own
// elements among positions [first, first + n) of an N-D range. Local, O(1)
// per transfer of the calling unit's part.
template <class It>
bool own_elements_overlap(const It& first, std::size_t n, const void* begin, const void* end) {
  using I = glob_index_t<It>;
  const auto& pattern = first.pattern();
  const team_unit_t me = pattern.myid();
  const std::size_t elem = sizeof(glob_value_t<It>);
  if (begin == end || n == 0) return false;
  const auto base = reinterpret_cast<std::uintptr_t>(first.memory()->lbegin());
  const auto b = reinterpret_cast<std::uintptr_t>(begin);
  const auto e = reinterpret_cast<std::uintptr_t>(end);
  if (e <= base || b >= base + std::uintptr_t(pattern.local_size()) * elem) return false;
  bool overlap = false;
  for_each_rectangle_of_range(first, n, [&](const auto& rect, auto, const auto& stride) {
    if (overlap) return;
    for_each_strided_run(pattern, me, rect, stride, [&](const StridedRun<I>& r) {
      // Runs i = 0 .. count - 1 cover [start + i * step, start + i * step + len).
      const std::uintptr_t start = base + std::uintptr_t(r.local_offset) * elem;
      const std::uintptr_t step = std::uintptr_t(r.local_stride) * elem;
      const std::uintptr_t len = std::uintptr_t(r.length) * elem;
      const std::uintptr_t count = std::uintptr_t(r.count);
      if (start >= e || start + (count - 1) * step + len <= b) return;
      // The first run ending after b, then whether it starts before e.
      const std::uintptr_t i = b < start + len ? 0 : (b - start - len) / step + 1;
      if (i < count && start + i * step < e) overlap = true;
    });
  });
  return overlap;
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__ALGORITHM__INTERNAL__RECTANGLE_TRANSFERS_H_
