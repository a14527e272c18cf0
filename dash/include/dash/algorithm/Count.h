// dash::count / dash::count_if: how many elements of a global range of a 1-D
// container (dash::Array) equal a value / satisfy a predicate, on every
// unit.
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
template <class T, class P, class Pred>
typename P::index_type count_if(GlobIter<T, P> first, GlobIter<T, P> last, Pred pred) {
  using I = typename P::index_type;
  long long mine = 0;
  internal::for_each_local_segment(first, last, [&](T* b, T* e, I) {
    mine += static_cast<long long>(std::count_if(b, e, std::ref(pred)));
  });
  Team* team = internal::range_team(first);
  if (team == nullptr) return 0;
  return I(internal::allreduce_value(mine, DART_OP_SUM, *team, "dash::count_if"));
}

// Number of elements of [first, last) equal to value. Collective over the
// team.
template <class T, class P, class V>
typename P::index_type count(GlobIter<T, P> first, GlobIter<T, P> last, const V& value) {
  return dash::count_if(first, last,
                        [&value](const std::remove_const_t<T>& x) { return x == value; });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__COUNT_H_
