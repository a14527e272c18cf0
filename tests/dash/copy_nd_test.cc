// dash::copy / dash::copy_async of N-D ranges: global iterator ranges of matrices in canonical
// order and views, checked element by element against the values the owners wrote. Every
// pattern with per-dimension blocks (BlockPattern, TilePattern, both orders), 2-D and 3-D, odd
// extents, every distribution per dimension (BLOCKED, CYCLIC, BLOCKCYCLIC, TILE, NONE), units
// in one dimension and balanced over all; ranges empty, whole, one element, starting and
// ending inside rows; both directions, copy_async, block and sub views, global -> global
// between different patterns; bad input; from a local view (a local row, a local column) to a
// buffer. Run as is, over MPI RMA only (shm_off) and across
// emulated nodes (vnode1).
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/algorithm/Copy.h>
#include <dash/algorithm/CopyView.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::dim_t;
using dash_test::myid;
using dash_test::nunits;

// Value of the element at global linear index g, per round.
double Value(long g, int round = 0) { return 3.0 * double(g) + 0.25 + 1000000.0 * round; }

// Each unit writes Value(g) into its own elements (native memory), then barrier.
template <class M>
void FillByOwner(M& m, int round = 0) {
  const auto& p = m.pattern();
  for (std::size_t o = 0; o < m.lsize(); ++o)
    m.lbegin()[o] = Value(long(p.global_index(p.myid(), long(o))), round);
  m.barrier();
}

// Every own element holds Value(g, round), else names the first that does not.
template <class M>
std::string CheckOwn(const M& m, int round) {
  const auto& p = m.pattern();
  for (std::size_t o = 0; o < m.lsize(); ++o) {
    const long g = long(p.global_index(p.myid(), long(o)));
    if (m.lbegin()[o] != Value(g, round))
      return "unit " + std::to_string(myid()) + " element " + std::to_string(g) + " holds " +
             std::to_string(m.lbegin()[o]) + ", not " + std::to_string(Value(g, round));
  }
  return "";
}

// The distributions per dimension to try: in 2-D every pair of a list, in 3-D a list of
// triples that covers each distribution in each dimension and the mixed cases (the full product
// would allocate too many matrices for a fast test on an oversubscribed machine).
template <dim_t N>
std::vector<dash::DistributionSpec<N>> DistsFor(bool tiled) {
  std::vector<dash::DistributionSpec<N>> out;
  if constexpr (N == 2) {
    std::vector<dash::Distribution> d = {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(2),
                                         dash::NONE, dash::BLOCKCYCLIC(3)};
    if (tiled) d.push_back(dash::TILE(2));
    for (auto a : d)
      for (auto b : d) out.push_back(dash::DistributionSpec<2>(a, b));
  } else {
    const dash::Distribution B = dash::BLOCKED, C = dash::CYCLIC, K = dash::BLOCKCYCLIC(2),
                             X = dash::NONE;
    out = {{B, X, X}, {X, B, X}, {X, X, C}, {K, C, X}, {C, B, K},
           {B, B, B}, {X, K, B}, {K, X, K}, {C, C, C}, {X, X, X}};
    if (tiled) {
      const dash::Distribution T = dash::TILE(2);
      out.push_back({T, T, T});
      out.push_back({T, X, T});
    }
  }
  return out;
}

std::string Name(const dash::Distribution& d) {
  return std::string(dash::distribution_name(d.type)) +
         (d.blocksize > 1 ? "(" + std::to_string(d.blocksize) + ")" : "");
}

// Calls f(matrix, description) for each distribution of DistsFor and both unit grids (all units
// in the first distributed dimension; balanced) that the pattern accepts.
template <class M, class F>
void ForEachMatrix(const std::array<long, M::ndim()>& extents, F&& f) {
  constexpr dim_t N = M::ndim();
  using P = typename M::pattern_type;
  const bool tiled = std::is_same_v<P, dash::TilePattern<N, P::memory_order()>>;
  std::array<std::size_t, N> e;
  for (dim_t d = 0; d < N; ++d) e[d] = std::size_t(extents[d]);
  const dash::SizeSpec<N> size(e);
  for (const auto& ds : DistsFor<N>(tiled)) {
    std::string what;
    for (dim_t d = 0; d < N; ++d) what += (d ? " x " : "") + Name(ds[d]);
    for (int balanced = 0; balanced < 2; ++balanced) {
      dash::TeamSpec<N> ts(ds, dash::Team::All());
      if (balanced) ts.balance_extents();
      bool ok = true;
      for (dim_t d = 0; d < N; ++d)
        ok &= !(ds[d].type == dash::DistributionType::NONE && ts.extent(d) > 1);
      if (!ok) continue;
      M m(P(size, ds, ts, dash::Team::All()));
      f(m, what + (balanced ? ", balanced grid" : ""));
    }
  }
}

// Ranges [a, b) of a canonical index space of `size` elements whose rows are `row` long:
// empty, whole, one element, one row, and ranges starting and ending inside rows.
std::vector<std::pair<long, long>> Ranges(long size, long row) {
  std::vector<std::pair<long, long>> r = {
      {0, 0},         {0, size},     {size, size},       {size - 1, size},
      {row, 2 * row}, {1, size - 1}, {row - 1, row + 1}, {2, 3 * row - 2}};
  for (long k = 0; k < 5; ++k) {
    long a = (k * 7 + 3) % size;
    long b = a + (k * 11 + 5) % (size - a + 1);
    r.push_back({a, b});
  }
  return r;
}

template <class M>
class CopyNd : public ::testing::Test {};
using NdTypes = ::testing::Types<
    dash::NArray<double, 2>, dash::NArray<double, 2, long, dash::BlockPattern<2, dash::COL_MAJOR>>,
    dash::Matrix<double, 2>, dash::Matrix<double, 2, long, dash::TilePattern<2, dash::COL_MAJOR>>,
    dash::NArray<double, 3>, dash::Matrix<double, 3>>;
TYPED_TEST_SUITE(CopyNd, NdTypes);

template <dim_t N>
std::array<long, N> OddExtents() {
  if constexpr (N == 2)
    return {7, 5};
  else
    return {5, 4, 3};
}

// Global -> local for every range, blocking and async, on every unit.
template <class M>
void GlobalRangeToLocal(M& m, const std::string& what) {
  constexpr dim_t N = M::ndim();
  FillByOwner(m);
  const long size = long(m.size()), row = long(m.extent(N - 1));
  for (auto [a, b] : Ranges(size, row)) {
    std::vector<double> buf(std::size_t(b - a) + 1, -1.0);
    double* end = dash::copy(m.begin() + a, m.begin() + b, buf.data());
    ASSERT_EQ(end, buf.data() + (b - a)) << what;
    for (long k = 0; k < b - a; ++k)
      ASSERT_EQ(buf[k], Value(a + k)) << what << ", range " << a << ".." << b << ", k " << k;
    ASSERT_EQ(buf[b - a], -1.0) << what << ": wrote past the end";
    std::vector<double> async_buf(std::size_t(b - a));
    auto fut = dash::copy_async(m.begin() + a, m.begin() + b, async_buf.data());
    ASSERT_EQ(fut.get(), async_buf.data() + (b - a));
    for (long k = 0; k < b - a; ++k) ASSERT_EQ(async_buf[k], Value(a + k)) << what;
  }
  m.barrier();
}

// Local -> global: the units write disjoint ranges that start and end inside rows and together
// cover the matrix (blocking, then async); every owner then finds the new values.
template <class M>
void LocalToGlobalRanges(M& m, const std::string& what) {
  FillByOwner(m);
  const long size = long(m.size()), n = nunits(), u = myid();
  const long a = u * size / n + (u > 0 ? 1 : 0), b = (u + 1) * size / n + (u + 1 < n ? 1 : 0);
  for (int round = 1; round <= 2; ++round) {
    std::vector<double> buf;
    for (long g = a; g < b; ++g) buf.push_back(Value(g, round));
    if (round == 1) {
      auto out = dash::copy(buf.data(), buf.data() + buf.size(), m.begin() + a);
      EXPECT_EQ(out, m.begin() + b) << what;
    } else {
      dash::copy_async(buf.data(), buf.data() + buf.size(), m.begin() + a).wait();
    }
    m.barrier();
    EXPECT_EQ(CheckOwn(m, round), "") << what << ", round " << round;
    m.barrier();
  }
}

// Views: every block (underfilled ones included), a sub-view crossing blocks, and part of a
// view's positions; then unit 0 writes a sub-view and every owner finds it.
template <class M>
void BlockAndSubViews(M& m, const std::string& what) {
  constexpr dim_t N = M::ndim();
  FillByOwner(m);
  const auto& p = m.pattern();
  auto check_view = [&](auto view, long from, long to, int round) {
    std::vector<double> buf(std::size_t(to - from));
    dash::copy(view.begin() + from, view.begin() + to, buf.data());
    for (long k = from; k < to; ++k) {
      auto c = (view.begin() + k).coords();
      ASSERT_EQ(buf[k - from], Value(long(p.global_index(c)), round)) << what << " k " << k;
    }
  };
  const auto grid = p.blockspec();
  for (long bi = 0; bi < long(grid.size()); ++bi) {
    auto blk = m.block(grid.coords(bi));
    check_view(blk, 0, long(blk.size()), 0);
  }
  auto s = m.view().template sub<0>(1, m.extent(0) - 2).template sub<N - 1>(1, m.extent(N - 1) - 1);
  check_view(s, 0, long(s.size()), 0);
  check_view(s, 1, long(s.size()) - 2, 0);
  m.barrier();
  if (myid() == 0) {
    std::vector<double> buf;
    for (auto it = s.begin(); it != s.end(); ++it)
      buf.push_back(Value(long(p.global_index(it.coords())), 1));
    dash::copy(buf.data(), buf.data() + buf.size(), s.begin());
  }
  m.barrier();
  check_view(s, 0, long(s.size()), 1);
  m.barrier();
}

// Each matrix (every distribution and grid) goes through the three parts above: one allocation
// for all of them keeps the test fast on an MPI whose window allocation is slow.
TYPED_TEST(CopyNd, RangesAndViewsMatchEveryElementBothWays) {
  ForEachMatrix<TypeParam>(OddExtents<TypeParam::ndim()>(),
                           [](TypeParam& m, const std::string& what) {
                             GlobalRangeToLocal(m, what);
                             LocalToGlobalRanges(m, what);
                             BlockAndSubViews(m, what);
                           });
}

// Global -> global between matrices of different patterns and distributions.
TEST(CopyNdGlobal, BetweenPatternsAndDistributions) {
  const long n = nunits();
  dash::NArray<double, 2> rows(dash::SizeSpec<2>(9, 7),
                               dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  dash::TeamSpec<2> grid;
  grid.balance_extents();
  dash::Matrix<double, 2> tiles(9, 7, dash::TILE(2), dash::TILE(3), grid);
  FillByOwner(rows, 0);
  FillByOwner(tiles, 5);
  // Unit n-1 copies rows' [4, 50) onto the same positions of tiles.
  if (myid() == n - 1) {
    auto out = dash::copy(rows.begin() + 4, rows.begin() + 50, tiles.begin() + 4);
    EXPECT_EQ(out, tiles.begin() + 50);
  }
  tiles.barrier();
  // Positions count in each container's own order: rows' row-major, tiles' tile by tile.
  for (long g = 0; g < 63; ++g) {
    const auto c = tiles.pattern().coords(g);
    ASSERT_EQ(double(tiles(c[0], c[1])), Value(g, g >= 4 && g < 50 ? 0 : 5)) << g;
  }
  tiles.barrier();
}

// A local buffer inside the unit's own elements of the range is refused before anything moves;
// one beside them is fine. Bad ranges throw InvalidArgument.
TEST(CopyNdGlobal, BadInputThrows) {
  dash::NArray<double, 2> m(dash::SizeSpec<2>(4 * nunits(), 5),
                            dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  dash::NArray<double, 2> other(dash::SizeSpec<2>(4 * nunits(), 5));
  FillByOwner(m);
  // Unit u owns rows 4u..4u+3: its own rows, copied onto their own memory, overlap.
  const long mine = 20 * myid();
  EXPECT_THROW(dash::copy(m.begin() + mine, m.begin() + mine + 20, m.lbegin()),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::copy(m.begin() + mine + 2, m.begin() + mine + 7, m.lbegin() + 4),
               dash::exception::InvalidArgument);
  EXPECT_EQ(CheckOwn(m, 0), "");
  // Row 1 of its own part onto row 0 of its own part: disjoint.
  dash::copy(m.begin() + mine + 5, m.begin() + mine + 10, m.lbegin());
  for (long c = 0; c < 5; ++c) EXPECT_EQ(m.lbegin()[c], Value(mine + 5 + c));
  std::vector<double> buf(8);
  EXPECT_THROW(dash::copy(m.begin() + 5, m.begin() + 2, buf.data()),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::copy(m.begin(), other.begin() + 3, buf.data()),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::copy(buf.data(), buf.data() + 8, m.end() - 3),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::copy(buf.data() + 1, buf.data(), m.begin()), dash::exception::InvalidArgument);
  m.barrier();
}

TEST(CopyNdLocal, FromALocalViewToABuffer) {
  const long nrows = 10, ncols = 4;
  dash::NArray<double, 2> m(nrows, ncols);
  FillByOwner(m);
  const long rows = long(m.local.extent(0));
  const auto g0 = m.local.offsets();
  for (long i = 0; i < rows; ++i) {
    auto row = m.local.row(i);
    std::vector<double> buf(ncols + 1, -1.0);
    double* end = dash::copy(row.begin(), row.end(), buf.data());
    EXPECT_EQ(end, buf.data() + ncols);
    for (long c = 0; c < ncols; ++c) EXPECT_EQ(buf[c], Value((g0[0] + i) * ncols + c));
    EXPECT_EQ(buf[ncols], -1.0);  // untouched
    EXPECT_EQ(dash::copy(row.begin() + 1, row.begin() + 1, buf.data()), buf.data());
    EXPECT_THROW(dash::copy(row.end(), row.begin(), buf.data()), std::invalid_argument);
  }
  // A local column: strided in local memory, copied element by element.
  auto col = m.local.col(3);
  std::vector<double> buf(std::size_t(rows) + 1, -1.0);
  EXPECT_EQ(dash::copy(col.begin(), col.end(), buf.data()), buf.data() + rows);
  for (long i = 0; i < rows; ++i) EXPECT_EQ(buf[i], Value((g0[0] + i) * ncols + 3));
  m.barrier();
}

}  // namespace
