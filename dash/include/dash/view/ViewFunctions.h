// Composable view functions over containers and views (DASH's view model: a view is made of
// a domain, the range it was applied to, and keeps it; views compose):
//   dash::sub<D>(first, last, x)   x narrowed to [first, last) in dimension D, relative to x
//                                  (a ComposedView: global for a container or global view,
//                                  local for a local part or local view)
//   dash::local(x)                 a container's local part (container.local); the calling
//                                  unit's part of a global view (a local view); a local view
//                                  itself; of blocks: the blocks' local parts the unit has
//   dash::blocks(x)                the pattern blocks x touches, each cut to x (BlocksView);
//                                  of a local view: its blocks in local coordinates
//   dash::index(x)                 the indices of x's elements (IndexSet, <dash/view/IndexSet.h>)
//   dash::domain(x), as_view(x)    one level up; a container as a view (<dash/view/Domain.h>)
//   dash::intersect(a, b)          the elements two views of one container share
//   dash::begin(x), dash::end(x)   x.begin(), x.end() of a container or view
//   dash::distance(first, last)    last - first of the iterators of views and index sets
//   dash::view_traits<V>           what kind of range V is (<dash/view/ViewTraits.h>)
// All are local; sub, local, index, domain are O(N), blocks O(number of blocks); none moves
// elements.
#ifndef DASH__VIEW__VIEW_FUNCTIONS_H_
#define DASH__VIEW__VIEW_FUNCTIONS_H_

#include <dash/Exception.h>
#include <dash/Range.h>
#include <dash/iterator/internal/PositionIterator.h>
#include <dash/pattern/internal/IrregularPattern.h>
#include <dash/view/BlocksView.h>
#include <dash/view/ComposedView.h>
#include <dash/view/Domain.h>
#include <dash/view/GlobView.h>
#include <dash/view/IndexSet.h>
#include <dash/view/LocalView.h>
#include <dash/view/ViewTraits.h>
#include <dash/view/internal/ViewKinds.h>

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {

namespace internal {

// (has_local_rectangle<P>: in LocalView.h.)

// The elements of x as a plain GlobView / LocalView: a view's own, a container's whole view,
// a local part's whole local view.
template <class T, class P>
GlobView<T, P> elements_of(const GlobView<T, P>& view) {
  return view;
}
template <class T, class P>
LocalView<T, P> elements_of(const LocalView<T, P>& view) {
  return view;
}
template <class C, std::enable_if_t<is_container_v<C> || is_local_part_v<C>, int> = 0>
auto elements_of(C& x) -> decltype(x.view()) {
  return x.view();
}

// The calling unit's part of a global rectangle, as a local view.
template <class T, class P>
LocalView<T, P> local_of(const GlobView<T, P>& view) {
  static_assert(has_local_rectangle<P>::value,
                "dash::local(view) needs a pattern that deals blocks per dimension "
                "(BlockPattern, TilePattern); for ShiftTilePattern/SeqTilePattern iterate "
                "matrix.local.block(i) instead");
  return LocalView<T, P>(view.globmem()->lbegin(), &view.pattern(),
                         view.pattern().local_rectangle(view.viewspec()));
}

// The pattern blocks a global view touches, each cut to the view, in block-grid order, and
// their block-grid indices. O(number of blocks touched).
template <class T, class P>
std::pair<std::vector<GlobView<T, P>>, std::vector<typename P::index_type>> glob_blocks(
    const GlobView<T, P>& view) {
  constexpr dim_t N = P::ndim();
  using I = typename P::index_type;
  std::pair<std::vector<GlobView<T, P>>, std::vector<I>> out;
  if (view.empty()) return out;
  std::array<I, N> first, count;
  std::size_t total = 1;
  for (dim_t d = 0; d < N; ++d) {
    if constexpr (is_irregular_pattern_v<P>) {
      // One block per unit, of any size (1-D): the blocks of the view's first and last element.
      first[d] = view.pattern().block_at({view.offset(d)});
      count[d] = view.pattern().block_at({view.offset(d) + I(view.extent(d)) - 1}) - first[d] + 1;
    } else {
      I b = view.pattern().blocksize(d);
      first[d] = view.offset(d) / b;
      count[d] = (view.offset(d) + I(view.extent(d)) - 1) / b - first[d] + 1;
    }
    total *= std::size_t(count[d]);
  }
  const auto grid = view.pattern().blockspec().extents();
  out.first.reserve(total);
  out.second.reserve(total);
  for (std::size_t k = 0; k < total; ++k) {
    auto rel = delinearize<N, P::memory_order()>(I(k), count);
    for (dim_t d = 0; d < N; ++d) rel[d] += first[d];
    if constexpr (is_irregular_pattern_v<P>) {
      if (view.pattern().local_size(team_unit_t(static_cast<dart_unit_t>(rel[0]))) == 0) continue;
    }
    out.first.push_back(view.block(rel));
    out.second.push_back(linearize<N, P::memory_order()>(rel, grid));
  }
  return out;
}

// The blocks of a local view in the calling unit's local block grid (local blocks start at
// multiples of blocksize(d) in local coordinates), each cut to the view, and their local
// block indices. O(number of blocks touched).
template <class T, class P>
std::pair<std::vector<LocalView<T, P>>, std::vector<typename P::index_type>> local_blocks(
    const LocalView<T, P>& view) {
  static_assert(has_local_rectangle<P>::value,
                "dash::blocks(local view) needs a pattern that deals blocks per dimension "
                "(BlockPattern, TilePattern)");
  constexpr dim_t N = P::ndim();
  using I = typename P::index_type;
  using S = typename P::size_type;
  std::pair<std::vector<LocalView<T, P>>, std::vector<I>> out;
  if (view.empty()) return out;
  std::array<I, N> first, count, grid;
  std::size_t total = 1;
  const auto& pattern = view.pattern();
  for (dim_t d = 0; d < N; ++d) {
    const I b = pattern.blocksize(d);
    first[d] = view.offset(d) / b;
    count[d] = (view.offset(d) + I(view.extent(d)) - 1) / b - first[d] + 1;
    grid[d] = (I(pattern.local_extents()[d]) + b - 1) / b;
    total *= std::size_t(count[d]);
  }
  out.first.reserve(total);
  out.second.reserve(total);
  for (std::size_t k = 0; k < total; ++k) {
    auto rel = delinearize<N, P::memory_order()>(I(k), count);
    std::array<I, N> off;
    std::array<S, N> ext;
    for (dim_t d = 0; d < N; ++d) {
      rel[d] += first[d];
      const I b = pattern.blocksize(d);
      const I lo = std::max(rel[d] * b, view.offset(d));
      const I hi = std::min((rel[d] + 1) * b, view.offset(d) + I(view.extent(d)));
      off[d] = lo;
      ext[d] = S(hi - lo);
    }
    out.first.push_back(view.rectangle(typename LocalView<T, P>::viewspec_type(off, ext)));
    out.second.push_back(linearize<N, P::memory_order()>(rel, grid));
  }
  return out;
}

}  // namespace internal

// x (a container, its local part, or a view) narrowed to [first, last) in dimension D,
// relative to x's own origin; its domain is x. Throws dash::exception::OutOfRange if that
// leaves x. Local, O(N).
namespace internal {
// Throws dash::exception::OutOfRange for dash::sub(first, last, ...) with last < first (out of
// line: dash::sub stays small enough to inline).
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_sub_reversed(default_index_t first,
                                                                      default_index_t last) {
  throw exception::OutOfRange("dash::sub: last " + std::to_string(last) + " < first " +
                              std::to_string(first));
}
}  // namespace internal

template <dim_t D = 0, class X>
auto sub(default_index_t first, default_index_t last, X&& x) {
  using Domain = internal::domain_t<X>;
  static_assert(!internal::is_container_v<Domain> || std::is_lvalue_reference_v<X>,
                "dash::sub: a view of a temporary container would outlive it");
  if (last < first) internal::throw_sub_reversed(first, last);
  const auto elements = internal::elements_of(x);
  using Elements = std::remove_const_t<decltype(elements)>;
  using size_type = typename Elements::size_type;
  return ComposedView<Domain, Elements>(
      elements.template sub<D>(first, static_cast<size_type>(last - first)),
      internal::DomainStore<Domain>(x));
}

// A container's local part (its member `local`: native iteration, [], ...). Local.
template <class C, std::enable_if_t<internal::has_local_member_v<C>, int> = 0>
auto local(C& container) -> decltype((container.local)) {
  return container.local;
}
// The calling unit's part of a global view, as a local view whose domain is the global view.
// Needs a pattern that deals blocks per dimension (BlockPattern, TilePattern), whose local
// part of a rectangle is a rectangle. Local, O(N).
template <class V, std::enable_if_t<internal::is_glob_view_v<V>, int> = 0>
auto local(const V& view) {
  const auto elements = internal::elements_of(view);
  return ComposedView<V, decltype(internal::local_of(elements))>(internal::local_of(elements),
                                                                 internal::DomainStore<V>(view));
}
// A local view or a container's local part is its own local part (applying dash::local twice
// changes nothing). Local.
template <class V,
          std::enable_if_t<internal::is_local_view_v<V> || internal::is_local_part_v<V>, int> = 0>
V local(const V& view) {
  return view;
}
// The local parts of global blocks that the calling unit has (non-empty), in the blocks'
// order, each with its global block index. Local, O(number of blocks).
template <class T, class P, class D>
auto local(const BlocksView<GlobView<T, P>, D>& blocks) {
  std::vector<LocalView<T, P>> views;
  std::vector<typename P::index_type> indices;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    auto l = internal::local_of(blocks[i]);
    if (l.empty()) continue;
    views.push_back(l);
    indices.push_back(blocks.block_index(i));
  }
  using Blocks = BlocksView<GlobView<T, P>, D>;
  return BlocksView<LocalView<T, P>, Blocks>(std::move(views), std::move(indices),
                                             &blocks.pattern(),
                                             internal::DomainStore<Blocks>(blocks));
}
template <class T, class P, class D>
BlocksView<LocalView<T, P>, D> local(const BlocksView<LocalView<T, P>, D>& blocks) {
  return blocks;
}

// The pattern blocks a global view touches, each cut to the view, in the order of the block
// grid; its domain is the view. Local, O(number of blocks touched).
template <class V, std::enable_if_t<internal::is_glob_view_v<V>, int> = 0>
auto blocks(const V& view) {
  const auto elements = internal::elements_of(view);
  using E = decltype(elements);
  using Elements = std::remove_const_t<E>;
  auto b = internal::glob_blocks(elements);
  return BlocksView<Elements, V>(std::move(b.first), std::move(b.second), &view.pattern(),
                                 internal::DomainStore<V>(view));
}
// The blocks of a local view in the calling unit's local block grid, each cut to the view.
// Local, O(number of blocks touched).
template <class V, std::enable_if_t<internal::is_local_view_v<V>, int> = 0>
auto blocks(const V& view) {
  const auto elements = internal::elements_of(view);
  using Elements = std::remove_const_t<decltype(elements)>;
  auto b = internal::local_blocks(elements);
  return BlocksView<Elements, V>(std::move(b.first), std::move(b.second), &view.pattern(),
                                 internal::DomainStore<V>(view));
}
// The pattern blocks of a container (global views), or of a container's local part (local
// views); the domain is the container / its local part. Local, O(number of blocks).
template <class C,
          std::enable_if_t<internal::is_container_v<C> || internal::is_local_part_v<C>, int> = 0>
auto blocks(C& x) {
  const auto elements = internal::elements_of(x);
  using Elements = std::remove_const_t<decltype(elements)>;
  auto b = [&] {
    if constexpr (internal::is_local_view_v<Elements>)
      return internal::local_blocks(elements);
    else
      return internal::glob_blocks(elements);
  }();
  using Domain = internal::domain_t<C&>;
  return BlocksView<Elements, Domain>(std::move(b.first), std::move(b.second), &elements.pattern(),
                                      internal::DomainStore<Domain>(x));
}

// DASH's free functions on containers and views. Local.
// x.begin() / x.end() of a container or view.
template <class X>
auto begin(X&& x) -> decltype(x.begin()) {
  return x.begin();
}
template <class X>
auto end(X&& x) -> decltype(x.end()) {
  return x.end();
}
// last - first of two iterators of a local view, an index set or a range of blocks. Local.
template <class It, class I>
I distance(const internal::PositionIterator<It, I>& first,
           const internal::PositionIterator<It, I>& last) {
  return last.pos() - first.pos();
}
// The elements two views of the same container share, as a view (possibly empty). Throws
// dash::exception::InvalidArgument for views of different containers. Local, O(N).
template <class T, class P>
GlobView<T, P> intersect(const GlobView<T, P>& a, const GlobView<T, P>& b) {
  if (a.globmem() != b.globmem())
    throw exception::InvalidArgument("dash::intersect: the views belong to different containers");
  return a.intersect(b.viewspec());
}

}  // namespace dash

#endif  // DASH__VIEW__VIEW_FUNCTIONS_H_
