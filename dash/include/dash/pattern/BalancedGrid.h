// The one balanced grid of the library. Every place that arranges units or
// blocks in a balanced N-D grid takes its factors from here, and this takes
// them from dart_balanced_dims, the grid DART_UNIT_MAPPING optimises: so a
// remapped run's container and block neighbours are the neighbours the
// mapping placed on the same node.
#ifndef DASH__PATTERN__BALANCED_GRID_H_
#define DASH__PATTERN__BALANCED_GRID_H_

#include <array>
#include <cstddef>
#include <vector>

namespace dash {
namespace internal {

// n as a product of k factors, non-increasing and as equal as possible (the
// largest as small as possible, then the next): 12, 3 -> 3 x 2 x 2;
// 72, 2 -> 9 x 8. Exactly dart_balanced_dims. Throws
// dash::exception::InvalidArgument unless 1 <= n <= INT_MAX and
// k <= DART_BALANCED_DIMS_MAX (k = 0 gives no factors). Local.
std::vector<std::size_t> balanced_factors(std::size_t n, std::size_t k);

// The same factors laid on the dimensions whose extents are given: the
// largest factor to the longest extent, ties in dimension order, so equal
// extents give balanced_factors(n, extents.size()) unchanged. Local.
std::vector<std::size_t> balanced_factors_for_extents(std::size_t n,
                                                      const std::vector<long>& extents);

// A 2-D grid {g, o} (g * o = n) for n units on n_nodes nodes of n_numa NUMA domains and n_cores
// cores each, keeping the units that share hardware together (0 counts as unknown):
//   several nodes (n_nodes > 1, n_cores > 1): the most square grid (smallest g + o, then
//     smaller g) whose side g is a multiple of n_cores, so each grid row holds whole nodes;
//   one node (n_nodes == 1, n_numa > 1): g = o = sqrt(n) if n is a square whose root is a
//     multiple of n_numa (each NUMA domain then holds whole rows), else g = n_numa rows of
//     n / n_numa (one row per NUMA domain);
// {0, 0} where the counts do not fit (unknown, or n not a multiple of them): the caller takes the
// balanced grid. Local, O(sqrt n).
std::array<std::size_t, 2> locality_grid(std::size_t n, std::size_t n_nodes, std::size_t n_numa,
                                         std::size_t n_cores);

}  // namespace internal
}  // namespace dash

#endif  // DASH__PATTERN__BALANCED_GRID_H_
