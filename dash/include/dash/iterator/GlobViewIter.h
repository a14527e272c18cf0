// dash::GlobViewIter: random-access iterator over the elements of a
// rectangular view (GlobView) of a container, in Arrangement order of the
// view's coordinates (row by row for ROW_MAJOR, tiled patterns too).
// Position p maps to view coordinates, then to global coordinates, owner and
// offset: O(N) arithmetic, no runtime call.
// Under DASH_CHECK_BOUNDS (dash/internal/BoundsCheck.h) dereferencing a
// position outside [0, view size) throws dash::exception::OutOfRange.
#ifndef DASH__ITERATOR__GLOB_VIEW_ITER_H_
#define DASH__ITERATOR__GLOB_VIEW_ITER_H_

#include <dash/internal/BoundsCheck.h>
#include <dash/iterator/internal/PositionIterator.h>
#include <dash/memory/GlobStaticMem.h>
#include <dash/pattern/LocalIndex.h>
#include <dash/pattern/SizeSpec.h>

#include <iterator>
#include <ostream>
#include <type_traits>

namespace dash {

template <class T, class PatternT>
class GlobViewIter
    : public internal::PositionIterator<GlobViewIter<T, PatternT>, typename PatternT::index_type> {
  using Base = internal::PositionIterator<GlobViewIter<T, PatternT>, typename PatternT::index_type>;

 public:
  using Base::pos;
  static constexpr dim_t N = PatternT::ndim();
  using value_type = std::remove_const_t<T>;
  using index_type = typename PatternT::index_type;
  using difference_type = index_type;
  using reference = GlobRef<T>;
  using pointer = GlobPtr<T>;
  using viewspec_type = ViewSpec<N, index_type>;
  using memory_type = GlobStaticMem<value_type>;

  GlobViewIter() = default;
  // stamp: the liveness of mem (see internal/MemoryStamp.h), taken by the caller
  // while mem existed.
  GlobViewIter(const memory_type* mem, const PatternT* pattern, const viewspec_type& view,
               index_type pos, internal::MemoryStamp stamp)
      : Base(pos), mem_(mem), pattern_(pattern), view_(view), stamp_(stamp) {}
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  GlobViewIter(const GlobViewIter<U, PatternT>& o)
      : Base(o.pos()),
        mem_(o.memory()),
        pattern_(&o.pattern()),
        view_(o.viewspec()),
        stamp_(o.stamp()) {}

  // Throws dash::exception::InvalidArgument if the container memory was
  // freed since the iterator was made; under DASH_CHECK_BOUNDS
  // dash::exception::OutOfRange outside [0, view size).
  reference operator*() const { return element("dash::GlobViewIter::operator*"); }
  reference operator[](difference_type n) const {
    return (*this + n).element("dash::GlobViewIter::operator[]");
  }

  // Global coordinates of the element. Local, O(N).
  std::array<index_type, N> coords() const {
    auto c = internal::delinearize<N, PatternT::memory_order()>(this->pos_, view_.extents());
    for (dim_t d = 0; d < N; ++d) c[d] += view_.offset(d);
    return c;
  }
  // Global linear index of the element. Local.
  index_type gpos() const { return pattern_->global_index(coords()); }
  // Owner and offset of the element. Local.
  local_index_t<index_type> lpos() const { return pattern_->local_index(coords()); }
  // Global pointer to the element. Throws dash::exception::InvalidArgument if the memory was
  // freed. Local.
  pointer globptr() const {
    if (!stamp_.live()) internal::throw_stale_handle("dash::GlobViewIter::globptr");
    auto l = lpos();
    return mem_->at(l.unit, l.index);
  }
  dart_gptr_t dart_gptr() const { return globptr().dart_gptr(); }
  // The global pointer of the element (DASH's conversion, static_cast<GlobPtr<T>>(it)). Local.
  explicit operator pointer() const { return globptr(); }
  bool is_local() const { return lpos().unit == pattern_->myid(); }
  // Native pointer if the calling unit owns the element, else nullptr.
  T* local() const {
    auto l = lpos();
    return l.unit == pattern_->myid() ? mem_->lbegin() + l.index : nullptr;
  }
  const PatternT& pattern() const { return *pattern_; }
  // The team of the container (its pattern's). Local.
  Team& team() const { return pattern_->team(); }
  const memory_type* memory() const { return mem_; }
  const viewspec_type& viewspec() const { return view_; }
  internal::MemoryStamp stamp() const { return stamp_; }

 private:
  // The element at this->pos_; `call` names the operator in messages.
  reference element(const char* call) const {
    if (!stamp_.live()) internal::throw_stale_handle(call);
    if constexpr (internal::bounds_checked) internal::check_index(call, this->pos_, view_.size());
    auto l = pattern_->local_index(coords());
    return mem_->template ref<T>(l.unit, l.index);
  }

  const memory_type* mem_ = nullptr;
  const PatternT* pattern_ = nullptr;
  viewspec_type view_;
  internal::MemoryStamp stamp_;
};

// Number of positions from first to last (DASH's dash::distance). Local.
template <class T, class P>
typename P::index_type distance(const GlobViewIter<T, P>& first, const GlobViewIter<T, P>& last) {
  return last - first;
}

// Writes "dash::GlobViewIter(position 2, index 13)": the position in the view and the element's
// global index ("freed container" for an iterator of freed memory). Local.
template <class T, class P>
std::ostream& operator<<(std::ostream& os, const GlobViewIter<T, P>& it) {
  os << "dash::GlobViewIter(position " << it.pos();
  if (!it.stamp().live()) return os << ", freed container)";
  return os << ", index " << it.gpos() << ")";
}

}  // namespace dash

#endif  // DASH__ITERATOR__GLOB_VIEW_ITER_H_
