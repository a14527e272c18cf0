// dash::view_traits<V>: what kind of range V is (DASH's names), all compile-time:
//
// | V                                  | is_view | is_origin | is_local |
// |------------------------------------|---------|-----------|----------|
// | container (Array, Matrix, ...)     | false   | true      | false    |
// | container's local part (c.local)   | false   | true      | true     |
// | global view (GlobView, dash::sub)  | true    | false     | false    |
// | local view (LocalView, dash::local | true    | false     | true     |
// |   of a view)                       |         |           |          |
// | dash::blocks(x)                    | true    | false     | as its blocks |
// | dash::index(x)                     | false   | true      | true for local offsets |
//
// and rank (dimensions), index_type, size_type, value_type, pattern_type, domain_type (what
// dash::domain gives), global_type / local_type (the element views).
#ifndef DASH__VIEW__VIEW_TRAITS_H_
#define DASH__VIEW__VIEW_TRAITS_H_

#include <dash/view/BlocksView.h>
#include <dash/view/ComposedView.h>
#include <dash/view/IndexSet.h>
#include <dash/view/internal/ViewKinds.h>

#include <type_traits>

namespace dash {

namespace internal {
// The traits every view type shares, from its GlobView or LocalView base.
template <class T, class P, bool Local>
struct element_view_traits {
  using is_origin = std::false_type;
  using is_view = std::true_type;
  using is_local = std::bool_constant<Local>;
  using rank = std::integral_constant<dim_t, P::ndim()>;
  using index_type = typename P::index_type;
  using size_type = typename P::size_type;
  using value_type = std::remove_const_t<T>;
  using pattern_type = P;
  using global_type = GlobView<T, P>;
  using local_type = LocalView<T, P>;
};
template <class V>
struct base_traits_of;
template <class T, class P>
struct base_traits_of<GlobView<T, P>> : element_view_traits<T, P, false> {};
template <class T, class P>
struct base_traits_of<LocalView<T, P>> : element_view_traits<T, P, true> {};
}  // namespace internal

template <class V, class = void>
struct view_traits;

template <class T, class P>
struct view_traits<GlobView<T, P>> : internal::element_view_traits<T, P, false> {
  using domain_type = GlobView<T, P>;
};
template <class T, class P>
struct view_traits<LocalView<T, P>> : internal::element_view_traits<T, P, true> {
  using domain_type = LocalView<T, P>;
};
template <class D, class B>
struct view_traits<ComposedView<D, B>> : internal::base_traits_of<B> {
  using domain_type = D;
};
template <class B, class D>
struct view_traits<BlocksView<B, D>> : internal::base_traits_of<B> {
  using domain_type = D;
};
template <class V, internal::IndexKind K>
struct view_traits<IndexSet<V, K>> {
  using is_origin = std::true_type;
  using is_view = std::false_type;
  using is_local = std::bool_constant<K == internal::IndexKind::local>;
  using rank = typename V::rank;
  using index_type = typename V::index_type;
  using size_type = std::size_t;
  using value_type = index_type;
  using domain_type = typename IndexSet<V, K>::domain_type;
};
// A container: the origin of its views.
template <class C>
struct view_traits<C, std::enable_if_t<internal::is_container_v<C>>>
    : view_traits<std::remove_cv_t<decltype(std::declval<C&>().view())>> {
  using is_origin = std::true_type;
  using is_view = std::false_type;
  using is_local = std::false_type;
  using domain_type = C;
};
// A container's local part: the origin of local views.
template <class C>
struct view_traits<C, std::enable_if_t<internal::is_local_part_v<C>>>
    : view_traits<std::remove_cv_t<decltype(std::declval<const C&>().view())>> {
  using is_origin = std::true_type;
  using is_view = std::false_type;
  using is_local = std::true_type;
  using domain_type = C;
};

namespace detail {
// Whether T declares a nested domain_type (DASH's dash::detail::has_type_domain_type).
template <class T, class = void>
struct has_type_domain_type : std::false_type {};
template <class T>
struct has_type_domain_type<T, std::void_t<typename T::domain_type>> : std::true_type {};
}  // namespace detail

}  // namespace dash

#endif  // DASH__VIEW__VIEW_TRAITS_H_
