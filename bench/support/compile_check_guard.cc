// Linked into every benchmark program of a DASH_BENCH_COMPILE_CHECK=ON build (CI's compile
// check: -O0, no debug information): such a program stops before main, since its times would
// measure the unoptimised build. scripts/bench.sh builds them optimised.
#include <cstdio>
#include <cstdlib>

namespace {

struct RefuseToRun {
  RefuseToRun() {
    std::fprintf(stderr,
                 "this benchmark was built for a compile check (DASH_BENCH_COMPILE_CHECK=ON, "
                 "-O0): its times would mean nothing; build and run it with scripts/bench.sh\n");
    std::_Exit(2);
  }
};
const RefuseToRun refuse_to_run;

}  // namespace
