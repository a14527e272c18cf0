// dash::ShiftTilePattern<N> (N = 1, 2): the index space is cut into tiles of
// the block extents the DistributionSpec gives per dimension (TILE(b): b,
// BLOCKED: ceil(extent / units), ...); last tiles may be underfilled. Tile
// (j0, j1) of the tile grid belongs to unit (j0 + j1) mod units ("shifted" or
// "diagonal" mapping: every tile row and every tile column cycles through all
// units); in 1-D tile j belongs to unit j mod units. The TeamSpec only has to
// hold the team's units; its shape does not matter.
//
// Local memory is "blocked": a unit's tiles follow each other in increasing
// order of their global linear tile index (Arrangement order over the tile
// grid), the elements inside a tile in Arrangement order of the tile's actual
// extents. Underfilled tiles are packed, so a unit's local memory holds
// exactly local_size(unit) elements.
//
// Every lookup is O(1) arithmetic and allocation-free; the only loop is over
// the units in the constructor (local_capacity).
//
// The core shared with dash::SeqTilePattern is internal::DealtTilePattern.
#ifndef DASH__PATTERN__SHIFT_TILE_PATTERN_H_
#define DASH__PATTERN__SHIFT_TILE_PATTERN_H_

#include <dash/pattern/PatternProperties.h>
#include <dash/pattern/internal/DealtTilePattern.h>

namespace dash {

template <dim_t N, MemArrange Arr = ROW_MAJOR, class IndexType = default_index_t>
class ShiftTilePattern
    : public internal::DealtTilePattern<ShiftTilePattern<N, Arr, IndexType>, N, Arr, IndexType,
                                        internal::TileDeal::Shifted> {
  static_assert(N == 1 || N == 2, "ShiftTilePattern supports 1-D and 2-D index spaces");
  using Base = internal::DealtTilePattern<ShiftTilePattern<N, Arr, IndexType>, N, Arr, IndexType,
                                          internal::TileDeal::Shifted>;

 public:
  static constexpr const char* PatternName = "ShiftTilePattern";

  // Properties instances can have (see PatternProperties.h).
  using partitioning_properties = pattern_partitioning_properties<
      pattern_partitioning_tag::rectangular, pattern_partitioning_tag::minimal,
      pattern_partitioning_tag::regular, pattern_partitioning_tag::balanced,
      pattern_partitioning_tag::unbalanced,
      (N >= 2 ? pattern_partitioning_tag::ndimensional : pattern_partitioning_tag::any)>;
  using mapping_properties =
      pattern_mapping_properties<pattern_mapping_tag::balanced, pattern_mapping_tag::unbalanced,
                                 pattern_mapping_tag::neighbor, pattern_mapping_tag::shifted,
                                 pattern_mapping_tag::diagonal, pattern_mapping_tag::cyclic,
                                 pattern_mapping_tag::multiple, pattern_mapping_tag::remote>;
  using layout_properties =
      pattern_layout_properties<(Arr == ROW_MAJOR ? pattern_layout_tag::row_major
                                                  : pattern_layout_tag::col_major),
                                pattern_layout_tag::blocked, pattern_layout_tag::linear>;
  using typename Base::size_type;

  using Base::Base;
};

}  // namespace dash

#endif  // DASH__PATTERN__SHIFT_TILE_PATTERN_H_
