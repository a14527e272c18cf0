// dart_datatype_of<T> (DASH's name: dash::dart_datatype<T>::value): the DART basic type of a
// C++ type; DASH's dart_punned_datatype and dart_storage; and
// dash::internal::OwnedDartType: a DART datatype made for one operation and
// destroyed with it (records of a size, strided bytes).
#ifndef DASH__INTERNAL__DART_TYPE_H_
#define DASH__INTERNAL__DART_TYPE_H_

#include <dart/dart.h>
#include <dash/Exception.h>

#include <cstddef>
#include <type_traits>

namespace dash {
namespace internal {

// DART basic type of T, or DART_TYPE_UNDEFINED if T has none. Local.
template <class T>
constexpr dart_datatype_t dart_datatype_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, char>)
    return DART_TYPE_CHAR;
  else if constexpr (std::is_same_v<U, short>)
    return DART_TYPE_SHORT;
  else if constexpr (std::is_same_v<U, int>)
    return DART_TYPE_INT;
  else if constexpr (std::is_same_v<U, unsigned int>)
    return DART_TYPE_UINT;
  else if constexpr (std::is_same_v<U, long>)
    return DART_TYPE_LONG;
  else if constexpr (std::is_same_v<U, unsigned long>)
    return DART_TYPE_ULONG;
  else if constexpr (std::is_same_v<U, long long>)
    return DART_TYPE_LONGLONG;
  else if constexpr (std::is_same_v<U, unsigned long long>)
    return DART_TYPE_ULONGLONG;
  else if constexpr (std::is_same_v<U, float>)
    return DART_TYPE_FLOAT;
  else if constexpr (std::is_same_v<U, double>)
    return DART_TYPE_DOUBLE;
  else if constexpr (std::is_same_v<U, long double>)
    return DART_TYPE_LONG_DOUBLE;
  else
    return DART_TYPE_UNDEFINED;
}

}  // namespace internal

// DASH's name: dart_datatype<T>::value is the DART basic type of T (DART_TYPE_UNDEFINED if T has
// none); unsigned char is DART_TYPE_BYTE, as in DASH. Local, compile time.
template <class T>
struct dart_datatype {
  static constexpr dart_datatype_t value = std::is_same_v<std::remove_cv_t<T>, unsigned char>
                                               ? DART_TYPE_BYTE
                                               : internal::dart_datatype_of<T>();
};

namespace internal {
// The DART basic type of T's size: what a T without a type of its own is
// moved as (1, 2, 4, 8 bytes), else DART_TYPE_UNDEFINED.
template <std::size_t Bytes>
constexpr dart_datatype_t dart_type_of_size() {
  if constexpr (Bytes == 1)
    return DART_TYPE_BYTE;
  else if constexpr (Bytes == sizeof(short))
    return DART_TYPE_SHORT;
  else if constexpr (Bytes == sizeof(int))
    return DART_TYPE_INT;
  else if constexpr (Bytes == sizeof(long long))
    return DART_TYPE_LONGLONG;
  else
    return DART_TYPE_UNDEFINED;
}
}  // namespace internal

// DASH's name: dart_punned_datatype<T>::value is T's own DART type, or for a
// type without one the basic type of its size (a 4-byte struct moves as
// DART_TYPE_INT). Local, compile time.
template <class T>
struct dart_punned_datatype {
  static constexpr dart_datatype_t value = dart_datatype<T>::value != DART_TYPE_UNDEFINED
                                               ? dart_datatype<T>::value
                                               : internal::dart_type_of_size<sizeof(T)>();
};

// DASH's name: dart_storage<T>(n) says how n values of T are passed to a DART
// call: as n elements of T's DART type, or as n * sizeof(T) DART_TYPE_BYTEs
// if T has none (members nelem and dtype). Local.
template <class T>
struct dart_storage {
  static constexpr dart_datatype_t dtype =
      dart_datatype<T>::value == DART_TYPE_UNDEFINED ? DART_TYPE_BYTE : dart_datatype<T>::value;
  const std::size_t nelem;
  constexpr explicit dart_storage(std::size_t nvalues) noexcept
      : nelem(dart_datatype<T>::value == DART_TYPE_UNDEFINED ? nvalues * sizeof(T) : nvalues) {}
};

namespace internal {

// Records of `bytes` bytes each.
struct RecordBytes {
  std::size_t bytes;
};
// `block` bytes every `stride` bytes.
struct StridedBytes {
  std::size_t stride, block;
};

class OwnedDartType {
 public:
  // dart_type_create_custom; DART errors thrown (check_dart). Local.
  explicit OwnedDartType(RecordBytes r) {
    check_dart(dart_type_create_custom(r.bytes, &type_), "dart_type_create_custom");
  }
  // dart_type_create_strided of DART_TYPE_BYTE. Local.
  explicit OwnedDartType(StridedBytes s) {
    check_dart(dart_type_create_strided(DART_TYPE_BYTE, s.stride, s.block, &type_),
               "dart_type_create_strided");
  }
  ~OwnedDartType() { dart_type_destroy(&type_); }
  OwnedDartType(const OwnedDartType&) = delete;
  OwnedDartType& operator=(const OwnedDartType&) = delete;
  dart_datatype_t get() const { return type_; }

 private:
  dart_datatype_t type_ = DART_TYPE_UNDEFINED;
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__DART_TYPE_H_
