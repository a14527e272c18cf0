// dash::Pair<T1, T2>: a pair that containers can hold (DASH's Pair). std::pair is not trivially
// copyable (its assignment operators are user-provided), so it cannot be a container element;
// dash::Pair has the same members and forms and is trivially copyable whenever T1 and T2 are:
//
//   dash::Array<dash::Pair<int, double>> a(n);
//   a.local[0] = dash::make_pair(dash::myid().id, 0.5);
//   dash::Pair<int, double> p = a[i];            // p.first, p.second
//
// Layout: first, then second, as in a struct { T1 first; T2 second; } (standard layout when
// both are). Order: lexicographic, first then second (operator< needs only T1's and T2's <).
// Every operation is local.
#ifndef DASH__PAIR_H_
#define DASH__PAIR_H_

#include <functional>
#include <ostream>
#include <type_traits>
#include <utility>

namespace dash {

template <class T1, class T2>
struct Pair {
  using first_type = T1;
  using second_type = T2;

  T1 first;
  T2 second;

  // Both members value-initialised.
  constexpr Pair() : first(), second() {}
  // The members from a and b.
  constexpr Pair(const T1& a, const T2& b) : first(a), second(b) {}
  // The members from values convertible to T1 and T2 (moved or copied as given).
  template <
      class U1, class U2,
      class = std::enable_if_t<std::is_convertible_v<U1&&, T1> && std::is_convertible_v<U2&&, T2>>>
  constexpr Pair(U1&& a, U2&& b) : first(std::forward<U1>(a)), second(std::forward<U2>(b)) {}
  // From a pair of other member types convertible to T1 and T2.
  template <class U1, class U2,
            class = std::enable_if_t<std::is_convertible_v<const U1&, T1> &&
                                     std::is_convertible_v<const U2&, T2>>>
  constexpr Pair(const Pair<U1, U2>& other) : first(other.first), second(other.second) {}
  template <
      class U1, class U2,
      class = std::enable_if_t<std::is_convertible_v<U1&&, T1> && std::is_convertible_v<U2&&, T2>>>
  constexpr Pair(Pair<U1, U2>&& other)
      : first(std::forward<U1>(other.first)), second(std::forward<U2>(other.second)) {}
  // From a std::pair, and back.
  template <class U1, class U2,
            class = std::enable_if_t<std::is_convertible_v<const U1&, T1> &&
                                     std::is_convertible_v<const U2&, T2>>>
  constexpr Pair(const std::pair<U1, U2>& other) : first(other.first), second(other.second) {}
  constexpr operator std::pair<T1, T2>() const { return {first, second}; }

  // Copies and moves are the members' own (trivial for trivial members).
  constexpr Pair(const Pair&) = default;
  constexpr Pair(Pair&&) = default;
  Pair& operator=(const Pair&) = default;
  Pair& operator=(Pair&&) = default;
  // Assigns a pair of other member types, member by member.
  template <class U1, class U2>
  Pair& operator=(const Pair<U1, U2>& other) {
    first = other.first;
    second = other.second;
    return *this;
  }
  template <class U1, class U2>
  Pair& operator=(Pair<U1, U2>&& other) {
    first = std::forward<U1>(other.first);
    second = std::forward<U2>(other.second);
    return *this;
  }

  // Exchanges the members with other's.
  void swap(Pair& other) noexcept(
      std::is_nothrow_swappable_v<T1>&& std::is_nothrow_swappable_v<T2>) {
    using std::swap;
    swap(first, other.first);
    swap(second, other.second);
  }

  // Comparisons, as hidden friends: found through argument-dependent lookup also for operands
  // that convert to Pair (a GlobRef<Pair> compares like a Pair). Equal if both members are
  // equal; ordered lexicographically, by first, then (for equivalent firsts) by second.
  friend constexpr bool operator==(const Pair& x, const Pair& y) {
    return x.first == y.first && x.second == y.second;
  }
  friend constexpr bool operator!=(const Pair& x, const Pair& y) { return !(x == y); }
  friend constexpr bool operator<(const Pair& x, const Pair& y) {
    if (x.first < y.first) return true;
    if (y.first < x.first) return false;
    return x.second < y.second;
  }
  friend constexpr bool operator>(const Pair& x, const Pair& y) { return y < x; }
  friend constexpr bool operator<=(const Pair& x, const Pair& y) { return !(y < x); }
  friend constexpr bool operator>=(const Pair& x, const Pair& y) { return !(x < y); }
};

template <class T1, class T2>
void swap(Pair<T1, T2>& x, Pair<T1, T2>& y) noexcept(noexcept(x.swap(y))) {
  x.swap(y);
}

namespace internal {
// The member type make_pair stores for an argument of type T: T decayed, and a
// std::reference_wrapper<U> unwrapped to U& (as std::make_pair does).
template <class T>
struct pair_member {
  using type = std::decay_t<T>;
};
template <class T>
struct pair_member<std::reference_wrapper<T>> {
  using type = T&;
};
template <class T>
using pair_member_t = typename pair_member<std::decay_t<T>>::type;
}  // namespace internal

// The pair of a and b, member types deduced as std::make_pair deduces them.
template <class T1, class T2>
constexpr Pair<internal::pair_member_t<T1>, internal::pair_member_t<T2>> make_pair(T1&& a, T2&& b) {
  return {std::forward<T1>(a), std::forward<T2>(b)};
}

// Prints "(first, second)".
template <class T1, class T2>
std::ostream& operator<<(std::ostream& os, const Pair<T1, T2>& p) {
  return os << '(' << p.first << ", " << p.second << ')';
}

}  // namespace dash

#endif  // DASH__PAIR_H_
