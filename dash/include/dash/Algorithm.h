// DASH's header <dash/Algorithm.h>, for programs that include it by path: every global algorithm,
// and dash::Array, which DASH's brings along (its Find.h and Sort.h include it), so programs
// that include only this and <dash/Matrix.h> may use arrays too.
#ifndef DASH__ALGORITHM_H_
#define DASH__ALGORITHM_H_

#include <dash/Array.h>
#include <dash/algorithm/Accumulate.h>
#include <dash/algorithm/Copy.h>
#include <dash/algorithm/CopyView.h>
#include <dash/algorithm/Count.h>
#include <dash/algorithm/Equal.h>
#include <dash/algorithm/Fill.h>
#include <dash/algorithm/Find.h>
#include <dash/algorithm/ForEach.h>
#include <dash/algorithm/Generate.h>
#include <dash/algorithm/Iota.h>
#include <dash/algorithm/LocalRange.h>
#include <dash/algorithm/MinMax.h>
#include <dash/algorithm/Operation.h>
#include <dash/algorithm/Predicates.h>
#include <dash/algorithm/SUMMA.h>
#include <dash/algorithm/Sort.h>
#include <dash/algorithm/Transform.h>

#endif  // DASH__ALGORITHM_H_
