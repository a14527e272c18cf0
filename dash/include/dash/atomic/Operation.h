// DASH's free functions on references to dash::Atomic elements (namespace dash::atomic), the
// same operations as the reference's members:
//
//   dash::Array<dash::Atomic<int>> hits(n);
//   dash::atomic::add(hits[i], 1);            // hits[i].add(1)
//   int h = dash::atomic::load(hits[i]);      // hits[i].load()
//
// Each costs what its member costs (see dash/Atomic.h): one-sided; the fetching ones and load,
// store, exchange block until done, add, sub, multiply, op return once done at the target.
// The value's type is taken from the reference (an int literal updates an Atomic<long>).
#ifndef DASH__ATOMIC__OPERATION_H_
#define DASH__ATOMIC__OPERATION_H_

#include <dash/Atomic.h>
#include <dash/internal/Given.h>

#include <type_traits>

namespace dash {
namespace atomic {

// The element's value.
template <class T>
T load(const GlobRef<Atomic<T>>& ref) {
  return ref.load();
}
// Sets the element to value.
template <class T>
void store(const GlobRef<Atomic<T>>& ref, const dash::internal::given_t<T>& value) {
  ref.store(value);
}
// Sets the element to value; returns the previous value.
template <class T>
T exchange(const GlobRef<Atomic<T>>& ref, const dash::internal::given_t<T>& value) {
  return ref.exchange(value);
}
// If the element equals expected, sets it to desired; true if it did (integer T).
template <class T>
bool compare_exchange(const GlobRef<Atomic<T>>& ref, const dash::internal::given_t<T>& expected,
                      const dash::internal::given_t<T>& desired) {
  return ref.compare_exchange(expected, desired);
}
// element = op(element, value) for a dash operation with a DART op (dash::plus, ...).
template <class T, class BinaryOp>
void op(const GlobRef<Atomic<T>>& ref, BinaryOp binary_op,
        const dash::internal::given_t<T>& value) {
  ref.op(binary_op, value);
}
// The same, returning the previous value.
template <class T, class BinaryOp>
T fetch_op(const GlobRef<Atomic<T>>& ref, BinaryOp binary_op,
           const dash::internal::given_t<T>& value) {
  return ref.fetch_op(binary_op, value);
}
// element += value / -= value / *= value.
template <class T>
void add(const GlobRef<Atomic<T>>& ref, const dash::internal::given_t<T>& value) {
  ref.add(value);
}
template <class T>
void sub(const GlobRef<Atomic<T>>& ref, const dash::internal::given_t<T>& value) {
  ref.sub(value);
}
template <class T>
void multiply(const GlobRef<Atomic<T>>& ref, const dash::internal::given_t<T>& value) {
  ref.multiply(value);
}
// element += value / -= value, returning the previous value.
template <class T>
T fetch_add(const GlobRef<Atomic<T>>& ref, const dash::internal::given_t<T>& value) {
  return ref.fetch_add(value);
}
template <class T>
T fetch_sub(const GlobRef<Atomic<T>>& ref, const dash::internal::given_t<T>& value) {
  return ref.fetch_sub(value);
}

}  // namespace atomic
}  // namespace dash

#endif  // DASH__ATOMIC__OPERATION_H_
