// A program that spills a few blocks, prints its spill directory and ends by SIGTERM: the
// test around it (tests/dash/CMakeLists.txt) checks that the directory is gone.
#include <dash/ooc/BlockStore.h>
#include <dash/ooc/SpillDirectory.h>

#include <csignal>
#include <cstdio>

int main() {
  dash::ooc::BlockStore store("sigterm");
  for (std::uint64_t k = 0; k < 8; ++k) {
    dash::bp::Bytes b;
    b.resize(4096 + k);
    store.put(k, std::move(b));
  }
  store.flush();
  std::printf("%s\n", dash::ooc::SpillDirectory::instance().path().c_str());
  std::fflush(stdout);
  std::raise(SIGTERM);
  return 0;  // not reached
}
