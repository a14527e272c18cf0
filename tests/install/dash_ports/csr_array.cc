// An irregularly distributed array as DASH's programs build one (ex.02.array-csr, bench.03.gups,
// bench.05.pattern): dash::CSRPattern<1> from one local size per unit (some of them 0),
// dash::Array<T, int, pattern_t>, the local part filled from pattern.global(0), every element
// read back through global access and pattern.local(g); a CSR array allocated later by size and
// distribution; dash::fill and dash::min_element over it.
#include <vector>

#include "check.h"

int main(int argc, char* argv[]) {
  typedef dash::CSRPattern<1, dash::ROW_MAJOR, int> pattern_t;
  typedef typename pattern_t::size_type extent_t;
  dash::init(&argc, &argv);
  const size_t num_units = dash::size();
  std::vector<extent_t> local_sizes;
  for (size_t unit_idx = 0; unit_idx < num_units; ++unit_idx)
    local_sizes.push_back(unit_idx % 3 == 1 ? 0 : ((unit_idx + 11) * 23) % 100);
  pattern_t pattern(local_sizes);
  dash::Array<long, int, pattern_t> array(pattern);
  CHECK(array.lsize() == local_sizes[dash::myid()]);
  auto l_begin_glob_offset = array.pattern().global(0);
  for (size_t i = 0; i < array.local.size(); ++i) array.local[i] = l_begin_glob_offset + i;
  array.barrier();
  extent_t first = 0;
  for (size_t u = 0; u < num_units; ++u) {
    for (extent_t l = 0; l < local_sizes[u]; ++l) {
      const int g = int(first + l);
      auto local_pos = pattern.local(g);
      CHECK(local_pos.unit == dash::team_unit_t(int(u)) && local_pos.index == int(l));
      CHECK(long(array[g]) == g);
    }
    first += local_sizes[u];
  }
  CHECK(array.size() == first);
  array.barrier();

  // Allocated later, as bench.03.gups does with its global table.
  dash::Array<unsigned long, long, dash::CSRPattern<1, dash::ROW_MAJOR, long>> table;
  table.allocate(7 * num_units + 3, dash::BLOCKED);
  dash::fill(table.begin(), table.end(), 5ul);
  table.barrier();
  if (dash::myid() == 0) table[table.size() - 1] = 2ul;
  table.barrier();
  auto min = dash::min_element(table.begin(), table.end());
  CHECK(min.pos() == long(table.size() - 1) && (unsigned long)(*min) == 2ul);
  table.barrier();
  report_ok("csr_array");
  dash::finalize();
}
