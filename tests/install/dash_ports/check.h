// What every port prints and how it fails: CHECK(condition) names the line and exits 1.
#pragma once
#include <libdash.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "%s:%d: unit %d: check failed: %s\n", __FILE__, __LINE__, \
                   int(dash::myid()), #cond);                                        \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

inline void report_ok(const char* name) {
  std::printf("%s: unit %d ok\n", name, int(dash::myid()));
  std::fflush(stdout);
}
