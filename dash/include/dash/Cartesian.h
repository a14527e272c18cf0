// DASH's header <dash/Cartesian.h>, for programs that include it by path: dash::CartesianIndexSpace
// (with SizeSpec and ViewSpec).
#ifndef DASH__CARTESIAN_H_
#define DASH__CARTESIAN_H_

#include <dash/pattern/SizeSpec.h>

#endif  // DASH__CARTESIAN_H_
