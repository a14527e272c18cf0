// DASH's header <dash/pattern/BlockPattern1D.h>, for programs that include it by path: the 1-D
// dash::BlockPattern<1> (here one template for every rank).
#ifndef DASH__PATTERN__BLOCKPATTERN1D_H_
#define DASH__PATTERN__BLOCKPATTERN1D_H_

#include <dash/pattern/BlockPattern.h>

#endif  // DASH__PATTERN__BLOCKPATTERN1D_H_
