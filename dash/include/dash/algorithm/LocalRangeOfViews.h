// dash::local_index_range(first, last) and dash::local_range(first, last) over the iterators of
// views, as DASH takes them:
//   a global view's (GlobViewIter: m.block(...).begin(), m.sub<0>(...).begin()): the calling
//     unit's elements of [first, last), as for a container's range: local offsets [begin, end)
//     and native pointers, when they fill that range of local memory without gaps;
//   a local view's (LocalView iterators: m.local.row(i).begin(), dash::local(view).begin()):
//     [first, last) itself, whose elements must follow each other in local memory in iteration
//     order (a local row of a BlockPattern matrix, rows of one tile of a TilePattern one).
// Otherwise both throw dash::exception::InvalidArgument, as for N-D container ranges; an empty
// range gives begin == end. No element moves.
//
// | call                                  | cost                                   |
// |---------------------------------------|----------------------------------------|
// | local_index_range, local_range (glob) | local, O(runs of local memory)         |
// | local_index_range, local_range (local)| local, O(N^2)                          |
#ifndef DASH__ALGORITHM__LOCAL_RANGE_OF_VIEWS_H_
#define DASH__ALGORITHM__LOCAL_RANGE_OF_VIEWS_H_

#include <dash/Exception.h>
#include <dash/algorithm/LocalRange.h>
#include <dash/algorithm/internal/LocalRuns.h>
#include <dash/iterator/GlobViewIter.h>
#include <dash/view/LocalView.h>

#include <algorithm>
#include <string>
#include <type_traits>

namespace dash {

namespace internal {

// True for the iterators of a dash::LocalView.
template <class It, class = void>
struct is_local_view_iter : std::false_type {};
template <class It>
struct is_local_view_iter<It, std::void_t<typename It::local_view_type>>
    : std::is_same<It, typename It::local_view_type::iterator> {};
template <class It>
inline constexpr bool is_local_view_iter_v = is_local_view_iter<std::decay_t<It>>::value;

// The local offsets of local view positions [first, last); throws InvalidArgument naming `who`
// unless they follow each other in local memory in order, or the iterators belong to different
// views. Local, O(N^2).
template <class It>
auto local_view_offsets(const It& first, const It& last, const char* who) {
  using I = typename It::local_view_type::index_type;
  const auto view = first.view();
  if (view.viewspec() != last.view().viewspec() || view.lbegin() != last.view().lbegin())
    throw exception::InvalidArgument(std::string(who) +
                                     ": first and last belong to different views");
  if (last < first) throw exception::InvalidArgument(std::string(who) + ": last is before first");
  if (first == last) return LocalIndexRange<I>{0, 0};
  if (!view.positions_contiguous(first.pos(), last.pos()))
    throw exception::InvalidArgument(std::string(who) +
                                     ": the view's elements in this range are not contiguous in "
                                     "local memory (a local row of a BlockPattern matrix, rows "
                                     "of one tile are); walk the view instead");
  const I begin = view.local_offset(first.pos());
  return LocalIndexRange<I>{begin, begin + I(last - first)};
}

}  // namespace internal

// The calling unit's elements of global view positions [first, last) as local offsets
// [begin, end) (begin == end if it holds none). Throws dash::exception::InvalidArgument unless
// they fill that range of its memory without gaps. Local, O(runs).
template <class T, class P>
LocalIndexRange<typename P::index_type> local_index_range(const GlobViewIter<T, P>& first,
                                                          const GlobViewIter<T, P>& last) {
  using I = typename P::index_type;
  internal::check_glob_range(first, last, "dash::local_index_range");
  if (first == last || first.memory() == nullptr) return {0, 0};
  return internal::contiguous_local_offsets<I>(first, last,
                                               static_cast<const T*>(first.memory()->lbegin()),
                                               "dash::local_index_range", "walk the view instead");
}

// The same as native pointers (DASH's LocalRange: .begin, .end). Local, O(runs).
template <class T, class P>
LocalRange<T> local_range(const GlobViewIter<T, P>& first, const GlobViewIter<T, P>& last) {
  const auto idx = local_index_range(first, last);
  T* base = first.memory() != nullptr ? first.memory()->lbegin() : nullptr;
  if (base == nullptr) return {};
  return {base + idx.begin, base + idx.end};
}

// Local view positions [first, last) as local offsets [begin, end): begin is the offset of
// *first. Throws dash::exception::InvalidArgument unless their elements follow each other in
// local memory in iteration order. Local, O(N^2).
template <class It, class = std::enable_if_t<internal::is_local_view_iter_v<It>>>
auto local_index_range(const It& first, const It& last) {
  return internal::local_view_offsets(first, last, "dash::local_index_range");
}

// The same as native pointers (DASH's LocalRange: .begin is &*first, .end one past the last
// element). Local, O(N^2).
template <class It, class = std::enable_if_t<internal::is_local_view_iter_v<It>>>
auto local_range(const It& first, const It& last) {
  using T = std::remove_reference_t<decltype(*first)>;
  const auto idx = internal::local_view_offsets(first, last, "dash::local_range");
  if (first == last) return LocalRange<T>{};
  T* at = &*first;
  return LocalRange<T>{at, at + (idx.end - idx.begin)};
}

}  // namespace dash

#endif  // DASH__ALGORITHM__LOCAL_RANGE_OF_VIEWS_H_
