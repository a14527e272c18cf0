// dash::all_of / dash::any_of / dash::none_of: whether a predicate holds for
// all / some / no element of a global range (a container's range, a
// sub-range or a view), on every unit (an empty range: true / false / true).
//
// Each unit tests its own elements of [first, last) with std::any_of on
// native memory (stopping at the first decisive element), then ONE
// allreduce (DART_OP_LOR) combines the answers.
//
// | call                          | cost                        |
// |-------------------------------|-----------------------------|
// | all_of(first, last, pred)     | collective over the team    |
// | any_of(first, last, pred)     | collective over the team    |
// | none_of(first, last, pred)    | collective over the team    |
#ifndef DASH__ALGORITHM__PREDICATES_H_
#define DASH__ALGORITHM__PREDICATES_H_

#include <dash/algorithm/internal/Collective.h>
#include <dash/iterator/GlobIter.h>

#include <algorithm>
#include <functional>

namespace dash {

// True if pred(x) for some element x of [first, last). Collective over the
// team.
template <class GlobIt, class Pred>
internal::if_glob_iter_t<GlobIt, bool> any_of(GlobIt first, GlobIt last, Pred pred) {
  using T = internal::glob_element_t<GlobIt>;
  int mine = 0;
  internal::Failure failure;
  try {
    internal::for_each_local_run<false>(first, last, [&](T* b, T* e, auto, auto) {
      if (!mine && std::any_of(b, e, std::ref(pred))) mine = 1;
    });
  } catch (...) {
    failure.capture();
  }
  Team* team = internal::range_team(first);
  if (team == nullptr) return false;
  return internal::allreduce_value(mine, DART_OP_LOR, *team, "dash::any_of", failure) != 0;
}

// True if pred(x) for every element x of [first, last). Collective over the
// team.
template <class GlobIt, class Pred>
internal::if_glob_iter_t<GlobIt, bool> all_of(GlobIt first, GlobIt last, Pred pred) {
  return !dash::any_of(first, last,
                       [&pred](const internal::glob_value_t<GlobIt>& x) { return !pred(x); });
}

// True if pred(x) for no element x of [first, last). Collective over the
// team.
template <class GlobIt, class Pred>
internal::if_glob_iter_t<GlobIt, bool> none_of(GlobIt first, GlobIt last, Pred pred) {
  return !dash::any_of(first, last, pred);
}

}  // namespace dash

#endif  // DASH__ALGORITHM__PREDICATES_H_
