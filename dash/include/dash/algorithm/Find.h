// dash::find / dash::find_if: the first element of a global range (a
// container's range, a sub-range or a view) that equals a value / satisfies a
// predicate, as an iterator of the range on every unit, or last if none does.
//
// Each unit searches its own elements of [first, last) with std::find_if on
// native memory, then ONE allreduce (DART_OP_MIN over global indices) picks
// the first match in global order.
//
// | call                         | cost                        |
// |------------------------------|-----------------------------|
// | find(first, last, value)     | collective over the team    |
// | find_if(first, last, pred)   | collective over the team    |
#ifndef DASH__ALGORITHM__FIND_H_
#define DASH__ALGORITHM__FIND_H_

#include <dash/algorithm/internal/Collective.h>
#include <dash/iterator/GlobIter.h>

#include <algorithm>
#include <functional>
#include <limits>

namespace dash {

// The first element x of [first, last) with pred(x), or last. Collective
// over the team.
template <class GlobIt, class Pred>
internal::if_glob_iter_t<GlobIt, GlobIt> find_if(GlobIt first, GlobIt last, Pred pred) {
  using T = internal::glob_element_t<GlobIt>;
  using I = internal::glob_index_t<GlobIt>;
  constexpr long long none = std::numeric_limits<long long>::max();
  long long mine = none;
  // Runs before this unit's best hit so far are searched; later ones skipped.
  internal::Failure failure;
  try {
    internal::for_each_local_run(first, last, [&](T* b, T* e, I pos, I) {
      if (static_cast<long long>(pos) >= mine) return;
      T* m = std::find_if(b, e, std::ref(pred));
      if (m != e) mine = static_cast<long long>(pos + I(m - b));
    });
  } catch (...) {
    failure.capture();
  }
  Team* team = internal::range_team(first);
  if (team == nullptr) return last;
  long long g = internal::allreduce_value(mine, DART_OP_MIN, *team, "dash::find_if", failure);
  return g == none ? last : first + (I(g) - I(first.pos()));
}

// The first element of [first, last) equal to value, or last. Collective
// over the team.
template <class GlobIt, class V>
internal::if_glob_iter_t<GlobIt, GlobIt> find(GlobIt first, GlobIt last, const V& value) {
  return dash::find_if(first, last,
                       [&value](const internal::glob_value_t<GlobIt>& x) { return x == value; });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__FIND_H_
