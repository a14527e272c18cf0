// dash::bp::detail::return_freed_memory(): glibc's mmap threshold fixed for
// runs under a memory-block limit (see SpillStore.h).
#include <dash/bp/SpillStore.h>

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace dash {
namespace bp {
namespace detail {

namespace {

// Whether the environment already sets glibc's mmap threshold.
bool threshold_set_by_user() {
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") != nullptr) return true;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables != nullptr && std::strstr(tunables, "mmap_threshold") != nullptr;
}

}  // namespace

bool return_freed_memory() {
#if defined(__GLIBC__)
  // Once per process (thread-safe static initialisation).
  static const bool fixed =
      !threshold_set_by_user() && mallopt(M_MMAP_THRESHOLD, int(kFreedMemoryThreshold)) == 1;
  return fixed;
#else
  return false;
#endif
}

}  // namespace detail
}  // namespace bp
}  // namespace dash
