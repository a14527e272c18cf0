// dash::fill: assigns a value to every element of a global range of a 1-D
// container (dash::Array).
//
// Local: each unit assigns only its own elements of [first, last) with
// std::fill on native memory, and no unit waits for the others. Every unit
// of the team calls it with the same range; barrier (e.g. arr.barrier())
// before reading elements other units assigned.
#ifndef DASH__ALGORITHM__FILL_H_
#define DASH__ALGORITHM__FILL_H_

#include <dash/algorithm/internal/Collective.h>
#include <dash/iterator/GlobIter.h>

#include <algorithm>

namespace dash {

// Assigns value to the calling unit's elements of [first, last). Local.
template <class T, class P>
void fill(GlobIter<T, P> first, GlobIter<T, P> last, const std::remove_const_t<T>& value) {
  internal::for_each_local_segment(
      first, last, [&](T* b, T* e, typename P::index_type) { std::fill(b, e, value); });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__FILL_H_
