// DASH's header <dash/pattern/TilePattern1D.h>, for programs that include it by path: the 1-D
// dash::TilePattern<1> (here one template for every rank).
#ifndef DASH__PATTERN__TILEPATTERN1D_H_
#define DASH__PATTERN__TILEPATTERN1D_H_

#include <dash/pattern/TilePattern.h>

#endif  // DASH__PATTERN__TILEPATTERN1D_H_
