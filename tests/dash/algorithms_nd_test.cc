// The algorithms on N-D ranges and views: whole matrices (GlobIter over all
// elements), position sub-ranges of a matrix that start and end inside rows,
// and views (blocks, sub-rectangles, rows, columns, position sub-ranges of a
// view), for TilePattern and BlockPattern matrices in row- and column-major
// order under several distributions, and a 3-D BlockPattern. Expected values
// come from std:: algorithms on the values the range holds (computed from the
// iterators' coordinates, no communication); the modifying algorithms are
// checked by every unit on all of its own elements, inside and outside the
// range.
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/algorithm/Accumulate.h>
#include <dash/algorithm/Count.h>
#include <dash/algorithm/Fill.h>
#include <dash/algorithm/Find.h>
#include <dash/algorithm/ForEach.h>
#include <dash/algorithm/Generate.h>
#include <dash/algorithm/Iota.h>
#include <dash/algorithm/MinMax.h>
#include <dash/algorithm/Predicates.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;

long Value(long g) { return (g * 7 + 3) % 13; }

// Sets every element to Value(its global index). Collective.
template <class M>
void FillByOwner(M& m) {
  const auto& pat = m.pattern();
  for (std::size_t l = 0; l < m.lsize(); ++l)
    m.lbegin()[l] = Value(long(pat.global_index(pat.global(pat.myid(), long(l)))));
  m.barrier();
}

// Position sub-ranges [a, b) of a range of n positions: empty, one element,
// inside rows, whole.
std::vector<std::pair<long, long>> Ranges(long n) {
  std::vector<std::pair<long, long>> out;
  for (long a : {0L, 1L, n / 2 + 1, n})
    for (long b : {a, a + 1, n - 2, n})
      if (0 <= a && a <= b && b <= n &&
          std::find(out.begin(), out.end(), std::make_pair(a, b)) == out.end())
        out.emplace_back(a, b);
  return out;
}

// Global index of the element at iterator it (local computation).
template <class It>
long GlobalIndexAt(const It& it) {
  return long(it.pattern().global_index(it.pattern().coords(it.gpos())));
}

// The read-only algorithms on [first, last) against std:: on its values.
template <class It>
void CheckReadOnly(It first, It last) {
  std::vector<long> vals;
  for (It it = first; it != last; ++it) vals.push_back(Value(GlobalIndexAt(it)));
  auto rf = vals.begin(), rl = vals.end();
  auto at = [&](It it) { return long(it - first); };
  EXPECT_EQ(dash::accumulate(first, last, 5L), std::accumulate(rf, rl, 5L));
  EXPECT_EQ(dash::reduce(first, last, 100L, dash::min<long>()),
            std::accumulate(rf, rl, 100L, [](long x, long y) { return std::min(x, y); }));
  auto bxor = [](long x, long y) { return x ^ y; };
  EXPECT_EQ(dash::accumulate(first, last, 7L, bxor), std::accumulate(rf, rl, 7L, bxor));
  EXPECT_EQ(at(dash::min_element(first, last)), std::min_element(rf, rl) - rf);
  EXPECT_EQ(at(dash::max_element(first, last)), std::max_element(rf, rl) - rf);
  EXPECT_EQ(at(dash::max_element(first, last, std::greater<long>())),
            std::max_element(rf, rl, std::greater<long>()) - rf);
  for (long v : {0L, 5L, 12L, 99L}) {
    EXPECT_EQ(at(dash::find(first, last, v)), std::find(rf, rl, v) - rf) << v;
    EXPECT_EQ(dash::count(first, last, v), std::count(rf, rl, v)) << v;
  }
  auto big = [](long x) { return x > 10; };
  auto even = [](long x) { return x % 2 == 0; };
  EXPECT_EQ(at(dash::find_if(first, last, big)), std::find_if(rf, rl, big) - rf);
  EXPECT_EQ(dash::count_if(first, last, even), std::count_if(rf, rl, even));
  EXPECT_EQ(dash::all_of(first, last, even), std::all_of(rf, rl, even));
  EXPECT_EQ(dash::any_of(first, last, big), std::any_of(rf, rl, big));
  EXPECT_EQ(dash::none_of(first, last, big), std::none_of(rf, rl, big));
}

// Checks every local element of m: at range position k of [first, last) it
// must be inside(k, g), elsewhere outside(g). Local.
template <class M, class It, class In, class Out>
void CheckLocalElements(M& m, It first, It last, In inside, Out outside) {
  const auto& pat = m.pattern();
  std::vector<long> pos_of(m.size(), -1);  // global index -> range position
  for (It it = first; it != last; ++it) pos_of[std::size_t(GlobalIndexAt(it))] = long(it - first);
  for (std::size_t l = 0; l < m.lsize(); ++l) {
    long g = long(pat.global_index(pat.global(pat.myid(), long(l))));
    long k = pos_of[std::size_t(g)];
    long expect = k >= 0 ? inside(k, g) : outside(g);
    ASSERT_EQ(m.lbegin()[l], expect) << "global index " << g << " range position " << k;
  }
}

// The modifying algorithms on [first, last) of m. Collective.
template <class M, class It>
void CheckModifying(M& m, It first, It last) {
  using dash_test::nunits;
  auto unchanged = [](long g) { return Value(g); };
  FillByOwner(m);
  dash::fill(first, last, -4L);
  CheckLocalElements(
      m, first, last, [](long, long) { return -4L; }, unchanged);
  FillByOwner(m);
  dash::iota(first, last, 100L);
  CheckLocalElements(
      m, first, last, [](long k, long) { return 100 + k; }, unchanged);
  FillByOwner(m);
  dash::generate_with_index(first, last, [](long g) { return 3 * g + 1; });
  CheckLocalElements(
      m, first, last, [](long, long g) { return 3 * g + 1; }, unchanged);
  FillByOwner(m);
  dash::generate(first, last, [] { return 8L; });
  CheckLocalElements(
      m, first, last, [](long, long) { return 8L; }, unchanged);
  FillByOwner(m);
  long visited = 0;
  dash::for_each_with_index(first, last, [&](long& x, long g) {
    EXPECT_EQ(x, Value(g));
    x = -g;
    ++visited;
  });
  CheckLocalElements(
      m, first, last, [](long, long g) { return -g; }, unchanged);
  FillByOwner(m);
  dash::for_each(first, last, [](long& x) { x += 1000; });
  CheckLocalElements(
      m, first, last, [](long, long g) { return Value(g) + 1000; }, unchanged);
  FillByOwner(m);  // leaves m as it found it
  long total = 0;
  EXPECT_EQ(DART_OK,
            dart_allreduce(&visited, &total, 1, DART_TYPE_LONG, DART_OP_SUM, DART_TEAM_ALL));
  EXPECT_EQ(total, long(last - first));
  m.barrier();
}

// Calls f(first, last, label) for position sub-ranges of the whole matrix
// and for views and position sub-ranges of views.
template <class M, class F>
void ForEachRangeOf(M& m, F&& f) {
  for (auto [a, b] : Ranges(long(m.size())))
    f(m.begin() + a, m.begin() + b, "matrix [" + std::to_string(a) + "," + std::to_string(b) + ")");
  const long r = long(m.extent(0)), c = long(m.extent(1));
  std::vector<std::pair<std::string, decltype(m.block({0, 0}))>> views;
  views.emplace_back("block{0,0}", m.block({0, 0}));
  auto nb = m.pattern().blockspec().extents();
  views.emplace_back("last block", m.block({long(nb[0]) - 1, long(nb[1]) - 1}));
  views.emplace_back("sub", m.template sub<0>(r / 3, r - r / 3).template sub<1>(c / 4, c - c / 2));
  views.emplace_back("row", m.row(r / 2));
  views.emplace_back("col", m.col(c - 1));
  for (auto& [name, v] : views) {
    for (auto [a, b] : Ranges(long(v.size())))
      f(v.begin() + a, v.begin() + b,
        name + " [" + std::to_string(a) + "," + std::to_string(b) + ")");
  }
}

template <class MatrixT>
class AlgorithmsNd : public ::testing::Test {};
using MatrixTypes = ::testing::Types<
    dash::Matrix<long, 2>, dash::NArray<long, 2>,
    dash::Matrix<long, 2, dash::default_index_t, dash::TilePattern<2, dash::COL_MAJOR>>,
    dash::NArray<long, 2, dash::default_index_t, dash::BlockPattern<2, dash::COL_MAJOR>>>;
TYPED_TEST_SUITE(AlgorithmsNd, MatrixTypes);

std::vector<dash::DistributionSpec<2>> Distributions() {
  return {dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)),
          dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
          dash::DistributionSpec<2>(dash::CYCLIC, dash::BLOCKCYCLIC(2))};
}

TYPED_TEST(AlgorithmsNd, ReadOnlyAgainstStd) {
  for (auto dist : Distributions()) {
    for (auto ext : {std::array<long, 2>{13, 7}, std::array<long, 2>{1, 1}}) {
      TypeParam m(dash::SizeSpec<2>(ext[0], ext[1]), dist);
      FillByOwner(m);
      ForEachRangeOf(m, [&](auto first, auto last, const std::string& label) {
        SCOPED_TRACE(std::to_string(ext[0]) + "x" + std::to_string(ext[1]) + " " + label);
        CheckReadOnly(first, last);
      });
      m.barrier();
    }
  }
}

TYPED_TEST(AlgorithmsNd, ModifyingAgainstExpected) {
  for (auto dist : Distributions()) {
    TypeParam m(dash::SizeSpec<2>(9, 10), dist);
    ForEachRangeOf(m, [&](auto first, auto last, const std::string& label) {
      SCOPED_TRACE(label);
      CheckModifying(m, first, last);
    });
  }
}

TEST(AlgorithmsNd, ThreeDimensionalBlockCyclic) {
  dash::NArray<long, 3> a(
      dash::SizeSpec<3>(5, 6, 4),
      dash::DistributionSpec<3>(dash::BLOCKCYCLIC(2), dash::CYCLIC, dash::BLOCKED));
  FillByOwner(a);
  for (auto [x, y] : Ranges(long(a.size()))) {
    SCOPED_TRACE("[" + std::to_string(x) + "," + std::to_string(y) + ")");
    FillByOwner(a);
    CheckReadOnly(a.begin() + x, a.begin() + y);
    CheckModifying(a, a.begin() + x, a.begin() + y);
  }
  auto v = a.template sub<0>(1, 3).template sub<2>(1, 2);
  FillByOwner(a);
  CheckReadOnly(v.begin(), v.end());
  CheckModifying(a, v.begin(), v.end());
  FillByOwner(a);
  CheckReadOnly(v.begin() + 5, v.end() - 3);
  CheckModifying(a, v.begin() + 5, v.end() - 3);
}

TEST(AlgorithmsNd, BadRanges) {
  dash::Matrix<long, 2> m(dash::SizeSpec<2>(6, 6),
                          dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(3)));
  dash::Matrix<long, 2> other(dash::SizeSpec<2>(6, 6),
                              dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(3)));
  EXPECT_THROW(dash::fill(m.begin() + 3, m.begin() + 1, 0L), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::fill(m.begin(), other.end(), 0L), dash::exception::InvalidArgument);
  auto blk = m.block({1, 1});
  EXPECT_THROW(dash::count(blk.end(), blk.begin(), 0L), dash::exception::InvalidArgument);
  m.barrier();
}

}  // namespace
