// Non-template parts of the pattern layer.
#include <dash/pattern/Distribution.h>
#include <dash/pattern/TeamSpec.h>

#include <algorithm>
#include <functional>

namespace dash {

const char* distribution_name(DistributionType type) {
  switch (type) {
    case DistributionType::NONE:
      return "NONE";
    case DistributionType::BLOCKED:
      return "BLOCKED";
    case DistributionType::CYCLIC:
      return "CYCLIC";
    case DistributionType::BLOCKCYCLIC:
      return "BLOCKCYCLIC";
    case DistributionType::TILE:
      return "TILE";
  }
  return "?";
}

namespace internal {

std::vector<default_size_t> block_extent_candidates(default_size_t extent, default_size_t units,
                                                    bool divisors_only, bool minimal,
                                                    std::size_t max_candidates) {
  if (extent == 0) return {1};
  if (units == 0) units = 1;
  default_size_t blocked = (extent + units - 1) / units;  // one block per unit
  std::vector<default_size_t> out;
  if (minimal) {
    out.push_back(blocked);
    return out;
  }
  std::vector<default_size_t> divisors;
  for (default_size_t b = 1; b * b <= extent; ++b) {
    if (extent % b == 0) {
      divisors.push_back(b);
      if (b != extent / b) divisors.push_back(extent / b);
    }
  }
  std::sort(divisors.begin(), divisors.end(), std::greater<>());
  if (!divisors_only) out.push_back(blocked);
  // At least `units` blocks, fewest first; then fewer blocks than units.
  for (auto b : divisors)
    if (b <= blocked && out.size() < max_candidates && b != (divisors_only ? 0 : blocked))
      out.push_back(b);
  for (auto it = divisors.rbegin(); it != divisors.rend(); ++it)
    if (*it > blocked && out.size() < max_candidates) out.push_back(*it);
  return out;
}

}  // namespace internal
}  // namespace dash
