// dash::CSRPattern<1> and dash::LoadBalancePattern<1>: the index mapping checked for every global
// index and every local offset against a reference built here from the sizes (unit u owns [sum of
// sizes before u, + size u)), over size lists with empty units (first, last, every other, all), odd
// sizes and one unit holding everything; the blocked form against BlockPattern<1>; bad arguments;
// and dash::Array over the pattern: fill and read through local and global access on every unit,
// iterators, dash::fill, dash::min_element, dash::accumulate, an array index type other than
// the pattern's (DASH's Array<T, int, CSRPattern<1>>), and units that disagree on the sizes.
// LoadBalancePattern: shares that add up to the size for every size, follow the weights of
// the measures (the default ones and test measures with skewed and zero weights), and map as
// CSRPattern does.
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Pattern.h>
#include <dash/algorithm/Accumulate.h>
#include <dash/algorithm/Copy.h>
#include <dash/algorithm/Fill.h>
#include <dash/algorithm/ForEach.h>
#include <dash/algorithm/MinMax.h>
#include <dash/algorithm/Transform.h>
#include <dash/pattern/LoadBalancePattern.h>
#include <dash/util/TeamLocality.h>
#include <dash/view/ViewFunctions.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;
using Pattern = dash::CSRPattern<1>;
using index_t = Pattern::index_type;
using size_type = Pattern::size_type;

static_assert(dash::pattern_layout_traits<Pattern>::type::blocked, "");
static_assert(dash::pattern_layout_traits<Pattern>::type::linear, "");
static_assert(!dash::pattern_layout_traits<Pattern>::type::canonical, "");
static_assert(dash::pattern_partitioning_traits<Pattern>::type::minimal, "");
static_assert(dash::pattern_partitioning_traits<Pattern>::type::unbalanced, "");
static_assert(dash::pattern_mapping_traits<Pattern>::type::unbalanced, "");
static_assert(!dash::pattern_mapping_traits<Pattern>::type::cyclic, "");

// Size lists for P units, each named for the failure messages.
struct SizeCase {
  std::string name;
  std::vector<size_type> sizes;
};
std::vector<SizeCase> SizeCases(int p) {
  auto make = [p](auto f) {
    std::vector<size_type> s(p);
    for (int u = 0; u < p; ++u) s[u] = size_type(f(u));
    return s;
  };
  return {
      {"equal", make([](int) { return 5; })},
      {"odd", make([](int u) { return 2 * u + 3; })},
      {"first_empty", make([](int u) { return u == 0 ? 0 : u + 1; })},
      {"last_empty", make([p](int u) { return u == p - 1 ? 0 : 7 - u; })},
      {"every_other_empty", make([](int u) { return u % 2 == 0 ? 0 : 3 * u; })},
      {"all_on_last", make([p](int u) { return u == p - 1 ? 11 : 0; })},
      {"all_on_first", make([](int u) { return u == 0 ? 9 : 0; })},
      {"dash_example", make([](int u) { return ((u + 11) * 23) % 100; })},
      {"all_empty", make([](int) { return 0; })},
      {"one_each", make([](int) { return 1; })},
  };
}

// Checks every lookup of `pattern` against the reference of `sizes`; returns the number of
// mismatches and reports the first few.
template <class PatternT>
int CheckMapping(const PatternT& pattern, const std::vector<size_type>& sizes,
                 const std::string& name) {
  const int p = int(sizes.size());
  std::vector<index_t> offsets(p + 1, 0);
  for (int u = 0; u < p; ++u) offsets[u + 1] = offsets[u] + index_t(sizes[u]);
  int bad = 0;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok && ++bad <= 5) ADD_FAILURE() << name << ": " << what;
  };
  expect(pattern.size() == size_type(offsets[p]), "size");
  expect(pattern.num_units() == size_type(p), "num_units");
  expect(pattern.local_capacity() == *std::max_element(sizes.begin(), sizes.end()),
         "local_capacity");
  expect(pattern.local_size() == sizes[myid()], "local_size()");
  expect(pattern.lbegin() == offsets[myid()] && pattern.lend() == offsets[myid() + 1],
         "lbegin/lend");
  expect(pattern.blockspec().size() == size_type(p), "blockspec");
  expect(pattern.local_sizes() == sizes, "local_sizes");
  for (int u = 0; u < p; ++u) {
    const dash::team_unit_t unit(u);
    expect(pattern.local_size(unit) == sizes[u], "local_size(" + std::to_string(u) + ")");
    expect(pattern.local_extents(unit)[0] == sizes[u], "local_extents");
    auto blk = pattern.block(index_t(u));
    expect(blk.offset(0) == offsets[u] && blk.extent(0) == sizes[u],
           "block(" + std::to_string(u) + ")");
    auto lblk = pattern.local_block(unit, 0);
    expect(lblk.offset(0) == offsets[u] && lblk.extent(0) == sizes[u], "local_block");
    // Owner -> global index -> owner, for every local offset.
    for (index_t l = 0; l < index_t(sizes[u]); ++l) {
      const index_t g = offsets[u] + l;
      expect(pattern.global_index(unit, l) == g, "global_index(unit, l)");
      expect(pattern.global(unit, std::array<index_t, 1>{l})[0] == g, "global(unit, coords)");
      if (u == myid()) expect(pattern.global(l) == g, "global(l)");
    }
  }
  // Global index -> owner and offset, for every index.
  for (int u = 0; u < p; ++u) {
    for (index_t g = offsets[u]; g < offsets[u + 1]; ++g) {
      const std::string at = " at " + std::to_string(g);
      auto l = pattern.local(g);
      expect(l.unit == dash::team_unit_t(u) && l.index == g - offsets[u], "local(g)" + at);
      expect(pattern.unit_at(g) == dash::team_unit_t(u), "unit_at" + at);
      expect(pattern.at(g) == g - offsets[u], "at" + at);
      expect(pattern.block_at({g}) == u, "block_at" + at);
      auto lc = pattern.local(std::array<index_t, 1>{g});
      expect(lc.unit == dash::team_unit_t(u) && lc.coords[0] == g - offsets[u],
             "local(coords)" + at);
      auto run = pattern.local_run(g);
      expect(run.unit == dash::team_unit_t(u) && run.index == g - offsets[u] &&
                 run.run == offsets[u + 1] - g,
             "local_run" + at);
      expect(pattern.is_local(g) == (u == myid()), "is_local" + at);
      expect(pattern.global_index(l.unit, l.index) == g, "round trip" + at);
    }
  }
  // The calling unit's part of every global range [a, b).
  const index_t n = offsets[p];
  for (index_t a = 0; a <= n; ++a) {
    for (index_t b = a; b <= n; ++b) {
      auto r = pattern.local_rectangle(dash::ViewSpec<1, index_t>({a}, {size_type(b - a)}));
      const index_t lo = std::clamp(a, offsets[myid()], offsets[myid() + 1]);
      const index_t hi = std::clamp(b, offsets[myid()], offsets[myid() + 1]);
      expect(r.offset(0) == lo - offsets[myid()] && r.extent(0) == size_type(hi - lo),
             "local_rectangle [" + std::to_string(a) + ", " + std::to_string(b) + ")");
    }
  }
  return bad;
}

TEST(CSRPattern, MapsEveryIndexOfEverySizeList) {
  for (const auto& c : SizeCases(nunits())) {
    Pattern pattern(c.sizes);
    EXPECT_EQ(CheckMapping(pattern, c.sizes, c.name), 0) << c.name;
    // The same with an explicit TeamSpec and team, and with the total given as well.
    Pattern with_teamspec(c.sizes, dash::TeamSpec<1>(dash::Team::All()), dash::Team::All());
    EXPECT_TRUE(with_teamspec == pattern) << c.name;
    size_type total = std::accumulate(c.sizes.begin(), c.sizes.end(), size_type(0));
    Pattern with_total(c.sizes, total, dash::Team::All());
    EXPECT_TRUE(with_total == pattern) << c.name;
  }
}

TEST(CSRPattern, IntIndexTypeAsDashBenchmarksUseIt) {
  using IntPattern = dash::CSRPattern<1, dash::ROW_MAJOR, int>;
  std::vector<unsigned> sizes(nunits());
  for (int u = 0; u < nunits(); ++u) sizes[u] = unsigned(3 * u + 1);
  IntPattern pattern(sizes);
  int g = 0;
  for (int u = 0; u < nunits(); ++u) {
    for (unsigned l = 0; l < sizes[u]; ++l, ++g) {
      auto li = pattern.local(g);
      EXPECT_EQ(li.unit, dash::team_unit_t(u));
      EXPECT_EQ(li.index, int(l));
    }
  }
  EXPECT_EQ(pattern.size(), unsigned(g));
}

// CSRPattern<1>(n[, dist]) cuts as BlockPattern<1>(n, dist) does, for every n up to a few
// blocks past the unit count.
TEST(CSRPattern, BlockedFormMatchesBlockPattern) {
  for (size_type n = 0; n < size_type(4 * nunits() + 5); ++n) {
    for (dash::Distribution dist : {dash::BLOCKED, dash::TILE(3)}) {
      Pattern csr(n, dist);
      dash::BlockPattern<1> block(n, dash::BLOCKED);
      ASSERT_EQ(csr.size(), n);
      for (index_t g = 0; g < index_t(n); ++g) {
        EXPECT_EQ(csr.unit_at(g), block.unit_at(g)) << "n " << n << " g " << g;
        EXPECT_EQ(csr.at(g), block.at(g)) << "n " << n << " g " << g;
      }
      for (int u = 0; u < nunits(); ++u)
        EXPECT_EQ(csr.local_size(dash::team_unit_t(u)), block.local_size(dash::team_unit_t(u)));
    }
    Pattern none(dash::SizeSpec<1>(n), dash::DistributionSpec<1>(dash::NONE));
    if (nunits() == 1 || n == 0) continue;
    EXPECT_EQ(none.local_size(dash::team_unit_t(0)), n);
    EXPECT_EQ(none.local_size(dash::team_unit_t(1)), 0u);
  }
}

TEST(CSRPattern, RefusesBadArguments) {
  std::vector<size_type> one_more(nunits() + 1, 2);
  EXPECT_THROW(Pattern{one_more}, dash::exception::InvalidArgument);
  std::vector<size_type> none;
  EXPECT_THROW(Pattern{none}, dash::exception::InvalidArgument);
  std::vector<size_type> sizes(nunits(), 2);
  EXPECT_THROW(Pattern(sizes, size_type(2 * nunits() + 1)), dash::exception::InvalidArgument);
  EXPECT_THROW(Pattern(size_type(10), dash::CYCLIC), dash::exception::InvalidArgument);
  EXPECT_THROW(Pattern(size_type(10), dash::BLOCKCYCLIC(2)), dash::exception::InvalidArgument);
  Pattern p(sizes);
  EXPECT_THROW(p.local_block(1), dash::exception::OutOfRange);
  std::vector<size_type> huge(nunits(), size_type(std::numeric_limits<index_t>::max()));
  if (nunits() > 1) {
    EXPECT_THROW(Pattern{huge}, dash::exception::InvalidArgument);
  }
}

// Every unit writes its elements through local memory, then reads every element through
// global access; then every unit writes a share of the elements globally and checks its own
// locally.
TEST(CSRPatternArray, LocalAndGlobalAccessOnEveryUnit) {
  for (const auto& c : SizeCases(nunits())) {
    Pattern pattern(c.sizes);
    dash::Array<long, index_t, Pattern> arr(pattern);
    ASSERT_EQ(arr.size(), pattern.size());
    ASSERT_EQ(arr.lsize(), c.sizes[myid()]);
    const index_t first = pattern.lbegin();
    for (index_t l = 0; l < index_t(arr.lsize()); ++l) arr.local[l] = 1000 + first + l;
    arr.barrier();
    int bad = 0;
    for (index_t g = 0; g < index_t(arr.size()); ++g)
      if (long(arr[g]) != 1000 + g && ++bad <= 3) ADD_FAILURE() << c.name << " arr[" << g << "]";
    index_t g = 0;
    for (auto it = arr.begin(); it != arr.end(); ++it, ++g)
      if (long(*it) != 1000 + g && ++bad <= 3) ADD_FAILURE() << c.name << " iterator " << g;
    EXPECT_EQ(g, index_t(arr.size()));
    arr.barrier();
    for (index_t h = myid(); h < index_t(arr.size()); h += nunits()) arr[h] = -h;
    arr.flush();
    arr.barrier();
    for (index_t l = 0; l < index_t(arr.lsize()); ++l)
      if (arr.lbegin()[l] != -(first + l) && ++bad <= 3) ADD_FAILURE() << c.name << " local " << l;
    EXPECT_EQ(bad, 0) << c.name;
    arr.barrier();
  }
}

TEST(CSRPatternArray, AlgorithmsOverTheWholeArrayAndSubranges) {
  for (const auto& c : SizeCases(nunits())) {
    dash::Array<long, index_t, Pattern> arr{Pattern(c.sizes)};
    const index_t n = index_t(arr.size());
    dash::fill(arr.begin(), arr.end(), 7L);
    arr.barrier();
    EXPECT_EQ(dash::accumulate(arr.begin(), arr.end(), 0L), 7L * n) << c.name;
    // A subrange that starts and ends inside units' blocks (where there are some).
    const index_t a = n / 3, b = n - n / 4;
    dash::fill(arr.begin() + a, arr.begin() + b, 2L);
    arr.barrier();
    for (index_t g = 0; g < n; ++g)
      EXPECT_EQ(long(arr[g]), (g >= a && g < b) ? 2L : 7L) << c.name << " at " << g;
    arr.barrier();
    // Values g * (n - g) peak in the middle; the smallest is at 0 (first of the equal ones).
    for (index_t l = 0; l < index_t(arr.lsize()); ++l) {
      const index_t g = arr.pattern().global(l);
      arr.local[l] = (g - n / 2) * (g - n / 2) + 1;
    }
    arr.barrier();
    auto mn = dash::min_element(arr.begin(), arr.end());
    if (n == 0) {
      EXPECT_TRUE(mn == arr.end()) << c.name;
    } else {
      EXPECT_EQ(mn.pos(), n / 2) << c.name;
      EXPECT_EQ(long(*mn), 1L) << c.name;
    }
    auto mx = dash::max_element(arr.begin() + a, arr.begin() + b);
    std::vector<long> values(n);
    for (index_t g = 0; g < n; ++g) values[g] = (g - n / 2) * (g - n / 2) + 1;
    EXPECT_EQ(mx.pos(), std::max_element(values.begin() + a, values.begin() + b) - values.begin())
        << c.name;
    arr.barrier();
  }
}

// Ranges that start and end inside blocks, on their borders, and cross empty units.
std::vector<std::pair<index_t, index_t>> Ranges(index_t n) {
  std::vector<std::pair<index_t, index_t>> out;
  for (index_t a : {index_t(0), index_t(1), n / 3, n / 2, n - 1})
    for (index_t b : {a, a + 1, n - 2, n - 1, n})
      if (a >= 0 && a <= b && b <= n) out.push_back({a, b});
  return out;
}

// dash::copy and copy_async between global ranges and local buffers, a copy between two
// global ranges, and dash::transform in both forms: every transfer crosses unit borders where
// the sizes differ (these paths must not assume blocks of one size).
TEST(CSRPatternArray, CopyAndTransformAcrossUnitBorders) {
  for (const auto& c : SizeCases(nunits())) {
    Pattern pattern(c.sizes);
    dash::Array<long, index_t, Pattern> arr(pattern), out(pattern);
    const index_t n = index_t(arr.size());
    for (index_t l = 0; l < index_t(arr.lsize()); ++l) arr.local[l] = pattern.global(l);
    arr.barrier();
    for (auto [a, b] : Ranges(n)) {
      std::vector<long> buf(std::size_t(b - a), -1);
      dash::copy(arr.begin() + a, arr.begin() + b, buf.data());
      for (index_t k = 0; k < b - a; ++k)
        EXPECT_EQ(buf[k], a + k) << c.name << " get [" << a << ", " << b << ") at " << k;
      std::fill(buf.begin(), buf.end(), -1);
      dash::copy_async(arr.begin() + a, arr.begin() + b, buf.data()).wait();
      for (index_t k = 0; k < b - a; ++k)
        EXPECT_EQ(buf[k], a + k) << c.name << " async get [" << a << ", " << b << ")";
      // The last unit puts -(g + 1) into [a, b) of `out`, everyone checks, and `out` is reset.
      dash::fill(out.begin(), out.end(), 0L);
      out.barrier();
      if (myid() == nunits() - 1) {
        for (index_t k = 0; k < b - a; ++k) buf[k] = -(a + k + 1);
        dash::copy(buf.data(), buf.data() + (b - a), out.begin() + a);
      }
      out.barrier();
      for (index_t l = 0; l < index_t(out.lsize()); ++l) {
        const index_t g = pattern.global(l);
        EXPECT_EQ(out.local[l], (g >= a && g < b) ? -(g + 1) : 0L)
            << c.name << " put [" << a << ", " << b << ") at " << g;
      }
      out.barrier();
    }
    // Global to global: out[g] = arr[g] for all g; then out = arr + out (owner computes).
    dash::copy(arr.begin(), arr.end(), out.begin());
    out.barrier();
    for (index_t l = 0; l < index_t(out.lsize()); ++l)
      EXPECT_EQ(out.local[l], pattern.global(l)) << c.name;
    out.barrier();
    dash::transform(arr.begin(), arr.end(), out.begin(), out.begin(), dash::plus<long>());
    for (index_t l = 0; l < index_t(out.lsize()); ++l)
      EXPECT_EQ(out.local[l], 2 * pattern.global(l)) << c.name;
    out.barrier();
    // DASH's local-first form: every unit adds 1 to every element of [a, b), atomically.
    const index_t a = n / 3, b = n - n / 4;
    std::vector<long> ones(std::size_t(b - a), 1L);
    dash::transform(ones.data(), ones.data() + (b - a), out.begin() + a, out.begin() + a,
                    dash::plus<long>());
    out.barrier();
    for (index_t l = 0; l < index_t(out.lsize()); ++l) {
      const index_t g = pattern.global(l);
      EXPECT_EQ(out.local[l], 2 * g + ((g >= a && g < b) ? nunits() : 0)) << c.name << " " << g;
    }
    out.barrier();
  }
}

// Views of a CSR array: dash::blocks gives one view per unit holding elements of the range, in
// unit order; dash::local of a sub-range and for_each over a view reach the right elements.
TEST(CSRPatternArray, ViewsBlocksAndLocalParts) {
  for (const auto& c : SizeCases(nunits())) {
    Pattern pattern(c.sizes);
    dash::Array<long, index_t, Pattern> arr(pattern);
    const index_t n = index_t(arr.size());
    for (index_t l = 0; l < index_t(arr.lsize()); ++l) arr.local[l] = pattern.global(l);
    arr.barrier();
    for (auto [a, b] : Ranges(n)) {
      auto view = dash::sub<0>(a, b, arr.view());
      auto blocks = dash::blocks(view);
      index_t next = a;
      for (const auto& blk : blocks) {
        EXPECT_EQ(blk.offset(0), next) << c.name;
        EXPECT_GT(blk.extent(0), 0u) << c.name;
        const auto owner = pattern.unit_at(blk.offset(0));
        EXPECT_EQ(pattern.unit_at(blk.offset(0) + index_t(blk.extent(0)) - 1), owner) << c.name;
        next += index_t(blk.extent(0));
      }
      EXPECT_EQ(next, b) << c.name << " blocks of [" << a << ", " << b << ")";
      index_t mine = 0;
      for (long v : dash::local(view)) {
        EXPECT_EQ(pattern.unit_at(index_t(v)), pattern.myid()) << c.name;
        EXPECT_TRUE(v >= a && v < b) << c.name;
        ++mine;
      }
      const index_t lo = std::clamp(a, pattern.lbegin(), pattern.lend());
      const index_t hi = std::clamp(b, pattern.lbegin(), pattern.lend());
      EXPECT_EQ(mine, hi - lo) << c.name << " local part of [" << a << ", " << b << ")";
    }
    arr.barrier();
  }
}

// DASH's programs declare Array<T, int, CSRPattern<1>> (the array's index type differs from the
// pattern's) and allocate it later by size and distribution.
TEST(CSRPatternArray, DashStyleDeclarationAndDelayedAllocation) {
  dash::Array<unsigned long, int, Pattern> arr;
  EXPECT_EQ(arr.size(), 0u);
  const int n = 3 * nunits() + 2;
  arr.allocate(n, dash::BLOCKED);
  EXPECT_EQ(arr.size(), unsigned(n));
  auto offset = arr.pattern().global(0);
  for (unsigned i = 0; i < arr.local.size(); ++i) arr.local[i] = offset + i;
  arr.barrier();
  for (int g = 0; g < n; ++g) EXPECT_EQ((unsigned long)arr[g], (unsigned long)g);
  arr.barrier();
}

// Units passing different sizes (same total and largest size) fail the allocation on every unit
// instead of addressing each other's memory wrongly.
TEST(CSRPatternArray, UnitsThatDisagreeOnTheSizesThrow) {
  if (nunits() < 2) GTEST_SKIP() << "needs two units";
  std::vector<size_type> sizes(nunits(), 2);
  sizes[0] = myid() == 0 ? 3 : 1;
  sizes[1] = myid() == 0 ? 1 : 3;
  EXPECT_ANY_THROW((dash::Array<int, index_t, Pattern>(Pattern(sizes))));
}

// ---- LoadBalancePattern ----

// Test measures: weight u + 1, and 0 for even units (3 for odd ones).
struct RisingMeasure {
  static std::vector<double> unit_weights(const dash::util::TeamLocality& tloc) {
    std::vector<double> w(tloc.team().size());
    for (std::size_t u = 0; u < w.size(); ++u) w[u] = double(u + 1);
    return w;
  }
};
struct OddUnitsMeasure {
  static std::vector<double> unit_weights(const dash::util::TeamLocality& tloc) {
    std::vector<double> w(tloc.team().size());
    for (std::size_t u = 0; u < w.size(); ++u) w[u] = u % 2 == 1 ? 3.0 : 0.0;
    return w;
  }
};
struct NoWeightMeasure {
  static std::vector<double> unit_weights(const dash::util::TeamLocality& tloc) {
    return std::vector<double>(tloc.team().size(), 0.0);
  }
};

// Checks that `pattern`'s sizes add up to n and lie within one of n * w_u / sum(w), with the
// load weights of mean 1, and that it maps as CSRPattern of its sizes.
template <class PatternT>
void CheckShares(const PatternT& pattern, size_type n, const std::string& name) {
  const auto& w = pattern.unit_load_weights();
  ASSERT_EQ(w.size(), std::size_t(nunits())) << name;
  const double total = std::accumulate(w.begin(), w.end(), 0.0);
  EXPECT_NEAR(total, double(nunits()), 1e-9) << name;
  size_type sum = 0;
  for (int u = 0; u < nunits(); ++u) {
    const size_type s = pattern.local_size(dash::team_unit_t(u));
    const double exact = double(n) * w[u] / total;
    EXPECT_LE(std::abs(double(s) - exact), 1.0) << name << " n " << n << " unit " << u;
    sum += s;
  }
  EXPECT_EQ(sum, n) << name;
  EXPECT_EQ(pattern.size(), n) << name;
  EXPECT_EQ(CheckMapping(pattern, pattern.local_sizes(), name), 0) << name << " n " << n;
}

TEST(LoadBalancePattern, SharesAddUpAndFollowTheWeights) {
  dash::util::TeamLocality tloc(dash::Team::All());
  for (size_type n : {0, 1, 2, 3, 7, 10, 64, 101, 1000}) {
    dash::LoadBalancePattern<1> by_cores(dash::SizeSpec<1>(n), tloc);
    CheckShares(by_cores, n, "default measures");
    for (double m : by_cores.unit_membw_weights()) EXPECT_EQ(m, 1.0);
    using Rising = dash::LoadBalancePattern<1, RisingMeasure>;
    Rising rising(dash::SizeSpec<1>(n), tloc);
    CheckShares(rising, n, "rising");
    using OddUnits = dash::LoadBalancePattern<1, RisingMeasure, OddUnitsMeasure>;
    if (nunits() > 1) {
      OddUnits odd(dash::SizeSpec<1>(n), dash::Team::All());
      CheckShares(odd, n, "odd units");
      for (int u = 0; u < nunits(); u += 2) EXPECT_EQ(odd.local_size(dash::team_unit_t(u)), 0u);
    }
  }
  // Weight u + 1 over 1 + 2 + ... + P: with n a multiple of the total, exact shares.
  const size_type tri = size_type(nunits() * (nunits() + 1) / 2);
  dash::LoadBalancePattern<1, RisingMeasure> exact(dash::SizeSpec<1>(10 * tri), tloc);
  for (int u = 0; u < nunits(); ++u)
    EXPECT_EQ(exact.local_size(dash::team_unit_t(u)), size_type(10 * (u + 1)));
}

TEST(LoadBalancePattern, DefaultMeasuresFollowCoresAndThreads) {
  dash::util::TeamLocality tloc(dash::Team::All());
  dash::LoadBalancePattern<1> pattern(dash::SizeSpec<1>(1000), tloc);
  std::vector<double> cores(nunits());
  for (int u = 0; u < nunits(); ++u) {
    dash::util::UnitLocality unit(dash::Team::All(), dash::team_unit_t(u));
    const int c = unit.num_cores();
    // DART measures no clock rates: cores x threads per core.
    cores[u] = (c > 0 ? c : 1) * unit.num_threads();
  }
  const double mean = std::accumulate(cores.begin(), cores.end(), 0.0) / nunits();
  for (int u = 0; u < nunits(); ++u) {
    EXPECT_NEAR(pattern.unit_cpu_weights()[u], cores[u] / mean, 1e-9);
    EXPECT_NEAR(pattern.unit_load_weights()[u], cores[u] / mean, 1e-9);
  }
}

// DASH's way to describe other hardware (its LoadBalancePatternTest): change hwinfo() of a
// TeamLocality's unit localities. The default CPU measure follows cores x threads per core x
// clock rate of those: unit 0 with two threads at 2400 MHz, unit 1 one at 600 MHz, the others
// one at 1600 MHz. A TeamLocality of its own still sees DART's records (no clock rates).
TEST(LoadBalancePattern, CpuMeasureReadsTheTeamLocalitysChangedHardware) {
  dash::util::TeamLocality tloc(dash::Team::All());
  std::vector<double> want(nunits());
  for (int u = 0; u < nunits(); ++u) {
    auto& hw = tloc.unit_locality(dash::team_unit_t(u)).hwinfo();
    hw.min_threads = u == 0 ? 2 : 1;
    hw.max_threads = 2;
    hw.min_cpu_mhz = 600;
    hw.max_cpu_mhz = u == 0 ? 2400 : u == 1 ? 600 : 1600;
    const int c = tloc.unit_locality(dash::team_unit_t(u)).num_cores();
    want[u] = (c > 0 ? c : 1) * hw.min_threads * hw.max_cpu_mhz;
  }
  const double mean = std::accumulate(want.begin(), want.end(), 0.0) / nunits();
  const size_type n = 2017;
  dash::LoadBalancePattern<1> pattern(dash::SizeSpec<1>(n), tloc);
  for (int u = 0; u < nunits(); ++u)
    EXPECT_NEAR(pattern.unit_cpu_weights()[u], want[u] / mean, 1e-9) << "unit " << u;
  CheckShares(pattern, n, "changed hardware");
  if (nunits() > 1 && want[0] == 8 * want[1]) {
    const double ratio = double(pattern.local_size(dash::team_unit_t(0))) /
                         double(pattern.local_size(dash::team_unit_t(1)));
    EXPECT_NEAR(ratio, 8.0, 0.1);
  }
  dash::util::TeamLocality plain(dash::Team::All());
  EXPECT_EQ(plain.unit_locality(dash::team_unit_t(0)).cpu_mhz(), -1);
  dash::LoadBalancePattern<1> by_records(dash::SizeSpec<1>(n), plain);
  for (int u = 0; u < nunits(); ++u) {
    const auto& unit = plain.unit_locality(dash::team_unit_t(u));
    EXPECT_GT(by_records.unit_cpu_weights()[u], 0.0);
    EXPECT_EQ(unit.hwinfo().max_cpu_mhz, -1);
  }
}

TEST(LoadBalancePattern, RefusesWeightsThatAreAllZero) {
  using Nothing = dash::LoadBalancePattern<1, NoWeightMeasure>;
  EXPECT_THROW(Nothing(dash::SizeSpec<1>(10)), dash::exception::InvalidArgument);
}

TEST(LoadBalancePatternArray, ElementsReachEveryUnit) {
  dash::util::TeamLocality tloc(dash::Team::All());
  dash::LoadBalancePattern<1, RisingMeasure> pattern(dash::SizeSpec<1>(97), tloc);
  dash::Array<int, dash::default_index_t, decltype(pattern)> arr(pattern);
  for (auto l = 0u; l < arr.lsize(); ++l) arr.local[l] = int(pattern.global(index_t(l)));
  arr.barrier();
  for (index_t g = 0; g < 97; ++g) EXPECT_EQ(int(arr[g]), int(g));
  auto mn = dash::min_element(arr.begin(), arr.end());
  EXPECT_EQ(mn.pos(), 0);
  arr.barrier();
}

}  // namespace
