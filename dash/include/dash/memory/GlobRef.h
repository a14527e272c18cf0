// dash::GlobRef<T>: a reference to one element in global memory. Reading
// converts to T, writing assigns a T. Elements of the calling unit and of
// units on the same node are read and written by load/store through the
// shared window; others by one blocking one-sided get/put each.
#ifndef DASH__MEMORY__GLOB_REF_H_
#define DASH__MEMORY__GLOB_REF_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/internal/MemoryStamp.h>

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

namespace dash {

template <class T>
class GlobRef {
 public:
  using value_type = std::remove_const_t<T>;

  // Reference to the element at gptr; finds out whether it is reachable by
  // load/store. Local.
  explicit GlobRef(dart_gptr_t gptr) : gptr_(gptr) {
    void* addr = nullptr;
    internal::check_dart(dart_gptr_getaddr_shared(gptr, &addr), "dash::GlobRef");
    addr_ = static_cast<T*>(addr);
  }
  // Reference to the element at gptr whose load/store address (or nullptr)
  // the caller already knows; `stamp` tells whether the container memory
  // still exists (see internal/MemoryStamp.h). Local, no runtime call.
  GlobRef(dart_gptr_t gptr, T* shared_addr, internal::MemoryStamp stamp = {})
      : gptr_(gptr), addr_(shared_addr), stamp_(stamp) {}
  GlobRef(const GlobRef&) = default;
  // A reference to const from one to mutable.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  GlobRef(const GlobRef<U>& other)
      : gptr_(other.dart_gptr()), addr_(other.shared_addr()), stamp_(other.stamp()) {}
  // A reference to mutable from one to const, only when asked for by name
  // (DASH's explicit conversion).
  template <class U, class = std::enable_if_t<std::is_same_v<U, const T> && !std::is_const_v<T>>,
            class = void>
  explicit GlobRef(const GlobRef<U>& other)
      : gptr_(other.dart_gptr()),
        addr_(const_cast<T*>(other.shared_addr())),
        stamp_(other.stamp()) {}

  // Reads the element. One-sided get if it is not reachable by load/store.
  // Throws dash::exception::InvalidArgument if the container memory was freed
  // (the runtime rejects a stale pointer on the one-sided path).
  value_type get() const {
    if (addr_) {
      if (!stamp_.live()) internal::throw_stale_handle("dash::GlobRef::get");
      return *addr_;
    }
    value_type v;
    internal::check_dart(
        dart_get_blocking(&v, gptr_, sizeof(value_type), DART_TYPE_BYTE, DART_TYPE_BYTE),
        "dash::GlobRef::get");
    return v;
  }
  void get(value_type* out) const { *out = get(); }
  operator value_type() const { return get(); }

  // Writes the element; returns once the value is at the target.
  // One-sided put if it is not reachable by load/store.
  void put(const value_type& v) const {
    static_assert(!std::is_const_v<T>, "dash::GlobRef: cannot write through a GlobRef<const T>");
    if (addr_) {
      if (!stamp_.live()) internal::throw_stale_handle("dash::GlobRef::put");
      *addr_ = v;
      return;
    }
    internal::check_dart(
        dart_put_blocking(gptr_, &v, sizeof(value_type), DART_TYPE_BYTE, DART_TYPE_BYTE),
        "dash::GlobRef::put");
  }
  // DASH's other spellings of a write and a read. Same costs as put / get.
  void set(const value_type& v) const { put(v); }
  void put(const value_type* v) const { put(*v); }
  void get(value_type& out) const { out = get(); }
  const GlobRef& operator=(const value_type& v) const {
    put(v);
    return *this;
  }
  // Copies the value of another element (a reference never rebinds).
  const GlobRef& operator=(const GlobRef& other) const {
    put(other.get());
    return *this;
  }
  template <class U>
  const GlobRef& operator=(const GlobRef<U>& other) const {
    put(other.get());
    return *this;
  }

  // Read-modify-write, not atomic: get, combine, put.
#define DASH_GLOBREF_COMPOUND(op)                     \
  template <class V>                                  \
  const GlobRef& operator op##=(const V& rhs) const { \
    value_type v = get();                             \
    v op## = rhs;                                     \
    put(v);                                           \
    return *this;                                     \
  }
  DASH_GLOBREF_COMPOUND(+)
  DASH_GLOBREF_COMPOUND(-)
  DASH_GLOBREF_COMPOUND(*)
  DASH_GLOBREF_COMPOUND(/)
  DASH_GLOBREF_COMPOUND(%)
  DASH_GLOBREF_COMPOUND(&)
  DASH_GLOBREF_COMPOUND(|)
  DASH_GLOBREF_COMPOUND(^)
  DASH_GLOBREF_COMPOUND(<<)
  DASH_GLOBREF_COMPOUND(>>)
#undef DASH_GLOBREF_COMPOUND

  const GlobRef& operator++() const { return *this += 1; }
  const GlobRef& operator--() const { return *this -= 1; }
  value_type operator++(int) const {
    value_type old = get();
    put(old + 1);
    return old;
  }
  value_type operator--(int) const {
    value_type old = get();
    put(old - 1);
    return old;
  }

  // Reference to member `field` of the struct element. Local.
  template <class M, class C>
  GlobRef<std::conditional_t<std::is_const_v<T>, const M, M>> member(M C::*field) const {
    static_assert(std::is_same_v<C, value_type>, "dash::GlobRef::member: not a member of T");
    static_assert(std::is_standard_layout_v<value_type>,
                  "dash::GlobRef::member needs a standard-layout element type");
    alignas(value_type) unsigned char probe[sizeof(value_type)];
    auto* obj = reinterpret_cast<value_type*>(probe);
    std::size_t offset =
        reinterpret_cast<unsigned char*>(&(obj->*field)) - reinterpret_cast<unsigned char*>(obj);
    return member<M>(offset);
  }
  // Reference to the M at byte `offset` inside the element. Local.
  template <class M>
  GlobRef<std::conditional_t<std::is_const_v<T>, const M, M>> member(std::size_t offset) const {
    using R = std::conditional_t<std::is_const_v<T>, const M, M>;
    dart_gptr_t g = gptr_;
    g.addr_or_offs.offset += offset;
    R* a = addr_ ? reinterpret_cast<R*>(
                       reinterpret_cast<std::conditional_t<std::is_const_v<T>, const char*, char*>>(
                           addr_) +
                       offset)
                 : nullptr;
    return GlobRef<R>(g, a, stamp_);
  }

  // True if the calling unit owns the element. Local.
  bool is_local() const {
    void* addr = nullptr;
    return dart_gptr_getaddr(gptr_, &addr) == DART_OK && addr != nullptr;
  }
  dart_gptr_t dart_gptr() const { return gptr_; }
  // Load/store address if the element is reachable that way, else nullptr.
  T* shared_addr() const { return addr_; }
  // Liveness stamp of the container memory. Local.
  internal::MemoryStamp stamp() const { return stamp_; }

  // Exchanges the values of this element and b (not atomic): two gets, two
  // puts.
  void swap(const GlobRef& b) const {
    value_type mine = get();
    put(b.get());
    b.put(mine);
  }
  friend void swap(const GlobRef& a, const GlobRef& b) { a.swap(b); }

 private:
  dart_gptr_t gptr_;
  T* addr_ = nullptr;
  internal::MemoryStamp stamp_;
};

// DASH's comparisons of referenced values: a GlobRef with a value of its element type, or
// two GlobRefs of the same element type (also for class types with their own ==, which the
// conversion to T does not reach). Read each referenced element once.
template <class T, class V, std::enable_if_t<std::is_same_v<std::remove_const_t<T>, V>, int> = 0>
bool operator==(const GlobRef<T>& ref, const V& value) {
  return ref.get() == value;
}
template <class T, class V, std::enable_if_t<std::is_same_v<std::remove_const_t<T>, V>, int> = 0>
bool operator==(const V& value, const GlobRef<T>& ref) {
  return value == ref.get();
}
template <class T, class U,
          std::enable_if_t<std::is_same_v<std::remove_const_t<T>, std::remove_const_t<U>>, int> = 0>
bool operator==(const GlobRef<T>& a, const GlobRef<U>& b) {
  return a.get() == b.get();
}
template <class T, class V, std::enable_if_t<std::is_same_v<std::remove_const_t<T>, V>, int> = 0>
bool operator!=(const GlobRef<T>& ref, const V& value) {
  return !(ref == value);
}
template <class T, class V, std::enable_if_t<std::is_same_v<std::remove_const_t<T>, V>, int> = 0>
bool operator!=(const V& value, const GlobRef<T>& ref) {
  return !(value == ref);
}
template <class T, class U,
          std::enable_if_t<std::is_same_v<std::remove_const_t<T>, std::remove_const_t<U>>, int> = 0>
bool operator!=(const GlobRef<T>& a, const GlobRef<U>& b) {
  return !(a == b);
}

}  // namespace dash

#endif  // DASH__MEMORY__GLOB_REF_H_
