// dash::bp::detail::return_freed_memory(): glibc's mmap threshold fixed for
// runs under a memory-block limit (see SpillStore.h).
#include <dash/blocks/SpillStore.h>

#include <atomic>
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
  static std::atomic<int> state{0};  // 0: not yet, 1: fixed, 2: left alone
  int expected = 0;
  if (state.load() == 0 && state.compare_exchange_strong(expected, 2)) {
    if (!threshold_set_by_user() && mallopt(M_MMAP_THRESHOLD, int(kFreedMemoryThreshold)) == 1)
      state = 1;
  }
  return state.load() == 1;
#else
  return false;
#endif
}

}  // namespace detail
}  // namespace bp
}  // namespace dash
