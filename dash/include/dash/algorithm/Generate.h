// dash::generate / dash::generate_with_index: assign generated values to the
// elements of a global range of a 1-D container (dash::Array).
//
// Local: each unit assigns only its own elements of [first, last) on native
// memory, calling the generator for them in global order; no unit waits for
// the others, and each unit calls its own copy of the generator. Every unit
// of the team calls it with the same range; barrier before reading elements
// other units assigned.
#ifndef DASH__ALGORITHM__GENERATE_H_
#define DASH__ALGORITHM__GENERATE_H_

#include <dash/algorithm/internal/Collective.h>
#include <dash/iterator/GlobIter.h>

#include <algorithm>

namespace dash {

// Assigns gen() to the calling unit's elements of [first, last). Local.
template <class T, class P, class Gen>
void generate(GlobIter<T, P> first, GlobIter<T, P> last, Gen gen) {
  internal::for_each_local_segment(
      first, last, [&](T* b, T* e, typename P::index_type) { std::generate(b, e, std::ref(gen)); });
}

// Assigns gen(g) to the calling unit's elements of [first, last), g being
// the element's global index. Local.
template <class T, class P, class Gen>
void generate_with_index(GlobIter<T, P> first, GlobIter<T, P> last, Gen gen) {
  internal::for_each_local_segment(first, last, [&](T* b, T* e, typename P::index_type g) {
    for (T* p = b; p != e; ++p, ++g) *p = gen(g);
  });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__GENERATE_H_
