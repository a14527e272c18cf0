// <libdash.h> reaches the library's public API: this file includes nothing else of the
// library, so it does not compile when a public header is not reachable from it (every one is,
// except dash/io/Hdf5.h, which needs parallel HDF5).
#include <gtest/gtest.h>
#include <libdash.h>

#include <type_traits>

namespace {

TEST(Libdash, ReachesThePublicApi) {
  using dash::bp::all_to_all;                              // bp/AllToAll.h
  using dash::bp::kdtree;                                  // bp/KdTree.h
  using dash::bp::load;                                    // bp/SaveLoad.h
  using dash::bp::save;                                    // bp/SaveLoad.h
  using dash::bp::sort;                                    // bp/Sort.h
  using dash::io::read_pieces;                             // io/Pieces.h
  using dash::io::write_pieces;                            // io/Pieces.h
  using dash::ooc::transpose;                              // ooc/Transpose.h
  EXPECT_TRUE(std::is_class_v<dash::bp::BlockStore>);      // bp/BlockStore.h
  EXPECT_TRUE(std::is_class_v<dash::bp::SpillDirectory>);  // bp/SpillDirectory.h
  // ooc/BlockStore.h, ooc/SpillDirectory.h: the old names of the same classes
  EXPECT_TRUE((std::is_same_v<dash::ooc::BlockStore, dash::bp::BlockStore>));
  EXPECT_TRUE((std::is_same_v<dash::ooc::SpillDirectory, dash::bp::SpillDirectory>));
  EXPECT_TRUE(std::is_class_v<dash::io::CostTable>);      // io/CostModel.h
  EXPECT_TRUE(std::is_class_v<dash::io::Piece>);          // io/Pieces.h
  EXPECT_TRUE(std::is_class_v<dash::bp::AllToAllProxy>);  // bp/AllToAll.h
  // DASH's utilities and names
  EXPECT_TRUE(std::is_class_v<dash::util::Timer<dash::util::TimeMeasure::Clock>>);  // util/Timer.h
  EXPECT_TRUE(std::is_class_v<dash::util::Config>);                                 // util/Config.h
  EXPECT_TRUE(std::is_class_v<dash::util::BenchmarkParams>);  // util/BenchmarkParams.h
  EXPECT_TRUE(std::is_class_v<dash::Mutex>);                  // Mutex.h
  EXPECT_TRUE(std::is_class_v<dash::Comutex>);                // Comutex.h
  EXPECT_TRUE(std::is_class_v<dash::Coevent>);                // Coevent.h
  EXPECT_TRUE(std::is_class_v<dash::SharedCounter<int>>);     // SharedCounter.h
  EXPECT_TRUE((std::is_class_v<dash::Pair<int, int>>));       // Pair.h
  EXPECT_TRUE(dash::is_atomic_v<dash::Atomic<int>>);          // atomic/Type_traits.h
  using dash::broadcast;                                      // algorithm/Bcast.h
  // DASH's memory spaces, allocators and dynamic containers (Allocator.h, Memory.h, List.h)
  EXPECT_TRUE(std::is_class_v<dash::HBWSpace>);
  EXPECT_TRUE((std::is_class_v<dash::SimpleMemoryPoolResource<dash::HostSpace>>));
  EXPECT_TRUE((std::is_class_v<dash::EpochSynchronizedAllocator<int>>));
  EXPECT_TRUE((std::is_class_v<dash::GlobalAllocator<int, dash::GlobStaticMem<dash::HostSpace>>>));
  EXPECT_TRUE(
      (std::is_class_v<
          dash::DefaultDeleter<dash::GlobalAllocator<int, dash::GlobStaticMem<dash::HostSpace>>>>));
  EXPECT_TRUE(std::is_class_v<dash::GlobHeapMem<int>>);
  EXPECT_TRUE(std::is_class_v<dash::List<int>>);
  DASH_LOG_DEBUG("libdash", "internal/Logging.h");
  DASH_ASSERT(dash__toxstr(DASH_MPI_IMPL_ID)[0] != '\0');  // internal/Assert.h, Macro.h
  // the standard headers DASH's libdash.h brings in
  std::ostringstream out;
  out << std::setw(4) << 1;
  EXPECT_EQ(out.str(), "   1");
  EXPECT_TRUE(dash::is_initialized());
}

}  // namespace
