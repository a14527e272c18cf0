// dash::find / dash::find_if: the first element of a global range of a 1-D
// container (dash::Array) that equals a value / satisfies a predicate, as a
// GlobIter on every unit, or last if none does.
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
template <class T, class P, class Pred>
GlobIter<T, P> find_if(GlobIter<T, P> first, GlobIter<T, P> last, Pred pred) {
  using I = typename P::index_type;
  constexpr long long none = std::numeric_limits<long long>::max();
  long long mine = none;
  // Segments come in global order: the first hit is this unit's first match.
  internal::for_each_local_segment(first, last, [&](T* b, T* e, I g) {
    if (mine != none) return;
    T* m = std::find_if(b, e, std::ref(pred));
    if (m != e) mine = static_cast<long long>(g + I(m - b));
  });
  Team* team = internal::range_team(first);
  if (team == nullptr) return last;
  long long g = internal::allreduce_value(mine, DART_OP_MIN, *team, "dash::find_if");
  return g == none ? last : first + (I(g) - first.pos());
}

// The first element of [first, last) equal to value, or last. Collective
// over the team.
template <class T, class P, class V>
GlobIter<T, P> find(GlobIter<T, P> first, GlobIter<T, P> last, const V& value) {
  return dash::find_if(first, last,
                       [&value](const std::remove_const_t<T>& x) { return x == value; });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__FIND_H_
