// The global order of tiled patterns, as DASH's: TilePattern, ShiftTilePattern and
// SeqTilePattern of two or more dimensions number their elements tile by tile (tiles in the
// tile grid's Arrangement order, a tile's elements in Arrangement order over its own extents,
// underfilled last tiles at their real size); BlockPattern stays row- or column-major. Checked
// against an order enumerated here: the pattern's coords / global_index / local_run, a tiled
// matrix's global iterators (std::copy of the whole matrix, range-for), dash::copy of ranges
// that start and end inside tiles both ways, the algorithms over such ranges (fill, find,
// min_element, for_each_with_index, accumulate, transform), and a saved file, which stays
// row-major (it loads into a BlockPattern matrix).
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/algorithm/Accumulate.h>
#include <dash/algorithm/Copy.h>
#include <dash/algorithm/Fill.h>
#include <dash/algorithm/Find.h>
#include <dash/algorithm/ForEach.h>
#include <dash/algorithm/MinMax.h>
#include <dash/algorithm/Transform.h>
#include <dash/io/Save.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "matrix_values.h"
#include "mpi_test.h"
#include "shared_dir.h"

namespace {

using dash_test::FillLocalWithValues;
using dash_test::MatrixValue;
using dash_test::myid;

// The coordinates of every element in the order DASH's tiled patterns number them, enumerated
// tile by tile: extents ext, full tile extents bs, dimension order[0] slowest.
template <std::size_t N>
std::vector<std::array<long, N>> TiledOrder(const std::array<long, N>& ext,
                                            const std::array<long, N>& bs,
                                            const std::array<int, N>& order) {
  std::array<long, N> ntiles;
  for (std::size_t d = 0; d < N; ++d) ntiles[d] = (ext[d] + bs[d] - 1) / bs[d];
  std::vector<std::array<long, N>> out;
  // Odometer over (tile coordinates, then coordinates inside the tile), slowest first.
  std::array<long, N> tile{};
  while (true) {
    std::array<long, N> tile_ext, in{};
    for (std::size_t d = 0; d < N; ++d) tile_ext[d] = std::min(bs[d], ext[d] - tile[d] * bs[d]);
    while (true) {
      std::array<long, N> c;
      for (std::size_t d = 0; d < N; ++d) c[d] = tile[d] * bs[d] + in[d];
      out.push_back(c);
      int k = int(N) - 1;
      for (; k >= 0; --k) {
        const int d = order[std::size_t(k)];
        if (++in[std::size_t(d)] < tile_ext[std::size_t(d)]) break;
        in[std::size_t(d)] = 0;
      }
      if (k < 0) break;
    }
    int k = int(N) - 1;
    for (; k >= 0; --k) {
      const int d = order[std::size_t(k)];
      if (++tile[std::size_t(d)] < ntiles[std::size_t(d)]) break;
      tile[std::size_t(d)] = 0;
    }
    if (k < 0) break;
  }
  return out;
}

// Checks coords, global_index and local_run of pattern p against `expected` (coordinates by
// global index) on the calling unit.
template <class P, std::size_t N>
void ExpectPatternOrder(const P& p, const std::vector<std::array<long, N>>& expected,
                        const std::array<long, N>& bs) {
  using I = typename P::index_type;
  ASSERT_EQ(std::size_t(p.size()), expected.size());
  EXPECT_TRUE(P::tile_order());
  for (std::size_t g = 0; g < expected.size(); ++g) {
    typename P::coords_type c;
    for (std::size_t d = 0; d < N; ++d) c[d] = I(expected[g][d]);
    ASSERT_EQ(p.coords(I(g)), c) << "global index " << g;
    ASSERT_EQ(p.global_index(c), I(g));
    // The run: to the end of the tile, at consecutive offsets of the owner.
    std::size_t end = g + 1;
    auto same_tile = [&](std::size_t h) {
      for (std::size_t d = 0; d < N; ++d)
        if (expected[h][d] / bs[d] != expected[g][d] / bs[d]) return false;
      return true;
    };
    while (end < expected.size() && same_tile(end)) ++end;
    const auto run = p.local_run(I(g));
    const auto l = p.local_index(c);
    ASSERT_EQ(run.run, I(end - g)) << "global index " << g;
    ASSERT_EQ(run.unit, l.unit);
    ASSERT_EQ(run.index, l.index);
    if (g + 1 < end) {
      ASSERT_EQ(p.local(I(g + 1)).index, l.index + 1);
    }
  }
}

TEST(TileOrder, TilePattern2D_RowAndColumnMajor_UnderfilledTiles) {
  // 11 x 7 in tiles of 4 x 3: the last tile row 3 high, the last tile column 1 wide.
  dash::TilePattern<2> rm(dash::SizeSpec<2>(11, 7),
                          dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  ExpectPatternOrder<dash::TilePattern<2>, 2>(rm, TiledOrder<2>({11, 7}, {4, 3}, {0, 1}), {4, 3});
  dash::TilePattern<2, dash::COL_MAJOR> cm(dash::SizeSpec<2>(11, 7),
                                           dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  ExpectPatternOrder<decltype(cm), 2>(cm, TiledOrder<2>({11, 7}, {4, 3}, {1, 0}), {4, 3});
  // BLOCKED and NONE dimensions: blocks of ceil(extent / units) and whole rows.
  dash::TilePattern<2> bn(dash::SizeSpec<2>(9, 5),
                          dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  const long b = (9 + long(dash::size()) - 1) / long(dash::size());
  ExpectPatternOrder<dash::TilePattern<2>, 2>(bn, TiledOrder<2>({9, 5}, {b, 5}, {0, 1}), {b, 5});
  // A tile larger than the extent: one tile in that dimension.
  dash::TilePattern<2> big(dash::SizeSpec<2>(5, 6),
                           dash::DistributionSpec<2>(dash::TILE(8), dash::TILE(4)));
  ExpectPatternOrder<dash::TilePattern<2>, 2>(big, TiledOrder<2>({5, 6}, {8, 4}, {0, 1}), {8, 4});
}

TEST(TileOrder, TilePattern3D_ShiftAndSeqTilePatterns) {
  dash::TilePattern<3> p3(dash::SizeSpec<3>(5, 4, 7),
                          dash::DistributionSpec<3>(dash::TILE(2), dash::TILE(3), dash::TILE(4)));
  ExpectPatternOrder<dash::TilePattern<3>, 3>(p3, TiledOrder<3>({5, 4, 7}, {2, 3, 4}, {0, 1, 2}),
                                              {2, 3, 4});
  const long u = long(dash::size());
  dash::ShiftTilePattern<2> shift(dash::SizeSpec<2>(4 * u + 1, 3 * u + 2),
                                  dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  ExpectPatternOrder<decltype(shift), 2>(
      shift, TiledOrder<2>({4 * u + 1, 3 * u + 2}, {4, 3}, {0, 1}), {4, 3});
  dash::SeqTilePattern<2> seq(dash::SizeSpec<2>(10, 9),
                              dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(4)));
  ExpectPatternOrder<decltype(seq), 2>(seq, TiledOrder<2>({10, 9}, {3, 4}, {0, 1}), {3, 4});
}

TEST(TileOrder, BlockPatternStaysRowMajor) {
  dash::BlockPattern<2> p(dash::SizeSpec<2>(11, 7),
                          dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  EXPECT_FALSE(dash::BlockPattern<2>::tile_order());
  for (long g = 0; g < 77; ++g) {
    const auto c = p.coords(g);
    ASSERT_EQ(c[0], g / 7);
    ASSERT_EQ(c[1], g % 7);
  }
}

using TiledMatrix = dash::Matrix<long, 2, dash::default_index_t, dash::TilePattern<2>>;

// Checks that the element of m with global index g (at coordinates order[g]) holds want(g), for
// every g. Reads every element one-sided.
template <class M, class F>
void ExpectByGlobalIndex(M& m, const std::vector<std::array<long, 2>>& order, F want) {
  for (std::size_t g = 0; g < order.size(); ++g)
    ASSERT_EQ(long(m[order[g][0]][order[g][1]]), want(long(g))) << "global index " << g;
}

// The values of a matrix filled with MatrixValue in the tiled order of (rows, cols, br, bc).
std::vector<long> ValuesInTiledOrder(long rows, long cols, long br, long bc) {
  std::vector<long> v;
  for (const auto& c : TiledOrder<2>({rows, cols}, {br, bc}, {0, 1}))
    v.push_back(MatrixValue(c[0], c[1]));
  return v;
}

TEST(TileOrder, MatrixIteratesTileByTile) {
  TiledMatrix m(dash::SizeSpec<2>(13, 10), dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  FillLocalWithValues(m);
  const std::vector<long> expected = ValuesInTiledOrder(13, 10, 4, 3);
  std::vector<long> got(m.size());
  std::copy(m.begin(), m.end(), got.begin());
  EXPECT_EQ(got, expected);
  std::vector<long> ranged;
  for (long v : m) ranged.push_back(v);
  EXPECT_EQ(ranged, expected);
  // Element access by coordinates is unchanged.
  EXPECT_EQ(long(m[12][9]), MatrixValue(12, 9));
  EXPECT_EQ(long(m(5, 4)), MatrixValue(5, 4));
  m.barrier();
}

TEST(TileOrder, CopyRangesBothWays) {
  const long rows = 13, cols = 10;
  TiledMatrix m(dash::SizeSpec<2>(rows, cols),
                dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  FillLocalWithValues(m);
  const std::vector<long> expected = ValuesInTiledOrder(rows, cols, 4, 3);
  const long n = rows * cols;
  // Inside one tile, across tiles and tile rows, whole tile rows, to the end, empty.
  const std::vector<std::pair<long, long>> ranges = {
      {0, n}, {5, 9}, {5, 40}, {11, 12}, {12, 48}, {3, 121}, {120, n}, {47, 47}, {n, n}};
  for (auto [a, b] : ranges) {
    std::vector<long> buf(std::size_t(b - a), -1);
    dash::copy(m.begin() + a, m.begin() + b, buf.data());
    EXPECT_TRUE(std::equal(buf.begin(), buf.end(), expected.begin() + a)) << a << ".." << b;
    auto fut = dash::copy_async(m.begin() + a, m.begin() + b, buf.data());
    fut.wait();
    EXPECT_TRUE(std::equal(buf.begin(), buf.end(), expected.begin() + a)) << a << ".." << b;
  }
  m.barrier();
  // Local to global: the last unit writes -(index) into [7, 95) in global order.
  const long a = 7, b = 95;
  if (myid() == int(dash::size()) - 1) {
    std::vector<long> src(std::size_t(b - a));
    std::iota(src.begin(), src.end(), a);
    for (long& v : src) v = -v;
    dash::copy(src.data(), src.data() + (b - a), m.begin() + a);
  }
  m.barrier();
  const auto order = TiledOrder<2>({rows, cols}, {4, 3}, {0, 1});
  ExpectByGlobalIndex(m, order,
                      [&](long g) { return g >= a && g < b ? -g : expected[std::size_t(g)]; });
  m.barrier();
}

TEST(TileOrder, AlgorithmsOverPartialRanges) {
  const long rows = 11, cols = 9;
  TiledMatrix m(dash::SizeSpec<2>(rows, cols),
                dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(4)));
  FillLocalWithValues(m);
  std::vector<long> expected = ValuesInTiledOrder(rows, cols, 3, 4);
  const auto order = TiledOrder<2>({rows, cols}, {3, 4}, {0, 1});
  const long a = 5, b = 70;  // from inside the first tile to inside a later tile row
  // accumulate and find over [a, b): in global (tile) order.
  const long sum = dash::accumulate(m.begin() + a, m.begin() + b, 0L);
  EXPECT_EQ(sum, std::accumulate(expected.begin() + a, expected.begin() + b, 0L));
  const long wanted = expected[40];
  auto it = dash::find(m.begin() + a, m.begin() + b, wanted);
  EXPECT_EQ(it - m.begin(), 40);
  // The largest value of a range is the one its last tile row holds at its end.
  auto mx = dash::max_element(m.begin() + a, m.begin() + b);
  EXPECT_EQ(mx - m.begin(),
            std::max_element(expected.begin() + a, expected.begin() + b) - expected.begin());
  // for_each_with_index: the index is the global index, whose coordinates hold the value.
  std::size_t bad = 0;
  dash::for_each_with_index(m.begin() + a, m.begin() + b, [&](long v, long g) {
    const auto& c = order[std::size_t(g)];
    if (v != MatrixValue(c[0], c[1]) || g < a || g >= b) ++bad;
  });
  EXPECT_EQ(bad, 0u);
  m.barrier();
  // fill reaches exactly [a, b).
  dash::fill(m.begin() + a, m.begin() + b, -7L);
  m.barrier();
  ExpectByGlobalIndex(m, order,
                      [&](long g) { return g >= a && g < b ? -7L : expected[std::size_t(g)]; });
  m.barrier();
  // transform a range onto the same positions of another tiled matrix.
  FillLocalWithValues(m);
  TiledMatrix out(dash::SizeSpec<2>(rows, cols),
                  dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(4)));
  dash::fill(out.begin(), out.end(), 0L);
  out.barrier();
  dash::transform(m.begin() + a, m.begin() + b, m.begin() + a, out.begin() + a,
                  [](long x, long y) { return x + y; });
  out.barrier();
  ExpectByGlobalIndex(out, order,
                      [&](long g) { return g >= a && g < b ? 2 * expected[std::size_t(g)] : 0L; });
  out.barrier();
}

TEST(TileOrder, SavedFileStaysRowMajor) {
  dash_test::SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const long rows = 13, cols = 10;
  TiledMatrix m(dash::SizeSpec<2>(rows, cols),
                dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  FillLocalWithValues(m);
  dash::io::save(m, dir.file("tiled"));
  dash::Matrix<long, 2> rowwise(rows, cols);
  dash::io::load(dir.file("tiled"), rowwise);
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c) ASSERT_EQ(long(rowwise[r][c]), MatrixValue(r, c));
  // And back into a tiled matrix.
  TiledMatrix again(dash::SizeSpec<2>(rows, cols),
                    dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  dash::io::load(dir.file("tiled"), again);
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c) ASSERT_EQ(long(again[r][c]), MatrixValue(r, c));
  again.barrier();
}

}  // namespace
