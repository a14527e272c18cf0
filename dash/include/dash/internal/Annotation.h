// dash::prevent_opt_elimination: keeps the compiler from removing a computation whose result a
// benchmark does not otherwise use (DASH's name, used by its benchmarks). Costs no instruction:
// an empty asm statement that claims to read and change the value in a register.
#ifndef DASH__INTERNAL__ANNOTATION_H_
#define DASH__INTERNAL__ANNOTATION_H_

#include <type_traits>

namespace dash {

// A compiler barrier: memory is treated as read and written here. Local, free.
inline void prevent_opt_elimination() { asm volatile("" ::: "memory"); }

// Treats `value` as read and changed here, so that the code computing it stays: in a register
// for scalars (pointers, integers), in memory for other types (iterators, structs). Local,
// free.
template <class T>
void prevent_opt_elimination(T&& value) {
  using V = std::remove_reference_t<T>;
  if constexpr (std::is_scalar_v<V> && !std::is_const_v<V>)
    asm volatile("" : "+r"(value));
  else if constexpr (std::is_scalar_v<V>)
    asm volatile("" : : "r"(value) : "memory");
  else
    asm volatile("" : : "g"(&value) : "memory");
}

}  // namespace dash

#endif  // DASH__INTERNAL__ANNOTATION_H_
