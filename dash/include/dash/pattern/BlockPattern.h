// dash::BlockPattern<N>: each dimension is cut by its Distribution (BLOCKED,
// CYCLIC, BLOCKCYCLIC(b), TILE(b), NONE) and dealt over that dimension of the
// TeamSpec grid. A unit's elements form one N-D local array of its local
// extents, stored in Arrangement order ("canonical" layout): lbegin()..lend()
// runs through it like a plain C array.
#ifndef DASH__PATTERN__BLOCK_PATTERN_H_
#define DASH__PATTERN__BLOCK_PATTERN_H_

#include <dash/pattern/PatternProperties.h>
#include <dash/pattern/internal/CartesianPattern.h>

namespace dash {

template <dim_t N, MemArrange Arr = ROW_MAJOR, class IndexType = default_index_t>
class BlockPattern
    : public internal::CartesianPattern<BlockPattern<N, Arr, IndexType>, N, Arr, IndexType> {
  using Base = internal::CartesianPattern<BlockPattern<N, Arr, IndexType>, N, Arr, IndexType>;
  friend Base;

 public:
  static constexpr const char* PatternName = "BlockPattern";

  // Layout properties (see PatternProperties.h); the others come from the base.
  using layout_properties =
      pattern_layout_properties<(Arr == ROW_MAJOR ? pattern_layout_tag::row_major
                                                  : pattern_layout_tag::col_major),
                                pattern_layout_tag::canonical, pattern_layout_tag::linear>;
  using typename Base::coords_type;
  using typename Base::index_type;
  using typename Base::size_type;

  using Base::Base;

  // Offset in the calling unit's memory of its local coordinates: its local
  // array is canonical, so one multiply-add per dimension with the strides
  // of its local extents (no block arithmetic). Local, O(N).
  index_type local_at(const coords_type& lcoords) const {
    return this->canonical_local_at(lcoords);
  }

 private:
  index_type layout_offset_of_blocks(const coords_type& unit_coords, const coords_type& block,
                                     const coords_type& phase) const {
    if constexpr (N == 1) {
      (void)unit_coords;
      return block[0] * this->dims_[0].blocksize + phase[0];
    } else {
      index_type offset = 0;
      for (dim_t k = 0; k < N; ++k) {
        dim_t d = internal::dim_at_order<N, Arr>(k);
        const auto& dim = this->dims_[d];
        offset = offset * dim.local_extent(unit_coords[d]) + block[d] * dim.blocksize + phase[d];
      }
      return offset;
    }
  }
  coords_type layout_coords(const coords_type& unit_coords, index_type offset) const {
    if constexpr (N == 1) {
      (void)unit_coords;
      return coords_type{offset};
    } else {
      std::array<size_type, N> lext;
      for (dim_t d = 0; d < N; ++d) lext[d] = this->dims_[d].local_extent(unit_coords[d]);
      return internal::delinearize<N, Arr>(offset, lext);
    }
  }
};

}  // namespace dash

#endif  // DASH__PATTERN__BLOCK_PATTERN_H_
