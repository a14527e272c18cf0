// dash::Atomic<T>: an element type whose global references update it
// atomically, so counters and histograms stay right across nodes:
//
//   dash::Array<dash::Atomic<long>> hist(bins);
//   hist[b].add(1);                  // or ++hist[b], hist[b].fetch_add(1)
//   hist.barrier();
//   long n = hist[b].load();         // or hist[b].get(), long n = hist[b]
//
// Every operation of GlobRef<Atomic<T>> goes through DART's atomics (MPI
// accumulate / fetch-and-op / compare-and-swap), also for the calling unit's
// own elements: the operations are atomic with respect to each other, not to
// plain loads and stores of the same element (as in DASH). An Atomic<T> in
// local memory (container.local, lbegin()) is a plain T for the owner, e.g.
// to initialise it before a barrier.
//
// | call (on GlobRef<Atomic<T>>)                 | cost                      |
// |----------------------------------------------|---------------------------|
// | load, get, operator T                        | one-sided, blocking       |
// | store, set, operator=, exchange              | one-sided, blocking       |
// | add, sub, multiply, op(f, v)                 | one-sided, until at target|
// | fetch_add, fetch_sub, fetch_op, ++, --, +=   | one-sided, blocking       |
// | compare_exchange(expected, desired)          | one-sided, blocking       |
#ifndef DASH__ATOMIC_H_
#define DASH__ATOMIC_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/algorithm/Operation.h>
#include <dash/internal/DartType.h>
#include <dash/memory/GlobRef.h>

#include <type_traits>

namespace dash {

// A T that global references update atomically (see the top of the file).
template <class T>
class Atomic {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>,
                "dash::Atomic<T>: T must be an arithmetic type (DART atomics)");

 public:
  using value_type = T;
  constexpr Atomic() noexcept = default;
  constexpr Atomic(T value) noexcept : value_(value) {}
  // The value in local memory (not atomic: for the owner's own use). Local.
  constexpr operator T() const noexcept { return value_; }
  Atomic& operator=(T value) noexcept {
    value_ = value;
    return *this;
  }
  constexpr bool operator==(const Atomic& other) const noexcept { return value_ == other.value_; }
  constexpr bool operator!=(const Atomic& other) const noexcept { return value_ != other.value_; }

 private:
  T value_{};
};

namespace internal {

// Element at gptr = element op value; returns the element's previous value. One-sided,
// blocking.
template <class T>
T atomic_fetch(dart_gptr_t gptr, dart_operation_t op, T value, const char* who) {
  T out{};
  check_dart(dart_fetch_and_op(gptr, &value, &out, dart_datatype_of<T>(), op), who);
  return out;
}

// -value, wrapping for unsigned types (adding it subtracts). Local.
template <class T>
T atomic_negate(T value) {
  if constexpr (std::is_unsigned_v<T>)
    return T(T(0) - value);
  else
    return T(-value);
}

// The DART operation of a dash operation functor (dash::plus, multiply, min, max, bit_and,
// bit_or, bit_xor); other functors do not compile. Compile time.
template <class BinaryOp>
constexpr dart_operation_t atomic_dart_op() {
  constexpr dart_operation_t op = dart_operation_of<BinaryOp>::value;
  static_assert(op != DART_OP_UNDEFINED,
                "dash::Atomic: the operation needs a DART op (dash::plus, multiply, min, max, "
                "bit_and, bit_or, bit_xor)");
  return op;
}

// The atomic operations on one element, for GlobRef<Atomic<T>> and
// GlobRef<const Atomic<T>>.
template <class T>
class AtomicAccess {
 public:
  using value_type = T;

  // The value. One-sided, blocking.
  T load() const {
    T out{};
    T none{};
    check_dart(dart_fetch_and_op(gptr_, &none, &out, dart_datatype_of<T>(), DART_OP_NO_OP),
               "dash::GlobRef<Atomic>::load");
    return out;
  }
  T get() const { return load(); }
  operator T() const { return load(); }
  dart_gptr_t dart_gptr() const { return gptr_; }
  // True if the calling unit owns the element. Local.
  bool is_local() const {
    void* addr = nullptr;
    return dart_gptr_getaddr(gptr_, &addr) == DART_OK && addr != nullptr;
  }

 protected:
  explicit AtomicAccess(dart_gptr_t gptr) : gptr_(gptr) {
    static_assert(dart_datatype_of<T>() != DART_TYPE_UNDEFINED,
                  "dash::Atomic<T>: T has no DART type");
  }
  // *result = element; element = element op value. One-sided, blocking.
  T fetch(dart_operation_t op, T value, const char* who) const {
    return atomic_fetch(gptr_, op, value, who);
  }
  // element = element op value, complete at the target. One-sided.
  void apply(dart_operation_t op, T value, const char* who) const {
    check_dart(dart_accumulate(gptr_, &value, 1, dart_datatype_of<T>(), op), who);
    check_dart(dart_flush(gptr_), who);
  }

  dart_gptr_t gptr_;
};

}  // namespace internal

// Reference to a dash::Atomic<T> element in global memory (see the top of
// the file).
template <class T>
class GlobRef<Atomic<T>> : public internal::AtomicAccess<T> {
  using Base = internal::AtomicAccess<T>;

 public:
  explicit GlobRef(dart_gptr_t gptr) : Base(gptr) {}
  // The form containers make references in; the load/store address is not
  // used (every operation is atomic).
  GlobRef(dart_gptr_t gptr, Atomic<T>*, internal::MemoryStamp = {}) : Base(gptr) {}
  // A writable reference from a read-only one (DASH allows it, explicitly). Local.
  explicit GlobRef(const GlobRef<const Atomic<T>>& other) : Base(other.dart_gptr()) {}

  // Writes value. One-sided, blocking.
  void store(T value) const { (void)exchange(value); }
  void set(T value) const { store(value); }
  const GlobRef& operator=(T value) const {
    store(value);
    return *this;
  }
  // Writes value, returns the previous one. One-sided, blocking.
  T exchange(T value) const {
    return this->fetch(DART_OP_REPLACE, value, "dash::GlobRef<Atomic>::exchange");
  }
  // If the element equals expected, writes desired; true if it did.
  // One-sided, blocking. Integer types only (MPI_Compare_and_swap).
  bool compare_exchange(T expected, T desired) const {
    static_assert(std::is_integral_v<T>,
                  "dash::GlobRef<Atomic<T>>::compare_exchange: T must be an integer type");
    T out{};
    internal::check_dart(dart_compare_and_swap(this->gptr_, &desired, &expected, &out,
                                               internal::dart_datatype_of<T>()),
                         "dash::GlobRef<Atomic>::compare_exchange");
    return out == expected;
  }
  // Adds / subtracts value; returns once it is done at the target. One-sided.
  void add(T value) const { this->apply(DART_OP_SUM, value, "dash::GlobRef<Atomic>::add"); }
  void sub(T value) const {
    this->apply(DART_OP_SUM, internal::atomic_negate(value), "dash::GlobRef<Atomic>::sub");
  }
  // The same, returning the previous value. One-sided, blocking.
  T fetch_add(T value) const {
    return this->fetch(DART_OP_SUM, value, "dash::GlobRef<Atomic>::fetch_add");
  }
  T fetch_sub(T value) const {
    return this->fetch(DART_OP_SUM, internal::atomic_negate(value),
                       "dash::GlobRef<Atomic>::fetch_sub");
  }
  // Multiplies the element by value; returns once it is done at the target. One-sided.
  void multiply(T value) const {
    this->apply(DART_OP_PROD, value, "dash::GlobRef<Atomic>::multiply");
  }
  // element = f(element, value) for a dash operation with a DART op
  // (dash::plus, multiply, min, max, bit_and, bit_or, bit_xor). One-sided.
  template <class BinaryOp>
  void op(BinaryOp, T value) const {
    this->apply(internal::atomic_dart_op<BinaryOp>(), value, "dash::GlobRef<Atomic>::op");
  }
  // The same, returning the previous value. One-sided, blocking.
  template <class BinaryOp>
  T fetch_op(BinaryOp, T value) const {
    return this->fetch(internal::atomic_dart_op<BinaryOp>(), value,
                       "dash::GlobRef<Atomic>::fetch_op");
  }
  // ++ref / ref++ / --ref / ref-- / += / -=: the new (prefix, compound) or
  // previous (postfix) value. One-sided, blocking.
  T operator++() const { return fetch_add(T(1)) + T(1); }
  T operator++(int) const { return fetch_add(T(1)); }
  T operator--() const { return fetch_sub(T(1)) - T(1); }
  T operator--(int) const { return fetch_sub(T(1)); }
  T operator+=(T value) const { return fetch_add(value) + value; }
  T operator-=(T value) const { return fetch_sub(value) - value; }
};

// Read-only reference to a dash::Atomic<T> element (const containers).
template <class T>
class GlobRef<const Atomic<T>> : public internal::AtomicAccess<T> {
  using Base = internal::AtomicAccess<T>;

 public:
  explicit GlobRef(dart_gptr_t gptr) : Base(gptr) {}
  GlobRef(dart_gptr_t gptr, const Atomic<T>*, internal::MemoryStamp = {}) : Base(gptr) {}
  GlobRef(const GlobRef<Atomic<T>>& other) : Base(other.dart_gptr()) {}
};

// DASH's other spelling of a read-only reference to a dash::Atomic<T> element: GlobRef of
// Atomic<const T>, made from either reference (the reads of GlobRef<const Atomic<T>>).
template <class T>
class GlobRef<Atomic<const T>> : public internal::AtomicAccess<T> {
  using Base = internal::AtomicAccess<T>;

 public:
  explicit GlobRef(dart_gptr_t gptr) : Base(gptr) {}
  GlobRef(const GlobRef<Atomic<T>>& other) : Base(other.dart_gptr()) {}
  GlobRef(const GlobRef<const Atomic<T>>& other) : Base(other.dart_gptr()) {}
};

}  // namespace dash

// The asynchronous references (array.async[i] of atomics), DASH's traits (is_atomic) and its
// free functions (dash::atomic::add(ref, v), ...).
#include <dash/atomic/GlobAtomicAsyncRef.h>
#include <dash/atomic/Operation.h>
#include <dash/atomic/Type_traits.h>

#endif  // DASH__ATOMIC_H_
