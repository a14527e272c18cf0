// Reduction operations for dash::accumulate / dash::reduce, each with the DART
// operation that combines partial results in one allreduce:
//   dash::plus<T>      a + b             DART_OP_SUM
//   dash::multiply<T>  a * b             DART_OP_PROD
//   dash::min<T>       smaller of a, b   DART_OP_MIN
//   dash::max<T>       larger of a, b    DART_OP_MAX
//   dash::bit_and<T>   a & b             DART_OP_BAND  (also bit_or, bit_xor)
// Any other binary operation works too (its partials are allgathered).
// op.dart_operation() (also Op::dart_operation()) is its DART operation, as in DASH.
// Calling an operation is local.
#ifndef DASH__ALGORITHM__OPERATION_H_
#define DASH__ALGORITHM__OPERATION_H_

#include <dart/dart_types.h>
#include <dash/internal/DartType.h>

#include <limits>
#include <type_traits>

namespace dash {

// a + b; identity 0.
template <class T>
struct plus {
  static constexpr dart_operation_t dart_operation() { return DART_OP_SUM; }
  static T identity() { return T(0); }
  T operator()(const T& a, const T& b) const { return a + b; }
};

// a * b; identity 1.
template <class T>
struct multiply {
  static constexpr dart_operation_t dart_operation() { return DART_OP_PROD; }
  static T identity() { return T(1); }
  T operator()(const T& a, const T& b) const { return a * b; }
};

// The smaller of a and b (a if equal); identity the largest T.
template <class T>
struct min {
  static constexpr dart_operation_t dart_operation() { return DART_OP_MIN; }
  static T identity() {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::max();
  }
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};

// The larger of a and b (a if equal); identity the smallest T.
template <class T>
struct max {
  static constexpr dart_operation_t dart_operation() { return DART_OP_MAX; }
  static T identity() {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::lowest();
  }
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};

// Bitwise and / or / xor of integers; identity all ones / 0 / 0.
template <class T>
struct bit_and {
  static constexpr dart_operation_t dart_operation() { return DART_OP_BAND; }
  static T identity() { return T(~T(0)); }
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T>
struct bit_or {
  static constexpr dart_operation_t dart_operation() { return DART_OP_BOR; }
  static T identity() { return T(0); }
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T>
struct bit_xor {
  static constexpr dart_operation_t dart_operation() { return DART_OP_BXOR; }
  static T identity() { return T(0); }
  T operator()(const T& a, const T& b) const { return a ^ b; }
};

namespace internal {

// The DART operation of Op (DART_OP_UNDEFINED for operations without one).
template <class Op, class = void>
struct dart_operation_of : std::integral_constant<dart_operation_t, DART_OP_UNDEFINED> {};
template <class Op>
struct dart_operation_of<Op, std::void_t<decltype(Op::dart_operation())>>
    : std::integral_constant<dart_operation_t, Op::dart_operation()> {};

// DASH's name: the DART operation that reduces with Op in one call, i.e. Op's
// own (dash::plus<T> ...) when its value type T has a DART type, else
// DART_OP_UNDEFINED (dash::plus of a struct, a lambda). Compile time.
template <class Op>
struct dart_reduce_operation : std::integral_constant<dart_operation_t, DART_OP_UNDEFINED> {};
template <template <class> class Op, class T>
struct dart_reduce_operation<Op<T>>
    : std::integral_constant<dart_operation_t, dart_datatype_of<T>() == DART_TYPE_UNDEFINED
                                                   ? DART_OP_UNDEFINED
                                                   : dart_operation_of<Op<T>>::value> {};

}  // namespace internal
}  // namespace dash

#endif  // DASH__ALGORITHM__OPERATION_H_
