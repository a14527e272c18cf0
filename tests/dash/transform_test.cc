// dash::transform (unary, binary, DASH's local-first form) and dash::equal
// against std:: on gathered copies: between arrays of every pair of
// distributions (BLOCKED, CYCLIC, BLOCKCYCLIC(3), TilePattern TILE(4)) at
// odd sizes and offsets, in place, between matrix blocks and arrays, and
// atomic accumulation of every unit's local values; the bad inputs give
// dash::exception::InvalidArgument on every unit.
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/algorithm/Copy.h>
#include <dash/algorithm/CopyView.h>
#include <dash/algorithm/Equal.h>
#include <dash/algorithm/Fill.h>
#include <dash/algorithm/Operation.h>
#include <dash/algorithm/Transform.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

using TileArray = dash::Array<long, dash::default_index_t, dash::TilePattern<1>>;

// An array of n elements with layout k (0..3), element g = seed * 1000 + g.
struct AnyArray {
  std::unique_ptr<dash::Array<long>> plain;
  std::unique_ptr<TileArray> tiled;
  std::string name;
};

AnyArray MakeArray(int layout, long n) {
  AnyArray a;
  switch (layout) {
    case 0:
      a.plain = std::make_unique<dash::Array<long>>(n, dash::BLOCKED), a.name = "BLOCKED";
      break;
    case 1:
      a.plain = std::make_unique<dash::Array<long>>(n, dash::CYCLIC), a.name = "CYCLIC";
      break;
    case 2:
      a.plain = std::make_unique<dash::Array<long>>(n, dash::BLOCKCYCLIC(3));
      a.name = "BLOCKCYCLIC(3)";
      break;
    default:
      a.tiled = std::make_unique<TileArray>(dash::TilePattern<1>(n, dash::TILE(4)));
      a.name = "TILE(4)";
  }
  return a;
}

// Calls f(array) with the array's concrete type.
template <class F>
void With(AnyArray& a, F&& f) {
  if (a.plain)
    f(*a.plain);
  else
    f(*a.tiled);
}

template <class A>
void Init(A& arr, long seed) {
  for (std::size_t l = 0; l < arr.lsize(); ++l)
    arr.local[l] = seed * 1000 + long(arr.local.global_index(l));
  arr.barrier();
}

template <class A>
std::vector<long> Gather(A& arr) {
  std::vector<long> out(arr.size() + 1);
  dash::copy(arr.begin(), arr.end(), out.data());
  out.resize(arr.size());
  return out;
}

TEST(Transform, BinaryBetweenEveryPairOfLayouts) {
  const long n = 29;
  for (int la = 0; la < 4; ++la)
    for (int lb = 0; lb < 4; ++lb)
      for (int lo = 0; lo < 4; lo += 3) {
        AnyArray A = MakeArray(la, n), B = MakeArray(lb, n), O = MakeArray(lo == 0 ? 1 : 3, n);
        With(A, [&](auto& a) {
          With(B, [&](auto& b) {
            With(O, [&](auto& o) {
              Init(a, 1), Init(b, 2), Init(o, 3);
              auto ra = Gather(a), rb = Gather(b), ro = Gather(o);
              for (auto [x, y, z, len] : {std::array<long, 4>{0, 0, 0, n},
                                          {5, 2, 11, 17},
                                          {3, 12, 0, 1},
                                          {7, 7, 7, 0},
                                          {1, 0, 2, 27}}) {
                SCOPED_TRACE(A.name + " " + B.name + " -> " + O.name + " " + std::to_string(x) +
                             "," + std::to_string(y) + "," + std::to_string(z) + " len " +
                             std::to_string(len));
                Init(o, 3);
                auto end = dash::transform(a.begin() + x, a.begin() + x + len, b.begin() + y,
                                           o.begin() + z, [](long p, long q) { return 3 * p - q; });
                EXPECT_EQ(end.pos(), z + len);
                o.barrier();
                auto ref = ro;
                std::transform(ra.begin() + x, ra.begin() + x + len, rb.begin() + y,
                               ref.begin() + z, [](long p, long q) { return 3 * p - q; });
                EXPECT_EQ(Gather(o), ref);
                o.barrier();
              }
            });
          });
        });
      }
}

TEST(Transform, UnaryAndInPlace) {
  for (long n : {0L, 1L, 13L}) {
    for (int la = 0; la < 4; ++la)
      for (int lo = 0; lo < 4; ++lo) {
        AnyArray A = MakeArray(la, n), O = MakeArray(lo, n);
        With(A, [&](auto& a) {
          With(O, [&](auto& o) {
            SCOPED_TRACE(A.name + " -> " + O.name + " n=" + std::to_string(n));
            Init(a, 1), Init(o, 0);
            auto ra = Gather(a);
            dash::transform(a.begin(), a.end(), o.begin(), [](long v) { return v * v; });
            o.barrier();
            std::vector<long> ref(static_cast<std::size_t>(n));
            std::transform(ra.begin(), ra.end(), ref.begin(), [](long v) { return v * v; });
            EXPECT_EQ(Gather(o), ref);
            o.barrier();
            // In place: the output is the input range itself.
            dash::transform(o.begin(), o.end(), o.begin(), [](long v) { return -v; });
            dash::transform(o.begin(), o.end(), a.begin(), o.begin(), std::plus<long>());
            o.barrier();
            for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = ra[i] - ref[i];
            EXPECT_EQ(Gather(o), ref);
            o.barrier();
          });
        });
      }
  }
}

TEST(Transform, MatrixBlocksAndArrays) {
  dash::Matrix<long, 2> tm(dash::SizeSpec<2>(12, 10),
                           dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(5)));
  dash::NArray<long, 2> bm(dash::SizeSpec<2>(12, 10),
                           dash::DistributionSpec<2>(dash::CYCLIC, dash::BLOCKED));
  dash::Array<long> arr(15, dash::BLOCKCYCLIC(2));
  for (std::size_t l = 0; l < tm.lsize(); ++l)
    tm.lbegin()[l] =
        long(tm.pattern().global_index(tm.pattern().global(tm.pattern().myid(), long(l))));
  dash::fill(bm.begin(), bm.end(), 0L);
  dash::fill(arr.begin(), arr.end(), 0L);
  tm.barrier();
  auto src = tm.block({1, 1});  // rows 3..5, columns 5..9
  auto dst = bm.template sub<0>(6, 3).template sub<1>(2, 5);
  dash::transform(src.begin(), src.end(), dst.begin(), [](long v) { return v + 1; });
  dash::transform(src.begin(), src.end(), arr.begin(), [](long v) { return 2 * v; });
  bm.barrier();
  std::vector<long> got(dst.size()), got_arr(arr.size());
  dash::copy(dst.begin(), dst.end(), got.data());
  dash::copy(arr.begin(), arr.end(), got_arr.data());
  for (long r = 0; r < 3; ++r)
    for (long c = 0; c < 5; ++c) {
      // tm holds its global index (tile by tile: TilePattern's order).
      const long g = long(tm.pattern().global_index({3 + r, 5 + c}));
      EXPECT_EQ(got[std::size_t(r * 5 + c)], g + 1) << r << "," << c;
      EXPECT_EQ(got_arr[std::size_t(r * 5 + c)], 2 * g) << r << "," << c;
    }
  EXPECT_TRUE(
      dash::equal(src.begin(), src.end(), arr.begin(), [](long v, long w) { return w == 2 * v; }));
  EXPECT_FALSE(dash::equal(src.begin(), src.end(), dst.begin()));
  bm.barrier();
}

TEST(Transform, LocalFirstRangeAccumulatesAtomically) {
  for (int layout = 0; layout < 4; ++layout) {
    AnyArray O = MakeArray(layout, 23);
    With(O, [&](auto& o) {
      SCOPED_TRACE(O.name);
      Init(o, 0);
      // Every unit adds (myid + 1) * (i + 1) to elements 4 .. 4 + 17 at once.
      std::vector<long> mine(17);
      for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = (myid() + 1) * long(i + 1);
      auto end = dash::transform(mine.data(), mine.data() + mine.size(), o.begin() + 4,
                                 o.begin() + 4, dash::plus<long>());
      EXPECT_EQ(end.pos(), 21);
      o.barrier();
      const long units_sum = long(nunits()) * (nunits() + 1) / 2;
      auto got = Gather(o);
      for (long g = 0; g < 23; ++g) {
        long expect = g + (g >= 4 && g < 21 ? units_sum * (g - 4 + 1) : 0);
        EXPECT_EQ(got[std::size_t(g)], expect) << g;
      }
      o.barrier();
      // max as the operation, and the non-atomic route (out is not b) on unit 0 only.
      std::vector<long> big(3, 500 + myid());
      dash::transform(big.data(), big.data() + 3, o.begin(), o.begin(), dash::max<long>());
      o.barrier();
      got = Gather(o);
      for (long g = 0; g < 3; ++g) EXPECT_EQ(got[std::size_t(g)], 500 + nunits() - 1);
      o.barrier();
      if (myid() == 0) {
        std::vector<long> two(2, 7);
        dash::transform(two.data(), two.data() + 2, o.begin(), o.begin() + 21,
                        [](long p, long q) { return p * q; });
      }
      o.barrier();
      got = Gather(o);
      EXPECT_EQ(got[21], 7 * got[0]);
      EXPECT_EQ(got[22], 7 * got[1]);
      o.barrier();
    });
  }
}

TEST(Equal, AgainstStdAcrossLayouts) {
  const long n = 31;
  for (int la = 0; la < 4; ++la)
    for (int lb = 0; lb < 4; ++lb) {
      AnyArray A = MakeArray(la, n), B = MakeArray(lb, n + 5);
      With(A, [&](auto& a) {
        With(B, [&](auto& b) {
          SCOPED_TRACE(A.name + " vs " + B.name);
          Init(a, 0);
          // b[g + 5] == a[g]
          for (std::size_t l = 0; l < b.lsize(); ++l)
            b.local[l] = long(b.local.global_index(l)) - 5;
          b.barrier();
          EXPECT_TRUE(dash::equal(a.begin(), a.end(), b.begin() + 5));
          EXPECT_TRUE(dash::equal(a.begin() + 3, a.begin() + 3, b.begin()));
          EXPECT_FALSE(dash::equal(a.begin(), a.end(), b.begin()));
          EXPECT_TRUE(dash::equal(a.begin() + 2, a.begin() + 9, b.begin() + 3,
                                  [](long x, long y) { return x == y + 4; }));
          // One differing element, owned by the last unit, is seen by every unit.
          if (myid() == nunits() - 1 && b.lsize() > 0) b.local[b.lsize() - 1] += 1;
          b.barrier();
          EXPECT_FALSE(dash::equal(a.begin(), a.end(), b.begin() + 5));
          b.barrier();
        });
      });
    }
}

TEST(Transform, BadInputsThrowOnEveryUnit) {
  dash::Array<long> a(20), b(20);
  using dash::exception::InvalidArgument;
  auto inc = [](long v) { return v + 1; };
  EXPECT_THROW(dash::transform(a.begin() + 5, a.begin() + 2, b.begin(), inc), InvalidArgument);
  EXPECT_THROW(dash::transform(a.begin(), a.end(), b.begin() + 1, inc), InvalidArgument);
  EXPECT_THROW(dash::transform(a.begin(), b.end(), b.begin(), inc), InvalidArgument);
  // Overlapping but not the same range: would read elements already overwritten.
  EXPECT_THROW(dash::transform(a.begin(), a.begin() + 10, a.begin() + 1, inc), InvalidArgument);
  EXPECT_THROW(
      dash::transform(a.begin(), a.begin() + 10, b.begin(), a.begin() + 5, std::plus<long>()),
      InvalidArgument);
  EXPECT_THROW(dash::equal(a.begin(), a.end(), b.begin() + 3), InvalidArgument);
  std::vector<long> v(5, 1);
  EXPECT_THROW(
      dash::transform(v.data(), v.data() + 5, a.begin() + 16, a.begin() + 16, dash::plus<long>()),
      InvalidArgument);
  // Disjoint parts of one array are fine.
  dash::fill(a.begin(), a.end(), 1L);
  a.barrier();
  dash::transform(a.begin(), a.begin() + 10, a.begin() + 10, [](long v) { return v + 5; });
  a.barrier();
  EXPECT_EQ(long(a[15]), 6L);
  EXPECT_EQ(long(a[5]), 1L);
  a.barrier();
}

}  // namespace
