// dash::min_element / dash::max_element: the first smallest / largest
// element of a global range (a container's range, a sub-range or a view),
// as an iterator of the range on every unit; ties go to the lowest position,
// an empty range yields last.
//
// Each unit searches its own elements of [first, last) with std::min_element
// on native memory, then ONE allgather of (value, global index) per unit
// picks the winner; units without elements are skipped.
//
// | call                                  | cost                        |
// |---------------------------------------|-----------------------------|
// | min_element(first, last[, comp])      | collective over the team    |
// | max_element(first, last[, comp])      | collective over the team    |
// | min/max_element(const T*, const T*)   | local (DASH's native form)  |
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
template <class GlobIt, class Compare>
internal::if_glob_iter_t<GlobIt, GlobIt> min_element(GlobIt first, GlobIt last, Compare comp) {
  using T = internal::glob_element_t<GlobIt>;
  using I = internal::glob_index_t<GlobIt>;
  using V = internal::glob_value_t<GlobIt>;
  struct Record {
    V value;
    I pos;
    unsigned char has;
  };
  Record mine;
  std::memset(&mine, 0, sizeof(mine));
  // Ties between runs go to the lower position (runs of N-D ranges come in
  // memory order, not in range order).
  internal::Failure failure;
  try {
    internal::for_each_local_run(first, last, [&](T* b, T* e, I pos, I) {
      T* m = std::min_element(b, e, std::ref(comp));
      I at = pos + I(m - b);
      if (!mine.has || comp(*m, mine.value) || (!comp(mine.value, *m) && at < mine.pos)) {
        mine.value = *m;
        mine.pos = at;
        mine.has = 1;
      }
    });
  } catch (...) {
    failure.capture();
  }
  Team* team = internal::range_team(first);
  if (team == nullptr) return last;
  std::vector<Record> all = internal::allgather_records(mine, *team, "dash::min_element", failure);
  const Record* best = nullptr;
  for (const Record& r : all) {
    if (!r.has) continue;
    if (best == nullptr || comp(r.value, best->value) ||
        (!comp(best->value, r.value) && r.pos < best->pos))
      best = &r;
  }
  return best == nullptr ? last : first + (best->pos - I(first.pos()));
}

// The first smallest element of [first, last) by operator<, or last.
// Collective over the team.
template <class GlobIt>
internal::if_glob_iter_t<GlobIt, GlobIt> min_element(GlobIt first, GlobIt last) {
  return dash::min_element(first, last, std::less<internal::glob_value_t<GlobIt>>());
}

// The first element x of [first, last) with no y such that comp(x, y), or
// last if the range is empty. Collective over the team.
template <class GlobIt, class Compare>
internal::if_glob_iter_t<GlobIt, GlobIt> max_element(GlobIt first, GlobIt last, Compare comp) {
  using V = internal::glob_value_t<GlobIt>;
  return dash::min_element(first, last, [&comp](const V& a, const V& b) { return comp(b, a); });
}

// The first largest element of [first, last) by operator<, or last.
// Collective over the team.
template <class GlobIt>
internal::if_glob_iter_t<GlobIt, GlobIt> max_element(GlobIt first, GlobIt last) {
  return dash::max_element(first, last, std::less<internal::glob_value_t<GlobIt>>());
}

}  // namespace dash

namespace dash {

// DASH's local forms: the first smallest / largest element of the calling
// unit's native range [first, last), last if empty (std::min_element; a
// native pointer names no other unit's element, so these are local, as in
// DASH). Local.
template <class T, class Compare = std::less<>>
const T* min_element(const T* first, const T* last, Compare comp = Compare()) {
  return std::min_element(first, last, comp);
}
template <class T, class Compare = std::less<>>
const T* max_element(const T* first, const T* last, Compare comp = Compare()) {
  return std::max_element(first, last, comp);
}

}  // namespace dash

#endif  // DASH__ALGORITHM__MIN_MAX_H_
