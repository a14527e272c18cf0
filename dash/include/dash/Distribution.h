// DASH's header <dash/Distribution.h>, for programs that include it by path: dash::Distribution and
// BLOCKED, CYCLIC, BLOCKCYCLIC(b), TILE(b), NONE.
#ifndef DASH__DISTRIBUTION_H_
#define DASH__DISTRIBUTION_H_

#include <dash/pattern/Distribution.h>
#include <dash/pattern/DistributionSpec.h>

#endif  // DASH__DISTRIBUTION_H_
