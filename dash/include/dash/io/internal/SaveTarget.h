// dash::internal::check_save_target: whether a save may replace or write into a path (defined in
// the library, dash/src/SafeFile.cc; the header-only HDF5 layer calls it too).
#ifndef DASH__IO__INTERNAL__SAVE_TARGET_H_
#define DASH__IO__INTERNAL__SAVE_TARGET_H_

#include <string>

namespace dash {
namespace internal {

// Why path must not be replaced or written into by a save, or "" if it may: it is a new name or a
// regular file the caller owns (not a symlink), and its directory is not writable by every user
// without the sticky bit. Local: two lstat.
std::string check_save_target(const std::string& path);

}  // namespace internal
}  // namespace dash

#endif  // DASH__IO__INTERNAL__SAVE_TARGET_H_
