// The messages of the bounds checks (dash/internal/BoundsCheck.h), out of
// line so that a checked access keeps no string code of its own.
#include <dash/Exception.h>
#include <dash/internal/BoundsCheck.h>

#include <cstdint>
#include <limits>
#include <string>

namespace dash {
namespace internal {

namespace {

// "(e0, e1, ...)".
std::string extents_text(const std::uint64_t* extents, dim_t ndim) {
  std::string text = "(";
  for (dim_t d = 0; d < ndim; ++d) text += (d ? ", " : "") + std::to_string(extents[d]);
  return text + ")";
}

}  // namespace

void throw_index_out_of_range(const char* call, std::int64_t index, std::uint64_t extent) {
  throw exception::OutOfRange(std::string(call) + ": index " + std::to_string(index) +
                              " is outside [0, " + std::to_string(extent) + ")");
}

void throw_unsigned_index_out_of_range(const char* call, std::uint64_t index,
                                       std::uint64_t extent) {
  std::string text = std::to_string(index);
  if (index > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
    text += " (" + std::to_string(static_cast<std::int64_t>(index)) + " as a signed index)";
  throw exception::OutOfRange(std::string(call) + ": index " + text + " is outside [0, " +
                              std::to_string(extent) + ")");
}

void throw_coords_out_of_range(const char* call, const std::int64_t* coords,
                               const std::uint64_t* extents, dim_t ndim) {
  std::string text = "(";
  for (dim_t d = 0; d < ndim; ++d) text += (d ? ", " : "") + std::to_string(coords[d]);
  throw exception::OutOfRange(std::string(call) + ": index " + text + ") is outside extents " +
                              extents_text(extents, ndim));
}

void throw_subscripts_out_of_range(const char* call, const std::int64_t* coords, dim_t given,
                                   const std::uint64_t* extents, dim_t ndim) {
  std::string text;
  for (dim_t d = 0; d < given; ++d) text += "[" + std::to_string(coords[d]) + "]";
  throw exception::OutOfRange(std::string(call) + ": index " + text + " is outside extents " +
                              extents_text(extents, ndim));
}

void throw_coords_outside_box(const char* call, const std::int64_t* coords, const std::int64_t* lo,
                              const std::int64_t* hi, dim_t ndim) {
  std::string text = "(", box;
  for (dim_t d = 0; d < ndim; ++d) {
    text += (d ? ", " : "") + std::to_string(coords[d]);
    box += (d ? " x [" : "[") + std::to_string(lo[d]) + ", " + std::to_string(hi[d]) + ")";
  }
  throw exception::OutOfRange(std::string(call) + ": index " + text + ") is outside " + box);
}

}  // namespace internal
}  // namespace dash
