// array.async: a dash::Array's elements as asynchronous references
// (dash::GlobAsyncRef): array.async[i] = v starts a write, array.async.flush()
// completes every write and read the calling unit started on the array.
#ifndef DASH__ARRAY__ASYNC_ARRAY_REF_H_
#define DASH__ARRAY__ASYNC_ARRAY_REF_H_

#include <dash/internal/BoundsCheck.h>
#include <dash/memory/GlobAsyncRef.h>

namespace dash {

template <class T, class ArrayT>
class AsyncArrayRef {
 public:
  using value_type = T;
  using reference = GlobAsyncRef<T>;
  using const_reference = GlobAsyncRef<const T>;
  using index_type = typename ArrayT::index_type;

  explicit AsyncArrayRef(ArrayT* array) : array_(array) {}

  // Element i, asynchronously. Checked only under DASH_CHECK_BOUNDS (then
  // throws dash::exception::OutOfRange if i is not in [0, size())). Local.
  reference operator[](index_type i) const {
    if constexpr (internal::bounds_checked)
      internal::check_index("dash::Array::async.operator[]", i, array_->size());
    return reference(array_->element(i));
  }
  typename ArrayT::size_type size() const { return array_->size(); }
  // Completes the calling unit's asynchronous writes and reads on the array.
  // Local.
  void flush() const { array_->flush(); }
  // DASH's name for the same. Local.
  void push() const { flush(); }

 private:
  ArrayT* array_;
};

}  // namespace dash

#endif  // DASH__ARRAY__ASYNC_ARRAY_REF_H_
