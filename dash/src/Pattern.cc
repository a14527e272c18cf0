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

std::vector<std::size_t> balanced_factors(std::size_t n, std::size_t k) {
  std::vector<std::size_t> factors(k, 1);
  if (k == 0) return factors;
  // Prime factors, largest first; each goes to the currently smallest factor.
  std::vector<std::size_t> primes;
  for (std::size_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      primes.push_back(p);
      n /= p;
    }
  }
  if (n > 1) primes.push_back(n);
  std::sort(primes.begin(), primes.end(), std::greater<>());
  for (std::size_t p : primes) *std::min_element(factors.begin(), factors.end()) *= p;
  std::sort(factors.begin(), factors.end(), std::greater<>());
  return factors;
}

}  // namespace internal
}  // namespace dash
