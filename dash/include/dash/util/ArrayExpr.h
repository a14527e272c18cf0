// dash::ce: compile-time (constexpr) building blocks over std::array, as DASH names them. Each
// returns a new array whose size is part of its type:
//
// | call                      | gives                                                   |
// |---------------------------|---------------------------------------------------------|
// | append(a, b)              | a's elements then b's (array<T, N + M>)                 |
// | append(a, v)              | a's elements then v (array<T, N + 1>)                   |
// | take<K>(a), drop<K>(a)    | a's first K elements; a without its first K (K <= N)    |
// | head(a), tail(a)          | a's first element as array<T, 1>; a without it          |
// | reverse(a)                | a's elements in reverse order                           |
// | replace_nth<I>(v, a)      | a with element I replaced by v                          |
// | split<T, L, R>(a)         | .left(): a's first L elements, .right(): the R after    |
//
// Evaluated by the compiler when the arguments are constants; at run time each call copies
// its result's elements once.
#ifndef DASH__UTIL__ARRAY_EXPR_H_
#define DASH__UTIL__ARRAY_EXPR_H_

#include <dash/util/FunctionalExpr.h>

#include <array>
#include <cstddef>
#include <utility>

namespace dash {
namespace ce {
namespace detail {

// Elements From + I of a, for I in the sequence.
template <std::size_t From, class T, std::size_t N, std::size_t... I>
constexpr std::array<T, sizeof...(I)> slice(const std::array<T, N>& a, std::index_sequence<I...>) {
  return {{a[From + I]...}};
}

}  // namespace detail

template <class T, std::size_t N, std::size_t M>
constexpr std::array<T, N + M> append(const std::array<T, N>& a, const std::array<T, M>& b) {
  std::array<T, N + M> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = a[i];
  for (std::size_t i = 0; i < M; ++i) out[N + i] = b[i];
  return out;
}

template <class T, std::size_t N>
constexpr std::array<T, N + 1> append(const std::array<T, N>& a, const T& value) {
  std::array<T, N + 1> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = a[i];
  out[N] = value;
  return out;
}

template <std::size_t K, class T, std::size_t N>
constexpr std::array<T, K> take(const std::array<T, N>& a) {
  static_assert(K <= N, "dash::ce::take<K>: K is larger than the array");
  return detail::slice<0>(a, std::make_index_sequence<K>{});
}

template <std::size_t K, class T, std::size_t N>
constexpr std::array<T, N - K> drop(const std::array<T, N>& a) {
  static_assert(K <= N, "dash::ce::drop<K>: K is larger than the array");
  return detail::slice<K>(a, std::make_index_sequence<N - K>{});
}

template <class T, std::size_t N>
constexpr std::array<T, 1> head(const std::array<T, N>& a) {
  return take<1>(a);
}

template <class T, std::size_t N>
constexpr std::array<T, N - 1> tail(const std::array<T, N>& a) {
  return drop<1>(a);
}

template <class T, std::size_t N>
constexpr std::array<T, N> reverse(const std::array<T, N>& a) {
  std::array<T, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = a[N - 1 - i];
  return out;
}

template <std::size_t I, class T, std::size_t N>
constexpr std::array<T, N> replace_nth(const T& value, const std::array<T, N>& a) {
  static_assert(I < N, "dash::ce::replace_nth<I>: I is outside the array");
  std::array<T, N> out = a;
  out[I] = value;
  return out;
}

// An array of NLeft + NRight elements cut in two.
template <class T, std::size_t NLeft, std::size_t NRight>
class split {
 public:
  constexpr explicit split(const std::array<T, NLeft + NRight>& a)
      : left_(take<NLeft>(a)), right_(drop<NLeft>(a)) {}
  constexpr const std::array<T, NLeft>& left() const { return left_; }
  constexpr const std::array<T, NRight>& right() const { return right_; }

 private:
  std::array<T, NLeft> left_;
  std::array<T, NRight> right_;
};

}  // namespace ce
}  // namespace dash

#endif  // DASH__UTIL__ARRAY_EXPR_H_
