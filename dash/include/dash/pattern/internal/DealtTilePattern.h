// Core of dash::ShiftTilePattern and dash::SeqTilePattern: tiles of fixed
// extents dealt to the units of a team by a rule on the tile grid (TileDeal),
// local memory "blocked" with underfilled tiles packed; every lookup O(1).
#ifndef DASH__PATTERN__INTERNAL__DEALT_TILE_PATTERN_H_
#define DASH__PATTERN__INTERNAL__DEALT_TILE_PATTERN_H_

#include <dash/pattern/DistributionSpec.h>
#include <dash/pattern/PatternProperties.h>
#include <dash/pattern/TeamSpec.h>
#include <dash/pattern/internal/PatternArguments.h>
#include <dash/pattern/internal/PatternBase.h>

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <type_traits>

namespace dash {
namespace internal {

// How DealtTilePattern deals its tiles to the P units of the team.
enum class TileDeal {
  Shifted,     // tile (j0, j1) -> (j0 + j1) mod P   (ShiftTilePattern)
  Sequential,  // tile with linear index b -> b mod P (SeqTilePattern)
};

// gcd of a, b >= 0.
template <class I>
constexpr I tile_gcd(I a, I b) {
  while (b != 0) {
    I t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// x with a * x = 1 (mod m), for gcd(a, m) = 1 and m >= 1 (0 for m = 1).
template <class I>
constexpr I tile_mod_inverse(I a, I m) {
  // Extended Euclid; invariant s_k * a = r_k (mod m). |s| stays below m.
  I r0 = m, r1 = a % m, s0 = 0, s1 = 1;
  while (r1 != 0) {
    I q = r0 / r1;
    I r2 = r0 - q * r1, s2 = s0 - q * s1;
    r0 = r1;
    r1 = r2;
    s0 = s1;
    s1 = s2;
  }
  return ((s0 % m) + m) % m;
}

// a * b mod m for 0 <= a, b < m, without overflow.
template <class I>
constexpr I tile_mul_mod(I a, I b, I m) {
  if constexpr (sizeof(I) <= 4) {
    return static_cast<I>(static_cast<std::int64_t>(a) * b % m);
  } else {
#ifdef __SIZEOF_INT128__
    return static_cast<I>(static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b) %
                          static_cast<unsigned __int128>(m));
#else
    I r = 0;  // double and add
    for (; b > 0; b >>= 1) {
      if (b & 1) r = (r >= m - a) ? r - (m - a) : r + a;
      a = (a >= m - a) ? a - (m - a) : a + a;
    }
    return r;
#endif
  }
}

// Core of ShiftTilePattern and SeqTilePattern (N = 1, 2).
//
// Internally the tile grid is seen in Arrangement order: "rows" are the
// slower-moving tile coordinate a, "columns" the faster one c, so the linear
// tile index is b = a * ncols + c (1-D: one row). A 1-D pattern gets a virtual
// row dimension of extent 1. Only tiles in the last column (c = ncols - 1)
// and in the last row (a = nrows - 1) can be underfilled, so a tile has one of
// four sizes: full F, last column Scol, last row Srow, corner Scorner.
//
// A unit's tiles, in increasing b, are numbered by their rank k (its local
// block index). The row-by-row order puts the tiles of the last row at the
// end, the corner last of all. Among the tiles before the last row, the
// last-column tiles of a unit have ranks phase(u) + t * period (t = 0, 1, ...),
// with a period that does not depend on the unit, so
//   offset(k) = (k - nc) * F + nc * Scol,  nc = #{t : phase + t * period < k}
// for k up to the start of the last row, and the last row adds whole Srow
// tiles (the corner, if owned, only ends the memory).
template <class Derived, dim_t N, MemArrange Arr, class IndexType, TileDeal Deal>
class DealtTilePattern : public PatternBase<Derived, N, Arr, IndexType> {
  using Base = PatternBase<Derived, N, Arr, IndexType>;

 public:
  using typename Base::coords_type;
  using typename Base::index_type;
  using typename Base::local_index_type;
  using typename Base::size_type;
  using viewspec_type = ViewSpec<N, IndexType>;

  const DistributionSpec<N>& distspec() const { return distspec_; }
  const TeamSpec<N, IndexType>& teamspec() const { return teamspec_; }
  // Full tile extent in dimension d (as the Distribution gives it).
  index_type blocksize(dim_t d) const { return blocksize_[d]; }
  // Number of tiles per dimension.
  SizeSpec<N, IndexType> blockspec() const {
    std::array<size_type, N> nb;
    for (dim_t d = 0; d < N; ++d) nb[d] = static_cast<size_type>(nb_[slot_of(d)]);
    return SizeSpec<N, IndexType>(nb);
  }
  // Rectangle of tile `block_coords` of the tile grid, in global coordinates.
  viewspec_type block(const coords_type& block_coords) const {
    coords_type off;
    std::array<size_type, N> ext;
    for (dim_t d = 0; d < N; ++d) {
      int s = slot_of(d);
      off[d] = block_coords[d] * tb_[s];
      ext[d] = static_cast<size_type>(block_coords[d] == nb_[s] - 1 ? last_[s] : tb_[s]);
    }
    return viewspec_type(off, ext);
  }
  // Tile with linear index gblock (Arrangement order over the tile grid).
  viewspec_type block(index_type gblock) const {
    return block(delinearize<N, Arr>(gblock, blockspec().extents()));
  }
  // Owner of tile `block_coords`.
  team_unit_t block_unit(const coords_type& block_coords) const {
    Tile t = tile_of_block(block_coords);
    return team_unit_t(static_cast<dart_unit_t>(owner(t.row, t.col)));
  }

  // Number of tiles unit / the calling unit owns.
  // (None for a unit of the team beyond the grid.)
  size_type local_nblocks(team_unit_t unit) const {
    return in_grid(unit) ? static_cast<size_type>(nblocks_of(unit.id)) : 0;
  }
  size_type local_nblocks() const { return local_nblocks(this->myid_); }
  // DASH's shape of a unit's tiles: local_nblocks(unit) in dimension 0, 1 in the others (the
  // tiles of a unit are a sequence, not a rectangle). Local.
  SizeSpec<N, IndexType> local_blockspec(team_unit_t unit) const {
    std::array<size_type, N> nb;
    nb.fill(1);
    nb[0] = local_nblocks(unit);
    return SizeSpec<N, IndexType>(nb);
  }
  SizeSpec<N, IndexType> local_blockspec() const { return local_blockspec(this->myid_); }
  // Rectangle (global coordinates) of local tile lblock of unit / of the
  // calling unit; local tiles are numbered in increasing global tile index,
  // lblock < local_nblocks(unit).
  viewspec_type local_block(team_unit_t unit, index_type lblock) const {
    return block(block_of_tile(tile_of_rank(unit.id, lblock)));
  }
  viewspec_type local_block(index_type lblock) const { return local_block(this->myid_, lblock); }
  // Offset of the first element of local tile lblock of unit / of the calling
  // unit in the owner's local memory; lblock = local_nblocks(unit) gives
  // local_size(unit).
  index_type local_block_offset(team_unit_t unit, index_type lblock) const {
    return offset_of_rank(unit.id, lblock);
  }
  index_type local_block_offset(index_type lblock) const {
    return local_block_offset(this->myid_, lblock);
  }

  // Elements unit owns.
  size_type local_size(team_unit_t unit) const {
    return in_grid(unit) ? static_cast<size_type>(offset_of_rank(unit.id, nblocks_of(unit.id))) : 0;
  }
  using Base::local_size;

  // ---- local coordinates (DASH's local_coords / local / global / local_at) ----
  // A unit's elements get N-D local coordinates (tiles at multiples of the tile extents,
  // an element at its place inside its tile):
  //   ShiftTilePattern (as DASH's): the slower coordinate stays the global one, the faster one
  //     counts the unit's tiles of that tile row: tile column c is the unit's (c / P)-th there.
  //   SeqTilePattern: the unit's tiles stacked along the slower dimension in their order
  //     (local block k at k * tile extent), the faster coordinate is the one inside the tile;
  //     for full tiles this is its local memory read as an array (DASH's own formula mixes a
  //     per-dimension deal into it that does not match its sequential one).
  // In 1-D both are the local offset. All local, O(1), allocation-free.
  using local_coords_t = ::dash::local_coords_t<IndexType, N>;
  using local_coords_type = local_coords_t;

  // The owner's local coordinates of global coordinates.
  coords_type local_coords(const coords_type& coords) const {
    const index_type x0 = N == 1 ? index_type(0) : coords[dim_of_slot(0)];
    const index_type x1 = coords[dim_of_slot(1)];
    const Tile t{x0 / tb_[0], x1 / tb_[1]};
    index_type l[2] = {x0, (t.col / units_) * tb_[1] + (x1 - t.col * tb_[1])};
    if constexpr (Deal == TileDeal::Sequential && N == 2) {
      l[0] = rank_of(0, t) * tb_[0] + (x0 - t.row * tb_[0]);
      l[1] = x1 - t.col * tb_[1];
    }
    coords_type lc;
    if constexpr (N == 2) lc[dim_of_slot(0)] = l[0];
    lc[dim_of_slot(1)] = l[1];
    return lc;
  }
  // Owner and its local coordinates of global coordinates (local(g) of a linear index gives
  // owner and offset).
  local_coords_type local(const coords_type& coords) const {
    return local_coords_type{this->unit_at(coords), local_coords(coords)};
  }
  using Base::local;
  // Global coordinates of local coordinates of unit / of the calling unit.
  coords_type global(team_unit_t unit, const coords_type& lcoords) const {
    const LocalPlace p = place_of_local(unit.id, lcoords);
    coords_type g;
    if constexpr (N == 2) g[dim_of_slot(0)] = p.tile.row * tb_[0] + p.phase0;
    g[dim_of_slot(1)] = p.tile.col * tb_[1] + p.phase1;
    return g;
  }
  coords_type global(const coords_type& lcoords) const { return global(this->myid_, lcoords); }
  using Base::global;
  // Global linear index of local coordinates of unit.
  index_type global_index(team_unit_t unit, const coords_type& lcoords) const {
    return this->global_index(global(unit, lcoords));
  }
  using Base::global_index;
  // Offset in the calling unit's memory of its local coordinates.
  index_type local_at(const coords_type& lcoords) const {
    const LocalPlace p = place_of_local(this->myid_.id, lcoords);
    const index_type ecol = p.tile.col == nb_[1] - 1 ? last_[1] : tb_[1];
    return offset_of_rank(this->myid_.id, p.rank) + p.phase0 * ecol + p.phase1;
  }

  // ---- the CRTP primitives of PatternBase ----
  local_index_type local_of_coords(const coords_type& coords) const {
    index_type x[2] = {N == 1 ? index_type(0) : coords[dim_of_slot(0)], coords[dim_of_slot(1)]};
    Tile t{x[0] / tb_[0], x[1] / tb_[1]};
    index_type u = owner(t.row, t.col);
    index_type ecol = t.col == nb_[1] - 1 ? last_[1] : tb_[1];
    index_type in_tile = (x[0] - t.row * tb_[0]) * ecol + (x[1] - t.col * tb_[1]);
    return local_index_type{team_unit_t(static_cast<dart_unit_t>(u)),
                            offset_of_rank(u, rank_of(u, t)) + in_tile};
  }
  coords_type coords_of_local(team_unit_t unit, index_type offset) const {
    const index_type u = unit.id;
    const index_type klr = nblocks_before_last_row(u);
    const index_type phase = column_phase(u);
    const index_type nc_lr = count_progression(phase, klr);
    const index_type off_lr = (klr - nc_lr) * full_ + nc_lr * scol_;
    index_type k, start;
    if (offset < off_lr) {
      // Before the last row: periods of `period_` tiles, the one at `phase`
      // a last-column tile of Scol elements, the others full.
      if (phase < 0 || scol_ == full_) {
        k = offset / full_;
        start = k * full_;
      } else {
        index_type p = period_elems_ > 0 ? offset / period_elems_ : 0;
        index_type r = offset - p * period_elems_;
        index_type j, rstart;
        if (r / full_ < phase) {
          j = r / full_;
          rstart = j * full_;
        } else if (r - phase * full_ < scol_) {
          j = phase;
          rstart = phase * full_;
        } else {
          j = phase + 1 + (r - phase * full_ - scol_) / full_;
          rstart = phase * full_ + scol_ + (j - phase - 1) * full_;
        }
        k = p * period_ + j;
        start = p * period_elems_ + rstart;
      }
    } else {
      // Last row: Srow tiles; the corner, if owned, is the last one.
      k = klr + (offset - off_lr) / srow_;
      start = off_lr + (k - klr) * srow_;
    }
    Tile t = tile_of_rank(u, k);
    index_type ecol = t.col == nb_[1] - 1 ? last_[1] : tb_[1];
    index_type in_tile = offset - start;
    coords_type g;
    if constexpr (N == 2) g[dim_of_slot(0)] = t.row * tb_[0] + in_tile / ecol;
    g[dim_of_slot(1)] = t.col * tb_[1] + in_tile % ecol;
    return g;
  }

  // The constructors the patterns inherit (using Base::Base).
  // Explicit unit grid (only its size matters; it may differ from the team's, as in DASH: tiles
  // go to the grid's units, a unit of the team beyond them owns nothing, containers refuse a
  // grid with units the team lacks). Local; throws dash::exception::InvalidArgument for a Null
  // team, an empty grid, block size 0 or extents that overflow IndexType.
  DealtTilePattern(const SizeSpec<N, IndexType>& sizespec, const DistributionSpec<N>& distspec,
                   const TeamSpec<N, IndexType>& teamspec, Team& team = Team::All())
      : Base(sizespec, team),
        distspec_(distspec),
        teamspec_(TeamSpec<N, IndexType>(teamspec, distspec, team)) {
    this->use_grid_units(teamspec_);
    units_ = static_cast<index_type>(this->nunits_);
    tb_[0] = nb_[0] = last_[0] = 1;  // virtual row dimension of 1-D patterns
    for (dim_t d = 0; d < N; ++d) {
      const Distribution& dist = distspec[d];
      if ((dist.type == DistributionType::BLOCKCYCLIC || dist.type == DistributionType::TILE) &&
          dist.blocksize == 0)
        throw exception::InvalidArgument(
            this->where("dimension " + std::to_string(d) + ": block size 0"));
      default_size_t bs = dist.block_extent(sizespec.extent(d), this->nunits_);
      if (bs > default_size_t(std::numeric_limits<IndexType>::max()))
        throw exception::InvalidArgument(this->where("dimension " + std::to_string(d) +
                                                     ": block size " + std::to_string(bs) +
                                                     " overflows the index type"));
      blocksize_[d] = static_cast<index_type>(bs);
      // A tile wider than the extent is the whole extent: computing with the
      // clamped extent gives the same tiles and keeps products in range.
      index_type e = static_cast<index_type>(sizespec.extent(d));
      index_type tb = e > 0 ? std::min(blocksize_[d], e) : 1;
      index_type nb = e / tb + (e % tb != 0 ? 1 : 0);
      int s = slot_of(d);
      tb_[s] = tb;
      nb_[s] = nb;
      last_[s] = nb > 0 ? e - (nb - 1) * tb : 0;
    }
    ntiles_ = nb_[0] * nb_[1];
    full_ = tb_[0] * tb_[1];
    scol_ = tb_[0] * last_[1];
    srow_ = last_[0] * tb_[1];
    scorner_ = last_[0] * last_[1];
    if (ntiles_ > 0) {
      const index_type ncols = nb_[1];
      if constexpr (Deal == TileDeal::Shifted) {
        // Every nunits consecutive rows hold exactly one tile of each column
        // per unit: ncols tiles, one of them in the last column.
        cols_q_ = ncols / units_;
        cols_m_ = ncols % units_;
        period_ = ncols;
      } else {
        // Unit u's tiles are b = u + j * P; b is in the last column iff
        // j * P = ncols - 1 - u (mod ncols): one solution class modulo
        // ncols / gcd(P, ncols) if gcd(P, ncols) divides ncols - 1 - u.
        gcd_ = tile_gcd(units_, ncols);
        period_ = ncols / gcd_;
        inverse_ = tile_mod_inverse((units_ / gcd_) % period_, period_);
      }
      // Elements of one period of tiles before the last row, 0 if it does
      // not fit the index type (then no offset reaches past one period).
      const index_type max = std::numeric_limits<IndexType>::max();
      period_elems_ = (period_ - 1 <= (max - scol_) / full_) ? (period_ - 1) * full_ + scol_ : 0;
    }
    for (index_type u = 0; u < units_; ++u) {
      this->local_capacity_ =
          std::max(this->local_capacity_, local_size(team_unit_t(static_cast<dart_unit_t>(u))));
    }
  }
  // All units of the team. Local.
  DealtTilePattern(const SizeSpec<N, IndexType>& sizespec, const DistributionSpec<N>& distspec,
                   Team& team = Team::All())
      : DealtTilePattern(sizespec, distspec, TeamSpec<N, IndexType>(distspec, team), team) {}
  // DASH's variadic form: the N extents, then optionally N Distributions
  // or a DistributionSpec, a TeamSpec and a Team (PatternArguments.h), e.g.
  // ShiftTilePattern<2>(n, m, TILE(8), TILE(8), team). Local.
  template <class E0, class... Args, class = std::enable_if_t<starts_pattern_arguments_v<E0>>>
  explicit DealtTilePattern(E0 extent0, Args&&... args)
      : DealtTilePattern(PatternArguments<N, IndexType>(extent0, std::forward<Args>(args)...)) {}

 protected:
  explicit DealtTilePattern(const PatternArguments<N, IndexType>& args)
      : DealtTilePattern(args.sizespec(), args.distspec(), args.teamspec(), args.team()) {}

 private:
  struct Tile {
    index_type row, col;
  };
  // Where local coordinates of unit u sit: its tile, that tile's rank among u's tiles, and
  // the place inside the tile (rows, columns).
  struct LocalPlace {
    Tile tile;
    index_type rank, phase0, phase1;
  };
  LocalPlace place_of_local(index_type u, const coords_type& lcoords) const {
    const index_type l0 = N == 1 ? index_type(0) : lcoords[dim_of_slot(0)];
    const index_type l1 = lcoords[dim_of_slot(1)];
    if constexpr (Deal == TileDeal::Sequential) {
      // Stacked tiles: the slower coordinate gives the rank (1-D: the only one).
      const index_type k = N == 2 ? l0 / tb_[0] : l1 / tb_[1];
      if constexpr (N == 2) return LocalPlace{tile_of_rank(u, k), k, l0 - k * tb_[0], l1};
      return LocalPlace{tile_of_rank(u, k), k, 0, l1 - k * tb_[1]};
    } else {
      // Row kept, the unit's (l1 / tb)-th tile of that row (1-D: the one row).
      const index_type a = l0 / tb_[0], i = l1 / tb_[1];
      const Tile t{a, first_col(u, a) + i * units_};
      return LocalPlace{t, tiles_before_row(u, a) + i, l0 - a * tb_[0], l1 - i * tb_[1]};
    }
  }

  // Whether unit has a place in the grid (a team larger than the grid has units without); the
  // functions below take units of the grid only.
  bool in_grid(team_unit_t unit) const { return unit.id >= 0 && unit.id < units_; }
  // Internal slot (0: rows, 1: columns) of dimension d, and back.
  static constexpr int slot_of(dim_t d) {
    return N == 1 ? 1 : (Arr == ROW_MAJOR ? int(d) : 1 - int(d));
  }
  static constexpr dim_t dim_of_slot(int s) {
    return N == 1 ? 0 : (Arr == ROW_MAJOR ? dim_t(s) : dim_t(1 - s));
  }
  Tile tile_of_block(const coords_type& block_coords) const {
    return Tile{N == 1 ? index_type(0) : block_coords[dim_of_slot(0)],
                block_coords[dim_of_slot(1)]};
  }
  coords_type block_of_tile(const Tile& t) const {
    coords_type bc;
    if constexpr (N == 2) bc[dim_of_slot(0)] = t.row;
    bc[dim_of_slot(1)] = t.col;
    return bc;
  }

  // Unit owning tile (a, c).
  index_type owner(index_type a, index_type c) const {
    if constexpr (Deal == TileDeal::Shifted) {
      return (a % units_ + c % units_) % units_;
    } else {
      return (a * nb_[1] + c) % units_;
    }
  }
  // Number of b in [0, x) with b = u (mod P).
  index_type count_congruent_below(index_type u, index_type x) const {
    return x > u ? (x - 1 - u) / units_ + 1 : 0;
  }
  // Number of terms phase + t * period_ (t >= 0) below x; phase < 0: none.
  index_type count_progression(index_type phase, index_type x) const {
    return (phase >= 0 && x > phase) ? (x - 1 - phase) / period_ + 1 : 0;
  }

  // ---- Shifted: rows of unit u ----
  // In row a, unit u owns the columns c = (u - a) mod P, + P, + 2P, ... below
  // ncols = q * P + m: q + 1 tiles if (u - a) mod P < m ("heavy" row), else q.
  index_type first_col(index_type u, index_type a) const {
    return (u - a % units_ + units_) % units_;
  }
  // Heavy rows in [0, t), t <= P. The heavy rows of a period of P rows are
  // the t with (u - t) mod P in [0, m): the cyclic range [u - m + 1, u].
  index_type heavy_rows_before(index_type u, index_type t) const {
    auto overlap = [t](index_type lo, index_type hi) {
      return std::max<index_type>(0, std::min(hi, t) - lo);
    };
    if (cols_m_ <= u + 1) return overlap(u - cols_m_ + 1, u + 1);
    return overlap(0, u + 1) + overlap(units_ - (cols_m_ - u - 1), units_);
  }
  // Tiles of unit u in rows [0, a). Counting the heavy rows is counting the
  // a' in [0, a) with a' = u - v (mod P) for some v in [0, m), a linear
  // congruence with coefficient 1:
  //   tiles = a * q                        every row holds q tiles of u
  //         + (a / P) * m                  each whole period of P rows: m heavy
  //         + |[0, a mod P) & heavy range| the partial period
  index_type tiles_before_row(index_type u, index_type a) const {
    return a * cols_q_ + (a / units_) * cols_m_ + heavy_rows_before(u, a % units_);
  }

  // ---- ranks (local block indices) ----
  index_type nblocks_of(index_type u) const {
    if (ntiles_ == 0) return 0;
    if constexpr (Deal == TileDeal::Shifted) {
      return tiles_before_row(u, nb_[0]);
    } else {
      return count_congruent_below(u, ntiles_);
    }
  }
  index_type nblocks_before_last_row(index_type u) const {
    if (ntiles_ == 0) return 0;
    if constexpr (Deal == TileDeal::Shifted) {
      return tiles_before_row(u, nb_[0] - 1);
    } else {
      return count_congruent_below(u, ntiles_ - nb_[1]);
    }
  }
  // Rank of tile t among the tiles of its owner u.
  index_type rank_of(index_type u, const Tile& t) const {
    if constexpr (Deal == TileDeal::Shifted) {
      return tiles_before_row(u, t.row) + t.col / units_;
    } else {
      (void)u;
      return (t.row * nb_[1] + t.col) / units_;
    }
  }
  // Tile of rank k of unit u, k < nblocks_of(u).
  Tile tile_of_rank(index_type u, index_type k) const {
    if constexpr (Deal == TileDeal::Shifted) {
      // Every P rows hold ncols tiles of u: skip whole periods, then walk the
      // (at most three) runs of equally loaded rows of one period.
      const index_type ncols = nb_[1];
      index_type p = k / ncols, rest = k % ncols;
      index_type row = 0, idx = 0, pos = 0;
      auto run = [&](index_type end, index_type per_row) {
        index_type len = end - pos;
        if (len > 0 && per_row > 0) {
          if (rest < len * per_row) {
            row = pos + rest / per_row;
            idx = rest % per_row;
            return true;
          }
          rest -= len * per_row;
        }
        pos = end;
        return false;
      };
      const index_type q = cols_q_, m = cols_m_, P = units_;
      if (m <= u + 1) {
        (void)(run(u - m + 1, q) || run(u + 1, q + 1) || run(P, q));
      } else {
        (void)(run(u + 1, q + 1) || run(P - (m - u - 1), q) || run(P, q + 1));
      }
      index_type a = p * P + row;
      return Tile{a, first_col(u, a) + idx * P};
    } else {
      index_type b = u + k * units_;
      return Tile{b / nb_[1], b % nb_[1]};
    }
  }
  // Rank of u's first last-column tile (the others follow every period_
  // ranks), -1 if u owns none.
  index_type column_phase(index_type u) const {
    if (ntiles_ == 0) return -1;
    const index_type ncols = nb_[1];
    if constexpr (Deal == TileDeal::Shifted) {
      // Tile (a, ncols - 1) is u's iff a = u - (ncols - 1) (mod P).
      index_type a = first_col(u, (ncols - 1) % units_);
      return tiles_before_row(u, a) + (ncols - 1) / units_;
    } else {
      // Counting solutions of a linear congruence:
      //   want j with u + j * P = ncols - 1 (mod ncols)
      //   r = (ncols - 1 - u) mod ncols; g = gcd(P, ncols)
      //   if r mod g != 0: no solution -> u owns no last-column tile
      //   else j = (r / g) * inverse(P / g mod M) (mod M), M = ncols / g
      //   solutions below x: x > j ? (x - 1 - j) / M + 1 : 0
      // g, M and the inverse are fixed in the constructor.
      index_type r = ((ncols - 1 - u) % ncols + ncols) % ncols;
      if (r % gcd_ != 0) return -1;
      return tile_mul_mod((r / gcd_) % period_, inverse_, period_);
    }
  }
  // Offset of the first element of u's tile of rank k, 0 <= k <= nblocks_of(u)
  // (k = nblocks_of(u): u's local size). Only last-column and last-row tiles
  // are underfilled, so with nc = last-column tiles among the first k:
  //   offset(k) = k * F - nc * (F - Scol) - (last-row deficits)
  // written as a sum of actual tile sizes so no term exceeds the local size.
  index_type offset_of_rank(index_type u, index_type k) const {
    if (k == 0) return 0;
    const index_type klr = nblocks_before_last_row(u);
    const index_type kb = std::min(k, klr);
    const index_type nc = count_progression(column_phase(u), kb);
    index_type off = (kb - nc) * full_ + nc * scol_;
    if (k > klr) {
      off += (k - klr) * srow_;
      // The corner is the last tile overall: if u owns it, it is u's last.
      if (k == nblocks_of(u) && owner(nb_[0] - 1, nb_[1] - 1) == u) off -= srow_ - scorner_;
    }
    return off;
  }

  DistributionSpec<N> distspec_;
  TeamSpec<N, IndexType> teamspec_;
  std::array<index_type, N> blocksize_{};
  // Per slot (0: rows, 1: columns): tile extent (clamped to the extent),
  // number of tiles, extent of the last tile.
  index_type tb_[2] = {1, 1}, nb_[2] = {1, 0}, last_[2] = {1, 0};
  index_type units_ = 1;  // P
  index_type ntiles_ = 0;
  index_type full_ = 1, scol_ = 0, srow_ = 0, scorner_ = 0;  // tile sizes
  index_type period_ = 1;               // rank distance of a unit's last-column tiles
  index_type period_elems_ = 0;         // elements of one such period (0: overflow)
  index_type cols_q_ = 0, cols_m_ = 0;  // Shifted: ncols = q * P + m
  index_type gcd_ = 1, inverse_ = 0;    // Sequential: gcd(P, ncols), inverse
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__PATTERN__INTERNAL__DEALT_TILE_PATTERN_H_
