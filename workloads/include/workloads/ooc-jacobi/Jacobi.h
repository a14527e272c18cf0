// Shared workload (workloads/ooc-jacobi/Jacobi.h): the Jacobi kernel of examples/ooc-jacobi,
// also measured by bench/ooc.
#ifndef WORKLOADS__OOC_JACOBI__JACOBI_H_
#define WORKLOADS__OOC_JACOBI__JACOBI_H_

#include <dash/bp/ContainerBlocks.h>

#include <cstddef>
#include <vector>

namespace examples {

// One Jacobi sweep of a block: every cell the mean of its four neighbours'
// old values (the halo beyond the block's edge). Row by row: the new row
// goes to `next`, the old one to `prev` for the row below.
inline void jacobi(dash::bp::ContainerBlock<double, 2>& b) {
  const long R = b.extent(0), C = b.extent(1);
  const long s0 = b.strides()[0], s1 = b.strides()[1];
  std::vector<double> prev(static_cast<std::size_t>(C)), next(static_cast<std::size_t>(C));
  for (long j = 0; j < C; ++j) prev[std::size_t(j)] = b(-1, j);
  for (long i = 0; i < R; ++i) {
    double* row = b.data() + i * s0;
    const double* below = i + 1 < R ? b.data() + (i + 1) * s0 : nullptr;
    for (long j = 0; j < C; ++j) {
      const double up = prev[std::size_t(j)];
      const double down = below ? below[j * s1] : b(R, j);
      const double left = j > 0 ? row[(j - 1) * s1] : b(i, -1);
      const double right = j + 1 < C ? row[(j + 1) * s1] : b(i, C);
      next[std::size_t(j)] = 0.25 * (up + down + left + right);
    }
    for (long j = 0; j < C; ++j) {
      prev[std::size_t(j)] = row[j * s1];
      row[j * s1] = next[std::size_t(j)];
    }
  }
}

}  // namespace examples

#endif  // WORKLOADS__OOC_JACOBI__JACOBI_H_
