// dash::min_element / dash::max_element: the first smallest / largest
// element of a global range of a 1-D container (dash::Array), as a GlobIter
// on every unit; ties go to the lowest global index, an empty range yields
// last.
//
// Each unit searches its own elements of [first, last) with std::min_element
// on native memory, then ONE allgather of (value, global index) per unit
// picks the winner; units without elements are skipped.
//
// | call                                  | cost                        |
// |---------------------------------------|-----------------------------|
// | min_element(first, last[, comp])      | collective over the team    |
// | max_element(first, last[, comp])      | collective over the team    |
#ifndef DASH__ALGORITHM__MIN_MAX_H_
#define DASH__ALGORITHM__MIN_MAX_H_

#include <dash/algorithm/internal/Collective.h>
#include <dash/iterator/GlobIter.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

namespace dash {

// The first element x of [first, last) with no y such that comp(y, x), or
// last if the range is empty. Collective over the team.
template <class T, class P, class Compare>
GlobIter<T, P> min_element(GlobIter<T, P> first, GlobIter<T, P> last, Compare comp) {
  using I = typename P::index_type;
  using V = std::remove_const_t<T>;
  struct Record {
    V value;
    I g;
    unsigned char has;
  };
  Record mine;
  std::memset(&mine, 0, sizeof(mine));
  // Segments come in global order: a later one wins only if strictly smaller.
  internal::for_each_local_segment(first, last, [&](T* b, T* e, I g) {
    T* m = std::min_element(b, e, std::ref(comp));
    if (!mine.has || comp(*m, mine.value)) {
      mine.value = *m;
      mine.g = g + I(m - b);
      mine.has = 1;
    }
  });
  Team* team = internal::range_team(first);
  if (team == nullptr) return last;
  std::vector<Record> all = internal::allgather_records(mine, *team, "dash::min_element");
  const Record* best = nullptr;
  for (const Record& r : all) {
    if (!r.has) continue;
    if (best == nullptr || comp(r.value, best->value) ||
        (!comp(best->value, r.value) && r.g < best->g))
      best = &r;
  }
  return best == nullptr ? last : first + (best->g - first.pos());
}

// The first smallest element of [first, last) by operator<, or last.
// Collective over the team.
template <class T, class P>
GlobIter<T, P> min_element(GlobIter<T, P> first, GlobIter<T, P> last) {
  return dash::min_element(first, last, std::less<std::remove_const_t<T>>());
}

// The first element x of [first, last) with no y such that comp(x, y), or
// last if the range is empty. Collective over the team.
template <class T, class P, class Compare>
GlobIter<T, P> max_element(GlobIter<T, P> first, GlobIter<T, P> last, Compare comp) {
  using V = std::remove_const_t<T>;
  return dash::min_element(first, last, [&comp](const V& a, const V& b) { return comp(b, a); });
}

// The first largest element of [first, last) by operator<, or last.
// Collective over the team.
template <class T, class P>
GlobIter<T, P> max_element(GlobIter<T, P> first, GlobIter<T, P> last) {
  return dash::max_element(first, last, std::less<std::remove_const_t<T>>());
}

}  // namespace dash

#endif  // DASH__ALGORITHM__MIN_MAX_H_
