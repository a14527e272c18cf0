// A program that spills a few blocks, prints its spill directory and ends by SIGTERM (no
// argument), by SIGKILL ("kill") or normally ("exit"): the tests around it
// (tests/dash/CMakeLists.txt) check that the directory is gone after SIGTERM, and after SIGKILL
// once the next process made its own spill directory in the same place.
#include <dash/ooc/BlockStore.h>
#include <dash/ooc/SpillDirectory.h>

#include <csignal>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "term";
  dash::ooc::BlockStore store("sigterm");
  for (std::uint64_t k = 0; k < 8; ++k) {
    dash::bp::Bytes b;
    b.resize(4096 + k);
    store.put(k, std::move(b));
  }
  store.flush();
  std::printf("%s\n", dash::ooc::SpillDirectory::instance().path().c_str());
  std::fflush(stdout);
  if (std::strcmp(how, "exit") == 0) return 0;
  std::raise(std::strcmp(how, "kill") == 0 ? SIGKILL : SIGTERM);
  return 0;  // not reached
}
