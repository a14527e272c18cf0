// What kind of range a type is, for the view functions: a global view (a dash::GlobView or a
// view made of one), a local view (a dash::LocalView or made of one), a container (the origin
// of global views: view() and a member `local`), a container's local part (view() gives a
// local view: LocalArrayRef, LocalMatrixRef), and how a composed view keeps the range it was
// made from (DomainStore). All compile-time.
#ifndef DASH__VIEW__INTERNAL__VIEW_KINDS_H_
#define DASH__VIEW__INTERNAL__VIEW_KINDS_H_

#include <dash/view/GlobView.h>
#include <dash/view/LocalView.h>

#include <type_traits>
#include <utility>

namespace dash {
namespace internal {

// The GlobView / LocalView a view type derives from (declared only: for decltype).
template <class T, class P>
GlobView<T, P> glob_view_base(const GlobView<T, P>*);
template <class T, class P>
LocalView<T, P> local_view_base(const LocalView<T, P>*);

template <class V, class = void>
struct glob_view_base_of {};
template <class V>
struct glob_view_base_of<V, std::void_t<decltype(glob_view_base(std::declval<const V*>()))>> {
  using type = decltype(glob_view_base(std::declval<const V*>()));
};
template <class V, class = void>
struct local_view_base_of {};
template <class V>
struct local_view_base_of<V, std::void_t<decltype(local_view_base(std::declval<const V*>()))>> {
  using type = decltype(local_view_base(std::declval<const V*>()));
};

template <class V, class = void>
struct is_glob_view : std::false_type {};
template <class V>
struct is_glob_view<V, std::void_t<typename glob_view_base_of<V>::type>> : std::true_type {};
template <class V, class = void>
struct is_local_view : std::false_type {};
template <class V>
struct is_local_view<V, std::void_t<typename local_view_base_of<V>::type>> : std::true_type {};

// A global or local view, of any composition.
template <class V>
inline constexpr bool is_glob_view_v = is_glob_view<std::remove_cv_t<V>>::value;
template <class V>
inline constexpr bool is_local_view_v = is_local_view<std::remove_cv_t<V>>::value;
template <class V>
inline constexpr bool is_view_v = is_glob_view_v<V> || is_local_view_v<V>;

// A container: x.view() and x.local.
template <class C, class = void>
struct is_container : std::false_type {};
template <class C>
struct is_container<
    C, std::void_t<decltype(std::declval<C&>().view()), decltype(std::declval<C&>().local)>>
    : std::true_type {};
template <class C>
inline constexpr bool is_container_v = is_container<std::remove_cv_t<C>>::value;

// A range with a member `local` (its local part): containers, dash::UnorderedMap.
template <class C, class = void>
struct has_local_member : std::false_type {};
template <class C>
struct has_local_member<C, std::void_t<decltype(std::declval<C&>().local)>> : std::true_type {};
template <class C>
inline constexpr bool has_local_member_v = has_local_member<std::remove_cv_t<C>>::value;

// A container's local part: x.view() is a local view, x is no view itself.
template <class C, class = void>
struct is_local_part : std::false_type {};
template <class C>
struct is_local_part<C, std::void_t<decltype(std::declval<const C&>().view())>>
    : std::bool_constant<is_local_view_v<decltype(std::declval<const C&>().view())> &&
                         !is_view_v<C>> {};
template <class C>
inline constexpr bool is_local_part_v = is_local_part<std::remove_cv_t<C>>::value;

// The domain type a view keeps of an argument of type X: a container as it is (a const one
// stays const: the view then reads it only), anything else without const (kept by value).
template <class X>
using domain_t =
    std::conditional_t<is_container_v<std::remove_reference_t<X>>, std::remove_reference_t<X>,
                       std::remove_cv_t<std::remove_reference_t<X>>>;

// How a composed view keeps its domain: a container by address (containers are not copied;
// the container must outlive the view), anything else (views, local parts, block ranges) by
// value, so views made of temporaries stay valid.
template <class D, bool ByAddress = is_container_v<D>>
class DomainStore {
 public:
  explicit DomainStore(const D& domain) : value_(domain) {}
  const D& get() const { return value_; }

 private:
  D value_;
};
template <class D>
class DomainStore<D, true> {
 public:
  explicit DomainStore(D& domain) : ptr_(&domain) {}
  D& get() const { return *ptr_; }

 private:
  D* ptr_;
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__VIEW__INTERNAL__VIEW_KINDS_H_
