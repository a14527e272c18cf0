// dash::iota: numbers the elements of a global range (a container's range,
// a sub-range or a view): the element at position k of [first, last) gets
// start + k, as std::iota would on the gathered range.
//
// Local: each unit assigns only its own elements on native memory; no unit
// waits for the others. Every unit of the team calls it with the same range;
// barrier before reading elements other units assigned.
#ifndef DASH__ALGORITHM__IOTA_H_
#define DASH__ALGORITHM__IOTA_H_

#include <dash/algorithm/internal/Collective.h>

namespace dash {

// Assigns start + k to the calling unit's elements at position k of
// [first, last). Local.
template <class GlobIt>
internal::if_glob_iter_t<GlobIt> iota(GlobIt first, GlobIt last,
                                      internal::glob_value_t<GlobIt> start) {
  using T = internal::glob_element_t<GlobIt>;
  using V = internal::glob_value_t<GlobIt>;
  using I = internal::glob_index_t<GlobIt>;
  const I a = I(first.pos());
  internal::for_each_local_run(first, last, [&](T* b, T* e, I pos, I) {
    for (T* p = b; p != e; ++p, ++pos) *p = start + static_cast<V>(pos - a);
  });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__IOTA_H_
