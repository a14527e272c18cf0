// 2-D heat diffusion on a row-distributed matrix, the way DASH's stencil examples fetch halo
// rows: dash::copy over matrix iterators into local buffers, then a Jacobi step on the local
// rows; compared with the same steps computed serially by every unit.
#include <cmath>
#include <vector>

#include "check.h"

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const long n = long(dash::size()), rows = 5 * n + 2, cols = 9, steps = 6;
  dash::NArray<double, 2> grid(dash::SizeSpec<2>(rows, cols),
                               dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  dash::NArray<double, 2> next(dash::SizeSpec<2>(rows, cols),
                               dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  auto init = [&](long r, long c) { return (r == 0 ? 100.0 : 0.0) + double((r * 7 + c) % 5); };
  std::vector<double> serial(rows * cols), serial_next(rows * cols);
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c) serial[r * cols + c] = init(r, c);
  const auto& pattern = grid.pattern();
  const long my_rows = long(pattern.local_extent(0));
  const long first_row = my_rows > 0 ? pattern.global({0, 0})[0] : 0;
  for (long r = 0; r < my_rows; ++r)
    for (long c = 0; c < cols; ++c) grid.local[r][c] = init(first_row + r, c);
  grid.barrier();
  std::vector<double> above(cols), below(cols);
  for (long s = 0; s < steps; ++s) {
    auto& from = s % 2 == 0 ? grid : next;
    auto& to = s % 2 == 0 ? next : grid;
    if (my_rows > 0) {
      if (first_row > 0)
        dash::copy(from.begin() + (first_row - 1) * cols, from.begin() + first_row * cols,
                   above.data());
      if (first_row + my_rows < rows)
        dash::copy(from.begin() + (first_row + my_rows) * cols,
                   from.begin() + (first_row + my_rows + 1) * cols, below.data());
      for (long r = 0; r < my_rows; ++r) {
        const long g = first_row + r;
        for (long c = 0; c < cols; ++c) {
          if (g == 0 || g == rows - 1 || c == 0 || c == cols - 1) {
            to.local[r][c] = from.local[r][c];
            continue;
          }
          const double up = r > 0 ? from.local[r - 1][c] : above[c];
          const double down = r + 1 < my_rows ? from.local[r + 1][c] : below[c];
          to.local[r][c] = 0.25 * (up + down + from.local[r][c - 1] + from.local[r][c + 1]);
        }
      }
    }
    to.barrier();
    for (long r = 0; r < rows; ++r)
      for (long c = 0; c < cols; ++c) {
        const bool edge = r == 0 || r == rows - 1 || c == 0 || c == cols - 1;
        serial_next[r * cols + c] =
            edge ? serial[r * cols + c]
                 : 0.25 * (serial[(r - 1) * cols + c] + serial[(r + 1) * cols + c] +
                           serial[r * cols + c - 1] + serial[r * cols + c + 1]);
      }
    serial.swap(serial_next);
  }
  auto& result = steps % 2 == 0 ? grid : next;
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      CHECK(std::fabs(double(result[r][c]) - serial[r * cols + c]) < 1e-12);
  result.barrier();
  report_ok("heat_halo_rows");
  dash::finalize();
}
