// The calling unit's part of a global range, as native pointers or local
// offsets, so algorithms run their local work on raw memory:
//   dash::local_range(first, last)        DASH's LocalRange: .begin and .end,
//                                         native pointers to the unit's first
//                                         element of the range and past its last;
//                                         converts to the segment form, one
//                                         dash::Range<T> per contiguous local
//                                         segment in global order
//                                         (std::vector<dash::Range<T>> v = ...)
//   dash::local_index_range(first, last)  the local offsets [begin, end)
// Both are local; no element moves. On a 1-D pattern that deals blocks
// (BlockPattern, TilePattern) a unit's part of a range is always one range of
// local offsets (O(1)). On an N-D matrix it is one when the part is
// contiguous in the unit's memory (whole local rows of a row-distributed
// matrix, the whole matrix, ...; O(runs)); for other N-D ranges both throw
// dash::exception::InvalidArgument, as DASH does not support them either.
// The forms over the iterators of global and local views are in
// LocalRangeOfViews.h (included with this file).
#ifndef DASH__ALGORITHM__LOCAL_RANGE_H_
#define DASH__ALGORITHM__LOCAL_RANGE_H_

#include <dash/Exception.h>
#include <dash/iterator/GlobIter.h>
#include <dash/pattern/SizeSpec.h>

#include <algorithm>
#include <string>
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

// DASH's result of local_range: native pointers [begin, end).
template <class T>
struct LocalRange {
  T* begin = nullptr;
  T* end = nullptr;
};

namespace internal {

// Defined in internal/LocalRuns.h (included at the end of this file).
template <bool Positions, class It, class F>
void for_each_local_run(const It& first, const It& last, F&& f);

// The local offsets [lowest, highest) (from base, the unit's first local element) of the
// calling unit's elements of [first, last), whose runs must fill that range without gaps;
// throws dash::exception::InvalidArgument naming `call` and suggesting `instead` otherwise.
// Local, O(runs).
template <class I, class T, class It>
LocalIndexRange<I> contiguous_local_offsets(const It& first, const It& last, const T* base,
                                            const char* call, const char* instead) {
  I lo = 0, hi = 0, count = 0;
  for_each_local_run<false>(first, last, [&](T* b, T* e, I, I) {
    const I s = I(b - base), t = I(e - base);
    lo = count == 0 ? s : std::min(lo, s);
    hi = count == 0 ? t : std::max(hi, t);
    count += t - s;
  });
  if (hi - lo != count)
    throw exception::InvalidArgument(std::string(call) +
                                     ": the calling unit's elements of this range are not "
                                     "contiguous in its memory (" +
                                     std::to_string(count) + " elements spread over " +
                                     std::to_string(hi - lo) + " local offsets); " + instead);
  return {lo, hi};
}

template <class T, class P>
void check_local_range_args(const GlobIter<T, P>& first, const GlobIter<T, P>& last,
                            const char* who) {
  if (first.memory() != nullptr && (!first.stamp().live() || !last.stamp().live()))
    throw_stale_handle(who);
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
  if constexpr (P::ndim() == 1) {
    auto rect = first.pattern().local_rectangle(
        ViewSpec<1, I>({first.pos()}, {typename P::size_type(last - first)}));
    return {rect.offset(0), rect.offset(0) + I(rect.extent(0))};
  } else {
    // The unit's runs of the range, merged where they continue each other:
    // one range of offsets if they fill [lowest, highest) without gaps.
    return internal::contiguous_local_offsets<I>(
        first, last, static_cast<const T*>(first.memory()->lbegin()), "dash::local_range",
        "walk the range with the algorithms or a view instead");
  }
}

namespace internal {

// The segment form of local_range: one native range per maximal run of the
// calling unit's elements of [first, last) that is contiguous both globally
// and locally, in global order. Local, O(number of segments).
template <class T, class P>
std::vector<Range<T>> local_segments(const GlobIter<T, P>& first, const GlobIter<T, P>& last) {
  using I = typename P::index_type;
  std::vector<Range<T>> out;
  auto idx = local_index_range(first, last);
  if constexpr (P::ndim() > 1) {
    if (idx.begin != idx.end) {
      T* base = first.memory()->lbegin();
      out.push_back(Range<T>{base + idx.begin, base + idx.end});
    }
    return out;
  }
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

// What local_range returns: DASH's LocalRange (begin, end), convertible to
// the segment form std::vector<Range<T>>, computed on conversion.
template <class T, class P>
class LocalRangeResult : public LocalRange<T> {
 public:
  LocalRangeResult(const GlobIter<T, P>& first, const GlobIter<T, P>& last)
      : first_(first), last_(last) {
    auto idx = local_index_range(first, last);
    T* base = first.memory() != nullptr ? first.memory()->lbegin() : nullptr;
    this->begin = base + idx.begin;
    this->end = base + idx.end;
  }
  // The segment form (allocates the vector). Local, O(segments).
  operator std::vector<Range<T>>() const { return local_segments(first_, last_); }

 private:
  GlobIter<T, P> first_, last_;
};

}  // namespace internal

// The calling unit's elements of [first, last): .begin and .end (DASH's
// LocalRange), or, converted to std::vector<dash::Range<T>>, one native range
// per contiguous segment (see the top of the file). Local.
template <class T, class P>
internal::LocalRangeResult<T, P> local_range(const GlobIter<T, P>& first,
                                             const GlobIter<T, P>& last) {
  return internal::LocalRangeResult<T, P>(first, last);
}

}  // namespace dash

#endif  // DASH__ALGORITHM__LOCAL_RANGE_H_

// After the guard: LocalRuns.h includes this file for Range and
// local_range's segments, and defines for_each_local_run, which the N-D
// local_index_range above calls (and, at its end, the forms over view iterators).
#include <dash/algorithm/internal/LocalRuns.h>
