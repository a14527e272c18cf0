// Asynchronous element references the way DASH programs write them: array.async[i] = v for a
// ring of writes completed by array.async.flush(), reads started with get(&v); GlobRef's
// set/put/get/swap spellings; dash::local_begin of the own part.
#include <vector>

#include "check.h"

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const long n = long(dash::size()), per = 5;
  const long me = long(dash::myid());
  dash::Array<long> a(n * per);
  std::fill(a.lbegin(), a.lend(), -1L);
  a.barrier();
  // Each unit writes me * 10 + k into element k of the next unit's part.
  const long next = (me + 1) % n;
  for (long k = 0; k < per; ++k) a.async[next * per + k] = me * 10 + k;
  a.async.flush();
  a.barrier();
  const long prev = (me + n - 1) % n;
  for (long k = 0; k < per; ++k) CHECK(a.local[k] == prev * 10 + k);
  std::vector<long> got(per, -7);
  for (long k = 0; k < per; ++k) a.async[next * per + k].get(&got[k]);
  a.async.flush();
  for (long k = 0; k < per; ++k) CHECK(got[k] == me * 10 + k);
  a.barrier();
  if (me == 0) {
    auto first = a[0], last = a[n * per - 1];
    long v = 0;
    last.get(v);
    first.swap(last);
    CHECK(long(a[0]) == v);
    const long nine = 99;
    first.put(&nine);
    first.set(long(a[0]) + 1);
    CHECK(long(a[0]) == 100);
  }
  a.barrier();
  long* mine = dash::local_begin(static_cast<dash::GlobPtr<long>>(a.begin()), a.team().myid());
  CHECK(mine == a.lbegin());
  a.barrier();
  report_ok("async_refs");
  dash::finalize();
}
