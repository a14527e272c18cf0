// DASH's header for index sets, for programs that include it by path: dash::index(view) (the
// global indices of a view's elements, or a local view's local offsets) and dash::index(iterator)
// live in <dash/view/ViewFunctions.h>.
#ifndef DASH__VIEW__INDEX_SET_H_
#define DASH__VIEW__INDEX_SET_H_

#include <dash/view/ViewFunctions.h>

#endif  // DASH__VIEW__INDEX_SET_H_
