// dash::count / dash::count_if: how many elements of a global range (a
// container's range, a sub-range or a view) equal a value / satisfy a
// predicate, on every unit.
//
// Each unit counts its own elements of [first, last) with std::count_if on
// native memory, then ONE allreduce (DART_OP_SUM) adds the counts.
//
// | call                          | cost                        |
// |-------------------------------|-----------------------------|
// | count(first, last, value)     | collective over the team    |
// | count_if(first, last, pred)   | collective over the team    |
#ifndef DASH__ALGORITHM__COUNT_H_
#define DASH__ALGORITHM__COUNT_H_

#include <dash/algorithm/internal/Collective.h>
#include <dash/iterator/GlobIter.h>

#include <algorithm>
#include <functional>

namespace dash {

// Number of elements x of [first, last) with pred(x). Collective over the
// team.
template <class GlobIt, class Pred>
internal::if_glob_iter_t<GlobIt, internal::glob_index_t<GlobIt>> count_if(GlobIt first, GlobIt last,
                                                                          Pred pred) {
  using T = internal::glob_element_t<GlobIt>;
  using I = internal::glob_index_t<GlobIt>;
  long long mine = 0;
  internal::Failure failure;
  try {
    internal::for_each_local_run<false>(first, last, [&](T* b, T* e, auto, auto) {
      mine += static_cast<long long>(std::count_if(b, e, std::ref(pred)));
    });
  } catch (...) {
    failure.capture();
  }
  Team* team = internal::range_team(first);
  if (team == nullptr) return 0;
  return I(internal::allreduce_value(mine, DART_OP_SUM, *team, "dash::count_if", failure));
}

// Number of elements of [first, last) equal to value. Collective over the
// team.
template <class GlobIt, class V>
internal::if_glob_iter_t<GlobIt, internal::glob_index_t<GlobIt>> count(GlobIt first, GlobIt last,
                                                                       const V& value) {
  return dash::count_if(first, last,
                        [&value](const internal::glob_value_t<GlobIt>& x) { return x == value; });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__COUNT_H_
