// dash::bp::of(matrix) and dash::bp::exchange_halos: over dash::Matrix
// (TilePattern, row- and column-major; ShiftTilePattern) and dash::NArray (BlockPattern) in
// 1-D, 2-D and 3-D with BLOCKED / BLOCKCYCLIC / TILE / NONE distributions and
// odd extents (smaller last blocks), swept over halo widths 1 and 2, corners
// off/on and periodic none/all/first dimension only:
//   - every pattern block is held by exactly one unit, the one owning it;
//     box, gid and links match a brute-force computation from the pattern;
//   - after an exchange every halo cell holds the value at its global
//     neighbour coordinates (wrapped where periodic), and cells no block
//     fills (beyond a non-periodic boundary, corners when off) keep what
//     they held; a second exchange after writing through native access
//     sees the new values;
//   - writes through data() + strides() change the matrix as every unit
//     sees it;
//   - a width beyond an adjacent block's extent (swept configurations where
//     the unit count makes a last block thin, and fixed ones) and a negative
//     width throw on every unit.
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/Team.h>
#include <dash/bp/ContainerBlocks.h>
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::dim_t;
using dash::bp::HaloSpec;
using dash_test::myid;
using dash_test::nunits;

constexpr long kUntouched = -7;

// Value at global coordinates g (never 0 or negative), shifted by `round`.
template <dim_t N>
long Value(const std::array<long, N>& g, long round = 0) {
  long v = 0;
  for (dim_t d = 0; d < N; ++d) v = v * 1000 + g[d];
  return 1 + v + round * 100000000L;
}

template <class M>
constexpr dim_t RankOf = M::ndim();

// Fills the calling unit's local memory with Value(global coordinates).
template <class M>
void Fill(M& m, long round) {
  constexpr dim_t N = RankOf<M>;
  m.barrier();
  const auto& pattern = m.pattern();
  for (std::size_t l = 0; l < m.lsize(); ++l) {
    auto g = pattern.global(pattern.myid(), long(l));
    std::array<long, N> c;
    for (dim_t d = 0; d < N; ++d) c[d] = long(g[d]);
    m.lbegin()[l] = Value<N>(c, round);
  }
  m.barrier();
}

// Calls f(i) for every i in [lo, hi), row-major.
template <dim_t N, class F>
void ForEach(const std::array<long, N>& lo, const std::array<long, N>& hi, F&& f) {
  dash::bp::internal::for_each_cell<N>(lo, hi, f);
}

// The halo ring of block b: block-local coordinates in [-w, extent + w)
// outside the block.
template <class Block, class F>
void ForEachHaloCell(const Block& b, F&& f) {
  constexpr dim_t N = dim_t(std::tuple_size<typename Block::coords_type>::value);
  std::array<long, N> lo, hi;
  for (dim_t d = 0; d < N; ++d) lo[d] = -b.halo_width(), hi[d] = b.extent(d) + b.halo_width();
  ForEach<N>(lo, hi, [&](const std::array<long, N>& i) {
    for (dim_t d = 0; d < N; ++d)
      if (i[d] < 0 || i[d] >= b.extent(d)) return f(i);
  });
}

// What halo cell i of block b must hold after an exchange: the value at its
// global coordinates, or kUntouched where no block fills it.
template <class Block, dim_t N>
long ExpectedHalo(const Block& b, const std::array<long, N>& i,
                  const std::array<std::size_t, N>& extents, const HaloSpec<N>& spec, long round) {
  std::array<long, N> g;
  int outside = 0;
  for (dim_t d = 0; d < N; ++d) {
    g[d] = b.box().min[d] + i[d];
    outside += i[d] < 0 || i[d] >= b.extent(d);
    const long e = long(extents[d]);
    if (g[d] < 0 || g[d] >= e) {
      if (!spec.periodic[d]) return kUntouched;
      g[d] = (g[d] + e) % e;
    }
  }
  if (outside > 1 && !spec.corners) return kUntouched;
  return Value<N>(g, round);
}

// Blocks of the grid next to block coordinates c: some direction s != 0
// (one non-zero component unless corners) with c + s = other, wrapped in
// periodic dimensions. Brute force over all blocks.
template <dim_t N>
std::vector<int> ExpectedLink(const std::array<long, N>& c, const std::array<std::size_t, N>& grid,
                              const HaloSpec<N>& spec) {
  long nblocks = 1;
  for (auto e : grid) nblocks *= long(e);
  std::vector<int> out;
  for (int other = 0; other < nblocks; ++other) {
    std::array<long, N> oc;
    for (int d = N - 1, rest = other; d >= 0; --d) oc[d] = rest % long(grid[d]), rest /= grid[d];
    if (oc == c) continue;
    bool adjacent = false;
    for (int k = 0; k < dash::bp::internal::pow3(N) && !adjacent; ++k) {
      std::array<int, N> s;
      int nonzero = 0;
      for (int d = N - 1, rest = k; d >= 0; --d) s[d] = rest % 3 - 1, rest /= 3;
      for (auto x : s) nonzero += x != 0;
      if (nonzero == 0 || (nonzero > 1 && !spec.corners)) continue;
      bool match = true;
      for (dim_t d = 0; d < N && match; ++d) {
        const long g = long(grid[d]);
        match = spec.periodic[d] ? ((c[d] + s[d] - oc[d]) % g + g) % g == 0 : c[d] + s[d] == oc[d];
      }
      adjacent = match;
    }
    if (adjacent) out.push_back(other);
  }
  return out;
}

// Counts cells where the blocks' halos differ from what they must hold; the
// first few mismatches are reported.
template <class M, class MasterT>
long CheckHalos(MasterT& master, const M& m, const HaloSpec<RankOf<M>>& spec, long round) {
  constexpr dim_t N = RankOf<M>;
  long wrong = 0;
  for (std::size_t k = 0; k < master.size(); ++k) {
    auto& b = master.block(k);
    std::array<long, N> ext;
    for (dim_t d = 0; d < N; ++d) ext[d] = b.extent(d);
    ForEach<N>({}, ext, [&](const std::array<long, N>& i) {
      std::array<long, N> g;
      for (dim_t d = 0; d < N; ++d) g[d] = b.box().min[d] + i[d];
      if (b(i) != Value<N>(g, round) && wrong++ < 5)
        ADD_FAILURE() << "block " << b.gid() << " interior cell " << ::testing::PrintToString(i);
    });
    ForEachHaloCell(b, [&](const std::array<long, N>& i) {
      const long expected =
          ExpectedHalo<std::decay_t<decltype(b)>, N>(b, i, m.extents(), spec, round);
      if (b(i) != expected && wrong++ < 5)
        ADD_FAILURE() << "block " << b.gid() << " halo cell " << ::testing::PrintToString(i)
                      << " holds " << b(i) << ", expected " << expected;
    });
  }
  return wrong;
}

// Blocks, links and halos of m for one halo spec.
template <class M>
void CheckBlocksOf(M& m, const HaloSpec<RankOf<M>>& spec) {
  constexpr dim_t N = RankOf<M>;
  SCOPED_TRACE("width " + std::to_string(spec.width) + (spec.corners ? " corners" : "") +
               " periodic " + ::testing::PrintToString(spec.periodic));
  Fill(m, 0);
  auto master = dash::bp::of(m, spec);
  const auto& pattern = m.pattern();
  const auto grid = pattern.blockspec().extents();
  long nblocks = 1;
  for (auto e : grid) nblocks *= long(e);
  EXPECT_EQ(master.nblocks(), nblocks);

  // Every block on exactly one unit, its owner.
  std::vector<long> held(std::size_t(nblocks), 0), total(std::size_t(nblocks), 0);
  int previous = -1;
  for (std::size_t k = 0; k < master.size(); ++k) {
    auto& b = master.block(k);
    EXPECT_EQ(b.gid(), master.gid(k));
    EXPECT_GT(b.gid(), previous) << "blocks in increasing gid";
    previous = b.gid();
    held[std::size_t(b.gid())] += 1;
    typename M::coords_type bc;
    int gid = 0;
    for (dim_t d = 0; d < N; ++d) {
      bc[d] = b.block_coords()[d];
      gid = gid * int(grid[d]) + int(bc[d]);
    }
    EXPECT_EQ(b.gid(), gid);
    const auto view = pattern.block(bc);
    for (dim_t d = 0; d < N; ++d) {
      EXPECT_EQ(b.box().min[d], long(view.offset(d)));
      EXPECT_EQ(b.extent(d), long(view.extent(d)));
    }
    EXPECT_EQ(int(pattern.unit_at(view.offsets()).id), myid());
    EXPECT_EQ(master.owner(b.gid()), myid());
    EXPECT_EQ(master.proxy(k).link(), ExpectedLink<N>(b.block_coords(), grid, spec))
        << "block " << b.gid();
    if (pattern.distspec().is_tiled() &&
        std::string(M::pattern_type::PatternName) == "TilePattern" &&
        M::pattern_type::memory_order() == dash::ROW_MAJOR) {
      EXPECT_TRUE(b.contiguous()) << "a row-major tile is one run";
    }
  }
  if (nblocks > 0) {
    EXPECT_EQ(DART_OK, dart_allreduce(held.data(), total.data(), std::size_t(nblocks),
                                      DART_TYPE_LONG, DART_OP_SUM, DART_TEAM_ALL));
  }
  for (long g = 0; g < nblocks; ++g) EXPECT_EQ(total[std::size_t(g)], 1) << "block " << g;
  for (long g = 0; g < nblocks; ++g) {
    typename M::coords_type bc;
    for (int d = N - 1, rest = int(g); d >= 0; --d) bc[d] = rest % long(grid[d]), rest /= grid[d];
    EXPECT_EQ(master.owner(int(g)), int(pattern.unit_at(pattern.block(bc).offsets()).id));
  }

  // Halos after an exchange; untouched cells keep kUntouched.
  auto reset_halos = [&] {
    master.foreach ([](auto& b, dash::bp::Proxy&) {
      ForEachHaloCell(b, [&](const std::array<long, N>& i) { b(i) = kUntouched; });
    });
  };
  reset_halos();
  dash::bp::exchange_halos(master);
  EXPECT_EQ(CheckHalos(master, m, spec, 0), 0);

  // Write round 1 through native access, exchange again.
  m.barrier();
  master.foreach ([](auto& b, dash::bp::Proxy&) {
    std::array<long, N> ext;
    for (dim_t d = 0; d < N; ++d) ext[d] = b.extent(d);
    ForEach<N>({}, ext, [&](const std::array<long, N>& i) {
      long at = 0;
      std::array<long, N> g;
      for (dim_t d = 0; d < N; ++d) at += i[d] * b.strides()[d], g[d] = b.box().min[d] + i[d];
      b.data()[at] = Value<N>(g, 1);
    });
  });
  m.barrier();
  reset_halos();
  dash::bp::exchange_halos(master);
  EXPECT_EQ(CheckHalos(master, m, spec, 1), 0);
  m.barrier();
}

// Writes through the blocks' native access change the matrix as every unit
// reads it.
template <class M>
void CheckNativeWrites(M& m) {
  constexpr dim_t N = RankOf<M>;
  Fill(m, 0);
  auto master = dash::bp::of(m, HaloSpec<N>{});
  master.foreach ([](auto& b, dash::bp::Proxy&) {
    std::array<long, N> ext;
    for (dim_t d = 0; d < N; ++d) ext[d] = b.extent(d);
    ForEach<N>({}, ext, [&](const std::array<long, N>& i) {
      std::array<long, N> g;
      for (dim_t d = 0; d < N; ++d) g[d] = b.box().min[d] + i[d];
      b(i) = -Value<N>(g);
    });
  });
  m.barrier();
  std::array<long, N> ext;
  for (dim_t d = 0; d < N; ++d) ext[d] = long(m.extent(d));
  long wrong = 0;
  ForEach<N>({}, ext, [&](const std::array<long, N>& g) {
    typename M::coords_type c;
    for (dim_t d = 0; d < N; ++d) c[d] = g[d];
    if (long(m.ref(c)) != -Value<N>(g) && wrong++ < 5)
      ADD_FAILURE() << "element " << ::testing::PrintToString(g);
  });
  EXPECT_EQ(wrong, 0);
  m.barrier();
}

// True if some block has a neighbour along a dimension in which some block
// is thinner than the halo width (of() must reject that). Brute force over
// all blocks.
template <class M>
bool HaloReachesPastNeighbor(const M& m, const HaloSpec<RankOf<M>>& spec) {
  constexpr dim_t N = RankOf<M>;
  const auto grid = m.pattern().blockspec().extents();
  for (dim_t d = 0; d < N; ++d) {
    if (grid[d] < 2 && !spec.periodic[d]) continue;
    for (long j = 0; j < long(grid[d]); ++j) {
      typename M::coords_type bc{};
      bc[d] = j;
      if (long(m.pattern().block(bc).extent(d)) < spec.width) return true;
    }
  }
  return false;
}

// All halo specs: widths 1 and 2, corners off/on, periodic none/all/first.
template <class M>
void Sweep(M& m) {
  constexpr dim_t N = RankOf<M>;
  for (int width : {1, 2})
    for (bool corners : {false, true})
      for (int periodic = 0; periodic < 3; ++periodic) {
        HaloSpec<N> spec;
        spec.width = width;
        spec.corners = corners;
        for (dim_t d = 0; d < N; ++d) spec.periodic[d] = periodic == 1 || (periodic == 2 && d == 0);
        if (HaloReachesPastNeighbor(m, spec)) {
          EXPECT_THROW(dash::bp::of(m, spec), dash::exception::InvalidArgument);
          continue;
        }
        CheckBlocksOf(m, spec);
      }
  CheckNativeWrites(m);
}

template <dim_t N>
using Tiled = dash::Matrix<long, N>;
template <dim_t N>
using Blocked = dash::NArray<long, N>;

TEST(BlocksOf, OneDimensional_HalosLinksAndNativeAccess) {
  {
    SCOPED_TRACE("23 BLOCKED");
    Blocked<1> a(dash::SizeSpec<1>(23), dash::DistributionSpec<1>(dash::BLOCKED));
    Sweep(a);
  }
  {
    SCOPED_TRACE("23 BLOCKCYCLIC(4), several blocks per unit");
    Blocked<1> a(dash::SizeSpec<1>(23), dash::DistributionSpec<1>(dash::BLOCKCYCLIC(4)));
    Sweep(a);
  }
  {
    SCOPED_TRACE("6 BLOCKED, at 4 units one unit has no block");
    Blocked<1> a(dash::SizeSpec<1>(6), dash::DistributionSpec<1>(dash::BLOCKED));
    Sweep(a);
  }
  {
    SCOPED_TRACE("17 TILE(5), tile pattern");
    Tiled<1> a(dash::SizeSpec<1>(17), dash::DistributionSpec<1>(dash::TILE(5)));
    Sweep(a);
  }
}

TEST(BlocksOf, TwoDimensionalTiles_HalosLinksAndNativeAccess) {
  {
    SCOPED_TRACE("14x11 TILE(3)xTILE(4)");
    Tiled<2> m(dash::SizeSpec<2>(14, 11), dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(4)));
    Sweep(m);
  }
  {
    SCOPED_TRACE("10x9 TILE(4)xTILE(3), column-major");
    dash::Matrix<long, 2, dash::default_index_t, dash::TilePattern<2, dash::COL_MAJOR>> m(
        dash::SizeSpec<2>(10, 9), dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
    Sweep(m);
  }
  {
    SCOPED_TRACE("11x10 TILE(3)xTILE(4), ShiftTilePattern");
    dash::Matrix<long, 2, dash::default_index_t, dash::ShiftTilePattern<2>> m(
        dash::SizeSpec<2>(11, 10), dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(4)));
    Sweep(m);
  }
}

TEST(BlocksOf, TwoDimensionalBlocks_HalosLinksAndNativeAccess) {
  {
    SCOPED_TRACE("13x11 BLOCKEDxBLOCKED");
    Blocked<2> a(dash::SizeSpec<2>(13, 11),
                 dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED));
    Sweep(a);
  }
  {
    SCOPED_TRACE("14x11 BLOCKCYCLIC(3)xBLOCKCYCLIC(3)");
    Blocked<2> a(dash::SizeSpec<2>(14, 11),
                 dash::DistributionSpec<2>(dash::BLOCKCYCLIC(3), dash::BLOCKCYCLIC(3)));
    Sweep(a);
  }
  {
    SCOPED_TRACE("13x5 BLOCKEDxNONE: one block along dimension 1 (its own periodic neighbour)");
    Blocked<2> a(dash::SizeSpec<2>(13, 5), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
    Sweep(a);
  }
  {
    SCOPED_TRACE("10x9 BLOCKCYCLIC(2)xBLOCKED, column-major");
    dash::NArray<long, 2, dash::default_index_t, dash::BlockPattern<2, dash::COL_MAJOR>> a(
        dash::SizeSpec<2>(10, 9), dash::DistributionSpec<2>(dash::BLOCKCYCLIC(2), dash::BLOCKED));
    Sweep(a);
  }
}

TEST(BlocksOf, ThreeDimensional_HalosLinksAndNativeAccess) {
  {
    SCOPED_TRACE("7x6x5 BLOCKED^3");
    Blocked<3> a(dash::SizeSpec<3>(7, 6, 5),
                 dash::DistributionSpec<3>(dash::BLOCKED, dash::BLOCKED, dash::BLOCKED));
    Sweep(a);
  }
  {
    SCOPED_TRACE("8x8x5 BLOCKCYCLIC(3)xBLOCKCYCLIC(3)xNONE");
    Blocked<3> a(dash::SizeSpec<3>(8, 8, 5),
                 dash::DistributionSpec<3>(dash::BLOCKCYCLIC(3), dash::BLOCKCYCLIC(3), dash::NONE));
    Sweep(a);
  }
  {
    SCOPED_TRACE("8x6x5 TILE(3)xTILE(2)xTILE(5), tile pattern");
    Tiled<3> m(dash::SizeSpec<3>(8, 6, 5),
               dash::DistributionSpec<3>(dash::TILE(3), dash::TILE(2), dash::TILE(5)));
    Sweep(m);
  }
}

TEST(BlocksOf, WidthBeyondAdjacentBlock_ThrowsOnEveryUnit) {
  // 9x7 in 3x2 tiles: the last tile column is 1 wide.
  Tiled<2> m(dash::SizeSpec<2>(9, 7), dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(2)));
  EXPECT_THROW(dash::bp::of(m, HaloSpec<2>{2, false, {}}), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::bp::of(m, HaloSpec<2>{-1, false, {}}), dash::exception::InvalidArgument);
  EXPECT_NO_THROW(dash::bp::of(m, HaloSpec<2>{1, true, {true, true}}));
  // One block along dimension 1 and not periodic there: no neighbour, any width.
  Blocked<2> a(dash::SizeSpec<2>(16, 3),
               dash::DistributionSpec<2>(dash::BLOCKCYCLIC(4), dash::NONE));
  EXPECT_NO_THROW(dash::bp::of(a, HaloSpec<2>{4, true, {true, false}}));
  EXPECT_THROW(dash::bp::of(a, HaloSpec<2>{4, true, {true, true}}),
               dash::exception::InvalidArgument);
  m.barrier();
}

}  // namespace
