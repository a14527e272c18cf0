// Reading and writing parts of any global range (GlobIter of a 1-D or N-D
// container, GlobViewIter) for the algorithms that combine ranges
// (transform, equal): native access where the part is the calling unit's,
// batched one-sided transfers otherwise, owner runs for atomic updates, and
// the overlap rules.
#ifndef DASH__ALGORITHM__INTERNAL__RANGE_ACCESS_H_
#define DASH__ALGORITHM__INTERNAL__RANGE_ACCESS_H_

#include <dash/Exception.h>
#include <dash/algorithm/Copy.h>
#include <dash/algorithm/CopyView.h>
#include <dash/algorithm/internal/LocalRuns.h>

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <vector>

namespace dash {
namespace internal {

// The same position as an iterator over a view: GlobIter of an N-D
// container becomes a GlobViewIter over all of it. Not for a tile-ordered
// pattern, whose positions a view (row- or column-major) would read otherwise.
// Local.
template <class T, class P>
GlobViewIter<T, P> as_view_iter(const GlobIter<T, P>& it) {
  static_assert(!P::tile_order(), "as_view_iter: a tiled container's positions are not a view's");
  return GlobViewIter<T, P>(it.memory(), &it.pattern(), positions_space(it), it.pos(), it.stamp());
}
template <class T, class P>
const GlobViewIter<T, P>& as_view_iter(const GlobViewIter<T, P>& it) {
  return it;
}

// Number of positions of the range's iteration space. Local.
template <class It>
std::size_t space_size(const It& it) {
  return std::size_t(positions_space(it).size());
}

// Throws unless [first, first + n) lies inside the iteration space of
// first. Local.
template <class It>
void check_range_fits(const It& first, std::size_t n, const char* who, const char* what) {
  if (first.memory() == nullptr && n == 0) return;
  if (first.pos() < 0 || std::size_t(first.pos()) + n > space_size(first))
    throw exception::InvalidArgument(std::string(who) + ": " + what + " runs past its end (" +
                                     std::to_string(n) + " elements from position " +
                                     std::to_string(first.pos()) + " of " +
                                     std::to_string(space_size(first)) + ")");
}

// Native pointer to [first, first + n) if the calling unit owns all of it as
// one contiguous run in range order, else nullptr. Local, O(N).
template <class It>
glob_element_t<It>* native_run(const It& first, std::size_t n) {
  using T = glob_element_t<It>;
  using I = glob_index_t<It>;
  using P = typename glob_iter_traits<It>::pattern;
  if (n == 0) return nullptr;
  if constexpr (!glob_iter_traits<It>::is_view && P::ndim() == 1) {
    // A unit's elements of a 1-D range are one run of its memory, in order.
    auto idx = local_index_range(first, first + I(n));
    return std::size_t(idx.end - idx.begin) == n ? first.memory()->lbegin() + idx.begin : nullptr;
  }
  T* found = nullptr;
  std::size_t runs = 0;
  for_each_local_run(first, first + I(n), [&](T* b, T* e, I, I) {
    ++runs;
    if (std::size_t(e - b) == n) found = b;
  });
  return runs == 1 ? found : nullptr;
}

// Starts the transfers between [first, first + n) and buf[0, n) (Get:
// global to buf, else buf to global); appends handles. One-sided.
template <bool Get, class It, class Buf, class Handles>
void start_range_transfers(const It& first, std::size_t n, Buf* buf, Handles& handles) {
  using P = typename glob_iter_traits<It>::pattern;
  using I = glob_index_t<It>;
  if (n == 0) return;
  if constexpr (!glob_iter_traits<It>::is_view && (P::ndim() == 1 || P::tile_order())) {
    start_transfers<Get>(first, first + I(n), buf, handles);
  } else {
    auto v = as_view_iter(first);
    start_view_transfers<Get>(v, v + I(n), buf, handles);
  }
}

// Starts getting [first, first + n) into buf. One-sided.
template <class It, class Handles>
void start_get_range(const It& first, std::size_t n, glob_value_t<It>* buf, Handles& handles) {
  start_range_transfers<true>(first, n, buf, handles);
}

// Starts putting buf[0, n) to [out, out + n). One-sided.
template <class It, class Handles>
void start_put_range(const glob_value_t<It>* buf, std::size_t n, const It& out, Handles& handles) {
  start_range_transfers<false>(out, n, buf, handles);
}

// for_each_owner_run (OwnerRuns.h) for a GlobIter range: the pattern's runs
// (Pattern::local_run), merged where they continue each other in their owner's
// memory. Local, O(runs).
template <class T, class P, class F>
void for_each_owner_run(const GlobIter<T, P>& first, std::size_t n, F&& f) {
  using I = typename P::index_type;
  const P& pattern = first.pattern();
  const I p = I(first.pos());
  OwnerRunJoiner<I, std::remove_reference_t<F>> runs(f);
  for (I k = 0; k < I(n);) {
    const auto r = pattern.local_run(p + k);
    const I run = std::min(r.run, I(n) - k);
    runs.add(r.unit, r.index, k, run);
    k += run;
  }
  runs.finish();
}

// Bounding rectangle, in global coordinates, of positions [first,
// first + n) (n > 0). Local, O(N^2).
template <class It>
auto bounding_rectangle(const It& first, std::size_t n) {
  using P = typename glob_iter_traits<It>::pattern;
  using I = glob_index_t<It>;
  constexpr dim_t N = P::ndim();
  std::array<I, N> lo, hi;
  lo.fill(std::numeric_limits<I>::max());
  hi.fill(std::numeric_limits<I>::min());
  for_each_box_of_range<false>(first, n, [&](const auto& goff, const auto& len, auto, const auto&) {
    for (dim_t d = 0; d < N; ++d) {
      lo[d] = std::min(lo[d], goff[d]);
      hi[d] = std::max(hi[d], goff[d] + I(len[d]));
    }
  });
  return std::make_pair(lo, hi);
}

// True if a and b start at the same element of the same container and
// count positions in the same space (so equal positions are equal elements).
// Local.
template <class A, class B>
bool same_range_start(const A& a, const B& b) {
  if constexpr (glob_iter_traits<A>::is_view != glob_iter_traits<B>::is_view) {
    return false;
  } else {
    auto sa = positions_space(a);
    auto sb = positions_space(b);
    return static_cast<const void*>(a.memory()) == static_cast<const void*>(b.memory()) &&
           a.pos() == b.pos() && sa.offsets() == sb.offsets() && sa.extents() == sb.extents();
  }
}

// Throws if output range [out, out + n) shares elements with input range
// [in, in + n) without being the very same range (then elements would be
// read after another unit overwrote them). Local.
template <class In, class Out>
void check_in_place_or_disjoint(const In& in, const Out& out, std::size_t n, const char* who) {
  if (n == 0 || static_cast<const void*>(in.memory()) != static_cast<const void*>(out.memory()))
    return;
  if (same_range_start(in, out)) return;  // in place
  auto a = bounding_rectangle(in, n);
  auto b = bounding_rectangle(out, n);
  for (std::size_t d = 0; d < a.first.size(); ++d)
    if (a.second[d] <= b.first[d] || b.second[d] <= a.first[d]) return;  // disjoint
  throw exception::InvalidArgument(std::string(who) +
                                   ": the output range overlaps an input range without being "
                                   "the same range");
}

// Checks an input range: first and last form a range that fits its space.
template <class It>
void check_input(const It& first, const It& last, const char* who) {
  check_glob_range(first, last, who);
  check_range_fits(first, std::size_t(last - first), who, "the input range");
}

// Input access for an algorithm that reads a second range at the positions
// of the calling unit's runs of the first (transform, equal): native
// pointers where the unit owns the input run, else fetched into one buffer.
template <class In>
class StagedInput {
 public:
  using V = glob_value_t<In>;
  using I = glob_index_t<In>;
  explicit StagedInput(In first) : first_(first) {}
  // Registers output run k: input positions [k, k + len); returns its slot.
  std::size_t add(I k, std::size_t len) {
    const V* p = native_run(first_ + k, len);
    if (p != nullptr) {
      runs_.push_back({p, 0, k, len});
    } else {
      runs_.push_back({nullptr, staged_, k, len});
      staged_ += len;
    }
    return runs_.size() - 1;
  }
  // Fetches the registered non-native runs (all gets started, then waited).
  void fetch(const char* who) {
    if (staged_ == 0) return;
    buffer_.resize(staged_);
    std::vector<dart_handle_t> handles;
    for (const Run& r : runs_)
      if (r.native == nullptr)
        start_get_range(first_ + r.k, r.len, buffer_.data() + r.offset, handles);
    if (!handles.empty()) check_dart(dart_waitall(handles.data(), handles.size()), who);
  }
  // Native pointer to the input of slot s (valid after fetch).
  const V* data(std::size_t s) const {
    const Run& r = runs_[s];
    return r.native != nullptr ? r.native : buffer_.data() + r.offset;
  }

 private:
  struct Run {
    const V* native;
    std::size_t offset;
    I k;
    std::size_t len;
  };
  In first_;
  std::vector<Run> runs_;
  std::vector<V> buffer_;
  std::size_t staged_ = 0;
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__ALGORITHM__INTERNAL__RANGE_ACCESS_H_
