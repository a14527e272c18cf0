// dash::for_each / dash::for_each_with_index: call a function on the
// elements of a global range of a 1-D container (dash::Array).
//
// Local: each unit calls the function only on its own elements of
// [first, last), by native reference and in global order; no unit waits for
// the others. Every unit of the team calls it with the same range; barrier
// before reading elements other units modified.
#ifndef DASH__ALGORITHM__FOR_EACH_H_
#define DASH__ALGORITHM__FOR_EACH_H_

#include <dash/algorithm/internal/Collective.h>
#include <dash/iterator/GlobIter.h>

#include <algorithm>
#include <functional>

namespace dash {

// Calls f(element) on the calling unit's elements of [first, last). Local.
template <class T, class P, class F>
void for_each(GlobIter<T, P> first, GlobIter<T, P> last, F f) {
  internal::for_each_local_segment(
      first, last, [&](T* b, T* e, typename P::index_type) { std::for_each(b, e, std::ref(f)); });
}

// Calls f(element, g) on the calling unit's elements of [first, last), g
// being the element's global index. Local.
template <class T, class P, class F>
void for_each_with_index(GlobIter<T, P> first, GlobIter<T, P> last, F f) {
  internal::for_each_local_segment(first, last, [&](T* b, T* e, typename P::index_type g) {
    for (T* p = b; p != e; ++p, ++g) f(*p, g);
  });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__FOR_EACH_H_
