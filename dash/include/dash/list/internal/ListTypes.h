// The node of a dash::List: the value and its neighbours in the unit's
// local list (native pointers; global links are not kept, gprev and gnext
// stay DART_GPTR_NULL as in DASH). Trivially copyable, as GlobHeapMem's
// elements must be.
#ifndef DASH__LIST__INTERNAL__LIST_TYPES_H_
#define DASH__LIST__INTERNAL__LIST_TYPES_H_

#include <dart/dart.h>

namespace dash {
namespace internal {

template <class ElementType>
struct ListNode {
  ElementType value{};
  ListNode* lprev = nullptr;
  ListNode* lnext = nullptr;
  dart_gptr_t gprev = DART_GPTR_NULL;
  dart_gptr_t gnext = DART_GPTR_NULL;
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__LIST__INTERNAL__LIST_TYPES_H_
