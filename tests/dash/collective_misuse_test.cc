// Collective containers under misuse and failure: arguments that differ between units (size,
// extents, distribution) throw dash::exception::InvalidArgument on every unit; an allocation no
// node can back throws OutOfMemory on every unit; a container whose scope is left by an
// exception thrown on every unit does not start a collective while unwinding (its memory is
// released by dash::finalize), so the program catches, allocates again and carries on.
#include <dart/dart.h>
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

// Every unit's flag (1/0). Collective.
std::vector<int> AllFlags(bool flag) {
  int mine = flag ? 1 : 0;
  std::vector<int> all(N(), -1);
  EXPECT_EQ(dart_allgather(&mine, all.data(), 1, DART_TYPE_INT, DART_TEAM_ALL), DART_OK);
  return all;
}

void ExpectOnEveryUnit(bool flag, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_TRUE(flag);
  std::vector<int> all = AllFlags(flag);
  for (int u = 0; u < N(); ++u) EXPECT_EQ(all[u], 1) << "unit " << u;
}

long LiveSegments() {
  dart_runtime_stats_t stats{};
  EXPECT_EQ(dart_runtime_stats(&stats), DART_OK);
  return stats.segments;
}

// A block-distributed array of n longs, every element i set to i * factor and read back from
// every unit.
void ExpectArrayWorks(long n, long factor) {
  dash::Array<long> a(static_cast<std::size_t>(n));
  for (long* p = a.lbegin(); p != a.lend(); ++p) *p = -1;
  a.barrier();
  for (long i = Me(); i < n; i += N()) a[i] = i * factor;
  a.barrier();
  for (long i = 0; i < n; ++i) EXPECT_EQ(static_cast<long>(a[i]), i * factor) << "element " << i;
  a.barrier();
}

TEST(CollectiveMisuse, ArraySizeThatDiffersBetweenUnitsThrowsOnEveryUnit) {
  if (N() < 2) GTEST_SKIP() << "needs two units";
  // 10 on unit 0, 20 on the others; and sizes whose local capacities agree (4 units: 13 and 16
  // both give 4 per unit) so that only the extents tell them apart.
  for (std::size_t other : {std::size_t{20}, static_cast<std::size_t>(4 * N())}) {
    const std::size_t mine = Me() == 0 ? (other == 20 ? 10 : 4 * N() - 3) : other;
    bool threw = false;
    try {
      dash::Array<int> a(mine);
    } catch (const dash::exception::InvalidArgument& e) {
      threw = std::string(e.what()).find("dash::Array") != std::string::npos &&
              std::string(e.what()).find("different sizes") != std::string::npos;
      EXPECT_TRUE(threw) << e.what();
    }
    ExpectOnEveryUnit(threw, "size " + std::to_string(mine));
  }
  // Same size, different distribution.
  bool threw = false;
  try {
    dash::Array<int> a(8 * N(), Me() == 0 ? dash::BLOCKED : dash::CYCLIC);
  } catch (const dash::exception::InvalidArgument&) {
    threw = true;
  }
  ExpectOnEveryUnit(threw, "BLOCKED on unit 0, CYCLIC elsewhere");
  ExpectArrayWorks(3 * N() + 1, 3);
}

TEST(CollectiveMisuse, MatrixExtentsOrDistributionThatDifferThrowOnEveryUnit) {
  if (N() < 2) GTEST_SKIP() << "needs two units";
  bool threw = false;
  try {
    dash::NArray<int, 2> m(dash::SizeSpec<2>(4 * N(), Me() == 0 ? 6 : 7));
  } catch (const dash::exception::InvalidArgument& e) {
    threw = std::string(e.what()).find("dash::Matrix") != std::string::npos;
    EXPECT_TRUE(threw) << e.what();
  }
  ExpectOnEveryUnit(threw, "6 columns on unit 0, 7 elsewhere");
  threw = false;
  try {
    dash::NArray<int, 2> m(
        dash::SizeSpec<2>(4 * N(), 8),
        dash::DistributionSpec<2>(Me() == 0 ? dash::BLOCKED : dash::CYCLIC, dash::NONE));
  } catch (const dash::exception::InvalidArgument&) {
    threw = true;
  }
  ExpectOnEveryUnit(threw, "rows BLOCKED on unit 0, CYCLIC elsewhere");
  ExpectArrayWorks(2 * N(), 5);
}

TEST(CollectiveMisuse, ArrayLargerThanTheNodeThrowsOutOfMemoryOnEveryUnit) {
  bool threw = false;
  try {
    dash::Array<char> a(std::size_t{1} << 60);
  } catch (const dash::exception::OutOfMemory&) {
    threw = true;
  }
  ExpectOnEveryUnit(threw, "2^60 bytes");
  ExpectArrayWorks(N() + 3, 2);
}

TEST(CatchAndCarryOn, EveryUnitThrowsInAScopeHoldingAnArrayThenAllocatesAgain) {
  const long before = LiveSegments();
  bool caught = false;
  try {
    dash::Array<long> doomed(4 * N());
    doomed.local[0] = 1;
    throw std::runtime_error("every unit fails here");
  } catch (const std::runtime_error&) {
    caught = true;
  }
  ExpectOnEveryUnit(caught, "caught");
  // The unwinding started no collective: the memory is still there, released at finalize.
  EXPECT_EQ(LiveSegments(), before + 1);
  ExpectArrayWorks(5 * N() + 2, 7);
  EXPECT_EQ(LiveSegments(), before + 1);
  // An array destroyed normally inside a catch block is still freed at once.
  try {
    throw std::runtime_error("again");
  } catch (const std::runtime_error&) {
    dash::Array<int> inside(N());
    inside.local[0] = 3;
    inside.barrier();
  }
  EXPECT_EQ(LiveSegments(), before + 1);
}

}  // namespace
