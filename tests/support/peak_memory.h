// Peak anonymous resident memory of the calling process while a function runs, for the tests
// that bound what out-of-core code holds (Linux: /proc/self/statm).
#ifndef TESTS__SUPPORT__PEAK_MEMORY_H_
#define TESTS__SUPPORT__PEAK_MEMORY_H_

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

namespace dash_test {

// The calling process's anonymous resident memory in bytes (resident minus file-backed and
// shared pages, /proc/self/statm: MPI's shared-memory segments do not count); -1 if unknown.
// Local.
inline long AnonymousResidentBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  long size = 0, resident = 0, shared = 0;
  const bool read = f != nullptr && std::fscanf(f, "%ld %ld %ld", &size, &resident, &shared) == 3;
  if (f != nullptr) std::fclose(f);
  return read ? (resident - shared) * sysconf(_SC_PAGESIZE) : -1;
}

// The highest AnonymousResidentBytes() while f() runs, sampled every 100 microseconds by a
// thread of its own. Local.
template <class F>
long PeakAnonymousResidentBytes(F&& f) {
  std::atomic<bool> done{false};
  std::atomic<long> peak{AnonymousResidentBytes()};
  std::thread sampler([&] {
    while (!done.load()) {
      const long now = AnonymousResidentBytes();
      peak = std::max(peak.load(), now);
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  });
  f();
  done = true;
  sampler.join();
  return std::max(peak.load(), AnonymousResidentBytes());
}

}  // namespace dash_test

#endif  // TESTS__SUPPORT__PEAK_MEMORY_H_
