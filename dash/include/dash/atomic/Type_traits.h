// Traits of dash::Atomic (DASH's dash/atomic/Type_traits.h), usable without the rest of
// dash/Atomic.h: is_atomic<T> (true for dash::Atomic<V>) and remove_atomic<T> (V for
// dash::Atomic<V>, else T). Compile time only.
#ifndef DASH__ATOMIC__TYPE_TRAITS_H_
#define DASH__ATOMIC__TYPE_TRAITS_H_

#include <type_traits>

namespace dash {

template <class T>
class Atomic;

// True if T is a dash::Atomic<V>.
template <class T>
struct is_atomic : std::false_type {};
template <class V>
struct is_atomic<Atomic<V>> : std::true_type {};
template <class T>
inline constexpr bool is_atomic_v = is_atomic<T>::value;

// V for dash::Atomic<V>, T for any other T.
template <class T>
struct remove_atomic {
  using type = T;
};
template <class V>
struct remove_atomic<Atomic<V>> {
  using type = V;
};
template <class T>
using remove_atomic_t = typename remove_atomic<T>::type;

}  // namespace dash

#endif  // DASH__ATOMIC__TYPE_TRAITS_H_
