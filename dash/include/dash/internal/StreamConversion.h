// Writing std::array and std::vector to streams as DASH does ("unsigned long { 24 32 }": the
// element type, then the elements), under DASH's header path. In namespace dash, so programs
// that say `using namespace dash` (as DASH's examples do) print arrays of extents and
// coordinates with <<.
#ifndef DASH__INTERNAL__STREAM_CONVERSION_H_
#define DASH__INTERNAL__STREAM_CONVERSION_H_

#include <dash/meta/TypeInfo.h>

#include <array>
#include <cstddef>
#include <ostream>
#include <sstream>
#include <vector>

namespace dash {

namespace internal {

// "<element type> { e0 e1 ... }". Local.
template <class T, class It>
std::ostream& write_elements(std::ostream& os, It first, It last) {
  std::ostringstream ss;
  ss << typestr<T>() << " { ";
  for (; first != last; ++first) ss << *first << " ";
  ss << "}";
  return os << ss.str();
}

}  // namespace internal

// Writes "<element type> { e0 e1 ... }". Local.
template <class T, std::size_t N>
std::ostream& operator<<(std::ostream& os, const std::array<T, N>& a) {
  return internal::write_elements<T>(os, a.begin(), a.end());
}
template <class T, class A>
std::ostream& operator<<(std::ostream& os, const std::vector<T, A>& v) {
  return internal::write_elements<T>(os, v.begin(), v.end());
}

}  // namespace dash

#endif  // DASH__INTERNAL__STREAM_CONVERSION_H_
