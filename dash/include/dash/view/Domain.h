// dash::domain(x): the range a view was made from, one level up (DASH's view model: every view
// has a domain, and its origin is the container at the bottom of the chain).
//
//   view made by a view function   its stored domain (a container: the container itself,
//   (ComposedView, BlocksView)     by reference; a view: that view)
//   GlobView made otherwise        the whole container, as a view
//   LocalView made otherwise       the calling unit's whole local part, as a view
//   container                      the whole container, as a view
//   dash::index(view)              dash::index(dash::domain(view))  (<dash/view/IndexSet.h>)
//
// dash::as_view(x): a container or a container's local part as its whole view, a view as
// itself. All local, O(N).
#ifndef DASH__VIEW__DOMAIN_H_
#define DASH__VIEW__DOMAIN_H_

#include <dash/view/BlocksView.h>
#include <dash/view/ComposedView.h>
#include <dash/view/internal/ViewKinds.h>

#include <type_traits>

namespace dash {

// The domain of a view made by a view function: what it was made of. Local.
template <class D, class B>
decltype(auto) domain(const ComposedView<D, B>& view) {
  return view.domain();
}
template <class B, class D>
decltype(auto) domain(const BlocksView<B, D>& blocks) {
  return blocks.domain();
}
// The whole container of a view not made by a view function, as a view. Local.
template <class T, class P>
GlobView<T, P> domain(const GlobView<T, P>& view) {
  return GlobView<T, P>(view.globmem(), &view.pattern(),
                        typename GlobView<T, P>::viewspec_type(view.pattern().sizespec()));
}
// The calling unit's whole local part of a local view not made by a view function. Local.
template <class T, class P>
LocalView<T, P> domain(const LocalView<T, P>& view) {
  return view.local_part();
}
// A container's domain: the whole container, as a view. Local.
template <class C, std::enable_if_t<internal::is_container_v<C>, int> = 0>
auto domain(C& container) -> decltype(container.view()) {
  return container.view();
}

// A container or a container's local part as its whole view; a view (or a range of blocks)
// as a copy of itself. Local.
template <class X,
          std::enable_if_t<internal::is_container_v<X> || internal::is_local_part_v<X>, int> = 0>
auto as_view(X& x) -> decltype(x.view()) {
  return x.view();
}
template <class X, std::enable_if_t<internal::is_view_v<X>, int> = 0>
X as_view(const X& view) {
  return view;
}
template <class B, class D>
BlocksView<B, D> as_view(const BlocksView<B, D>& blocks) {
  return blocks;
}

namespace internal {
// The domain of x as a view (what dash::index(x).domain() indexes). Local.
template <class X>
auto domain_view(const X& x) {
  return dash::as_view(dash::domain(x));
}
}  // namespace internal

}  // namespace dash

#endif  // DASH__VIEW__DOMAIN_H_
