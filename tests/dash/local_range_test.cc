// dash::local_range and dash::local_index_range: the calling unit's part of a
// global range, for every 1-D distribution, sub-ranges starting and ending
// inside blocks, empty and one-element ranges, checked against the owned
// elements found by walking the range element by element; over view iterators:
// a global view's (rows, a column, part of a view) and a local view's (a local
// row, part of it, a local column, rows of tiles), bad ranges.
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/algorithm/LocalRange.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

// Checks local_range / local_index_range of [a, b) against the reference.
template <class ArrayT>
void CheckRange(ArrayT& arr, long a, long b) {
  using T = typename ArrayT::value_type;
  auto first = arr.begin() + a, last = arr.begin() + b;
  std::vector<T*> expected;
  for (auto it = first; it != last; ++it)
    if (T* p = it.local()) expected.push_back(p);
  std::vector<dash::Range<T>> ranges = dash::local_range(first, last);
  std::vector<T*> got;
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    EXPECT_LT(ranges[r].begin, ranges[r].end) << "empty segment";
    for (T* p = ranges[r].begin; p != ranges[r].end; ++p) got.push_back(p);
    if (r > 0 && ranges[r].begin == ranges[r - 1].end) {
      // Locally adjacent segments must be globally apart (else they are one).
      auto g_prev = arr.pattern().global(long(ranges[r - 1].end - 1 - arr.lbegin()));
      auto g_next = arr.pattern().global(long(ranges[r].begin - arr.lbegin()));
      EXPECT_NE(g_prev + 1, g_next) << "segments " << r - 1 << " and " << r << " not maximal";
    }
  }
  EXPECT_EQ(got, expected) << "[" << a << ", " << b << ")";
  auto idx = dash::local_index_range(first, last);
  EXPECT_EQ(std::size_t(idx.end - idx.begin), expected.size());
  if (!expected.empty()) {
    EXPECT_EQ(arr.lbegin() + idx.begin, expected.front());
  }
  // DASH's form: begin and end pointers around the same offsets.
  auto lr = dash::local_range(first, last);
  EXPECT_EQ(lr.begin, arr.lbegin() + idx.begin);
  EXPECT_EQ(lr.end, arr.lbegin() + idx.end);
  dash::LocalRange<T> sliced = dash::local_range(first, last);
  EXPECT_EQ(sliced.end - sliced.begin, lr.end - lr.begin);
}

TEST(LocalRange, EveryDistributionAndSubRange) {
  for (auto dist :
       {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(3), dash::TILE(4), dash::BLOCKCYCLIC(100)}) {
    for (long n : {0L, 1L, 7L, 64L, 333L}) {
      dash::Array<double> arr(n, dist);
      for (long a : {0L, 1L, 2L, n / 3, n / 2}) {
        for (long b : {a, a + 1, n / 2 + 1, n - 1, n}) {
          if (a > n || b > n || b < a) continue;
          CheckRange(arr, a, b);
        }
      }
      arr.barrier();
    }
  }
}

TEST(LocalRange, TilePatternArrayAndConstIterators) {
  using Pattern = dash::TilePattern<1>;
  dash::Array<int, dash::default_index_t, Pattern> arr(Pattern(50, dash::TILE(6)));
  CheckRange(arr, 5, 47);
  const auto& carr = arr;
  std::vector<dash::Range<const int>> ranges = dash::local_range(carr.begin() + 3, carr.end());
  std::size_t n = 0;
  for (auto r : ranges) n += std::size_t(r.end - r.begin);
  std::size_t expected = 0;
  for (long g = 3; g < 50; ++g) expected += arr.pattern().is_local(g);
  EXPECT_EQ(n, expected);
  arr.barrier();
}

TEST(LocalRange, SeedListing) {
  dash::Array<double> arr(1000);
  std::vector<dash::Range<double>> l_ranges = dash::local_range(arr.begin() + 42, arr.end());
  std::size_t n = 0;
  for (auto& r : l_ranges) n += std::size_t(r.end - r.begin);
  std::size_t expected = 0;
  for (long g = 42; g < 1000; ++g) expected += arr.pattern().is_local(g);
  EXPECT_EQ(n, expected);
  EXPECT_LE(l_ranges.size(), 1u);  // BLOCKED: one segment at most
  arr.barrier();
}

// N-D ranges in DASH's form: the whole matrix is the unit's whole memory on every pattern;
// row ranges of a row-distributed matrix are the unit's rows inside them; a range whose part
// is not contiguous locally throws; the segment (vector) form has the same one segment.
TEST(LocalRange, MatrixRangesInDashForm) {
  const long n = nunits(), me = myid();
  dash::Matrix<double, 2> tiles(5 * n, 7, dash::TILE(2), dash::TILE(3));
  auto all = dash::local_range(tiles.begin(), tiles.end());
  EXPECT_EQ(all.begin, tiles.lbegin());
  EXPECT_EQ(all.end, tiles.lend());
  dash::NArray<double, 2> rows(dash::SizeSpec<2>(4 * n, 6),
                               dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  // Global [a, b) from inside unit 0's second row to inside the last unit's third row.
  const long a = 6 + 2, b = (4 * (n - 1) + 2) * 6 + 1;
  auto lr = dash::local_range(rows.begin() + a, rows.begin() + b);
  const long lo = std::max(a, 24 * me), hi = std::min(b, 24 * (me + 1));
  EXPECT_EQ(lr.begin, rows.lbegin() + (lo - 24 * me));
  EXPECT_EQ(lr.end, rows.lbegin() + (hi - 24 * me));
  std::vector<dash::Range<double>> segs = dash::local_range(rows.begin() + a, rows.begin() + b);
  ASSERT_EQ(segs.size(), 1u);
  EXPECT_EQ(segs[0].begin, lr.begin);
  auto idx = dash::local_index_range(rows.begin() + a, rows.begin() + b);
  EXPECT_EQ(idx.begin, lo - 24 * me);
  // A matrix whose units hold two 2 x 3 tiles side by side: its global order goes tile by tile,
  // so the first 6 n elements are the first tile of every unit, and the next three the first
  // row of unit 0's second tile, which follows its first in its memory.
  dash::Matrix<double, 2> cols(4, 6 * n, dash::TILE(2), dash::TILE(3), dash::TeamSpec<2>(1, n));
  auto first_tiles = dash::local_range(cols.begin(), cols.begin() + 6 * n + 3);
  EXPECT_EQ(first_tiles.begin, cols.lbegin());
  EXPECT_EQ(first_tiles.end, cols.lbegin() + (me == 0 ? 9 : 6));
  dash::barrier();
}

TEST(LocalRange, BadArgumentsThrow) {
  dash::Array<int> a(10), b(10);
  EXPECT_THROW(dash::local_range(a.begin(), b.end()), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::local_index_range(a.begin() + 5, a.begin() + 2),
               dash::exception::InvalidArgument);
  a.barrier();
}

TEST(LocalRange, GlobalViewIterators) {
  // 13 x 6, rows blocked: unit u holds rows [u * b, min(13, u * b + b)), b = ceil(13 / units).
  const long nrows = 13, ncols = 6;
  dash::NArray<long, 2> m(nrows, ncols);
  const long b = (nrows + nunits() - 1) / nunits();
  const long mine_lo = std::min(nrows, myid() * b), mine_hi = std::min(nrows, mine_lo + b);
  // Rows [r0, r0 + h) for a few windows: the unit's rows among them, as whole local rows.
  for (auto [r0, h] : {std::pair<long, long>{0, nrows}, {2, 7}, {5, 1}, {12, 1}, {4, 0}}) {
    auto v = m.rows(r0, std::size_t(h));
    const long lo = std::max(r0, mine_lo), hi = std::min(r0 + h, mine_hi);
    const long want_b = hi > lo ? (lo - mine_lo) * ncols : 0;
    const long want_e = hi > lo ? (hi - mine_lo) * ncols : 0;
    auto idx = dash::local_index_range(v.begin(), v.end());
    EXPECT_EQ(idx.end - idx.begin, want_e - want_b) << "rows " << r0 << " + " << h;
    if (want_e > want_b) EXPECT_EQ(idx.begin, want_b) << "rows " << r0 << " + " << h;
    auto ptrs = dash::local_range(v.begin(), v.end());
    EXPECT_EQ(ptrs.end - ptrs.begin, want_e - want_b);
    if (want_e > want_b) EXPECT_EQ(ptrs.begin, m.lbegin() + want_b);
  }
  // Part of a view: positions from the middle of the view's second row to the middle of its
  // fourth: the unit's elements of those positions (global rows 3 .. 5 of the view rows 2..).
  auto v = m.rows(2, 7);
  {
    auto first = v.begin() + (ncols + 2), last = v.begin() + (3 * ncols + 4);
    long count = 0;
    long* low = nullptr;
    for (auto it = first; it != last; ++it)
      if (long* p = it.local()) {
        ++count;
        low = low == nullptr ? p : std::min(low, p);
      }
    auto ptrs = dash::local_range(first, last);
    EXPECT_EQ(ptrs.end - ptrs.begin, count);
    if (count > 0) EXPECT_EQ(ptrs.begin, low);
  }
  // A column: every ncols-th local element, not a range where the unit holds two rows of it.
  auto col = m.col(3);
  if (mine_hi - mine_lo > 1) {
    EXPECT_THROW(dash::local_index_range(col.begin(), col.end()), std::invalid_argument);
  } else {
    auto idx = dash::local_index_range(col.begin(), col.end());
    EXPECT_EQ(idx.end - idx.begin, mine_hi - mine_lo);
  }
  EXPECT_THROW(dash::local_index_range(v.end(), v.begin()), std::invalid_argument);
  m.barrier();
}

TEST(LocalRange, LocalViewIterators) {
  const long nrows = 9, ncols = 5;
  dash::NArray<long, 2> m(nrows, ncols);
  const long rows = long(m.local.extent(0));
  for (long i = 0; i < rows; ++i) {
    auto row = m.local.row(i);
    auto idx = dash::local_index_range(row.begin(), row.end());
    EXPECT_EQ(idx.begin, i * ncols);
    EXPECT_EQ(idx.end, (i + 1) * ncols);
    auto ptrs = dash::local_range(row.begin(), row.end());
    EXPECT_EQ(ptrs.begin, m.lbegin() + i * ncols);
    EXPECT_EQ(ptrs.end, m.lbegin() + (i + 1) * ncols);
    // Part of the row, and an empty part.
    auto part = dash::local_index_range(row.begin() + 1, row.begin() + 4);
    EXPECT_EQ(part.begin, i * ncols + 1);
    EXPECT_EQ(part.end, i * ncols + 4);
    auto none = dash::local_range(row.begin() + 2, row.begin() + 2);
    EXPECT_EQ(none.begin, none.end);
    EXPECT_THROW(dash::local_range(row.end(), row.begin()), std::invalid_argument);
  }
  // The whole local part as a view, and rows 1 .. of it.
  auto all = dash::local(m.view());
  auto whole = dash::local_index_range(all.begin(), all.end());
  EXPECT_EQ(whole.begin, 0);
  EXPECT_EQ(whole.end, long(m.lsize()));
  if (rows > 1) {
    // A local column is strided: not a range; one element of it is.
    auto col = m.local.col(2);
    EXPECT_THROW(dash::local_index_range(col.begin(), col.end()), std::invalid_argument);
    auto one = dash::local_index_range(col.begin() + 1, col.begin() + 2);
    EXPECT_EQ(one.begin, ncols + 2);
    EXPECT_EQ(one.end, ncols + 3);
    // Iterators of two different rows.
    EXPECT_THROW(dash::local_range(m.local.row(0).begin(), m.local.row(1).end()),
                 std::invalid_argument);
  }
  m.barrier();

  // Tiles of 2 x 2 in 4 x 6: a local row crosses tiles (not a range), its part inside one
  // tile is one.
  dash::Matrix<long, 2> t(dash::SizeSpec<2>(4, 6),
                          dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(2)));
  if (t.local.extent(0) > 0 && t.local.extent(1) > 2) {
    auto row = t.local.row(1);
    EXPECT_THROW(dash::local_index_range(row.begin(), row.end()), std::invalid_argument);
    // Local (1, 0) and (1, 1): the second row of the first tile, offsets 2 and 3.
    auto in_tile = dash::local_index_range(row.begin(), row.begin() + 2);
    EXPECT_EQ(in_tile.begin, 2);
    EXPECT_EQ(in_tile.end, 4);
  }
  t.barrier();
}

}  // namespace
