// DASH's header <dash/algorithm/Reduce.h>, for programs that include it by path: dash::reduce (with
// dash::accumulate).
#ifndef DASH__ALGORITHM__REDUCE_H_
#define DASH__ALGORITHM__REDUCE_H_

#include <dash/algorithm/Accumulate.h>

#endif  // DASH__ALGORITHM__REDUCE_H_
