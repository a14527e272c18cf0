// Sorting by a key and the min/max reductions the way DASH programs write them: dash::sort
// with a key function, dash::min_element / max_element over the local range, DART_OP_MINMAX
// over the units' local (min, max) pairs, dash::reduce of every unit's local range.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <vector>

#include "check.h"

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const long n = long(dash::size()), size = 9 * n + 4;
  dash::Array<int> a(size);
  for (std::size_t i = 0; i < a.local.size(); ++i) {
    const long g = long(a.local.global_index(i));
    a.local[i] = int((g * 53) % size) - int(size / 3);
  }
  a.barrier();
  dash::sort(a.begin(), a.end(), [](int v) { return std::abs(v); });
  for (long i = 1; i < size; ++i) CHECK(std::abs(int(a[i - 1])) <= std::abs(int(a[i])));

  std::array<int, 2> mine{INT32_MAX, INT32_MIN}, all{0, 0};
  if (a.lbegin() != a.lend()) {
    mine[DART_OP_MINMAX_MIN] = *dash::min_element(a.lbegin(), a.lend());
    mine[DART_OP_MINMAX_MAX] = *dash::max_element(a.lbegin(), a.lend());
  }
  CHECK(dart_allreduce(mine.data(), all.data(), 2, DART_TYPE_INT, DART_OP_MINMAX,
                       dash::Team::All().dart_id()) == DART_OK);
  int lo = INT32_MAX, hi = INT32_MIN;
  long sum = 0;
  for (long g = 0; g < size; ++g) {
    const int v = int((g * 53) % size) - int(size / 3);
    lo = std::min(lo, v), hi = std::max(hi, v), sum += v;
  }
  CHECK(all[DART_OP_MINMAX_MIN] == lo && all[DART_OP_MINMAX_MAX] == hi);
  CHECK(dash::reduce(a.lbegin(), a.lend(), 0L, std::plus<long>()) == sum);
  a.barrier();
  report_ok("sort_minmax");
  dash::finalize();
}
