// STL-style algorithms over global ranges of dash::Array (Fill.h, Generate.h,
// ForEach.h, Iota.h, Accumulate.h, MinMax.h, Find.h, Count.h, Predicates.h):
// every algorithm against its std:: counterpart on a gathered copy of the
// same data, for BLOCKED, CYCLIC, BLOCKCYCLIC(3) and a TilePattern<1>
// TILE(4) array of sizes 0, 1, 7 and 100, on sub-ranges starting and ending
// inside blocks, empty ranges, ties for min/max and predicates matching
// nothing. Results are checked on every unit.
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/algorithm/Accumulate.h>
#include <dash/algorithm/Copy.h>
#include <dash/algorithm/Count.h>
#include <dash/algorithm/Fill.h>
#include <dash/algorithm/Find.h>
#include <dash/algorithm/ForEach.h>
#include <dash/algorithm/Generate.h>
#include <dash/algorithm/Iota.h>
#include <dash/algorithm/LocalRange.h>
#include <dash/algorithm/MinMax.h>
#include <dash/algorithm/Operation.h>
#include <dash/algorithm/Predicates.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

// Values 0..12 with many ties (the period 13 repeats within 100 elements).
long Value(long g) { return (g * 7 + 3) % 13; }

template <class ArrayT>
void FillByOwner(ArrayT& arr) {
  for (std::size_t l = 0; l < arr.lsize(); ++l) arr.local[l] = Value(arr.local.global_index(l));
  arr.barrier();
}

template <class ArrayT>
std::vector<long> Gather(ArrayT& arr) {
  std::vector<long> out(arr.size() + 1);
  dash::copy(arr.begin(), arr.end(), out.data());
  out.resize(arr.size());
  return out;
}

// Ranges [a, b) of an array of n elements: empty, one element, starting and
// ending inside blocks, whole.
std::vector<std::pair<long, long>> Ranges(long n) {
  std::vector<std::pair<long, long>> out;
  for (long a : {0L, 1L, n / 2 + 1, n})
    for (long b : {a, a + 1, n - 1, n})
      if (0 <= a && a <= b && b <= n &&
          std::find(out.begin(), out.end(), std::make_pair(a, b)) == out.end())
        out.emplace_back(a, b);
  return out;
}

// Calls f(arr, label) for every layout and size.
template <class F>
void ForEachLayout(F&& f) {
  for (long n : {0L, 1L, 7L, 100L}) {
    const char* names[] = {"BLOCKED", "CYCLIC", "BLOCKCYCLIC(3)"};
    int i = 0;
    for (auto dist : {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(3)}) {
      dash::Array<long> arr(n, dist);
      f(arr, std::string(names[i++]) + " n=" + std::to_string(n));
    }
    using Pattern = dash::TilePattern<1>;
    dash::Array<long, dash::default_index_t, Pattern> tiled(Pattern(n, dash::TILE(4)));
    f(tiled, "TilePattern TILE(4) n=" + std::to_string(n));
  }
}

bool Never(long) { return false; }

TEST(Algorithms, ReadOnlyAgainstStd) {
  ForEachLayout([](auto& arr, const std::string& layout) {
    FillByOwner(arr);
    const std::vector<long> all = Gather(arr);
    for (auto [a, b] : Ranges(long(arr.size()))) {
      SCOPED_TRACE(layout + " [" + std::to_string(a) + ", " + std::to_string(b) + ")");
      auto first = arr.begin() + a, last = arr.begin() + b;
      auto rf = all.begin() + a, rl = all.begin() + b;

      EXPECT_EQ(dash::accumulate(first, last, 5L), std::accumulate(rf, rl, 5L));
      EXPECT_EQ(dash::reduce(first, last, 5L), std::accumulate(rf, rl, 5L));
      EXPECT_EQ(dash::accumulate(first, last, 100L, dash::min<long>()),
                std::accumulate(rf, rl, 100L, [](long x, long y) { return std::min(x, y); }));
      EXPECT_EQ(dash::reduce(first, last, -1L, dash::max<long>()),
                std::accumulate(rf, rl, -1L, [](long x, long y) { return std::max(x, y); }));
      // Operations without a DART op take the allgather route.
      auto plus = [](long x, long y) { return x + y; };
      auto bxor = [](long x, long y) { return x ^ y; };
      EXPECT_EQ(dash::accumulate(first, last, 7L, plus), std::accumulate(rf, rl, 7L, plus));
      EXPECT_EQ(dash::accumulate(first, last, 7L, bxor), std::accumulate(rf, rl, 7L, bxor));
      EXPECT_NEAR(dash::accumulate(first, last, 2.0, dash::multiply<double>()),
                  std::accumulate(rf, rl, 2.0, std::multiplies<double>()),
                  1e-12 * std::fabs(std::accumulate(rf, rl, 2.0, std::multiplies<double>())));

      auto mn = dash::min_element(first, last);
      auto mx = dash::max_element(first, last);
      EXPECT_EQ(mn.pos(), std::min_element(rf, rl) - all.begin());
      EXPECT_EQ(mx.pos(), std::max_element(rf, rl) - all.begin());
      EXPECT_EQ(dash::min_element(first, last, std::greater<long>()).pos(),
                std::min_element(rf, rl, std::greater<long>()) - all.begin());
      EXPECT_EQ(dash::max_element(first, last, std::greater<long>()).pos(),
                std::max_element(rf, rl, std::greater<long>()) - all.begin());
      if (a < b) {
        EXPECT_EQ(long(*mn), *std::min_element(rf, rl));
      }

      const long mid = a < b ? all[std::size_t((a + b) / 2)] : 0L;
      for (long v : {mid, 0L, 12L, 99L}) {  // 99 matches nothing
        EXPECT_EQ(dash::find(first, last, v).pos(), std::find(rf, rl, v) - all.begin()) << v;
        EXPECT_EQ(dash::count(first, last, v), std::count(rf, rl, v)) << v;
      }
      auto big = [](long x) { return x > 10; };
      auto even = [](long x) { return x % 2 == 0; };
      auto nonneg = [](long x) { return x >= 0; };
      EXPECT_EQ(dash::find_if(first, last, big).pos(), std::find_if(rf, rl, big) - all.begin());
      EXPECT_EQ(dash::find_if(first, last, Never).pos(), b);
      EXPECT_EQ(dash::count_if(first, last, even), std::count_if(rf, rl, even));
      EXPECT_EQ(dash::count_if(first, last, Never), 0);
      EXPECT_EQ(dash::all_of(first, last, nonneg), std::all_of(rf, rl, nonneg));
      EXPECT_EQ(dash::all_of(first, last, even), std::all_of(rf, rl, even));
      EXPECT_EQ(dash::any_of(first, last, big), std::any_of(rf, rl, big));
      EXPECT_EQ(dash::any_of(first, last, Never), false);
      EXPECT_EQ(dash::none_of(first, last, big), std::none_of(rf, rl, big));
      EXPECT_EQ(dash::none_of(first, last, Never), true);
    }
    arr.barrier();
  });
}

TEST(Algorithms, ModifyingAgainstStd) {
  ForEachLayout([](auto& arr, const std::string& layout) {
    using I = dash::default_index_t;
    for (auto [a, b] : Ranges(long(arr.size()))) {
      SCOPED_TRACE(layout + " [" + std::to_string(a) + ", " + std::to_string(b) + ")");
      auto first = arr.begin() + a, last = arr.begin() + b;
      std::vector<long> ref(arr.size());
      for (long g = 0; g < long(ref.size()); ++g) ref[g] = Value(g);
      auto rf = ref.begin() + a, rl = ref.begin() + b;
      // Runs op on the array and ref_op on the reference, then compares.
      auto check = [&](const char* what, auto op, auto ref_op) {
        FillByOwner(arr);
        for (long g = 0; g < long(ref.size()); ++g) ref[g] = Value(g);
        op();
        ref_op();
        arr.barrier();
        EXPECT_EQ(Gather(arr), ref) << what;
        arr.barrier();
      };
      check(
          "fill", [&] { dash::fill(first, last, -4L); }, [&] { std::fill(rf, rl, -4L); });
      check(
          "iota", [&] { dash::iota(first, last, 10L); }, [&] { std::iota(rf, rl, 10L); });
      std::size_t calls = 0;
      check(
          "generate",
          [&] {
            dash::generate(first, last, [&] {
              ++calls;
              return 42L;
            });
          },
          [&] { std::generate(rf, rl, [] { return 42L; }); });
      auto idx = dash::local_index_range(first, last);
      EXPECT_EQ(calls, std::size_t(idx.end - idx.begin)) << "generate called per local element";
      check(
          "generate_with_index",
          [&] { dash::generate_with_index(first, last, [](I g) { return long(g) * 2; }); },
          [&] {
            for (long g = a; g < b; ++g) ref[g] = g * 2;
          });
      check(
          "for_each", [&] { dash::for_each(first, last, [](long& x) { x += 1000; }); },
          [&] { std::for_each(rf, rl, [](long& x) { x += 1000; }); });
      check(
          "for_each_with_index",
          [&] { dash::for_each_with_index(first, last, [](long& x, I g) { x = x * 100 + g; }); },
          [&] {
            for (long g = a; g < b; ++g) ref[g] = ref[g] * 100 + g;
          });
    }
  });
}

TEST(Algorithms, ConstIteratorsDoublesAndUnallocated) {
  dash::Array<double> arr(37, dash::BLOCKCYCLIC(4));
  dash::for_each_with_index(arr.begin(), arr.end(), [](double& x, long g) { x = 0.5 * g; });
  arr.barrier();
  const dash::Array<double>& carr = arr;
  // Sums of multiples of 0.5 are exact in any order.
  EXPECT_EQ(dash::accumulate(carr.begin() + 3, carr.end() - 2, 1.0), 1.0 + 0.5 * (3 + 34) * 32 / 2);
  EXPECT_EQ(dash::max_element(carr.begin(), carr.end()).pos(), 36);
  EXPECT_EQ(dash::find(carr.begin(), carr.end(), 10.0).pos(), 20);
  EXPECT_EQ(dash::count_if(carr.begin(), carr.end(), [](double x) { return x < 5; }), 10);
  arr.barrier();

  dash::Array<long> none;  // not allocated: empty everywhere, no collective
  EXPECT_EQ(dash::accumulate(none.begin(), none.end(), 3L), 3L);
  EXPECT_EQ(dash::count(none.begin(), none.end(), 1L), 0);
  EXPECT_EQ(dash::min_element(none.begin(), none.end()), none.end());
  EXPECT_TRUE(dash::all_of(none.begin(), none.end(), Never));
  dash::fill(none.begin(), none.end(), 1L);
}

// Element types of several sizes and alignments for the fill below: 8 B, 16 B aligned to 8,
// 1 B and 3 B.
struct Pair {
  double x, y;
  bool operator==(const Pair& o) const { return x == o.x && y == o.y; }
};
struct Rgb {
  unsigned char r, g, b;
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
};

// Fills a sub-range that starts and ends inside the units' runs of more than 1 MiB, then checks
// every local element: inside the range the value, outside it untouched.
template <class T>
void CheckLargeFill(const T& before, const T& value) {
  const long per_unit = long((std::size_t(1) << 20) / sizeof(T)) + 5;
  dash::Array<T> arr(per_unit * nunits(), dash::BLOCKED);
  std::fill(arr.lbegin(), arr.lend(), before);
  arr.barrier();
  const long a = 3, b = per_unit * nunits() - 7;
  dash::fill(arr.begin() + a, arr.begin() + b, value);
  long wrong = 0, first_wrong = -1;  // counted, so a failing unit still meets the barrier
  for (std::size_t l = 0; l < arr.lsize(); ++l) {
    const long g = long(arr.local.global_index(l));
    if (!(arr.lbegin()[l] == ((g >= a && g < b) ? value : before))) {
      if (wrong++ == 0) first_wrong = g;
    }
  }
  EXPECT_EQ(wrong, 0) << "elements of size " << sizeof(T) << " wrong, the first at " << first_wrong;
  arr.barrier();
}

TEST(Algorithms, FillOfLargeRunsEveryElementSize) {
  CheckLargeFill<double>(1.0, -2.5);
  CheckLargeFill<Pair>(Pair{1, 2}, Pair{-3, 4.5});
  CheckLargeFill<char>('a', 'z');
  CheckLargeFill<Rgb>(Rgb{1, 2, 3}, Rgb{250, 7, 9});
}

TEST(Algorithms, AllUnitsAgreeOnTiesAcrossUnits) {
  // Every element equal: the first of the range wins, whoever owns it.
  dash::Array<int> arr(4 * nunits() + 3, dash::CYCLIC);
  dash::fill(arr.begin(), arr.end(), 7);
  arr.barrier();
  for (long a : {0L, 1L, 2L}) {
    EXPECT_EQ(dash::min_element(arr.begin() + a, arr.end()).pos(), a);
    EXPECT_EQ(dash::max_element(arr.begin() + a, arr.end()).pos(), a);
  }
  EXPECT_EQ(dash::accumulate(arr.begin(), arr.end(), 0), 7 * int(arr.size()));
  // Units without elements of the range are skipped (a zero partial would
  // turn this product into 0).
  auto times = [](int x, int y) { return x * y; };
  EXPECT_EQ(dash::accumulate(arr.begin() + 1, arr.begin() + 3, 2, times), 2 * 7 * 7);
  EXPECT_EQ(dash::accumulate(arr.begin() + 1, arr.begin() + 1, 2, times), 2);
  arr.barrier();
}

}  // namespace

// DASH's forms on native ranges: reduce of every unit's own [lbegin, lend) is collective (init
// counted once, units without elements skipped, a custom operation folded in unit order, DASH's
// non_empty flag accepted);
// min_element / max_element of a native range are local and return a pointer into it.
namespace {
TEST(Algorithms, DashLocalRangeForms) {
  const long n = nunits(), me = dash_test::myid();
  // Unit u holds u + 1 elements except the last unit, which holds none (if n > 1).
  std::vector<long> mine(std::size_t(me == n - 1 && n > 1 ? 0 : me + 1));
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = 10 * me + long(i);
  long expected = 7;
  std::vector<long> all;
  for (long u = 0; u < n; ++u)
    for (long i = 0; i < (u == n - 1 && n > 1 ? 0 : u + 1); ++i) {
      expected += 10 * u + i;
      all.push_back(10 * u + i);
    }
  EXPECT_EQ(dash::reduce(mine.data(), mine.data() + mine.size(), 7L), expected);
  EXPECT_EQ(dash::reduce(mine.begin(), mine.end(), 7L, dash::plus<long>()), expected);
  // DASH's non_empty flag (with and without an operation) changes nothing: empty units are
  // always left out.
  EXPECT_EQ(dash::reduce(mine.data(), mine.data() + mine.size(), 7L, true), expected);
  EXPECT_EQ(dash::reduce(mine.data(), mine.data() + mine.size(), 7L, false, dash::Team::All()),
            expected);
  EXPECT_EQ(dash::reduce(mine.begin(), mine.end(), 7L, dash::plus<long>(), true), expected);
  EXPECT_EQ(dash::reduce(
                mine.begin(), mine.end(), 7L, [](long x, long y) { return x + y; }, false,
                dash::Team::All()),
            expected);
  // A custom operation without a DART op, associative but not commutative (composing affine
  // maps t -> a t + b mod p), so the unit order shows.
  struct Affine {
    long a, b;
  };
  auto compose = [](Affine f, Affine g) {
    const long p = 1000003;
    return Affine{(g.a * f.a) % p, (g.a * f.b + g.b) % p};
  };
  std::vector<Affine> maps;
  for (long v : mine) maps.push_back(Affine{v + 2, v});
  Affine folded{1, 0};
  for (long v : all) folded = compose(folded, Affine{v + 2, v});
  const Affine got = dash::reduce(maps.data(), maps.data() + maps.size(), Affine{1, 0}, compose);
  EXPECT_EQ(got.a, folded.a);
  EXPECT_EQ(got.b, folded.b);
  std::vector<double> values = {3.5, -2.0 - double(me), 8.0, -2.0 - double(me)};
  const double* lo = dash::min_element(values.data(), values.data() + values.size());
  const double* hi = dash::max_element(values.data(), values.data() + values.size());
  EXPECT_EQ(lo, values.data() + 1);  // first of the smallest, a local pointer
  EXPECT_EQ(hi, values.data() + 2);
  EXPECT_EQ(dash::min_element(values.data(), values.data()), values.data());
  dash::barrier();
}
}  // namespace
