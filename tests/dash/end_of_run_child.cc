// How a program ends when it goes wrong (dash/src/EndOfRun.cc), one mode per run:
//   throw-one    unit 1 throws InvalidArgument out of main while unit 0 waits in a barrier
//   no-finalize  every unit returns from main without dash::finalize
//   before-init  a dash::Array made before dash::init
// tests/scripts/end_of_run.sh runs each and checks the lines and the exit code.
#include <libdash.h>

#include <cstring>

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (std::strcmp(mode, "before-init") == 0) {
    dash::Array<int> early(10);
    return 0;
  }
  dash::init(&argc, &argv);
  dash::Array<int> a(10 * dash::size());
  if (std::strcmp(mode, "throw-one") == 0) {
    if (dash::myid().id == 1) throw dash::exception::InvalidArgument("thrown on unit 1");
    a.barrier();  // unit 0 waits here for a unit that never comes
  }
  if (std::strcmp(mode, "no-finalize") == 0) return 0;
  dash::finalize();
  return 0;
}
