// C++ consumer of an installed dash: prints "consumer_cxx: unit <i> of <n>" on every unit.
#include <dart/dart.h>

#include <cstdio>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (dart_init(&argc, &argv) != DART_OK) {
    std::cerr << "consumer_cxx: dart_init failed\n";
    return 1;
  }
  dart_global_unit_t myid;
  size_t nunits = 0;
  if (dart_myid(&myid) != DART_OK || dart_size(&nunits) != DART_OK) {
    std::cerr << "consumer_cxx: dart_myid/dart_size failed\n";
    dart_exit();
    return 1;
  }
  // One write per line, so lines of different units do not interleave.
  std::string line =
      "consumer_cxx: unit " + std::to_string(myid.id) + " of " + std::to_string(nunits) + "\n";
  std::fputs(line.c_str(), stdout);
  return dart_exit() == DART_OK ? 0 : 1;
}
