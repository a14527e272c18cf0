// Common core of the patterns whose blocks are dealt per dimension: block j
// of dimension d belongs to unit coordinate j mod units(d) of the TeamSpec
// grid (BlockPattern, TilePattern). The concrete pattern adds the local
// memory layout through two functions (CRTP):
//   index_type  layout_offset_of_blocks(unit_coords, local_block, phase)
//               (local coordinate = local_block * blocksize + phase)
//   coords_type layout_coords(unit_coords, offset)
#ifndef DASH__PATTERN__INTERNAL__CARTESIAN_PATTERN_H_
#define DASH__PATTERN__INTERNAL__CARTESIAN_PATTERN_H_

#include <dash/pattern/DistributionSpec.h>
#include <dash/pattern/PatternProperties.h>
#include <dash/pattern/TeamSpec.h>
#include <dash/pattern/internal/DimBlocking.h>
#include <dash/pattern/internal/PatternArguments.h>
#include <dash/pattern/internal/PatternBase.h>

#include <algorithm>
#include <limits>
#include <string>

namespace dash {
namespace internal {

template <class Derived, dim_t N, MemArrange Arr, class IndexType>
class CartesianPattern : public PatternBase<Derived, N, Arr, IndexType> {
  using Base = PatternBase<Derived, N, Arr, IndexType>;

 public:
  using typename Base::coords_type;
  using typename Base::index_type;
  using typename Base::local_index_type;
  using typename Base::size_type;
  // The type local(coords) returns ({unit, local coordinates}), under DASH's name too.
  using local_coords_t = ::dash::local_coords_t<IndexType, N>;
  using local_coords_type = local_coords_t;
  using viewspec_type = ViewSpec<N, IndexType>;

  const DistributionSpec<N>& distspec() const { return distspec_; }
  const TeamSpec<N, IndexType>& teamspec() const { return teamspec_; }
  // Full block extent in dimension d.
  index_type blocksize(dim_t d) const { return dims_[d].blocksize; }
  // How many elements the last block of dimension d lacks of a full block (0 if the extent is
  // a multiple of the block size; DASH's underfilled_blocksize). Local.
  size_type underfilled_blocksize(dim_t d) const {
    const index_type b = dims_[d].blocksize;
    const index_type over = b > 0 ? index_type(this->extent(d)) % b : 0;
    return size_type(over == 0 ? 0 : b - over);
  }
  // Number of blocks per dimension.
  SizeSpec<N, IndexType> blockspec() const {
    std::array<size_type, N> nb;
    for (dim_t d = 0; d < N; ++d) nb[d] = dims_[d].nblocks;
    return SizeSpec<N, IndexType>(nb);
  }
  // Number of blocks per dimension that unit owns.
  // (None for a unit of the team outside the grid.)
  SizeSpec<N, IndexType> local_blockspec(team_unit_t unit) const {
    std::array<size_type, N> nb{};
    if (!in_grid(unit)) return SizeSpec<N, IndexType>(nb);
    auto u = teamspec_.coords(unit);
    for (dim_t d = 0; d < N; ++d) nb[d] = dims_[d].local_nblocks(u[d]);
    return SizeSpec<N, IndexType>(nb);
  }
  SizeSpec<N, IndexType> local_blockspec() const { return local_blockspec(this->myid_); }

  // Local extents of unit / the calling unit (0 for a unit outside the grid).
  std::array<size_type, N> local_extents(team_unit_t unit) const {
    std::array<size_type, N> ext{};
    if (!in_grid(unit)) return ext;
    auto u = teamspec_.coords(unit);
    for (dim_t d = 0; d < N; ++d) ext[d] = dims_[d].local_extent(u[d]);
    return ext;
  }
  // The calling unit's are kept: element access by local coordinates asks for them (the local
  // views, and the bounds checks under DASH_CHECK_BOUNDS).
  std::array<size_type, N> local_extents() const { return my_lextents_; }
  size_type local_extent(dim_t d) const { return local_extents()[d]; }
  // Elements unit owns.
  size_type local_size(team_unit_t unit) const {
    size_type n = 1;
    for (auto e : local_extents(unit)) n *= e;
    return n;
  }
  using Base::local_size;

  // Owner and its local coordinates of global coordinates (DASH's
  // local(coords); local(g) of a linear index gives owner and offset).
  // Local, O(N).
  local_coords_type local(const coords_type& coords) const {
    local_coords_type out;
    coords_type u;
    for (dim_t d = 0; d < N; ++d) {
      index_type c, p;
      dims_[d].locate(coords[d], u[d], c, p);
      out.coords[d] = c * dims_[d].blocksize + p;
    }
    out.unit = team_unit_t(static_cast<dart_unit_t>(teamspec_.at(u)));
    return out;
  }
  using Base::local;
  // The owner's local coordinates of global coordinates. Local, O(N).
  coords_type local_coords(const coords_type& coords) const { return local(coords).coords; }
  // Global coordinates of local coordinates of unit. Local, O(N).
  coords_type global_coords(team_unit_t unit, const coords_type& lcoords) const {
    auto u = teamspec_.coords(unit);
    coords_type g;
    for (dim_t d = 0; d < N; ++d) g[d] = dims_[d].global_of(u[d], lcoords[d]);
    return g;
  }
  // DASH's names: global coordinates of local coordinates of unit / of the
  // calling unit, and their global linear index. (global(unit, l) with an
  // offset l, from PatternBase, reads an offset in local memory.) Local, O(N).
  coords_type global(team_unit_t unit, const coords_type& lcoords) const {
    return global_coords(unit, lcoords);
  }
  coords_type global(const coords_type& lcoords) const { return global_coords(lcoords); }
  using Base::global;
  index_type global_index(team_unit_t unit, const coords_type& lcoords) const {
    return this->global_index(global_coords(unit, lcoords));
  }
  using Base::global_index;

  // Number of blocks unit / the calling unit owns.
  size_type local_nblocks(team_unit_t unit) const { return local_blockspec(unit).size(); }
  size_type local_nblocks() const { return local_nblocks(this->myid_); }

  // Rectangle of block `block_coords` of the block grid, in global
  // coordinates.
  viewspec_type block(const coords_type& block_coords) const {
    coords_type off;
    std::array<size_type, N> ext;
    for (dim_t d = 0; d < N; ++d) {
      off[d] = block_coords[d] * dims_[d].blocksize;
      ext[d] = dims_[d].block_extent(block_coords[d]);
    }
    return viewspec_type(off, ext);
  }
  // Block with linear index gblock (Arrangement order over the block grid).
  viewspec_type block(index_type gblock) const {
    return block(delinearize<N, Arr>(gblock, blockspec().extents()));
  }
  // Rectangle (global coordinates) of local block lblock of unit / of the
  // calling unit; local blocks are numbered in Arrangement order.
  viewspec_type local_block(team_unit_t unit, index_type lblock) const {
    auto u = teamspec_.coords(unit);
    auto c = delinearize<N, Arr>(lblock, local_blockspec(unit).extents());
    coords_type j;
    for (dim_t d = 0; d < N; ++d) j[d] = c[d] * dims_[d].units + u[d];
    return block(j);
  }
  viewspec_type local_block(index_type lblock) const { return local_block(this->myid_, lblock); }
  // DASH's local_block_at: the owner of global coordinates and the index of their block among
  // the owner's local blocks (the lblock of local_block(unit, lblock), Arrangement order over
  // its local block grid). Local, O(N).
  local_index_type local_block_at(const coords_type& coords) const {
    coords_type u, c;
    std::array<size_type, N> nblocks;
    for (dim_t d = 0; d < N; ++d) {
      index_type phase;
      dims_[d].locate(coords[d], u[d], c[d], phase);
      nblocks[d] = size_type(dims_[d].local_nblocks(u[d]));
    }
    return local_index_type{team_unit_t(static_cast<dart_unit_t>(teamspec_.at(u))),
                            linearize<N, Arr>(c, nblocks)};
  }
  // Rectangle of the calling unit's local block lblock in local coordinates.
  viewspec_type local_block_local(index_type lblock) const {
    auto u = teamspec_.coords(this->myid_);
    auto c = delinearize<N, Arr>(lblock, local_blockspec().extents());
    coords_type off;
    std::array<size_type, N> ext;
    for (dim_t d = 0; d < N; ++d) {
      off[d] = c[d] * dims_[d].blocksize;
      ext[d] = dims_[d].local_block_extent(u[d], c[d]);
    }
    return viewspec_type(off, ext);
  }

  // DASH's lbegin() / lend(): the global index of the calling unit's first local element
  // (local offset 0) and one past that of its last one (both 0 for a unit without elements).
  // Local, O(N).
  index_type lbegin() const { return this->local_size() == 0 ? 0 : this->global(index_type(0)); }
  index_type lend() const {
    const auto n = index_type(this->local_size());
    return n == 0 ? 0 : this->global(n - 1) + 1;
  }

  // A local range [lo, hi) of dimension d (of any unit: local blocks start
  // at multiples of blocksize(d) for all) as at most three segments of
  // consecutive local blocks (see DimBlocking::local_segments). Local, O(1).
  int local_segments(dim_t d, index_type lo, index_type hi, LocalSegment<index_type> out[3]) const {
    return dims_[d].local_segments(lo, hi, out);
  }
  // Offset in unit's memory of its local coordinates lcoords. Local, O(N).
  index_type local_offset(team_unit_t unit, const coords_type& lcoords) const {
    coords_type block, phase;
    for (dim_t d = 0; d < N; ++d) {
      block[d] = divide(lcoords[d], dims_[d].by_blocksize);
      phase[d] = lcoords[d] - block[d] * dims_[d].blocksize;
    }
    return this->derived().layout_offset_of_blocks(teamspec_.coords(unit), block, phase);
  }
  // The calling unit's local coordinates of its local offset.
  coords_type local_coords_of(index_type offset) const {
    return this->derived().layout_coords(my_coords_, offset);
  }
  // The part of global rectangle `view` that unit (default: the calling
  // unit) owns, as a rectangle in its local coordinates (possibly empty).
  // Local, O(N).
  viewspec_type local_rectangle(team_unit_t unit, const viewspec_type& view) const {
    coords_type off{};
    std::array<size_type, N> ext{};
    if (!in_grid(unit)) return viewspec_type(off, ext);
    auto u = teamspec_.coords(unit);
    for (dim_t d = 0; d < N; ++d) {
      const auto& dim = dims_[d];
      index_type lo = dim.local_count_below(u[d], view.offset(d));
      index_type hi = dim.local_count_below(u[d], view.offset(d) + index_type(view.extent(d)));
      off[d] = lo;
      ext[d] = static_cast<size_type>(hi - lo);
    }
    return viewspec_type(off, ext);
  }
  viewspec_type local_rectangle(const viewspec_type& view) const {
    return local_rectangle(this->myid_, view);
  }
  // True if the calling unit's elements of local rectangle `lrect` (local coordinates, not
  // empty) follow each other in its memory in the rectangle's Arrangement order, so they are the
  // native range [first, first + lrect.size()). In a canonical layout (BlockPattern's, or a
  // TilePattern unit's whose tiles stack only along the slowest dimension) the rectangle spans
  // the whole local extents in every dimension after its first one longer than 1; else it lies
  // in one tile and spans that tile so. Local, O(N).
  bool local_rectangle_contiguous(const viewspec_type& lrect) const {
    std::array<size_type, N> outer = my_lextents_;  // what the rectangle must span
    coords_type base{};
    if (!(Derived::layout_properties::canonical || my_layout_canonical_)) {
      for (dim_t d = 0; d < N; ++d) {
        const auto& dim = dims_[d];
        const index_type first = divide(lrect.offset(d), dim.by_blocksize);
        const index_type last =
            divide(lrect.offset(d) + index_type(lrect.extent(d)) - 1, dim.by_blocksize);
        if (first != last) return false;
        base[d] = first * dim.blocksize;
        outer[d] = size_type(dim.local_block_extent(my_coords_[d], first));
      }
    }
    bool leading = true;  // still in the dimensions of extent 1 before the first longer one
    for (dim_t k = 0; k < N; ++k) {
      const dim_t d = dim_at_order<N, Arr>(k);
      if (leading) {
        leading = lrect.extent(d) == 1;
        continue;
      }
      if (lrect.offset(d) != base[d] || lrect.extent(d) != outer[d]) return false;
    }
    return true;
  }
  // Global coordinates of the calling unit's local coordinates.
  coords_type global_coords(const coords_type& lcoords) const {
    return global_coords(this->myid_, lcoords);
  }

  // ---- the CRTP primitives of PatternBase ----
  local_index_type local_of_coords(const coords_type& coords) const {
    coords_type u, block, phase;
    for (dim_t d = 0; d < N; ++d) dims_[d].locate(coords[d], u[d], block[d], phase[d]);
    return local_index_type{team_unit_t(static_cast<dart_unit_t>(teamspec_.at(u))),
                            this->derived().layout_offset_of_blocks(u, block, phase)};
  }
  coords_type coords_of_local(team_unit_t unit, index_type offset) const {
    return global_coords(unit, this->derived().layout_coords(teamspec_.coords(unit), offset));
  }

 public:
  // The patterns inherit these constructors (using Base::Base).
  // Explicit distribution and unit grid. The grid may hold more or fewer units than the team, as
  // in DASH: the pattern maps elements to the grid's units (num_units()), a unit of the team
  // outside the grid owns nothing, and containers refuse a grid with units the team lacks.
  // Local; throws dash::exception::InvalidArgument for an empty grid or team, or a grid that
  // does not fit the distribution.
  CartesianPattern(const SizeSpec<N, IndexType>& sizespec, const DistributionSpec<N>& distspec,
                   const TeamSpec<N, IndexType>& teamspec, Team& team = Team::All())
      : Base(sizespec, team),
        distspec_(distspec),
        teamspec_(TeamSpec<N, IndexType>(teamspec, distspec, team)) {
    init_dimensions(sizespec, distspec, teamspec_);
  }
  // Every unit in the first distributed dimension (TeamSpec(distspec, team),
  // as DASH has it). Local.
  explicit CartesianPattern(const SizeSpec<N, IndexType>& sizespec,
                            const DistributionSpec<N>& distspec = DistributionSpec<N>(),
                            Team& team = Team::All())
      : CartesianPattern(sizespec, distspec, TeamSpec<N, IndexType>(distspec, team), team) {}
  // DASH's variadic form: the N extents, then optionally N Distributions
  // or a DistributionSpec, a TeamSpec and a Team (PatternArguments.h), e.g.
  // BlockPattern<3>(nx, ny, nz, BLOCKED, NONE, NONE, team). Local.
  template <class E0, class... Args, class = std::enable_if_t<starts_pattern_arguments_v<E0>>>
  explicit CartesianPattern(E0 extent0, Args&&... args)
      : CartesianPattern(PatternArguments<N, IndexType>(extent0, std::forward<Args>(args)...)) {}

  // Properties instances can have (see PatternProperties.h); the layout
  // properties come from the concrete pattern.
  using partitioning_properties = pattern_partitioning_properties<
      pattern_partitioning_tag::rectangular, pattern_partitioning_tag::minimal,
      pattern_partitioning_tag::regular, pattern_partitioning_tag::balanced,
      pattern_partitioning_tag::unbalanced,
      (N >= 2 ? pattern_partitioning_tag::ndimensional : pattern_partitioning_tag::any)>;
  using mapping_properties =
      pattern_mapping_properties<pattern_mapping_tag::balanced, pattern_mapping_tag::unbalanced,
                                 pattern_mapping_tag::neighbor, pattern_mapping_tag::cyclic,
                                 pattern_mapping_tag::multiple, pattern_mapping_tag::remote>;

 protected:
  // Offset in the calling unit's memory of its local coordinates in the
  // canonical layout (its local extents in Arrangement order): one
  // multiply-add per dimension with cached strides. Derived patterns'
  // local_at uses it where their layout is the canonical one. Local.
  index_type canonical_local_at(const coords_type& lcoords) const {
    index_type at = 0;
    for (dim_t d = 0; d < N; ++d) at += lcoords[d] * my_lstrides_[d];
    return at;
  }

  explicit CartesianPattern(const PatternArguments<N, IndexType>& args)
      : CartesianPattern(args.sizespec(), args.distspec(), args.teamspec(), args.team()) {}
  void init_dimensions(const SizeSpec<N, IndexType>& sizespec, const DistributionSpec<N>& distspec,
                       const TeamSpec<N, IndexType>& teamspec) {
    this->use_grid_units(teamspec_);
    for (dim_t d = 0; d < N; ++d) {
      const Distribution& dist = distspec[d];
      // NONE over several unit coordinates is one block, held by coordinate 0 (the others own
      // nothing in d), as DASH has it.
      if ((dist.type == DistributionType::BLOCKCYCLIC || dist.type == DistributionType::TILE) &&
          dist.blocksize == 0)
        throw exception::InvalidArgument(
            this->where("dimension " + std::to_string(d) + ": block size 0"));
      index_type units = static_cast<index_type>(teamspec.extent(d));
      index_type ext = static_cast<index_type>(sizespec.extent(d));
      // A block beyond the index range holds the whole dimension either way.
      default_size_t block = std::min<default_size_t>(dist.block_extent(ext, units),
                                                      std::numeric_limits<IndexType>::max());
      dims_[d] = DimBlocking<IndexType>(ext, units, static_cast<index_type>(block));
    }
    // A calling unit outside the grid keeps zero extents and strides (it owns nothing).
    if (in_grid(this->myid_)) {
      my_coords_ = teamspec_.coords(this->myid_);
      // Strides of the calling unit's local extents in Arrangement order (the
      // canonical layout's local array).
      index_type stride = 1;
      for (dim_t k = N - 1; k >= 0; --k) {
        const dim_t d = dim_at_order<N, Arr>(k);
        my_lextents_[d] = static_cast<size_type>(dims_[d].local_extent(my_coords_[d]));
        my_lstrides_[d] = stride;
        stride *= dims_[d].local_extent(my_coords_[d]);
      }
      // With at most one local block along every dimension but the slowest,
      // blocks stacked along the slowest one are the canonical layout too.
      for (dim_t k = 1; k < N; ++k) {
        const dim_t d = dim_at_order<N, Arr>(k);
        if (dims_[d].local_nblocks(my_coords_[d]) > 1) my_layout_canonical_ = false;
      }
    }
    // DASH's local capacity: the most blocks a unit coordinate holds per dimension (unit 0's),
    // each counted full, so the underfilled last block of a dimension counts full too (a block
    // counts at most the extent). At least the largest local_size; capped at the index type's
    // largest value (no memory holds more). Per dimension the product stays below twice the
    // extent, so it fits size_type.
    const size_type limit = static_cast<size_type>(std::numeric_limits<IndexType>::max());
    size_type capacity = 1;
    for (dim_t d = 0; d < N; ++d) {
      const auto& dim = dims_[d];
      size_type c =
          size_type(dim.local_nblocks(0)) * size_type(std::min(dim.blocksize, dim.extent));
      c = std::min(c, limit);
      capacity = (c != 0 && capacity > limit / c) ? limit : capacity * c;
    }
    this->local_capacity_ = capacity;
  }

  // Whether unit has a place in the grid (a team larger than the grid has units without).
  bool in_grid(team_unit_t unit) const {
    return unit.id >= 0 && static_cast<size_type>(unit.id) < this->nunits_;
  }

  std::array<DimBlocking<IndexType>, N> dims_;
  DistributionSpec<N> distspec_;
  TeamSpec<N, IndexType> teamspec_;
  coords_type my_coords_{};                 // the calling unit's TeamSpec coordinates
  std::array<size_type, N> my_lextents_{};  // its local extents
  coords_type my_lstrides_{};               // strides of its local extents, Arrangement order
  bool my_layout_canonical_ = true;         // its blocks' layout is the canonical one
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__PATTERN__INTERNAL__CARTESIAN_PATTERN_H_
