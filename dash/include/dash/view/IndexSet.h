// dash::IndexSet: what dash::index(x) returns: the indices of a range's elements, in its
// iteration order, computed on access from a copy of the range.
//
//   dash::index(global view)   global linear indices (the pattern's global order)
//   dash::index(local view)    offsets in the calling unit's local memory
//   dash::index(blocks)        the blocks' indices (see dash::BlocksView::block_index)
//   dash::index(container)     of its whole view; of a container's local part: local offsets
//   dash::index(iterator)      the global index of the element a global iterator points at
//
// An index set reads one past its end too: *end() is the index after the last one along the
// range's order (for a contiguous range: last() + 1), as DASH's do.
//
// | call                                   | cost                                 |
// |----------------------------------------|--------------------------------------|
// | size, s[i], *it, first, last, pattern  | local, O(N) per index                |
// | is_strided                             | local, O(size)                       |
// | domain(): dash::index(dash::domain(v)) | local, O(N)                          |
// | pre(): of local offsets, the global    | local, O(N) per index                |
// |   indices of the same elements; of     |                                      |
// |   global indices, itself               |                                      |
// | domain_block_*/local_block_* (DASH's)  | local, O(N)                          |
#ifndef DASH__VIEW__INDEX_SET_H_
#define DASH__VIEW__INDEX_SET_H_

#include <dash/Exception.h>
#include <dash/internal/BoundsCheck.h>
#include <dash/iterator/internal/PositionIterator.h>
#include <dash/view/BlocksView.h>
#include <dash/view/ComposedView.h>
#include <dash/view/Domain.h>
#include <dash/view/internal/ViewKinds.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace dash {

namespace internal {
// What an index set holds: global indices of a global view, local offsets of a local view,
// global indices of a local view (the preimage of its offsets), block indices of blocks.
enum class IndexKind { global, local, global_of_local, block };

template <class V, class = void>
struct default_index_kind {
  static constexpr IndexKind value = is_local_view_v<V> ? IndexKind::local : IndexKind::global;
};
template <class B, class D>
struct default_index_kind<BlocksView<B, D>> {
  static constexpr IndexKind value = IndexKind::block;
};
}  // namespace internal

template <class ViewT, internal::IndexKind Kind = internal::default_index_kind<ViewT>::value>
class IndexSet {
 public:
  using view_type = ViewT;
  using index_type = typename ViewT::index_type;
  using value_type = index_type;
  using size_type = std::size_t;
  using pattern_type = typename ViewT::pattern_type;
  using rank = typename ViewT::rank;
  // The index set of the view's domain (DASH: every index set has a domain).
  using domain_type =
      IndexSet<std::decay_t<decltype(internal::domain_view(std::declval<const ViewT&>()))>>;

  class iterator : public internal::PositionIterator<iterator, std::ptrdiff_t> {
    using Base = internal::PositionIterator<iterator, std::ptrdiff_t>;

   public:
    using value_type = index_type;
    using reference = index_type;
    using pointer = void;
    iterator() = default;
    iterator(const ViewT& view, std::ptrdiff_t pos) : Base(pos), view_(view) {}
    index_type operator*() const { return IndexSet::index_at(*view_, this->pos_); }
    index_type operator[](std::ptrdiff_t n) const {
      return IndexSet::index_at(*view_, this->pos_ + n);
    }

   private:
    std::optional<ViewT> view_;  // a copy (no allocation): the iterator outlives its set; empty
                                 // only in a default-constructed iterator
  };
  using const_iterator = iterator;

  explicit IndexSet(const ViewT& view) : view_(view) {}

  size_type size() const { return size_type(view_.size()); }
  bool empty() const { return size() == 0; }
  // Index at position i; checked against size() under DASH_CHECK_BOUNDS. Local.
  index_type operator[](size_type i) const {
    if constexpr (internal::bounds_checked)
      internal::check_index("dash::index(view).operator[]", i, size());
    return index_at(view_, std::ptrdiff_t(i));
  }
  iterator begin() const { return iterator(view_, 0); }
  iterator end() const { return iterator(view_, std::ptrdiff_t(size())); }
  // The first and the last index. Throw dash::exception::InvalidArgument for an empty set.
  // Local.
  index_type first() const {
    if (empty()) throw exception::InvalidArgument("dash::IndexSet::first: the index set is empty");
    return index_at(view_, 0);
  }
  index_type last() const {
    if (empty()) throw exception::InvalidArgument("dash::IndexSet::last: the index set is empty");
    return index_at(view_, std::ptrdiff_t(size()) - 1);
  }
  // True unless the indices are first(), first() + 1, ..., last(). Local, O(size).
  bool is_strided() const {
    for (size_type i = 1; i < size(); ++i)
      if (index_at(view_, std::ptrdiff_t(i)) != index_at(view_, std::ptrdiff_t(i - 1)) + 1)
        return true;
    return false;
  }
  const pattern_type& pattern() const { return view_.pattern(); }
  const ViewT& view() const { return view_; }
  // The index set of the view's domain. Local.
  domain_type domain() const { return domain_type(internal::domain_view(view_)); }
  // DASH's preimage: of local offsets, the global indices of the same elements; of global or
  // block indices, the set itself. Local.
  auto pre() const {
    if constexpr (Kind == internal::IndexKind::local)
      return IndexSet<ViewT, internal::IndexKind::global_of_local>(view_);
    else
      return *this;
  }

  // DASH's block lookups of an index set whose domain holds global indices, with P the
  // pattern: the global block index (P.block_at) and the owner's local block index
  // (P.local_block_at) of the domain's last element; the global block index of the calling
  // unit's last element and of its local block lbi. Local, O(N).
  index_type domain_block_gidx_last() const {
    return pattern().block_at(pattern().coords(domain().last()));
  }
  index_type domain_block_lidx_last() const {
    return pattern().local_block_at(pattern().coords(domain().last())).index;
  }
  index_type local_block_gidx_last() const {
    return pattern().block_at(pattern().coords(pattern().lend() - 1));
  }
  index_type local_block_gidx_at_block_lidx(index_type lbi) const {
    return pattern().block_at(pattern().local_block(lbi).offsets());
  }

 private:
  static index_type index_at(const ViewT& view, std::ptrdiff_t pos) {
    if constexpr (Kind == internal::IndexKind::global) {
      return (view.begin() + index_type(pos)).gpos();
    } else if constexpr (Kind == internal::IndexKind::local) {
      return view.local_offset_unchecked(index_type(pos));
    } else if constexpr (Kind == internal::IndexKind::global_of_local) {
      return view.pattern().global_index(view.global_coords(index_type(pos)));
    } else {
      return view.block_index(size_type(pos));
    }
  }

  ViewT view_;  // the range, copied (views are small: a pattern pointer, a rectangle, their domain)
};

// The indices of a view's elements (global view: global indices; local view: local offsets),
// in its iteration order. Local; each index is computed on access.
template <class V, std::enable_if_t<internal::is_view_v<V>, int> = 0>
IndexSet<V> index(const V& view) {
  return IndexSet<V>(view);
}
// The block indices of a range of blocks. Local.
template <class B, class D>
IndexSet<BlocksView<B, D>> index(const BlocksView<B, D>& blocks) {
  return IndexSet<BlocksView<B, D>>(blocks);
}
// A container's global indices; a container's local part's local offsets. Local.
template <class C,
          std::enable_if_t<internal::is_container_v<C> || internal::is_local_part_v<C>, int> = 0>
auto index(C& container) {
  return dash::index(container.view());
}
// The global linear index of the element a global iterator (of a container or a view) points
// at (DASH's dash::index(iterator)). Local.
template <class It>
auto index(const It& it) -> decltype(it.gpos()) {
  return it.gpos();
}
// The index set of an index set's domain. Local.
template <class V, internal::IndexKind K>
auto domain(const IndexSet<V, K>& indices) {
  return indices.domain();
}

}  // namespace dash

// Programs that include this header by path (DASH's) get the view functions too.
#include <dash/view/ViewFunctions.h>

#endif  // DASH__VIEW__INDEX_SET_H_
