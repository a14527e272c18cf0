// DASH: PGAS distributed containers for C++ on MPI-3. Include this header: it reaches every
// public header of the library; dash/io/Hdf5.h (the same as DASH's dash/io/HDF5.h), which needs
// parallel HDF5, only where DASH_ENABLE_HDF5 is defined (dash::hdf5 and pkg-config dash-hdf5
// define it, as DASH's build does). Like DASH's, it brings <iostream>, <iomanip> and
// <sstream> with it, which programs written for DASH rely on.
#ifndef LIBDASH_H_
#define LIBDASH_H_

#include <dart/dart.h>
#include <dash/Allocator.h>
#include <dash/Array.h>
#include <dash/Atomic.h>
#include <dash/Coarray.h>
#include <dash/Coevent.h>
#include <dash/Comutex.h>
#include <dash/Domain.h>
#include <dash/Exception.h>
#include <dash/Future.h>
#include <dash/Init.h>
#include <dash/LaunchPolicy.h>
#include <dash/List.h>
#include <dash/Matrix.h>
#include <dash/Memory.h>
#include <dash/Mutex.h>
#include <dash/Onesided.h>
#include <dash/Pair.h>
#include <dash/Pattern.h>
#include <dash/Range.h>
#include <dash/Shared.h>
#include <dash/SharedCounter.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/UnorderedMap.h>
#include <dash/Version.h>
#include <dash/algorithm/Accumulate.h>
#include <dash/algorithm/Bcast.h>
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
#include <dash/atomic/GlobAtomicRef.h>
#include <dash/bp/AllToAll.h>
#include <dash/bp/BlockStore.h>
#include <dash/bp/ContainerBlocks.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/KdTree.h>
#include <dash/bp/Master.h>
#include <dash/bp/Reduce.h>
#include <dash/bp/SaveLoad.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/Sort.h>
#include <dash/bp/SpillDirectory.h>
#include <dash/halo/HaloMatrixWrapper.h>
#include <dash/internal/Annotation.h>
#include <dash/internal/DartType.h>
#include <dash/internal/Logging.h>
#include <dash/internal/Macro.h>
#include <dash/internal/Math.h>
#include <dash/internal/StreamConversion.h>
#include <dash/io/CostModel.h>
#include <dash/io/Pieces.h>
#include <dash/io/Save.h>
#include <dash/io/Tiers.h>
#include <dash/memory/GlobMemAlloc.h>
#include <dash/memory/GlobPtr.h>
#include <dash/memory/GlobRef.h>
#include <dash/meta/TypeInfo.h>
#include <dash/ooc/BlockStore.h>  // the old names of bp/BlockStore.h
#include <dash/ooc/Ghosts.h>
#include <dash/ooc/Matrix.h>
#include <dash/ooc/SpillDirectory.h>  // the old names of bp/SpillDirectory.h
#include <dash/ooc/Transpose.h>
#include <dash/pattern/LoadBalancePattern.h>
#include <dash/util/BenchmarkParams.h>
#include <dash/util/Config.h>
#include <dash/util/Locality.h>
#include <dash/util/LocalityDomain.h>
#include <dash/util/LocalityJSONPrinter.h>
#include <dash/util/TeamLocality.h>
#include <dash/util/TimeMeasure.h>
#include <dash/util/Timer.h>
#include <dash/util/Trace.h>
#include <dash/util/UnitLocality.h>
#include <dash/view/ViewFunctions.h>
#ifdef DASH_ENABLE_HDF5
#include <dash/io/HDF5.h>
#endif

#include <iomanip>
#include <iostream>
#include <sstream>

#endif  // LIBDASH_H_
