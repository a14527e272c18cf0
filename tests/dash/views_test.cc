// DASH's view model: views made by dash::sub, dash::local, dash::blocks and dash::index keep the
// range they were made from (dash::domain), compose, index linearly (v[i]), and say what they
// are (dash::view_traits). Expected values come from the block-cyclic and tiled layouts'
// arithmetic on the spot, not from the views; odd sizes, units without elements and empty
// views on every unit.
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/UnorderedMap.h>
#include <dash/View.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

// Fills a 1-D array with its global indices (each unit writes its own elements).
template <class ArrayT>
void FillWithGlobalIndices(ArrayT& a) {
  for (std::size_t l = 0; l < a.lsize(); ++l) a.local[l] = int(a.pattern().global(long(l)));
  a.barrier();
}

// Owner and local offset of global index g of a 1-D block-cyclic array with block size bs.
struct Place {
  long unit;
  long offset;
};
Place BlockCyclic(long g, long bs, long n) { return {(g / bs) % n, (g / bs) / n * bs + g % bs}; }

TEST(Views, SubKeepsItsDomainAndIndexesLinearly) {
  const long n = nunits(), size = 7 * n + 3;
  dash::Array<int> a(size);
  FillWithGlobalIndices(a);
  auto v = dash::sub(2, size - 1, a);
  EXPECT_EQ(&dash::domain(v), &a);  // a container domain is the container itself
  EXPECT_EQ(long(v.size()), size - 3);
  for (long i = 0; i < long(v.size()); ++i) EXPECT_EQ(int(v[i]), 2 + i);
  auto vv = dash::sub(1, 4, v);
  EXPECT_EQ(dash::domain(vv).offset(0), 2);
  EXPECT_EQ(long(dash::domain(vv).size()), size - 3);
  EXPECT_EQ(&dash::domain(dash::domain(vv)), &a);
  for (long i = 0; i < 3; ++i) EXPECT_EQ(int(vv[i]), 3 + i);
  // A view of a temporary view keeps a copy of it.
  auto t = dash::sub(1, 3, dash::sub(2, 10, a));
  EXPECT_EQ(dash::domain(t).offset(0), 2);
  EXPECT_EQ(dash::domain(t).size(), 8u);
  EXPECT_EQ(int(t[1]), 4);
  // Empty views and bad ranges.
  auto e = dash::sub(4, 4, a);
  EXPECT_TRUE(e.empty());
  EXPECT_EQ(e.begin(), e.end());
  EXPECT_EQ(dash::index(e).size(), 0u);
  EXPECT_THROW(dash::index(e).first(), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::index(e).last(), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::sub(3, 2, a), dash::exception::OutOfRange);
  EXPECT_THROW(dash::sub(0, size + 1, a), dash::exception::OutOfRange);
  EXPECT_THROW(dash::sub(0, 5, vv), dash::exception::OutOfRange);
  a.barrier();
}

// Views of a const container read it; index sets of views made on the spot outlive them; a
// view assigns from another of its type.
TEST(Views, ConstContainersTemporariesAndAssignment) {
  const long n = nunits(), size = 5 * n + 1;
  dash::Array<int> a(size);
  FillWithGlobalIndices(a);
  const auto& ca = a;
  auto cv = dash::sub(1, size, ca);
  static_assert(std::is_same_v<decltype(dash::domain(cv)), const dash::Array<int>&>);
  EXPECT_EQ(&dash::domain(cv), &a);
  EXPECT_EQ(int(cv[long(size) - 2]), size - 1);
  auto first = dash::begin(dash::index(dash::sub(2, 5, dash::sub(1, size, a))));
  auto last = dash::end(dash::index(dash::sub(2, 5, dash::sub(1, size, a))));
  EXPECT_EQ(*first, 3);
  EXPECT_EQ(last - first, 3);
  EXPECT_EQ(dash::distance(first, last), 3);
  EXPECT_EQ(*(last - 1), 5);
  auto v = dash::sub(0, 2, dash::sub(1, size, a));
  v = dash::sub(3, 4, dash::sub(1, size, a));
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(int(v[0]), 4);
  EXPECT_EQ(dash::domain(v).offset(0), 1);
  a.barrier();
}

// An array smaller than the team: units without elements have no blocks and an empty local
// part, whose blocks and index set are empty.
TEST(Views, UnitsWithoutElementsHaveNoBlocks) {
  const long n = nunits();
  dash::Array<int> a(2, dash::BLOCKCYCLIC(1));
  FillWithGlobalIndices(a);
  std::vector<long> mine;  // the blocks (= elements) 0 and 1 this unit holds
  for (long b = 0; b < 2; ++b)
    if (b % n == myid()) mine.push_back(b);
  auto lblocks = dash::local(dash::blocks(a));
  ASSERT_EQ(lblocks.size(), mine.size());
  for (std::size_t k = 0; k < mine.size(); ++k) {
    EXPECT_EQ(lblocks.block_index(k), mine[k]);
    EXPECT_EQ(*lblocks[k].begin(), mine[k]);
  }
  EXPECT_EQ(dash::blocks(dash::local(a)).size(), mine.size());
  EXPECT_EQ(dash::index(dash::local(a)).size(), mine.size());
  EXPECT_EQ(dash::blocks(a).size(), 2u);
  EXPECT_EQ(dash::blocks(dash::sub(1, 2, a)).block_index(0), 1);
  EXPECT_EQ(long(dash::local(dash::blocks(dash::sub(1, 2, a))).size()), myid() == 1 % n ? 1L : 0L);
  a.barrier();
}

TEST(Views, NDimSubIndexesByPositionAndKeepsItsDomain) {
  const long n = nunits(), rows = 2 * n + 3, cols = 5;
  dash::Matrix<int, 2> m(rows, cols);  // rows dealt in blocks, row-major global order
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      if (m[r][c].is_local()) m[r][c] = int(r * 100 + c);
  m.barrier();
  auto rows_v = dash::sub<0>(1, rows - 1, m);
  auto v = dash::sub<1>(1, 4, rows_v);
  EXPECT_EQ(long(v.size()), (rows - 2) * 3);
  EXPECT_EQ(long(v.size(0)), (rows - 2) * 3);
  EXPECT_EQ(v.size(1), 3u);
  EXPECT_EQ(dash::domain(v).offset(0), 1);
  EXPECT_EQ(dash::domain(v).extent(1), std::size_t(cols));
  auto idx = dash::index(v);
  ASSERT_EQ(long(idx.size()), (rows - 2) * 3);
  for (long k = 0; k < long(v.size()); ++k) {
    const long r = 1 + k / 3, c = 1 + k % 3;
    EXPECT_EQ(int(v[k]), int(r * 100 + c));
    EXPECT_EQ(idx[std::size_t(k)], r * cols + c);
  }
  EXPECT_TRUE(idx.is_strided());                   // three of five columns per row
  EXPECT_FALSE(dash::index(rows_v).is_strided());  // whole rows
  // Position size() continues the view's row-major order: row rows - 1, column 1.
  EXPECT_EQ(*idx.end(), (rows - 1) * cols + 1);
  m.barrier();
}

TEST(Views, LocalOfAViewKeepsItsGlobalDomain) {
  const long n = nunits(), bs = 3, size = 7 * n + 2;
  dash::Array<int> a(size, dash::BLOCKCYCLIC(bs));
  FillWithGlobalIndices(a);
  auto l = dash::local(dash::sub(2, size - 2, a));
  std::vector<long> globals, offsets;
  for (long g = 2; g < size - 2; ++g) {
    const auto p = BlockCyclic(g, bs, n);
    if (p.unit != myid()) continue;
    globals.push_back(g);
    offsets.push_back(p.offset);
  }
  ASSERT_EQ(l.size(), globals.size());
  auto idx = dash::index(l);
  auto pre = idx.pre();
  for (std::size_t i = 0; i < globals.size(); ++i) {
    EXPECT_EQ(l[long(i)], globals[i]);
    EXPECT_EQ(&l[long(i)], a.lbegin() + offsets[i]);
    EXPECT_EQ(idx[i], offsets[i]);
    EXPECT_EQ(pre[i], globals[i]);
  }
  EXPECT_EQ(dash::domain(l).offset(0), 2);
  EXPECT_EQ(long(dash::domain(l).size()), size - 4);
  EXPECT_EQ(dash::local(l).size(), l.size());  // local of a local view changes nothing
  static_assert(std::is_same_v<decltype(dash::as_view(l)), decltype(l)>);
  auto whole_local = dash::as_view(dash::local(a));  // a local part as its whole local view
  EXPECT_EQ(whole_local.size(), a.lsize());
  EXPECT_EQ(&*whole_local.begin(), a.lbegin());
  EXPECT_EQ(&dash::local(a), &a.local);
  dash::UnorderedMap<int, int> map;  // a container without views: its member `local`
  EXPECT_EQ(&dash::local(map), &map.local);
  // A local view of a local part and a view of it.
  auto s = dash::sub(1, 3, dash::local(a));
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(&s[0], a.lbegin() + 1);
  EXPECT_EQ(dash::distance(s.begin(), s.end()), 2);
  // Only unit 0 holds block 0: elsewhere the local part is empty.
  auto first_block = dash::local(dash::sub(0, bs, a));
  EXPECT_EQ(long(first_block.size()), myid() == 0 ? bs : 0);
  if (myid() != 0) {
    EXPECT_THROW(dash::index(first_block).first(), dash::exception::InvalidArgument);
  }
  a.barrier();
}

TEST(Views, BlocksOfAViewAndTheirLocalParts) {
  const long n = nunits(), bs = 4, size = 8 * n + 3;  // last block holds 3
  dash::Array<int> a(size, dash::BLOCKCYCLIC(bs));
  FillWithGlobalIndices(a);
  const long lo = 2, hi = size - 1;
  auto blocks = dash::blocks(dash::sub(lo, hi, a));
  const long nblocks = (hi - 1) / bs + 1;
  ASSERT_EQ(long(blocks.size()), nblocks);
  auto bidx = dash::index(blocks);
  for (long b = 0; b < nblocks; ++b) {
    const long first = std::max(lo, b * bs), last = std::min(hi, (b + 1) * bs);
    EXPECT_EQ(blocks[b].offset(0), first);
    EXPECT_EQ(long(blocks[b].size()), last - first);
    EXPECT_EQ(blocks.block_index(b), b);
    EXPECT_EQ(bidx[std::size_t(b)], b);
    EXPECT_EQ((blocks.begin() + b).pos(), b);
  }
  EXPECT_EQ(*bidx.end(), nblocks);
  EXPECT_EQ(dash::distance(blocks.begin(), blocks.end()), nblocks);
  EXPECT_EQ(dash::domain(blocks).offset(0), lo);
  // The calling unit's blocks, in global block order, each the local part of one block.
  auto local_blocks = dash::local(blocks);
  std::vector<int> concatenated;
  long k = 0;
  for (long b = 0; b < nblocks; ++b) {
    if (b % n != myid()) continue;
    ASSERT_LT(k, long(local_blocks.size()));
    const auto& lb = local_blocks[std::size_t(k)];
    const long first = std::max(lo, b * bs), last = std::min(hi, (b + 1) * bs);
    EXPECT_EQ(local_blocks.block_index(std::size_t(k)), b);
    EXPECT_EQ(long(lb.size()), last - first);
    EXPECT_EQ(&*lb.begin(), a.lbegin() + BlockCyclic(first, bs, n).offset);
    concatenated.insert(concatenated.end(), lb.begin(), lb.end());
    ++k;
  }
  EXPECT_EQ(long(local_blocks.size()), k);
  auto mine = dash::local(dash::sub(lo, hi, a));
  EXPECT_TRUE(std::equal(concatenated.begin(), concatenated.end(), mine.begin(), mine.end()));
  // The blocks of the local part: local offsets [bs * i, bs * (i + 1)), the last one shorter.
  auto of_local = dash::blocks(dash::local(a));
  const long lsize = long(a.lsize());
  ASSERT_EQ(long(of_local.size()), (lsize + bs - 1) / bs);
  for (long i = 0; i < long(of_local.size()); ++i) {
    EXPECT_EQ(&*of_local[std::size_t(i)].begin(), a.lbegin() + bs * i);
    EXPECT_EQ(long(of_local[std::size_t(i)].size()), std::min(bs, lsize - bs * i));
    EXPECT_EQ(dash::index(of_local)[std::size_t(i)], i);
  }
  // No blocks of an empty view.
  auto none = dash::blocks(dash::sub(5, 5, a));
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(*dash::index(none).end(), 0);
  EXPECT_TRUE(dash::local(none).empty());
  a.barrier();
}

// A tiled matrix dealt by rows over a team grid of n x 1: blocks of its local part in local
// coordinates, and global blocks of a view with their block-grid indices.
TEST(Views, MatrixBlocksOfLocalPartAndOfAView) {
  const long n = nunits(), rows = 4 * n + 3, cols = 7, br = 2, bc = 3;
  dash::Matrix<int, 2, dash::default_index_t, dash::TilePattern<2>> m(
      dash::SizeSpec<2>(rows, cols), dash::DistributionSpec<2>(dash::TILE(br), dash::TILE(bc)),
      dash::Team::All(), dash::TeamSpec<2>(n, 1));
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      if (m[r][c].is_local()) m[r][c] = int(r * 100 + c);
  m.barrier();
  const long row_blocks = (rows + br - 1) / br, col_blocks = (cols + bc - 1) / bc;
  // Local rows: the row blocks rb with rb % n == myid, in order.
  std::vector<long> my_rows;
  for (long rb = myid(); rb < row_blocks; rb += n)
    for (long r = rb * br; r < std::min(rows, (rb + 1) * br); ++r) my_rows.push_back(r);
  const long lrows = long(my_rows.size());
  auto lblocks = dash::blocks(dash::local(m));
  const long lrow_blocks = (lrows + br - 1) / br;
  ASSERT_EQ(long(lblocks.size()), lrow_blocks * col_blocks);
  for (long i = 0; i < lrow_blocks; ++i) {
    for (long j = 0; j < col_blocks; ++j) {
      const auto& b = lblocks[std::size_t(i * col_blocks + j)];
      const long r0 = i * br, c0 = j * bc;
      const long er = std::min(br, lrows - r0), ec = std::min(bc, cols - c0);
      EXPECT_EQ(b.offset(0), r0);
      EXPECT_EQ(b.offset(1), c0);
      EXPECT_EQ(long(b.extent(0)), er);
      EXPECT_EQ(long(b.extent(1)), ec);
      EXPECT_EQ(lblocks.block_index(std::size_t(i * col_blocks + j)), i * col_blocks + j);
      long k = 0;
      for (int value : b) {
        const long lr = r0 + k / ec, c = c0 + k % ec;
        EXPECT_EQ(value, int(my_rows[std::size_t(lr)] * 100 + c));
        ++k;
      }
      EXPECT_EQ(k, er * ec);
    }
  }
  // Global blocks of rows [1, rows - 1): every column block of row blocks 0 .. last.
  auto gblocks = dash::blocks(dash::sub<0>(1, rows - 1, m));
  const long last_rb = (rows - 2) / br;
  ASSERT_EQ(long(gblocks.size()), (last_rb + 1) * col_blocks);
  static_assert(dash::view_traits<decltype(gblocks)>::rank::value == 2);
  for (long rb = 0; rb <= last_rb; ++rb) {
    for (long cb = 0; cb < col_blocks; ++cb) {
      const std::size_t k = std::size_t(rb * col_blocks + cb);
      EXPECT_EQ(gblocks.block_index(k), rb * col_blocks + cb);
      EXPECT_EQ(gblocks[k].offset(0), std::max(1L, rb * br));
      EXPECT_EQ(gblocks[k].offset(1), cb * bc);
    }
  }
  m.barrier();
}

// A view of a tiled matrix with several tile columns visits the elements at its coordinates,
// row by row, and dash::index gives their global indices in the pattern's (tile-by-tile)
// global order; DASH's N-D views read matrix.begin()[row-major offset] instead (see
// docs/porting-from-dash.md).
TEST(Views, TiledMatrixViewsVisitCoordinatesRowByRow) {
  const long n = nunits(), rows = 5, br = 2, bc = 3, cols = bc * (n + 1) - 1;
  dash::Matrix<int, 2, dash::default_index_t, dash::TilePattern<2>> m(
      dash::SizeSpec<2>(rows, cols), dash::DistributionSpec<2>(dash::TILE(br), dash::TILE(bc)),
      dash::Team::All(), dash::TeamSpec<2>(1, n));
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      if (m[r][c].is_local()) m[r][c] = int(r * 100 + c);
  m.barrier();
  auto v = dash::sub<1>(1, cols - 1, dash::sub<0>(1, rows, m));
  const long vr = rows - 1, vc = cols - 2;
  ASSERT_EQ(long(v.size()), vr * vc);
  auto idx = dash::index(v);
  const long tile_cols = (cols + bc - 1) / bc;
  for (long k = 0; k < vr * vc; ++k) {
    const long r = 1 + k / vc, c = 1 + k % vc;
    EXPECT_EQ(int(v[k]), int(r * 100 + c));
    // Tile by tile: tiles before (r, c)'s in row-major tile order, then its offset inside.
    const long tr = r / br, tc = c / bc;
    long before = 0;
    for (long t = 0; t < tr * tile_cols + tc; ++t) {
      const long er = std::min(br, rows - (t / tile_cols) * br);
      const long ec = std::min(bc, cols - (t % tile_cols) * bc);
      before += er * ec;
    }
    const long ec = std::min(bc, cols - tc * bc);
    EXPECT_EQ(idx[std::size_t(k)], before + (r % br) * ec + c % bc);
  }
  m.barrier();
}

TEST(Views, IndexSetsReadTheirDomainAndBlocks) {
  const long n = nunits(), bs = 4, size = 12 * n - 2;  // last block holds 2
  dash::Array<int> a(size, dash::BLOCKCYCLIC(bs));
  FillWithGlobalIndices(a);
  const long lo = 2, hi = size - 2;
  auto outer = dash::sub(lo, hi, a);
  auto inner = dash::sub(1, 5, outer);
  auto idx = dash::index(inner);
  EXPECT_EQ(idx.first(), lo + 1);
  EXPECT_EQ(idx.last(), lo + 4);
  EXPECT_EQ(*idx.end(), lo + 5);
  EXPECT_FALSE(idx.is_strided());
  auto dom = idx.domain();
  ASSERT_EQ(long(dom.size()), hi - lo);
  for (long i = 0; i < hi - lo; ++i) EXPECT_EQ(dom[std::size_t(i)], lo + i);
  EXPECT_EQ(dash::domain(idx).last(), hi - 1);
  EXPECT_EQ(idx.pre().first(), idx.first());  // global indices are their own preimage
  // DASH's block lookups, for the local part of [lo, hi).
  auto lidx = dash::index(dash::local(outer));
  const long nblocks = (size + bs - 1) / bs;
  EXPECT_EQ(lidx.domain_block_gidx_last(), (hi - 1) / bs);
  EXPECT_EQ(lidx.domain_block_lidx_last(), (hi - 1) / bs / n);
  long my_last_block = myid();
  while (my_last_block + n < nblocks) my_last_block += n;
  EXPECT_EQ(lidx.local_block_gidx_last(), my_last_block);
  EXPECT_EQ(lidx.local_block_gidx_at_block_lidx(1), n + myid());
  // The pattern's names these use.
  const auto& p = a.pattern();
  EXPECT_EQ(p.lbegin(), myid() * bs);
  const long last_local = my_last_block * bs + std::min(bs, size - my_last_block * bs) - 1;
  EXPECT_EQ(p.lend(), last_local + 1);
  const auto at = p.local_block_at({size - 1});
  EXPECT_EQ(long(at.unit.id), (nblocks - 1) % n);
  EXPECT_EQ(at.index, (nblocks - 1) / n);
  EXPECT_EQ(p.local_block(1).range(0).begin, (n + myid()) * bs);
  EXPECT_EQ(p.local_block(1).range(0).end, (n + myid() + 1) * bs);
  a.barrier();
}

TEST(Views, ViewTraitsOfEveryKind) {
  dash::Array<int> a(3 * nunits());
  dash::Matrix<int, 2> m(2 * nunits(), 3);
  using A = decltype(a);
  using LA = std::remove_reference_t<decltype(dash::local(a))>;
  using LM = std::remove_reference_t<decltype(dash::local(m))>;
  using S = decltype(dash::sub(0, 2, a));
  using LS = decltype(dash::local(dash::sub(0, 2, a)));
  using SLS = decltype(dash::sub(0, 1, dash::local(dash::sub(0, 2, a))));
  using B = decltype(dash::blocks(a));
  using LB = decltype(dash::local(dash::blocks(a)));
  using I = decltype(dash::index(dash::sub(0, 2, a)));
  using LI = decltype(dash::index(dash::local(dash::sub(0, 2, a))));
  static_assert(dash::view_traits<A>::is_origin::value && !dash::view_traits<A>::is_view::value);
  static_assert(dash::view_traits<LA>::is_origin::value && dash::view_traits<LA>::is_local::value &&
                !dash::view_traits<LA>::is_view::value && dash::view_traits<LA>::rank::value == 1);
  static_assert(dash::view_traits<LM>::is_origin::value && dash::view_traits<LM>::is_local::value &&
                dash::view_traits<LM>::rank::value == 2);
  static_assert(dash::view_traits<S>::is_view::value && !dash::view_traits<S>::is_origin::value &&
                !dash::view_traits<S>::is_local::value);
  static_assert(std::is_same_v<dash::view_traits<S>::domain_type, A>);
  static_assert(dash::view_traits<LS>::is_view::value && dash::view_traits<LS>::is_local::value);
  static_assert(dash::view_traits<SLS>::is_view::value && dash::view_traits<SLS>::is_local::value &&
                !dash::view_traits<SLS>::is_origin::value);
  static_assert(dash::view_traits<B>::is_view::value && !dash::view_traits<B>::is_local::value);
  static_assert(dash::view_traits<LB>::is_view::value && dash::view_traits<LB>::is_local::value);
  static_assert(dash::view_traits<I>::is_origin::value && !dash::view_traits<I>::is_view::value &&
                !dash::view_traits<I>::is_local::value);
  static_assert(dash::view_traits<LI>::is_local::value);
  static_assert(dash::detail::has_type_domain_type<LI>::value);
  static_assert(!dash::detail::has_type_domain_type<int>::value);
  static_assert(dash::is_range<I>::value && dash::is_range<B>::value);
  static_assert(S::rank::value == 1 && LS::rank::value == 1);
  dash::barrier();
}

// GlobRef compares the referenced value with values and with other GlobRefs of the same type,
// also for class types with their own == (DASH's std::equal over views of structs).
struct Cell {
  int unit;
  int offset;
  bool operator==(const Cell& o) const { return unit == o.unit && offset == o.offset; }
};

TEST(Views, GlobRefComparesReferencedValues) {
  dash::Array<Cell> a(2 * nunits() + 1);
  for (std::size_t l = 0; l < a.lsize(); ++l) a.local[l] = Cell{myid(), int(l)};
  a.barrier();
  const long last = long(a.size()) - 1;
  const Cell at_last = a[last];
  EXPECT_TRUE(a[last] == at_last);
  EXPECT_TRUE(at_last == a[last]);
  EXPECT_FALSE(a[last] != at_last);
  EXPECT_TRUE(a[0] == a[0]);
  EXPECT_EQ(a[0] != a[last], !(Cell(a[0]) == at_last));
  dash::Array<int> b(nunits());
  b.local[0] = myid();
  b.barrier();
  EXPECT_TRUE(b[0] == 0);
  EXPECT_TRUE(b[0] == 0L);  // other arithmetic types compare through the conversion
  EXPECT_TRUE(std::equal(b.begin(), b.end(), dash::sub(0, nunits(), b).begin()));
  b.barrier();
}

}  // namespace
