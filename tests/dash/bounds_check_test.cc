// Bounds checks (issue 44, dash/internal/BoundsCheck.h): with DASH_CHECK_BOUNDS defined, every
// element access kind reads the right value at its last valid index and throws
// dash::exception::OutOfRange, naming the call, the index and the extents, at the first invalid
// one, at a negative one and at a huge one: a[i], a.local[i], a.async[i], GlobIter (*it, it[n]),
// m(i, j), m.ref/cref, m[i][j]... (each subscript as it is given), m.local(i, j),
// m.local[i][j], GlobView and LocalView (operator(), [], at_coords, at_position, iterators),
// dash::index(view)[k], dash::bp::ContainerBlock's b(i, j) and the halo's StencilIterator.
// Odd sizes, units without elements, arrays of size 0, blocked, cyclic and tiled patterns.
// Only one unit makes each invalid access: it throws, the others wait in the barrier after it
// (a check has no collective, so nobody hangs).
//
// The source defines the macro itself (and skips the shared precompiled header, see
// tests/dash/CMakeLists.txt), so the suite checks in every build type.
#ifndef DASH_CHECK_BOUNDS
#define DASH_CHECK_BOUNDS
#endif

#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/bp/ContainerBlocks.h>
#include <dash/halo/HaloMatrixWrapper.h>
#include <dash/view/ViewFunctions.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_test.h"

static_assert(dash::internal::bounds_checked,
              "bounds_check_test.cc must see DASH_CHECK_BOUNDS before any dash header (a "
              "precompiled header without it would hide the checks)");

namespace {

using dash_test::myid;
using dash_test::nunits;

constexpr long kHuge = std::numeric_limits<long>::max();
const std::string kHugeText = std::to_string(kHuge);

// Runs access() and expects dash::exception::OutOfRange with exactly `message`.
template <class Access>
void ExpectOutOfRange(Access&& access, const std::string& message) {
  try {
    access();
    ADD_FAILURE() << "no exception; expected OutOfRange: " << message;
  } catch (const dash::exception::OutOfRange& e) {
    EXPECT_EQ(std::string(e.what()), message);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "another exception than OutOfRange: " << e.what();
  }
}

std::string Str(long v) { return std::to_string(v); }
std::string Str(std::size_t v) { return std::to_string(v); }

// The 1-D distributions the array cases run with.
std::vector<dash::Distribution> ArrayDistributions() {
  return {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(3), dash::TILE(4)};
}

// Each unit sets its elements to their global index.
void FillWithGlobalIndex(dash::Array<long>& a) {
  for (std::size_t i = 0; i < a.local.size(); ++i) a.local[i] = long(a.local.global_index(i));
  a.barrier();
}

// Value stored at global coordinates (r, c) of the matrices.
long Value(long r, long c) { return 1000 * r + c; }

// Each unit sets its elements of a 2-D matrix to Value(global coordinates).
template <class M>
void FillMatrix(M& m) {
  auto lv = m.local.view();
  for (long pos = 0; pos < long(lv.size()); ++pos) {
    auto g = lv.global_coords(pos);
    lv.at_position(pos) = Value(g[0], g[1]);
  }
  m.barrier();
}

TEST(BoundsCheck, ArraySubscriptReadsTheLastIndexAndThrowsPastIt) {
  const long n = 7 * nunits() + 3;
  int turn = 0;
  for (auto dist : ArrayDistributions()) {
    dash::Array<long> a(std::size_t(n), dist);
    FillWithGlobalIndex(a);
    const int accessor = turn++ % nunits();  // only this unit makes the accesses
    if (myid() == accessor) {
      const std::string outside = " is outside [0, " + Str(n) + ")";
      EXPECT_EQ(long(a[n - 1]), n - 1);
      EXPECT_EQ(long(a[0]), 0);
      ExpectOutOfRange([&] { (void)a[n]; }, "dash::Array::operator[]: index " + Str(n) + outside);
      ExpectOutOfRange([&] { (void)a[-1]; }, "dash::Array::operator[]: index -1" + outside);
      ExpectOutOfRange([&] { (void)a[kHuge]; },
                       "dash::Array::operator[]: index " + kHugeText + outside);
      const dash::Array<long>& ca = a;
      EXPECT_EQ(long(ca[n - 1]), n - 1);
      ExpectOutOfRange([&] { (void)ca[n]; }, "dash::Array::operator[]: index " + Str(n) + outside);
      // at() checks with and without the macro, and throws OutOfRange too.
      EXPECT_EQ(long(a.at(n - 1)), n - 1);
      ExpectOutOfRange([&] { (void)a.at(n); }, "dash::Array::at: index " + Str(n) + outside);
      EXPECT_THROW((void)a.at(-1), std::out_of_range);  // still a std::out_of_range
    }
    a.barrier();
  }
}

TEST(BoundsCheck, ArraysWithoutElementsThrowForEveryIndex) {
  // Size 0 everywhere, and fewer elements than units (units without elements).
  dash::Array<long> none(0);
  dash::Array<long> few(std::size_t(nunits() / 2));
  FillWithGlobalIndex(few);
  dash::Array<long> unallocated;
  const int accessor = nunits() - 1;
  if (myid() == accessor) {
    ExpectOutOfRange([&] { (void)none[0]; }, "dash::Array::operator[]: index 0 is outside [0, 0)");
    ExpectOutOfRange([&] { (void)none.local[0]; },
                     "dash::Array::local.operator[]: index 0 is outside [0, 0)");
    ExpectOutOfRange([&] { (void)*none.begin(); },
                     "dash::GlobIter::operator*: index 0 is outside [0, 0)");
    ExpectOutOfRange([&] { (void)unallocated[0]; },
                     "dash::Array::operator[]: index 0 is outside [0, 0)");
    // The last unit owns none of the nunits() / 2 BLOCKED elements.
    EXPECT_EQ(few.lsize(), 0u);
    ExpectOutOfRange([&] { (void)few.local[0]; },
                     "dash::Array::local.operator[]: index 0 is outside [0, 0)");
    const long n = long(few.size());
    if (n > 0) {
      EXPECT_EQ(long(few[n - 1]), n - 1);
    }
    ExpectOutOfRange([&] { (void)few[n]; }, "dash::Array::operator[]: index " + Str(n) +
                                                " is outside [0, " + Str(n) + ")");
  }
  few.barrier();
}

TEST(BoundsCheck, ArrayLocalSubscriptChecksTheLocalSize) {
  const long n = 7 * nunits() + 3;
  int turn = 0;
  for (auto dist : ArrayDistributions()) {
    dash::Array<long> a(std::size_t(n), dist);
    FillWithGlobalIndex(a);
    const int accessor = turn++ % nunits();
    if (myid() == accessor) {
      const std::size_t l = a.lsize();
      ASSERT_GT(l, 0u);
      const std::string outside = " is outside [0, " + Str(l) + ")";
      EXPECT_EQ(a.local[l - 1], long(a.local.global_index(l - 1)));
      ExpectOutOfRange([&] { (void)a.local[l]; },
                       "dash::Array::local.operator[]: index " + Str(l) + outside);
      // The index is unsigned: -1 arrives as 2^64 - 1, and the message says so.
      ExpectOutOfRange([&] { (void)a.local[std::size_t(-1)]; },
                       "dash::Array::local.operator[]: index 18446744073709551615 (-1 as a signed "
                       "index)" +
                           outside);
      ExpectOutOfRange([&] { (void)a.local.at(l); },
                       "dash::Array::local.at: index " + Str(l) + outside);
    }
    a.barrier();
  }
}

TEST(BoundsCheck, ArrayAsyncSubscriptChecksTheGlobalIndex) {
  const long n = 7 * nunits() + 3;
  dash::Array<long> a(std::size_t(n), dash::CYCLIC);
  FillWithGlobalIndex(a);
  const int accessor = nunits() - 1;
  if (myid() == accessor) {
    a.async[n - 1] = -5;  // the last valid index: a write that completes at flush()
    a.async.flush();
    const std::string outside = " is outside [0, " + Str(n) + ")";
    ExpectOutOfRange([&] { a.async[n] = 1; },
                     "dash::Array::async.operator[]: index " + Str(n) + outside);
    ExpectOutOfRange([&] { a.async[-1] = 1; }, "dash::Array::async.operator[]: index -1" + outside);
  }
  a.barrier();
  EXPECT_EQ(long(a[n - 1]), -5);
  a.barrier();
}

TEST(BoundsCheck, GlobIterDereferenceOutsideTheRangeThrows) {
  const long n = 7 * nunits() + 3;
  int turn = 0;
  for (auto dist : ArrayDistributions()) {
    dash::Array<long> a(std::size_t(n), dist);
    FillWithGlobalIndex(a);
    const int accessor = turn++ % nunits();
    if (myid() == accessor) {
      const std::string outside = " is outside [0, " + Str(n) + ")";
      // A whole walk passes; one more step (past the cached run of the last element) throws.
      auto it = a.begin();
      long expected = 0;
      for (; it != a.end(); ++it) EXPECT_EQ(long(*it), expected++);
      ExpectOutOfRange([&] { (void)*it; }, "dash::GlobIter::operator*: index " + Str(n) + outside);
      EXPECT_EQ(long(*(a.end() - 1)), n - 1);
      EXPECT_EQ(long(a.begin()[n - 1]), n - 1);
      ExpectOutOfRange([&] { (void)a.begin()[n]; },
                       "dash::GlobIter::operator[]: index " + Str(n) + outside);
      ExpectOutOfRange([&] { (void)a.begin()[kHuge]; },
                       "dash::GlobIter::operator[]: index " + kHugeText + outside);
      // Back from a cached run to before the first element.
      auto first = a.begin();
      EXPECT_EQ(long(*first), 0);
      --first;
      ExpectOutOfRange([&] { (void)*first; }, "dash::GlobIter::operator*: index -1" + outside);
      const dash::Array<long>& ca = a;
      ExpectOutOfRange([&] { (void)*ca.end(); },
                       "dash::GlobIter::operator*: index " + Str(n) + outside);
    }
    a.barrier();
  }
}

// The matrix cases: a Matrix (TilePattern) and an NArray (BlockPattern), each with blocked,
// cyclic and tiled distributions, odd extents.
template <class M>
class BoundsCheckMatrix : public ::testing::Test {};
using MatrixTypes = ::testing::Types<dash::Matrix<long, 2>, dash::NArray<long, 2>>;
TYPED_TEST_SUITE(BoundsCheckMatrix, MatrixTypes);

std::vector<dash::DistributionSpec<2>> MatrixDistributions() {
  return {dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
          dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(3)),
          dash::DistributionSpec<2>(dash::CYCLIC, dash::BLOCKCYCLIC(2)),
          dash::DistributionSpec<2>(dash::NONE, dash::BLOCKED)};
}

TYPED_TEST(BoundsCheckMatrix, CallReadsTheLastElementAndChecksEveryCoordinate) {
  const long rows = 2 * nunits() + 3, cols = 7;
  const std::string extents = " is outside extents (" + Str(rows) + ", " + Str(cols) + ")";
  int turn = 0;
  for (auto dist : MatrixDistributions()) {
    TypeParam m(dash::SizeSpec<2>(rows, cols), dist);
    FillMatrix(m);
    const int accessor = turn++ % nunits();
    if (myid() == accessor) {
      EXPECT_EQ(long(m(rows - 1, cols - 1)), Value(rows - 1, cols - 1));
      EXPECT_EQ(long(m(0, 0)), Value(0, 0));
      const std::string call = "dash::Matrix::operator(): index ";
      ExpectOutOfRange([&] { (void)m(rows, 0); }, call + "(" + Str(rows) + ", 0)" + extents);
      ExpectOutOfRange([&] { (void)m(0, cols); }, call + "(0, " + Str(cols) + ")" + extents);
      ExpectOutOfRange([&] { (void)m(rows - 1, -1); },
                       call + "(" + Str(rows - 1) + ", -1)" + extents);
      ExpectOutOfRange([&] { (void)m(kHuge, 0); }, call + "(" + kHugeText + ", 0)" + extents);
      const TypeParam& cm = m;
      EXPECT_EQ(long(cm(rows - 1, cols - 1)), Value(rows - 1, cols - 1));
      ExpectOutOfRange([&] { (void)cm(rows, 0); }, call + "(" + Str(rows) + ", 0)" + extents);
      EXPECT_EQ(long(m.ref({rows - 1, 0})), Value(rows - 1, 0));
      ExpectOutOfRange(
          [&] {
            (void)m.ref({0, cols});
          },
          "dash::Matrix::ref: index (0, " + Str(cols) + ")" + extents);
      ExpectOutOfRange(
          [&] {
            (void)cm.cref({-1, 0});
          },
          "dash::Matrix::cref: index (-1, 0)" + extents);
      EXPECT_EQ(long(m.at(rows - 1, cols - 1)), Value(rows - 1, cols - 1));
      ExpectOutOfRange([&] { (void)m.at(rows, 0); },
                       "dash::Matrix::at: index (" + Str(rows) + ", 0)" + extents);
      // Iterators over the whole matrix.
      const long n = rows * cols;
      ExpectOutOfRange([&] { (void)*m.end(); }, "dash::GlobIter::operator*: index " + Str(n) +
                                                    " is outside [0, " + Str(n) + ")");
    }
    m.barrier();
  }
}

TYPED_TEST(BoundsCheckMatrix, SubscriptsAreCheckedOneByOne) {
  const long rows = 2 * nunits() + 3, cols = 7;
  const std::string extents = " is outside extents (" + Str(rows) + ", " + Str(cols) + ")";
  const std::string call = "dash::Matrix::operator[]: index ";
  int turn = 0;
  for (auto dist : MatrixDistributions()) {
    TypeParam m(dash::SizeSpec<2>(rows, cols), dist);
    FillMatrix(m);
    const int accessor = turn++ % nunits();
    if (myid() == accessor) {
      EXPECT_EQ(long(m[rows - 1][cols - 1]), Value(rows - 1, cols - 1));
      // The first subscript alone already throws: the row proxy is never made.
      ExpectOutOfRange([&] { (void)m[rows]; }, call + "[" + Str(rows) + "]" + extents);
      ExpectOutOfRange([&] { (void)m[-1]; }, call + "[-1]" + extents);
      ExpectOutOfRange([&] { (void)m[0][cols]; }, call + "[0][" + Str(cols) + "]" + extents);
      ExpectOutOfRange([&] { (void)m[rows - 1][kHuge]; },
                       call + "[" + Str(rows - 1) + "][" + kHugeText + "]" + extents);
      const TypeParam& cm = m;
      EXPECT_EQ(long(cm[rows - 1][cols - 1]), Value(rows - 1, cols - 1));
      ExpectOutOfRange([&] { (void)cm[0][-1]; }, call + "[0][-1]" + extents);
    }
    m.barrier();
  }
}

TYPED_TEST(BoundsCheckMatrix, LocalAccessChecksTheLocalExtents) {
  const long rows = 2 * nunits() + 3, cols = 7;
  int turn = 0;
  for (auto dist : MatrixDistributions()) {
    TypeParam m(dash::SizeSpec<2>(rows, cols), dist);
    FillMatrix(m);
    const int accessor = turn++ % nunits();
    if (myid() == accessor) {
      const long l0 = long(m.local.extent(0)), l1 = long(m.local.extent(1));
      const std::string extents = " is outside extents (" + Str(l0) + ", " + Str(l1) + ")";
      if (l0 > 0 && l1 > 0) {
        auto g = m.pattern().global(std::array<long, 2>{l0 - 1, l1 - 1});
        EXPECT_EQ(m.local(l0 - 1, l1 - 1), Value(g[0], g[1]));
        EXPECT_EQ(m.local[l0 - 1][l1 - 1], Value(g[0], g[1]));
      }
      const std::string call = "dash::Matrix::local.operator(): index ";
      ExpectOutOfRange([&] { (void)m.local(l0, 0); }, call + "(" + Str(l0) + ", 0)" + extents);
      ExpectOutOfRange([&] { (void)m.local(0, l1); }, call + "(0, " + Str(l1) + ")" + extents);
      ExpectOutOfRange([&] { (void)m.local(-1, 0); }, call + "(-1, 0)" + extents);
      const std::string sub = "dash::Matrix::local.operator[]: index ";
      ExpectOutOfRange([&] { (void)m.local[l0]; }, sub + "[" + Str(l0) + "]" + extents);
      ExpectOutOfRange([&] { (void)m.local[0][l1]; }, sub + "[0][" + Str(l1) + "]" + extents);
    }
    m.barrier();
  }
}

TEST(BoundsCheck, MatrixUnitsWithoutElementsThrowForLocalAccess) {
  // Two rows over the units, BLOCKED: units 2 and 3 own none.
  dash::Matrix<long, 2> m(dash::SizeSpec<2>(2, 5),
                          dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  FillMatrix(m);
  const int accessor = nunits() - 1;
  if (myid() == accessor) {
    const long l0 = long(m.local.extent(0));
    EXPECT_EQ(l0, nunits() <= 2 ? 2 / nunits() : 0);
    const std::string extents = " is outside extents (" + Str(l0) + ", 5)";
    ExpectOutOfRange([&] { (void)m.local(l0, 0); },
                     "dash::Matrix::local.operator(): index (" + Str(l0) + ", 0)" + extents);
    ExpectOutOfRange([&] { (void)m.local[l0]; },
                     "dash::Matrix::local.operator[]: index [" + Str(l0) + "]" + extents);
    EXPECT_EQ(long(m(1, 4)), Value(1, 4));
    ExpectOutOfRange([&] { (void)m(2, 0); },
                     "dash::Matrix::operator(): index (2, 0) is outside extents (2, 5)");
  }
  m.barrier();
}

TEST(BoundsCheck, OneDimensionalMatrixAndThreeDimensionalSubscripts) {
  const long n = 7 * nunits() + 3;
  dash::Matrix<long, 1> v(dash::SizeSpec<1>(n), dash::DistributionSpec<1>(dash::TILE(3)));
  for (std::size_t i = 0; i < v.lsize(); ++i) v.lbegin()[i] = 1;
  const long e0 = nunits() + 1, e1 = 3, e2 = 5;
  dash::NArray<long, 3> c(dash::SizeSpec<3>(e0, e1, e2));
  for (std::size_t i = 0; i < c.lsize(); ++i) c.lbegin()[i] = 2;
  c.barrier();
  const int accessor = nunits() - 1;
  if (myid() == accessor) {
    EXPECT_EQ(long(v[n - 1]), 1);
    ExpectOutOfRange([&] { (void)v[n]; }, "dash::Matrix::operator[]: index [" + Str(n) +
                                              "] is outside extents (" + Str(n) + ")");
    const long l = long(v.lsize());
    if (l > 0) {
      EXPECT_EQ(v.local[l - 1], 1);
    }
    ExpectOutOfRange([&] { (void)v.local[l]; }, "dash::Matrix::local.operator[]: index " + Str(l) +
                                                    " is outside [0, " + Str(l) + ")");
    const std::string extents =
        " is outside extents (" + Str(e0) + ", " + Str(e1) + ", " + Str(e2) + ")";
    EXPECT_EQ(long(c[e0 - 1][e1 - 1][e2 - 1]), 2);
    ExpectOutOfRange(
        [&] { (void)c[e0 - 1][e1]; },
        "dash::Matrix::operator[]: index [" + Str(e0 - 1) + "][" + Str(e1) + "]" + extents);
    ExpectOutOfRange([&] { (void)c[0][0][e2]; },
                     "dash::Matrix::operator[]: index [0][0][" + Str(e2) + "]" + extents);
    ExpectOutOfRange([&] { (void)c(0, -1, 0); },
                     "dash::Matrix::operator(): index (0, -1, 0)" + extents);
  }
  c.barrier();
}

TEST(BoundsCheck, GlobViewAndItsIteratorCheckTheViewExtents) {
  const long rows = 2 * nunits() + 3, cols = 7;
  dash::Matrix<long, 2> m(dash::SizeSpec<2>(rows, cols),
                          dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(3)));
  FillMatrix(m);
  const int accessor = nunits() - 1;
  if (myid() == accessor) {
    auto v = m.sub<0>(1, 3);  // rows 1 .. 3
    const long n = 3 * cols;
    const std::string extents = " is outside extents (3, " + Str(cols) + ")";
    EXPECT_EQ(long(v(2, cols - 1)), Value(3, cols - 1));
    EXPECT_EQ(long(v[2][cols - 1]), Value(3, cols - 1));
    ExpectOutOfRange([&] { (void)v(3, 0); }, "dash::GlobView::operator(): index (3, 0)" + extents);
    ExpectOutOfRange([&] { (void)v[3]; }, "dash::GlobView::operator[]: index [3]" + extents);
    ExpectOutOfRange([&] { (void)v[0][cols]; },
                     "dash::GlobView::operator[]: index [0][" + Str(cols) + "]" + extents);
    ExpectOutOfRange(
        [&] {
          (void)v.at_coords({0, -1});
        },
        "dash::GlobView::at_coords: index (0, -1)" + extents);
    auto last = v.end() - 1;
    auto g = last.coords();
    EXPECT_EQ(long(*last), Value(g[0], g[1]));
    const std::string outside = " is outside [0, " + Str(n) + ")";
    ExpectOutOfRange([&] { (void)*v.end(); },
                     "dash::GlobViewIter::operator*: index " + Str(n) + outside);
    ExpectOutOfRange([&] { (void)v.begin()[n]; },
                     "dash::GlobViewIter::operator[]: index " + Str(n) + outside);
    ExpectOutOfRange([&] { (void)*(v.begin() - 1); },
                     "dash::GlobViewIter::operator*: index -1" + outside);
    auto indices = dash::index(v);
    EXPECT_EQ(indices[std::size_t(n - 1)], last.gpos());
    ExpectOutOfRange([&] { (void)indices[std::size_t(n)]; },
                     "dash::index(view).operator[]: index " + Str(n) + outside);
  }
  m.barrier();
}

TEST(BoundsCheck, LocalViewAndItsIteratorCheckTheLocalExtents) {
  const long rows = 2 * nunits() + 3, cols = 7;
  dash::NArray<long, 2> m(dash::SizeSpec<2>(rows, cols),
                          dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  FillMatrix(m);
  const int accessor = nunits() - 1;
  if (myid() == accessor) {
    auto lv = dash::local(m.view());
    const long l0 = long(lv.extent(0)), l1 = long(lv.extent(1)), n = l0 * l1;
    ASSERT_GT(n, 0);
    const std::string extents = " is outside extents (" + Str(l0) + ", " + Str(l1) + ")";
    auto g = lv.global_coords(n - 1);
    EXPECT_EQ(lv(l0 - 1, l1 - 1), Value(g[0], g[1]));
    // dash::local(view)[k] is DASH's element at position k; the LocalView's own [i][j] rows.
    EXPECT_EQ(lv[n - 1], Value(g[0], g[1]));
    EXPECT_EQ(lv.elements()[l0 - 1][l1 - 1], Value(g[0], g[1]));
    EXPECT_EQ(*(lv.end() - 1), Value(g[0], g[1]));
    ExpectOutOfRange([&] { (void)lv(l0, 0); },
                     "dash::LocalView::operator(): index (" + Str(l0) + ", 0)" + extents);
    ExpectOutOfRange([&] { (void)lv[n]; }, "dash::ComposedView::operator[]: index " + Str(n) +
                                               " is outside [0, " + Str(n) + ")");
    ExpectOutOfRange([&] { (void)lv.elements()[0][l1]; },
                     "dash::LocalView::operator[]: index [0][" + Str(l1) + "]" + extents);
    ExpectOutOfRange(
        [&] {
          (void)lv.at_coords({-1, 0});
        },
        "dash::LocalView::at_coords: index (-1, 0)" + extents);
    const std::string outside = " is outside [0, " + Str(n) + ")";
    ExpectOutOfRange([&] { (void)lv.at_position(n); },
                     "dash::LocalView::at_position: index " + Str(n) + outside);
    ExpectOutOfRange([&] { (void)*lv.end(); },
                     "dash::LocalView::iterator::operator*: index " + Str(n) + outside);
    ExpectOutOfRange([&] { (void)lv.begin()[n]; },
                     "dash::LocalView::iterator::operator[]: index " + Str(n) + outside);
    auto offsets = dash::index(lv);
    EXPECT_EQ(offsets[std::size_t(n - 1)], n - 1);
    EXPECT_EQ(*offsets.end(), n);  // index sets read one past their end, unchecked (DASH's)
    ExpectOutOfRange([&] { (void)offsets[std::size_t(n)]; },
                     "dash::index(view).operator[]: index " + Str(n) + outside);
  }
  m.barrier();
}

TEST(BoundsCheck, ContainerBlockChecksTheBlockWithItsHalo) {
  const long rows = 4 * nunits() + 1, cols = 9;
  dash::NArray<long, 2> m(dash::SizeSpec<2>(rows, cols),
                          dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  FillMatrix(m);
  dash::bp::HaloSpec<2> halo;
  halo.width = 1;
  auto master = dash::bp::of(m, halo);
  const int accessor = nunits() - 1;
  if (myid() == accessor && master.size() > 0) {
    auto& b = master.block(0);
    const long e0 = b.extent(0), e1 = b.extent(1);
    EXPECT_EQ(b(e0 - 1, e1 - 1), Value(b.box().min[0] + e0 - 1, e1 - 1));
    (void)b(-1, 0);  // a halo cell: inside
    (void)b(e0, e1);
    const std::string box = " is outside [-1, " + Str(e0 + 1) + ") x [-1, " + Str(e1 + 1) + ")";
    const std::string call = "dash::bp::ContainerBlock::operator(): index ";
    ExpectOutOfRange([&] { (void)b(e0 + 1, 0); }, call + "(" + Str(e0 + 1) + ", 0)" + box);
    ExpectOutOfRange([&] { (void)b(0, -2); }, call + "(0, -2)" + box);
    ExpectOutOfRange([&] { (void)b(0, kHuge); }, call + "(0, " + kHugeText + ")" + box);
  }
  m.barrier();
}

TEST(BoundsCheck, StencilIteratorChecksItsCellsAndPoints) {
  using P2 = dash::halo::StencilPoint<2>;
  const long rows = 4 * nunits() + 1, cols = 9;
  dash::NArray<long, 2> m(dash::SizeSpec<2>(rows, cols),
                          dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  FillMatrix(m);
  const dash::halo::StencilSpec<P2, 2> spec(P2(0, -1), P2(0, 1));
  dash::halo::HaloMatrixWrapper<dash::NArray<long, 2>> wrapper(m, spec);
  auto op = wrapper.stencil_operator(spec);
  const int accessor = nunits() - 1;
  if (myid() == accessor) {
    const long n = long(op.inner.end() - op.inner.begin());
    ASSERT_GT(n, 0);
    auto last = op.inner.end() - 1;
    EXPECT_EQ(*last, m.lbegin()[last.lpos()]);
    EXPECT_EQ(last.value_at(1), m.lbegin()[last.lpos() + 1]);
    const std::string outside = " is outside [0, " + Str(n) + ")";
    ExpectOutOfRange([&] { (void)*op.inner.end(); },
                     "dash::halo::StencilIterator::operator*: index " + Str(n) + outside);
    ExpectOutOfRange([&] { (void)op.inner.begin()[n]; },
                     "dash::halo::StencilIterator::operator[]: index " + Str(n) + outside);
    ExpectOutOfRange([&] { (void)op.inner.begin()[-1]; },
                     "dash::halo::StencilIterator::operator[]: index -1" + outside);
    ExpectOutOfRange([&] { (void)last.value_at(2); },
                     "dash::halo::StencilIterator::value_at: stencil point: index 2 is outside "
                     "[0, 2)");
  }
  m.barrier();
}

}  // namespace
