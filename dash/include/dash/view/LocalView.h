// dash::LocalView: the elements of a global rectangle that the calling unit
// owns, as native references. For patterns that deal blocks per dimension
// (BlockPattern, TilePattern) that part is a rectangle of the unit's local
// coordinates, so a LocalView is a local rectangle; iterating it visits its
// elements in local Arrangement order, each an O(N) offset computation and a
// load/store (no runtime call).
//
// Under DASH_CHECK_BOUNDS (dash/internal/BoundsCheck.h) operator(),
// at_coords, v[i][j]..., at_position and the iterator check their index
// against the view's extents / size and throw dash::exception::OutOfRange
// outside them.
#ifndef DASH__VIEW__LOCAL_VIEW_H_
#define DASH__VIEW__LOCAL_VIEW_H_

#include <dash/Exception.h>
#include <dash/algorithm/internal/PositionBoxes.h>
#include <dash/internal/BoundsCheck.h>
#include <dash/iterator/internal/PositionIterator.h>
#include <dash/matrix/MatrixRef.h>
#include <dash/pattern/SizeSpec.h>
#include <dash/view/internal/Narrowed.h>

#include <array>
#include <iterator>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

namespace dash {

namespace internal {
// The call LocalView's subscripts name in their messages.
inline constexpr char local_view_subscript_call[] = "dash::LocalView::operator[]";

// True if pattern P can say which local rectangle a global rectangle maps to.
template <class P, class = void>
struct has_local_rectangle : std::false_type {};
template <class P>
struct has_local_rectangle<P, std::void_t<decltype(std::declval<const P&>().local_rectangle(
                                  std::declval<const typename P::viewspec_type&>()))>>
    : std::true_type {};

// True if a non-empty local rectangle of pattern p is contiguous in local memory in its order:
// the pattern's own answer where it has one (BlockPattern, TilePattern), else the canonical
// layout's rule. Local, O(N).
template <class P, class = void>
struct has_local_rectangle_contiguous : std::false_type {};
template <class P>
struct has_local_rectangle_contiguous<
    P, std::void_t<decltype(std::declval<const P&>().local_rectangle_contiguous(
           std::declval<const ViewSpec<P::ndim(), typename P::index_type>&>()))>> : std::true_type {
};
template <class P>
bool local_rectangle_contiguous(const P& p, const ViewSpec<P::ndim(), typename P::index_type>& r) {
  constexpr dim_t N = P::ndim();
  if constexpr (has_local_rectangle_contiguous<P>::value) {
    return p.local_rectangle_contiguous(r);
  } else if constexpr (P::layout_properties::canonical) {
    bool outer = true;  // still in the dimensions of extent 1 before the first longer one
    for (dim_t k = 0; k < N; ++k) {
      const dim_t d = dim_at_order<N, P::memory_order()>(k);
      if (outer) {
        outer = r.extent(d) == 1;
        continue;
      }
      if (r.offset(d) != 0 || r.extent(d) != p.local_extents()[d]) return false;
    }
    return true;
  } else {
    return false;
  }
}
}  // namespace internal

template <class T, class PatternT>
class LocalView {
 public:
  static constexpr dim_t N = PatternT::ndim();
  using rank = std::integral_constant<dim_t, N>;
  using value_type = std::remove_const_t<T>;
  using pattern_type = PatternT;
  using index_type = typename PatternT::index_type;
  using size_type = typename PatternT::size_type;
  using viewspec_type = ViewSpec<N, index_type>;
  using coords_type = std::array<index_type, N>;

  class iterator : public internal::PositionIterator<iterator, index_type> {
    using Base = internal::PositionIterator<iterator, index_type>;

   public:
    using value_type = std::remove_const_t<T>;
    using reference = T&;
    using pointer = T*;
    using local_view_type = LocalView;

    iterator() = default;
    iterator(const LocalView& view, index_type pos)
        : Base(pos), lbegin_(view.lbegin_), pattern_(view.pattern_), rect_(view.rect_) {}
    T& operator*() const {
      return LocalView(lbegin_, pattern_, rect_)
          .position(this->pos_, "dash::LocalView::iterator::operator*");
    }
    T* operator->() const { return &**this; }
    // The view the iterator walks (its position counts in it). Local.
    LocalView view() const { return LocalView(lbegin_, pattern_, rect_); }
    T& operator[](index_type n) const {
      return LocalView(lbegin_, pattern_, rect_)
          .position(this->pos_ + n, "dash::LocalView::iterator::operator[]");
    }

    // Writes "dash::LocalView::iterator(position 2, local offset 12)": the position in the view
    // and, before the view's end, the element's offset in local memory. Local.
    friend std::ostream& operator<<(std::ostream& os, const iterator& it) {
      os << "dash::LocalView::iterator(position " << it.pos_;
      const LocalView view(it.lbegin_, it.pattern_, it.rect_);
      if (it.pattern_ != nullptr && it.pos_ >= 0 && it.pos_ < index_type(view.size()))
        os << ", local offset " << view.local_offset(it.pos_);
      return os << ")";
    }

   private:
    // A copy of the view's state, so an iterator outlives the view.
    T* lbegin_ = nullptr;
    const PatternT* pattern_ = nullptr;
    viewspec_type rect_;
  };

  // `rect` in the calling unit's local coordinates; lbegin its local memory.
  LocalView(T* lbegin, const PatternT* pattern, const viewspec_type& rect)
      : lbegin_(lbegin), pattern_(pattern), rect_(rect) {}

  static constexpr dim_t ndim() { return N; }
  iterator begin() const { return iterator(*this, 0); }
  iterator end() const { return iterator(*this, index_type(size())); }
  size_type size() const { return rect_.size(); }
  // DASH's size(d): the elements of dimensions d..N-1 (extent(d) * ... * extent(N-1)). Local.
  size_type size(dim_t d) const {
    size_type n = 1;
    for (dim_t k = d; k < N; ++k) n *= rect_.extent(k);
    return n;
  }
  bool empty() const { return size() == 0; }
  size_type extent(dim_t d) const { return rect_.extent(d); }
  // DASH's compile-time forms: extent<D>(), offset<D>(). Local.
  template <dim_t D>
  size_type extent() const {
    static_assert(D >= 0 && D < N, "dash::LocalView::extent<D>: dimension out of range");
    return rect_.extent(D);
  }
  template <dim_t D>
  index_type offset() const {
    static_assert(D >= 0 && D < N, "dash::LocalView::offset<D>: dimension out of range");
    return rect_.offset(D);
  }
  const std::array<size_type, N>& extents() const { return rect_.extents(); }
  // The rectangle in local coordinates: its offsets, their d-th, and the whole.
  const coords_type& offsets() const { return rect_.offsets(); }
  index_type offset(dim_t d) const { return rect_.offset(d); }
  const viewspec_type& viewspec() const { return rect_; }
  const PatternT& pattern() const { return *pattern_; }
  // The calling unit's whole local part, of which this view is a rectangle. Local, O(N).
  LocalView local_part() const {
    return LocalView(lbegin_, pattern_, viewspec_type(coords_type{}, pattern_->local_extents()));
  }
  // The view of local rectangle `rect` (local coordinates, not checked) of the same memory.
  // Local.
  LocalView rectangle(const viewspec_type& rect) const {
    return LocalView(lbegin_, pattern_, rect);
  }

  // Element at view-relative local coordinates. Under DASH_CHECK_BOUNDS
  // throws dash::exception::OutOfRange outside the view's extents. Local.
  template <class... I, class = std::enable_if_t<sizeof...(I) == N>>
  T& operator()(I... coords) const {
    const coords_type rel{static_cast<index_type>(coords)...};
    if constexpr (internal::bounds_checked)
      internal::check_coords("dash::LocalView::operator()", rel, rect_.extents());
    return element(rel);
  }
  T& at_coords(const coords_type& rel) const {
    if constexpr (internal::bounds_checked)
      internal::check_coords("dash::LocalView::at_coords", rel, rect_.extents());
    return element(rel);
  }
  // The view narrowed to rel[d] in each of its first `fixed` dimensions
  // (extent 1 there); not checked. Local, O(N).
  LocalView leading(const coords_type& rel, dim_t fixed) const {
    return LocalView(lbegin_, pattern_, rect_.leading(rel, fixed));
  }
  // The view narrowed in dimension D to [offset, offset + extent) relative to this view;
  // row(i) / col(j) with extent 1 in dimension 0 / 1. Throw dash::exception::OutOfRange if
  // that leaves the view. Local, O(N).
  template <dim_t D>
  LocalView sub(index_type offset, size_type extent) const {
    return LocalView(lbegin_, pattern_,
                     internal::narrowed<D>(rect_, offset, extent, "dash::LocalView::sub"));
  }
  LocalView row(index_type i) const { return sub<0>(i, 1); }
  template <dim_t M = N, class = std::enable_if_t<(M >= 2)>>
  LocalView col(index_type j) const {
    return sub<1>(j, 1);
  }
  // DASH's native pointers: the view's first element, and one past its last. lend() throws
  // dash::exception::InvalidArgument unless the view's elements are contiguous in local
  // memory in its order, so that [lbegin(), lend()) is the view: with BlockPattern's one N-D
  // local array, a view spanning the whole local extents of every dimension after its first one
  // longer than one (a local row, whole local rows); with TilePattern's tiles, such a view of
  // one tile (a whole tile, rows of a tile). Local, O(N).
  T* lbegin() const { return empty() ? lbegin_ : &element(coords_type{}); }
  T* lend() const {
    if (empty()) return lbegin();
    if (internal::local_rectangle_contiguous(*pattern_, rect_)) return lbegin() + size();
    throw exception::InvalidArgument(
        "dash::LocalView::lend: the view's elements are not contiguous in local memory (whole "
        "local rows of a BlockPattern, whole rows of one tile of a TilePattern are)");
  }
  // DASH's subscripts, relative to the view: v[i][j]... is v(i, j, ...) (a
  // native reference), v[i] alone a dash::MatrixRef. Each subscript checked
  // under DASH_CHECK_BOUNDS. Local.
  decltype(auto) operator[](index_type i) const {
    return internal::subscript<N>(
        internal::ViewSubscript<LocalView, internal::local_view_subscript_call>{*this}, i);
  }
  // Element at position pos of the view's Arrangement order (checked against
  // [0, size()) under DASH_CHECK_BOUNDS).
  T& at_position(index_type pos) const { return position(pos, "dash::LocalView::at_position"); }
  // Offset in local memory of position pos. Local.
  index_type local_offset(index_type pos) const { return &at_position(pos) - lbegin_; }
  // The same, not checked: position size() gives the offset one step past the view's last
  // element in its order (what dash::index(view) reads at its end). Local, O(N).
  index_type local_offset_unchecked(index_type pos) const {
    auto l = internal::delinearize<N, PatternT::memory_order()>(pos, rect_.extents());
    for (dim_t d = 0; d < N; ++d) l[d] += rect_.offset(d);
    return pattern_->local_at(l);
  }
  // True if the elements at positions [p, q) follow each other in local memory in the view's
  // order (local offsets local_offset(p), local_offset(p) + 1, ...). Local, O(N^2): the
  // positions are at most 2N - 1 rectangles, each checked in O(N).
  bool positions_contiguous(index_type p, index_type q) const {
    if (q <= p) return true;
    std::array<dim_t, N> order;
    for (dim_t k = 0; k < N; ++k) order[k] = internal::dim_at_order<N, PatternT::memory_order()>(k);
    bool contiguous = true;
    index_type next = local_offset(p);
    internal::for_each_box_of_positions<N>(
        p, q, rect_.extents(), order, [&](const coords_type& off, const auto& len) {
          if (!contiguous) return;
          coords_type lo;
          for (dim_t d = 0; d < N; ++d) lo[d] = off[d] + rect_.offset(d);
          const viewspec_type box(lo, len);
          contiguous = pattern_->local_at(lo) == next &&
                       internal::local_rectangle_contiguous(*pattern_, box);
          next += index_type(box.size());
        });
    return contiguous;
  }
  // Global coordinates of position pos. Local.
  coords_type global_coords(index_type pos) const {
    auto rel = internal::delinearize<N, PatternT::memory_order()>(pos, rect_.extents());
    for (dim_t d = 0; d < N; ++d) rel[d] += rect_.offset(d);
    return pattern_->global_coords(rel);
  }

 private:
  template <class, const char*>
  friend struct internal::ViewSubscript;

  // Element at view-relative local coordinates, not checked. Local.
  T& element(const coords_type& rel) const {
    coords_type l;
    for (dim_t d = 0; d < N; ++d) l[d] = rel[d] + rect_.offset(d);
    return lbegin_[pattern_->local_at(l)];
  }
  // Element at position pos, checked under DASH_CHECK_BOUNDS naming `call`.
  T& position(index_type pos, const char* call) const {
    if constexpr (internal::bounds_checked) internal::check_index(call, pos, size());
    return element(internal::delinearize<N, PatternT::memory_order()>(pos, rect_.extents()));
  }

  T* lbegin_;
  const PatternT* pattern_;
  viewspec_type rect_;
};

}  // namespace dash

#endif  // DASH__VIEW__LOCAL_VIEW_H_
