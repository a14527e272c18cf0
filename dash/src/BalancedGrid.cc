// The balanced grid: dart_balanced_dims, and its factors laid along extents.
#include <dart/dart_unit_mapping.h>
#include <dash/Exception.h>
#include <dash/pattern/BalancedGrid.h>

#include <algorithm>
#include <climits>
#include <numeric>
#include <string>

namespace dash {
namespace internal {

std::vector<std::size_t> balanced_factors(std::size_t n, std::size_t k) {
  if (k == 0) return {};
  if (n < 1 || n > std::size_t(INT_MAX) || k > std::size_t(DART_BALANCED_DIMS_MAX))
    throw exception::InvalidArgument("dash: no balanced grid of " + std::to_string(n) +
                                     " units in " + std::to_string(k) +
                                     " dimensions (need 1 <= units <= INT_MAX, dimensions <= " +
                                     std::to_string(DART_BALANCED_DIMS_MAX) + ")");
  std::vector<int> dims(k);
  if (dart_balanced_dims(int(n), int(k), dims.data()) != DART_OK)
    throw exception::RuntimeError("dash: dart_balanced_dims failed");
  return {dims.begin(), dims.end()};
}

std::vector<std::size_t> balanced_factors_for_extents(std::size_t n,
                                                      const std::vector<long>& extents) {
  const auto factors = balanced_factors(n, extents.size());
  std::vector<std::size_t> order(extents.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return extents[a] > extents[b]; });
  std::vector<std::size_t> out(extents.size());
  for (std::size_t i = 0; i < order.size(); ++i) out[order[i]] = factors[i];
  return out;
}

std::array<std::size_t, 2> locality_grid(std::size_t n, std::size_t n_nodes, std::size_t n_numa,
                                         std::size_t n_cores) {
  if (n == 0) return {0, 0};
  if (n_nodes > 1 && n_cores > 1) {
    // Sides that are multiples of a node's cores: each divisor pair (q, n / q), either side g.
    std::array<std::size_t, 2> best{0, 0};
    for (std::size_t q = 1; q <= n / q; ++q) {
      if (n % q != 0) continue;
      for (std::size_t g : {q, n / q}) {
        const std::size_t o = n / g;
        if (g % n_cores != 0) continue;
        const std::size_t sum = g + o, best_sum = best[0] + best[1];
        if (best[0] == 0 || sum < best_sum || (sum == best_sum && g < best[0])) best = {g, o};
      }
    }
    return best;
  }
  if (n_nodes == 1 && n_numa > 1 && n % n_numa == 0) {
    std::size_t root = 1;
    while ((root + 1) <= n / (root + 1)) ++root;
    if (root * root == n && root % n_numa == 0) return {root, root};
    return {n_numa, n / n_numa};
  }
  return {0, 0};
}

}  // namespace internal
}  // namespace dash
