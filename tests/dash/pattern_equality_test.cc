// Pattern equality (==, !=: the same extents, Distributions, unit grid and team; irregular
// patterns also the same local sizes) on every pattern type, and DASH's constructor form with
// the extents interleaved with the Distributions. Every unit builds and compares.
#include <dash/Pattern.h>
#include <dash/Team.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::nunits;

template <class P>
class PatternEquality : public ::testing::Test {};
using EqualityTypes =
    ::testing::Types<dash::BlockPattern<2>, dash::BlockPattern<2, dash::COL_MAJOR>,
                     dash::TilePattern<2>, dash::ShiftTilePattern<2>, dash::SeqTilePattern<2>>;
TYPED_TEST_SUITE(PatternEquality, EqualityTypes);

// Odd extents and underfilled tiles: 7 x 9 in TILE(2) x TILE(4).
TYPED_TEST(PatternEquality, SameDistributionComparesEqual) {
  using P = TypeParam;
  const std::size_t n = std::size_t(nunits());
  const dash::SizeSpec<2> size(7, 9);
  const dash::DistributionSpec<2> dist(dash::TILE(2), dash::TILE(4));
  const dash::TeamSpec<2> grid(n, 1);
  P a(size, dist, grid, dash::Team::All());
  P variadic(7, 9, dash::TILE(2), dash::TILE(4), grid);
  P interleaved(7, dash::TILE(2), 9, dash::TILE(4), grid, dash::Team::All());
  const P copy = a;
  EXPECT_TRUE(a == a);
  EXPECT_FALSE(a != a);
  EXPECT_TRUE(a == variadic);
  EXPECT_TRUE(variadic == a);
  EXPECT_TRUE(a == interleaved);
  EXPECT_TRUE(a == copy);
  EXPECT_FALSE(a != copy);
}

TYPED_TEST(PatternEquality, AnyDifferenceInTheDistributionComparesUnequal) {
  using P = TypeParam;
  const std::size_t n = std::size_t(nunits());
  const dash::DistributionSpec<2> dist(dash::TILE(2), dash::TILE(4));
  const dash::TeamSpec<2> grid(n, 1);
  P a(dash::SizeSpec<2>(7, 9), dist, grid);
  // Another extent in either dimension.
  EXPECT_TRUE(a != P(dash::SizeSpec<2>(8, 9), dist, grid));
  EXPECT_TRUE(a != P(dash::SizeSpec<2>(7, 10), dist, grid));
  EXPECT_FALSE(a == P(dash::SizeSpec<2>(9, 7), dist, grid));
  // Another Distribution, also one that cuts the same blocks (TILE(9) and NONE over 9).
  EXPECT_TRUE(a != P(dash::SizeSpec<2>(7, 9),
                     dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(4)), grid));
  EXPECT_TRUE(
      P(dash::SizeSpec<2>(7, 9), dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(9)), grid) !=
      P(dash::SizeSpec<2>(7, 9), dash::DistributionSpec<2>(dash::TILE(2), dash::NONE), grid));
  // Another unit grid of the same units, and one of more units than the team.
  if (n > 1) {
    EXPECT_TRUE(a != P(dash::SizeSpec<2>(7, 9), dist, dash::TeamSpec<2>(1, n)));
  }
  EXPECT_TRUE(a != P(dash::SizeSpec<2>(7, 9), dist, dash::TeamSpec<2>(n + 1, 1)));
  // Another team of the same units (a split in one part): same grid, other team.
  dash::Team& same_units = dash::Team::All().split(1);
  ASSERT_EQ(same_units.size(), dash::Team::All().size());
  P other_team(dash::SizeSpec<2>(7, 9), dist, grid, same_units);
  EXPECT_TRUE(a != other_team);
  EXPECT_TRUE(other_team == P(dash::SizeSpec<2>(7, 9), dist, grid, same_units));
  dash::Team::All().barrier();
}

// DASH's BlockPatternTest.EqualityComparison: the default distribution BLOCKED, NONE, NONE
// equals the same extents with the grid it implies; other extents, distributions or grids do
// not (a grid spreading a NONE dimension is accepted, as DASH accepts it).
TEST(PatternEquality, DashsThreeDimensionalCases) {
  const std::size_t n = std::size_t(nunits());
  dash::BlockPattern<3> p1(21, 37, 41);
  dash::BlockPattern<3> p2(21, 38, 41);
  dash::BlockPattern<3> p3(21, 38, 41, dash::NONE, dash::BLOCKED, dash::NONE);
  dash::BlockPattern<3> p4(21, 38, 41, dash::TeamSpec<3>(1, n, 1));
  dash::BlockPattern<3> p5(21, 37, 41, dash::TeamSpec<3>(n, 1, 1));
  EXPECT_EQ(p1, p5);
  EXPECT_NE(p1, p2);
  EXPECT_NE(p1, p3);
  EXPECT_NE(p1, p4);
  EXPECT_NE(p2, p3);
  // p4 spreads the NONE dimension 1 over n unit coordinates: coordinate 0 holds all of it.
  for (std::size_t u = 0; u < n; ++u)
    EXPECT_EQ(p4.local_size(dash::team_unit_t(dart_unit_t(u))), u == 0 ? 21u * 38u * 41u : 0u)
        << "unit " << u;
}

// Irregular patterns: equal with the same local sizes on the same team, unequal with other
// sizes of the same total.
TEST(PatternEquality, IrregularPatternsCompareTheirLocalSizes) {
  const std::size_t n = std::size_t(nunits());
  using Sizes = std::vector<dash::CSRPattern<1>::size_type>;
  Sizes sizes(n), other(n);
  for (std::size_t u = 0; u < n; ++u) {
    sizes[u] = 2 * u + 1;          // 1, 3, 5, ...
    other[n - 1 - u] = 2 * u + 1;  // the same total, reversed
  }
  dash::CSRPattern<1> a(sizes), b(sizes), c(other);
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a != b);
  EXPECT_EQ(a == c, n == 1);
  EXPECT_TRUE(dash::CSRPattern<1>(Sizes(n, 4)) != dash::CSRPattern<1>(Sizes(n, 5)));
}

// The k-th integer argument is the extent of dimension k and the k-th Distribution its
// distribution, however they alternate (DASH's BlockPatternTest and TilePatternTest forms).
TEST(PatternArguments, ExtentsInterleavedWithDistributions) {
  const std::size_t n = std::size_t(nunits());
  dash::BlockPattern<3> mixed(5, dash::NONE, 6, dash::NONE, 7, dash::BLOCKED, dash::Team::All());
  EXPECT_EQ(mixed.extent(0), 5u);
  EXPECT_EQ(mixed.extent(1), 6u);
  EXPECT_EQ(mixed.extent(2), 7u);
  EXPECT_EQ(mixed.distspec(), dash::DistributionSpec<3>(dash::NONE, dash::NONE, dash::BLOCKED));
  EXPECT_EQ(mixed, dash::BlockPattern<3>(5, 6, 7, dash::NONE, dash::NONE, dash::BLOCKED));

  dash::TeamSpec<4> grid(n, 1, 1, 1);
  dash::TilePattern<4> tiles(3, 5, dash::TILE(2), dash::TILE(2), 4, 1, dash::NONE, dash::NONE, grid,
                             dash::Team::All());
  dash::TilePattern<4> spelled(
      dash::SizeSpec<4>(3, 5, 4, 1),
      dash::DistributionSpec<4>(dash::TILE(2), dash::TILE(2), dash::NONE, dash::NONE), grid,
      dash::Team::All());
  EXPECT_EQ(tiles, spelled);
  EXPECT_EQ(tiles.extents(), spelled.extents());
  EXPECT_EQ(tiles.local_size(), spelled.local_size());
  for (std::size_t g = 0; g < tiles.size(); ++g) {
    auto l = tiles.local(dash::default_index_t(g)), r = spelled.local(dash::default_index_t(g));
    ASSERT_EQ(l.unit, r.unit) << g;
    ASSERT_EQ(l.index, r.index) << g;
  }
  // The same for the other pattern types and a 2-D interleaving.
  EXPECT_EQ(dash::ShiftTilePattern<2>(9, dash::TILE(2), 4, dash::TILE(3)),
            dash::ShiftTilePattern<2>(9, 4, dash::TILE(2), dash::TILE(3)));
  EXPECT_EQ(dash::SeqTilePattern<2>(9, dash::TILE(2), 4, dash::TILE(3)),
            dash::SeqTilePattern<2>(9, 4, dash::TILE(2), dash::TILE(3)));
}

}  // namespace
