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

  // Properties instances can have (see PatternProperties.h).
  using partitioning_properties = pattern_partitioning_properties<
      pattern_partitioning_tag::rectangular, pattern_partitioning_tag::minimal,
      pattern_partitioning_tag::regular, pattern_partitioning_tag::balanced,
      pattern_partitioning_tag::unbalanced,
      (N >= 2 ? pattern_partitioning_tag::ndimensional : pattern_partitioning_tag::any)>;
  using mapping_properties =
      pattern_mapping_properties<pattern_mapping_tag::balanced, pattern_mapping_tag::unbalanced,
                                 pattern_mapping_tag::neighbor, pattern_mapping_tag::cyclic,
                                 pattern_mapping_tag::multiple, pattern_mapping_tag::remote>;
  using layout_properties =
      pattern_layout_properties<(Arr == ROW_MAJOR ? pattern_layout_tag::row_major
                                                  : pattern_layout_tag::col_major),
                                pattern_layout_tag::canonical, pattern_layout_tag::linear>;
  using typename Base::coords_type;
  using typename Base::index_type;
  using typename Base::size_type;

  // Explicit distribution and unit grid. Local; throws
  // dash::exception::InvalidArgument if they do not fit each other or the team.
  BlockPattern(const SizeSpec<N, IndexType>& sizespec, const DistributionSpec<N>& distspec,
               const TeamSpec<N, IndexType>& teamspec, Team& team = Team::All())
      : Base(sizespec, distspec, teamspec, team) {}
  // Unit grid balanced over the distributed dimensions.
  explicit BlockPattern(const SizeSpec<N, IndexType>& sizespec,
                        const DistributionSpec<N>& distspec = DistributionSpec<N>(),
                        Team& team = Team::All())
      : Base(sizespec, distspec, TeamSpec<N, IndexType>(distspec, team), team) {}
  // 1-D: `size` elements distributed by `dist`.
  template <dim_t M = N, class = std::enable_if_t<M == 1>>
  explicit BlockPattern(size_type size, Distribution dist = BLOCKED, Team& team = Team::All())
      : Base(SizeSpec<1, IndexType>(size), DistributionSpec<1>(dist),
             TeamSpec<1, IndexType>(team.size()), team) {}

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
