// dash::generate / dash::generate_with_index: assign generated values to the
// elements of a global range (a container's range, a sub-range or a view).
//
// Local: each unit assigns only its own elements of [first, last) on native
// memory (for a 1-D range in global order); no unit waits for the others,
// and each unit calls its own copy of the generator. Every unit of the team
// calls it with the same range; barrier before reading elements other units
// assigned.
#ifndef DASH__ALGORITHM__GENERATE_H_
#define DASH__ALGORITHM__GENERATE_H_

#include <dash/algorithm/internal/Collective.h>

#include <algorithm>
#include <functional>

namespace dash {

// Assigns gen() to the calling unit's elements of [first, last). Local.
template <class GlobIt, class Gen>
internal::if_glob_iter_t<GlobIt> generate(GlobIt first, GlobIt last, Gen gen) {
  using T = internal::glob_element_t<GlobIt>;
  internal::for_each_local_run<false>(
      first, last, [&](T* b, T* e, auto, auto) { std::generate(b, e, std::ref(gen)); });
}

// Assigns gen(g) to the calling unit's elements of [first, last), g being
// the element's global index in the container. Local.
template <class GlobIt, class Gen>
internal::if_glob_iter_t<GlobIt> generate_with_index(GlobIt first, GlobIt last, Gen gen) {
  using T = internal::glob_element_t<GlobIt>;
  using I = internal::glob_index_t<GlobIt>;
  internal::for_each_local_run(first, last, [&](T* b, T* e, I, I g) {
    for (T* p = b; p != e; ++p, ++g) *p = gen(g);
  });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__GENERATE_H_
