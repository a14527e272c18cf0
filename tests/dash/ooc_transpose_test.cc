// dash::ooc::transpose: b is a's transpose, in memory and out of core, with
// both strategies, for odd extents, several slab counts and units without
// rows; before() and after() run on every slab once; the bytes each
// strategy moves; bad input refused alike on every unit; a failure in a
// callback thrown on every unit.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/ooc/Matrix.h>
#include <dash/ooc/Transpose.h>
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "agreed_failure.h"
#include "mpi_test.h"

namespace {

using dash_test::ExpectAgreedFailure;
using dash_test::FailingSets;
using dash_test::myid;
using dash_test::nunits;
using dash_test::Why;
using Coords = std::array<long, 2>;
using dash::ooc::Rows;
using dash::ooc::Strategy;

const dash::DistributionSpec<2> kByRows(dash::BLOCKED, dash::NONE);

double Start(long i, long j) { return double(i * 1000 + j); }

// before(): adds 0.5 and checks the view's rows are the unit's; counts rows.
struct AddHalf {
  long* rows_seen;
  void operator()(const Rows<double>& r) const {
    for (long i = 0; i < r.count; ++i)
      for (long j = 0; j < r.cols; ++j) {
        ASSERT_EQ(r.row(i)[j], Start(r.first + i, j)) << "row " << r.first + i << " col " << j;
        r.row(i)[j] += 0.5;
      }
    *rows_seen += r.count;
  }
};
// after(): negates; counts rows.
struct Negate {
  long* rows_seen;
  void operator()(const Rows<double>& r) const {
    for (long i = 0; i < r.count * r.cols; ++i) r.data[i] = -r.data[i];
    *rows_seen += r.count;
  }
};

// The calling unit's rows of a by-rows pattern.
template <class P>
long MyRows(const P& pattern) {
  return pattern.local_nblocks() == 0 ? 0 : long(pattern.local_block(0).extent(0));
}

struct Case {
  long rows, cols;
  int slabs_a, slabs_b;
};

class OocTranspose : public ::testing::TestWithParam<std::tuple<Case, Strategy>> {};

TEST_P(OocTranspose, GivesTheTransposeWithTheCallbacksOnEverySlab) {
  const auto [c, strategy] = GetParam();
  // Every block needs as many rows as slabs: skip unit counts that cut finer.
  const long block_a = (c.rows + nunits() - 1) / nunits(),
             block_b = (c.cols + nunits() - 1) / nunits();
  const long last_a = c.rows - block_a * ((c.rows - 1) / block_a);
  const long last_b = c.cols - block_b * ((c.cols - 1) / block_b);
  if (std::min(block_a, last_a) < c.slabs_a || std::min(block_b, last_b) < c.slabs_b)
    GTEST_SKIP() << "a block has fewer rows than slabs at " << nunits() << " units";
  dash::ooc::Matrix<double, 2> a(dash::SizeSpec<2>(c.rows, c.cols), kByRows, dash::Team::All(),
                                 c.slabs_a);
  dash::ooc::Matrix<double, 2> b(dash::SizeSpec<2>(c.cols, c.rows), kByRows, dash::Team::All(),
                                 c.slabs_b);
  a.generate([](const Coords& g) { return Start(g[0], g[1]); });
  a.file()->flush();
  const auto a0 = a.counters(), b0 = b.counters();
  long before_rows = 0, after_rows = 0;
  const auto staging =
      dash::ooc::transpose(a, b, strategy, AddHalf{&before_rows}, Negate{&after_rows});
  EXPECT_EQ(before_rows, MyRows(a.pattern()));
  EXPECT_EQ(after_rows, MyRows(b.pattern()));
  long seen = 0;
  b.for_each([&](const Coords& g, double v) {
    ++seen;
    ASSERT_EQ(v, -(Start(g[1], g[0]) + 0.5)) << "b(" << g[0] << ", " << g[1] << ")";
  });
  EXPECT_EQ(seen, MyRows(b.pattern()) * c.rows);
  // Bytes: a read once (collective: written back and read again), the
  // staging file written and read once, b written once.
  const std::uint64_t a_bytes = std::uint64_t(MyRows(a.pattern()) * c.cols) * sizeof(double);
  const std::uint64_t b_bytes = std::uint64_t(MyRows(b.pattern()) * c.rows) * sizeof(double);
  const auto a1 = a.counters(), b1 = b.counters();
  const std::uint64_t passes = strategy == Strategy::collective ? 2 : 1;
  EXPECT_EQ(a1.bytes_read - a0.bytes_read, passes * a_bytes);
  EXPECT_EQ(a1.bytes_written - a0.bytes_written, (passes - 1) * a_bytes);
  EXPECT_EQ(staging.bytes_written, b_bytes);
  EXPECT_EQ(staging.bytes_read, b_bytes);
  EXPECT_EQ(b1.bytes_written - b0.bytes_written, b_bytes);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, OocTranspose,
    ::testing::Combine(::testing::Values(Case{13, 7, 1, 1}, Case{13, 7, 2, 1}, Case{7, 13, 1, 2},
                                         Case{16, 16, 3, 2}, Case{29, 11, 2, 3}, Case{5, 1, 1, 1},
                                         Case{26, 17, 3, 2}, Case{17, 26, 2, 3}, Case{1, 9, 1, 2}),
                       ::testing::Values(Strategy::collective, Strategy::producer)),
    [](const auto& info) {
      const Case& c = std::get<0>(info.param);
      return std::to_string(c.rows) + "x" + std::to_string(c.cols) + "_slabs" +
             std::to_string(c.slabs_a) + "_" + std::to_string(c.slabs_b) +
             (std::get<1>(info.param) == Strategy::collective ? "_collective" : "_producer");
    });

// In memory: a (rows x cols) filled with Start, transposed into b with AddHalf before and
// Negate after; checks the callbacks' row counts and every element of b on the calling unit.
void ExpectTransposedInMemory(long rows, long cols) {
  dash::Matrix<double, 2> a(dash::SizeSpec<2>(rows, cols), kByRows);
  dash::Matrix<double, 2> b(dash::SizeSpec<2>(cols, rows), kByRows);
  const long first_a = a.pattern().local_nblocks() ? long(a.pattern().local_block(0).offset(0)) : 0;
  for (long i = 0; i < MyRows(a.pattern()); ++i)
    for (long j = 0; j < cols; ++j) a.lbegin()[i * cols + j] = Start(first_a + i, j);
  long before_rows = 0, after_rows = 0;
  dash::ooc::transpose(a, b, AddHalf{&before_rows}, Negate{&after_rows});
  EXPECT_EQ(before_rows, MyRows(a.pattern()));
  EXPECT_EQ(after_rows, MyRows(b.pattern()));
  const long first_b = b.pattern().local_nblocks() ? long(b.pattern().local_block(0).offset(0)) : 0;
  for (long i = 0; i < MyRows(b.pattern()); ++i)
    for (long j = 0; j < rows; ++j)
      ASSERT_EQ(b.lbegin()[i * rows + j], -(Start(j, first_b + i) + 0.5))
          << "b(" << first_b + i << ", " << j << ")";
  dash::barrier();
}

TEST(OocTransposeInCore, GivesTheTransposeAlsoWithUnitsWithoutRows) {
  for (const auto& [rows, cols] :
       std::vector<std::pair<long, long>>{{13, 7}, {7, 13}, {3, 2}, {1, 1}, {2, 9}}) {
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols));
    ExpectTransposedInMemory(rows, cols);
  }
}

// A unit's rows beyond 8 MiB go in several rounds (uneven slabs); before() sees each slab.
TEST(OocTransposeInCore, InRoundsOfAbout8MiB_GivesTheTranspose) {
  constexpr long rows = 2053, cols = 4099;  // 67 MB of doubles: 3 to 9 rounds at 1 to 4 units
  dash::Matrix<double, 2> probe(dash::SizeSpec<2>(rows, cols), kByRows);
  const auto layout = dash::ooc::internal::row_layout(probe.pattern(), 1, "test", "a");
  ASSERT_GT(dash::ooc::internal::in_memory_rounds(layout, sizeof(double)), 2);
  ExpectTransposedInMemory(rows, cols);
}

TEST(OocTransposeInCore, WithoutCallbacksMovesTheValues) {
  dash::Matrix<int, 2> a(dash::SizeSpec<2>(9, 5), kByRows), b(dash::SizeSpec<2>(5, 9), kByRows);
  const long first = a.pattern().local_nblocks() ? long(a.pattern().local_block(0).offset(0)) : 0;
  for (long i = 0; i < MyRows(a.pattern()); ++i)
    for (long j = 0; j < 5; ++j) a.lbegin()[i * 5 + j] = int((first + i) * 10 + j);
  dash::ooc::transpose(a, b);
  dash::barrier();
  for (long r = 0; r < 5; ++r)
    for (long c = 0; c < 9; ++c) ASSERT_EQ(int(b(r, c)), int(c * 10 + r)) << r << ", " << c;
  dash::barrier();
}

TEST(OocTransposeBadInput, IsRefusedOnEveryUnit) {
  dash::ooc::Matrix<double, 2> a(dash::SizeSpec<2>(8, 6), kByRows, dash::Team::All(), 1);
  dash::ooc::Matrix<double, 2> b(dash::SizeSpec<2>(6, 8), kByRows, dash::Team::All(), 1);
  dash::ooc::Matrix<double, 2> square(dash::SizeSpec<2>(8, 8), kByRows, dash::Team::All(), 1);
  auto message_of = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const dash::exception::InvalidArgument& e) {
      return e.what();
    }
    return "no InvalidArgument";
  };
  EXPECT_NE(message_of([&] {
              dash::ooc::transpose(a, square, Strategy::producer);
            }).find("b is 8 x 8, the transpose of a needs 6 x 8"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              dash::ooc::transpose(a, b, Strategy::demand);
            }).find("strategy demand (collective or producer)"),
            std::string::npos);
  if (nunits() > 1) {
    dash::ooc::Matrix<double, 2> by_cols(dash::SizeSpec<2>(6, 8),
                                         dash::DistributionSpec<2>(dash::NONE, dash::BLOCKED),
                                         dash::Team::All(), 1);
    EXPECT_NE(message_of([&] {
                dash::ooc::transpose(a, by_cols, Strategy::collective);
              }).find("b is not distributed by rows"),
              std::string::npos);
    dash::Matrix<double, 2> tiles(dash::SizeSpec<2>(8, 6),
                                  dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED));
    dash::Matrix<double, 2> in_b(dash::SizeSpec<2>(6, 8), kByRows);
    const std::string m = message_of([&] { dash::ooc::transpose(tiles, in_b); });
    if (dash::bp::internal::block_grid(tiles.pattern())[1] > 1) {
      EXPECT_NE(m.find("a is not distributed by rows"), std::string::npos) << m;
    }
  }
  // Nothing moved, and the matrices work afterwards.
  a.generate([](const Coords& g) { return Start(g[0], g[1]); });
  dash::ooc::transpose(a, b, Strategy::producer);
  b.for_each([](const Coords& g, double v) { ASSERT_EQ(v, Start(g[1], g[0])); });
}

void FailIfOneOf(const std::set<int>& failing) {
  if (failing.count(myid())) throw std::runtime_error(Why(myid()));
}

TEST(OocTransposeFailure, InACallbackIsThrownOnEveryUnit) {
  const long n = 4 * nunits();  // every unit has rows, two slabs of them
  dash::ooc::Matrix<double, 2> a(dash::SizeSpec<2>(n, n), kByRows, dash::Team::All(), 2);
  dash::ooc::Matrix<double, 2> b(dash::SizeSpec<2>(n, n), kByRows, dash::Team::All(), 2);
  dash::Matrix<double, 2> ia(dash::SizeSpec<2>(n, n), kByRows),
      ib(dash::SizeSpec<2>(n, n), kByRows);
  for (const std::set<int>& failing : FailingSets()) {
    SCOPED_TRACE("lowest failing unit " + std::to_string(*failing.begin()));
    for (Strategy s : {Strategy::collective, Strategy::producer}) {
      ExpectAgreedFailure(
          [&] {
            dash::ooc::transpose(a, b, s, [&](const Rows<double>&) { FailIfOneOf(failing); });
          },
          failing, "dash::ooc::transpose");
      ExpectAgreedFailure(
          [&] {
            dash::ooc::transpose(a, b, s, dash::ooc::NoRows{},
                                 [&](const Rows<double>&) { FailIfOneOf(failing); });
          },
          failing, "dash::ooc::transpose");
    }
    ExpectAgreedFailure(
        [&] { dash::ooc::transpose(ia, ib, [&](const Rows<double>&) { FailIfOneOf(failing); }); },
        failing, "dash::ooc::transpose");
    ExpectAgreedFailure(
        [&] {
          dash::ooc::transpose(ia, ib, dash::ooc::NoRows{},
                               [&](const Rows<double>&) { FailIfOneOf(failing); });
        },
        failing, "dash::ooc::transpose");
  }
  // The matrices work afterwards.
  a.generate([](const Coords& g) { return Start(g[0], g[1]); });
  dash::ooc::transpose(a, b, Strategy::collective);
  b.for_each([](const Coords& g, double v) { ASSERT_EQ(v, Start(g[1], g[0])); });
}

}  // namespace
