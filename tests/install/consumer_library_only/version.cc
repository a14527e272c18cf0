// Consumer of a library-only install: the headers' version macros agree with the linked
// library's dash::version() (checked before dash::init, which it must not need), and an
// array summed over the units is right. Prints "consumer_version: unit <i> of <n>, dash <v>"
// on every unit when both hold.
#include <libdash.h>

#include <cstdio>
#include <cstring>
#include <string>

static_assert(DASH_VERSION ==
                  DASH_VERSION_MAJOR * 10000 + DASH_VERSION_MINOR * 100 + DASH_VERSION_PATCH,
              "DASH_VERSION combines the parts");

int main(int argc, char** argv) {
  const bool same_version = std::strcmp(dash::version(), DASH_VERSION_STRING) == 0;
  dash::init(&argc, &argv);
  const int me = int(dash::myid().id), n = int(dash::size());
  dash::Array<long> a(std::size_t(7 * n + 3));
  dash::fill(a.begin(), a.end(), 2L);
  const long sum = dash::accumulate(a.begin(), a.end(), 0L);
  const bool right = same_version && sum == 2L * (7 * n + 3);
  const std::string line = right ? "consumer_version: unit " + std::to_string(me) + " of " +
                                       std::to_string(n) + ", dash " + dash::version() + "\n"
                                 : "consumer_version: headers " + std::string(DASH_VERSION_STRING) +
                                       ", library " + dash::version() + ", sum " +
                                       std::to_string(sum) + "\n";
  std::fputs(line.c_str(), stdout);
  dash::finalize();
  return right ? 0 : 1;
}
