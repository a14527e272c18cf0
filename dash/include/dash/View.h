// DASH's header <dash/View.h>, for programs that include it by path: the view functions (sub,
// local, index, blocks, ...) and view types.
#ifndef DASH__VIEW_H_
#define DASH__VIEW_H_

#include <dash/view/GlobView.h>
#include <dash/view/IndexSet.h>
#include <dash/view/LocalView.h>
#include <dash/view/ViewFunctions.h>

#endif  // DASH__VIEW_H_
