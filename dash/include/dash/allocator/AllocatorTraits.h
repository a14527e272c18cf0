// dash::allocator_traits<Alloc>: what a global allocator declares (DASH's
// traits), with defaults for what it leaves out: global pointers are
// dart_gptr_t, local pointers those of its local allocator, sizes
// dash::default_size_t. allocate / deallocate forward to the allocator.
#ifndef DASH__ALLOCATOR__ALLOCATOR_TRAITS_H_
#define DASH__ALLOCATOR__ALLOCATOR_TRAITS_H_

#include <dart/dart.h>
#include <dash/Types.h>

#include <memory>
#include <type_traits>

namespace dash {

namespace internal {

// Alloc::NAME if it has it, else Default.
#define DASH__ALLOCATOR_TRAIT(NAME)                                        \
  template <class Alloc, class Default, class = void>                      \
  struct alloc_##NAME {                                                    \
    using type = Default;                                                  \
  };                                                                       \
  template <class Alloc, class Default>                                    \
  struct alloc_##NAME<Alloc, Default, std::void_t<typename Alloc::NAME>> { \
    using type = typename Alloc::NAME;                                     \
  };
DASH__ALLOCATOR_TRAIT(pointer)
DASH__ALLOCATOR_TRAIT(const_pointer)
DASH__ALLOCATOR_TRAIT(void_pointer)
DASH__ALLOCATOR_TRAIT(const_void_pointer)
DASH__ALLOCATOR_TRAIT(local_pointer)
DASH__ALLOCATOR_TRAIT(const_local_pointer)
DASH__ALLOCATOR_TRAIT(local_void_pointer)
DASH__ALLOCATOR_TRAIT(const_local_void_pointer)
DASH__ALLOCATOR_TRAIT(difference_type)
DASH__ALLOCATOR_TRAIT(size_type)
#undef DASH__ALLOCATOR_TRAIT

}  // namespace internal

template <class Alloc>
struct allocator_traits {
  using allocator_type = Alloc;
  using value_type = typename Alloc::value_type;
  using local_allocator = typename Alloc::local_allocator_type;
  using local_traits = std::allocator_traits<local_allocator>;

  using difference_type = typename internal::alloc_difference_type<Alloc, default_index_t>::type;
  using size_type = typename internal::alloc_size_type<Alloc, default_size_t>::type;
  using pointer = typename internal::alloc_pointer<Alloc, dart_gptr_t>::type;
  using const_pointer = typename internal::alloc_const_pointer<Alloc, const dart_gptr_t>::type;
  using void_pointer = typename internal::alloc_void_pointer<Alloc, dart_gptr_t>::type;
  using const_void_pointer =
      typename internal::alloc_const_void_pointer<Alloc, const dart_gptr_t>::type;
  using local_pointer =
      typename internal::alloc_local_pointer<Alloc, typename local_traits::pointer>::type;
  using const_local_pointer =
      typename internal::alloc_const_local_pointer<Alloc,
                                                   typename local_traits::const_pointer>::type;
  using local_void_pointer =
      typename internal::alloc_local_void_pointer<Alloc, typename local_traits::void_pointer>::type;
  using const_local_void_pointer = typename internal::alloc_const_local_void_pointer<
      Alloc, typename local_traits::const_void_pointer>::type;

  template <class U>
  using rebind_alloc = typename Alloc::template rebind<U>;
  template <class U>
  using rebind_traits = allocator_traits<rebind_alloc<U>>;

  // a.allocate(n): costs what the allocator's allocate costs.
  static pointer allocate(allocator_type& a, size_type n) { return a.allocate(n); }
  // a.deallocate(p, n).
  static void deallocate(allocator_type& a, pointer p, size_type n) { a.deallocate(p, n); }
};

}  // namespace dash

#endif  // DASH__ALLOCATOR__ALLOCATOR_TRAITS_H_
