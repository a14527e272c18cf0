// DASH's header <dash/Iterator.h>, for programs that include it by path: the global iterators
// (dash::GlobIter, dash::GlobViewIter).
#ifndef DASH__ITERATOR_H_
#define DASH__ITERATOR_H_

#include <dash/iterator/GlobIter.h>
#include <dash/iterator/GlobViewIter.h>

#endif  // DASH__ITERATOR_H_
