// DART's point-to-point calls the way DASH's runtime tests use them: dart_sendrecv around a
// ring of units, dart_gptr_t compared with == and DART_GPTR_EQUAL.
#include <vector>

#include "check.h"

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  dart_global_unit_t me{}, next{}, prev{};
  size_t n = 0;
  CHECK(dart_myid(&me) == DART_OK && dart_size(&n) == DART_OK);
  next.id = int((me.id + 1) % int(n));
  prev.id = int((me.id + int(n) - 1) % int(n));
  std::vector<int> out(16), in(16, -1);
  for (int i = 0; i < 16; ++i) out[i] = me.id * 1000 + i;
  CHECK(dart_sendrecv(out.data(), out.size(), DART_TYPE_INT, 7, next, in.data(), in.size(),
                      DART_TYPE_INT, 7, prev) == DART_OK);
  for (int i = 0; i < 16; ++i) CHECK(in[i] == prev.id * 1000 + i);
  dash::Array<int> a(4 * n);
  dart_gptr_t x = a[1].dart_gptr(), y = a[1].dart_gptr(), z = a[2].dart_gptr();
  CHECK(x == y && x != z && DART_GPTR_EQUAL(x, y));
  a.barrier();
  report_ok("sendrecv_ring");
  dash::finalize();
}
