// dash::TilePattern<N>: blocks ("tiles") are dealt per dimension over the
// TeamSpec grid like BlockPattern, but each local tile is contiguous in local
// memory ("blocked" layout): a unit's tiles follow each other in Arrangement
// order of its local tile grid, and the elements inside a tile in
// Arrangement order. Last tiles may be underfilled; they take only the
// memory they need.
#ifndef DASH__PATTERN__TILE_PATTERN_H_
#define DASH__PATTERN__TILE_PATTERN_H_

#include <dash/pattern/PatternProperties.h>
#include <dash/pattern/internal/CartesianPattern.h>

#include <algorithm>

namespace dash {

template <dim_t N, MemArrange Arr = ROW_MAJOR, class IndexType = default_index_t>
class TilePattern
    : public internal::CartesianPattern<TilePattern<N, Arr, IndexType>, N, Arr, IndexType> {
  using Base = internal::CartesianPattern<TilePattern<N, Arr, IndexType>, N, Arr, IndexType>;
  friend Base;

 public:
  static constexpr const char* PatternName = "TilePattern";

  // Layout properties (see PatternProperties.h); the others come from the base.
  using layout_properties =
      pattern_layout_properties<(Arr == ROW_MAJOR ? pattern_layout_tag::row_major
                                                  : pattern_layout_tag::col_major),
                                pattern_layout_tag::blocked, pattern_layout_tag::linear>;
  using typename Base::coords_type;
  using typename Base::index_type;
  using typename Base::size_type;

  using Base::Base;

  // Offset in the calling unit's memory of its local coordinates (see
  // layout_offset_of_blocks): where its tiles only stack along the slowest
  // dimension the canonical layout's multiply-adds, else with its local
  // extents' strides cached and each tile found by a FastDivisor multiply.
  // Local, O(N).
  index_type local_at(const coords_type& lcoords) const {
    if (this->my_layout_canonical_) return this->canonical_local_at(lcoords);
    index_type offset = 0, in_tile = 0, tile_prefix = 1;
    for (dim_t k = 0; k < N; ++k) {
      const dim_t d = internal::dim_at_order<N, Arr>(k);
      const auto& dim = this->dims_[d];
      const index_type tile = internal::divide(lcoords[d], dim.by_blocksize);
      const index_type e = dim.local_block_extent(this->my_coords_[d], tile);
      offset += tile_prefix * tile * dim.blocksize * this->my_lstrides_[d];
      tile_prefix *= e;
      in_tile = in_tile * e + (lcoords[d] - tile * dim.blocksize);
    }
    return offset + in_tile;
  }

  // Offset of the calling unit's local tile lblock in its local memory.
  index_type local_block_offset(index_type lblock) const {
    return local_at(this->local_block_local(lblock).offsets());
  }

 private:
  // Tiles before tile c in Arrangement order: for the k-th dimension in that
  // order, all tiles with a smaller coordinate there and equal coordinates in
  // the dimensions before it. Only last tiles are underfilled, so
  //   offset = sum_k  prod_{k'<k} e(c_k') * c_k * B_k * prod_{k'>k} L_k'
  //            + position inside tile c (extents e(c))
  // with e the tile extents, B the full tile extents, L the local extents.
  index_type layout_offset_of_blocks(const coords_type& unit_coords, const coords_type& tile,
                                     const coords_type& phase) const {
    index_type suffix[N];  // prod of L over later dimensions in Arrangement order
    index_type prod = 1;
    for (dim_t k = N - 1; k >= 0; --k) {
      dim_t d = internal::dim_at_order<N, Arr>(k);
      suffix[k] = prod;
      if (k > 0) prod *= this->dims_[d].local_extent(unit_coords[d]);
    }
    index_type offset = 0, in_tile = 0, tile_prefix = 1;
    for (dim_t k = 0; k < N; ++k) {
      dim_t d = internal::dim_at_order<N, Arr>(k);
      const auto& dim = this->dims_[d];
      index_type e = dim.local_block_extent(unit_coords[d], tile[d]);
      offset += tile_prefix * tile[d] * dim.blocksize * suffix[k];
      tile_prefix *= e;
      in_tile = in_tile * e + phase[d];
    }
    return offset + in_tile;
  }
  coords_type layout_coords(const coords_type& unit_coords, index_type offset) const {
    std::array<index_type, N> suffix;
    index_type prod = 1;
    for (dim_t k = N - 1; k >= 0; --k) {
      dim_t d = internal::dim_at_order<N, Arr>(k);
      suffix[k] = prod;
      prod *= this->dims_[d].local_extent(unit_coords[d]);
    }
    coords_type tile, ext;
    index_type tile_prefix = 1;
    for (dim_t k = 0; k < N; ++k) {
      dim_t d = internal::dim_at_order<N, Arr>(k);
      const auto& dim = this->dims_[d];
      // A unit holding less than a full tile in d holds one tile there: divide
      // by what it holds, so the slab cannot overflow for huge tiles.
      index_type full = std::min(dim.blocksize, dim.local_extent(unit_coords[d]));
      index_type slab = tile_prefix * full * suffix[k];
      tile[d] = offset / slab;
      offset -= tile[d] * slab;
      ext[d] = dim.local_block_extent(unit_coords[d], tile[d]);
      tile_prefix *= ext[d];
    }
    coords_type in_tile = internal::delinearize<N, Arr>(offset, ext);
    coords_type lcoords;
    for (dim_t d = 0; d < N; ++d) lcoords[d] = tile[d] * this->dims_[d].blocksize + in_tile[d];
    return lcoords;
  }
};

}  // namespace dash

#endif  // DASH__PATTERN__TILE_PATTERN_H_
