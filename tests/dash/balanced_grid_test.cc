// One balanced grid: dart_balanced_dims, the containers' TeamSpec
// (balance_extents, make_team_spec) and the blocks' RegularDecomposer factor
// every unit count the same way, and under
// DART_UNIT_MAPPING the neighbours of a container's and a block layer's own
// unit grid are the neighbours the mapping optimised: counted on the grid the
// container and the decomposer really use (the owner of each block), their
// links cross fewer nodes (or, with as many crossings, fewer links at the
// highest level of the topology file) than the same grid in MPI rank order.
// The variants in CMakeLists.txt set the mapping flags;
// DASH_TEST_RENUMBERED_UNITS=<n> names the unit count at which the variant
// must renumber.
#include <dart/dart.h>
#include <dash/Pattern.h>
#include <dash/Team.h>
#include <dash/bp/Decomposer.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::nunits;

std::vector<std::size_t> DartDims(int n, int k) {
  std::vector<int> dims(static_cast<std::size_t>(k));
  EXPECT_EQ(dart_balanced_dims(n, k, dims.data()), DART_OK);
  return {dims.begin(), dims.end()};
}

template <dash::dim_t N>
std::vector<std::size_t> TeamSpecBalanced(int n) {
  std::array<std::size_t, N> one_dim{};
  one_dim.fill(1);
  one_dim[N - 1] = std::size_t(n);  // all units in the last dimension, then balanced
  dash::TeamSpec<N> ts(one_dim);
  ts.balance_extents();
  EXPECT_EQ(ts.num_units(), std::size_t(n));
  return {ts.extents().begin(), ts.extents().end()};
}

template <dash::dim_t N>
std::vector<std::size_t> DecomposerDivisions(int n) {
  dash::bp::Box<N> cube;
  for (dash::dim_t d = 0; d < N; ++d) cube.max[d] = n;  // every grid fits
  const auto div = dash::bp::RegularDecomposer<N>(cube, n).divisions();
  return {div.begin(), div.end()};
}

template <dash::dim_t N>
void CompareAllUpTo(int max_units) {
  for (int n = 1; n <= max_units; ++n) {
    const auto dart = DartDims(n, N);
    ASSERT_EQ(dash::internal::balanced_factors(std::size_t(n), N), dart) << n << " units";
    ASSERT_EQ(TeamSpecBalanced<N>(n), dart) << n << " units, " << N << "-D";
    ASSERT_EQ(DecomposerDivisions<N>(n), dart) << n << " blocks, " << N << "-D";
    ASSERT_EQ(dash::internal::balanced_factors_for_extents(std::size_t(n), std::vector<long>(N, 7)),
              dart);
  }
}

TEST(BalancedGrid, DartTeamSpecAndDecomposerAgreeUpTo1024UnitsIn1To4Dims) {
  CompareAllUpTo<1>(1024);
  CompareAllUpTo<2>(1024);
  CompareAllUpTo<3>(1024);
  CompareAllUpTo<4>(1024);
  // The cases the three used to disagree on.
  EXPECT_EQ(DartDims(72, 2), (std::vector<std::size_t>{9, 8}));
  EXPECT_EQ(TeamSpecBalanced<2>(72), (std::vector<std::size_t>{9, 8}));
  EXPECT_EQ(TeamSpecBalanced<3>(360), (std::vector<std::size_t>{9, 8, 5}));
  EXPECT_EQ(DecomposerDivisions<3>(360), (std::vector<std::size_t>{9, 8, 5}));
}

TEST(BalancedGrid, TeamSpecsOfTheRunUseDartsGrid) {
  const auto dims3 = DartDims(nunits(), 3);
  dash::TeamSpec<3> all(dash::Team::All());
  all.balance_extents();
  EXPECT_EQ(std::vector<std::size_t>(all.extents().begin(), all.extents().end()), dims3);
  const auto made = dash::make_team_spec(dash::SizeSpec<3>(40, 40, 40));
  EXPECT_EQ(std::vector<std::size_t>(made.extents().begin(), made.extents().end()), dims3);
  // A longer dimension takes the largest factor; a 2-D dist with one NONE keeps all units in
  // the other dimension.
  const auto dims2 = DartDims(nunits(), 2);
  const auto tall = dash::make_team_spec(dash::SizeSpec<2>(10, 1000));
  EXPECT_EQ(tall.extent(0), dims2[1]);
  EXPECT_EQ(tall.extent(1), dims2[0]);
  dash::TeamSpec<2> rows(dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE), dash::Team::All());
  EXPECT_EQ(rows.extent(0), std::size_t(nunits()));
  EXPECT_EQ(rows.extent(1), 1u);
}

TEST(BalancedGrid, BadSizesThrow) {
  EXPECT_THROW(dash::internal::balanced_factors(0, 2), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::internal::balanced_factors(4, DART_BALANCED_DIMS_MAX + 1),
               dash::exception::InvalidArgument);
  EXPECT_TRUE(dash::internal::balanced_factors(4, 0).empty());
  EXPECT_EQ(DartDims(5, DART_BALANCED_DIMS_MAX).front(), 5u);
}

bool ExpectRenumbered() {
  const char* n = std::getenv("DASH_TEST_RENUMBERED_UNITS");
  return n != nullptr && std::atoi(n) == nunits();
}

// unit_at[p]: the unit that holds grid position p (row-major over dims) in MPI rank order,
// i.e. the unit whose MPI_COMM_WORLD rank is p.
std::vector<dart_global_unit_t> RankOrder() {
  std::vector<dart_global_unit_t> at(static_cast<std::size_t>(nunits()));
  for (int u = 0; u < nunits(); ++u) {
    int rank = -1;
    EXPECT_EQ(dart_unit_mpi_rank(dart_global_unit_t{u}, &rank), DART_OK);
    at[static_cast<std::size_t>(rank)] = dart_global_unit_t{u};
  }
  return at;
}

// The layout `used` (a container's or decomposer's owners by grid position) against the same
// grid in rank order: never more node crossings; when the run renumbered, strictly better.
void ExpectMappedNeighbours(const std::vector<dart_global_unit_t>& used, const int* dims) {
  const auto by_rank = RankOrder();
  dart_unit_mapping_cost_t mapped{}, ranked{};
  ASSERT_EQ(dart_unit_mapping_cost(used.data(), 3, dims, DART_STENCIL_FACES, 0, 1024, &mapped),
            DART_OK);
  ASSERT_EQ(dart_unit_mapping_cost(by_rank.data(), 3, dims, DART_STENCIL_FACES, 0, 1024, &ranked),
            DART_OK);
  EXPECT_LE(mapped.node_crossings, ranked.node_crossings);
  int l = mapped.nlevels - 1;  // the highest level at which the two layouts differ
  while (l > 0 && mapped.links[l] == ranked.links[l]) --l;
  if (ExpectRenumbered()) {
    EXPECT_LT(mapped.links[l], ranked.links[l]) << "level " << l;
  } else {
    EXPECT_EQ(mapped.links[l], ranked.links[l]) << "level " << l;
  }
}

TEST(BalancedGrid, RemappedContainerNeighboursAreTheMappedOnes) {
  dart_unit_mapping_info_t info;
  ASSERT_EQ(dart_unit_mapping_info(&info), DART_OK);
  ASSERT_EQ(info.ndims, 3);
  const auto dims = DartDims(nunits(), 3);
  // A 3-D tiled container on the balanced TeamSpec, two elements per tile edge.
  dash::TeamSpec<3> ts(dash::Team::All());
  ts.balance_extents();
  const dash::DistributionSpec<3> dist(dash::TILE(2), dash::TILE(2), dash::TILE(2));
  dash::TilePattern<3> pattern(dash::SizeSpec<3>(2 * dims[0], 2 * dims[1], 2 * dims[2]), dist, ts);
  std::vector<dart_global_unit_t> container(static_cast<std::size_t>(nunits()));
  // One block per decomposer position, blocks dealt contiguously: block gid on unit gid.
  dash::bp::Box<3> cube{{0, 0, 0}, {60, 60, 60}};
  dash::bp::RegularDecomposer<3> dec(cube, nunits());
  std::vector<dart_global_unit_t> blocks(static_cast<std::size_t>(nunits()));
  for (int p = 0; p < nunits(); ++p) {
    const std::array<long, 3> c{p / int(dims[1] * dims[2]), p / int(dims[2]) % int(dims[1]),
                                p % int(dims[2])};
    container[static_cast<std::size_t>(p)] =
        dart_global_unit_t{int(pattern.unit_at({2 * c[0], 2 * c[1], 2 * c[2]}))};
    const int gid = dec.gid({int(c[0]), int(c[1]), int(c[2])});
    blocks[static_cast<std::size_t>(p)] = dart_global_unit_t{
        dash::bp::owner(gid, nunits(), nunits(), dash::bp::Assignment::contiguous)};
  }
  SCOPED_TRACE(dart_unit_mapping_name(info.mode));
  {
    SCOPED_TRACE("container");
    ExpectMappedNeighbours(container, info.dims);
  }
  {
    SCOPED_TRACE("blocks");
    ExpectMappedNeighbours(blocks, info.dims);
  }
}

}  // namespace
