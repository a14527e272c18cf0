// A histogram of a distributed array's values in an Array of atomic counters, filled by every
// unit from its local values at once.
#include "check.h"

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const long n = long(dash::size()), size = 1000 * n + 7, bins = 11;
  dash::Array<long> values(size);
  dash::Array<dash::Atomic<long>> hist(bins);
  for (auto& h : hist.local) h = 0;
  auto lr = dash::local_range(values.begin(), values.end());
  for (long* p = lr.begin; p != lr.end; ++p)
    *p = (values.pattern().global(long(p - values.lbegin())) * 37) % bins;
  values.barrier();
  for (long* p = lr.begin; p != lr.end; ++p) hist[*p].add(1);
  hist.barrier();
  long total = 0;
  for (long b = 0; b < bins; ++b) {
    long expected = 0;
    for (long g = 0; g < size; ++g) expected += (g * 37) % bins == b;
    CHECK(hist[b].load() == expected);
    total += hist[b].load();
  }
  CHECK(total == size);
  CHECK(dash::reduce(lr.begin, lr.end, 0L) == dash::accumulate(values.begin(), values.end(), 0L));
  hist.barrier();
  report_ok("atomic_histogram");
  dash::finalize();
}
