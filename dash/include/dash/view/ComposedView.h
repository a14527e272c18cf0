// dash::ComposedView: what the view functions return (dash::sub, dash::local of a view): a
// GlobView or LocalView (BaseT: its elements, offsets, extents, iteration) that also keeps the
// range it was made from, its domain. Views compose: dash::sub(2, 5, dash::local(dash::sub(
// 0, 9, array))) is a view of a view of a view of `array`, and dash::domain(v) steps back one
// level (for a view of a container: the container itself, by reference).
//
//   domain()          the range this view was made from             local
//   v[i]              element at position i of the view's order     local (global: a GlobRef)
//   size(), size(d)   elements; elements of dimensions d..N-1       local
//   everything else   as BaseT (GlobView or LocalView)
//
// A domain that is a container is kept by address (the container must outlive the view);
// any other domain (a view, a container's local part) is kept by value.
#ifndef DASH__VIEW__COMPOSED_VIEW_H_
#define DASH__VIEW__COMPOSED_VIEW_H_

#include <dash/internal/BoundsCheck.h>
#include <dash/view/internal/ViewKinds.h>

#include <type_traits>

namespace dash {

template <class DomainT, class BaseT>
class ComposedView : public BaseT {
 public:
  using base_type = BaseT;
  using domain_type = DomainT;
  using typename BaseT::index_type;
  using typename BaseT::size_type;
  using rank = std::integral_constant<dim_t, BaseT::ndim()>;

  ComposedView(const BaseT& elements, const internal::DomainStore<DomainT>& domain)
      : BaseT(elements), domain_(domain) {}

  // The range this view was made from (a container: by reference). Local.
  decltype(auto) domain() const { return domain_.get(); }
  // The view's elements without its domain. Local.
  const BaseT& elements() const { return *this; }
  // Element at position pos of the view's iteration order (DASH's view[pos]; also for
  // N-D views, where BaseT's v[i] is a row). Checked against size() under DASH_CHECK_BOUNDS.
  // Local; a global view's element is a GlobRef.
  decltype(auto) operator[](index_type pos) const {
    if constexpr (internal::bounds_checked)
      internal::check_index("dash::ComposedView::operator[]", pos, this->size());
    return *(this->begin() + pos);
  }

 private:
  internal::DomainStore<DomainT> domain_;
};

}  // namespace dash

#endif  // DASH__VIEW__COMPOSED_VIEW_H_
