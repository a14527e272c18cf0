// <dash/Dimensional.h>, the header DASH programs include for the specifications of N-D index
// spaces: SizeSpec and ViewSpec (dash/pattern/SizeSpec.h), DistributionSpec
// (dash/pattern/DistributionSpec.h). Only includes them; no cost of its own.
#ifndef DASH__DIMENSIONAL_H_
#define DASH__DIMENSIONAL_H_

#include <dash/pattern/DistributionSpec.h>
#include <dash/pattern/SizeSpec.h>

#endif  // DASH__DIMENSIONAL_H_
