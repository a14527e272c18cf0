// DASH's dash::math helpers that its example programs call: integer division rounded up, the
// larger of two values, scaling a range to mean 1, the standard deviation of a range, prime
// factors, balanced grids, and a random double in [0, 1). All local; none allocates except
// factorize/factors.
#ifndef DASH__INTERNAL__MATH_H_
#define DASH__INTERNAL__MATH_H_

#include <dash/Exception.h>
#include <dash/pattern/BalancedGrid.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <type_traits>

namespace dash {
namespace math {

// a / b rounded up, for a >= 0 and b > 0. O(1).
template <class A, class B>
constexpr A div_ceil(A a, B b) {
  return static_cast<A>(a / static_cast<A>(b) + (a % static_cast<A>(b) != 0 ? 1 : 0));
}

// The larger / smaller of a and b. O(1).
template <class T>
constexpr T max(T a, T b) {
  return a < b ? b : a;
}
template <class T>
constexpr T min(T a, T b) {
  return b < a ? b : a;
}

// The smallest power of two >= v (1 for v = 0), for unsigned v. O(bits).
template <class U>
U NextPowerOf2(U v) {
  static_assert(std::is_unsigned_v<U>, "dash::math::NextPowerOf2: the type must be unsigned");
  U p = 1;
  while (p < v && p != 0) p <<= 1;
  return p;
}

// Divides every value of [begin, end) by their mean, so they average 1; leaves a range that is
// empty or sums to 0 or less unchanged. O(n).
template <class Iter>
void div_mean(Iter begin, Iter end) {
  const auto n = std::distance(begin, end);
  const double sum = std::accumulate(begin, end, 0.0);
  if (n <= 0 || !(sum > 0)) return;
  const double mean = sum / double(n);
  using V = typename std::iterator_traits<Iter>::value_type;
  for (Iter it = begin; it != end; ++it) *it = static_cast<V>(double(*it) / mean);
}

// Standard deviation of the values of [begin, end) around their mean (divided by n, as DASH's
// benchmarks report it); 0 for an empty range. O(n), two passes.
template <class Iter>
double sigma(const Iter& begin, const Iter& end) {
  const auto n = std::distance(begin, end);
  if (n <= 0) return 0.0;
  double sum = 0;
  for (Iter it = begin; it != end; ++it) sum += double(*it);
  const double mean = sum / double(n);
  double squares = 0;
  for (Iter it = begin; it != end; ++it) squares += (double(*it) - mean) * (double(*it) - mean);
  return std::sqrt(squares / double(n));
}

// Prime factors of n > 0 with their multiplicities ({} for 1). Throws
// dash::exception::InvalidArgument for n < 1. O(sqrt n).
template <class Integer>
std::map<Integer, unsigned> factorize(Integer n) {
  static_assert(std::is_integral_v<Integer>, "dash::math::factorize: n must be an integer");
  if (n < 1)
    throw exception::InvalidArgument("dash::math::factorize: n must be > 0, got " +
                                     std::to_string(n));
  std::map<Integer, unsigned> out;
  for (Integer p = 2; p <= n / p; ++p)
    for (; n % p == 0; n /= p) ++out[p];
  if (n > 1) ++out[n];
  return out;
}
// The distinct prime factors of n > 0. O(sqrt n).
template <class Integer>
std::set<Integer> factors(Integer n) {
  std::set<Integer> out;
  for (const auto& f : factorize(n)) out.insert(f.first);
  return out;
}

namespace internal {
// Product of the extents, which must be > 0 (else dash::exception::InvalidArgument naming `who`).
template <class Integer, std::size_t N>
Integer extents_product(const std::array<Integer, N>& extents, const char* who) {
  Integer n = 1;
  for (Integer e : extents) n *= e;
  if (!(n > 0))
    throw exception::InvalidArgument(std::string("dash::math::") + who +
                                     ": the extents' product must be > 0, got " +
                                     std::to_string(n));
  return n;
}
}  // namespace internal

// The product n of the extents rearranged as the library's balanced grid over the N dimensions
// (the factors as equal as possible, the largest first: {12, 1} -> {4, 3}; the grid
// dart_balanced_dims and TeamSpec::balance_extents give). Local, O(sqrt n); throws
// dash::exception::InvalidArgument for a product of 0 or one beyond INT_MAX.
template <class Integer, std::size_t N>
std::array<Integer, N> balance_extents(const std::array<Integer, N>& extents) {
  static_assert(std::is_integral_v<Integer>, "dash::math::balance_extents: integer extents");
  const Integer n = internal::extents_product(extents, "balance_extents");
  const auto factors = dash::internal::balanced_factors(static_cast<std::size_t>(n), N);
  std::array<Integer, N> out;
  for (std::size_t d = 0; d < N; ++d) out[d] = static_cast<Integer>(factors[d]);
  return out;
}

// The product n of the extents as a 2-D grid a x b in dimensions 0 and 1 (the others 1) whose
// side a is a multiple of one of the preferred `blocking` factors (those > 1), the most square
// such grid (smallest a + b, then smaller a): {1050, 1} with {50} -> {50, 21}. Without any
// (no factor > 1 divides n) the extents come back as {n, 1, ...}, as DASH's do. Local,
// O(sqrt n) per factor; throws dash::exception::InvalidArgument for a product of 0.
template <class Integer, std::size_t N>
std::array<Integer, N> balance_extents(const std::array<Integer, N>& extents,
                                       const std::set<Integer>& blocking) {
  static_assert(std::is_integral_v<Integer>, "dash::math::balance_extents: integer extents");
  static_assert(N >= 2, "dash::math::balance_extents: a blocking needs two dimensions");
  const Integer n = internal::extents_product(extents, "balance_extents");
  std::array<Integer, N> out;
  out.fill(1);
  out[0] = n;
  Integer best_a = 0, best_b = 0;
  // Divisor pairs (q, n / q) with q <= sqrt(n); either may be the side a.
  for (Integer q = 1; q <= n / q; ++q) {
    if (n % q != 0) continue;
    for (Integer a : {q, n / q}) {
      const Integer b = n / a;
      const bool blocked = std::any_of(blocking.begin(), blocking.end(),
                                       [a](Integer f) { return f > 1 && a % f == 0; });
      if (!blocked) continue;
      if (best_a == 0 || a + b < best_a + best_b || (a + b == best_a + best_b && a < best_a)) {
        best_a = a;
        best_b = b;
      }
    }
  }
  if (best_a > 0) {
    out[0] = best_a;
    out[1] = best_b;
  }
  return out;
}

namespace internal {
inline std::mt19937_64& random_engine() {
  static std::mt19937_64 engine;  // default seed: the same sequence on every run and unit
  return engine;
}
}  // namespace internal

// Seeds drand() from std::random_device (without it drand() gives the same sequence on every
// run). Local.
inline void sdrand() { internal::random_engine().seed(std::random_device{}()); }
// A pseudo-random double in [0, 1). Local; not thread-safe (one engine per process).
inline double drand() {
  return std::uniform_real_distribution<double>(0.0, 1.0)(internal::random_engine());
}

}  // namespace math
}  // namespace dash

#endif  // DASH__INTERNAL__MATH_H_
