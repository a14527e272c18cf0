// A program that spills a few blocks, prints its spill directory and ends by SIGTERM (no
// argument), by SIGKILL ("kill"), normally ("exit"), by dart_abort ("abort": what an example's
// abort_run does on an error, MPI_Abort without exit handlers) or by dash::finalize
// ("finalize": it then prints "removed at finalize" if the directory is gone before the
// process exits, else "left" and exits 1): the tests around it (tests/dash/CMakeLists.txt) check
// that the directory is gone after SIGTERM, dart_abort and dash::finalize, and after SIGKILL once
// the next process made its own spill directory in the same place.
#include <dart/dart.h>
#include <dash/Init.h>
#include <dash/ooc/BlockStore.h>
#include <dash/ooc/SpillDirectory.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "term";
  const bool abort = std::strcmp(how, "abort") == 0;
  const bool finalize = std::strcmp(how, "finalize") == 0;
  if (abort && dart_init(&argc, &argv) != DART_OK) return 1;
  if (finalize) dash::init(&argc, &argv);
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
  if (finalize) {
    const std::string dir = dash::ooc::SpillDirectory::instance().path();
    dash::finalize();  // the store is still alive: finalize ends the layer's I/O first
    const bool gone = access(dir.c_str(), F_OK) != 0;
    std::printf("%s\n", gone ? "removed at finalize" : "left");
    return gone ? 0 : 1;
  }
  if (abort) dart_abort(2);
  std::raise(std::strcmp(how, "kill") == 0 ? SIGKILL : SIGTERM);
  return 0;  // not reached
}
