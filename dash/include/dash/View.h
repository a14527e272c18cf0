// DASH's header <dash/View.h>, for programs that include it by path: the view functions (sub,
// local, blocks, index, domain, ...), the views they make (ComposedView, BlocksView, IndexSet)
// and dash::view_traits.
#ifndef DASH__VIEW_H_
#define DASH__VIEW_H_

#include <dash/view/BlocksView.h>
#include <dash/view/ComposedView.h>
#include <dash/view/Domain.h>
#include <dash/view/GlobView.h>
#include <dash/view/IndexSet.h>
#include <dash/view/LocalView.h>
#include <dash/view/ViewFunctions.h>
#include <dash/view/ViewTraits.h>

#endif  // DASH__VIEW_H_
