// A shared atomic counter every unit increments, and a shared value the last unit sets.
#include "check.h"

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const int n = int(dash::size());
  dash::Shared<dash::Atomic<int>> counter;
  for (int k = 0; k < 100; ++k) counter.get().fetch_add(1);
  counter.barrier();
  CHECK(counter.get().load() == 100 * n);
  dash::Shared<double> result(dash::team_unit_t(n - 1));
  if (dash::myid() == n - 1) result.set(0.5 * n);
  result.barrier();
  CHECK(double(result.get()) == 0.5 * n);
  result.barrier();
  report_ok("shared_counter");
  dash::finalize();
}
