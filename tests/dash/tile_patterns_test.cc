// dash::ShiftTilePattern and dash::SeqTilePattern, 1-D and 2-D, both
// arrangements: every lookup against a brute-force reference built from the
// definitions (tile j0, j1 -> unit (j0 + j1) mod P, resp. tile b -> b mod P;
// a unit's tiles packed in increasing linear tile index, elements inside a
// tile in arrangement order). Exhaustive over tile extents 1..5 and BLOCKED
// and extents 0, 1, 7, 10, 13, 16, 17 in every dimension, on every unit;
// bijection of global and local indices; local coordinates (DASH's
// local_coords, local(coords), global(unit, lcoords), local_at); block
// queries; bad input.
#include <dash/Init.h>
#include <dash/Pattern.h>
#include <dash/Team.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::dim_t;
using dash::MemArrange;

enum class Deal { Shift, Seq };

template <dim_t N, MemArrange Arr, class I>
using ShiftP = dash::ShiftTilePattern<N, Arr, I>;
template <dim_t N, MemArrange Arr, class I>
using SeqP = dash::SeqTilePattern<N, Arr, I>;

// Printable forms for failure messages.
template <class T>
std::string Show(const T& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
template <class T, std::size_t N>
std::string Show(const std::array<T, N>& a) {
  std::string s = "(";
  for (std::size_t d = 0; d < N; ++d) s += (d ? ", " : "") + std::to_string(a[d]);
  return s + ")";
}
template <dim_t N, class I>
std::string Show(const dash::ViewSpec<N, I>& v) {
  return "{offsets " + Show(v.offsets()) + ", extents " + Show(v.extents()) + "}";
}

std::string DistName(const dash::Distribution& d) {
  std::string s = dash::distribution_name(d.type);
  if (d.type == dash::DistributionType::TILE || d.type == dash::DistributionType::BLOCKCYCLIC)
    s += "(" + std::to_string(d.blocksize) + ")";
  return s;
}

// Linear index of c in a space of extents e, row- or column-major; written
// out here rather than taken from the library.
template <dim_t N>
std::int64_t Linear(MemArrange arr, const std::array<std::int64_t, N>& c,
                    const std::array<std::int64_t, N>& e) {
  if (N == 1) return c[0];
  return arr == dash::ROW_MAJOR ? c[0] * e[1] + c[N - 1] : c[N - 1] * e[0] + c[0];
}
template <dim_t N>
std::array<std::int64_t, N> Delinear(MemArrange arr, std::int64_t i,
                                     const std::array<std::int64_t, N>& e) {
  std::array<std::int64_t, N> c{};
  if constexpr (N == 1) {
    c[0] = i;
  } else if (arr == dash::ROW_MAJOR) {
    c[0] = i / e[1];
    c[1] = i % e[1];
  } else {
    c[0] = i % e[0];
    c[1] = i / e[0];
  }
  return c;
}

// The layout by enumeration: all tiles in linear order, each appended to its
// unit's memory.
template <dim_t N>
struct Reference {
  struct Tile {
    std::array<std::int64_t, N> bc, off, ext;
    std::int64_t unit, start;
  };
  std::array<std::int64_t, N> extent{}, blocksize{}, nblocks{};
  std::vector<Tile> tiles;                         // in linear tile order
  std::vector<std::vector<std::int64_t>> of_unit;  // tile numbers per unit
  std::vector<std::int64_t> lsize;
  // Per global linear element index: owner and local offset.
  std::vector<std::int64_t> unit_of, offset_of;
  std::vector<std::int64_t> order_of;  // [row- or column-major index] -> the patterns' global index
  std::vector<std::int64_t> tile_of;   // [row- or column-major index] -> its tile's number

  Reference(Deal deal, MemArrange arr, const std::array<std::int64_t, N>& ext,
            const std::array<dash::Distribution, N>& dist, std::int64_t nunits)
      : extent(ext), of_unit(nunits), lsize(nunits, 0) {
    std::int64_t ntiles = 1, size = 1;
    for (dim_t d = 0; d < N; ++d) {
      std::int64_t b =
          dist[d].type == dash::DistributionType::BLOCKED
              ? std::max<std::int64_t>(1, (ext[d] + nunits - 1) / nunits)
          : dist[d].type == dash::DistributionType::NONE   ? std::max<std::int64_t>(1, ext[d])
          : dist[d].type == dash::DistributionType::CYCLIC ? 1
                                                           : std::int64_t(dist[d].blocksize);
      blocksize[d] = b;
      nblocks[d] = (ext[d] + b - 1) / b;
      ntiles *= nblocks[d];
      size *= ext[d];
    }
    unit_of.assign(size, -1);
    offset_of.assign(size, -1);
    order_of.assign(size, -1);
    tile_of.assign(size, -1);
    std::int64_t next = 0;  // the patterns' global order: tile by tile, as enumerated here
    for (std::int64_t b = 0; b < ntiles; ++b) {
      Tile t;
      t.bc = Delinear<N>(arr, b, nblocks);
      std::int64_t tsize = 1, sum = 0;
      for (dim_t d = 0; d < N; ++d) {
        t.off[d] = t.bc[d] * blocksize[d];
        t.ext[d] = std::min(blocksize[d], ext[d] - t.off[d]);
        tsize *= t.ext[d];
        sum += t.bc[d];
      }
      t.unit = (deal == Deal::Shift ? sum : b) % nunits;
      t.start = lsize[t.unit];
      lsize[t.unit] += tsize;
      of_unit[t.unit].push_back(std::int64_t(tiles.size()));
      tiles.push_back(t);
      for (std::int64_t i = 0; i < tsize; ++i) {
        auto in = Delinear<N>(arr, i, t.ext);
        std::array<std::int64_t, N> g;
        for (dim_t d = 0; d < N; ++d) g[d] = t.off[d] + in[d];
        std::int64_t gi = Linear<N>(arr, g, ext);
        unit_of[gi] = t.unit;
        offset_of[gi] = t.start + i;
        order_of[gi] = next++;
        tile_of[gi] = std::int64_t(tiles.size()) - 1;
      }
    }
  }
};

#define TP_CHECK_EQ(actual, expected)                                                            \
  do {                                                                                           \
    const auto tp_a_ = (actual);                                                                 \
    const auto tp_e_ = (expected);                                                               \
    if (!(tp_a_ == tp_e_)) {                                                                     \
      ADD_FAILURE() << ctx << ": " #actual " = " << Show(tp_a_) << ", expected " << Show(tp_e_); \
      return false;                                                                              \
    }                                                                                            \
  } while (0)

// Checks pattern p against the reference; false (with one failure reported)
// on the first mismatch.
template <class Pattern>
bool CheckPattern(const Pattern& p, Deal deal, const std::string& ctx) {
  constexpr dim_t N = Pattern::ndim();
  constexpr MemArrange Arr = Pattern::memory_order();
  using I = typename Pattern::index_type;
  using coords_t = typename Pattern::coords_type;
  const std::int64_t P = std::int64_t(p.num_units());
  std::array<std::int64_t, N> ext;
  std::array<dash::Distribution, N> dist;
  for (dim_t d = 0; d < N; ++d) {
    ext[d] = std::int64_t(p.extent(d));
    dist[d] = p.distspec()[d];
  }
  Reference<N> ref(deal, Arr, ext, dist, P);

  // Global shape and tiles.
  std::int64_t size = 1;
  for (dim_t d = 0; d < N; ++d) {
    size *= ext[d];
    TP_CHECK_EQ(std::int64_t(p.blocksize(d)), ref.blocksize[d]);
    TP_CHECK_EQ(std::int64_t(p.blockspec().extent(d)), ref.nblocks[d]);
  }
  TP_CHECK_EQ(std::int64_t(p.size()), size);
  for (std::size_t b = 0; b < ref.tiles.size(); ++b) {
    const auto& t = ref.tiles[b];
    coords_t bc, off;
    std::array<typename Pattern::size_type, N> te;
    for (dim_t d = 0; d < N; ++d) {
      bc[d] = I(t.bc[d]);
      off[d] = I(t.off[d]);
      te[d] = typename Pattern::size_type(t.ext[d]);
    }
    dash::ViewSpec<N, I> rect(off, te);
    TP_CHECK_EQ(p.block(I(b)), rect);
    TP_CHECK_EQ(p.block(bc), rect);
    TP_CHECK_EQ(std::int64_t(p.block_unit(bc)), t.unit);
  }

  // Per unit: sizes, local blocks and their offsets.
  std::int64_t capacity = 0;
  for (std::int64_t u = 0; u < P; ++u) {
    dash::team_unit_t unit(static_cast<dart_unit_t>(u));
    const auto& mine = ref.of_unit[u];
    capacity = std::max(capacity, ref.lsize[u]);
    TP_CHECK_EQ(std::int64_t(p.local_size(unit)), ref.lsize[u]);
    TP_CHECK_EQ(std::int64_t(p.local_nblocks(unit)), std::int64_t(mine.size()));
    for (std::size_t i = 0; i < mine.size(); ++i) {
      const auto& t = ref.tiles[mine[i]];
      TP_CHECK_EQ(p.local_block(unit, I(i)), p.block(I(mine[i])));
      TP_CHECK_EQ(std::int64_t(p.local_block_offset(unit, I(i))), t.start);
    }
    TP_CHECK_EQ(std::int64_t(p.local_block_offset(unit, I(mine.size()))), ref.lsize[u]);
  }
  TP_CHECK_EQ(std::int64_t(p.local_capacity()), capacity);
  // The calling unit's view (a unit of the team beyond the grid owns nothing).
  const std::int64_t me = p.myid();
  const std::int64_t my_size = me < P ? ref.lsize[me] : 0;
  const std::vector<std::int64_t> no_tiles;
  const auto& my_tiles = me < P ? ref.of_unit[me] : no_tiles;
  TP_CHECK_EQ(std::int64_t(p.local_size()), my_size);
  TP_CHECK_EQ(std::int64_t(p.local_nblocks()), std::int64_t(my_tiles.size()));
  for (std::size_t i = 0; i < my_tiles.size(); ++i) {
    TP_CHECK_EQ(p.local_block(I(i)), p.block(I(my_tiles[i])));
    TP_CHECK_EQ(std::int64_t(p.local_block_offset(I(i))), ref.tiles[my_tiles[i]].start);
  }
  for (std::int64_t u = P; u < std::int64_t(p.team().size()); ++u) {
    dash::team_unit_t unit(static_cast<dart_unit_t>(u));
    TP_CHECK_EQ(std::int64_t(p.local_size(unit)), std::int64_t(0));
    TP_CHECK_EQ(std::int64_t(p.local_nblocks(unit)), std::int64_t(0));
  }

  // Global -> local for every element, against the reference, counting hits.
  std::vector<std::vector<int>> hits(P);
  for (std::int64_t u = 0; u < P; ++u)
    hits[u].assign(std::size_t(p.local_size(dash::team_unit_t(dart_unit_t(u)))), 0);
  for (std::int64_t g = 0; g < size; ++g) {
    auto c = Delinear<N>(Arr, g, ext);
    coords_t coords;
    for (dim_t d = 0; d < N; ++d) coords[d] = I(c[d]);
    // The pattern's global index of the element (row-major or column-major g, its position
    // in the tile-by-tile order).
    const std::int64_t gi = ref.order_of[g];
    TP_CHECK_EQ(std::int64_t(p.global_index(coords)), gi);
    TP_CHECK_EQ(p.coords(I(gi)), coords);
    auto l = p.local_index(coords);
    std::int64_t u = l.unit, off = l.index;
    TP_CHECK_EQ(u, ref.unit_of[g]);
    TP_CHECK_EQ(off, ref.offset_of[g]);
    auto lg = p.local(I(gi));
    TP_CHECK_EQ(std::int64_t(lg.unit), u);
    TP_CHECK_EQ(std::int64_t(lg.index), off);
    TP_CHECK_EQ(std::int64_t(p.unit_at(coords)), u);
    TP_CHECK_EQ(std::int64_t(p.unit_at(I(gi))), u);
    TP_CHECK_EQ(std::int64_t(p.at(coords)), off);
    TP_CHECK_EQ(p.is_local(I(gi)), u == me);
    // Inside the owner's memory, hit once, and back again.
    if (u < 0 || u >= P || off < 0 || off >= std::int64_t(hits[u].size())) {
      ADD_FAILURE() << ctx << ": element " << g << " -> unit " << u << " offset " << off
                    << " is out of range";
      return false;
    }
    ++hits[u][off];
    dash::team_unit_t unit(static_cast<dart_unit_t>(u));
    TP_CHECK_EQ(std::int64_t(p.global_index(unit, I(off))), gi);
    TP_CHECK_EQ(p.global(unit, I(off)), coords);
    if (u == me) TP_CHECK_EQ(std::int64_t(p.global(I(off))), gi);
    // Local coordinates: ShiftTilePattern keeps the slower coordinate and counts the unit's
    // tiles of the tile row in the faster one; SeqTilePattern stacks the unit's tiles along the
    // slower dimension (tile extents clamped to the extent); in 1-D both are the offset.
    const auto& tile = ref.tiles[ref.tile_of[g]];
    coords_t lc = coords;
    if constexpr (N == 1) {
      lc[0] = I(off);
    } else {
      const dim_t slow = Arr == dash::ROW_MAJOR ? 0 : 1, fast = 1 - slow;
      if (deal == Deal::Shift) {
        lc[fast] = I((tile.bc[fast] / P) * ref.blocksize[fast] + (c[fast] - tile.off[fast]));
      } else {
        const auto& mine = ref.of_unit[u];
        const std::int64_t rank =
            std::find(mine.begin(), mine.end(), ref.tile_of[g]) - mine.begin();
        const std::int64_t tb = std::min(ref.blocksize[slow], ext[slow]);
        lc[slow] = I(rank * tb + (c[slow] - tile.off[slow]));
        lc[fast] = I(c[fast] - tile.off[fast]);
      }
    }
    TP_CHECK_EQ(p.local_coords(coords), lc);
    TP_CHECK_EQ(std::int64_t(p.local(coords).unit), u);
    TP_CHECK_EQ(p.local(coords).coords, lc);
    TP_CHECK_EQ(p.global(unit, lc), coords);
    TP_CHECK_EQ(std::int64_t(p.global_index(unit, lc)), gi);
    if (u == me) {
      TP_CHECK_EQ(std::int64_t(p.local_at(lc)), off);
      TP_CHECK_EQ(p.global(lc), coords);
    }
  }
  // Local -> global -> local for every (unit, offset); each hit exactly once.
  for (std::int64_t u = 0; u < P; ++u) {
    dash::team_unit_t unit(static_cast<dart_unit_t>(u));
    for (std::int64_t off = 0; off < std::int64_t(hits[u].size()); ++off) {
      TP_CHECK_EQ(hits[u][off], 1);
      auto l = p.local_index(p.global(unit, I(off)));
      TP_CHECK_EQ(std::int64_t(l.unit), u);
      TP_CHECK_EQ(std::int64_t(l.index), off);
    }
  }
  return true;
}

const std::vector<dash::Distribution>& Dists() {
  static const std::vector<dash::Distribution> dists = {
      dash::TILE(1), dash::TILE(2), dash::TILE(3), dash::TILE(4), dash::TILE(5), dash::BLOCKED};
  return dists;
}
const std::vector<std::int64_t>& Extents() {
  static const std::vector<std::int64_t> extents = {0, 1, 7, 10, 13, 16, 17};
  return extents;
}

template <template <dim_t, MemArrange, class> class PT, MemArrange Arr>
void Exhaustive1D(Deal deal, dash::Team& team = dash::Team::All()) {
  for (const auto& dist : Dists()) {
    for (std::int64_t e : Extents()) {
      PT<1, Arr, dash::default_index_t> p(dash::SizeSpec<1>(e), dash::DistributionSpec<1>(dist),
                                          team);
      std::string ctx = std::string(p.PatternName) + (Arr == dash::ROW_MAJOR ? " ROW" : " COL") +
                        " " + std::to_string(e) + " " + DistName(dist) +
                        " P=" + std::to_string(team.size());
      if (!CheckPattern(p, deal, ctx)) return;
    }
  }
}

template <template <dim_t, MemArrange, class> class PT, MemArrange Arr>
void Exhaustive2D(Deal deal, dash::Team& team = dash::Team::All()) {
  for (const auto& d0 : Dists()) {
    for (const auto& d1 : Dists()) {
      for (std::int64_t e0 : Extents()) {
        for (std::int64_t e1 : Extents()) {
          PT<2, Arr, dash::default_index_t> p(dash::SizeSpec<2>(e0, e1),
                                              dash::DistributionSpec<2>(d0, d1), team);
          std::string ctx = std::string(p.PatternName) +
                            (Arr == dash::ROW_MAJOR ? " ROW " : " COL ") + std::to_string(e0) +
                            "x" + std::to_string(e1) + " " + DistName(d0) + "," + DistName(d1) +
                            " P=" + std::to_string(team.size());
          if (!CheckPattern(p, deal, ctx)) return;
        }
      }
    }
  }
}

TEST(ShiftTilePattern, Exhaustive1D) {
  Exhaustive1D<ShiftP, dash::ROW_MAJOR>(Deal::Shift);
  Exhaustive1D<ShiftP, dash::COL_MAJOR>(Deal::Shift);
}

TEST(ShiftTilePattern, Exhaustive2DRowMajor) { Exhaustive2D<ShiftP, dash::ROW_MAJOR>(Deal::Shift); }

TEST(ShiftTilePattern, Exhaustive2DColMajor) { Exhaustive2D<ShiftP, dash::COL_MAJOR>(Deal::Shift); }

TEST(SeqTilePattern, Exhaustive1D) {
  Exhaustive1D<SeqP, dash::ROW_MAJOR>(Deal::Seq);
  Exhaustive1D<SeqP, dash::COL_MAJOR>(Deal::Seq);
}

TEST(SeqTilePattern, Exhaustive2DRowMajor) { Exhaustive2D<SeqP, dash::ROW_MAJOR>(Deal::Seq); }

TEST(SeqTilePattern, Exhaustive2DColMajor) { Exhaustive2D<SeqP, dash::COL_MAJOR>(Deal::Seq); }

// Larger grids (many periods of the unit cycle), other distribution types,
// tiles wider than the extent.
TEST(TilePatterns, LargerGridsAndOtherDistributions) {
  const std::vector<dash::Distribution> dists = {dash::NONE, dash::CYCLIC, dash::BLOCKCYCLIC(2),
                                                 dash::TILE(7), dash::TILE(100)};
  for (const auto& d0 : dists) {
    for (const auto& d1 : dists) {
      for (auto e : std::vector<std::array<std::int64_t, 2>>{{61, 43}, {5, 120}, {33, 2}}) {
        dash::SizeSpec<2> size(e[0], e[1]);
        dash::DistributionSpec<2> ds(d0, d1);
        std::string ctx = std::to_string(e[0]) + "x" + std::to_string(e[1]) + " " + DistName(d0) +
                          "," + DistName(d1);
        EXPECT_TRUE(CheckPattern(dash::ShiftTilePattern<2>(size, ds), Deal::Shift, ctx));
        EXPECT_TRUE(CheckPattern(dash::SeqTilePattern<2>(size, ds), Deal::Seq, ctx));
        EXPECT_TRUE(CheckPattern(dash::ShiftTilePattern<2, dash::COL_MAJOR>(size, ds), Deal::Shift,
                                 ctx + " COL"));
        EXPECT_TRUE(CheckPattern(dash::SeqTilePattern<2, dash::COL_MAJOR>(size, ds), Deal::Seq,
                                 ctx + " COL"));
      }
    }
  }
}

TEST(TilePatterns, SmallIndexTypeAndOneDimConstructor) {
  using ShiftI = dash::ShiftTilePattern<2, dash::ROW_MAJOR, std::int32_t>;
  using SeqI = dash::SeqTilePattern<2, dash::COL_MAJOR, std::int32_t>;
  dash::SizeSpec<2, std::int32_t> size(23, 19);
  dash::DistributionSpec<2> ds(dash::TILE(4), dash::TILE(3));
  EXPECT_TRUE(CheckPattern(ShiftI(size, ds), Deal::Shift, "int32 shift"));
  EXPECT_TRUE(CheckPattern(SeqI(size, ds), Deal::Seq, "int32 seq"));
  dash::ShiftTilePattern<1> s1(29, dash::TILE(3));
  dash::SeqTilePattern<1> q1(29, dash::TILE(3));
  EXPECT_TRUE(CheckPattern(s1, Deal::Shift, "1-D size ctor"));
  EXPECT_TRUE(CheckPattern(q1, Deal::Seq, "1-D size ctor"));
  EXPECT_EQ(s1.teamspec().size(), dash::Team::All().size());
}

// The TeamSpec's shape is irrelevant; its size is the number of units the tiles go to, which
// may differ from the team's (DASH's rule: units of the team beyond it own nothing).
TEST(TilePatterns, AnyTeamSpecShapeAndSize) {
  const std::size_t P = dash::Team::All().size();
  dash::SizeSpec<2> size(13, 10);
  dash::DistributionSpec<2> ds(dash::TILE(3), dash::TILE(2));
  for (auto ts : {dash::TeamSpec<2>(P, 1), dash::TeamSpec<2>(1, P), dash::TeamSpec<2>(P + 1, 1),
                  dash::TeamSpec<2>(P, 2), dash::TeamSpec<2>(1, 1)}) {
    dash::ShiftTilePattern<2> s(size, ds, ts);
    dash::SeqTilePattern<2> q(size, ds, ts);
    EXPECT_EQ(s.teamspec(), ts);
    EXPECT_EQ(s.num_units(), ts.size());
    EXPECT_EQ(q.num_units(), ts.size());
    EXPECT_TRUE(CheckPattern(s, Deal::Shift, "teamspec " + std::to_string(ts.size())));
    EXPECT_TRUE(CheckPattern(q, Deal::Seq, "teamspec " + std::to_string(ts.size())));
  }
}

// Patterns over a sub-team: units and offsets are relative to that team.
TEST(TilePatterns, SubTeam) {
  dash::Team& sub = dash::Team::All().split(2);
  Exhaustive1D<ShiftP, dash::ROW_MAJOR>(Deal::Shift, sub);
  Exhaustive1D<SeqP, dash::COL_MAJOR>(Deal::Seq, sub);
  dash::SizeSpec<2> size(17, 10);
  dash::DistributionSpec<2> ds(dash::TILE(2), dash::TILE(3));
  EXPECT_TRUE(CheckPattern(dash::ShiftTilePattern<2>(size, ds, sub), Deal::Shift, "sub-team"));
  EXPECT_TRUE(CheckPattern(dash::SeqTilePattern<2>(size, ds, sub), Deal::Seq, "sub-team"));
  dash::Team::All().barrier();
}

// Runs f, expects dash::exception::InvalidArgument naming the pattern and
// containing `what`.
template <class F>
void ExpectInvalid(F f, const std::string& pattern, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << pattern << ": no exception for " << what;
  } catch (const dash::exception::InvalidArgument& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find(pattern), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

template <template <dim_t, MemArrange, class> class PT>
void BadInput(const std::string& name) {
  using P2 = PT<2, dash::ROW_MAJOR, dash::default_index_t>;
  const std::size_t P = dash::Team::All().size();
  dash::SizeSpec<2> size(10, 10);
  dash::DistributionSpec<2> tiles(dash::TILE(2), dash::TILE(2));
  ExpectInvalid([&] { P2 p(size, tiles, dash::Team::Null()); }, name, "Null");
  ExpectInvalid([&] { P2 p(size, tiles, dash::TeamSpec<2>(P, 0)); }, name, "TeamSpec holds no");
  ExpectInvalid([&] { P2 p(size, dash::DistributionSpec<2>(dash::TILE(0), dash::TILE(2))); }, name,
                "block size 0");
  ExpectInvalid([&] { P2 p(size, dash::DistributionSpec<2>(dash::TILE(2), dash::BLOCKCYCLIC(0))); },
                name, "block size 0");
  const std::uint64_t big = std::uint64_t(std::numeric_limits<std::int64_t>::max()) / 2 + 1;
  ExpectInvalid([&] { P2 p(dash::SizeSpec<2>(big, 3), tiles); }, name, "overflow");
  ExpectInvalid(
      [&] {
        P2 p(size, dash::DistributionSpec<2>(dash::TILE(std::numeric_limits<std::uint64_t>::max()),
                                             dash::TILE(2)));
      },
      name, "overflow");
  using P32 = PT<2, dash::ROW_MAJOR, std::int32_t>;
  ExpectInvalid(
      [&] {
        P32 p(dash::SizeSpec<2, std::int32_t>(70000, 70000),
              dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(2)));
      },
      name, "overflow");
  ExpectInvalid(
      [&] {
        P32 p(dash::SizeSpec<2, std::int32_t>(10, 10),
              dash::DistributionSpec<2>(dash::TILE(std::uint64_t(1) << 40), dash::TILE(2)));
      },
      name, "overflow");
  using P1 = PT<1, dash::ROW_MAJOR, dash::default_index_t>;
  ExpectInvalid([&] { P1 p(10, dash::TILE(0)); }, name, "block size 0");
  ExpectInvalid([&] { P1 p(10, dash::TILE(2), dash::Team::Null()); }, name, "Null");
}

TEST(ShiftTilePattern, BadInputThrows) { BadInput<ShiftP>("ShiftTilePattern"); }
TEST(SeqTilePattern, BadInputThrows) { BadInput<SeqP>("SeqTilePattern"); }

}  // namespace
