// dash::sort against std::stable_sort on a gathered copy: every distribution
// (BLOCKED, CYCLIC, BLOCKCYCLIC(3), TilePattern TILE(4)) at sizes 0, 1, 2,
// 7, 100 and 1000, sub-ranges starting and ending inside blocks, sorted,
// reverse-sorted, all-equal and duplicate-heavy inputs, a descending
// comparator, records sorted by part of their value (stability: the result
// must be std::stable_sort's exactly), and blocks and sub-views of matrices.
// Every unit checks the whole result.
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/algorithm/Copy.h>
#include <dash/algorithm/CopyView.h>
#include <dash/algorithm/Sort.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;

// A record ordered by key only; tag tells equal keys apart.
struct Rec {
  int key;
  int tag;
  bool operator==(const Rec& o) const { return key == o.key && tag == o.tag; }
};
bool ByKey(const Rec& a, const Rec& b) { return a.key < b.key; }

std::ostream& operator<<(std::ostream& os, const Rec& r) {
  return os << "{" << r.key << "," << r.tag << "}";
}

// Input generators by global index g of n.
using Gen = long (*)(long g, long n);
long Random(long g, long) { return long((g * 2654435761u) % 1000); }
long FewValues(long g, long) { return long((g * 40503u) % 5); }
long Sorted(long g, long) { return g; }
long Reversed(long g, long n) { return n - g; }
long Equal(long, long) { return 7; }

template <class A, class F>
void SetByOwner(A& arr, F&& value_of) {
  for (std::size_t l = 0; l < arr.lsize(); ++l)
    arr.local[l] = value_of(long(arr.local.global_index(l)));
  arr.barrier();
}

template <class A>
std::vector<typename A::value_type> Gather(A& arr) {
  std::vector<typename A::value_type> out(arr.size() + 1);
  dash::copy(arr.begin(), arr.end(), out.data());
  out.resize(arr.size());
  return out;
}

template <class F>
void ForEachLayout(long n, F&& f) {
  const char* names[] = {"BLOCKED", "CYCLIC", "BLOCKCYCLIC(3)"};
  int i = 0;
  for (auto dist : {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(3)}) {
    dash::Array<long> arr(n, dist);
    f(arr, std::string(names[i++]));
  }
  using Pattern = dash::TilePattern<1>;
  dash::Array<long, dash::default_index_t, Pattern> tiled(Pattern(n, dash::TILE(4)));
  f(tiled, "TILE(4)");
}

TEST(Sort, ArraysAgainstStd) {
  const std::pair<const char*, Gen> inputs[] = {{"random", Random},
                                                {"few values", FewValues},
                                                {"sorted", Sorted},
                                                {"reversed", Reversed},
                                                {"all equal", Equal}};
  for (long n : {0L, 1L, 2L, 7L, 100L, 1000L}) {
    ForEachLayout(n, [&](auto& arr, const std::string& layout) {
      for (auto [name, gen] : inputs) {
        std::vector<std::pair<long, long>> ranges = {{0, n}};
        if (n > 6) ranges.push_back({1, n - 2});
        if (n > 20) ranges.push_back({n / 2 - 5, n / 2 + 6});
        for (auto [a, b] : ranges) {
          SCOPED_TRACE(layout + " n=" + std::to_string(n) + " " + name + " [" + std::to_string(a) +
                       "," + std::to_string(b) + ")");
          SetByOwner(arr, [&](long g) { return gen(g, n); });
          auto ref = Gather(arr);
          arr.barrier();
          dash::sort(arr.begin() + a, arr.begin() + b);
          std::stable_sort(ref.begin() + a, ref.begin() + b);
          EXPECT_EQ(Gather(arr), ref);
          arr.barrier();
          dash::sort(arr.begin() + a, arr.begin() + b, std::greater<long>());
          std::stable_sort(ref.begin() + a, ref.begin() + b, std::greater<long>());
          EXPECT_EQ(Gather(arr), ref);
          arr.barrier();
        }
      }
    });
  }
}

TEST(Sort, StableForEqualKeysOnAnyUnitCount) {
  for (long n : {5L, 64L, 501L}) {
    for (auto dist : {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(7)}) {
      dash::Array<Rec> arr(n, dist);
      SetByOwner(arr, [&](long g) { return Rec{int(FewValues(g, n)), int(g)}; });
      auto ref = Gather(arr);
      arr.barrier();
      dash::sort(arr.begin(), arr.end(), ByKey);
      std::stable_sort(ref.begin(), ref.end(), ByKey);
      EXPECT_EQ(Gather(arr), ref) << "n=" << n;
      arr.barrier();
    }
  }
}

TEST(Sort, MatrixBlocksAndViews) {
  using TileMatrix = dash::Matrix<double, 2>;
  using BlockMatrix = dash::NArray<double, 2>;
  auto run = [](auto& m, auto view, const std::string& label) {
    SCOPED_TRACE(label);
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> dist(-1, 1);
    std::vector<double> all(m.size());
    for (double& x : all) x = dist(rng);
    // Element with global index g gets all[g] (same on every unit).
    const auto& pat = m.pattern();
    for (std::size_t l = 0; l < m.lsize(); ++l)
      m.lbegin()[l] = all[std::size_t(pat.global_index(pat.global(pat.myid(), long(l))))];
    m.barrier();
    std::vector<double> ref(view.size());
    dash::copy(view.begin(), view.end(), ref.data());
    m.barrier();
    dash::sort(view.begin(), view.end());
    std::stable_sort(ref.begin(), ref.end());
    std::vector<double> got(view.size());
    dash::copy(view.begin(), view.end(), got.data());
    EXPECT_EQ(got, ref);
    // Elements outside the view are untouched.
    std::size_t outside = 0;
    for (std::size_t l = 0; l < m.lsize(); ++l) {
      auto c = pat.global(pat.myid(), long(l));
      bool in = true;
      for (int d = 0; d < 2; ++d)
        in = in && c[d] >= view.offset(d) && c[d] < view.offset(d) + long(view.extent(d));
      if (!in) {
        ++outside;
        EXPECT_EQ(m.lbegin()[l], all[std::size_t(pat.global_index(c))]);
      }
    }
    m.barrier();
  };
  TileMatrix tm(dash::SizeSpec<2>(13, 11), dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(4)));
  run(tm, tm.block({1, 1}), "tile block {1,1}");
  run(tm, tm.template sub<0>(2, 9).template sub<1>(1, 7), "tile sub-view");
  run(tm, tm.view(), "whole tile matrix");
  BlockMatrix bm(dash::SizeSpec<2>(10, 9),
                 dash::DistributionSpec<2>(dash::BLOCKCYCLIC(2), dash::CYCLIC));
  run(bm, bm.template sub<1>(2, 5), "block-cyclic columns");
  run(bm, bm.row(3), "one row");
}

}  // namespace
