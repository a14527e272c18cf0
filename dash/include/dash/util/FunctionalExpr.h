// dash::ce: compile-time (constexpr) functions over values, as DASH names them: the binary
// operators as function templates that can be passed by name (dash::ce::plus<int>) and
// accumulate over an index range of an array. Array building blocks (append, take, drop,
// reverse, split, ...) are in <dash/util/ArrayExpr.h>. Everything here is evaluated by the
// compiler when its arguments are constants; at run time each call costs what its loop does.
#ifndef DASH__UTIL__FUNCTIONAL_EXPR_H_
#define DASH__UTIL__FUNCTIONAL_EXPR_H_

#include <array>
#include <cstddef>

namespace dash {
namespace ce {

// a + b, a - b, a * b, a / b, and the larger / smaller of two values.
template <class T>
constexpr T plus(T a, T b) {
  return a + b;
}
template <class T>
constexpr T minus(T a, T b) {
  return a - b;
}
template <class T>
constexpr T multiply(T a, T b) {
  return a * b;
}
template <class T>
constexpr T divide(T a, T b) {
  return a / b;
}
template <class T>
constexpr T max(T a, T b) {
  return a < b ? b : a;
}
template <class T>
constexpr T min(T a, T b) {
  return b < a ? b : a;
}

// init folded with op over arr[first], ..., arr[last - 1], left to right:
// op(...op(op(init, arr[first]), arr[first + 1])..., arr[last - 1]).
template <class T, std::size_t N, class Init, class Op>
constexpr Init accumulate(const std::array<T, N>& arr, std::size_t first, std::size_t last,
                          Init init, Op op) {
  for (std::size_t i = first; i < last && i < N; ++i) init = op(init, arr[i]);
  return init;
}

}  // namespace ce
}  // namespace dash

#endif  // DASH__UTIL__FUNCTIONAL_EXPR_H_
