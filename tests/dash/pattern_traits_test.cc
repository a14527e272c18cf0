// Pattern properties: compile-time classification of the pattern types
// (static_assert: this file compiling is part of the test), pattern
// constraints in both argument orders, make_pattern's type deduction, and
// the run-time checks of properties that depend on extents and unit count.
#include <dash/Init.h>
#include <dash/Pattern.h>
#include <dash/pattern/MakePattern.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "mpi_test.h"

namespace {

using dash::pattern_layout_tag;
using dash::pattern_mapping_tag;
using dash::pattern_partitioning_tag;
using Part = dash::pattern_partitioning_properties<pattern_partitioning_tag::balanced>;
using Map = dash::pattern_mapping_properties<pattern_mapping_tag::balanced>;
using Lay = dash::pattern_layout_properties<>;
using Blocked = dash::pattern_layout_properties<pattern_layout_tag::blocked>;
using Canonical = dash::pattern_layout_properties<pattern_layout_tag::canonical>;
using Diagonal = dash::pattern_mapping_properties<pattern_mapping_tag::diagonal>;
using NoPart = dash::pattern_partitioning_properties<>;
using NoMap = dash::pattern_mapping_properties<>;

// Traits expose each type's properties.
static_assert(dash::pattern_layout_traits<dash::TilePattern<2>>::type::blocked, "");
static_assert(!dash::pattern_layout_traits<dash::TilePattern<2>>::type::canonical, "");
static_assert(dash::pattern_layout_traits<dash::BlockPattern<2>>::type::canonical, "");
static_assert(!dash::pattern_layout_traits<dash::BlockPattern<2>>::type::blocked, "");
static_assert(dash::pattern_layout_traits<dash::BlockPattern<2, dash::COL_MAJOR>>::type::col_major,
              "");
static_assert(dash::pattern_layout_traits<dash::ShiftTilePattern<2>>::type::blocked, "");
static_assert(dash::pattern_mapping_traits<dash::ShiftTilePattern<2>>::type::diagonal, "");
static_assert(dash::pattern_mapping_traits<dash::ShiftTilePattern<2>>::type::shifted, "");
static_assert(!dash::pattern_mapping_traits<dash::TilePattern<2>>::type::diagonal, "");
static_assert(dash::pattern_partitioning_traits<dash::BlockPattern<2>>::type::ndimensional, "");
static_assert(!dash::pattern_partitioning_traits<dash::BlockPattern<1>>::type::ndimensional, "");
static_assert(dash::pattern_layout_traits<dash::SeqTilePattern<2>>::type::blocked, "");

// Both argument orders, and the short names (partitioning_tag, mapping_tag, layout_tag).
static_assert(dash::pattern_constraints<Part, Map, Lay, dash::TilePattern<2>>::satisfied::value,
              "");
static_assert(dash::pattern_constraints<dash::TilePattern<2>, Part, Map, Lay>::satisfied::value,
              "");
static_assert(
    dash::pattern_constraints<dash::ShiftTilePattern<2>, Part, Map, Lay>::satisfied::value, "");
static_assert(
    !dash::pattern_constraints<dash::BlockPattern<2>, NoPart, NoMap, Blocked>::satisfied::value,
    "");
static_assert(
    !dash::pattern_constraints<NoPart, NoMap, Canonical, dash::TilePattern<2>>::satisfied::value,
    "");
static_assert(
    !dash::pattern_constraints<NoPart, Diagonal, Lay, dash::BlockPattern<2>>::satisfied::value, "");
static_assert(
    dash::pattern_constraints<dash::TilePattern<2>,
                              dash::partitioning_properties<dash::partitioning_tag::rectangular>,
                              dash::mapping_properties<dash::mapping_tag::cyclic>,
                              dash::layout_properties<dash::layout_tag::linear>>::satisfied::value,
    "");

using SeedPart = dash::pattern_partitioning_properties<pattern_partitioning_tag::balanced,
                                                       pattern_partitioning_tag::rectangular>;
using SeedMap =
    dash::pattern_mapping_properties<pattern_mapping_tag::balanced, pattern_mapping_tag::diagonal>;
using SeedLay =
    dash::pattern_layout_properties<pattern_layout_tag::blocked, pattern_layout_tag::linear>;

TEST(PatternTraits, SeedListingDeducesAShiftTilePatternThatSatisfiesItsConstraints) {
  dash::TeamSpec<2> teamspec(dash::Team::All());
  dash::SizeSpec<2> sizespec(1024, 768);
  auto pattern = dash::make_pattern<SeedPart, SeedMap, SeedLay>(sizespec, teamspec);
  static_assert(std::is_same_v<decltype(pattern), dash::ShiftTilePattern<2>>, "");
  static_assert(dash::pattern_constraints<decltype(pattern), Part, Map, Lay>::satisfied::value, "");
  static_assert(dash::pattern_layout_traits<decltype(pattern)>::type::blocked, "");
  EXPECT_EQ((dash::pattern_constraint_violations<SeedPart, SeedMap, SeedLay>(pattern)), "");
  EXPECT_EQ(1024 % pattern.blocksize(0), 0);
  EXPECT_EQ(768 % pattern.blocksize(1), 0);
  auto dflt = dash::make_pattern(sizespec, teamspec);
  static_assert(std::is_same_v<decltype(dflt), dash::BlockPattern<2>>, "");
  EXPECT_EQ(dflt.size(), sizespec.size());
}

TEST(PatternTraits, MakePatternDeducesTypeFromLayoutAndMapping) {
  dash::TeamSpec<2> teamspec(dash::Team::All());
  dash::SizeSpec<2> size(40, 30);
  auto tiled = dash::make_pattern<NoPart, NoMap, Blocked>(size, teamspec);
  static_assert(std::is_same_v<decltype(tiled), dash::TilePattern<2>>, "");
  auto col = dash::make_pattern<NoPart, NoMap,
                                dash::pattern_layout_properties<pattern_layout_tag::col_major>>(
      size, teamspec);
  static_assert(std::is_same_v<decltype(col), dash::BlockPattern<2, dash::COL_MAJOR>>, "");
  EXPECT_EQ(col.size(), 1200u);
}

// DASH's unsigned SizeSpec (SizeSpec<2, std::uint64_t>, extent type rather than index type):
// make_team_spec and make_pattern take it with a TeamSpec of the signed index type, a pattern
// converts it, TeamSpec::resize sets a grid.
TEST(PatternTraits, UnsignedSizeSpecAsDashWritesIt) {
  dash::SizeSpec<2, std::uint64_t> size(40, 30);
  static_assert(std::is_same_v<decltype(size)::index_type, std::int64_t>, "");
  static_assert(std::is_same_v<decltype(size)::size_type, std::uint64_t>, "");
  EXPECT_EQ(size.size(), 1200u);
  auto teamspec = dash::make_team_spec<NoPart, NoMap, Blocked>(size);
  static_assert(std::is_same_v<decltype(teamspec), dash::TeamSpec<2, std::int64_t>>, "");
  EXPECT_EQ(teamspec.size(), dash::size());
  auto tiled = dash::make_pattern<NoPart, NoMap, Blocked>(size, teamspec);
  static_assert(
      std::is_same_v<decltype(tiled), dash::TilePattern<2, dash::ROW_MAJOR, std::int64_t>>, "");
  EXPECT_EQ(tiled.extent(0), 40u);
  EXPECT_EQ(tiled.extent(1), 30u);
  const dash::SizeSpec<2> converted(size);
  EXPECT_EQ(converted, dash::SizeSpec<2>(40, 30));
  dash::TilePattern<2> direct(size, dash::DistributionSpec<2>(dash::TILE(8), dash::TILE(5)));
  EXPECT_EQ(direct.size(), 1200u);
  // resize: DASH's way to set the grid (bench.10.summa); a pattern then checks it.
  dash::TeamSpec<2> grid(dash::Team::All());
  grid.resize(std::array<std::uint64_t, 2>{1, dash::size()});
  EXPECT_EQ(grid.extent(0), 1u);
  EXPECT_EQ(grid.extent(1), dash::size());
  dash::TilePattern<2> on_grid(dash::SizeSpec<2>(8, 6 * long(dash::size())),
                               dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)), grid);
  EXPECT_EQ(on_grid.teamspec().extent(1), dash::size());
  // A grid of more units than the team: the pattern deals over them (as DASH's; matrix_test
  // checks that a container refuses it); an empty grid is refused.
  grid.resize(std::array<std::uint64_t, 2>{2, dash::size()});
  dash::TilePattern<2> wide(dash::SizeSpec<2>(8, 6),
                            dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)), grid);
  EXPECT_EQ(wide.num_units(), 2 * dash::size());
  grid.resize(std::array<std::uint64_t, 2>{0, dash::size()});
  EXPECT_THROW(dash::TilePattern<2>(dash::SizeSpec<2>(8, 6),
                                    dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)), grid),
               dash::exception::InvalidArgument);
}

// Every constraint set make_pattern accepts is met by what it returns, for
// awkward extents too (primes, smaller than the unit count).
TEST(PatternTraits, MakePatternResultsSatisfyTheirConstraints) {
  dash::TeamSpec<2> teamspec(dash::Team::All());
  for (auto ext :
       {std::array<long, 2>{1024, 768}, std::array<long, 2>{13, 17}, std::array<long, 2>{1, 1},
        std::array<long, 2>{2, 3}, std::array<long, 2>{96, 5}}) {
    dash::SizeSpec<2> size(ext[0], ext[1]);
    auto check = [&](auto pattern, auto part, auto map, auto lay) {
      using P = decltype(part);
      using M = decltype(map);
      using L = decltype(lay);
      EXPECT_EQ((dash::pattern_constraint_violations<P, M, L>(pattern)), "")
          << ext[0] << "x" << ext[1];
      EXPECT_EQ(pattern.size(), size.size());
    };
    check(dash::make_pattern<Part, Map, Blocked>(size, teamspec), Part{}, Map{}, Blocked{});
    check(dash::make_pattern<Part, NoMap, Canonical>(size, teamspec), Part{}, NoMap{}, Canonical{});
    check(dash::make_pattern<SeedPart, SeedMap, SeedLay>(size, teamspec), SeedPart{}, SeedMap{},
          SeedLay{});
  }
}

TEST(PatternTraits, RunTimeChecksRejectInstancesWithoutTheProperty) {
  // Underfilled last tiles: not balanced.
  dash::TilePattern<2> uneven(dash::SizeSpec<2>(10, 10),
                              dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(3)));
  EXPECT_FALSE((dash::check_pattern_constraints<Part, NoMap, Lay>(uneven)));
  dash::TilePattern<2> even(dash::SizeSpec<2>(12, 12),
                            dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(3)));
  EXPECT_TRUE((dash::check_pattern_constraints<Part, NoMap, Lay>(even)));
  // Several blocks per unit: not minimal.
  using Minimal = dash::pattern_partitioning_properties<pattern_partitioning_tag::minimal>;
  EXPECT_FALSE((dash::check_pattern_constraints<Minimal, NoMap, Lay>(even)));
  dash::BlockPattern<2> one_each(dash::SizeSpec<2>(12, 12));
  EXPECT_TRUE((dash::check_pattern_constraints<Minimal, NoMap, Lay>(one_each)));
  // Cut in one dimension only: not ndimensional (when there is more than one block).
  using NDim = dash::pattern_partitioning_properties<pattern_partitioning_tag::ndimensional>;
  EXPECT_FALSE((dash::check_pattern_constraints<NDim, NoMap, Lay>(one_each)));
  EXPECT_TRUE((dash::check_pattern_constraints<NDim, NoMap, Lay>(even)));
  // A dimension of one element cannot be cut: blocks of 1 there count as cut.
  dash::TilePattern<2> single(dash::SizeSpec<2>(1, 1),
                              dash::DistributionSpec<2>(dash::TILE(1), dash::TILE(1)),
                              dash::TeamSpec<2>(1, 1));
  EXPECT_TRUE((dash::check_pattern_constraints<NDim, NoMap, Lay>(single)));
  dash::TilePattern<2> flat(dash::SizeSpec<2>(1, 6),
                            dash::DistributionSpec<2>(dash::TILE(1), dash::TILE(6)),
                            dash::TeamSpec<2>(1, 1));
  EXPECT_FALSE((dash::check_pattern_constraints<NDim, NoMap, Lay>(flat)));
  // Mapping balance: 3 x 3 tiles over a 2 x 2 grid give 4, 2, 2, 1 blocks.
  if (dash_test::nunits() == 4) {
    dash::TilePattern<2> lumpy(dash::SizeSpec<2>(9, 9),
                               dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(3)),
                               dash::TeamSpec<2>(2, 2));
    EXPECT_FALSE((dash::check_pattern_constraints<NoPart, Map, Lay>(lumpy)));
  }
}

}  // namespace
