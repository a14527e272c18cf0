// dash::GlobAsyncRef<dash::Atomic<T>>: the asynchronous reference to an atomic element, what
// array.async[i] gives for an Array<Atomic<T>> (DASH's GlobAtomicAsyncRef):
//
//   hist.async[b].add(1);                     // returns at once
//   hist.async[b].fetch_add(1, &before);      // *before holds the old value after the flush
//   hist.async.flush();                       // (or ref.flush()) every update done at its target
//
// Updates without a result (add, sub, multiply, op, set) start one MPI accumulate and return
// once their argument is copied out; they are done at the target after flush(). Operations with
// a result (get(T*), exchange, fetch_add, fetch_sub, fetch_op, compare_exchange) are complete
// when they return here (DART's fetching atomics block), which keeps DASH's contract (the result
// is in place after flush()) and costs one round trip each.
//
// | call                                          | cost                                     |
// |-----------------------------------------------|------------------------------------------|
// | set(v), = v, add, sub, multiply, op(f, v)     | one-sided, returns at once (flush() ends)|
// | get(), get(T*), exchange, fetch_*, compare_…  | one-sided, blocking                      |
// | flush()                                       | completes this unit's operations on the  |
// |                                               | element's owner                          |
#ifndef DASH__ATOMIC__GLOB_ATOMIC_ASYNC_REF_H_
#define DASH__ATOMIC__GLOB_ATOMIC_ASYNC_REF_H_

#include <dart/dart.h>
#include <dash/Atomic.h>
#include <dash/Exception.h>
#include <dash/internal/DartType.h>
#include <dash/memory/GlobAsyncRef.h>

#include <type_traits>

namespace dash {

namespace internal {

// The reads of an asynchronous atomic reference (every form has them).
template <class T>
class AtomicAsyncAccess {
 public:
  using value_type = T;

  // The value. One-sided, blocking.
  T get() const { return sync_ref().load(); }
  T load() const { return get(); }
  // Reads the value into *out (in place at return here). One-sided, blocking.
  void get(T* out) const { *out = get(); }
  void get(T& out) const { out = get(); }
  // Completes the calling unit's operations on the element's owner. Local (waits for them).
  void flush() const { check_dart(dart_flush(gptr_), "dash::GlobAsyncRef<Atomic>::flush"); }
  dart_gptr_t dart_gptr() const { return gptr_; }
  // True if the calling unit owns the element. Local.
  bool is_local() const { return sync_ref().is_local(); }

 protected:
  explicit AtomicAsyncAccess(dart_gptr_t gptr) : gptr_(gptr) {}
  GlobRef<const Atomic<T>> sync_ref() const { return GlobRef<const Atomic<T>>(gptr_); }

  dart_gptr_t gptr_;
};

}  // namespace internal

template <class T>
class GlobAsyncRef<Atomic<T>> : public internal::AtomicAsyncAccess<T> {
  using Base = internal::AtomicAsyncAccess<T>;

 public:
  explicit GlobAsyncRef(dart_gptr_t gptr) : Base(gptr) {}
  // The asynchronous form of a reference (array.async[i]). Local.
  explicit GlobAsyncRef(const GlobRef<Atomic<T>>& ref) : Base(ref.dart_gptr()) {}
  // A writable reference from a read-only one (explicitly, as DASH allows). Local.
  explicit GlobAsyncRef(const GlobAsyncRef<const Atomic<T>>& other) : Base(other.dart_gptr()) {}

  // Starts writing value. One-sided, returns at once.
  void set(T value) const { start(DART_OP_REPLACE, value, "dash::GlobAsyncRef<Atomic>::set"); }
  void store(T value) const { set(value); }
  const GlobAsyncRef& operator=(T value) const {
    set(value);
    return *this;
  }
  // Start element += value / -= value / *= value. One-sided, return at once.
  void add(T value) const { start(DART_OP_SUM, value, "dash::GlobAsyncRef<Atomic>::add"); }
  void sub(T value) const {
    start(DART_OP_SUM, internal::atomic_negate(value), "dash::GlobAsyncRef<Atomic>::sub");
  }
  void multiply(T value) const {
    start(DART_OP_PROD, value, "dash::GlobAsyncRef<Atomic>::multiply");
  }
  // Starts element = f(element, value) for a dash operation with a DART op (dash::plus, ...).
  // One-sided, returns at once.
  template <class BinaryOp>
  void op(BinaryOp, T value) const {
    start(internal::atomic_dart_op<BinaryOp>(), value, "dash::GlobAsyncRef<Atomic>::op");
  }

  // Writes value, the previous value into *result. One-sided, blocking.
  void exchange(T value, T* result) const {
    *result = fetch(DART_OP_REPLACE, value, "dash::GlobAsyncRef<Atomic>::exchange");
  }
  // element += value / -= value, the previous value into *result. One-sided, blocking.
  void fetch_add(T value, T* result) const {
    *result = fetch(DART_OP_SUM, value, "dash::GlobAsyncRef<Atomic>::fetch_add");
  }
  void fetch_sub(T value, T* result) const {
    *result =
        fetch(DART_OP_SUM, internal::atomic_negate(value), "dash::GlobAsyncRef<Atomic>::fetch_sub");
  }
  // element = f(element, value), the previous value into *result. One-sided, blocking.
  template <class BinaryOp>
  void fetch_op(BinaryOp, T value, T* result) const {
    *result =
        fetch(internal::atomic_dart_op<BinaryOp>(), value, "dash::GlobAsyncRef<Atomic>::fetch_op");
  }
  // If the element equals expected, writes desired; the value it held into *result (equal to
  // expected if it was written). Integer T. One-sided, blocking.
  void compare_exchange(T expected, T desired, T* result) const {
    static_assert(std::is_integral_v<T>,
                  "dash::GlobAsyncRef<Atomic<T>>::compare_exchange: T must be an integer type");
    internal::check_dart(dart_compare_and_swap(this->gptr_, &desired, &expected, result,
                                               internal::dart_datatype_of<T>()),
                         "dash::GlobAsyncRef<Atomic>::compare_exchange");
  }

 private:
  // Starts element = element op value; value is copied out at return. One-sided.
  void start(dart_operation_t op, T value, const char* who) const {
    internal::check_dart(
        dart_accumulate_blocking_local(this->gptr_, &value, 1, internal::dart_datatype_of<T>(), op),
        who);
  }
  T fetch(dart_operation_t op, T value, const char* who) const {
    return internal::atomic_fetch(this->gptr_, op, value, who);
  }
};

// Read-only asynchronous references to an atomic element, in both of DASH's spellings.
template <class T>
class GlobAsyncRef<const Atomic<T>> : public internal::AtomicAsyncAccess<T> {
  using Base = internal::AtomicAsyncAccess<T>;

 public:
  explicit GlobAsyncRef(dart_gptr_t gptr) : Base(gptr) {}
  explicit GlobAsyncRef(const GlobRef<const Atomic<T>>& ref) : Base(ref.dart_gptr()) {}
  GlobAsyncRef(const GlobAsyncRef<Atomic<T>>& other) : Base(other.dart_gptr()) {}
};

template <class T>
class GlobAsyncRef<Atomic<const T>> : public internal::AtomicAsyncAccess<T> {
  using Base = internal::AtomicAsyncAccess<T>;

 public:
  explicit GlobAsyncRef(dart_gptr_t gptr) : Base(gptr) {}
  GlobAsyncRef(const GlobAsyncRef<Atomic<T>>& other) : Base(other.dart_gptr()) {}
  GlobAsyncRef(const GlobAsyncRef<const Atomic<T>>& other) : Base(other.dart_gptr()) {}
};

}  // namespace dash

#endif  // DASH__ATOMIC__GLOB_ATOMIC_ASYNC_REF_H_
