// hello: every unit says hello from its host, then the units fill a global
// array (one block per unit, DART team memory) and unit 0 reads it back.
// Run: scripts/launch.sh -n 4 build/openmpi/examples/hello   (--help: the usage)
#include <libdash.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

#include "../common/Args.h"
#include "../common/Errors.h"

namespace {

const char* const kProgram = "hello";

const char* const kUsage =
    "usage: hello [--help]\n"
    "Every unit says hello from its host; then the units fill a global array (8 ints\n"
    "per unit) and unit 0 reads it back and checks it. Exit status 1 if a value is\n"
    "wrong, 2 on an error.\n"
    "\n"
    "  --help  print this text\n";

// Says hello and checks a global array; returns the number of wrong values (unit 0), 0
// elsewhere. Collective.
int run() {
  const int me = dash::myid();
  const int units = static_cast<int>(dash::size());

  // Gather "hello" lines at unit 0 so they print in unit order.
  char host[64] = {};
  gethostname(host, sizeof host - 1);
  std::vector<char> hosts(64 * units);
  dash::check_dart(
      dart_gather(host, hosts.data(), 64, DART_TYPE_CHAR, DART_TEAM_UNIT_ID(0), DART_TEAM_ALL),
      "dart_gather");
  if (me == 0) {
    for (int u = 0; u < units; ++u)
      std::printf("hello from unit %d of %d on %s\n", u, units, &hosts[64 * u]);
  }

  // A global array of block_size ints per unit: unit u writes u * 100 + i.
  const std::size_t block_size = 8;
  dart_gptr_t array;
  dash::check_dart(dart_team_memalloc_aligned(DART_TEAM_ALL, block_size, DART_TYPE_INT, &array),
                   "alloc");
  dart_gptr_t mine = array;
  dart_gptr_setunit(&mine, DART_TEAM_UNIT_ID(me));
  int* local = nullptr;
  dart_gptr_getaddr(mine, reinterpret_cast<void**>(&local));
  for (std::size_t i = 0; i < block_size; ++i) local[i] = me * 100 + static_cast<int>(i);
  dash::barrier();

  int errors = 0;
  if (me == 0) {
    std::vector<int> all(block_size * units);
    for (int u = 0; u < units; ++u) {
      dart_gptr_t block = array;
      dart_gptr_setunit(&block, DART_TEAM_UNIT_ID(u));
      dash::check_dart(
          dart_get_blocking(&all[block_size * u], block, block_size, DART_TYPE_INT, DART_TYPE_INT),
          "dart_get_blocking");
    }
    long sum = 0;
    for (int u = 0; u < units; ++u) {
      for (std::size_t i = 0; i < block_size; ++i) {
        int value = all[block_size * u + i];
        errors += value != u * 100 + static_cast<int>(i);
        sum += value;
      }
    }
    std::printf("global array of %zu ints on %d units: sum %ld, %d wrong values\n",
                block_size * units, units, sum, errors);
  }
  dash::barrier();
  dash::check_dart(dart_team_memfree(array), "dart_team_memfree");
  return errors;
}

}  // namespace

int main(int argc, char* argv[]) {
  return examples::run(kProgram, kUsage, &argc, &argv, [] { return run() == 0 ? 0 : 1; });
}
