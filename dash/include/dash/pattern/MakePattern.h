// dash::make_pattern<PartC, MapC, LayC>(sizespec, teamspec): a pattern chosen
// by the properties the caller needs. The pattern TYPE is deduced at compile
// time from the constraints:
//
//   mapping diagonal or shifted  -> ShiftTilePattern
//   layout blocked               -> TilePattern
//   otherwise                    -> BlockPattern
//   (layout col_major selects COL_MAJOR, else ROW_MAJOR)
//
// and its BLOCKING at run time: per dimension the candidate block extents
// are tried in order of preference (for balanced/regular partitioning only
// divisors of the extent; at least as many blocks as units in that
// dimension first, fewest blocks first), and the first blocking whose
// instance passes check_pattern_constraints is returned. If none does,
// make_pattern throws dash::exception::InvalidArgument naming the violated
// property, so the returned pattern always has the requested properties.
#ifndef DASH__PATTERN__MAKE_PATTERN_H_
#define DASH__PATTERN__MAKE_PATTERN_H_

#include <dash/Exception.h>
#include <dash/pattern/BlockPattern.h>
#include <dash/pattern/PatternProperties.h>
#include <dash/pattern/ShiftTilePattern.h>
#include <dash/pattern/TilePattern.h>
#include <dash/util/UnitLocality.h>  // DASH's MakePattern.h brings dash::util::UnitLocality

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {

namespace internal {

template <dim_t N, class PartC, class MapC, class LayC, class IndexType>
struct deduce_pattern {
  static constexpr MemArrange arrangement = LayC::col_major ? COL_MAJOR : ROW_MAJOR;
  using type =
      std::conditional_t<MapC::diagonal || MapC::shifted,
                         ShiftTilePattern<N, arrangement, IndexType>,
                         std::conditional_t<LayC::blocked, TilePattern<N, arrangement, IndexType>,
                                            BlockPattern<N, arrangement, IndexType>>>;
};

template <class P>
struct deals_over_all_units : std::false_type {};
template <dim_t N, MemArrange A, class I>
struct deals_over_all_units<ShiftTilePattern<N, A, I>> : std::true_type {};

// Block extents to try for `extent` elements over `units` unit coordinates,
// best first. Local.
std::vector<default_size_t> block_extent_candidates(default_size_t extent, default_size_t units,
                                                    bool divisors_only, bool minimal,
                                                    std::size_t max_candidates);

}  // namespace internal

// DASH's make_team_spec for n_units units on n_nodes nodes of n_numa NUMA domains and n_cores
// cores each (0: unknown). For N >= 2 the units form a 2-D grid in dimensions 0 and 1 that keeps
// units sharing hardware together (internal::locality_grid: whole nodes in each grid row; on one
// node one row per NUMA domain unless a square grid keeps them together too), its longer side
// along the longer extent (on equal extents the side holding the groups in dimension 0). Where
// the counts are unknown or do not divide n_units: the balanced grid over all N dimensions
// (dart_balanced_dims, as TeamSpec::balance_extents(): the largest factor along the longest
// extent; equal extents keep DART's order, so a cube's grid is the one DART_UNIT_MAPPING
// optimises). The properties are accepted for DASH's signature. Local; throws
// dash::exception::InvalidArgument for n_units < 1.
template <class PartC = pattern_partitioning_properties<>,
          class MapC = pattern_mapping_properties<>,
          class LayC =
              pattern_layout_properties<pattern_layout_tag::canonical, pattern_layout_tag::linear>,
          dim_t N, class SizeType>
TeamSpec<N, std::make_signed_t<SizeType>> make_team_spec(
    const SizeSpec<N, SizeType>& sizespec, int n_units, std::make_unsigned_t<SizeType> n_nodes = 0,
    std::make_unsigned_t<SizeType> n_numa = 0, std::make_unsigned_t<SizeType> n_cores = 0) {
  using IndexType = std::make_signed_t<SizeType>;
  using Extent = typename TeamSpec<N, IndexType>::size_type;
  if (n_units < 1)
    throw exception::InvalidArgument("dash::make_team_spec: n_units must be >= 1, got " +
                                     std::to_string(n_units));
  std::array<Extent, N> grid;
  grid.fill(1);
  const std::size_t n = std::size_t(n_units);
  const auto groups = N >= 2 ? internal::locality_grid(n, n_nodes, n_numa, n_cores)
                             : std::array<std::size_t, 2>{0, 0};
  if constexpr (N >= 2) {
    if (groups[0] != 0) {
      const bool swap = sizespec.extent(0) != sizespec.extent(1) &&
                        (groups[0] < groups[1]) == (sizespec.extent(0) > sizespec.extent(1));
      grid[0] = Extent(groups[swap ? 1 : 0]);
      grid[1] = Extent(groups[swap ? 0 : 1]);
      return TeamSpec<N, IndexType>(grid);
    }
  }
  std::vector<long> extents(N);
  for (dim_t d = 0; d < N; ++d) extents[d] = long(sizespec.extent(d));
  const auto factors = internal::balanced_factors_for_extents(n, extents);
  for (dim_t d = 0; d < N; ++d) grid[d] = Extent(factors[d]);
  return TeamSpec<N, IndexType>(grid);
}

// The same for the units of `team` (DASH's default form). Without the counts: the balanced grid
// (DASH would ask the locality layer for them). Local.
template <class PartC = pattern_partitioning_properties<>,
          class MapC = pattern_mapping_properties<>,
          class LayC =
              pattern_layout_properties<pattern_layout_tag::canonical, pattern_layout_tag::linear>,
          dim_t N, class SizeType>
TeamSpec<N, std::make_signed_t<SizeType>> make_team_spec(
    const SizeSpec<N, SizeType>& sizespec, const Team& team = Team::All(),
    std::make_unsigned_t<SizeType> n_nodes = 0, std::make_unsigned_t<SizeType> n_numa = 0,
    std::make_unsigned_t<SizeType> n_cores = 0) {
  return make_team_spec<PartC, MapC, LayC>(sizespec, int(team.size()), n_nodes, n_numa, n_cores);
}

template <class PartC = pattern_partitioning_properties<>,
          class MapC = pattern_mapping_properties<>,
          class LayC =
              pattern_layout_properties<pattern_layout_tag::canonical, pattern_layout_tag::linear>,
          dim_t N, class SizeType, class IndexType>
auto make_pattern(const SizeSpec<N, SizeType>& sizespec_given,
                  const TeamSpec<N, IndexType>& teamspec, Team& team = Team::All()) ->
    typename internal::deduce_pattern<N, PartC, MapC, LayC, IndexType>::type {
  // The pattern's index type is the TeamSpec's; the SizeSpec may be DASH's unsigned one.
  const SizeSpec<N, IndexType> sizespec(sizespec_given);
  using P = typename internal::deduce_pattern<N, PartC, MapC, LayC, IndexType>::type;
  static_assert(pattern_constraints<PartC, MapC, LayC, P>::satisfied::value,
                "dash::make_pattern: no pattern type offers all the requested properties");
  // Per-dimension candidates; the product of their counts stays below ~4096.
  std::size_t per_dim = std::max<std::size_t>(2, std::size_t(std::pow(4096.0, 1.0 / N)));
  std::array<std::vector<default_size_t>, N> cands;
  for (dim_t d = 0; d < N; ++d) {
    default_size_t units =
        internal::deals_over_all_units<P>::value ? team.size() : teamspec.extent(d);
    cands[d] = internal::block_extent_candidates(
        sizespec.extent(d), units, PartC::balanced || PartC::regular, PartC::minimal, per_dim);
  }
  std::array<std::size_t, N> pick{};
  std::string last_violation;
  while (true) {
    DistributionSpec<N> dist;
    for (dim_t d = 0; d < N; ++d) {
      default_size_t b = cands[d][pick[d]];
      dist[d] = std::is_same_v<P, BlockPattern<N, P::memory_order(), IndexType>> ? BLOCKCYCLIC(b)
                                                                                 : TILE(b);
    }
    P pattern(sizespec, dist, teamspec, team);
    last_violation = pattern_constraint_violations<PartC, MapC, LayC>(pattern);
    if (last_violation.empty()) return pattern;
    // Next combination, last dimension fastest.
    dim_t d = N - 1;
    while (d >= 0 && ++pick[d] == cands[d].size()) pick[d--] = 0;
    if (d < 0) break;
  }
  std::string ext;
  for (dim_t d = 0; d < N; ++d) ext += (d ? "x" : "") + std::to_string(sizespec.extent(d));
  throw exception::InvalidArgument(std::string("dash::make_pattern: no blocking of ") + ext +
                                   " for " + std::to_string(team.size()) +
                                   " units has the requested properties (" + last_violation + ")");
}

}  // namespace dash

#endif  // DASH__PATTERN__MAKE_PATTERN_H_
