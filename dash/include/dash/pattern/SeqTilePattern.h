// dash::SeqTilePattern<N> (N = 1, 2): the index space is cut into tiles of
// the block extents the DistributionSpec gives per dimension (TILE(b): b,
// BLOCKED: ceil(extent / units), ...); last tiles may be underfilled. The
// tiles are dealt in sequence: the tile with linear index b (Arrangement
// order over the tile grid) belongs to unit b mod units. The TeamSpec only
// has to hold the team's units; its shape does not matter.
//
// Local memory is "blocked" as in ShiftTilePattern: a unit's tiles follow
// each other in increasing global linear tile index, the elements inside a
// tile in Arrangement order of the tile's actual extents, underfilled tiles
// packed. Every lookup is O(1) arithmetic and allocation-free.
#ifndef DASH__PATTERN__SEQ_TILE_PATTERN_H_
#define DASH__PATTERN__SEQ_TILE_PATTERN_H_

#include <dash/pattern/PatternProperties.h>
#include <dash/pattern/internal/DealtTilePattern.h>

namespace dash {

template <dim_t N, MemArrange Arr = ROW_MAJOR, class IndexType = default_index_t>
class SeqTilePattern
    : public internal::DealtTilePattern<SeqTilePattern<N, Arr, IndexType>, N, Arr, IndexType,
                                        internal::TileDeal::Sequential> {
  static_assert(N == 1 || N == 2, "SeqTilePattern supports 1-D and 2-D index spaces");
  using Base = internal::DealtTilePattern<SeqTilePattern<N, Arr, IndexType>, N, Arr, IndexType,
                                          internal::TileDeal::Sequential>;

 public:
  static constexpr const char* PatternName = "SeqTilePattern";

  // Properties instances can have (see PatternProperties.h).
  using partitioning_properties = pattern_partitioning_properties<
      pattern_partitioning_tag::rectangular, pattern_partitioning_tag::minimal,
      pattern_partitioning_tag::regular, pattern_partitioning_tag::balanced,
      pattern_partitioning_tag::unbalanced,
      (N >= 2 ? pattern_partitioning_tag::ndimensional : pattern_partitioning_tag::any)>;
  // Tile counts of any two units differ by at most one (equal where the
  // units divide the tiles: balanced, else unbalanced); only in 1-D do
  // adjacent tiles always go to adjacent units.
  using mapping_properties = pattern_mapping_properties<
      pattern_mapping_tag::balanced, pattern_mapping_tag::unbalanced,
      (N == 1 ? pattern_mapping_tag::neighbor : pattern_mapping_tag::any),
      pattern_mapping_tag::cyclic, pattern_mapping_tag::multiple, pattern_mapping_tag::remote>;
  using layout_properties =
      pattern_layout_properties<(Arr == ROW_MAJOR ? pattern_layout_tag::row_major
                                                  : pattern_layout_tag::col_major),
                                pattern_layout_tag::blocked, pattern_layout_tag::linear>;
  using typename Base::size_type;

  using Base::Base;
};

}  // namespace dash

#endif  // DASH__PATTERN__SEQ_TILE_PATTERN_H_
