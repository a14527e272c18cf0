// The part of the pattern interface every pattern derives the same way from
// two primitives of the concrete pattern (CRTP):
//   local_index_t local_of_coords(coords)        owner + local offset
//   coords_type   coords_of_local(unit, offset)  the inverse
// plus the global linearisation: row- or column-major by Arrangement, or, for
// the N-D patterns whose local memory is blocked (TilePattern,
// ShiftTilePattern, SeqTilePattern: tile_order()), tile by tile as DASH's:
// the tiles in Arrangement order of the tile grid, the elements of a tile in
// Arrangement order over its own extents (an underfilled last tile counts at
// its real size), so a tile is one range of global indices, as it is one
// range of its owner's memory.
#ifndef DASH__PATTERN__INTERNAL__PATTERN_BASE_H_
#define DASH__PATTERN__INTERNAL__PATTERN_BASE_H_

#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/internal/FastDivisor.h>
#include <dash/internal/Math.h>  // dash::math, which DASH's pattern headers bring
#include <dash/pattern/Distribution.h>
#include <dash/pattern/LocalIndex.h>
#include <dash/pattern/SizeSpec.h>

#include <algorithm>
#include <array>
#include <limits>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

namespace dash {
namespace internal {

// Whether pattern P lists its units' sizes (the irregular patterns, whose sizes the extents and
// Distributions do not determine).
template <class P, class = void>
struct has_local_sizes : std::false_type {};
template <class P>
struct has_local_sizes<P, std::void_t<decltype(std::declval<const P&>().local_sizes())>>
    : std::true_type {};

template <class Derived, dim_t N, MemArrange Arr, class IndexType>
class PatternBase {
 public:
  using index_type = IndexType;
  using size_type = std::make_unsigned_t<IndexType>;
  using coords_type = std::array<IndexType, N>;
  using local_index_type = local_index_t<IndexType>;
  static constexpr MemArrange memory_order() { return Arr; }
  static constexpr dim_t ndim() { return N; }

  // ---- global index space (all local, O(N)) ----
  size_type size() const { return sizespec_.size(); }
  size_type extent(dim_t d) const { return sizespec_.extent(d); }
  const std::array<size_type, N>& extents() const { return sizespec_.extents(); }
  const SizeSpec<N, IndexType>& sizespec() const { return sizespec_; }
  // True if global indices go tile by tile (see the file comment).
  static constexpr bool tile_order() {
    if constexpr (N < 2)
      return false;
    else
      return Derived::layout_properties::blocked;
  }
  // Coordinates of global linear index gindex.
  coords_type coords(index_type gindex) const {
    if constexpr (tile_order()) {
      return tile_of_index(gindex).coords;
    } else if constexpr (N == 1) {
      return coords_type{gindex};
    } else {
      coords_type c{};
      for (dim_t k = N - 1; k > 0; --k) {
        dim_t d = dim_at_order<N, Arr>(k);
        index_type q = divide(gindex, by_extent_[d]);
        c[d] = gindex - q * index_type(sizespec_.extent(d));
        gindex = q;
      }
      c[dim_at_order<N, Arr>(0)] = gindex;
      return c;
    }
  }
  // Global linear index of coordinates.
  index_type global_index(const coords_type& coords) const {
    if constexpr (tile_order()) {
      // Per dimension, slowest first: the whole tiles before the coordinate's tile (the
      // dimensions already fixed at their tile's extents, the faster ones whole), then the
      // position inside the tile.
      index_type offset = 0, in_tile = 0, prefix = 1;
      for (dim_t k = 0; k < N; ++k) {
        const dim_t d = dim_at_order<N, Arr>(k);
        const index_type b = derived().blocksize(d);
        const index_type t = coords[d] / b;
        const index_type e = tile_extent(d, t);
        offset += prefix * t * b * faster_extents_[k];
        prefix *= e;
        in_tile = in_tile * e + (coords[d] - t * b);
      }
      return offset + in_tile;
    } else {
      return linearize<N, Arr>(coords, sizespec_.extents());
    }
  }
  // The tile holding global index gindex of a tile_order() pattern: the
  // element's coordinates, the tile's origin and extents and its first global
  // index. Local, O(N) divisions.
  struct tile_of_index_type {
    coords_type coords;
    coords_type origin;
    std::array<size_type, N> extents;
    index_type first;
    index_type size() const {
      index_type n = 1;
      for (dim_t d = 0; d < N; ++d) n *= index_type(extents[d]);
      return n;
    }
  };
  tile_of_index_type tile_of_index(index_type gindex) const {
    tile_of_index_type t{};
    if (gindex < 0 || size_type(gindex) >= size()) {
      // Past the end (an end iterator): past the slowest dimension, as the row-major order.
      t.coords[dim_at_order<N, Arr>(0)] = index_type(extent(dim_at_order<N, Arr>(0)));
      t.origin = t.coords;
      t.first = gindex;
      return t;
    }
    index_type rest = gindex, prefix = 1;
    for (dim_t k = 0; k < N; ++k) {
      const dim_t d = dim_at_order<N, Arr>(k);
      const index_type b = derived().blocksize(d);
      // One tile's slab in d: the fixed dimensions at their tile's extents, the faster ones
      // whole (b may exceed the extent: one tile then).
      const index_type slab = prefix * std::min(b, index_type(extent(d))) * faster_extents_[k];
      const index_type tile = rest / slab;
      rest -= tile * slab;
      t.origin[d] = tile * b;
      t.extents[d] = size_type(tile_extent(d, tile));
      prefix *= index_type(t.extents[d]);
    }
    t.first = gindex - rest;
    const coords_type phase = delinearize<N, Arr>(rest, t.extents);
    for (dim_t d = 0; d < N; ++d) t.coords[d] = t.origin[d] + phase[d];
    return t;
  }
  // Extent in dimension d of tile t of that dimension (the last may be underfilled). Local.
  index_type tile_extent(dim_t d, index_type t) const {
    const index_type b = derived().blocksize(d);
    const index_type left = index_type(extent(d)) - t * b;
    return left < b ? left : b;
  }

  // Global linear index of global coordinates (DASH's name).
  index_type global_at(const coords_type& coords) const { return global_index(coords); }
  // Every element is stored exactly once: the capacity is size().
  size_type capacity() const { return size(); }

  // ---- global -> local (local, O(N)) ----
  // Owner and local offset of the element at global coordinates.
  local_index_type local_index(const coords_type& coords) const {
    return derived().local_of_coords(coords);
  }
  // Owner and local offset of the element at global linear index gindex.
  local_index_type local(index_type gindex) const { return local_index(coords(gindex)); }
  // Owner of the element at global coordinates / linear index.
  team_unit_t unit_at(const coords_type& coords) const { return local_index(coords).unit; }
  team_unit_t unit_at(index_type gindex) const { return local(gindex).unit; }
  // Owner of the element at coordinates `rel` of rectangle `view` (rel plus the view's
  // offsets; DASH's unit_at(coords, viewspec)). Local, O(N).
  template <class View, class = decltype(std::declval<const View&>().offset(0))>
  team_unit_t unit_at(const coords_type& rel, const View& view) const {
    coords_type c = rel;
    for (dim_t d = 0; d < N; ++d) c[d] += static_cast<index_type>(view.offset(d));
    return unit_at(c);
  }
  // Local offset (at its owner) of the element at global coordinates, given
  // as an array or as N integers: at({i, j}) or at(i, j).
  index_type at(const coords_type& coords) const { return local_index(coords).index; }
  template <class... I,
            class = std::enable_if_t<sizeof...(I) == N && N != 0 && (std::is_integral_v<I> && ...)>>
  index_type at(I... coords) const {
    return at(coords_type{static_cast<index_type>(coords)...});
  }
  // Linear index (Arrangement order over blockspec()) of the block holding
  // global coordinates.
  index_type block_at(const coords_type& coords) const {
    coords_type b;
    for (dim_t d = 0; d < N; ++d) b[d] = coords[d] / derived().blocksize(d);
    return linearize<N, Arr>(b, derived().blockspec().extents());
  }
  // Elements of the largest block (product of the block extents).
  size_type max_blocksize() const {
    size_type n = 1;
    for (dim_t d = 0; d < N; ++d) n *= static_cast<size_type>(derived().blocksize(d));
    return n;
  }
  // True if unit (default: the calling unit) owns global linear index gindex.
  bool is_local(index_type gindex, team_unit_t unit) const { return unit_at(gindex) == unit; }
  bool is_local(index_type gindex) const { return is_local(gindex, myid_); }

  // Owner and offset of global linear index gindex, plus `run`: how many
  // global indices from gindex on (to the end of its block along the
  // fastest-moving dimension) sit at consecutive offsets of the same unit.
  // Lets iterators walk a run without further lookups. Inline: small copies call it once each,
  // and a call returning the struct through memory costs more than its arithmetic.
  struct local_run_type {
    team_unit_t unit;
    index_type index;
    index_type run;
  };
  // (tile_order(): to the end of its tile.)
  [[gnu::always_inline]] local_run_type local_run(index_type gindex) const {
    if constexpr (tile_order()) {
      const auto t = tile_of_index(gindex);
      const auto l = derived().local_of_coords(t.coords);
      return local_run_type{l.unit, l.index, t.first + t.size() - gindex};
    }
    constexpr dim_t fast = Arr == ROW_MAJOR ? N - 1 : 0;
    auto c = coords(gindex);
    auto l = derived().local_of_coords(c);
    index_type b = derived().blocksize(fast);
    index_type x = c[fast];
    index_type block_end = (x / b + 1) * b;
    index_type end = block_end < index_type(extent(fast)) ? block_end : index_type(extent(fast));
    return local_run_type{l.unit, l.index, end - x};
  }

  // ---- local -> global (local, O(N)) ----
  // Global coordinates of local offset lindex of unit.
  coords_type global(team_unit_t unit, index_type lindex) const {
    return derived().coords_of_local(unit, lindex);
  }
  // Global linear index of local offset lindex of unit / of the calling unit.
  index_type global_index(team_unit_t unit, index_type lindex) const {
    return global_index(global(unit, lindex));
  }
  index_type global(index_type lindex) const { return global_index(myid_, lindex); }

  // ---- units and memory ----
  Team& team() const { return *team_; }
  team_unit_t myid() const { return myid_; }
  size_type num_units() const { return nunits_; }
  // Elements the calling unit owns.
  size_type local_size() const { return derived().local_size(myid_); }
  // Largest local_size over all units: what each unit allocates.
  size_type local_capacity() const { return local_capacity_; }

  // Equal when both describe the same distribution (DASH's pattern equality): the same
  // extents, Distributions, unit grid and team, and for the irregular patterns the same local
  // sizes (the memory order is part of the type). Local; O(N), irregular patterns O(P).
  friend bool operator==(const Derived& a, const Derived& b) {
    const PatternBase& x = a;
    const PatternBase& y = b;
    if (&x == &y) return true;
    const bool same_team = x.team_ == y.team_ || (x.team_ && y.team_ && *x.team_ == *y.team_);
    if (!same_team || x.nunits_ != y.nunits_ || !(x.sizespec_ == y.sizespec_) ||
        !(a.distspec() == b.distspec()) || !(a.teamspec() == b.teamspec()))
      return false;
    if constexpr (has_local_sizes<Derived>::value) return a.local_sizes() == b.local_sizes();
    return true;
  }
  friend bool operator!=(const Derived& a, const Derived& b) { return !(a == b); }

  // Writes "dash::<Pattern><N>(extents 7 x 5, BLOCKED x TILE(2), units 2 x 1)".
  // Local.
  friend std::ostream& operator<<(std::ostream& os, const Derived& p) {
    os << "dash::" << Derived::PatternName << "<" << N << ">(extents ";
    for (dim_t d = 0; d < N; ++d) os << (d ? " x " : "") << p.extent(d);
    os << ", ";
    for (dim_t d = 0; d < N; ++d) {
      const Distribution& dist = p.distspec()[d];
      os << (d ? " x " : "") << distribution_name(dist.type);
      if (dist.type == DistributionType::BLOCKCYCLIC || dist.type == DistributionType::TILE)
        os << "(" << dist.blocksize << ")";
    }
    os << ", units ";
    for (dim_t d = 0; d < N; ++d) os << (d ? " x " : "") << p.teamspec().extent(d);
    return os << ")";
  }

 protected:
  PatternBase() = default;
  PatternBase(const SizeSpec<N, IndexType>& sizespec, Team& team)
      : sizespec_(sizespec), team_(&team) {
    if (team.is_null()) throw exception::InvalidArgument(where("the team is Null"));
    nunits_ = team.size();
    myid_ = team.myid();
    size_type total = 1;
    for (dim_t d = 0; d < N; ++d) {
      size_type e = sizespec.extent(d);
      if (e > size_type(std::numeric_limits<IndexType>::max()) ||
          (e != 0 && total > size_type(std::numeric_limits<IndexType>::max()) / e))
        throw exception::InvalidArgument(where("the extents overflow the index type"));
      total *= e;
      by_extent_[d] = FastDivisor(e > 0 ? e : 1);
    }
    index_type faster = 1;
    for (dim_t k = N; k-- > 0;) {
      faster_extents_[k] = faster;
      faster *= index_type(sizespec.extent(dim_at_order<N, Arr>(k)));
    }
  }
  // The patterns on a unit grid map elements to the grid's units, which need not be the team's
  // (DASH's rule): takes the grid's size as num_units(). Local; throws
  // dash::exception::InvalidArgument for a grid of no units.
  template <class Grid>
  void use_grid_units(const Grid& grid) {
    if (grid.size() == 0) throw exception::InvalidArgument(where("the TeamSpec holds no units"));
    nunits_ = grid.size();
  }
  // Message prefix naming the pattern.
  static std::string where(const std::string& what) {
    return std::string("dash::") + Derived::PatternName + ": " + what;
  }
  const Derived& derived() const { return static_cast<const Derived&>(*this); }

  SizeSpec<N, IndexType> sizespec_;
  Team* team_ = nullptr;
  size_type nunits_ = 0;
  team_unit_t myid_;
  size_type local_capacity_ = 0;
  std::array<FastDivisor, N> by_extent_;  // for coords()
  // [k]: product of the extents of the dimensions faster than the k-th in Arrangement order.
  std::array<index_type, N> faster_extents_{};
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__PATTERN__INTERNAL__PATTERN_BASE_H_
