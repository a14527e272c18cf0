// DASH's header <dash/pattern/ShiftTilePattern1D.h>, for programs that include it by path: the 1-D
// dash::ShiftTilePattern<1> (here one template for every rank).
#ifndef DASH__PATTERN__SHIFTTILEPATTERN1D_H_
#define DASH__PATTERN__SHIFTTILEPATTERN1D_H_

#include <dash/pattern/ShiftTilePattern.h>

#endif  // DASH__PATTERN__SHIFTTILEPATTERN1D_H_
