// Composable view functions over containers and views:
//   dash::sub<D>(first, last, x)   x narrowed to [first, last) in dimension D
//   dash::local(view)              the calling unit's part of a view (LocalView)
//   dash::blocks(view)             the pattern blocks a view touches, each cut to the view
//   dash::index(view)              the global linear indices of a view's elements, in order
//                                  (of a local view: the local offsets; of an iterator: its
//                                  element's global index)
//   dash::begin(x), dash::end(x)   x.begin(), x.end() of a container or view
//   dash::local(container)         container.local; dash::index(container) of its view;
//   dash::sub(first, last, dash::local(array)) a range of an Array's local part (a LocalView)
//   dash::is_range<T>, dash::make_range(first, last)  (<dash/Range.h>)
// All are local and O(N) (blocks: O(number of blocks)); none moves elements.
#ifndef DASH__VIEW__VIEW_FUNCTIONS_H_
#define DASH__VIEW__VIEW_FUNCTIONS_H_

#include <dash/Exception.h>
#include <dash/Range.h>
#include <dash/internal/BoundsCheck.h>
#include <dash/iterator/internal/PositionIterator.h>
#include <dash/pattern/internal/IrregularPattern.h>
#include <dash/view/GlobView.h>
#include <dash/view/LocalView.h>

#include <boost/hana/type.hpp>
#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {

namespace internal {

template <class V>
auto as_view(V&& x) -> decltype(x.view()) {
  return x.view();
}
template <class T, class P>
GlobView<T, P> as_view(const GlobView<T, P>& v) {
  return v;
}

// A random-access range of values f(0), f(1), ..., f(n - 1), computed on access
// (operator[] checked against [0, n) under DASH_CHECK_BOUNDS; its iterators
// are not: they do not know n, and a LocalView's f checks its position
// itself). Its iterators hold a copy of f, so they outlive the range
// (dash::begin(dash::index(view)) is a usable iterator).
template <class F, class Value>
class MappedRange {
 public:
  class iterator : public PositionIterator<iterator, std::ptrdiff_t> {
   public:
    using value_type = Value;
    using reference = Value;
    using pointer = void;
    iterator() = default;
    iterator(const F& f, std::ptrdiff_t pos)
        : PositionIterator<iterator, std::ptrdiff_t>(pos), f_(f) {}
    Value operator*() const { return (*f_)(this->pos_); }
    Value operator[](std::ptrdiff_t n) const { return (*f_)(this->pos_ + n); }

   private:
    std::optional<F> f_;  // empty only in a default-constructed iterator
  };

  MappedRange(F f, std::size_t n) : f_(std::move(f)), n_(n) {}
  std::size_t size() const { return n_; }
  Value operator[](std::size_t i) const {
    if constexpr (bounds_checked) check_index("dash::index(view).operator[]", i, n_);
    return f_(static_cast<std::ptrdiff_t>(i));
  }
  iterator begin() const { return iterator(f_, 0); }
  iterator end() const { return iterator(f_, static_cast<std::ptrdiff_t>(n_)); }

 private:
  F f_;
  std::size_t n_;
};

}  // namespace internal

// x (a container or a view) narrowed to [first, last) in dimension D,
// relative to x's own origin. Throws dash::exception::OutOfRange if that
// leaves x.
template <dim_t D = 0, class X>
auto sub(default_index_t first, default_index_t last, X&& x) {
  auto view = internal::as_view(std::forward<X>(x));
  if (last < first)
    throw exception::OutOfRange("dash::sub: last " + std::to_string(last) + " < first " +
                                std::to_string(first));
  return view.template sub<D>(first, static_cast<typename decltype(view)::size_type>(last - first));
}

// The calling unit's part of a view. Needs a pattern that deals blocks per
// dimension (BlockPattern, TilePattern), whose local part of a rectangle is
// a rectangle.
template <class T, class P>
LocalView<T, P> local(const GlobView<T, P>& view) {
  static_assert(internal::has_local_rectangle<P>::value,
                "dash::local(view) needs a pattern that deals blocks per dimension "
                "(BlockPattern, TilePattern); for ShiftTilePattern/SeqTilePattern iterate "
                "matrix.local.block(i) instead");
  return LocalView<T, P>(view.globmem()->lbegin(), &view.pattern(),
                         view.pattern().local_rectangle(view.viewspec()));
}

// The pattern blocks a view touches, each cut to the view, in the order of
// the block grid. Local, O(number of blocks touched).
template <class T, class P>
std::vector<GlobView<T, P>> blocks(const GlobView<T, P>& view) {
  constexpr dim_t N = P::ndim();
  using I = typename P::index_type;
  std::vector<GlobView<T, P>> out;
  if (view.empty()) return out;
  std::array<I, N> first, count;
  std::size_t total = 1;
  for (dim_t d = 0; d < N; ++d) {
    if constexpr (internal::is_irregular_pattern_v<P>) {
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
  out.reserve(total);
  for (std::size_t k = 0; k < total; ++k) {
    auto rel = internal::delinearize<N, P::memory_order()>(I(k), count);
    for (dim_t d = 0; d < N; ++d) rel[d] += first[d];
    if constexpr (internal::is_irregular_pattern_v<P>) {
      if (view.pattern().local_size(team_unit_t(static_cast<dart_unit_t>(rel[0]))) == 0) continue;
    }
    out.push_back(view.block(rel));
  }
  return out;
}

namespace internal {
// Position -> global index of a view's element, and position -> local offset of a local view's
// element: the functions of dash::index (assignable, so the ranges' iterators are).
template <class T, class P>
struct GlobalIndexAt {
  GlobView<T, P> view;
  typename P::index_type operator()(std::ptrdiff_t pos) const {
    return (view.begin() + typename P::index_type(pos)).gpos();
  }
};
template <class T, class P>
struct LocalOffsetAt {
  LocalView<T, P> view;
  typename P::index_type operator()(std::ptrdiff_t pos) const {
    return view.local_offset(typename P::index_type(pos));
  }
};
}  // namespace internal

// The global linear indices of a view's elements, in iteration order. Local;
// each index is computed on access.
template <class T, class P>
auto index(const GlobView<T, P>& view) {
  return internal::MappedRange<internal::GlobalIndexAt<T, P>, typename P::index_type>(
      internal::GlobalIndexAt<T, P>{view}, view.size());
}

// The local offsets of a LocalView's elements, in iteration order. Local.
template <class T, class P>
auto index(const LocalView<T, P>& view) {
  return internal::MappedRange<internal::LocalOffsetAt<T, P>, typename P::index_type>(
      internal::LocalOffsetAt<T, P>{view}, view.size());
}

// The global linear index of the element a global iterator (of a container or a view) points
// at (DASH's dash::index(iterator)). Local.
template <class It>
auto index(const It& it) -> decltype(it.gpos()) {
  return it.gpos();
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
// A container's local part (its member `local`: native iteration, [], ...).
template <class C>
auto local(C& container) -> decltype((container.local)) {
  return container.local;
}
// The global linear indices of a container's elements, in order.
template <class C>
auto index(C& container) -> decltype(index(container.view())) {
  return index(container.view());
}
// A container as its whole view; a view as itself.
template <class X>
auto as_view(X&& x) -> decltype(internal::as_view(std::forward<X>(x))) {
  return internal::as_view(std::forward<X>(x));
}
// The pattern blocks of a container, as views in block-grid order.
template <class C>
auto blocks(C& container) -> decltype(blocks(container.view())) {
  return blocks(container.view());
}
// The whole container a view belongs to, as a view (DASH: the view one
// level up; the same for views made from a container in one step).
template <class T, class P>
GlobView<T, P> domain(const GlobView<T, P>& view) {
  return GlobView<T, P>(view.globmem(), &view.pattern(),
                        typename GlobView<T, P>::viewspec_type(view.pattern().sizespec()));
}
template <class C>
auto domain(C& container) -> decltype(container.view()) {
  return container.view();
}
// The elements two views of the same container share, as a view (possibly
// empty). Throws dash::exception::InvalidArgument for views of different
// containers.
template <class T, class P>
GlobView<T, P> intersect(const GlobView<T, P>& a, const GlobView<T, P>& b) {
  if (a.globmem() != b.globmem())
    throw exception::InvalidArgument("dash::intersect: the views belong to different containers");
  return a.intersect(b.viewspec());
}

namespace internal {
// Whether x.view() and x.local exist: a container (Boost.Hana detection).
inline constexpr auto has_view_member =
    boost::hana::is_valid([](auto&& x) -> decltype(x.view()) {});
inline constexpr auto has_local_member =
    boost::hana::is_valid([](auto&& x) -> decltype(x.local) {});
}  // namespace internal

// What kind of range V is (DASH's dash::view_traits): a container (the
// origin of its views), a global view, or a local view; its rank, index and
// size types, and the types of its global and local views.
template <class V, class = void>
struct view_traits;
template <class T, class P>
struct view_traits<GlobView<T, P>> {
  using is_origin = std::false_type;
  using is_view = std::true_type;
  using is_local = std::false_type;
  using rank = std::integral_constant<dim_t, P::ndim()>;
  using index_type = typename P::index_type;
  using size_type = typename P::size_type;
  using value_type = std::remove_const_t<T>;
  using pattern_type = P;
  using global_type = GlobView<T, P>;
  using local_type = LocalView<T, P>;
  using domain_type = GlobView<T, P>;
};
template <class T, class P>
struct view_traits<LocalView<T, P>> : view_traits<GlobView<T, P>> {
  using is_local = std::true_type;
};
template <class C>
struct view_traits<C, std::enable_if_t<decltype(internal::has_view_member(std::declval<C&>()))::
                                           value&& decltype(internal::has_local_member(
                                               std::declval<C&>()))::value>>
    : view_traits<std::remove_cv_t<decltype(std::declval<C&>().view())>> {
  using is_origin = std::true_type;
  using is_view = std::false_type;
  using is_local = std::false_type;
  using domain_type = C;
};

}  // namespace dash

#endif  // DASH__VIEW__VIEW_FUNCTIONS_H_
