// dash::GlobView: a rectangle of a container's global index space (offsets +
// extents in global coordinates). Views are cheap values (no memory of their
// own); narrowing one (sub, row, col, block) gives another view. Iterating a
// view visits exactly its elements, in Arrangement order of the view's own
// coordinates (row by row for ROW_MAJOR, also for tiled patterns, whose
// containers' iterators go tile by tile).
//
// | call                               | cost                       |
// |------------------------------------|----------------------------|
// | sub, row, col, block, size, extent | local, O(N)                |
// | begin/end, operator(), v[i][j]     | local; reads/writes through GlobRef |
// | dash::local(view)                  | local, O(N): LocalView     |
// | lbegin/lend                        | local, O(N): native pointers |
//
// Under DASH_CHECK_BOUNDS (dash/internal/BoundsCheck.h) operator(),
// at_coords, v[i][j]... and the iterators check their coordinates against
// the view's extents and throw dash::exception::OutOfRange outside them.
#ifndef DASH__VIEW__GLOB_VIEW_H_
#define DASH__VIEW__GLOB_VIEW_H_

#include <dash/Exception.h>
#include <dash/internal/BoundsCheck.h>
#include <dash/iterator/GlobViewIter.h>
#include <dash/matrix/MatrixRef.h>
#include <dash/view/LocalView.h>
#include <dash/view/internal/Narrowed.h>

#include <algorithm>
#include <string>
#include <type_traits>

namespace dash {

namespace internal {
// The call GlobView's subscripts name in their messages.
inline constexpr char glob_view_subscript_call[] = "dash::GlobView::operator[]";
}  // namespace internal

template <class T, class PatternT>
class GlobView {
 public:
  static constexpr dim_t N = PatternT::ndim();
  using rank = std::integral_constant<dim_t, N>;
  using value_type = std::remove_const_t<T>;
  using index_type = typename PatternT::index_type;
  using size_type = typename PatternT::size_type;
  using pattern_type = PatternT;
  using viewspec_type = ViewSpec<N, index_type>;
  using coords_type = std::array<index_type, N>;
  using iterator = GlobViewIter<T, PatternT>;
  using const_iterator = iterator;
  using reference = GlobRef<T>;
  using memory_type = GlobStaticMem<value_type>;

  // A view of existing memory (or of none: nullptr). Local.
  GlobView(const memory_type* mem, const PatternT* pattern, const viewspec_type& rect)
      : GlobView(mem, pattern, rect, internal::stamp_of(mem)) {}

  static constexpr dim_t ndim() { return N; }
  iterator begin() const { return iterator(mem_, pattern_, rect_, 0, stamp_); }
  iterator end() const { return iterator(mem_, pattern_, rect_, index_type(size()), stamp_); }
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
    static_assert(D >= 0 && D < N, "dash::GlobView::extent<D>: dimension out of range");
    return rect_.extent(D);
  }
  template <dim_t D>
  index_type offset() const {
    static_assert(D >= 0 && D < N, "dash::GlobView::offset<D>: dimension out of range");
    return rect_.offset(D);
  }
  const std::array<size_type, N>& extents() const { return rect_.extents(); }
  index_type offset(dim_t d) const { return rect_.offset(d); }
  const coords_type& offsets() const { return rect_.offsets(); }
  const viewspec_type& viewspec() const { return rect_; }
  const PatternT& pattern() const { return *pattern_; }
  const memory_type* globmem() const { return mem_; }

  // DASH's native pointers of a global view: the calling unit's first element of the view
  // (of its part dash::local(view)) and one past its last, e.g. over a local block
  // m.local.block(i). lend() throws dash::exception::InvalidArgument unless those elements are
  // contiguous in local memory in the view's order (see LocalView::lend); both are nullptr
  // without memory, and equal where the unit holds none of the view. Needs a pattern that deals
  // blocks per dimension (BlockPattern, TilePattern). Local, O(N).
  T* lbegin() const { return mem_ ? local_part().lbegin() : nullptr; }
  T* lend() const { return mem_ ? local_part().lend() : nullptr; }

  // Element at view-relative coordinates. Throws
  // dash::exception::InvalidArgument if the memory was freed; under
  // DASH_CHECK_BOUNDS dash::exception::OutOfRange outside the view's extents.
  // Local.
  template <class... I, class = std::enable_if_t<sizeof...(I) == N>>
  reference operator()(I... coords) const {
    const coords_type rel{static_cast<index_type>(coords)...};
    if constexpr (internal::bounds_checked)
      internal::check_coords("dash::GlobView::operator()", rel, rect_.extents());
    return element(rel);
  }
  reference at_coords(const coords_type& rel) const {
    if constexpr (internal::bounds_checked)
      internal::check_coords("dash::GlobView::at_coords", rel, rect_.extents());
    return element(rel);
  }

  // The view narrowed in dimension D to [offset, offset + extent) relative
  // to this view. Throws dash::exception::OutOfRange if that leaves the view.
  template <dim_t D>
  GlobView sub(index_type offset, size_type extent) const {
    return GlobView(mem_, pattern_, internal::narrowed<D>(rect_, offset, extent, "dash::sub"),
                    stamp_);
  }
  // The view narrowed to rel[d] in each of its first `fixed` dimensions
  // (extent 1 there); not checked. Local, O(N).
  GlobView leading(const coords_type& rel, dim_t fixed) const {
    return GlobView(mem_, pattern_, rect_.leading(rel, fixed), stamp_);
  }
  // DASH's subscripts, relative to the view: v[i][j]... is v(i, j, ...), v[i]
  // alone a dash::MatrixRef. Each subscript checked under DASH_CHECK_BOUNDS.
  // Local.
  decltype(auto) operator[](index_type i) const {
    return internal::subscript<N>(
        internal::ViewSubscript<GlobView, internal::glob_view_subscript_call>{*this}, i);
  }
  // Row i (extent 1 in dimension 0) / column j (extent 1 in dimension 1).
  GlobView row(index_type i) const { return sub<0>(i, 1); }
  template <dim_t M = N, class = std::enable_if_t<(M >= 2)>>
  GlobView col(index_type j) const {
    return sub<1>(j, 1);
  }
  // DASH's ranges relative to the view: rows [offset, offset + extent) (sub<0>), columns
  // (sub<1>). Local, O(N).
  GlobView rows(index_type offset, size_type extent) const { return sub<0>(offset, extent); }
  template <dim_t M = N, class = std::enable_if_t<(M >= 2)>>
  GlobView cols(index_type offset, size_type extent) const {
    return sub<1>(offset, extent);
  }
  // Block `block_coords` of the pattern's block grid, cut to this view.
  GlobView block(const coords_type& block_coords) const {
    return intersect(pattern_->block(block_coords));
  }
  // The part of global rectangle `r` inside this view (possibly empty).
  GlobView intersect(const viewspec_type& r) const {
    coords_type off;
    std::array<size_type, N> ext;
    for (dim_t d = 0; d < N; ++d) {
      index_type lo = std::max(r.offset(d), rect_.offset(d));
      index_type hi = std::min(r.offset(d) + index_type(r.extent(d)),
                               rect_.offset(d) + index_type(rect_.extent(d)));
      off[d] = lo;
      ext[d] = hi > lo ? size_type(hi - lo) : 0;
    }
    return GlobView(mem_, pattern_, viewspec_type(off, ext), stamp_);
  }

 private:
  template <class, const char*>
  friend struct internal::ViewSubscript;

  GlobView(const memory_type* mem, const PatternT* pattern, const viewspec_type& rect,
           internal::MemoryStamp stamp)
      : mem_(mem), pattern_(pattern), rect_(rect), stamp_(stamp) {}
  // The calling unit's part of the view, in its local coordinates. Local, O(N).
  LocalView<T, PatternT> local_part() const {
    static_assert(internal::has_local_rectangle<PatternT>::value,
                  "dash::GlobView::lbegin/lend need a pattern that deals blocks per dimension "
                  "(BlockPattern, TilePattern)");
    if (!stamp_.live()) internal::throw_stale_handle("dash::GlobView::lbegin");
    return LocalView<T, PatternT>(mem_->lbegin(), pattern_, pattern_->local_rectangle(rect_));
  }
  // Element at view-relative coordinates, not checked against the extents.
  reference element(const coords_type& rel) const {
    if (!stamp_.live()) internal::throw_stale_handle("dash::GlobView::at_coords");
    coords_type g;
    for (dim_t d = 0; d < N; ++d) g[d] = rel[d] + rect_.offset(d);
    auto l = pattern_->local_index(g);
    return mem_->template ref<T>(l.unit, l.index);
  }

  const memory_type* mem_;
  const PatternT* pattern_;
  viewspec_type rect_;
  internal::MemoryStamp stamp_;
};

}  // namespace dash

#endif  // DASH__VIEW__GLOB_VIEW_H_
