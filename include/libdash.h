// DASH: PGAS distributed containers for C++ on MPI-3. Include this header.
#ifndef LIBDASH_H_
#define LIBDASH_H_

#include <dart/dart.h>
#include <dash/Array.h>
#include <dash/Atomic.h>
#include <dash/Exception.h>
#include <dash/Future.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/Pattern.h>
#include <dash/Shared.h>
#include <dash/Team.h>
#include <dash/Types.h>
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
#include <dash/algorithm/Sort.h>
#include <dash/algorithm/Transform.h>
#include <dash/bp/ContainerBlocks.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <dash/bp/Reduce.h>
#include <dash/bp/Serialization.h>
#include <dash/halo/HaloMatrixWrapper.h>
#include <dash/io/Save.h>
#include <dash/memory/GlobPtr.h>
#include <dash/memory/GlobRef.h>
#include <dash/ooc/Ghosts.h>
#include <dash/ooc/Matrix.h>
#include <dash/util/Locality.h>
#include <dash/util/TeamLocality.h>
#include <dash/view/ViewFunctions.h>

#endif  // LIBDASH_H_
