// dash::BlockPattern and dash::TilePattern: exhaustive checks of the index
// mapping against a reference computed here from first principles.
//
// Cases: 1-D, 2-D and 3-D index spaces, ROW_MAJOR and COL_MAJOR, every
// distribution per dimension (BLOCKED, CYCLIC, BLOCKCYCLIC(1|2|3|5),
// TILE(1|2|3|4), NONE where the dimension has one unit; 2-D all pairs, 3-D a
// Latin square), extents including 0, 1, 2 and extents that do not divide by
// the unit count or the block size, on explicit unit grids (1-D: units; 2-D:
// every factorisation, e.g. units x 1 and 1 x units; 3-D: the team along each
// dimension and a grid over two dimensions) and on the balanced grid that
// TeamSpec(distspec, team) gives.
//
// Reference: in dimension d with extent E, team extent U and block extent B
// (BLOCKED: ceil(E/U), CYCLIC: 1, BLOCKCYCLIC/TILE: b, NONE: E), coordinate
// x lies in block x/B, owned by team coordinate (x/B) % U; the owning unit is
// the row-major linearisation of the team coordinates. A coordinate's local
// coordinate is its rank among the coordinates its owner holds. BlockPattern
// stores a unit's elements as one array of its local extents in Arr order;
// TilePattern stores each local tile contiguously, tiles in Arr order of the
// local tile grid, elements of a tile in Arr order, underfilled tiles packed.
//
// The mapping is local arithmetic: every unit runs every check in full.
// Mismatches are collected per test and reported (the first few) once, so the
// sweep stays fast.
#include <dash/Exception.h>
#include <dash/Pattern.h>
#include <dash/Team.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;
using ll = long long;
using dash::COL_MAJOR;
using dash::dim_t;
using dash::Distribution;
using dash::DistributionType;
using dash::MemArrange;
using dash::ROW_MAJOR;

template <dim_t N>
using Coords = std::array<ll, N>;

// ---- configurations ------------------------------------------------------

template <template <dim_t, MemArrange, class> class P, MemArrange A, class I>
struct Config {
  template <dim_t N, MemArrange A2, class I2>
  using Tmpl = P<N, A2, I2>;
  template <dim_t N>
  using Pattern = P<N, A, I>;
  using Index = I;
  using Size = std::make_unsigned_t<I>;
  static constexpr MemArrange kArr = A;
  static constexpr bool kTiled = std::is_same_v<P<1, A, I>, dash::TilePattern<1, A, I>>;
};

using BlockRow = Config<dash::BlockPattern, ROW_MAJOR, std::int64_t>;
using BlockCol = Config<dash::BlockPattern, COL_MAJOR, std::int64_t>;
using TileRow = Config<dash::TilePattern, ROW_MAJOR, std::int64_t>;
using TileCol = Config<dash::TilePattern, COL_MAJOR, std::int64_t>;

struct ConfigNames {
  template <class C>
  static std::string GetName(int) {
    return std::string(C::kTiled ? "TilePattern" : "BlockPattern") +
           (C::kArr == ROW_MAJOR ? "_RowMajor" : "_ColMajor");
  }
};

// ---- formatting and mismatch collection ----------------------------------

template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
std::string Str(T v) {
  return std::to_string(v);
}
template <class T, std::size_t N>
std::string Str(const std::array<T, N>& a) {
  std::string s = "(";
  for (std::size_t i = 0; i < N; ++i) s += (i ? ", " : "") + Str(a[i]);
  return s + ")";
}

// A rectangle: offsets and extents.
template <dim_t N>
struct Rect {
  Coords<N> off{};
  Coords<N> ext{};
  bool operator==(const Rect& o) const { return off == o.off && ext == o.ext; }
  ll size() const {
    ll n = 1;
    for (ll e : ext) n *= e;
    return n;
  }
};
template <dim_t N>
std::string Str(const Rect<N>& r) {
  return "[offsets " + Str(r.off) + " extents " + Str(r.ext) + "]";
}

std::string DistName(const Distribution& d) {
  std::string s = dash::distribution_name(d.type);
  if (d.type == DistributionType::BLOCKCYCLIC || d.type == DistributionType::TILE)
    s += "(" + std::to_string(d.blocksize) + ")";
  return s;
}

// Collects mismatches of one test; reports the count and the first few once.
class Failures {
 public:
  void SetCase(std::function<std::string()> describe) {
    describe_ = std::move(describe);
    ++cases_;
  }
  void Fail(int line, const std::string& what) {
    if (++count_ <= kShown)
      text_ += "  line " + std::to_string(line) + ": " + what + "\n    in " +
               (describe_ ? describe_() : std::string("?")) + "\n";
  }
  int cases() const { return cases_; }
  void Report() const {
    if (count_ > 0) ADD_FAILURE() << count_ << " mismatch(es), the first ones:\n" << text_;
  }

 private:
  static constexpr int kShown = 8;
  std::function<std::string()> describe_;
  std::string text_;
  int count_ = 0;
  int cases_ = 0;
};

// Compares after conversion to the same type; `where` continues a << chain.
#define PT_EXPECT_EQ(fails, actual, expected, where)                                           \
  do {                                                                                         \
    const auto pt_actual = (actual);                                                           \
    const decltype(pt_actual) pt_expected = (expected);                                        \
    if (!(pt_actual == pt_expected)) {                                                         \
      std::ostringstream pt_os;                                                                \
      pt_os << #actual << " = " << Str(pt_actual) << ", expected " << Str(pt_expected) << " (" \
            << #expected << ")" << where;                                                      \
      (fails).Fail(__LINE__, pt_os.str());                                                     \
    }                                                                                          \
  } while (0)

// ---- conversions between the test's ll and the patterns' types -----------

template <class T, std::size_t N>
Coords<N> LL(const std::array<T, N>& a) {
  Coords<N> out;
  for (std::size_t i = 0; i < N; ++i) out[i] = static_cast<ll>(a[i]);
  return out;
}
template <dim_t N, class I>
Rect<N> LL(const dash::ViewSpec<N, I>& v) {
  return Rect<N>{LL(v.offsets()), LL(v.extents())};
}
template <dim_t N, class I>
Coords<N> LL(const dash::SizeSpec<N, I>& s) {
  return LL(s.extents());
}
inline ll LL(dash::team_unit_t u) { return u.id; }
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
ll LL(T v) {
  return static_cast<ll>(v);
}
template <class T, dim_t N>
std::array<T, N> To(const Coords<N>& c) {
  std::array<T, N> out;
  for (dim_t i = 0; i < N; ++i) out[i] = static_cast<T>(c[i]);
  return out;
}
dash::team_unit_t Unit(ll u) { return dash::team_unit_t(static_cast<dart_unit_t>(u)); }

// ---- reference model -----------------------------------------------------

template <dim_t N>
ll Product(const Coords<N>& c) {
  ll n = 1;
  for (ll e : c) n *= e;
  return n;
}

// Linear index of c in a space of ext; in Arr order the last (ROW_MAJOR) or
// first (COL_MAJOR) dimension moves fastest.
template <dim_t N, MemArrange A>
ll Lin(const Coords<N>& c, const Coords<N>& ext) {
  ll index = 0;
  for (dim_t d = 0; d < N; ++d) {
    ll stride = 1;
    for (dim_t e = 0; e < N; ++e)
      if (A == ROW_MAJOR ? e > d : e < d) stride *= ext[e];
    index += c[d] * stride;
  }
  return index;
}
template <dim_t N, MemArrange A>
Coords<N> Delin(ll index, const Coords<N>& ext) {
  Coords<N> c{};
  for (dim_t k = 0; k < N; ++k) {  // fastest dimension first
    dim_t d = A == ROW_MAJOR ? N - 1 - k : k;
    c[d] = index % ext[d];
    index /= ext[d];
  }
  return c;
}

// Calls f(coords) for every point of the rectangle r.
template <dim_t N, class F>
void ForEachPoint(const Rect<N>& r, F&& f) {
  ll n = r.size();
  for (ll i = 0; i < n; ++i) {
    Coords<N> c = Delin<N, ROW_MAJOR>(i, r.ext);
    for (dim_t d = 0; d < N; ++d) c[d] += r.off[d];
    f(c);
  }
}

// Block extent from the definition of each distribution.
ll RefBlockExtent(const Distribution& dist, ll extent, ll units) {
  switch (dist.type) {
    case DistributionType::BLOCKED:
      return extent == 0 ? 1 : extent / units + (extent % units != 0);  // ceil, no overflow
    case DistributionType::CYCLIC:
      return 1;
    case DistributionType::NONE:
      return extent == 0 ? 1 : extent;
    default:
      return static_cast<ll>(dist.blocksize);
  }
}

// One dimension, by enumeration.
struct RefDim {
  ll extent = 0, units = 1, block = 1, nblocks = 0;
  std::vector<std::vector<ll>> coords_of;  // [t] coordinates team coordinate t holds, ascending
  std::vector<std::vector<ll>> blocks_of;  // [t] blocks t holds, ascending
  std::vector<ll> local_coord;             // [x] rank of x among its owner's coordinates

  RefDim() = default;
  RefDim(ll e, ll u, ll b) : extent(e), units(u), block(b) {
    nblocks = (e + b - 1) / b;
    coords_of.resize(u);
    blocks_of.resize(u);
    for (ll x = 0; x < e; ++x) {
      auto& mine = coords_of[owner(x)];
      local_coord.push_back(static_cast<ll>(mine.size()));
      mine.push_back(x);
    }
    for (ll j = 0; j < nblocks; ++j) blocks_of[j % u].push_back(j);
  }
  ll owner(ll x) const { return (x / block) % units; }
  ll block_extent(ll j) const { return std::min(block, extent - j * block); }
};

template <dim_t N>
struct Case {
  Coords<N> extents{};
  std::array<Distribution, N> dists{};
  Coords<N> team{};       // unit grid
  bool balanced = false;  // constructed without a TeamSpec (TeamSpec(distspec, team))
};

template <dim_t N, MemArrange A>
std::string Describe(const Case<N>& k, bool tiled) {
  std::string s = std::string(tiled ? "TilePattern<" : "BlockPattern<") + std::to_string(N) +
                  (A == ROW_MAJOR ? ", ROW_MAJOR>" : ", COL_MAJOR>") + " extents " +
                  Str(k.extents) + " dists (";
  for (dim_t d = 0; d < N; ++d) s += (d ? ", " : "") + DistName(k.dists[d]);
  return s + ") teamspec " + Str(k.team) + (k.balanced ? " (balanced)" : "");
}

// The whole mapping of one case, by enumeration.
template <dim_t N, MemArrange A>
struct Ref {
  struct Block {
    Coords<N> coords;  // in the global block grid
    Rect<N> rect;      // global coordinates
    ll offset;         // TilePattern: local offset of the tile's first element
  };

  Case<N> k;
  bool tiled;
  ll nunits;
  ll size;
  std::array<RefDim, N> dims;
  std::vector<ll> unit_of;                       // [g]
  std::vector<ll> offset_of;                     // [g]
  std::vector<std::vector<ll>> global_of;        // [unit][offset] -> g
  std::vector<std::vector<Block>> local_blocks;  // [unit] in Arr order of the local block grid
  bool consistent = true;                        // the reference is itself a bijection

  Ref(const Case<N>& c, bool tiled_, ll units) : k(c), tiled(tiled_), nunits(units) {
    for (dim_t d = 0; d < N; ++d)
      dims[d] =
          RefDim(c.extents[d], c.team[d], RefBlockExtent(c.dists[d], c.extents[d], c.team[d]));
    size = Product<N>(c.extents);
    EnumerateGlobalOrder();
    unit_of.assign(size, -1);
    offset_of.assign(size, -1);
    global_of.resize(nunits);
    local_blocks.resize(nunits);
    for (ll u = 0; u < nunits; ++u) {
      Coords<N> t = TeamCoords(u);
      global_of[u].assign(Product<N>(LocalExtents(u)), -1);
      Coords<N> nb = LocalBlockGrid(u);
      ll next = 0;
      for (ll i = 0; i < Product<N>(nb); ++i) {
        Coords<N> lc = Delin<N, A>(i, nb);
        Block b;
        for (dim_t d = 0; d < N; ++d) b.coords[d] = dims[d].blocks_of[t[d]][lc[d]];
        b.rect = BlockRect(b.coords);
        b.offset = tiled ? next : -1;
        if (tiled) {
          for (ll e = 0; e < b.rect.size(); ++e) {
            Coords<N> x = Delin<N, A>(e, b.rect.ext);
            for (dim_t d = 0; d < N; ++d) x[d] += b.rect.off[d];
            Assign(u, next++, x);
          }
        }
        local_blocks[u].push_back(b);
      }
      if (!tiled) {
        Coords<N> lext = LocalExtents(u);
        for (ll o = 0; o < Product<N>(lext); ++o) {
          Coords<N> lc = Delin<N, A>(o, lext), x;
          for (dim_t d = 0; d < N; ++d) x[d] = dims[d].coords_of[t[d]][lc[d]];
          Assign(u, o, x);
        }
      }
    }
    for (ll g = 0; g < size; ++g) consistent &= unit_of[g] >= 0;
  }

  Coords<N> TeamCoords(ll unit) const { return Delin<N, ROW_MAJOR>(unit, k.team); }
  ll Owner(const Coords<N>& x) const {
    Coords<N> t;
    for (dim_t d = 0; d < N; ++d) t[d] = dims[d].owner(x[d]);
    return Lin<N, ROW_MAJOR>(t, k.team);
  }
  Coords<N> LocalCoords(const Coords<N>& x) const {
    Coords<N> l;
    for (dim_t d = 0; d < N; ++d) l[d] = dims[d].local_coord[x[d]];
    return l;
  }
  Coords<N> LocalExtents(ll unit) const {
    Coords<N> t = TeamCoords(unit), e;
    for (dim_t d = 0; d < N; ++d) e[d] = static_cast<ll>(dims[d].coords_of[t[d]].size());
    return e;
  }
  Coords<N> LocalBlockGrid(ll unit) const {
    Coords<N> t = TeamCoords(unit), e;
    for (dim_t d = 0; d < N; ++d) e[d] = static_cast<ll>(dims[d].blocks_of[t[d]].size());
    return e;
  }
  // DASH's local capacity: per dimension the most blocks a unit coordinate holds (coordinate
  // 0's), each counted full (at most the extent).
  ll Capacity() const {
    ll c = 1;
    for (dim_t d = 0; d < N; ++d)
      c *= static_cast<ll>(dims[d].blocks_of[0].size()) * std::min(dims[d].block, dims[d].extent);
    return c;
  }
  Coords<N> BlockGrid() const {
    Coords<N> e;
    for (dim_t d = 0; d < N; ++d) e[d] = dims[d].nblocks;
    return e;
  }
  Rect<N> BlockRect(const Coords<N>& j) const {
    Rect<N> r;
    for (dim_t d = 0; d < N; ++d) {
      r.off[d] = j[d] * dims[d].block;
      r.ext[d] = dims[d].block_extent(j[d]);
    }
    return r;
  }
  // Global index of coordinates x, and its inverse: the pattern's order (see
  // EnumerateGlobalOrder).
  ll G(const Coords<N>& x) const { return index_of_[Lin<N, A>(x, k.extents)]; }
  Coords<N> CoordsOf(ll g) const { return coords_of_[g]; }

 private:
  // Arrangement order over the extents; for a tiled pattern of two or more dimensions tile by
  // tile, as DASH's: the blocks in A order of the block grid, a block's elements in A order
  // over its own extents. By enumeration.
  void EnumerateGlobalOrder() {
    index_of_.assign(size, -1);
    coords_of_.assign(size, Coords<N>{});
    ll next = 0;
    auto put = [&](const Coords<N>& x) {
      index_of_[Lin<N, A>(x, k.extents)] = next;
      coords_of_[next++] = x;
    };
    if (!tiled || N < 2) {
      for (ll g = 0; g < size; ++g) put(Delin<N, A>(g, k.extents));
      return;
    }
    const Coords<N> grid = BlockGrid();
    for (ll bi = 0; bi < Product<N>(grid); ++bi) {
      const Rect<N> r = BlockRect(Delin<N, A>(bi, grid));
      for (ll e = 0; e < r.size(); ++e) {
        Coords<N> x = Delin<N, A>(e, r.ext);
        for (dim_t d = 0; d < N; ++d) x[d] += r.off[d];
        put(x);
      }
    }
  }
  std::vector<ll> index_of_;          // [A-order index] -> global index
  std::vector<Coords<N>> coords_of_;  // [global index] -> coordinates

  void Assign(ll u, ll o, const Coords<N>& x) {
    ll g = G(x);
    if (unit_of[g] != -1 || global_of[u][o] != -1) consistent = false;
    unit_of[g] = u;
    offset_of[g] = o;
    global_of[u][o] = g;
  }
};

// ---- the cases -----------------------------------------------------------

std::vector<Distribution> AllDistributions() {
  return {dash::BLOCKED,
          dash::CYCLIC,
          dash::BLOCKCYCLIC(1),
          dash::BLOCKCYCLIC(2),
          dash::BLOCKCYCLIC(3),
          dash::BLOCKCYCLIC(5),
          dash::TILE(1),
          dash::TILE(2),
          dash::TILE(3),
          dash::TILE(4),
          dash::NONE};
}

// Extents of every case: small and empty ones always, and one of the larger
// ones (not divisible by the unit counts or block sizes), in turn.
template <dim_t N>
std::vector<Coords<N>> SmallExtents() {
  if constexpr (N == 1) {
    return {{0}, {1}, {2}, {3}, {7}, {10}, {13}, {17}, {24}};
  } else if constexpr (N == 2) {
    return {{0, 5}, {5, 0}, {1, 1}, {2, 7}};
  } else {
    return {{0, 2, 3}, {3, 0, 1}, {1, 1, 1}, {2, 1, 3}};
  }
}
template <dim_t N>
std::vector<Coords<N>> LargeExtents() {
  if constexpr (N == 1) {
    return {};
  } else if constexpr (N == 2) {
    return {{7, 10}, {13, 11}, {17, 3}, {10, 13}};
  } else {
    return {{5, 4, 6}, {7, 3, 5}, {4, 7, 3}};
  }
}

// Every distribution in every dimension: 1-D all, 2-D all pairs, 3-D a Latin
// square (every pair of distributions in every pair of dimensions).
template <dim_t N>
std::vector<std::array<Distribution, N>> AllDistCombos() {
  auto all = AllDistributions();
  std::size_t n = all.size();
  std::vector<std::array<Distribution, N>> out;
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (N == 1) {
      out.push_back({all[i]});
    } else {
      for (std::size_t j = 0; j < n; ++j) {
        if constexpr (N == 2)
          out.push_back({all[i], all[j]});
        else
          out.push_back({all[i], all[j], all[(i + j) % n]});
      }
    }
  }
  return out;
}

// Explicit unit grids: 1-D (units); 2-D every factorisation (units x 1,
// 1 x units, ...); 3-D the team along each single dimension and the balanced
// grid over all dimensions in reverse order (1 x 2 x 2 for 4 units).
template <dim_t N>
std::vector<Coords<N>> ExplicitGrids(ll units) {
  std::vector<Coords<N>> out;
  auto add = [&](const Coords<N>& g) {
    if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
  };
  if constexpr (N == 2) {
    for (ll f = 1; f <= units; ++f)
      if (units % f == 0) add({f, units / f});
  } else {
    for (dim_t d = 0; d < N; ++d) {
      Coords<N> g;
      g.fill(1);
      g[d] = units;
      add(g);
    }
    Coords<N> g = LL(dash::TeamSpec<N>(dash::Team::All()).extents());
    std::reverse(g.begin(), g.end());
    add(g);
  }
  return out;
}

template <dim_t N>
bool NoneFits(const std::array<Distribution, N>& dists, const Coords<N>& team) {
  for (dim_t d = 0; d < N; ++d)
    if (dists[d].type == DistributionType::NONE && team[d] > 1) return false;
  return true;
}

// All valid cases of dimension N for the current team: every distribution
// combination on every explicit grid and on the balanced grid
// TeamSpec(distspec, team), skipping NONE over several units.
template <dim_t N>
std::vector<Case<N>> AllCases() {
  std::vector<Case<N>> out;
  ll units = nunits();
  auto small = SmallExtents<N>();
  auto large = LargeExtents<N>();
  std::size_t turn = 0;
  for (const auto& dists : AllDistCombos<N>()) {
    std::vector<std::pair<Coords<N>, bool>> grids;
    for (const auto& g : ExplicitGrids<N>(units)) grids.push_back({g, false});
    grids.push_back({LL(dash::TeamSpec<N>(dash::DistributionSpec<N>(dists)).extents()), true});
    for (const auto& [grid, balanced] : grids) {
      if (!NoneFits<N>(dists, grid)) continue;
      for (const auto& ext : small) out.push_back(Case<N>{ext, dists, grid, balanced});
      if (!large.empty())
        out.push_back(Case<N>{large[turn++ % large.size()], dists, grid, balanced});
    }
  }
  return out;
}

// The references of all cases, built once per layout.
template <dim_t N, MemArrange A>
const std::vector<Ref<N, A>>& AllRefs(bool tiled) {
  static const auto build = [](bool t) {
    std::vector<Ref<N, A>> refs;
    for (const auto& k : AllCases<N>()) refs.emplace_back(k, t, nunits());
    return refs;
  };
  static const std::vector<Ref<N, A>> block = build(false), tile = build(true);
  return tiled ? tile : block;
}

template <template <dim_t, MemArrange, class> class P, MemArrange A, class I, dim_t N>
P<N, A, I> MakePattern(const Case<N>& k) {
  using S = std::make_unsigned_t<I>;
  dash::SizeSpec<N, I> sizespec(To<S, N>(k.extents));
  dash::DistributionSpec<N> distspec(k.dists);
  if (k.balanced) return P<N, A, I>(sizespec, distspec);
  return P<N, A, I>(sizespec, distspec, dash::TeamSpec<N, I>(To<S, N>(k.team)));
}

// Calls f(pattern, ref, fails) for every case of every dimension, with
// pattern of configuration C but index type I, then reports the mismatches.
template <class C, class I, dim_t N, class F>
void ForEachCaseOfDim(Failures& fails, F& f) {
  for (const auto& ref : AllRefs<N, C::kArr>(C::kTiled)) {
    fails.SetCase([&ref] { return Describe<N, C::kArr>(ref.k, ref.tiled); });
    if (!ref.consistent) fails.Fail(__LINE__, "the test's reference is not a bijection");
    try {
      auto p = MakePattern<C::template Tmpl, C::kArr, I>(ref.k);
      f(p, ref, fails);
    } catch (const std::exception& e) {
      fails.Fail(__LINE__, std::string("threw ") + e.what());
    }
  }
}
template <class C, class I = typename C::Index, class F>
void ForEachCase(F&& f) {
  Failures fails;
  ForEachCaseOfDim<C, I, 1>(fails, f);
  ForEachCaseOfDim<C, I, 2>(fails, f);
  ForEachCaseOfDim<C, I, 3>(fails, f);
  EXPECT_GT(fails.cases(), 0);
  fails.Report();
}

template <class P>
constexpr dim_t Dim() {
  return std::decay_t<P>::ndim();
}
template <class P>
constexpr MemArrange Arr() {
  return std::decay_t<P>::memory_order();
}

// ---- mapping properties shared by both patterns ---------------------------

template <class C>
class PatternMapping : public ::testing::Test {};
using MappingConfigs = ::testing::Types<BlockRow, BlockCol, TileRow, TileCol>;
TYPED_TEST_SUITE(PatternMapping, MappingConfigs, ConfigNames);

TYPED_TEST(PatternMapping, GlobalToLocalIsABijection) {
  using I = typename TypeParam::Index;
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    PT_EXPECT_EQ(fails, LL(p.size()), ref.size, "");
    std::vector<std::vector<int>> hits(nunits());
    for (ll u = 0; u < nunits(); ++u) hits[u].assign(LL(p.local_size(Unit(u))), 0);
    for (ll g = 0; g < ref.size; ++g) {
      auto li = p.local(I(g));
      ll u = LL(li.unit), o = LL(li.index);
      if (u < 0 || u >= nunits() || o < 0 || o >= ll(hits[u].size())) {
        fails.Fail(__LINE__, "local(" + Str(g) + ") = unit " + Str(u) + " offset " + Str(o) +
                                 " is out of range");
        continue;
      }
      ++hits[u][o];
      PT_EXPECT_EQ(fails, LL(p.global_index(li.unit, li.index)), g,
                   " unit " << u << " offset " << o);
    }
    for (ll u = 0; u < nunits(); ++u)
      for (ll o = 0; o < ll(hits[u].size()); ++o)
        PT_EXPECT_EQ(fails, hits[u][o], 1, " hits of unit " << u << " offset " << o);
  });
}

TYPED_TEST(PatternMapping, LocalSizesSumToSizeAndCapacityCountsEveryBlockFull) {
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    ll sum = 0, max = 0;
    for (ll u = 0; u < nunits(); ++u) {
      ll n = LL(p.local_size(Unit(u)));
      sum += n;
      max = std::max(max, n);
      PT_EXPECT_EQ(fails, n, ll(ref.global_of[u].size()), " unit " << u);
      PT_EXPECT_EQ(fails, LL(p.local_extents(Unit(u))), ref.LocalExtents(u), " unit " << u);
    }
    PT_EXPECT_EQ(fails, sum, ref.size, "");
    PT_EXPECT_EQ(fails, LL(p.local_capacity()), ref.Capacity(), "");
    PT_EXPECT_EQ(fails, LL(p.local_capacity()) >= max, true, " max local size " << max);
    PT_EXPECT_EQ(fails, LL(p.size()), Product<Dim<decltype(p)>()>(LL(p.extents())), "");
    PT_EXPECT_EQ(fails, LL(p.extents()), ref.k.extents, "");
  });
}

TYPED_TEST(PatternMapping, CoordsAndGlobalIndexAreInverse) {
  using I = typename TypeParam::Index;
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    constexpr MemArrange A = Arr<decltype(p)>();
    constexpr dim_t N = Dim<decltype(p)>();
    for (ll g = 0; g < ref.size; ++g) {
      auto c = p.coords(I(g));
      PT_EXPECT_EQ(fails, LL(c), ref.CoordsOf(g), " g " << g);
      PT_EXPECT_EQ(fails, LL(p.global_index(c)), g, "");
      auto li = p.local(I(g));
      auto lc = p.local_index(c);
      PT_EXPECT_EQ(fails, LL(lc.unit), LL(li.unit), " g " << g);
      PT_EXPECT_EQ(fails, LL(lc.index), LL(li.index), " g " << g);
      PT_EXPECT_EQ(fails, LL(p.global_at(c)), g, "");
      PT_EXPECT_EQ(fails, LL(p.at(c)), LL(li.index), " g " << g);
      PT_EXPECT_EQ(fails, LL(p.unit_at(c)), LL(li.unit), " g " << g);
      PT_EXPECT_EQ(fails, LL(p.unit_at(I(g))), LL(li.unit), " g " << g);
      PT_EXPECT_EQ(fails, LL(p.global(li.unit, li.index)), LL(c), " g " << g);
      PT_EXPECT_EQ(fails, p.is_local(I(g), li.unit), true, " g " << g);
      if (nunits() > 1) {
        auto other = Unit((LL(li.unit) + 1) % nunits());
        PT_EXPECT_EQ(fails, p.is_local(I(g), other), false, " g " << g);
      }
    }
  });
}

TYPED_TEST(PatternMapping, OwnerIsRoundRobinOverBlocks) {
  using I = typename TypeParam::Index;
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    constexpr dim_t N = Dim<decltype(p)>();
    PT_EXPECT_EQ(fails, LL(p.teamspec().extents()), ref.k.team, "");
    for (dim_t d = 0; d < N; ++d)
      PT_EXPECT_EQ(fails, LL(p.blocksize(d)), ref.dims[d].block, " dimension " << d);
    ForEachPoint<N>(Rect<N>{Coords<N>{}, ref.k.extents}, [&](const Coords<N>& x) {
      auto c = To<I, N>(x);
      ll owner = ref.Owner(x);
      PT_EXPECT_EQ(fails, LL(p.unit_at(c)), owner, " coords " << Str(x));
      auto lc = p.local(c);
      PT_EXPECT_EQ(fails, LL(lc.unit), owner, " coords " << Str(x));
      PT_EXPECT_EQ(fails, LL(lc.coords), ref.LocalCoords(x), " coords " << Str(x));
      PT_EXPECT_EQ(fails, LL(p.local_coords(c)), ref.LocalCoords(x), " coords " << Str(x));
      PT_EXPECT_EQ(fails, LL(p.global_coords(Unit(owner), To<I, N>(ref.LocalCoords(x)))), x, "");
      PT_EXPECT_EQ(fails, LL(p.global(Unit(owner), To<I, N>(ref.LocalCoords(x)))), x, "");
      PT_EXPECT_EQ(fails, LL(p.global_index(Unit(owner), To<I, N>(ref.LocalCoords(x)))),
                   LL(p.global_index(c)), "");
      if (owner == LL(p.myid())) {
        PT_EXPECT_EQ(fails, LL(p.global(To<I, N>(ref.LocalCoords(x)))), x, "");
        PT_EXPECT_EQ(fails, LL(p.local_at(To<I, N>(ref.LocalCoords(x)))), LL(p.at(c)), "");
      }
    });
  });
}

TYPED_TEST(PatternMapping, LocalOffsetsMatchTheReferenceLayout) {
  using I = typename TypeParam::Index;
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    for (ll g = 0; g < ref.size; ++g) {
      auto li = p.local(I(g));
      PT_EXPECT_EQ(fails, LL(li.unit), ref.unit_of[g], " g " << g);
      PT_EXPECT_EQ(fails, LL(li.index), ref.offset_of[g], " g " << g);
    }
    for (ll u = 0; u < nunits(); ++u) {
      const auto& expected = ref.global_of[u];
      for (ll o = 0; o < ll(expected.size()); ++o)
        PT_EXPECT_EQ(fails, LL(p.global_index(Unit(u), I(o))), expected[o],
                     " unit " << u << " offset " << o);
    }
  });
}

TYPED_TEST(PatternMapping, BlocksTileTheIndexSpace) {
  using I = typename TypeParam::Index;
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    constexpr MemArrange A = Arr<decltype(p)>();
    constexpr dim_t N = Dim<decltype(p)>();
    Coords<N> grid = ref.BlockGrid();
    for (dim_t d = 0; d < N; ++d) {  // ceil(E / B)
      ll e = ref.k.extents[d], b = ref.dims[d].block;
      PT_EXPECT_EQ(fails, grid[d], (e + b - 1) / b, " dimension " << d);
    }
    PT_EXPECT_EQ(fails, LL(p.blockspec()), grid, "");
    std::vector<int> covered(ref.size, 0);
    for (ll bi = 0; bi < Product<N>(grid); ++bi) {
      Coords<N> j = Delin<N, A>(bi, grid);
      Rect<N> r = LL(p.block(I(bi)));
      PT_EXPECT_EQ(fails, r, ref.BlockRect(j), " block " << bi);
      PT_EXPECT_EQ(fails, LL(p.block(To<I, N>(j))), r, " block " << Str(j));
      // The last block of a dimension is underfilled, the others are full.
      for (dim_t d = 0; d < N; ++d) {
        ll full = ref.dims[d].block;
        if (j[d] < grid[d] - 1)
          PT_EXPECT_EQ(fails, r.ext[d], full, " block " << Str(j));
        else
          PT_EXPECT_EQ(fails, r.ext[d], ref.k.extents[d] - (grid[d] - 1) * full,
                       " block " << Str(j));
      }
      ll owner = ref.Owner(r.off);
      ForEachPoint<N>(r, [&](const Coords<N>& x) {
        bool inside = true;
        for (dim_t d = 0; d < N; ++d) inside &= x[d] < ref.k.extents[d];
        if (!inside) {
          fails.Fail(__LINE__, "block " + Str(j) + " reaches " + Str(x));
          return;
        }
        ++covered[ref.G(x)];
        PT_EXPECT_EQ(fails, LL(p.unit_at(To<I, N>(x))), owner, " block " << Str(j));
        PT_EXPECT_EQ(fails, LL(p.block_at(To<I, N>(x))), bi, " coords " << Str(x));
      });
    }
    for (ll g = 0; g < ref.size; ++g) PT_EXPECT_EQ(fails, covered[g], 1, " g " << g);
  });
}

TYPED_TEST(PatternMapping, LocalBlocksAreExactlyTheOwnedBlocks) {
  using I = typename TypeParam::Index;
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    constexpr MemArrange A = Arr<decltype(p)>();
    constexpr dim_t N = Dim<decltype(p)>();
    Coords<N> grid = ref.BlockGrid();
    std::vector<ll> listed_by(Product<N>(grid), -1);
    for (ll u = 0; u < nunits(); ++u) {
      Coords<N> nb = ref.LocalBlockGrid(u);
      PT_EXPECT_EQ(fails, LL(p.local_blockspec(Unit(u))), nb, " unit " << u);
      for (ll i = 0; i < Product<N>(nb); ++i) {
        const auto& expected = ref.local_blocks[u][i];
        Rect<N> r = LL(p.local_block(Unit(u), I(i)));
        PT_EXPECT_EQ(fails, r, expected.rect, " unit " << u << " local block " << i);
        // Identify the block by its rectangle; it must be owned by u.
        Coords<N> j;
        for (dim_t d = 0; d < N; ++d) j[d] = r.off[d] / ref.dims[d].block;
        bool valid = true;
        for (dim_t d = 0; d < N; ++d) valid &= j[d] >= 0 && j[d] < grid[d];
        if (!valid) continue;
        PT_EXPECT_EQ(fails, ref.Owner(r.off), u, " unit " << u << " local block " << i);
        ll bi = Lin<N, A>(j, grid);
        PT_EXPECT_EQ(fails, listed_by[bi], -1, " block " << Str(j) << " listed twice");
        listed_by[bi] = u;
      }
    }
    for (ll bi = 0; bi < Product<N>(grid); ++bi)
      PT_EXPECT_EQ(fails, listed_by[bi], ref.Owner(ref.BlockRect(Delin<N, A>(bi, grid)).off),
                   " block " << bi);
  });
}

TYPED_TEST(PatternMapping, LocalBlockLocalIsTheBlockInLocalCoordinates) {
  using I = typename TypeParam::Index;
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    constexpr dim_t N = Dim<decltype(p)>();
    const ll me = myid();
    for (ll i = 0; i < ll(ref.local_blocks[me].size()); ++i) {
      Rect<N> global = ref.local_blocks[me][i].rect;
      Rect<N> expected{ref.LocalCoords(global.off), global.ext};
      Rect<N> r = LL(p.local_block_local(I(i)));
      PT_EXPECT_EQ(fails, r, expected, " local block " << i);
      ForEachPoint<N>(global, [&](const Coords<N>& x) {
        Coords<N> l;
        for (dim_t d = 0; d < N; ++d) l[d] = r.off[d] + x[d] - global.off[d];
        PT_EXPECT_EQ(fails, LL(p.local_coords(To<I, N>(x))), l,
                     " local block " << i << " coords " << Str(x));
      });
    }
  });
}

TYPED_TEST(PatternMapping, CallingUnitQueriesMatchExplicitUnit) {
  using I = typename TypeParam::Index;
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    constexpr dim_t N = Dim<decltype(p)>();
    const auto me = p.myid();
    PT_EXPECT_EQ(fails, LL(me), ll(myid()), "");
    PT_EXPECT_EQ(fails, LL(p.num_units()), ll(nunits()), "");
    PT_EXPECT_EQ(fails, LL(p.team().size()), ll(nunits()), "");
    PT_EXPECT_EQ(fails, LL(p.local_size()), LL(p.local_size(me)), "");
    PT_EXPECT_EQ(fails, LL(p.local_extents()), LL(p.local_extents(me)), "");
    for (dim_t d = 0; d < N; ++d)
      PT_EXPECT_EQ(fails, LL(p.local_extent(d)), LL(p.local_extents(me))[d], " dimension " << d);
    PT_EXPECT_EQ(fails, LL(p.local_blockspec()), LL(p.local_blockspec(me)), "");
    for (ll i = 0; i < Product<N>(ref.LocalBlockGrid(LL(me))); ++i)
      PT_EXPECT_EQ(fails, LL(p.local_block(I(i))), LL(p.local_block(me, I(i))), " block " << i);
    for (ll l = 0; l < LL(p.local_size()); ++l)
      PT_EXPECT_EQ(fails, LL(p.global(I(l))), LL(p.global_index(me, I(l))), " offset " << l);
    for (ll g = 0; g < ref.size; ++g)
      PT_EXPECT_EQ(fails, p.is_local(I(g)), LL(p.unit_at(I(g))) == LL(me), " g " << g);
  });
}

TYPED_TEST(PatternMapping, BalancedTeamSpecSpreadsTheTeamOverDistributedDimensions) {
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    constexpr dim_t N = Dim<decltype(p)>();
    if (!ref.k.balanced) return;
    const auto& ts = p.teamspec();
    PT_EXPECT_EQ(fails, LL(ts.size()), ll(nunits()), "");
    for (dim_t d = 0; d < N; ++d)
      if (ref.k.dists[d].type == DistributionType::NONE)
        PT_EXPECT_EQ(fails, LL(ts.extent(d)), 1, " dimension " << d);
    PT_EXPECT_EQ(fails, p.distspec() == dash::DistributionSpec<N>(ref.k.dists), true, "");
  });
}

// The same cases with a 32-bit index type give the same mapping.
TYPED_TEST(PatternMapping, Int32IndexTypeGivesTheSameMapping) {
  using I = std::int32_t;
  ForEachCase<TypeParam, I>([](const auto& p, const auto& ref, Failures& fails) {
    constexpr dim_t N = Dim<decltype(p)>();
    constexpr MemArrange A = Arr<decltype(p)>();
    for (ll g = 0; g < ref.size; ++g) {
      auto li = p.local(I(g));
      PT_EXPECT_EQ(fails, LL(li.unit), ref.unit_of[g], " g " << g);
      PT_EXPECT_EQ(fails, LL(li.index), ref.offset_of[g], " g " << g);
      PT_EXPECT_EQ(fails, LL(p.global_index(li.unit, li.index)), g, "");
      PT_EXPECT_EQ(fails, LL(p.coords(I(g))), ref.CoordsOf(g), " g " << g);
    }
    ll max = 0;
    for (ll u = 0; u < nunits(); ++u) {
      PT_EXPECT_EQ(fails, LL(p.local_size(Unit(u))), ll(ref.global_of[u].size()), " unit " << u);
      max = std::max(max, ll(ref.global_of[u].size()));
      for (ll i = 0; i < ll(ref.local_blocks[u].size()); ++i)
        PT_EXPECT_EQ(fails, LL(p.local_block(Unit(u), I(i))), ref.local_blocks[u][i].rect,
                     " unit " << u << " local block " << i);
    }
    PT_EXPECT_EQ(fails, LL(p.local_capacity()), ref.Capacity(), "");
    PT_EXPECT_EQ(fails, LL(p.local_capacity()) >= max, true, " max local size " << max);
    Coords<N> grid = ref.BlockGrid();
    PT_EXPECT_EQ(fails, LL(p.blockspec()), grid, "");
    for (ll bi = 0; bi < Product<N>(grid); ++bi)
      PT_EXPECT_EQ(fails, LL(p.block(I(bi))), ref.BlockRect(Delin<N, A>(bi, grid)),
                   " block " << bi);
    if constexpr (TypeParam::kTiled) {
      const auto& blocks = ref.local_blocks[myid()];
      for (ll i = 0; i < ll(blocks.size()); ++i)
        PT_EXPECT_EQ(fails, LL(p.local_block_offset(I(i))), blocks[i].offset, " local block " << i);
    }
  });
}

// 1-D closed forms, through the 1-D constructor (size, distribution).
TYPED_TEST(PatternMapping, OneDimensionalMappingMatchesClosedForms) {
  using P = typename TypeParam::template Pattern<1>;
  using I = typename TypeParam::Index;
  const ll n = nunits();
  for (ll e : {0, 1, 7, 10, 17, 24}) {
    struct Expect {
      Distribution dist;
      ll block;
    };
    for (auto [dist, b] :
         {Expect{dash::CYCLIC, 1}, Expect{dash::BLOCKED, e == 0 ? 1 : (e + n - 1) / n},
          Expect{dash::BLOCKCYCLIC(3), 3}, Expect{dash::TILE(4), 4}}) {
      P p(static_cast<typename TypeParam::Size>(e), dist);
      EXPECT_EQ(LL(p.size()), e);
      EXPECT_EQ(LL(p.teamspec().extent(0)), n);
      std::vector<ll> count(n, 0);
      for (ll g = 0; g < e; ++g) {
        auto li = p.local(I(g));
        ASSERT_EQ(LL(li.unit), (g / b) % n) << DistName(dist) << " e " << e << " g " << g;
        ASSERT_EQ(LL(li.index), (g / b / n) * b + g % b)
            << DistName(dist) << " e " << e << " g " << g;
        ++count[(g / b) % n];
      }
      for (ll u = 0; u < n; ++u) EXPECT_EQ(LL(p.local_size(Unit(u))), count[u]) << DistName(dist);
    }
  }
}

// Every constructor of a case builds the same mapping as the explicit one.
TYPED_TEST(PatternMapping, ConstructorsAgreeWithTheExplicitForm) {
  using I = typename TypeParam::Index;
  using S = typename TypeParam::Size;
  using P1 = typename TypeParam::template Pattern<1>;
  using P2 = typename TypeParam::template Pattern<2>;
  using DS2 = dash::DistributionSpec<2>;
  const ll n = nunits();
  for (ll e : {0, 5, 13}) {
    for (auto dist : AllDistributions()) {
      if (dist.type == DistributionType::NONE && n > 1) continue;
      P1 a(S(e), dist);
      P1 b{dash::SizeSpec<1, I>(S(e)), dash::DistributionSpec<1>(dist), dash::TeamSpec<1, I>(S(n))};
      P1 c{dash::SizeSpec<1, I>(S(e)), dash::DistributionSpec<1>(dist), dash::Team::All()};
      EXPECT_TRUE(a.teamspec() == b.teamspec() && b.teamspec() == c.teamspec());
      for (ll g = 0; g < e; ++g) {
        EXPECT_EQ(LL(a.local(I(g)).unit), LL(b.local(I(g)).unit));
        EXPECT_EQ(LL(a.local(I(g)).index), LL(b.local(I(g)).index));
        EXPECT_EQ(LL(c.local(I(g)).index), LL(b.local(I(g)).index));
      }
    }
  }
  // DASH's variadic form: extents first, then Distributions or a DistributionSpec, a
  // TeamSpec and a Team in any order; what is left out takes the defaults.
  const DS2 dists(dash::BLOCKCYCLIC(2), dash::TILE(3));
  const P2 spec(dash::SizeSpec<2, I>(S(9), S(7)), dists, dash::TeamSpec<2, I>(dists));
  const P2 variadic[] = {P2(9, 7, dash::BLOCKCYCLIC(2), dash::TILE(3)),
                         P2(S(9), 7u, dists, dash::Team::All()),
                         P2(9, 7, dash::Team::All(), dash::BLOCKCYCLIC(2), dash::TILE(3)),
                         P2(9, 7, dash::TeamSpec<2, I>(dists), dists),
                         P2(9, 7, dists, dash::TeamSpec<2, I>(), dash::Team::All())};
  for (const P2& v : variadic) {
    EXPECT_TRUE(v.distspec() == spec.distspec());
    EXPECT_EQ(v.teamspec(), spec.teamspec());
    for (ll g = 0; g < 63; ++g) {
      EXPECT_EQ(LL(v.local(I(g)).unit), LL(spec.local(I(g)).unit)) << g;
      EXPECT_EQ(LL(v.local(I(g)).index), LL(spec.local(I(g)).index)) << g;
    }
    EXPECT_EQ(LL(v.at(4, 5)), LL(spec.at({4, 5})));
    EXPECT_EQ(LL(v.capacity()), 63);
  }
  const P1 one(S(13));  // 1-D with every default: BLOCKED over the whole team
  EXPECT_TRUE(one.distspec() == dash::DistributionSpec<1>(dash::BLOCKED));
  EXPECT_EQ(LL(one.at(12)), LL(one.at({12})));
  if constexpr (!TypeParam::kTiled) {
    // BlockPattern's default distribution: BLOCKED rows, NONE columns.
    P2 d(dash::SizeSpec<2, I>(S(9), S(4)));
    const P2 d_variadic(9, 4);
    EXPECT_TRUE(d_variadic.distspec() == d.distspec());
    EXPECT_EQ(d_variadic.teamspec(), d.teamspec());
    EXPECT_TRUE(d.distspec() == dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
    EXPECT_EQ(LL(d.teamspec().extent(0)), n);
    EXPECT_EQ(LL(d.teamspec().extent(1)), 1);
  }
}

// ---- extreme extents and block sizes ----------------------------------------

// 1-D patterns of (nearly) the largest extent the index type allows: local
// sizes, block counts and sampled lookups must not overflow.
template <class C, class I>
void CheckExtentsNearTheIndexLimit() {
  using S = std::make_unsigned_t<I>;
  using P = typename C::template Tmpl<1, C::kArr, I>;
  const ll max = std::numeric_limits<I>::max(), n = nunits();
  std::vector<Distribution> dists = {dash::BLOCKED,
                                     dash::CYCLIC,
                                     dash::BLOCKCYCLIC(3),
                                     dash::TILE(7),
                                     dash::BLOCKCYCLIC(S(max / 2 + 1)),
                                     dash::BLOCKCYCLIC(S(max - 1)),
                                     dash::TILE(S(max))};
  if (n == 1) dists.push_back(dash::NONE);
  for (ll e : {max, max - 1}) {
    for (const auto& dist : dists) {
      const std::string what =
          std::to_string(sizeof(I) * 8) + "-bit, extent " + Str(e) + ", " + DistName(dist);
      P p(static_cast<S>(e), dist);
      const ll b = RefBlockExtent(dist, e, n);
      EXPECT_EQ(LL(p.blockspec().extent(0)), e / b + (e % b != 0)) << what;
      unsigned long long sum = 0, most = 0;
      for (ll u = 0; u < n; ++u) {
        unsigned long long size = p.local_size(Unit(u));
        sum += size;
        most = std::max(most, size);
      }
      EXPECT_EQ(sum, static_cast<unsigned long long>(e)) << what;
      // DASH's capacity (the most blocks of a unit, each full), capped at the index type's
      // largest value.
      const ll nb = e / b + (e % b != 0);
      const unsigned long long padded = static_cast<unsigned long long>(nb / n + (nb % n != 0)) *
                                        static_cast<unsigned long long>(std::min(b, e));
      EXPECT_EQ(static_cast<unsigned long long>(p.local_capacity()),
                std::min(padded, static_cast<unsigned long long>(max)))
          << what;
      EXPECT_GE(static_cast<unsigned long long>(p.local_capacity()), most) << what;
      for (ll g : {ll(0), ll(1), b - 1, b, e / 3, e - b, e - 2, e - 1}) {
        if (g < 0 || g >= e) continue;
        auto li = p.local(I(g));
        EXPECT_EQ(LL(li.unit), (g / b) % n) << what << ", g " << g;
        EXPECT_EQ(LL(li.index), (g / b / n) * b + g % b) << what << ", g " << g;
        EXPECT_EQ(LL(p.global_index(li.unit, li.index)), g) << what << ", g " << g;
      }
    }
  }
}

TYPED_TEST(PatternMapping, ExtentsNearTheIndexLimitDoNotOverflow) {
  CheckExtentsNearTheIndexLimit<TypeParam, std::int32_t>();
  CheckExtentsNearTheIndexLimit<TypeParam, std::int64_t>();
}

// A block size at or beyond the extent (even beyond the index type) makes
// one underfilled block holding the whole dimension, on unit 0.
template <class C, class I>
void CheckBlocksLargerThanTheExtent() {
  using S = std::make_unsigned_t<I>;
  using P = typename C::template Tmpl<2, C::kArr, I>;
  const ll n = nunits();
  const Coords<2> ext{10, 7};
  const std::uint64_t max = static_cast<std::uint64_t>(std::numeric_limits<I>::max());
  for (std::uint64_t b : {std::uint64_t(10), std::uint64_t(11), std::uint64_t(1000), max, max + 1,
                          std::uint64_t(1) << 40, std::numeric_limits<std::uint64_t>::max()}) {
    for (auto dist : {dash::BLOCKCYCLIC(b), dash::TILE(b)}) {
      const std::string what =
          std::to_string(sizeof(I) * 8) + "-bit, " + DistName(dist) + " x " + DistName(dist);
      P p(dash::SizeSpec<2, I>(S(10), S(7)), dash::DistributionSpec<2>(dist, dist),
          dash::TeamSpec<2, I>(S(n), S(1)));
      EXPECT_EQ(LL(p.blockspec()), (Coords<2>{1, 1})) << what;
      EXPECT_EQ(LL(p.block(I(0))), (Rect<2>{{0, 0}, ext})) << what;
      EXPECT_EQ(LL(p.local_size(Unit(0))), 70) << what;
      EXPECT_EQ(LL(p.local_capacity()), 70) << what;
      EXPECT_EQ(LL(p.local_block(Unit(0), I(0))), (Rect<2>{{0, 0}, ext})) << what;
      for (ll g = 0; g < 70; ++g) {
        auto li = p.local(I(g));
        ASSERT_EQ(LL(li.unit), 0) << what << ", g " << g;
        ASSERT_EQ(LL(li.index), g) << what << ", g " << g;  // one array = one tile, Arr order
        ASSERT_EQ(LL(p.global_index(li.unit, li.index)), g) << what << ", g " << g;
      }
    }
  }
}

TYPED_TEST(PatternMapping, BlocksLargerThanTheExtentFormOneBlock) {
  CheckBlocksLargerThanTheExtent<TypeParam, std::int32_t>();
  CheckBlocksLargerThanTheExtent<TypeParam, std::int64_t>();
}

// ---- bad input -------------------------------------------------------------

template <class F>
void ExpectInvalidArgument(F&& f, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << what << ": no exception";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("Pattern"), std::string::npos) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": threw another exception: " << e.what();
  }
}

TYPED_TEST(PatternMapping, EmptyGridOrNullTeamThrowsInvalidArgument) {
  using I = typename TypeParam::Index;
  using S = typename TypeParam::Size;
  using P1 = typename TypeParam::template Pattern<1>;
  using P2 = typename TypeParam::template Pattern<2>;
  const S n = nunits();
  dash::SizeSpec<1, I> s1(S(8));
  dash::SizeSpec<2, I> s2(S(8), S(8));
  dash::DistributionSpec<1> d1(dash::BLOCKED);
  dash::DistributionSpec<2> d2(dash::BLOCKED, dash::TILE(2));
  ExpectInvalidArgument([&] { P1(s1, d1, dash::TeamSpec<1, I>(S(0))); }, "1-D 0 units");
  ExpectInvalidArgument([&] { P2(s2, d2, dash::TeamSpec<2, I>(n, S(0))); }, "2-D n x 0");
  ExpectInvalidArgument([&] { P2(s2, d2, dash::TeamSpec<2, I>(n, S(1)), dash::Team::Null()); },
                        "Null team");
}

// A grid of another size than the team (DASH's rule): the pattern maps every element to one
// of the grid's units, each exactly once, with the local sizes of the grid's units summing to
// the size; units of the team beyond the grid own nothing.
TYPED_TEST(PatternMapping, GridOfAnotherSizeThanTheTeamMapsToItsUnits) {
  using I = typename TypeParam::Index;
  using S = typename TypeParam::Size;
  using P2 = typename TypeParam::template Pattern<2>;
  using P3 = typename TypeParam::template Pattern<3>;
  const S n = nunits();
  auto check = [&](const auto& p, S grid_units, const std::string& what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(S(p.num_units()), grid_units);
    std::vector<S> owned(grid_units + n, 0);
    for (I g = 0; g < I(p.size()); ++g) {
      const auto l = p.local(g);
      ASSERT_GE(l.unit.id, 0);
      ASSERT_LT(S(l.unit.id), grid_units) << "element " << g;
      ASSERT_LT(S(l.index), S(p.local_size(l.unit))) << "element " << g;
      EXPECT_EQ(p.global_index(l.unit, l.index), g);
      ++owned[S(l.unit.id)];
    }
    for (S u = 0; u < grid_units + n; ++u)
      EXPECT_EQ(S(p.local_size(dash::team_unit_t(dart_unit_t(u)))), owned[u]) << "unit " << u;
    EXPECT_EQ(S(p.local_size()), owned[S(myid())]);
  };
  dash::SizeSpec<2, I> s2(S(9), S(7));
  dash::SizeSpec<3, I> s3(S(4), S(5), S(3));
  dash::DistributionSpec<2> d2(dash::BLOCKED, dash::TILE(2));
  dash::DistributionSpec<3> d3(dash::CYCLIC, dash::BLOCKED, dash::BLOCKCYCLIC(2));
  check(P2(s2, d2, dash::TeamSpec<2, I>(n, S(2))), 2 * n, "2-D n x 2");
  check(P2(s2, d2, dash::TeamSpec<2, I>(S(1), n + 1)), n + 1, "2-D 1 x n+1");
  check(P3(s3, d3, dash::TeamSpec<3, I>(S(1), n, S(2))), 2 * n, "3-D 1 x n x 2");
  check(P2(s2, d2, dash::TeamSpec<2, I>(S(1), S(1))), 1, "2-D 1 x 1");
  if (n > 1) check(P3(s3, d3, dash::TeamSpec<3, I>(S(1), S(1), n - 1)), n - 1, "3-D 1 x 1 x n-1");
  // The matching grid as before.
  check(P2(s2, d2, dash::TeamSpec<2, I>(S(1), n)), n, "2-D 1 x n");
}

// NONE over several unit coordinates (DASH allows it) is one block, held by coordinate 0; the
// other coordinates of that dimension own nothing. Here every case puts all units along the NONE
// dimension, so unit 0 holds everything, in the global order.
TYPED_TEST(PatternMapping, NoneOverSeveralUnitsGoesToTheFirstUnitCoordinate) {
  using I = typename TypeParam::Index;
  using S = typename TypeParam::Size;
  using P1 = typename TypeParam::template Pattern<1>;
  using P2 = typename TypeParam::template Pattern<2>;
  using P3 = typename TypeParam::template Pattern<3>;
  const S n = nunits();
  auto check = [&](const auto& p, const std::string& what) {
    const ll size = LL(p.size());
    EXPECT_EQ(LL(p.num_units()), ll(n)) << what;
    for (ll u = 0; u < ll(n); ++u)
      EXPECT_EQ(LL(p.local_size(Unit(u))), u == 0 ? size : 0) << what << ", unit " << u;
    EXPECT_EQ(LL(p.local_size()), myid() == 0 ? size : 0) << what;
    EXPECT_EQ(LL(p.local_capacity()), size) << what;
    for (ll g = 0; g < size; ++g) {
      auto li = p.local(I(g));
      ASSERT_EQ(LL(li.unit), 0) << what << ", g " << g;
      ASSERT_EQ(LL(li.index), g) << what << ", g " << g;
      ASSERT_EQ(LL(p.global_index(li.unit, li.index)), g) << what << ", g " << g;
    }
  };
  dash::SizeSpec<2, I> s2(S(6), S(7));
  dash::SizeSpec<3, I> s3(S(3), S(5), S(4));
  check(P2(s2, dash::DistributionSpec<2>(dash::NONE, dash::BLOCKED), dash::TeamSpec<2, I>(n, S(1))),
        "NONE x BLOCKED over n x 1");
  check(P2(s2, dash::DistributionSpec<2>(dash::TILE(2), dash::NONE), dash::TeamSpec<2, I>(S(1), n)),
        "TILE(2) x NONE over 1 x n");
  check(P3(s3, dash::DistributionSpec<3>(dash::BLOCKED, dash::NONE, dash::CYCLIC),
           dash::TeamSpec<3, I>(S(1), n, S(1))),
        "BLOCKED x NONE x CYCLIC over 1 x n x 1");
  check(P1(S(11), dash::NONE), "1-D NONE");
  check(P2(s2, dash::DistributionSpec<2>(dash::NONE, dash::NONE)), "NONE x NONE");
  // DASH's form of it: extents, then a TeamSpec spreading a NONE dimension (the default
  // distribution BLOCKED, NONE, NONE).
  check(P3(S(3), S(5), S(4), dash::TeamSpec<3, I>(S(1), n, S(1))), "variadic, 1 x n x 1");
}

TYPED_TEST(PatternMapping, ZeroBlockSizeThrowsInvalidArgument) {
  using I = typename TypeParam::Index;
  using S = typename TypeParam::Size;
  using P1 = typename TypeParam::template Pattern<1>;
  using P3 = typename TypeParam::template Pattern<3>;
  const S n = nunits();
  dash::SizeSpec<3, I> s3(S(4), S(5), S(6));
  for (auto zero : {dash::BLOCKCYCLIC(0), dash::TILE(0)}) {
    for (dim_t d = 0; d < 3; ++d) {
      std::array<Distribution, 3> dists{dash::BLOCKED, dash::TILE(2), dash::CYCLIC};
      dists[d] = zero;
      dash::DistributionSpec<3> ds(dists);
      std::string what = DistName(zero) + " in dimension " + std::to_string(d);
      ExpectInvalidArgument([&] { P3(s3, ds, dash::TeamSpec<3, I>(n, S(1), S(1))); }, what);
      ExpectInvalidArgument([&] { P3(s3, ds, dash::TeamSpec<3, I>(S(1), S(1), n)); }, what);
      ExpectInvalidArgument([&] { P3(s3, ds); }, what + " balanced");
    }
    ExpectInvalidArgument([&] { P1(S(10), zero); }, DistName(zero) + " 1-D constructor");
  }
}

template <class C, class I>
void ExpectOverflowThrows() {
  using S = std::make_unsigned_t<I>;
  using P1 = typename C::template Tmpl<1, C::kArr, I>;
  using P2 = typename C::template Tmpl<2, C::kArr, I>;
  const S max = static_cast<S>(std::numeric_limits<I>::max());
  const S n = nunits();
  const std::string type = sizeof(I) == 4 ? "int32 " : "int64 ";
  ExpectInvalidArgument(
      [&] {
        P1(dash::SizeSpec<1, I>(S(max + 1)), dash::DistributionSpec<1>(dash::BLOCKED),
           dash::TeamSpec<1, I>(n));
      },
      type + "1-D max+1");
  ExpectInvalidArgument(
      [&] {
        P2(dash::SizeSpec<2, I>(S(max / 2 + 1), S(3)),
           dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE), dash::TeamSpec<2, I>(n, S(1)));
      },
      type + "2-D product");
  // The largest extent that fits is accepted.
  EXPECT_NO_THROW(P1(dash::SizeSpec<1, I>(max), dash::DistributionSpec<1>(dash::BLOCKED),
                     dash::TeamSpec<1, I>(n)));
}

TYPED_TEST(PatternMapping, ExtentsOverflowingTheIndexTypeThrowInvalidArgument) {
  ExpectOverflowThrows<TypeParam, std::int64_t>();
  ExpectOverflowThrows<TypeParam, std::int32_t>();
}

// ---- BlockPattern layout ---------------------------------------------------

template <class C>
class BlockPatternLayout : public ::testing::Test {};
using BlockConfigs = ::testing::Types<BlockRow, BlockCol>;
TYPED_TEST_SUITE(BlockPatternLayout, BlockConfigs, ConfigNames);

// A unit's elements form one array of its local extents in Arr order.
TYPED_TEST(BlockPatternLayout, LocalMemoryIsOneArrayOfTheLocalExtents) {
  using I = typename TypeParam::Index;
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    constexpr MemArrange A = Arr<decltype(p)>();
    constexpr dim_t N = Dim<decltype(p)>();
    ForEachPoint<N>(Rect<N>{Coords<N>{}, ref.k.extents}, [&](const Coords<N>& x) {
      auto lc = p.local(To<I, N>(x));
      PT_EXPECT_EQ(fails, LL(p.at(To<I, N>(x))),
                   (Lin<N, A>(LL(lc.coords), LL(p.local_extents(lc.unit)))), " coords " << Str(x));
    });
  });
}

// Hand-computed: (4n-1) x 5 elements, TILE(2) x TILE(2), n x 1 units. Unit u
// holds row blocks u and u+n (the last row block, of unit n-1, has one row)
// and all 5 columns.
TYPED_TEST(BlockPatternLayout, HandComputedTwoDimensionalExample) {
  using P = typename TypeParam::template Pattern<2>;
  using I = typename TypeParam::Index;
  using S = typename TypeParam::Size;
  const ll n = nunits();
  P p(dash::SizeSpec<2, I>(S(4 * n - 1), S(5)),
      dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(2)), dash::TeamSpec<2, I>(S(n), S(1)));
  for (ll r = 0; r < 4 * n - 1; ++r) {
    for (ll c = 0; c < 5; ++c) {
      ll u = (r / 2) % n, rows = u == n - 1 ? 3 : 4, lr = (r / 2 / n) * 2 + r % 2;
      ll expected = TypeParam::kArr == ROW_MAJOR ? lr * 5 + c : c * rows + lr;
      auto li = p.local_index(std::array<I, 2>{I(r), I(c)});
      EXPECT_EQ(LL(li.unit), u) << r << "," << c;
      EXPECT_EQ(LL(li.index), expected) << r << "," << c;
    }
  }
  for (ll u = 0; u < n; ++u) EXPECT_EQ(LL(p.local_size(Unit(u))), u == n - 1 ? 15 : 20);
  // DASH's capacity: 2 row blocks and 3 column blocks of 2 x 2, all counted full.
  EXPECT_EQ(LL(p.local_capacity()), 24);
}

// ---- TilePattern layout ----------------------------------------------------

template <class C>
class TilePatternLayout : public ::testing::Test {};
using TileConfigs = ::testing::Types<TileRow, TileCol>;
TYPED_TEST_SUITE(TilePatternLayout, TileConfigs, ConfigNames);

TYPED_TEST(TilePatternLayout, LocalBlockOffsetIsTheFirstElementOfTheTile) {
  using I = typename TypeParam::Index;
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    constexpr dim_t N = Dim<decltype(p)>();
    const auto& blocks = ref.local_blocks[myid()];
    for (ll i = 0; i < ll(blocks.size()); ++i) {
      PT_EXPECT_EQ(fails, LL(p.local_block_offset(I(i))), blocks[i].offset, " local block " << i);
      Rect<N> r = LL(p.local_block(I(i)));
      if (r.size() > 0)
        PT_EXPECT_EQ(fails, LL(p.at(To<I, N>(r.off))), LL(p.local_block_offset(I(i))),
                     " local block " << i);
    }
  });
}

// Each tile takes [offset, offset + tile size), its elements in Arr order;
// tile i + 1 starts where tile i ends; the last one ends at local_size.
TYPED_TEST(TilePatternLayout, TilesAreContiguousAndFollowEachOther) {
  using I = typename TypeParam::Index;
  ForEachCase<TypeParam>([](const auto& p, const auto& ref, Failures& fails) {
    constexpr MemArrange A = Arr<decltype(p)>();
    constexpr dim_t N = Dim<decltype(p)>();
    for (ll u = 0; u < nunits(); ++u) {
      ll next = 0;
      for (ll i = 0; i < Product<N>(LL(p.local_blockspec(Unit(u)))); ++i) {
        Rect<N> r = LL(p.local_block(Unit(u), I(i)));
        ForEachPoint<N>(r, [&](const Coords<N>& x) {
          Coords<N> in_tile;
          for (dim_t d = 0; d < N; ++d) in_tile[d] = x[d] - r.off[d];
          auto li = p.local_index(To<I, N>(x));
          PT_EXPECT_EQ(fails, LL(li.unit), u, " coords " << Str(x));
          PT_EXPECT_EQ(fails, LL(li.index), next + (Lin<N, A>(in_tile, r.ext)),
                       " unit " << u << " tile " << i << " coords " << Str(x));
        });
        next += r.size();
      }
      PT_EXPECT_EQ(fails, next, LL(p.local_size(Unit(u))), " unit " << u);
    }
    (void)ref;
  });
}

// Hand-computed: (4n-1) x 5 elements, TILE(2) x TILE(2), n x 1 units. Unit u
// holds row tiles u and u+n and column tiles 0, 1, 2 (widths 2, 2, 1); the
// last row tile (unit n-1) has one row. No tile is padded.
TYPED_TEST(TilePatternLayout, UnderfilledTilesArePacked) {
  using P = typename TypeParam::template Pattern<2>;
  using I = typename TypeParam::Index;
  using S = typename TypeParam::Size;
  const ll n = nunits();
  P p(dash::SizeSpec<2, I>(S(4 * n - 1), S(5)),
      dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(2)), dash::TeamSpec<2, I>(S(n), S(1)));
  for (ll r = 0; r < 4 * n - 1; ++r) {
    for (ll c = 0; c < 5; ++c) {
      ll u = (r / 2) % n, rows = u == n - 1 ? 3 : 4;
      ll a = r / 2 / n, b = c / 2;                                // local tile coordinates
      ll h = (u == n - 1 && a == 1) ? 1 : 2, w = b == 2 ? 1 : 2;  // this tile's extents
      ll expected = TypeParam::kArr == ROW_MAJOR ? a * 2 * 5 + b * 2 * h + (r % 2) * w + c % 2
                                                 : b * 2 * rows + a * 2 * w + (c % 2) * h + r % 2;
      auto li = p.local_index(std::array<I, 2>{I(r), I(c)});
      EXPECT_EQ(LL(li.unit), u) << r << "," << c;
      EXPECT_EQ(LL(li.index), expected) << r << "," << c;
    }
  }
  for (ll u = 0; u < n; ++u) EXPECT_EQ(LL(p.local_size(Unit(u))), u == n - 1 ? 15 : 20);
  // DASH's capacity: 2 row blocks and 3 column blocks of 2 x 2, all counted full.
  EXPECT_EQ(LL(p.local_capacity()), 24);
  // The last tile of unit n-1 is 1 x 1 at offset 14.
  if (myid() == n - 1) {
    EXPECT_EQ(LL(p.local_block_offset(I(5))), 14);
    EXPECT_EQ(p.local_block_local(I(5)).size(), 1u);
  }
}

// TeamSpec's constructors follow DASH: every unit in dimension 0 from a team, in the first TILE
// (else the first distributed) dimension from a distribution; a grid made from a team and given
// to a pattern that distributes more than one dimension (or made from another team) is
// rearranged the same way, an explicit grid is kept; balance_extents balances.
TEST(TeamSpecDash, UnitsGoWhereDashPutsThem) {
  const std::size_t n = std::size_t(nunits());
  using TS2 = dash::TeamSpec<2>;
  using DS2 = dash::DistributionSpec<2>;
  EXPECT_EQ(TS2().extents(), (std::array<std::size_t, 2>{n, 1}));
  EXPECT_EQ(dash::TeamSpec<3>(dash::Team::All()).extents(), (std::array<std::size_t, 3>{n, 1, 1}));
  EXPECT_EQ(TS2(DS2(dash::TILE(2), dash::TILE(3))).extents(), (std::array<std::size_t, 2>{n, 1}));
  EXPECT_EQ(TS2(DS2(dash::BLOCKED, dash::TILE(3))).extents(), (std::array<std::size_t, 2>{1, n}));
  EXPECT_EQ(TS2(DS2(dash::NONE, dash::BLOCKED)).extents(), (std::array<std::size_t, 2>{1, n}));
  EXPECT_EQ(TS2(DS2(dash::CYCLIC, dash::BLOCKED)).extents(), (std::array<std::size_t, 2>{n, 1}));
  EXPECT_EQ(TS2(DS2(dash::NONE, dash::NONE)).extents(), (std::array<std::size_t, 2>{n, 1}));
  // A grid made from the team, given with a distribution over two dimensions, is rearranged;
  // with one distributed dimension, or an explicit grid, it is kept.
  const DS2 tiles(dash::BLOCKED, dash::TILE(2));
  EXPECT_EQ(TS2(TS2(), tiles, dash::Team::All()).extents(), (std::array<std::size_t, 2>{1, n}));
  EXPECT_EQ(TS2(TS2(), DS2(dash::NONE, dash::BLOCKED), dash::Team::All()).extents(),
            (std::array<std::size_t, 2>{n, 1}));
  EXPECT_EQ(TS2(TS2(n, 1), tiles, dash::Team::All()).extents(), (std::array<std::size_t, 2>{n, 1}));
  // An explicit grid of another size than the team is kept too (the pattern maps to its
  // units); one made from another team is made the team's.
  EXPECT_EQ(TS2(TS2(n + 1, 1), tiles, dash::Team::All()).extents(),
            (std::array<std::size_t, 2>{n + 1, 1}));
  if (n > 1) {
    dash::Team& half = dash::Team::All().split(2);
    const TS2 of_half(half);
    EXPECT_EQ(of_half.size(), half.size());
    EXPECT_EQ(TS2(of_half, DS2(dash::NONE, dash::BLOCKED), dash::Team::All()).extents(),
              (std::array<std::size_t, 2>{1, n}));
    dash::Team::All().barrier();
  }
  TS2 balanced;
  balanced.balance_extents();
  EXPECT_EQ(balanced.num_units(), n);
  TS2 copied = balanced;
  EXPECT_EQ(TS2(copied, tiles, dash::Team::All()), balanced);  // not made from the team: kept
  // DASH's tiled-matrix check: with TILE(b), TILE(b) over the default grid, the first local
  // tile of unit u starts at row u * b, column 0.
  const long b = 3;
  const dash::TilePattern<2> pattern(dash::SizeSpec<2>(b * long(n) * 2, b * 4),
                                     DS2(dash::TILE(b), dash::TILE(b)));
  EXPECT_EQ(pattern.teamspec().extents(), (std::array<std::size_t, 2>{n, 1}));
  const auto first = pattern.local_block(0);
  EXPECT_EQ(first.offset(0), b * long(myid()));
  EXPECT_EQ(first.offset(1), 0);
  // A pattern given the team's default grid with a distribution over two dimensions puts the
  // units in the first TILE dimension, as TeamSpec(dist, team) does.
  const dash::BlockPattern<2> rows_of_tiles(dash::SizeSpec<2>(8, 6 * long(n)), tiles, TS2());
  EXPECT_EQ(rows_of_tiles.teamspec().extents(), (std::array<std::size_t, 2>{1, n}));
}

}  // namespace
