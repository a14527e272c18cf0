// dash::generate / dash::generate_with_index: assign generated values to the
// elements of a global range (a container's range, a sub-range or a view).
//
// Collective: each unit assigns only its own elements of [first, last) on
// native memory (for a 1-D range in global order), calling its own copy of
// the generator; then the units agree on whether any generator threw (one
// allreduce of an int): if one did, every unit throws (the failing unit its
// own exception, the others dash::exception::RemoteFailure). Every unit of
// the team calls it with the same range; on return every unit's elements
// are assigned.
#ifndef DASH__ALGORITHM__GENERATE_H_
#define DASH__ALGORITHM__GENERATE_H_

#include <dash/algorithm/internal/Collective.h>

#include <algorithm>
#include <functional>

namespace dash {

// Assigns gen() to the calling unit's elements of [first, last).
// Collective (local calls, one allreduce of an int).
template <class GlobIt, class Gen>
internal::if_glob_iter_t<GlobIt> generate(GlobIt first, GlobIt last, Gen gen) {
  using T = internal::glob_element_t<GlobIt>;
  internal::run_agreed(internal::range_team(first), "dash::generate", [&] {
    internal::for_each_local_run<false>(
        first, last, [&](T* b, T* e, auto, auto) { std::generate(b, e, std::ref(gen)); });
  });
}

// Assigns gen(g) to the calling unit's elements of [first, last), g being
// the element's global index in the container. Collective (local calls,
// one allreduce of an int).
template <class GlobIt, class Gen>
internal::if_glob_iter_t<GlobIt> generate_with_index(GlobIt first, GlobIt last, Gen gen) {
  using T = internal::glob_element_t<GlobIt>;
  using I = internal::glob_index_t<GlobIt>;
  internal::run_agreed(internal::range_team(first), "dash::generate_with_index", [&] {
    internal::for_each_local_run(first, last, [&](T* b, T* e, I, I g) {
      for (T* p = b; p != e; ++p, ++g) *p = gen(g);
    });
  });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__GENERATE_H_
