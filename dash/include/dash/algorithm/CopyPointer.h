// dash::copy / dash::copy_async between local ranges and global pointers
// (DASH's forms with a dash::GlobPtr end: copy_async(first, last, gptr)).
// A pointer that knows its memory space (from a container's iterator) covers
// the unit parts in team order, so a range past the end of one unit's part
// goes on in the next unit's (one transfer per unit part); a pointer made from
// a dart_gptr_t alone is one contiguous range of its unit's part. Every
// transfer starts before any is waited for.
#ifndef DASH__ALGORITHM__COPY_POINTER_H_
#define DASH__ALGORITHM__COPY_POINTER_H_

#include <dash/Exception.h>
#include <dash/Future.h>
#include <dash/algorithm/internal/Transfers.h>
#include <dash/memory/GlobPtr.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace dash {

namespace internal {

// Starts the transfers between the n elements from p on and buf[0, n):
// Get = global to local. Appends their handles.
template <bool Get, class T, class Buf, class Handles>
void start_pointer_transfers(GlobPtr<T> p, std::size_t n, Buf* buf, Handles& handles) {
  using I = typename GlobPtr<T>::difference_type;
  const std::size_t elem = sizeof(std::remove_const_t<T>);
  std::size_t done = 0;
  while (done < n) {
    std::size_t run = n - done;
    if (p.unit_capacity() > 0 && p.unit().id < p.units() - 1) {
      const I in_unit = static_cast<I>(dart_gptr_offset(p.dart_gptr()) / elem);
      run = std::min<std::size_t>(run, std::size_t(p.unit_capacity() - in_unit));
    }
    start_transfer<Get>(buf + done, p.dart_gptr(), run * elem, TransferLayout{}, handles);
    done += run;
    p += static_cast<I>(run);
  }
}

template <class T>
std::size_t checked_local_range(const T* first, const T* last, const char* who) {
  if (last < first)
    throw exception::InvalidArgument(std::string(who) + ": the local range ends before it begins");
  return std::size_t(last - first);
}

}  // namespace internal

// Starts copying local [in_first, in_last) to the global memory from out on;
// the future yields out + (in_last - in_first) once the data is at its
// targets. One-sided, returns at once.
template <class T>
Future<GlobPtr<T>> copy_async(const T* in_first, const T* in_last, GlobPtr<T> out) {
  const std::size_t n = internal::checked_local_range(in_first, in_last, "dash::copy_async");
  return internal::async_transfers<GlobPtr<T>>([&](auto& handles) {
    internal::start_pointer_transfers<false>(out, n, in_first, handles);
    return out + static_cast<typename GlobPtr<T>::difference_type>(n);
  });
}

// Copies local [in_first, in_last) to the global memory from out on; returns
// the pointer past the last element written, once the data is there.
// One-sided, blocking.
template <class T>
GlobPtr<T> copy(const T* in_first, const T* in_last, GlobPtr<T> out) {
  const std::size_t n = internal::checked_local_range(in_first, in_last, "dash::copy");
  internal::HandleBuffer handles;
  internal::start_pointer_transfers<false>(out, n, in_first, handles);
  handles.wait("dash::copy");
  return out + static_cast<typename GlobPtr<T>::difference_type>(n);
}

// Starts copying the global elements [first, last) to out; the future yields
// out + (last - first). One-sided, returns at once. Both pointers must point
// into one allocation (last - first elements apart).
template <class T>
Future<std::remove_const_t<T>*> copy_async(GlobPtr<T> first, GlobPtr<T> last,
                                           std::remove_const_t<T>* out) {
  if (last - first < 0)
    throw exception::InvalidArgument("dash::copy_async: the global range ends before it begins");
  const std::size_t n = std::size_t(last - first);
  return internal::async_transfers<std::remove_const_t<T>*>([&](auto& handles) {
    internal::start_pointer_transfers<true>(first, n, out, handles);
    return out + n;
  });
}

// Copies the global elements [first, last) to out; returns out + (last -
// first). One-sided, blocking.
template <class T>
std::remove_const_t<T>* copy(GlobPtr<T> first, GlobPtr<T> last, std::remove_const_t<T>* out) {
  if (last - first < 0)
    throw exception::InvalidArgument("dash::copy: the global range ends before it begins");
  const std::size_t n = std::size_t(last - first);
  internal::HandleBuffer handles;
  internal::start_pointer_transfers<true>(first, n, out, handles);
  handles.wait("dash::copy");
  return out + n;
}

namespace internal {
// DASH's rule for the element types a copy moves between: the same type
// (const aside), or integers of the same size (signed and unsigned). Compile
// time.
template <class From, class To>
struct is_dash_copyable
    : std::bool_constant<std::is_same_v<std::remove_cv_t<From>, std::remove_cv_t<To>> ||
                         (std::is_integral_v<From> && std::is_integral_v<To> &&
                          sizeof(From) == sizeof(To))> {};
}  // namespace internal

}  // namespace dash

#endif  // DASH__ALGORITHM__COPY_POINTER_H_
