// One-sided transfers of single values and arrays through global pointers
// (DASH's <dash/Onesided.h>). `gptr` is anything with dart_gptr() (a
// dash::GlobPtr, a global iterator) or a dart_gptr_t; values move as their
// DART type or as bytes (dash::dart_storage). DART errors are thrown as
// dash::exception (check_dart).
//
// | call                                | cost                                     |
// |-------------------------------------|------------------------------------------|
// | put_value(v, gptr), get_value(p, g) | one-sided, blocking                      |
// | put_value_async, get_value_async    | one-sided, started; complete at fence()  |
// | fence(gptr)                         | completes the caller's transfers to the  |
// |                                     | owner of gptr (remotely)                 |
// | fence_local(gptr)                   | the same, locally (buffers reusable)     |
#ifndef DASH__ONESIDED_H_
#define DASH__ONESIDED_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/internal/DartType.h>

#include <cstddef>

namespace dash {

namespace internal {
inline dart_gptr_t dart_gptr_of(const dart_gptr_t& gptr) { return gptr; }
template <class P>
auto dart_gptr_of(const P& ptr) -> decltype(ptr.dart_gptr()) {
  return ptr.dart_gptr();
}

// Starts writing nelem values from src to gptr; src must stay until a fence.
template <class T>
void put(const dart_gptr_t& gptr, const T* src, std::size_t nelem) {
  const dart_storage<T> ds(nelem);
  check_dart(dart_put(gptr, src, ds.nelem, ds.dtype, ds.dtype), "dash::internal::put");
}
// Starts reading nelem values at gptr into dst; dst holds them after a fence.
template <class T>
void get(const dart_gptr_t& gptr, T* dst, std::size_t nelem) {
  const dart_storage<T> ds(nelem);
  check_dart(dart_get(dst, gptr, ds.nelem, ds.dtype, ds.dtype), "dash::internal::get");
}
// Writes nelem values from src to gptr; returns when they are there.
template <class T>
void put_blocking(const dart_gptr_t& gptr, const T* src, std::size_t nelem) {
  const dart_storage<T> ds(nelem);
  check_dart(dart_put_blocking(gptr, src, ds.nelem, ds.dtype, ds.dtype),
             "dash::internal::put_blocking");
}
// Reads nelem values at gptr into dst; returns when dst holds them.
template <class T>
void get_blocking(const dart_gptr_t& gptr, T* dst, std::size_t nelem) {
  const dart_storage<T> ds(nelem);
  check_dart(dart_get_blocking(dst, gptr, ds.nelem, ds.dtype, ds.dtype),
             "dash::internal::get_blocking");
}
}  // namespace internal

// Completes the caller's transfers to the unit gptr points into (at the
// target). Local wait for remote completion.
template <class T = void, class GlobPtrType>
void fence(const GlobPtrType& gptr) {
  internal::check_dart(dart_flush(internal::dart_gptr_of(gptr)), "dash::fence");
}
// Completes the caller's transfers to that unit locally: their buffers may be
// reused. Local.
template <class T = void, class GlobPtrType>
void fence_local(const GlobPtrType& gptr) {
  internal::check_dart(dart_flush_local(internal::dart_gptr_of(gptr)), "dash::fence_local");
}
// Starts writing v to gptr; v must stay unchanged until fence_local(gptr).
// One-sided.
template <class T, class GlobPtrType>
void put_value_async(const T& v, const GlobPtrType& gptr) {
  internal::put(internal::dart_gptr_of(gptr), &v, 1);
}
// Starts reading the value at gptr into *ptr, which holds it after
// fence_local(gptr). One-sided.
template <class T, class GlobPtrType>
void get_value_async(T* ptr, const GlobPtrType& gptr) {
  internal::get(internal::dart_gptr_of(gptr), ptr, 1);
}
// Writes v to gptr; returns when it is there. One-sided, blocking.
template <class T, class GlobPtrType>
void put_value(const T& v, const GlobPtrType& gptr) {
  internal::put_blocking(internal::dart_gptr_of(gptr), &v, 1);
}
// Reads the value at gptr into *ptr; returns when *ptr holds it. One-sided,
// blocking.
template <class T, class GlobPtrType>
void get_value(T* ptr, const GlobPtrType& gptr) {
  internal::get_blocking(internal::dart_gptr_of(gptr), ptr, 1);
}

}  // namespace dash

#endif  // DASH__ONESIDED_H_
