// DASH's matrix ranges: m.rows(offset, extent) and .cols(offset, extent) on matrices and
// views (composed, const), m.block(linear index) against block(coordinates) and the pattern's
// block grid, m.local.row(i) / .col(j) and their native pointers (lbegin, lend: the row's
// elements, or an error where they are not contiguous), bad ranges and indices; m.local.row(i)
// as DASH's proxy (ndim 1, extents over both dimensions, row(j)); m.local's lbegin, lend and
// offsets; native pointers of global views (a local tile, rows of a tile, none held) and the
// pattern's local_block_at.
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "matrix_values.h"
#include "mpi_test.h"

namespace {

using dash_test::myid;

using dash_test::FillLocalWithValues;
using dash_test::MatrixValue;
// Shorter names for the shared helpers (tests/support/matrix_values.h).
long Value(long r, long c) { return MatrixValue(r, c); }
template <class M>
void FillLocal(M& m) {
  FillLocalWithValues(m);
}

// The (row, column) pairs a view's elements hold, each once.
template <class V>
std::set<std::pair<long, long>> Cells(const V& view) {
  std::set<std::pair<long, long>> cells;
  for (auto v : view) cells.insert({long(v) / 10000, long(v) % 10000});
  return cells;
}

std::set<std::pair<long, long>> Rectangle(long r0, long c0, long nr, long nc) {
  std::set<std::pair<long, long>> cells;
  for (long r = r0; r < r0 + nr; ++r)
    for (long c = c0; c < c0 + nc; ++c) cells.insert({r, c});
  return cells;
}

template <class MatrixT>
class MatrixRanges : public ::testing::Test {};
using MatrixTypes = ::testing::Types<
    dash::Matrix<long, 2>, dash::NArray<long, 2>,
    dash::Matrix<long, 2, dash::default_index_t, dash::TilePattern<2, dash::COL_MAJOR>>>;
TYPED_TEST_SUITE(MatrixRanges, MatrixTypes);

TYPED_TEST(MatrixRanges, RowsAndColsAreTheirRectangles) {
  // 13 x 11 in tiles of 4 x 3: underfilled last tiles in both dimensions.
  TypeParam m(dash::SizeSpec<2>(13, 11), dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  FillLocal(m);
  EXPECT_EQ(Cells(m.rows(7, 4)), Rectangle(7, 0, 4, 11));
  EXPECT_EQ(Cells(m.cols(1, 6)), Rectangle(0, 1, 13, 6));
  EXPECT_EQ(Cells(m.rows(7, 4).cols(1, 6)), Rectangle(7, 1, 4, 6));
  // Relative to the view they narrow: rows 1..2 of rows 7..10 are rows 8..9.
  EXPECT_EQ(Cells(m.rows(7, 4).rows(1, 2).cols(10, 1)), Rectangle(8, 10, 2, 1));
  EXPECT_EQ(Cells(m.rows(12, 1)), Rectangle(12, 0, 1, 11));
  EXPECT_EQ(m.rows(3, 0).size(), 0u);
  const TypeParam& cm = m;
  EXPECT_EQ(Cells(cm.rows(0, 2).cols(9, 2)), Rectangle(0, 9, 2, 2));
  EXPECT_THROW(m.rows(10, 4), std::out_of_range);
  EXPECT_THROW(m.rows(-1, 2), std::out_of_range);
  EXPECT_THROW(m.cols(5, 7), std::out_of_range);
  EXPECT_THROW(m.rows(7, 4).cols(0, 12), std::out_of_range);
  m.barrier();
}

TYPED_TEST(MatrixRanges, WritesThroughRangesReachOnlyThem) {
  TypeParam m(dash::SizeSpec<2>(12, 18), dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(6)));
  FillLocal(m);
  if (myid() == 0) {
    auto range = m.rows(7, 4).cols(1, 6);
    std::fill(range.begin(), range.end(), -1);
  }
  m.barrier();
  for (long r = 0; r < 12; ++r)
    for (long c = 0; c < 18; ++c) {
      const bool inside = r >= 7 && r < 11 && c >= 1 && c < 7;
      EXPECT_EQ(long(m(r, c)), inside ? -1 : Value(r, c)) << r << ", " << c;
    }
  m.barrier();
}

TYPED_TEST(MatrixRanges, BlockByLinearIndexIsTheBlockOfItsCoordinates) {
  TypeParam m(dash::SizeSpec<2>(13, 11), dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  FillLocal(m);
  const auto grid = m.pattern().blockspec();
  ASSERT_EQ(grid.size(), 16u);  // 4 x 4 blocks
  std::set<std::pair<long, long>> all;
  for (long b = 0; b < long(grid.size()); ++b) {
    // The pattern's linear block order (the matrix's Arrangement).
    const auto rect = m.pattern().block(b);
    const auto cells = Cells(m.block(b));
    EXPECT_EQ(cells,
              Rectangle(rect.offset(0), rect.offset(1), long(rect.extent(0)), long(rect.extent(1))))
        << "block " << b;
    all.insert(cells.begin(), cells.end());
  }
  EXPECT_EQ(all, Rectangle(0, 0, 13, 11));
  // The last block is underfilled: rows 12, columns 9..10.
  EXPECT_EQ(Cells(m.block(long(grid.size()) - 1)), Rectangle(12, 9, 1, 2));
  EXPECT_THROW(m.block(long(grid.size())), std::out_of_range);
  EXPECT_THROW(m.block(-1), std::out_of_range);
  m.barrier();
}

TEST(MatrixRanges, LocalRowsOfABlockPatternAreContiguous) {
  // NArray: one local array per unit (rows blocked over the units); odd extents.
  dash::NArray<long, 2> m(19, 7);
  FillLocal(m);
  const dash::NArray<long, 2>& cm = m;
  const long rows = long(cm.pattern().local_extents()[0]);
  for (long i = 0; i < rows; ++i) {
    auto row = cm.local.row(i);
    ASSERT_EQ(row.size(), 7u);
    const long* p = row.lbegin();
    ASSERT_EQ(row.lend() - p, 7);
    const auto g = cm.pattern().global_coords({i, 0});
    for (long c = 0; c < 7; ++c) EXPECT_EQ(p[c], Value(g[0], c)) << i << ", " << c;
    EXPECT_EQ(p, &m.local(i, 0));
  }
  // A column of a row-major local array is not contiguous: lend refuses it (lbegin is its
  // first element).
  if (rows > 1) {
    auto col = m.local.col(3);
    EXPECT_EQ(col.lbegin(), &m.local(0, 3));
    EXPECT_THROW(col.lend(), std::invalid_argument);
  }
  EXPECT_THROW(m.local.row(rows), std::out_of_range);
  EXPECT_THROW(m.local.col(7), std::out_of_range);
  m.barrier();
}

TEST(MatrixRanges, LocalRowsOfTilesAreNotContiguous) {
  // Tiles of 2 x 2 in a 4 x 8 matrix: a local row crosses several tiles in local memory.
  dash::Matrix<long, 2> m(dash::SizeSpec<2>(4, 8),
                          dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(2)));
  FillLocal(m);
  if (m.lsize() > 0) {
    auto row = m.local.row(0);
    EXPECT_EQ(row.lbegin(), &m.local(0, 0));
    EXPECT_THROW(row.lend(), std::invalid_argument);
    for (long c = 0; c < long(row.size()); ++c) {
      const auto g = m.pattern().global_coords({0, c});
      EXPECT_EQ(row(c), Value(g[0], g[1]));
    }
  }
  m.barrier();
}

TEST(MatrixRanges, LocalRowIsTheSubscriptProxy) {
  // Rows blocked over the units: unit u holds rows [u * b, u * b + rows), b = ceil(19 / units).
  const long nrows = 19, ncols = 7;
  dash::NArray<long, 2> m(nrows, ncols);
  FillLocal(m);
  const long b = (nrows + dash_test::nunits() - 1) / dash_test::nunits();
  const long first = std::min(nrows, myid() * b);
  const long rows = std::min(nrows, first + b) - first;
  ASSERT_EQ(long(m.local.extent(0)), rows);
  EXPECT_EQ(m.local.lbegin(), m.lbegin());
  EXPECT_EQ(m.local.lend(), m.lend());
  EXPECT_EQ(m.local.lend() - m.local.lbegin(), rows * ncols);
  // The global coordinates of local (0, 0); 0, 0 on a unit without rows.
  EXPECT_EQ(m.local.offsets(), (std::array<long, 2>{rows > 0 ? first : 0, 0}));
  for (long i = 0; i < rows; ++i) {
    auto row = m.local.row(i);
    static_assert(decltype(row)::ndim() == 1);
    EXPECT_EQ(row.size(), std::size_t(ncols));
    EXPECT_EQ(row.extents(), (std::array<std::size_t, 2>{1, std::size_t(ncols)}));
    EXPECT_EQ(row.offsets(), (std::array<long, 2>{i, 0}));  // local coordinates
    EXPECT_EQ(row.lbegin(), m.lbegin() + i * ncols);
    EXPECT_EQ(row.lend(), m.lbegin() + (i + 1) * ncols);
    long c = 0;
    for (long v : row) EXPECT_EQ(v, Value(first + i, c++));
    EXPECT_EQ(c, ncols);
    for (long j = 0; j < ncols; ++j) {
      EXPECT_EQ(&row[j], &m.local(i, j));
      EXPECT_EQ(&row(j), &m.local(i, j));
    }
  }
  EXPECT_THROW(m.local.row(rows), std::out_of_range);
  EXPECT_THROW(m.local.row(-1), std::out_of_range);
  m.barrier();
}

TEST(MatrixRanges, TilesOfAGlobalViewAreNativeRanges) {
  // Tiles of 3 x 2 in a 7 x 9 matrix: the last tile row has 1 row, the last tile column 1
  // column. Every local tile is contiguous in local memory, row by row.
  const long nrows = 7, ncols = 9;
  dash::Matrix<long, 2> m(dash::SizeSpec<2>(nrows, ncols),
                          dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(2)));
  FillLocal(m);
  long covered = 0;
  for (long lb = 0; lb < long(m.local.num_blocks()); ++lb) {
    auto tile = m.local.block(lb);
    long* p = tile.lbegin();
    long* q = tile.lend();
    ASSERT_EQ(q - p, long(tile.size())) << "tile " << lb;
    // Row-major over the tile.
    for (long k = 0; k < q - p; ++k) {
      const long r = tile.offset(0) + k / long(tile.extent(1));
      const long c = tile.offset(1) + k % long(tile.extent(1));
      EXPECT_EQ(p[k], Value(r, c)) << "tile " << lb << " element " << k;
    }
    EXPECT_TRUE(p >= m.lbegin() && q <= m.lend());
    covered += q - p;
    // Its last row alone: a native range too, the tile's last extent(1) elements.
    auto last_row = tile.sub<0>(long(tile.extent(0)) - 1, 1);
    EXPECT_EQ(last_row.lbegin(), q - long(tile.extent(1)));
    EXPECT_EQ(last_row.lend(), q);
    // Its last column, when the tile has two: every other element, not a range.
    if (tile.extent(1) == 2 && tile.extent(0) > 1) {
      auto col = tile.sub<1>(1, 1);
      EXPECT_EQ(col.lbegin(), p + 1);
      EXPECT_THROW(col.lend(), std::invalid_argument);
    }
  }
  EXPECT_EQ(covered, long(m.lsize()));
  // The whole matrix spans several tiles of a unit whenever it holds more than one.
  auto whole = m.sub<0>(0, nrows);
  if (m.local.num_blocks() > 1) {
    EXPECT_THROW(whole.lend(), std::invalid_argument);
  } else {
    EXPECT_EQ(whole.lend() - whole.lbegin(), long(m.lsize()));
  }
  // A view of another unit's tile only: no element here, lbegin == lend.
  const auto& pattern = m.pattern();
  for (long gb = 0; gb < long(pattern.blockspec().size()); ++gb) {
    auto blk = m.block(gb);
    if (pattern.unit_at(std::array<long, 2>{blk.offset(0), blk.offset(1)}) == pattern.myid())
      continue;
    EXPECT_EQ(blk.lbegin(), blk.lend()) << "block " << gb;
  }
  m.barrier();
}

TEST(MatrixRanges, LocalBlockAtNamesTheOwnersLocalBlock) {
  for (auto dist : {dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(2)),
                    dash::DistributionSpec<2>(dash::BLOCKCYCLIC(2), dash::CYCLIC)}) {
    dash::Matrix<long, 2> m(dash::SizeSpec<2>(7, 9), dist);
    const auto& pattern = m.pattern();
    for (long r = 0; r < 7; ++r)
      for (long c = 0; c < 9; ++c) {
        const std::array<long, 2> g{r, c};
        const auto at = pattern.local_block_at(g);
        EXPECT_EQ(at.unit, pattern.unit_at(g)) << r << ", " << c;
        ASSERT_GE(at.index, 0);
        ASSERT_LT(at.index, long(pattern.local_blockspec(at.unit).size()));
        // The owner's local block at.index is the rectangle holding (r, c).
        const auto rect = pattern.local_block(at.unit, at.index);
        EXPECT_TRUE(r >= rect.offset(0) && r < rect.offset(0) + long(rect.extent(0)) &&
                    c >= rect.offset(1) && c < rect.offset(1) + long(rect.extent(1)))
            << r << ", " << c << " not in local block " << at.index;
      }
    m.barrier();
  }
  // And an NArray (BlockPattern): one block per unit, index 0 for all.
  dash::NArray<long, 2> n(11, 5);
  for (long r = 0; r < 11; ++r) {
    const auto at = n.pattern().local_block_at({r, 4});
    EXPECT_EQ(at.unit, n.pattern().unit_at(std::array<long, 2>{r, 4}));
    EXPECT_EQ(at.index, 0);
  }
  n.barrier();
}

}  // namespace
