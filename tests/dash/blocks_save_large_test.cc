// dash::bp::save and dash::bp::load of a block of more than 2^31 bytes (MPI counts are int): the
// block and the blocks after it in the file (unit 1's, at offsets beyond 2 GiB) come back whole.
// About 7 GiB of memory on unit 0 and 2 GiB of disk: label soak (scripts/test.sh -L soak).
#include <dash/Init.h>
#include <dash/bp/Master.h>
#include <dash/bp/SaveLoad.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mpi_test.h"
#include "shared_dir.h"

namespace {

using dash::bp::Assignment;
using dash::bp::Master;
using dash_test::myid;
using dash_test::nunits;
using dash_test::SharedDir;

using Block = std::vector<std::uint64_t>;

// Block 0 holds (2^31 + 4 KiB) / 8 values, the others 1,000; value i of block g is g * 2^40 + i.
std::size_t CountOf(int gid) {
  return gid == 0 ? ((std::size_t(1) << 31) + 4096) / sizeof(std::uint64_t) : 1000;
}
std::uint64_t Value(int gid, std::size_t i) { return (std::uint64_t(gid) << 40) + i; }

TEST(BlocksSaveLarge, BlockOver2GiB_RoundTrip) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.file("large.ckpt");
  const int nblocks = 2 * nunits();
  {
    Master<Block> m(nblocks, Assignment::contiguous);
    for (int gid : dash::bp::local_gids(myid(), nblocks, nunits(), Assignment::contiguous)) {
      auto b = std::make_unique<Block>(CountOf(gid));
      for (std::size_t i = 0; i < b->size(); ++i) (*b)[i] = Value(gid, i);
      m.add(gid, std::move(b), {});
    }
    dash::bp::save(m, path);
  }
  Master<Block> back(nblocks, Assignment::contiguous);
  dash::bp::load(back, path);
  for (std::size_t k = 0; k < back.size(); ++k) {
    const int gid = back.gid(k);
    const Block& b = back.block(k);
    ASSERT_EQ(b.size(), CountOf(gid)) << "block " << gid;
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < b.size(); ++i) wrong += b[i] != Value(gid, i);
    EXPECT_EQ(wrong, 0u) << "block " << gid;
  }
}

}  // namespace
