// dash::internal::OwnedDartType: a DART datatype made for one operation and
// destroyed with it (records of a size, strided bytes).
#ifndef DASH__INTERNAL__DART_TYPE_H_
#define DASH__INTERNAL__DART_TYPE_H_

#include <dart/dart.h>
#include <dash/Exception.h>

#include <cstddef>

namespace dash {
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
