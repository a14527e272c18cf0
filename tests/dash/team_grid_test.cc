// Unit grids by the numbers DASH's AutobalanceTest uses: dash::math::balance_extents (the
// balanced grid; with preferred blocking factors), dash::make_team_spec with node, NUMA and core
// counts (whole nodes per grid row; one row per NUMA domain unless a square grid keeps them
// together), SizeSpec from arithmetic extents, and UnitLocality::hwinfo() written by a program.
// Local computations: every unit checks them.
#include <dash/Pattern.h>
#include <dash/Team.h>
#include <dash/algorithm/SUMMA.h>
#include <dash/internal/Math.h>
#include <dash/util/UnitLocality.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <set>
#include <vector>

#include "mpi_test.h"

namespace {

using Extents2 = std::array<std::size_t, 2>;

template <class F>
void ExpectInvalidArgument(F&& f, const char* what) {
  try {
    f();
    ADD_FAILURE() << what << ": no exception";
  } catch (const dash::exception::InvalidArgument&) {
  }
}

TEST(MathBalanceExtents, BalancedGridOfTheProduct) {
  EXPECT_EQ(dash::math::balance_extents(std::array<int, 2>{12, 1}), (std::array<int, 2>{4, 3}));
  EXPECT_EQ(dash::math::balance_extents(std::array<int, 2>{1, 12}), (std::array<int, 2>{4, 3}));
  EXPECT_EQ(dash::math::balance_extents(std::array<int, 2>{2 * 5 * 5 * 11 * 19, 1}),
            (std::array<int, 2>{110, 95}));
  EXPECT_EQ(dash::math::balance_extents(std::array<int, 2>{7, 1}), (std::array<int, 2>{7, 1}));
  EXPECT_EQ(dash::math::balance_extents(std::array<long, 3>{1, 1, 12}),
            (std::array<long, 3>{3, 2, 2}));
  EXPECT_EQ(dash::math::balance_extents(std::array<std::size_t, 2>{6, 6}), (Extents2{6, 6}));
  ExpectInvalidArgument([] { dash::math::balance_extents(std::array<int, 2>{0, 5}); }, "0 x 5");
  ExpectInvalidArgument([] { dash::math::balance_extents(std::array<int, 2>{-3, 5}); }, "-3 x 5");
}

TEST(MathBalanceExtents, PreferredBlockingFactors) {
  using A = std::array<int, 2>;
  EXPECT_EQ(dash::math::balance_extents(A{1050, 1}, std::set<int>{50}), (A{50, 21}));
  // DASH's AutobalanceTest blocking: 70 does not divide, 50 and 11 do; 110 x 95 is the most
  // square grid with a side a multiple of one of them.
  EXPECT_EQ(dash::math::balance_extents(A{2 * 5 * 5 * 11 * 19, 1}, std::set<int>{70, 50, 11}),
            (A{110, 95}));
  EXPECT_EQ(dash::math::balance_extents(A{16, 1}, std::set<int>{2}), (A{4, 4}));
  EXPECT_EQ(dash::math::balance_extents(A{12, 1}, std::set<int>{2}), (A{4, 3}));
  EXPECT_EQ(dash::math::balance_extents(A{12, 1}, std::set<int>{3}), (A{3, 4}));
  // No factor above 1 fits: the product in dimension 0.
  EXPECT_EQ(dash::math::balance_extents(A{7, 1}, std::set<int>{2}), (A{7, 1}));
  EXPECT_EQ(dash::math::balance_extents(A{3, 4}, std::set<int>{1, 5}), (A{12, 1}));
  EXPECT_EQ(dash::math::balance_extents(A{12, 1}, std::set<int>{}), (A{12, 1}));
  EXPECT_EQ(dash::math::balance_extents(std::array<long, 3>{2, 3, 4}, std::set<long>{4}),
            (std::array<long, 3>{4, 6, 1}));
  ExpectInvalidArgument([] { dash::math::balance_extents(A{0, 1}, std::set<int>{2}); }, "0 x 1");
}

Extents2 Grid(std::size_t extent0, std::size_t extent1, int units, std::size_t nodes,
              std::size_t numa, std::size_t cores) {
  dash::SizeSpec<2> size(extent0, extent1);
  auto ts =
      dash::make_team_spec<dash::summa_pattern_partitioning_constraints,
                           dash::summa_pattern_mapping_constraints,
                           dash::summa_pattern_layout_constraints>(size, units, nodes, numa, cores);
  EXPECT_EQ(ts.size(), std::size_t(units));
  return ts.extents();
}

// DASH's AutobalanceTest.BalanceTeamSpecNodes: 4 NUMA domains and 28 cores per node.
TEST(MakeTeamSpec, SeveralNodesKeepWholeNodesInGridRows) {
  const std::size_t n = 57344;
  EXPECT_EQ(Grid(n, n, 112, 4, 4, 28), (Extents2{28, 4}));
  EXPECT_EQ(Grid(n, n, 224, 8, 4, 28), (Extents2{28, 8}));
  EXPECT_EQ(Grid(n, n, 448, 16, 4, 28), (Extents2{28, 16}));
  EXPECT_EQ(Grid(n, n, 896, 32, 4, 28), (Extents2{28, 32}));
  EXPECT_EQ(Grid(n, n, 1792, 64, 4, 28), (Extents2{56, 32}));
  EXPECT_EQ(Grid(n, n, 3584, 128, 4, 28), (Extents2{56, 64}));
  // Odd node sizes: 3 nodes of 5 cores; 6 nodes of 3.
  EXPECT_EQ(Grid(100, 100, 15, 3, 1, 5), (Extents2{5, 3}));
  EXPECT_EQ(Grid(100, 100, 18, 6, 1, 3), (Extents2{3, 6}));
  // Unequal extents: the longer side of the grid along the longer extent.
  EXPECT_EQ(Grid(100, 1000, 112, 4, 4, 28), (Extents2{4, 28}));
  EXPECT_EQ(Grid(1000, 100, 112, 4, 4, 28), (Extents2{28, 4}));
}

// DASH's AutobalanceTest.BalanceTeamSpecNUMA: one node of 2 NUMA domains.
TEST(MakeTeamSpec, OneNodeOneRowPerNumaDomainUnlessSquare) {
  for (int s = 0; s < 7; ++s) {
    const auto n = std::size_t(1680 * std::pow(2, s));
    EXPECT_EQ(Grid(n, n, 4, 1, 2, 28), (Extents2{2, 2})) << n;
    EXPECT_EQ(Grid(n, n, 8, 1, 2, 28), (Extents2{2, 4})) << n;
    EXPECT_EQ(Grid(n, n, 12, 1, 2, 28), (Extents2{2, 6})) << n;
    EXPECT_EQ(Grid(n, n, 16, 1, 2, 28), (Extents2{4, 4})) << n;
    EXPECT_EQ(Grid(n, n, 20, 1, 2, 28), (Extents2{2, 10})) << n;
    EXPECT_EQ(Grid(n, n, 24, 1, 2, 28), (Extents2{2, 12})) << n;
    EXPECT_EQ(Grid(n, n, 28, 1, 2, 28), (Extents2{2, 14})) << n;
  }
  EXPECT_EQ(Grid(60, 60, 36, 1, 2, 36), (Extents2{6, 6}));
  EXPECT_EQ(Grid(60, 60, 18, 1, 2, 18), (Extents2{2, 9}));
  EXPECT_EQ(Grid(60, 60, 9, 1, 3, 9), (Extents2{3, 3}));
  // 36 is square but 6 is no multiple of 4 NUMA domains: 4 rows of 9.
  EXPECT_EQ(Grid(60, 60, 36, 1, 4, 36), (Extents2{4, 9}));
  EXPECT_EQ(Grid(10, 60, 12, 1, 2, 12), (Extents2{2, 6}));
  EXPECT_EQ(Grid(60, 10, 12, 1, 2, 12), (Extents2{6, 2}));
}

// Unknown counts, or counts that do not divide the units: the balanced grid, as
// make_team_spec(sizespec, team) gives it.
TEST(MakeTeamSpec, UnknownOrUnfittingCountsGiveTheBalancedGrid) {
  EXPECT_EQ(Grid(60, 60, 12, 0, 0, 0), (Extents2{4, 3}));
  EXPECT_EQ(Grid(60, 60, 12, 2, 1, 5), (Extents2{4, 3}));   // 12 units, nodes of 5 cores
  EXPECT_EQ(Grid(60, 60, 12, 1, 5, 12), (Extents2{4, 3}));  // 5 NUMA domains
  EXPECT_EQ(Grid(60, 60, 12, 1, 1, 12), (Extents2{4, 3}));  // one NUMA domain
  EXPECT_EQ(Grid(60, 60, 12, 2, 2, 0), (Extents2{4, 3}));   // cores unknown
  EXPECT_EQ(Grid(10, 60, 12, 0, 0, 0), (Extents2{3, 4}));   // larger factor along the longer
  const int n = dash_test::nunits();
  dash::SizeSpec<2> size(30, 20);
  EXPECT_EQ(dash::make_team_spec(size).extents(), dash::make_team_spec(size, n).extents());
  EXPECT_EQ(dash::make_team_spec(size, dash::Team::All(), 1, 2, 28).extents(),
            dash::make_team_spec(size, n, 1, 2, 28).extents());
}

TEST(MakeTeamSpec, OneAndThreeDimensions) {
  EXPECT_EQ(dash::make_team_spec(dash::SizeSpec<1>(100), 7, 2, 2, 4).extents(),
            (std::array<std::size_t, 1>{7}));
  EXPECT_EQ(dash::make_team_spec(dash::SizeSpec<3>(9, 9, 9), 8, 1, 2, 8).extents(),
            (std::array<std::size_t, 3>{2, 4, 1}));
  EXPECT_EQ(dash::make_team_spec(dash::SizeSpec<3>(9, 9, 9), 8).extents(),
            (std::array<std::size_t, 3>{2, 2, 2}));
}

TEST(MakeTeamSpec, NoUnitsThrows) {
  ExpectInvalidArgument([] { dash::make_team_spec(dash::SizeSpec<2>(4, 4), 0); }, "0 units");
  ExpectInvalidArgument([] { dash::make_team_spec(dash::SizeSpec<2>(4, 4), -2, 1, 2, 4); },
                        "-2 units");
}

TEST(SizeSpec, ArithmeticExtentsAreConvertedAsDashDoes) {
  const double size_d = 1680 * std::pow(2, 3);
  dash::SizeSpec<2> square(size_d, size_d);
  EXPECT_EQ(square.extents(), (Extents2{13440, 13440}));
  dash::SizeSpec<2> mixed(short(3), 7.9);
  EXPECT_EQ(mixed.extents(), (Extents2{3, 7}));
  EXPECT_EQ(dash::SizeSpec<3>(2u, 3L, 4.0f).size(), 24u);
}

// DASH programs set hwinfo() fields to model another machine: the object answers with them,
// DART's record and other objects are untouched.
TEST(UnitLocality, HwinfoWritesStayInTheObject) {
  const dash::global_unit_t me = dash::myid();
  const dash::util::UnitLocality fresh(me);
  const int numa_before = fresh.hwinfo().num_numa;
  const int cores_before = fresh.hwinfo().num_cores;
  dash::util::UnitLocality uloc(me);
  uloc.hwinfo().num_numa = 4;
  uloc.hwinfo().num_cores = 28;
  uloc.hwinfo().min_threads = 3;
  uloc.hwinfo().max_threads = 5;
  EXPECT_EQ(uloc.hwinfo().num_numa, 4);
  EXPECT_EQ(uloc.hwinfo().num_cores, 28);
  EXPECT_EQ(uloc.min_threads(), 3);
  EXPECT_EQ(uloc.max_threads(), 5);
  const dash::util::UnitLocality again(me);
  EXPECT_EQ(again.hwinfo().num_numa, numa_before);
  EXPECT_EQ(again.hwinfo().num_cores, cores_before);
  EXPECT_EQ(fresh.hwinfo().num_numa, numa_before);
}

}  // namespace
