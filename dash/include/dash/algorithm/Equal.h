// dash::equal: whether two global ranges (any containers, patterns and
// views) hold equal elements position by position, as std::equal on the
// gathered ranges; every unit gets the answer.
//
// Each unit compares the elements of the first range it owns with the
// elements at the same positions of the second range (read in place where
// the unit owns them in one run, else fetched with one-sided gets, all
// started before any is waited for), then ONE allreduce combines the
// answers. Barrier before if other units wrote the ranges.
//
// | call                                   | cost                        |
// |----------------------------------------|-----------------------------|
// | equal(first, last, b_first[, pred])    | collective over the team    |
#ifndef DASH__ALGORITHM__EQUAL_H_
#define DASH__ALGORITHM__EQUAL_H_

#include <dash/algorithm/internal/Collective.h>
#include <dash/algorithm/internal/RangeAccess.h>

#include <algorithm>
#include <functional>

namespace dash {

// True if pred(a[i], b[i]) for every position i of [first, last).
// Collective over the team of the first range.
template <class InA, class InB, class Pred, class = internal::if_glob_iter_t<InA>,
          class = internal::if_glob_iter_t<InB>>
bool equal(InA first, InA last, InB b_first, Pred pred) {
  static const char* who = "dash::equal";
  using T = internal::glob_element_t<InA>;
  using I = internal::glob_index_t<InA>;
  internal::check_input(first, last, who);
  const std::size_t n = std::size_t(last - first);
  internal::check_range_fits(b_first, n, who, "the second range");
  int mine = 1;
  internal::Failure failure;
  if (n > 0) try {
      struct Run {
        T* b;
        T* e;
      };
      std::vector<Run> runs;
      internal::StagedInput<InB> b(b_first);
      const I base = I(first.pos());
      internal::for_each_local_run(first, last, [&](T* rb, T* re, I pos, I) {
        runs.push_back({rb, re});
        b.add(pos - base, std::size_t(re - rb));
      });
      b.fetch(who);
      for (std::size_t s = 0; s < runs.size() && mine; ++s)
        mine = std::equal(runs[s].b, runs[s].e, b.data(s), std::ref(pred)) ? 1 : 0;
    } catch (...) {
      failure.capture();
    }
  Team* team = internal::range_team(first);
  if (team == nullptr) return true;
  return internal::allreduce_value(mine, DART_OP_LAND, *team, who, failure) != 0;
}

// True if a[i] == b[i] for every position i of [first, last). Collective
// over the team of the first range.
template <class InA, class InB, class = internal::if_glob_iter_t<InA>,
          class = internal::if_glob_iter_t<InB>>
bool equal(InA first, InA last, InB b_first) {
  return dash::equal(first, last, b_first, std::equal_to<>());
}

}  // namespace dash

#endif  // DASH__ALGORITHM__EQUAL_H_
