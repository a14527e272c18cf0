// The runs of a view range that are contiguous in their owner's memory, for
// the one-sided transfers of view copies and of the algorithms that write to
// other units (dash::transform's local-first form).
#ifndef DASH__ALGORITHM__INTERNAL__OWNER_RUNS_H_
#define DASH__ALGORITHM__INTERNAL__OWNER_RUNS_H_

#include <dash/iterator/GlobViewIter.h>
#include <dash/pattern/internal/IrregularPattern.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace dash {
namespace internal {

// Joins pieces (unit, local offset, position, length) given in position order into runs
// that continue each other both in their owner's memory and in position, passed to
// f(unit, local offset, position, length); finish() passes the last. Local, no allocation.
template <class I, class F>
class OwnerRunJoiner {
 public:
  explicit OwnerRunJoiner(F& f) : f_(f) {}
  void add(team_unit_t unit, I src, I pos, I len) {
    if (len_ > 0 && unit == unit_ && src == src_ + len_ && pos == pos_ + len_) {
      len_ += len;
      return;
    }
    finish();
    unit_ = unit, src_ = src, pos_ = pos, len_ = len;
  }
  void finish() {
    if (len_ > 0) f_(unit_, src_, pos_, len_);
    len_ = 0;
  }

 private:
  F& f_;
  team_unit_t unit_;
  I src_ = 0, pos_ = 0, len_ = 0;
};

// Calls f(unit, local offset, k, len) for runs of view positions
// [first, first + n) that are contiguous in their owner's memory, k being
// the position of the run's first element relative to first. The view is
// walked along its fastest-moving dimension in pieces that end at block
// borders or the view's edge; pieces that continue each other both in the
// owner's memory and in position are merged (a whole tile of a TilePattern,
// or full rows of a BlockPattern). Local, O(pieces).
template <class T, class P, class F>
void for_each_owner_run(const GlobViewIter<T, P>& first, std::size_t n, F&& f) {
  using I = typename P::index_type;
  constexpr dim_t N = P::ndim();
  constexpr dim_t fast = P::memory_order() == ROW_MAJOR ? N - 1 : 0;
  const P& pattern = first.pattern();
  const auto& space = first.viewspec();
  const I block = pattern.blocksize(fast);
  const I view_end = space.offset(fast) + I(space.extent(fast));
  OwnerRunJoiner<I, std::remove_reference_t<F>> runs(f);
  for (I k = 0; k < I(n);) {
    auto coords = (first + k).coords();
    auto l = pattern.local_index(coords);
    I x = coords[fast];
    // The end of x's block: a multiple of the block size, or (irregular patterns, 1-D) the end
    // of its owner's block.
    I block_end;
    if constexpr (is_irregular_pattern_v<P>) {
      block_end = x + pattern.local_run(x).run;
    } else {
      block_end = (x / block + 1) * block;
    }
    I run = std::min({block_end, view_end, x + (I(n) - k)}) - x;
    runs.add(l.unit, l.index, k, run);
    k += run;
  }
  runs.finish();
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__ALGORITHM__INTERNAL__OWNER_RUNS_H_
