// dash::GlobAsyncRef<T>: a reference to one element in global memory whose
// writes and reads do not wait for the target (DASH's asynchronous
// reference, what array.async[i] gives). A write returns once its value is
// copied out (the argument may change right after), a get(T*) starts a read
// into the given place; both are complete at the target / in place after
// flush() (of the reference, or of the container: array.async.flush()).
// Elements reachable by load/store (same node) are read and written at once.
//
// | call                   | cost                                              |
// |------------------------|---------------------------------------------------|
// | set(v), = v            | load/store, or a one-sided put completed locally  |
// | get()                  | load/store, or one blocking get                   |
// | get(T*), get(T&)       | load/store, or a one-sided get started            |
// | flush()                | completes this unit's puts and gets to the owner  |
#ifndef DASH__MEMORY__GLOB_ASYNC_REF_H_
#define DASH__MEMORY__GLOB_ASYNC_REF_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/memory/GlobRef.h>

#include <type_traits>

namespace dash {

template <class T>
class GlobAsyncRef {
 public:
  using value_type = std::remove_const_t<T>;

  // The asynchronous form of a reference (of one to mutable T too, for a
  // const T). Local.
  GlobAsyncRef(const GlobRef<T>& ref) : ref_(ref) {}
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  GlobAsyncRef(const GlobRef<U>& ref) : ref_(ref) {}
  explicit GlobAsyncRef(dart_gptr_t gptr) : ref_(gptr) {}
  // An asynchronous reference to const from one to mutable; and back, only
  // when asked for by name. Local.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  GlobAsyncRef(const GlobAsyncRef<U>& other) : ref_(other.sync()) {}
  template <class U, class = std::enable_if_t<std::is_same_v<U, const T> && !std::is_const_v<T>>,
            class = void>
  explicit GlobAsyncRef(const GlobAsyncRef<U>& other) : ref_(GlobRef<T>(other.sync())) {}

  // Starts writing v; returns once v is copied out. Complete at the target
  // after flush(). One-sided.
  void set(const value_type& v) const {
    static_assert(!std::is_const_v<T>, "dash::GlobAsyncRef: cannot write through a const T");
    if (ref_.shared_addr()) {
      ref_.put(v);
      return;
    }
    dart_handle_t h = DART_HANDLE_NULL;
    internal::check_dart(dart_put_handle(ref_.dart_gptr(), &v, sizeof(value_type), DART_TYPE_BYTE,
                                         DART_TYPE_BYTE, &h),
                         "dash::GlobAsyncRef::set");
    internal::check_dart(dart_wait_local(&h), "dash::GlobAsyncRef::set");
  }
  const GlobAsyncRef& operator=(const value_type& v) const {
    set(v);
    return *this;
  }
  // Reads the element, waiting for it. One-sided.
  value_type get() const { return ref_.get(); }
  // Starts reading the element into *out; *out holds it after flush().
  // One-sided.
  void get(value_type* out) const {
    if (ref_.shared_addr()) {
      *out = ref_.get();
      return;
    }
    internal::check_dart(
        dart_get(out, ref_.dart_gptr(), sizeof(value_type), DART_TYPE_BYTE, DART_TYPE_BYTE),
        "dash::GlobAsyncRef::get");
  }
  void get(value_type& out) const { get(&out); }
  // Completes the calling unit's writes and reads to the element's owner.
  // Local.
  void flush() const {
    internal::check_dart(dart_flush(ref_.dart_gptr()), "dash::GlobAsyncRef::flush");
  }

  // True if the calling unit owns the element. Local.
  bool is_local() const { return ref_.is_local(); }
  dart_gptr_t dart_gptr() const { return ref_.dart_gptr(); }
  // The blocking reference to the same element. Local.
  const GlobRef<T>& sync() const { return ref_; }
  explicit operator GlobRef<T>() const { return ref_; }
  // Asynchronous reference to member `field` of the struct element. Local.
  template <class M, class C>
  GlobAsyncRef<std::conditional_t<std::is_const_v<T>, const M, M>> member(M C::*field) const {
    return GlobAsyncRef<std::conditional_t<std::is_const_v<T>, const M, M>>(ref_.member(field));
  }

 private:
  GlobRef<T> ref_;
};

}  // namespace dash

#endif  // DASH__MEMORY__GLOB_ASYNC_REF_H_
