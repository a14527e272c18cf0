// The calling unit's part of a global range, as native pointers or local
// offsets, so algorithms run their local work on raw memory:
//   dash::local_range(first, last)        one dash::Range<T> per contiguous local
//                                         segment, in global order (the seed's form)
//   dash::local_index_range(first, last)  the local offsets [begin, end) of the
//                                         range (DASH's form)
// Both are local and cost O(number of segments); no element moves. They need
// a 1-D pattern that deals blocks per dimension (BlockPattern, TilePattern),
// whose local part of a global range is one range of local offsets.
#ifndef DASH__ALGORITHM__LOCAL_RANGE_H_
#define DASH__ALGORITHM__LOCAL_RANGE_H_

#include <dash/Exception.h>
#include <dash/iterator/GlobIter.h>
#include <dash/pattern/SizeSpec.h>

#include <algorithm>
#include <vector>

namespace dash {

// A contiguous range of native elements.
template <class T>
struct Range {
  T* begin;
  T* end;
};

// A range [begin, end) of local offsets.
template <class IndexType>
struct LocalIndexRange {
  IndexType begin;
  IndexType end;
};

namespace internal {

template <class T, class P>
void check_local_range_args(const GlobIter<T, P>& first, const GlobIter<T, P>& last,
                            const char* who) {
  static_assert(P::ndim() == 1, "dash::local_range needs a 1-D pattern (dash::Array)");
  if (first.memory() != last.memory())
    throw exception::InvalidArgument(std::string(who) +
                                     ": first and last belong to different "
                                     "containers");
  if (last < first) throw exception::InvalidArgument(std::string(who) + ": last is before first");
}

}  // namespace internal

// Local offsets [begin, end) of the elements of [first, last) the calling
// unit owns (begin == end if none). Local, O(1).
template <class T, class P>
LocalIndexRange<typename P::index_type> local_index_range(const GlobIter<T, P>& first,
                                                          const GlobIter<T, P>& last) {
  using I = typename P::index_type;
  internal::check_local_range_args(first, last, "dash::local_index_range");
  if (first == last) return {0, 0};
  auto rect = first.pattern().local_rectangle(
      ViewSpec<1, I>({first.pos()}, {typename P::size_type(last - first)}));
  return {rect.offset(0), rect.offset(0) + I(rect.extent(0))};
}

// The calling unit's elements of [first, last) as native ranges, one per
// maximal run of elements that are contiguous both globally and locally, in
// global order. Local, O(number of segments).
template <class T, class P>
std::vector<Range<T>> local_range(const GlobIter<T, P>& first, const GlobIter<T, P>& last) {
  using I = typename P::index_type;
  std::vector<Range<T>> out;
  auto idx = local_index_range(first, last);
  if (idx.begin == idx.end) return out;
  const P& pattern = first.pattern();
  T* base = first.memory()->lbegin();
  I block = pattern.blocksize(0);
  // Local blocks are globally contiguous; consecutive local blocks only when
  // their global indices touch (one unit, or one block per unit).
  I seg_begin = idx.begin;
  I o = idx.begin;
  while (o < idx.end) {
    I block_end = std::min<I>((o / block + 1) * block, idx.end);
    if (block_end < idx.end && pattern.global(block_end) != pattern.global(block_end - 1) + 1) {
      out.push_back(Range<T>{base + seg_begin, base + block_end});
      seg_begin = block_end;
    }
    o = block_end;
  }
  out.push_back(Range<T>{base + seg_begin, base + idx.end});
  return out;
}

}  // namespace dash

#endif  // DASH__ALGORITHM__LOCAL_RANGE_H_
