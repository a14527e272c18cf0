// internal::narrowed: a view's rectangle narrowed in one dimension, the step behind sub(),
// row(), col(), rows() and cols() of the global and the local views.
#ifndef DASH__VIEW__INTERNAL__NARROWED_H_
#define DASH__VIEW__INTERNAL__NARROWED_H_

#include <dash/Exception.h>
#include <dash/pattern/SizeSpec.h>

#include <string>

namespace dash {
namespace internal {

// Throws dash::exception::OutOfRange for [offset, end) outside extent in dimension d (kept out
// of line, so that the checks it ends stay small enough to inline).
template <class I>
[[noreturn, gnu::cold, gnu::noinline]] void throw_outside_view(const char* call, I offset, I end,
                                                               int d, std::size_t extent) {
  throw exception::OutOfRange(std::string(call) + ": [" + std::to_string(offset) + ", " +
                              std::to_string(end) + ") in dimension " + std::to_string(d) +
                              " is outside the view's extent " + std::to_string(extent));
}

// `rect` narrowed in dimension D to [offset, offset + extent) relative to it. Throws
// dash::exception::OutOfRange, its message starting with `call`, if that leaves `rect`.
// Local, O(N).
template <dim_t D, dim_t N, class I, class S>
inline ViewSpec<N, I> narrowed(const ViewSpec<N, I>& rect, I offset, S extent, const char* call) {
  static_assert(D >= 0 && D < N, "dash view sub: dimension out of range");
  if (offset < 0 || S(offset) + extent > rect.extent(D))
    throw_outside_view(call, offset, offset + I(extent), int(D), std::size_t(rect.extent(D)));
  auto off = rect.offsets();
  auto ext = rect.extents();
  off[D] += offset;
  ext[D] = extent;
  return ViewSpec<N, I>(off, ext);
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__VIEW__INTERNAL__NARROWED_H_
