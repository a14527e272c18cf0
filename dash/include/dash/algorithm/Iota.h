// dash::iota: numbers the elements of a global range of a 1-D container
// (dash::Array): element g of [first, last) gets start + (g - first.pos()),
// as std::iota would on the gathered range.
//
// Local: each unit assigns only its own elements on native memory; no unit
// waits for the others. Every unit of the team calls it with the same range;
// barrier before reading elements other units assigned.
#ifndef DASH__ALGORITHM__IOTA_H_
#define DASH__ALGORITHM__IOTA_H_

#include <dash/algorithm/internal/Collective.h>
#include <dash/iterator/GlobIter.h>

namespace dash {

// Assigns start + (g - first.pos()) to the calling unit's element g of
// [first, last). Local.
template <class T, class P>
void iota(GlobIter<T, P> first, GlobIter<T, P> last, std::remove_const_t<T> start) {
  using I = typename P::index_type;
  const I a = first.pos();
  internal::for_each_local_segment(first, last, [&](T* b, T* e, I g) {
    for (T* p = b; p != e; ++p, ++g) *p = start + static_cast<std::remove_const_t<T>>(g - a);
  });
}

}  // namespace dash

#endif  // DASH__ALGORITHM__IOTA_H_
