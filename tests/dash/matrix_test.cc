// dash::Matrix / dash::NArray and views: element access from every unit to
// every other unit, local views and local blocks, block/row/col/sub views
// visit exactly their elements, composed views (local of sub), index sets,
// blocks of a view, bounds errors; DASH's subscripts m[i][j] (global, const,
// local, on a block view, in 3-D) and what a proxy m[i] tells (ndim, viewspec,
// extents over all dimensions, m[i](j, k)); a view iterator as a global pointer.
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/view/ViewFunctions.h>
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <vector>

#include "matrix_values.h"
#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

using dash_test::FillLocalWithValues;
using dash_test::MatrixValue;
// Shorter names for the shared helpers (tests/support/matrix_values.h).
long Value(long r, long c) { return MatrixValue(r, c); }
template <class M>
void FillLocal(M& m) {
  FillLocalWithValues(m);
}

template <class MatrixT>
class MatrixTyped : public ::testing::Test {};
using MatrixTypes = ::testing::Types<
    dash::Matrix<long, 2>, dash::NArray<long, 2>,
    dash::Matrix<long, 2, dash::default_index_t, dash::TilePattern<2, dash::COL_MAJOR>>,
    dash::NArray<long, 2, dash::default_index_t, dash::BlockPattern<2, dash::COL_MAJOR>>>;
TYPED_TEST_SUITE(MatrixTyped, MatrixTypes);

std::vector<dash::DistributionSpec<2>> Distributions() {
  return {dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)),
          dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
          dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED),
          dash::DistributionSpec<2>(dash::CYCLIC, dash::BLOCKCYCLIC(2))};
}

TYPED_TEST(MatrixTyped, EveryUnitReadsEveryElement) {
  for (auto dist : Distributions()) {
    for (auto ext :
         {std::array<long, 2>{13, 7}, std::array<long, 2>{1, 1}, std::array<long, 2>{8, 16}}) {
      TypeParam m(dash::SizeSpec<2>(ext[0], ext[1]), dist);
      long local = long(m.lsize()), total = 0;
      EXPECT_EQ(DART_OK,
                dart_allreduce(&local, &total, 1, DART_TYPE_LONG, DART_OP_SUM, DART_TEAM_ALL));
      EXPECT_EQ(total, ext[0] * ext[1]);
      FillLocal(m);
      for (long r = 0; r < ext[0]; ++r)
        for (long c = 0; c < ext[1]; ++c) ASSERT_EQ(long(m(r, c)), Value(r, c)) << r << "," << c;
      // Iterators run in the pattern's linear order over all elements.
      long n = 0;
      for (auto it = m.begin(); it != m.end(); ++it, ++n) {
        auto g = m.pattern().coords(it.pos());
        ASSERT_EQ(long(*it), Value(g[0], g[1]));
      }
      EXPECT_EQ(n, ext[0] * ext[1]);
      m.barrier();
    }
  }
}

TYPED_TEST(MatrixTyped, EveryUnitWritesElementsOfOthers) {
  TypeParam m(dash::SizeSpec<2>(11, 9), dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(4)));
  // Unit u writes elements with (r * 9 + c) % nunits == u; most belong to others.
  for (long r = 0; r < 11; ++r)
    for (long c = 0; c < 9; ++c)
      if ((r * 9 + c) % nunits() == myid()) m(r, c) = Value(r, c) + 1;
  m.flush();
  m.barrier();
  auto lv = m.local.view();
  for (long p = 0; p < long(lv.size()); ++p) {
    auto g = lv.global_coords(p);
    EXPECT_EQ(lv.begin()[p], Value(g[0], g[1]) + 1);
  }
  m.barrier();
}

TYPED_TEST(MatrixTyped, LocalBlocksCoverTheLocalPart) {
  TypeParam m(dash::SizeSpec<2>(10, 7), dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(2)));
  FillLocal(m);
  std::size_t seen = 0;
  for (std::size_t b = 0; b < m.local.num_blocks(); ++b) {
    auto blk = m.local.block(long(b));
    for (auto it = blk.begin(); it != blk.end(); ++it) {
      EXPECT_TRUE(it.is_local());
      auto g = it.coords();
      EXPECT_EQ(long(*it), Value(g[0], g[1]));
      ++seen;
    }
  }
  EXPECT_EQ(seen, m.lsize());
  EXPECT_THROW(m.local.block(long(m.local.num_blocks())), std::out_of_range);
  m.barrier();
}

TYPED_TEST(MatrixTyped, ViewsVisitExactlyTheirElements) {
  TypeParam m(dash::SizeSpec<2>(12, 10), dash::DistributionSpec<2>(dash::TILE(5), dash::TILE(3)));
  FillLocal(m);
  auto check = [](auto view, long r0, long c0, long nr, long nc) {
    ASSERT_EQ(long(view.size()), nr * nc);
    std::set<std::pair<long, long>> seen;
    for (auto v : view) seen.insert({long(v) / 10000, long(v) % 10000});
    ASSERT_EQ(long(seen.size()), nr * nc);
    EXPECT_EQ(seen.begin()->first, r0);
    EXPECT_EQ(seen.begin()->second, c0);
    EXPECT_EQ(seen.rbegin()->first, r0 + nr - 1);
  };
  check(m.row(4), 4, 0, 1, 10);
  check(m.col(9), 0, 9, 12, 1);
  check(m.template sub<0>(3, 5), 3, 0, 5, 10);
  check(m.template sub<1>(2, 6), 0, 2, 12, 6);
  check(m.template sub<0>(3, 5).template sub<1>(2, 6), 3, 2, 5, 6);
  check(dash::sub<1>(2, 8, dash::sub<0>(1, 4, m)), 1, 2, 3, 6);
  // Underfilled last block: rows 10..11, columns 9..9.
  check(m.block({2, 3}), 10, 9, 2, 1);
  check(m.block({1, 1}), 5, 3, 5, 3);
  EXPECT_THROW(m.block({3, 0}), std::out_of_range);
  EXPECT_THROW(m.template sub<0>(10, 3), std::out_of_range);
  EXPECT_THROW(dash::sub(5, 4, m), std::out_of_range);
  EXPECT_THROW(m.at(12, 0), std::out_of_range);
  EXPECT_THROW(m.at(0, -1), std::out_of_range);
  EXPECT_NO_THROW(m.at(11, 9));
  m.barrier();
}

TYPED_TEST(MatrixTyped, LocalOfSubIsTheOwnedPartOfTheSub) {
  TypeParam m(dash::SizeSpec<2>(13, 11), dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(4)));
  FillLocal(m);
  auto s = dash::sub<1>(1, 10, dash::sub<0>(2, 12, m));
  auto l = dash::local(s);
  // Reference: the elements of s the calling unit owns.
  std::set<long> expected, got;
  for (auto it = s.begin(); it != s.end(); ++it)
    if (it.is_local()) expected.insert(*it.local());
  for (auto& v : l) got.insert(v);
  EXPECT_EQ(got, expected);
  EXPECT_EQ(l.size(), expected.size());
  // Local offsets of the local view point at those same elements.
  auto offsets = dash::index(l);
  std::size_t k = 0;
  for (auto off : offsets) EXPECT_EQ(m.lbegin()[off], l.begin()[long(k++)]);
  m.barrier();
}

TYPED_TEST(MatrixTyped, IndexAndBlocksOfViews) {
  TypeParam m(dash::SizeSpec<2>(9, 8), dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  FillLocal(m);
  auto s = m.template sub<0>(2, 6).template sub<1>(1, 6);
  auto idx = dash::index(s);
  ASSERT_EQ(idx.size(), s.size());
  long k = 0;
  for (auto it = s.begin(); it != s.end(); ++it, ++k) {
    auto c = m.pattern().coords(idx[k]);
    EXPECT_EQ(long(*it), Value(c[0], c[1]));
  }
  // Rows 2..7 touch block rows 0, 1; columns 1..6 touch block columns 0, 1, 2.
  auto bs = dash::blocks(s);
  ASSERT_EQ(bs.size(), 6u);
  std::size_t total = 0;
  for (auto& b : bs) total += b.size();
  EXPECT_EQ(total, s.size());
  EXPECT_EQ(bs[0].offset(0), 2);
  EXPECT_EQ(bs[0].offset(1), 1);
  EXPECT_EQ(bs[0].extent(0), 2u);
  EXPECT_EQ(bs[0].extent(1), 2u);
  m.barrier();
}

TEST(Matrix, SeedListingMatrixPart) {
  dash::TeamSpec<2> teamspec(dash::Team::All());
  dash::SizeSpec<2> sizespec(1024, 768);
  dash::Matrix<double, 2> matrix(sizespec,
                                 dash::DistributionSpec<2>(dash::TILE(32), dash::TILE(32)),
                                 dash::Team::All(), teamspec);
  auto l_block = matrix.local.block(0);
  auto m_block = matrix.block({3, 5});
  EXPECT_EQ(l_block.size(), 32u * 32u);
  EXPECT_EQ(m_block.offset(0), 96);
  EXPECT_EQ(m_block.offset(1), 160);
  for (auto& v : matrix.local) v = double(myid());
  matrix.barrier();
  for (auto v : m_block) EXPECT_EQ(double(v), double(matrix.pattern().unit_at({96, 160})));
  matrix.barrier();
}

// DASH's construction forms: extents as separate arguments with per-dimension
// distributions, a team and a unit grid; the default constructor plus allocate(); the local
// size and capacity; each gives the pattern of the SizeSpec form.
TEST(Matrix, DashConstructionForms) {
  const long n = nunits();
  using M = dash::Matrix<int, 2>;
  const dash::DistributionSpec<2> tiles(dash::TILE(3), dash::TILE(2));
  M reference(dash::SizeSpec<2>(7, 5), tiles);
  M variadic(7, 5, dash::TILE(3), dash::TILE(2));
  M with_team(7, 5, tiles, dash::Team::All());
  M deferred;
  EXPECT_EQ(deferred.size(), 0u);
  EXPECT_EQ(deferred.local_capacity(), 0u);
  EXPECT_TRUE(deferred.allocate(dash::SizeSpec<2>(7, 5), tiles, dash::Team::All()));
  M deferred_variadic;
  EXPECT_TRUE(deferred_variadic.allocate(7, 5, dash::TILE(3), dash::TILE(2)));
  for (const M* m : {&variadic, &with_team, &deferred, &deferred_variadic}) {
    EXPECT_EQ(m->size(), 35u);
    EXPECT_EQ(m->pattern().teamspec(), reference.pattern().teamspec());
    EXPECT_TRUE(m->pattern().distspec() == reference.pattern().distspec());
    EXPECT_EQ(m->local_size(), reference.lsize());
    EXPECT_EQ(m->local_capacity(), reference.pattern().local_capacity());
    for (long g = 0; g < 35; ++g)
      EXPECT_EQ(m->pattern().at(g / 5, g % 5), reference.pattern().at({g / 5, g % 5}));
  }
  // An explicit grid: 1 x n units.
  M columns(4, 3 * n, dash::BLOCKED, dash::BLOCKED, dash::TeamSpec<2>(1, n));
  EXPECT_EQ(columns.pattern().teamspec().extent(1), std::size_t(n));
  dash::NArray<double, 3> cube(3, 4, 5);
  EXPECT_TRUE(cube.pattern().distspec() ==
              dash::DistributionSpec<3>(dash::BLOCKED, dash::NONE, dash::NONE));
  cube.deallocate();
  EXPECT_EQ(cube.size(), 0u);
  dash::barrier();
}

// SizeSpec and CartesianIndexSpace: linear index of coordinates and back, in both orders.
TEST(Matrix, CartesianIndexSpaceAtAndCoords) {
  dash::SizeSpec<3> s(2, 3, 4);
  EXPECT_EQ(s.at(1, 2, 3), 23);
  EXPECT_EQ(s.at({1, 0, 2}), 14);
  EXPECT_EQ(s.coords(23), (std::array<long, 3>{1, 2, 3}));
  EXPECT_EQ(s.rank(), 3);
  dash::CartesianIndexSpace<2, dash::COL_MAJOR> c(3, 5);
  EXPECT_EQ(c.at(2, 1), 5);
  EXPECT_EQ(c.coords(5), (std::array<long, 2>{2, 1}));
  EXPECT_EQ(c.size(), 15u);
  for (long i = 0; i < 24; ++i) EXPECT_EQ(s.at(s.coords(i)), i);
}

TEST(Matrix, ThreeDimensional) {
  dash::NArray<int, 3> a(dash::SizeSpec<3>(5, 4, 3),
                         dash::DistributionSpec<3>(dash::BLOCKED, dash::CYCLIC, dash::NONE));
  for (std::size_t i = 0; i < a.lsize(); ++i)
    a.lbegin()[i] = int(a.pattern().global_index(a.pattern().myid(), long(i)));
  a.barrier();
  for (int x = 0; x < 5; ++x)
    for (int y = 0; y < 4; ++y)
      for (int z = 0; z < 3; ++z) EXPECT_EQ(int(a(x, y, z)), (x * 4 + y) * 3 + z);
  a.barrier();
}

// A pattern on a grid of fewer units than the team (DASH's rule): the units beyond the grid own
// nothing and read every element; a grid with units the team lacks is refused with the counts.
TEST(Matrix, PatternOnAGridOfAnotherSizeThanTheTeam) {
  const long n = nunits();
  for (auto dist : {dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(3)),
                    dash::DistributionSpec<2>(dash::BLOCKED, dash::CYCLIC)}) {
    dash::TilePattern<2> tiles(dash::SizeSpec<2>(7, 11),
                               dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(3)),
                               dash::TeamSpec<2>(1, 1));
    dash::BlockPattern<2> blocks(dash::SizeSpec<2>(7, 11), dist,
                                 dash::TeamSpec<2>(1, n > 1 ? n - 1 : 1));
    dash::Matrix<long, 2, dash::default_index_t, dash::TilePattern<2>> m(tiles);
    dash::Matrix<long, 2, dash::default_index_t, dash::BlockPattern<2>> b(blocks);
    EXPECT_EQ(m.lsize(), myid() == 0 ? 77u : 0u);
    EXPECT_EQ(b.lsize(), long(myid()) < long(blocks.num_units()) ? blocks.local_size() : 0u);
    if (long(myid()) >= long(blocks.num_units())) {
      EXPECT_EQ(b.lbegin(), b.lend());
    }
    FillLocal(m);
    FillLocal(b);
    for (long r = 0; r < 7; ++r)
      for (long c = 0; c < 11; ++c) {
        ASSERT_EQ(long(m(r, c)), Value(r, c)) << r << "," << c;
        ASSERT_EQ(long(b(r, c)), Value(r, c)) << r << "," << c;
      }
    long sum = 0;
    for (long v : b) sum += v;
    long expect = 0;
    for (long r = 0; r < 7; ++r)
      for (long c = 0; c < 11; ++c) expect += Value(r, c);
    EXPECT_EQ(sum, expect);
    b.barrier();
  }
  auto refused = [&](auto make, const std::string& counts) {
    try {
      make();
      ADD_FAILURE() << "no exception for " << counts;
    } catch (const dash::exception::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(counts), std::string::npos) << e.what();
    }
  };
  refused(
      [&] {
        dash::Matrix<long, 2, dash::default_index_t, dash::BlockPattern<2>> too_many(
            dash::BlockPattern<2>(dash::SizeSpec<2>(6, 6),
                                  dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED),
                                  dash::TeamSpec<2>(n, 2)));
      },
      "maps elements to " + std::to_string(2 * n) + " units, its team has " + std::to_string(n));
  refused(
      [&] {
        dash::Array<long, long, dash::ShiftTilePattern<1>> too_many(dash::ShiftTilePattern<1>(
            dash::SizeSpec<1>(10), dash::DistributionSpec<1>(dash::TILE(2)),
            dash::TeamSpec<1>(n + 1)));
      },
      "maps elements to " + std::to_string(n + 1) + " units");
  dash::Team::All().barrier();
}

// DASH's slice m.sub<0>(i) is m[i]; a global iterator names its container's team.
TEST(Matrix, SliceAndIteratorTeam) {
  const long n = nunits();
  dash::Matrix<long, 2> m(3 * n, 5);
  FillLocal(m);
  for (long r = 0; r < 3 * n; ++r) {
    auto row = m.sub<0>(r);
    for (long c = 0; c < 5; ++c) ASSERT_EQ(long(row[c]), Value(r, c)) << r << "," << c;
  }
  for (long g = 0; g < long(m.size()); ++g)
    EXPECT_EQ(m.is_local(g), m.pattern().unit_at(g) == dash::Team::All().myid()) << g;
  EXPECT_EQ(&m.begin().team(), &dash::Team::All());
  EXPECT_EQ(&m.view().begin().team(), &dash::Team::All());
  m.barrier();
}

TEST(Matrix, ArrayViews) {
  dash::Array<int> arr(50, dash::BLOCKCYCLIC(4));
  for (std::size_t l = 0; l < arr.lsize(); ++l) arr.local[l] = int(arr.local.global_index(l));
  arr.barrier();
  auto s = dash::sub(7, 31, arr);
  EXPECT_EQ(s.size(), 24u);
  int expected = 7;
  for (auto v : s) EXPECT_EQ(int(v), expected++);
  std::set<int> mine;
  for (auto& v : dash::local(s)) mine.insert(v);
  std::set<int> ref;
  for (int i = 7; i < 31; ++i)
    if (arr.pattern().unit_at(i) == arr.pattern().myid()) ref.insert(i);
  EXPECT_EQ(mine, ref);
  arr.barrier();
}

// DASH's subscripts: m[i][j] writes and reads like m(i, j) from every unit to every other, on
// both patterns and both orders, odd extents and several distributions; m[i] is row i (begin/
// end, size); a const matrix reads; local[i][j] is local(i, j); a block view's [i][j] is
// relative to the block.
TYPED_TEST(MatrixTyped, SubscriptsReadAndWriteLikeCoordinates) {
  for (auto dist : Distributions()) {
    const long rows = 11, cols = 7;
    TypeParam m(dash::SizeSpec<2>(rows, cols), dist);
    for (long r = 0; r < rows; ++r)
      for (long c = 0; c < cols; ++c)
        if ((r * cols + c) % nunits() == myid()) m[r][c] = Value(r, c);
    m.flush();
    m.barrier();
    const TypeParam& cm = m;
    for (long r = 0; r < rows; ++r) {
      for (long c = 0; c < cols; ++c) {
        ASSERT_EQ(long(m[r][c]), Value(r, c)) << r << "," << c;
        ASSERT_EQ(long(cm[r][c]), Value(r, c)) << r << "," << c;
      }
      auto row = m[r];
      static_assert(decltype(row)::rank() == 1);
      EXPECT_EQ(row.size(), std::size_t(cols));
      // DASH's extents: over all dimensions, 1 in the fixed one.
      EXPECT_EQ(row.extent(0), 1u);
      EXPECT_EQ(row.extent(1), std::size_t(cols));
      long sum = 0, expected = 0;
      for (auto v : row) sum += long(v);
      for (long c = 0; c < cols; ++c) expected += Value(r, c);
      EXPECT_EQ(sum, expected) << "row " << r;
    }
    // local[i][j] by local coordinates, like local(i, j).
    const auto lext = m.local.extents();
    for (long i = 0; i < long(lext[0]); ++i)
      for (long j = 0; j < long(lext[1]); ++j) {
        long& ref = m.local[i][j];
        EXPECT_EQ(&ref, &m.local(i, j));
      }
    // A block view's subscripts are relative to the block.
    auto blk = m.block({0, 0});
    for (long i = 0; i < long(blk.extent(0)); ++i)
      for (long j = 0; j < long(blk.extent(1)); ++j)
        EXPECT_EQ(long(blk[i][j]), Value(blk.offset(0) + i, blk.offset(1) + j));
    m.barrier();
  }
}

TEST(Matrix, SubscriptsInThreeDimensions) {
  const long e0 = 5, e1 = 3, e2 = 4;
  dash::Matrix<long, 3> m(dash::SizeSpec<3>(e0, e1, e2),
                          dash::DistributionSpec<3>(dash::BLOCKED, dash::NONE, dash::NONE));
  auto value = [](long i, long j, long k) { return 100 * i + 10 * j + k; };
  if (myid() == 0)
    for (long i = 0; i < e0; ++i)
      for (long j = 0; j < e1; ++j)
        for (long k = 0; k < e2; ++k) m[i][j][k] = value(i, j, k);
  m.flush();
  m.barrier();
  for (long i = 0; i < e0; ++i) {
    auto plane = m[i];
    static_assert(decltype(plane)::rank() == 2);
    EXPECT_EQ(plane.size(), std::size_t(e1 * e2));
    for (long j = 0; j < e1; ++j) {
      auto line = plane[j];
      static_assert(decltype(line)::rank() == 1);
      long k = 0;
      for (auto v : line) EXPECT_EQ(long(v), value(i, j, k++));
      EXPECT_EQ(k, e2);
      for (long kk = 0; kk < e2; ++kk) EXPECT_EQ(long(m[i][j][kk]), value(i, j, kk));
    }
  }
  m.barrier();
}

TEST(Matrix, SubscriptProxiesDescribeTheirView) {
  const long e0 = 5, e1 = 3, e2 = 4;
  dash::NArray<long, 3> m(e0, e1, e2);
  auto value = [](long i, long j, long k) { return 1000 * i + 10 * j + k; };
  if (myid() == 0)
    for (long i = 0; i < e0; ++i)
      for (long j = 0; j < e1; ++j)
        for (long k = 0; k < e2; ++k) m[i][j][k] = value(i, j, k);
  m.flush();
  m.barrier();
  static_assert(decltype(m[0])::ndim() == 2);
  static_assert(decltype(m[0][0])::ndim() == 1);
  for (long i = 0; i < e0; ++i) {
    auto plane = m[i];
    // Extents and offsets over all three dimensions: the fixed one has extent 1.
    EXPECT_EQ(plane.extent(0), 1u);
    EXPECT_EQ(plane.extent(1), std::size_t(e1));
    EXPECT_EQ(plane.extent(2), std::size_t(e2));
    EXPECT_EQ(plane.extents(), (std::array<std::size_t, 3>{1, std::size_t(e1), std::size_t(e2)}));
    EXPECT_EQ(plane.offsets(), (std::array<long, 3>{i, 0, 0}));
    EXPECT_EQ(plane.viewspec().offset(0), i);
    EXPECT_EQ(plane.viewspec().size(), std::size_t(e1 * e2));
    EXPECT_FALSE(plane.empty());
    for (long j = 0; j < e1; ++j) {
      auto line = plane[j];
      EXPECT_EQ(line.offsets(), (std::array<long, 3>{i, j, 0}));
      EXPECT_EQ(line.offset(1), j);
      EXPECT_EQ(line.extents(), (std::array<std::size_t, 3>{1, 1, std::size_t(e2)}));
      for (long k = 0; k < e2; ++k) {
        // DASH's partial calls: the free coordinates at once.
        EXPECT_EQ(long(plane(j, k)), value(i, j, k));
        EXPECT_EQ(long(line(k)), value(i, j, k));
      }
    }
  }
  // On a view, relative to it: rows 1.. and columns 2.. of a 6 x 7 matrix.
  dash::NArray<long, 2> m2(6, 7);
  FillLocal(m2);
  auto corner = m2.sub<0>(1, 5).sub<1>(2, 5);
  for (long i = 0; i < 5; ++i) {
    EXPECT_EQ(corner[i].offsets(), (std::array<long, 2>{1 + i, 2}));
    EXPECT_EQ(corner[i].extents(), (std::array<std::size_t, 2>{1, 5}));
    for (long j = 0; j < 5; ++j) EXPECT_EQ(long(corner[i](j)), Value(1 + i, 2 + j));
  }
  // The local proxy local[i](j) is local(i, j).
  for (long i = 0; i < long(m2.local.extent(0)); ++i)
    for (long j = 0; j < 7; ++j) EXPECT_EQ(&m2.local[i](j), &m2.local(i, j));
  m2.barrier();
}

TEST(Matrix, ViewIteratorIsAGlobalPointer) {
  // Tiles of 2 x 3 in a 7 x 8 matrix (underfilled last tiles); a view of its lower right part.
  dash::Matrix<long, 2> m(dash::SizeSpec<2>(7, 8),
                          dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(3)));
  FillLocal(m);
  auto v = m.sub<0>(3, 4).sub<1>(4, 4);
  long pos = 0;
  for (auto it = v.begin(); it != v.end(); ++it, ++pos) {
    const long r = 3 + pos / 4, c = 4 + pos % 4;
    auto gptr = static_cast<dash::GlobPtr<long>>(it);
    EXPECT_EQ(gptr, dash::GlobPtr<long>(m[r][c].dart_gptr())) << r << ", " << c;
    EXPECT_EQ(long(*gptr), Value(r, c));
    EXPECT_TRUE(DART_GPTR_EQUAL(it.dart_gptr(), m[r][c].dart_gptr()));
  }
  EXPECT_EQ(pos, 16);
  m.barrier();
}

}  // namespace
