// dash::bp::RegularDecomposer and the block assignment: for 1-D, 2-D and
// 3-D boxes and block counts 1..64 (primes, powers of two, odd composites),
// the blocks partition the domain exactly (every cell in one block), extents
// along a dimension differ by at most one, the divisions are the balanced
// grid where it fits the domain and the least-surface grid of Decomposer.h
// where the domain is too thin for it (thin 1-D, 2-D and 3-D domains, against
// a brute-force search over every grid; counts no grid fits are refused);
// neighbour links are symmetric and have the right counts
// with and without corners and periodicity; every block has exactly one
// owner under both assignments, matching local_gids; bad arguments throw.
#include <dash/Exception.h>
#include <dash/bp/Decomposer.h>
#include <dash/pattern/BalancedGrid.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

namespace {

using dash::bp::Assignment;
using dash::bp::Box;
using dash::bp::RegularDecomposer;

template <dash::dim_t N>
void CheckPartition(const RegularDecomposer<N>& dec) {
  const Box<N>& dom = dec.domain();
  long product = 1;
  for (dash::dim_t d = 0; d < N; ++d) product *= dec.divisions()[d];
  ASSERT_EQ(product, dec.nblocks());
  long cells = 0;
  for (int g = 0; g < dec.nblocks(); ++g) {
    EXPECT_EQ(dec.gid(dec.coords(g)), g);
    Box<N> b = dec.bounds(g);
    cells += b.size();
    for (dash::dim_t d = 0; d < N; ++d) {
      const long e = dom.extent(d), parts = dec.divisions()[d];
      EXPECT_GE(b.extent(d), e / parts);
      EXPECT_LE(b.extent(d), (e + parts - 1) / parts);
    }
  }
  EXPECT_EQ(cells, dom.size());
  // Every cell lies in exactly one block (small domains only).
  if (dom.size() <= 4096) {
    std::array<long, N> c = dom.min;
    for (long k = 0; k < dom.size(); ++k) {
      long rest = k;
      for (dash::dim_t d = N; d-- > 0;) {
        c[d] = dom.min[d] + rest % dom.extent(d);
        rest /= dom.extent(d);
      }
      int hits = 0;
      for (int g = 0; g < dec.nblocks(); ++g) hits += dec.bounds(g).contains(c);
      ASSERT_EQ(hits, 1) << "cell " << k;
    }
  }
}

template <dash::dim_t N>
void CheckNeighbors(const RegularDecomposer<N>& dec, bool corners) {
  for (int g = 0; g < dec.nblocks(); ++g) {
    auto n = dec.neighbors(g, corners);
    EXPECT_TRUE(std::is_sorted(n.begin(), n.end()));
    EXPECT_EQ(std::find(n.begin(), n.end(), g), n.end()) << "no self link";
    for (int h : n) {
      auto back = dec.neighbors(h, corners);
      EXPECT_NE(std::find(back.begin(), back.end(), g), back.end()) << g << " -> " << h;
    }
  }
}

TEST(Decomposer, PartitionsForManyShapesAndCounts) {
  for (int b : {1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 16, 24, 30, 64}) {
    SCOPED_TRACE("blocks " + std::to_string(b));
    CheckPartition(RegularDecomposer<1>({{3}, {100}}, b));
    CheckPartition(RegularDecomposer<2>({{0, 0}, {17, 40}}, b));
    CheckPartition(RegularDecomposer<3>({{0, -5, 2}, {9, 11, 16}}, b));
  }
}

TEST(Decomposer, DivisionsAreTheBalancedGridLongestDimensionFirst) {
  // 8 blocks of a 64 x 64 x 64 cube: 2 x 2 x 2; 12 blocks: 3 x 2 x 2 in DART's order.
  EXPECT_EQ(RegularDecomposer<3>({{0, 0, 0}, {64, 64, 64}}, 8).divisions(),
            (std::array<int, 3>{2, 2, 2}));
  EXPECT_EQ(RegularDecomposer<3>({{0, 0, 0}, {64, 64, 64}}, 12).divisions(),
            (std::array<int, 3>{3, 2, 2}));
  // The largest factor goes along the longest dimension.
  EXPECT_EQ(RegularDecomposer<3>({{0, 0, 0}, {16, 256, 16}}, 12).divisions(),
            (std::array<int, 3>{2, 3, 2}));
  EXPECT_EQ(RegularDecomposer<2>({{0, 0}, {10, 1000}}, 72).divisions(), (std::array<int, 2>{8, 9}));
  // Too thin for the balanced grid (4 x 4 over 64 x 2 cells): factors to the longest blocks.
  EXPECT_EQ(RegularDecomposer<2>({{0, 0}, {64, 2}}, 16).divisions(), (std::array<int, 2>{16, 1}));
  EXPECT_EQ(RegularDecomposer<3>({{0, 0, 0}, {3, 100, 100}}, 64).divisions(),
            (std::array<int, 3>{1, 8, 8}));
  // Fixed divisions are kept, the rest chosen.
  EXPECT_EQ(RegularDecomposer<2>({{0, 0}, {100, 100}}, 12, {}, {3, 0}).divisions(),
            (std::array<int, 2>{3, 4}));
  EXPECT_EQ(RegularDecomposer<3>({{0, 0, 0}, {100, 100, 100}}, 24, {}, {0, 2, 0}).divisions(),
            (std::array<int, 3>{4, 2, 3}));
}

// The balanced grid laid along a domain's extents, as the decomposer would take it.
template <dash::dim_t N>
std::array<int, N> BalancedGridFor(const Box<N>& domain, int nblocks) {
  std::vector<long> extents;
  for (dash::dim_t d = 0; d < N; ++d) extents.push_back(domain.extent(d));
  const auto factors = dash::internal::balanced_factors_for_extents(std::size_t(nblocks), extents);
  std::array<int, N> grid;
  for (dash::dim_t d = 0; d < N; ++d) grid[d] = int(factors[d]);
  return grid;
}

// Whether a grid puts at most one block per cell along every dimension.
template <dash::dim_t N>
bool Fits(const Box<N>& domain, const typename RegularDecomposer<N>::coords_type& grid) {
  for (dash::dim_t d = 0; d < N; ++d)
    if (grid[d] > domain.extent(d)) return false;
  return true;
}

// Non-cubic domains where the balanced grid fits take it, its largest factor
// along the longest dimension; the blocks tile the domain.
TEST(Decomposer, NonCubicDomainsThatFit_TakeTheBalancedGrid) {
  struct Case2 {
    Box<2> domain;
    int nblocks;
    std::array<int, 2> grid;
  };
  for (const Case2& c :
       {Case2{{{0, 0}, {10, 1000}}, 72, {8, 9}}, Case2{{{0, 0}, {1000, 10}}, 72, {9, 8}},
        Case2{{{0, 0}, {12, 5}}, 12, {4, 3}}, Case2{{{0, 0}, {2, 3}}, 6, {2, 3}},
        Case2{{{0, 0}, {3, 40}}, 5, {1, 5}}, Case2{{{0, 0}, {7, 2}}, 7, {7, 1}},
        Case2{{{0, 0}, {1, 1000}}, 7, {1, 7}}}) {
    SCOPED_TRACE(std::to_string(c.nblocks) + " blocks over " + std::to_string(c.domain.max[0]) +
                 " x " + std::to_string(c.domain.max[1]));
    const RegularDecomposer<2> dec(c.domain, c.nblocks);
    EXPECT_EQ(dec.divisions(), c.grid);
    EXPECT_EQ(dec.divisions(), BalancedGridFor(c.domain, c.nblocks));
    CheckPartition(dec);
  }
  struct Case3 {
    Box<3> domain;
    int nblocks;
    std::array<int, 3> grid;
  };
  for (const Case3& c :
       {Case3{{{0, 0, 0}, {1, 4, 9}}, 6, {1, 2, 3}}, Case3{{{0, 0, 0}, {100, 2, 3}}, 12, {3, 2, 2}},
        Case3{{{0, 0, 0}, {1, 1, 5}}, 5, {1, 1, 5}}}) {
    SCOPED_TRACE(std::to_string(c.nblocks) + " blocks over " + std::to_string(c.domain.max[0]) +
                 " x " + std::to_string(c.domain.max[1]) + " x " + std::to_string(c.domain.max[2]));
    const RegularDecomposer<3> dec(c.domain, c.nblocks);
    EXPECT_EQ(dec.divisions(), c.grid);
    EXPECT_EQ(dec.divisions(), BalancedGridFor(c.domain, c.nblocks));
    CheckPartition(dec);
  }
}

// Domains too thin for the balanced grid (it would put more blocks along a
// dimension than cells) take the least-surface grid of Decomposer.h. The
// blocks tile the domain; a prime block count above every extent, or a count
// no grid fits, is refused.
TEST(Decomposer, DomainsTooThinForTheBalancedGrid_TakeTheLeastSurfaceGrid) {
  struct Case2 {
    Box<2> domain;
    int nblocks;
    std::array<int, 2> grid;
  };
  // 72 over 12 x 6: 12 x 6 blocks of one cell, the only grid that fits (the
  // balanced grid is 9 x 8). 36 over 4 x 9: 4 x 9 (the balanced 6 x 6 does not
  // fit; assigning prime factors to the longest blocks gave 3 x 12 and was
  // refused). 72 over 6 x 20: 4 x 18 (surface 4/6 + 18/20) beats 6 x 12.
  for (const Case2& c :
       {Case2{{{0, 0}, {12, 6}}, 72, {12, 6}}, Case2{{{0, 0}, {7, 1000}}, 72, {1, 72}},
        Case2{{{0, 0}, {2, 100}}, 12, {1, 12}}, Case2{{{0, 0}, {1, 100}}, 6, {1, 6}},
        Case2{{{0, 0}, {4, 9}}, 36, {4, 9}}, Case2{{{0, 0}, {9, 4}}, 36, {9, 4}},
        Case2{{{0, 0}, {6, 20}}, 72, {4, 18}}}) {
    SCOPED_TRACE(std::to_string(c.nblocks) + " blocks over " + std::to_string(c.domain.max[0]) +
                 " x " + std::to_string(c.domain.max[1]));
    ASSERT_FALSE(Fits(c.domain, BalancedGridFor(c.domain, c.nblocks)));
    const RegularDecomposer<2> dec(c.domain, c.nblocks);
    EXPECT_EQ(dec.divisions(), c.grid);
    CheckPartition(dec);
  }
  struct Case3 {
    Box<3> domain;
    int nblocks;
    std::array<int, 3> grid;
  };
  // 72 over 2 x 30 x 30: 1 x 9 x 8 (surface 1/2 + 17/30; prime factors to the
  // longest blocks gave 1 x 12 x 6, 1/2 + 18/30). 12 over 1 x 50 x 50: 1 x 4 x
  // 3, the way a 50 x 50 domain takes 4 x 3 (equal extents: the lower
  // dimension gets more blocks).
  for (const Case3& c : {Case3{{{0, 0, 0}, {2, 30, 30}}, 72, {1, 9, 8}},
                         Case3{{{0, 0, 0}, {1, 50, 50}}, 12, {1, 4, 3}},
                         Case3{{{0, 0, 0}, {30, 2, 30}}, 72, {9, 1, 8}}}) {
    SCOPED_TRACE(std::to_string(c.nblocks) + " blocks over " + std::to_string(c.domain.max[0]) +
                 " x " + std::to_string(c.domain.max[1]) + " x " + std::to_string(c.domain.max[2]));
    ASSERT_FALSE(Fits(c.domain, BalancedGridFor(c.domain, c.nblocks)));
    const RegularDecomposer<3> dec(c.domain, c.nblocks);
    EXPECT_EQ(dec.divisions(), c.grid);
    CheckPartition(dec);
  }
  EXPECT_EQ(RegularDecomposer<2>({{0, 0}, {50, 50}}, 12).divisions(), (std::array<int, 2>{4, 3}));
  using dash::exception::InvalidArgument;
  EXPECT_THROW(RegularDecomposer<3>({{0, 0, 0}, {4, 4, 4}}, 5), InvalidArgument);
  EXPECT_THROW(RegularDecomposer<2>({{0, 0}, {2, 3}}, 7), InvalidArgument);
  EXPECT_THROW(RegularDecomposer<2>({{0, 0}, {2, 2}}, 6), InvalidArgument);
}

// The reference for thin domains: every grid of nblocks blocks with at most
// one block per cell along each dimension, tried one by one; the least
// surface (sum of d_i / e_i, compared exactly as fractions over the product of
// the extents), then the most blocks along the longest dimension, the next
// longest, ... (equal extents: the lower dimension first). Empty if no grid
// fits. Small extents only.
template <dash::dim_t N>
std::vector<int> BruteForceGrid(const Box<N>& domain, int nblocks) {
  long all = 1;
  for (dash::dim_t d = 0; d < N; ++d) all *= domain.extent(d);
  std::vector<dash::dim_t> order(N);
  for (dash::dim_t d = 0; d < N; ++d) order[d] = d;
  std::stable_sort(order.begin(), order.end(), [&](dash::dim_t a, dash::dim_t b) {
    return domain.extent(a) > domain.extent(b);
  });
  std::vector<int> best, grid(N, 1);
  long best_surface = 0;
  for (;;) {
    long product = 1, surface = 0;
    for (dash::dim_t d = 0; d < N; ++d) {
      product *= grid[d];
      surface += grid[d] * (all / domain.extent(d));
    }
    if (product == nblocks) {
      bool better = best.empty() || surface < best_surface;
      if (!better && surface == best_surface) {
        for (dash::dim_t d : order) {
          if (grid[d] != best[d]) {
            better = grid[d] > best[d];
            break;
          }
        }
      }
      if (better) best = grid, best_surface = surface;
    }
    dash::dim_t d = 0;  // the next grid, every count from 1 to the extent
    while (d < N && grid[d] == domain.extent(d)) grid[d++] = 1;
    if (d == N) break;
    ++grid[d];
  }
  return best;
}

// Every thin domain of small extents and block counts up to 72: the decomposer
// takes the brute-force grid, or throws exactly when there is none; the blocks
// tile the domain. Returns the thin cases tried and how many of them were refused.
template <dash::dim_t N>
std::pair<int, int> CheckThinDomainsAgainstBruteForce(const std::vector<Box<N>>& domains) {
  int thin = 0, refused = 0;
  for (const Box<N>& domain : domains) {
    for (int b = 1; b <= 72; ++b) {
      if (Fits(domain, BalancedGridFor(domain, b))) continue;
      ++thin;
      std::string name = std::to_string(b) + " blocks over";
      for (dash::dim_t d = 0; d < N; ++d) name += " " + std::to_string(domain.extent(d));
      SCOPED_TRACE(name);
      const std::vector<int> expected = BruteForceGrid(domain, b);
      if (expected.empty()) {
        ++refused;
        EXPECT_THROW(RegularDecomposer<N>(domain, b), dash::exception::InvalidArgument);
        continue;
      }
      const RegularDecomposer<N> dec(domain, b);
      EXPECT_EQ(std::vector<int>(dec.divisions().begin(), dec.divisions().end()), expected);
      CheckPartition(dec);
    }
  }
  return {thin, refused};
}

TEST(Decomposer, ThinDomainsTakeTheBruteForceLeastSurfaceGrid) {
  // 1-D: the balanced grid is the count itself, so a thin case is a count above the cells.
  const auto line = CheckThinDomainsAgainstBruteForce<1>({Box<1>{{0}, {5}}, Box<1>{{2}, {9}}});
  EXPECT_GT(line.first, 0);
  EXPECT_EQ(line.second, line.first);
  std::vector<Box<2>> flat;
  for (long x : {1, 2, 3, 4, 6, 7})
    for (long y : {1, 4, 9, 12, 30}) flat.push_back(Box<2>{{0, 0}, {x, y}});
  const auto plane = CheckThinDomainsAgainstBruteForce<2>(flat);
  EXPECT_GT(plane.second, 0) << "some counts must be refused";
  EXPECT_GT(plane.first, plane.second) << "some thin domains must take a grid";
  std::vector<Box<3>> slabs;
  for (long x : {1, 2, 3})
    for (long y : {2, 5, 8})
      for (long z : {4, 9}) slabs.push_back(Box<3>{{0, -3, 5}, {x, y - 3, z + 5}});
  const auto space = CheckThinDomainsAgainstBruteForce<3>(slabs);
  EXPECT_GT(space.second, 0) << "some counts must be refused";
  EXPECT_GT(space.first, space.second) << "some thin domains must take a grid";
}

// A block count no grid fits is refused with a message naming it and the
// domain's cells: a prime above every extent, a count whose factors cannot be
// spread (6 over 2 x 2), one over the cells of a 1-D domain.
TEST(Decomposer, CountsNoGridFitsAreRefusedNamingTheCountAndTheCells) {
  const auto message = [](auto make) -> std::string {
    try {
      make();
    } catch (const dash::exception::InvalidArgument& e) {
      return e.what();
    }
    return "no exception";
  };
  const std::string prime = message([] { RegularDecomposer<2>({{0, 0}, {4, 9}}, 11); });
  EXPECT_NE(prime.find("11 blocks"), std::string::npos) << prime;
  EXPECT_NE(prime.find("4 x 9"), std::string::npos) << prime;
  const std::string spread = message([] { RegularDecomposer<3>({{0, 0, 0}, {2, 2, 1}}, 6); });
  EXPECT_NE(spread.find("6 blocks"), std::string::npos) << spread;
  EXPECT_NE(spread.find("2 x 2 x 1"), std::string::npos) << spread;
  EXPECT_THROW(RegularDecomposer<1>({{0}, {5}}, 6), dash::exception::InvalidArgument);
  // With a division given, the rest over the other dimensions: 2 x (3 over 2 cells) fails,
  // 2 x (2 over 2 cells) fits.
  EXPECT_THROW(RegularDecomposer<2>({{0, 0}, {10, 2}}, 6, {}, {2, 0}),
               dash::exception::InvalidArgument);
  EXPECT_EQ(RegularDecomposer<2>({{0, 0}, {10, 2}}, 4, {}, {2, 0}).divisions(),
            (std::array<int, 2>{2, 2}));
}

TEST(Decomposer, NeighborCounts) {
  RegularDecomposer<3> dec({{0, 0, 0}, {30, 30, 30}}, 27);  // 3 x 3 x 3
  const int center = dec.gid({1, 1, 1});
  EXPECT_EQ(dec.neighbors(center).size(), 6u);
  EXPECT_EQ(dec.neighbors(center, true).size(), 26u);
  EXPECT_EQ(dec.neighbors(dec.gid({0, 0, 0})).size(), 3u);
  EXPECT_EQ(dec.neighbors(dec.gid({0, 0, 0}), true).size(), 7u);
  RegularDecomposer<3> periodic({{0, 0, 0}, {30, 30, 30}}, 27, {true, true, true});
  EXPECT_EQ(periodic.neighbors(periodic.gid({0, 0, 0})).size(), 6u);
  EXPECT_EQ(periodic.neighbors(periodic.gid({0, 0, 0}), true).size(), 26u);
  // Two blocks along a periodic dimension: the other block once; one block: none.
  RegularDecomposer<1> two({{0}, {10}}, 2, {true});
  EXPECT_EQ(two.neighbors(0), std::vector<int>{1});
  RegularDecomposer<1> one({{0}, {10}}, 1, {true});
  EXPECT_TRUE(one.neighbors(0).empty());
  for (int b : {1, 2, 5, 12, 27}) {
    for (bool corners : {false, true}) {
      CheckNeighbors(RegularDecomposer<2>({{0, 0}, {20, 20}}, b), corners);
      CheckNeighbors(RegularDecomposer<3>({{0, 0, 0}, {12, 12, 12}}, b, {true, false, true}),
                     corners);
    }
  }
}

TEST(Decomposer, AssignmentGivesEveryBlockOneOwner) {
  for (int units : {1, 2, 3, 4, 7}) {
    for (int b : {1, 3, 4, 10, 16, 33}) {
      for (Assignment a : {Assignment::contiguous, Assignment::round_robin}) {
        std::vector<int> owner_of(std::size_t(b), -1);
        std::size_t least = std::size_t(b), most = 0;
        for (int u = 0; u < units; ++u) {
          auto mine = dash::bp::local_gids(u, b, units, a);
          least = std::min(least, mine.size());
          most = std::max(most, mine.size());
          for (int g : mine) {
            EXPECT_EQ(owner_of[std::size_t(g)], -1) << "block " << g << " owned twice";
            owner_of[std::size_t(g)] = u;
            EXPECT_EQ(dash::bp::owner(g, b, units, a), u) << "block " << g;
          }
        }
        for (int g = 0; g < b; ++g) EXPECT_GE(owner_of[std::size_t(g)], 0) << "block " << g;
        EXPECT_LE(most - least, 1u) << "units " << units << " blocks " << b;
      }
    }
  }
}

TEST(Decomposer, BadArgumentsThrow) {
  using dash::exception::InvalidArgument;
  EXPECT_THROW(RegularDecomposer<2>({{0, 0}, {10, 10}}, 0), InvalidArgument);
  EXPECT_THROW(RegularDecomposer<2>({{0, 0}, {10, 0}}, 2), InvalidArgument);
  EXPECT_THROW(RegularDecomposer<2>({{0, 0}, {10, 10}}, 6, {}, {4, 0}), InvalidArgument);
  EXPECT_THROW(RegularDecomposer<2>({{0, 0}, {10, 10}}, 6, {}, {2, 2}), InvalidArgument);
  EXPECT_THROW(RegularDecomposer<1>({{0}, {5}}, 7), InvalidArgument);
}

}  // namespace
