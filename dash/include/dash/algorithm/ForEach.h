// dash::for_each / dash::for_each_with_index: call a function on the
// elements of a global range (a container's range, a sub-range or a view).
//
// Collective: each unit calls the function only on its own elements of
// [first, last), by native reference; then the units agree on whether any
// call threw (one allreduce of an int, in place of the barrier that DASH's
// for_each ends with). A function that throws on one unit makes every unit
// throw: the failing unit its own exception, the others
// dash::exception::RemoteFailure naming it (the remaining elements of the
// failing unit are not visited). For a 1-D range the calls come in global
// order; for an N-D range in the order of local memory. Every unit of the
// team calls it with the same range; on return every unit's calls are done.
#ifndef DASH__ALGORITHM__FOR_EACH_H_
#define DASH__ALGORITHM__FOR_EACH_H_

#include <dash/algorithm/internal/Collective.h>

#include <algorithm>
#include <functional>

namespace dash {

// Calls f(element) on the calling unit's elements of [first, last).
// Collective (local calls, one allreduce of an int).
template <class GlobIt, class F>
internal::if_glob_iter_t<GlobIt> for_each(GlobIt first, GlobIt last, F f) {
  using T = internal::glob_element_t<GlobIt>;
  internal::run_agreed(internal::range_team(first), "dash::for_each", [&] {
    internal::for_each_local_run<false>(
        first, last, [&](T* b, T* e, auto, auto) { std::for_each(b, e, std::ref(f)); });
  });
}

// Calls f(element, g) on the calling unit's elements of [first, last), g
// being the element's global index in the container. Collective (local
// calls, one allreduce of an int).
template <class GlobIt, class F>
internal::if_glob_iter_t<GlobIt> for_each_with_index(GlobIt first, GlobIt last, F f) {
  using T = internal::glob_element_t<GlobIt>;
  using I = internal::glob_index_t<GlobIt>;
  internal::run_agreed(internal::range_team(first), "dash::for_each_with_index", [&] {
    internal::for_each_local_run(first, last, [&](T* b, T* e, I, I g) {
      for (T* p = b; p != e; ++p, ++g) f(*p, g);
    });
  });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__FOR_EACH_H_
