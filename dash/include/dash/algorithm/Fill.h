// dash::fill: assigns a value to every element of a global range: a range
// of a container (dash::Array, dash::Matrix), a sub-range, or a view
// (matrix.block({1, 2}), dash::sub(...)).
//
// Local: each unit assigns only its own elements of [first, last) with
// std::fill on native memory, and no unit waits for the others. Every unit
// of the team calls it with the same range; barrier (e.g. arr.barrier())
// before reading elements other units assigned.
#ifndef DASH__ALGORITHM__FILL_H_
#define DASH__ALGORITHM__FILL_H_

#include <dash/algorithm/internal/Collective.h>

#include <algorithm>

namespace dash {

// Assigns value to the calling unit's elements of [first, last). Local.
template <class GlobIt>
internal::if_glob_iter_t<GlobIt> fill(GlobIt first, GlobIt last,
                                      const internal::glob_value_t<GlobIt>& value) {
  using T = internal::glob_element_t<GlobIt>;
  internal::for_each_local_run<false>(first, last,
                                      [&](T* b, T* e, auto, auto) { std::fill(b, e, value); });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__FILL_H_
