// DASH's coarrays as its documentation and bench.01.igups use them: a coarray declared before
// dash::init and allocated after, local updates through x[i] in a loop, an open extent given at
// run time, every image reading its neighbour's value, cobroadcast and coreduce, and
// sync_images between the first and the last image.
#include <dash/Coarray.h>

#include <array>

#include "check.h"

using namespace dash::coarray;

dash::Coarray<int> counter;  // before dash::init: allocated later

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const int n = int(num_images()), me = int(this_image());

  counter.allocate();
  counter = 0;
  counter.sync_all();

  // Local updates, as igups' coarray loop.
  const unsigned elems = 17;
  dash::Coarray<long[]> a(elems);
  for (unsigned j = 0; j < elems; ++j) a[j] = 100 * me + j;
  for (int rep = 0; rep < 3; ++rep)
    for (unsigned j = 0; j < elems; ++j) ++a[j];
  a.sync_all();
  const int next = (me + 1) % n;
  for (unsigned j = 0; j < elems; ++j) CHECK(long(a(next)[j]) == 100 * next + j + 3);
  a.sync_all();

  // A fixed 2-D value per image: the neighbour's cell written, then the own one read.
  dash::Coarray<double[3][4]> grid;
  grid[1][2] = 0.5 * me;
  grid.sync_all();
  grid(next)[2][3] = 1.5 * me;
  grid.sync_all();
  CHECK(grid[2][3] == 1.5 * ((me + n - 1) % n));
  CHECK(double(grid(next)[1][2]) == 0.5 * next);
  grid.sync_all();

  // Every image counts itself into image 0's counter (atomically through a Coarray of atomics).
  dash::Coarray<dash::Atomic<int>> hits;
  hits(me) = 0;
  hits.sync_all();
  hits(0) += 1;
  hits.sync_all();
  if (me == 0) CHECK(int(hits) == n);

  // Collectives.
  if (me == n - 1) counter = 42;
  cobroadcast(counter, dash::team_unit_t{n - 1});
  CHECK(int(counter) == 42);
  dash::Coarray<int[2]> sums;
  sums[0] = me;
  sums[1] = 1;
  coreduce(sums, dash::plus<int>());
  CHECK(sums[0] == n * (n - 1) / 2);
  CHECK(sums[1] == n);

  // The first and the last image meet; the others pass.
  sync_images(std::array<int, 2>{0, n - 1});
  sync_all();

  report_ok("coarray_images");
  counter.deallocate();
  dash::finalize();
  return 0;
}
