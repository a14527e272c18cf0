// array.async: a dash::Array's elements as asynchronous references
// (dash::GlobAsyncRef): array.async[i] = v starts a write, array.async.flush()
// completes every write and read the calling unit started on the array.
#ifndef DASH__ARRAY__ASYNC_ARRAY_REF_H_
#define DASH__ARRAY__ASYNC_ARRAY_REF_H_

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

  // Element i, asynchronously. Local.
  reference operator[](index_type i) const { return reference((*array_)[i]); }
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
