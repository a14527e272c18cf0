// dash::copy / dash::copy_async for rectangular views (GlobViewIter ranges,
// e.g. matrix.block({3, 5}) or matrix.local.block(0)) of N-D containers, and from a local
// view's positions (LocalView iterators) to a buffer.
//
// How a view copy runs: positions [first, last) of a view are at most
// 2N - 1 rectangles. For BlockPattern and TilePattern each owner's part of
// a rectangle moves as a few strided transfers (a whole tile, whole local
// rows: internal/RectangleTransfers.h). For the other patterns the view is
// walked in runs along its fastest-moving dimension, each run ending at a
// block border or the view's edge; runs that continue each other both in
// the owner's memory and in the buffer are merged. Every transfer starts
// before any is waited for.
#ifndef DASH__ALGORITHM__COPY_VIEW_H_
#define DASH__ALGORITHM__COPY_VIEW_H_

#include <dash/algorithm/Copy.h>
#include <dash/algorithm/internal/OwnerRuns.h>
#include <dash/iterator/GlobViewIter.h>

#include <algorithm>
#include <vector>

namespace dash {

namespace internal {

// Starts the transfers between view positions [first, last) and buffer buf
// (position p <-> buf[p - first.pos()]), one per owner run; appends their
// handles.
template <bool Get, class T, class P, class Buf, class Handles>
void start_view_transfers(const GlobViewIter<T, P>& first, const GlobViewIter<T, P>& last, Buf* buf,
                          Handles& handles) {
  using I = typename P::index_type;
  if constexpr (has_local_rectangle<P>::value) {
    start_nd_transfers<Get>(first, std::size_t(last - first), buf, handles);
  } else {
    const auto* mem = first.memory();
    const std::size_t elem = sizeof(std::remove_const_t<T>);
    for_each_owner_run(first, std::size_t(last - first), [&](team_unit_t unit, I src, I k, I len) {
      start_transfer<Get>(buf + k, mem->dart_gptr_at(unit, src), std::size_t(len) * elem,
                          TransferLayout{}, handles);
    });
  }
}

}  // namespace internal

// Starts copying view positions [first, last) to out; the future yields
// out + (last - first). One-sided, returns at once.
template <class T, class P>
Future<std::remove_const_t<T>*> copy_async(GlobViewIter<T, P> first, GlobViewIter<T, P> last,
                                           std::remove_const_t<T>* out) {
  using V = std::remove_const_t<T>;
  if (last < first) throw exception::InvalidArgument("dash::copy_async: last is before first");
  return internal::async_transfers<V*>([&](auto& handles) {
    internal::start_view_transfers<true>(first, last, out, handles);
    return out + (last - first);
  });
}

// Copies view positions [first, last) to out; returns out + (last - first).
// One-sided, blocking.
template <class T, class P>
std::remove_const_t<T>* copy(GlobViewIter<T, P> first, GlobViewIter<T, P> last,
                             std::remove_const_t<T>* out) {
  if (last < first) throw exception::InvalidArgument("dash::copy: last is before first");
  internal::HandleBuffer handles;
  internal::start_view_transfers<true>(first, last, out, handles);
  handles.wait("dash::copy");
  return out + (last - first);
}

// Copies local view positions [first, last) (the iterators of a dash::LocalView, e.g.
// m.local.row(i).begin()) to out; returns out + (last - first). Throws
// dash::exception::InvalidArgument if last is before first. Local: loads and stores, O(N) per
// element.
template <class It, class = std::enable_if_t<internal::is_local_view_iter_v<It>>>
auto copy(It first, It last, std::remove_const_t<std::remove_reference_t<decltype(*first)>>* out) {
  if (last < first) throw exception::InvalidArgument("dash::copy: last is before first");
  return std::copy(first, last, out);
}

// Copies local [in_first, in_last) to the view positions starting at out;
// returns out + n once the data is at its targets. One-sided, blocking.
template <class T, class P>
GlobViewIter<T, P> copy(const T* in_first, const T* in_last, GlobViewIter<T, P> out) {
  if (in_last < in_first) throw exception::InvalidArgument("dash::copy: in_last before in_first");
  auto n = typename P::index_type(in_last - in_first);
  if (out.pos() + n > typename P::index_type(out.viewspec().size()))
    throw exception::InvalidArgument("dash::copy: the destination runs past its view");
  internal::HandleBuffer handles;
  internal::start_view_transfers<false>(out, out + n, in_first, handles);
  handles.wait("dash::copy");
  return out + n;
}

// Copies view positions [first, last) to the view positions starting at out
// (any two views, e.g. a local block to a remote block), through a local
// staging buffer of at most 4 MiB. One-sided, blocking.
template <class T, class P, class U, class Q>
GlobViewIter<U, Q> copy(GlobViewIter<T, P> first, GlobViewIter<T, P> last, GlobViewIter<U, Q> out) {
  static_assert(std::is_same_v<std::remove_const_t<T>, U>,
                "dash::copy: source and destination element types differ");
  if (last < first) throw exception::InvalidArgument("dash::copy: last is before first");
  auto n = last - first;
  if (out.pos() + n > decltype(n)(out.viewspec().size()))
    throw exception::InvalidArgument("dash::copy: the destination runs past its view");
  if (static_cast<const void*>(first.memory()) == static_cast<const void*>(out.memory())) {
    // Same container: the two rectangles must be disjoint.
    const auto& a = first.viewspec();
    const auto& b = out.viewspec();
    bool overlap = true;
    for (dim_t d = 0; d < P::ndim(); ++d) {
      if (a.offset(d) + decltype(n)(a.extent(d)) <= b.offset(d) ||
          b.offset(d) + decltype(n)(b.extent(d)) <= a.offset(d))
        overlap = false;
    }
    if (overlap && n > 0)
      throw exception::InvalidArgument("dash::copy: source and destination views overlap");
  }
  if (n == 0) return out;
  return internal::copy_through_staging<U>(first, last, out);
}

}  // namespace dash

#endif  // DASH__ALGORITHM__COPY_VIEW_H_
