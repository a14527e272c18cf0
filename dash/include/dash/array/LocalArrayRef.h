// The calling unit's part of a dash::Array as a plain contiguous range of T:
// arr.local.begin()/end() are native pointers, operator[] a native
// reference. Everything here is local and runs at native speed.
#ifndef DASH__ARRAY__LOCAL_ARRAY_REF_H_
#define DASH__ARRAY__LOCAL_ARRAY_REF_H_

#include <dash/internal/BoundsCheck.h>
#include <dash/view/LocalView.h>

#include <cstddef>

namespace dash {

template <class T, class ArrayT>
class LocalArrayRef {
 public:
  using value_type = T;
  using pointer = T*;
  using iterator = T*;
  using const_iterator = const T*;
  using size_type = std::size_t;

  explicit LocalArrayRef(ArrayT* array) : array_(array) {}

  T* begin() const { return array_->lbegin(); }
  T* end() const { return array_->lend(); }
  T* data() const { return array_->lbegin(); }
  size_type size() const { return array_->lsize(); }
  bool empty() const { return size() == 0; }
  // Local element i. Checked only under DASH_CHECK_BOUNDS (then throws
  // dash::exception::OutOfRange if i is not in [0, size())).
  T& operator[](size_type i) const {
    if constexpr (internal::bounds_checked)
      internal::check_index("dash::Array::local.operator[]", i, size());
    return array_->lbegin()[i];
  }
  // Checked always: throws dash::exception::OutOfRange (a std::out_of_range).
  T& at(size_type i) const {
    internal::check_index("dash::Array::local.at", i, size());
    return array_->lbegin()[i];
  }
  // The local part as a view (a dash::LocalView over the local extents), which dash::sub,
  // dash::index and dash::begin/end take: dash::sub(2, 8, dash::local(array)). Local.
  auto view() const {
    using P = typename ArrayT::pattern_type;
    using I = typename P::index_type;
    return LocalView<T, P>(
        array_->lbegin(), &array_->pattern(),
        ViewSpec<P::ndim(), I>(std::array<I, P::ndim()>{}, array_->pattern().local_extents()));
  }
  // Global index of local index i. Local.
  typename ArrayT::index_type global_index(size_type i) const {
    return array_->pattern().global(static_cast<typename ArrayT::index_type>(i));
  }

 private:
  friend ArrayT;
  ArrayT* array_;
};

}  // namespace dash

#endif  // DASH__ARRAY__LOCAL_ARRAY_REF_H_
