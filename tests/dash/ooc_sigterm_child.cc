// A program that spills a few blocks, prints its spill directory and ends by SIGTERM (no
// argument), by SIGKILL ("kill"), normally ("exit") or by dart_abort ("abort": what an example's
// abort_run does on an error, MPI_Abort without exit handlers): the tests around it
// (tests/dash/CMakeLists.txt) check that the directory is gone after SIGTERM and dart_abort, and
// after SIGKILL once the next process made its own spill directory in the same place.
#include <dart/dart.h>
#include <dash/ooc/BlockStore.h>
#include <dash/ooc/SpillDirectory.h>

#include <csignal>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "term";
  const bool abort = std::strcmp(how, "abort") == 0;
  if (abort && dart_init(&argc, &argv) != DART_OK) return 1;
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
  if (abort) dart_abort(2);
  std::raise(std::strcmp(how, "kill") == 0 ? SIGKILL : SIGTERM);
  return 0;  // not reached
}
