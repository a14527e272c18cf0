// dash::summa / dash::mmult: C += A x B on tiled matrices from dash::make_pattern with the
// SUMMA constraints, against the product computed on every unit from the formulas of A and B
// (every element of C checked on every unit); row- and column-major tiles, non-square
// operands with tilings of their own (make_pattern's per matrix), C accumulating, and the
// errors: extents that do not fit, tiles that do not divide the extents, a pattern cut in one
// dimension only.
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/algorithm/SUMMA.h>
#include <dash/pattern/MakePattern.h>
#include <dash/pattern/SeqTilePattern.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::nunits;

double AValue(long r, long c) { return double((r * 7 + c * 3) % 11) - 5.0; }
double BValue(long r, long c) { return double((r * 5 + c * 2) % 13) * 0.5 - 3.0; }

// Sets every element of m the calling unit owns to f(r, c).
template <class M, class F>
void Fill(M& m, F f) {
  for (long r = 0; r < long(m.extent(0)); ++r)
    for (long c = 0; c < long(m.extent(1)); ++c)
      if (m.pattern().unit_at(std::array<long, 2>{r, c}) == m.pattern().myid()) m(r, c) = f(r, c);
  m.barrier();
}

// The unit grid SUMMA's patterns need (cut in both dimensions): units as rows x 2 when even.
dash::TeamSpec<2> Grid() {
  const long n = long(nunits());
  return n % 2 == 0 ? dash::TeamSpec<2>(n / 2, 2) : dash::TeamSpec<2>(n, 1);
}

// Layout constraints with column-major tiles.
using ColumnMajorTiles = dash::pattern_layout_properties<dash::pattern_layout_tag::blocked,
                                                         dash::pattern_layout_tag::linear,
                                                         dash::pattern_layout_tag::col_major>;

template <class LayC>
void CheckProduct(long n, long m, long p) {
  auto pattern_of = [](long rows, long cols) {
    return dash::make_pattern<dash::summa_pattern_partitioning_constraints,
                              dash::summa_pattern_mapping_constraints, LayC>(
        dash::SizeSpec<2>(rows, cols), Grid());
  };
  auto pa = pattern_of(n, m);
  auto pb = pattern_of(m, p);
  auto pc = pattern_of(n, p);
  using P = decltype(pa);
  dash::Matrix<double, 2, dash::default_index_t, P> a(pa), b(pb), c(pc);
  Fill(a, AValue);
  Fill(b, BValue);
  Fill(c, [](long r, long col) { return double(r - col); });  // C accumulates onto this
  dash::summa(a, b, c);
  for (long r = 0; r < n; ++r)
    for (long col = 0; col < p; ++col) {
      double expected = double(r - col);
      for (long k = 0; k < m; ++k) expected += AValue(r, k) * BValue(k, col);
      ASSERT_DOUBLE_EQ(double(c(r, col)), expected) << r << ", " << col;
    }
  c.barrier();
}

TEST(Summa, SquareProductRowMajor) {
  CheckProduct<dash::summa_pattern_layout_constraints>(16, 16, 16);
  static_assert(dash::TilePattern<2>::memory_order() == dash::ROW_MAJOR);
}

TEST(Summa, NonSquareProductRowMajor) {
  CheckProduct<dash::summa_pattern_layout_constraints>(24, 8, 16);
}

TEST(Summa, ProductColumnMajor) { CheckProduct<ColumnMajorTiles>(16, 24, 8); }

// DASH's bench.10.summa: SeqTilePattern matrices (tiles dealt in sequence), square tiles of
// extent / units (at least two per dimension), the TeamSpec given.
TEST(Summa, SequentialTiles) {
  using P = dash::SeqTilePattern<2>;
  static_assert(
      dash::summa_pattern_constraints<dash::Matrix<double, 2, long, P>>::satisfied::value);
  // Tiles of 8 x 8, as many per dimension as units (two for one unit: SUMMA needs a cut in
  // both dimensions).
  const long tile = 8, n = tile * std::max(2L, long(nunits()));
  P pattern(dash::SizeSpec<2>(n, n), dash::DistributionSpec<2>(dash::TILE(tile), dash::TILE(tile)),
            Grid());
  dash::Matrix<double, 2, dash::default_index_t, P> a(pattern), b(pattern), c(pattern);
  Fill(a, AValue);
  Fill(b, BValue);
  Fill(c, [](long, long) { return 0.0; });
  dash::summa(a, b, c);
  for (long r = 0; r < n; ++r)
    for (long col = 0; col < n; ++col) {
      double expected = 0;
      for (long k = 0; k < n; ++k) expected += AValue(r, k) * BValue(k, col);
      ASSERT_DOUBLE_EQ(double(c(r, col)), expected) << r << ", " << col;
    }
  c.barrier();
}

TEST(Summa, MmultIsSumma) {
  auto pattern =
      dash::make_pattern<dash::summa_pattern_partitioning_constraints,
                         dash::summa_pattern_mapping_constraints,
                         dash::summa_pattern_layout_constraints>(dash::SizeSpec<2>(16, 16), Grid());
  using P = decltype(pattern);
  dash::Matrix<double, 2, dash::default_index_t, P> a(pattern), b(pattern), c(pattern);
  Fill(a, AValue);
  Fill(b, [](long r, long col) { return r == col ? 1.0 : 0.0; });  // the identity
  Fill(c, [](long, long) { return 0.0; });
  dash::mmult(a, b, c);
  for (long r = 0; r < 16; ++r)
    for (long col = 0; col < 16; ++col) ASSERT_DOUBLE_EQ(double(c(r, col)), AValue(r, col));
  c.barrier();
}

// SUMMA's constraints on an n x n matrix with n the unit count (DASH's HDF5 test does that): at
// one unit a 1 x 1 matrix, whose single block of 1 x 1 counts as cut in both dimensions.
TEST(Summa, PatternForOneElementPerUnitRow) {
  const long n = long(nunits());
  dash::TeamSpec<2> grid(n, 1);
  grid.balance_extents();
  auto pattern =
      dash::make_pattern<dash::summa_pattern_partitioning_constraints,
                         dash::summa_pattern_mapping_constraints,
                         dash::summa_pattern_layout_constraints>(dash::SizeSpec<2>(n, n), grid);
  EXPECT_EQ(pattern.size(), std::size_t(n * n));
  EXPECT_EQ((dash::pattern_constraint_violations<dash::summa_pattern_partitioning_constraints,
                                                 dash::summa_pattern_mapping_constraints,
                                                 dash::summa_pattern_layout_constraints>(pattern)),
            "");
}

TEST(Summa, OperandsThatDoNotFitAreRefused) {
  using P = dash::TilePattern<2>;
  const dash::DistributionSpec<2> tiles(dash::TILE(4), dash::TILE(4));
  dash::Matrix<double, 2, dash::default_index_t, P> a(P(dash::SizeSpec<2>(8, 8), tiles, Grid()));
  dash::Matrix<double, 2, dash::default_index_t, P> b(P(dash::SizeSpec<2>(12, 8), tiles, Grid()));
  dash::Matrix<double, 2, dash::default_index_t, P> c(P(dash::SizeSpec<2>(8, 8), tiles, Grid()));
  EXPECT_THROW(dash::summa(a, b, c), std::invalid_argument);  // 8 x 8 times 12 x 8
  // Tiles of 3 do not divide 8: not balanced.
  const dash::DistributionSpec<2> odd(dash::TILE(3), dash::TILE(4));
  dash::Matrix<double, 2, dash::default_index_t, P> d(P(dash::SizeSpec<2>(8, 8), odd, Grid()));
  EXPECT_THROW(dash::summa(d, a, c), std::invalid_argument);
  // Cut in one dimension only: not ndimensional.
  const dash::DistributionSpec<2> rows(dash::TILE(4), dash::TILE(8));
  dash::Matrix<double, 2, dash::default_index_t, P> e(P(dash::SizeSpec<2>(8, 8), rows, Grid()));
  EXPECT_THROW(dash::summa(a, a, e), std::invalid_argument);
  c.barrier();
}

}  // namespace
