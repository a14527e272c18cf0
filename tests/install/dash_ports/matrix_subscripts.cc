// DASH's matrix example: a balanced unit grid, m[i][j] writes by unit 0 and reads by all,
// m[i] as a row with begin/end, local[i][j] by the owner.
#include "check.h"

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const int n = int(dash::size());
  dash::TeamSpec<2> teamspec(dash::Team::All());
  teamspec.balance_extents();
  const std::size_t rows = 4 * teamspec.extent(0) + 1, cols = 3 * teamspec.extent(1) + 2;
  dash::Matrix<int, 2> matrix(dash::SizeSpec<2>(rows, cols),
                              dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED),
                              dash::Team::All(), teamspec);
  CHECK(matrix.pattern().teamspec().num_units() == std::size_t(n));
  if (dash::myid() == 0) {
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) matrix[i][j] = int(i * 100 + j);
  }
  matrix.barrier();
  for (std::size_t i = 0; i < rows; ++i) {
    int j = 0;
    for (auto v : matrix[i]) CHECK(int(v) == int(i * 100) + j++);
    CHECK(j == int(cols));
  }
  // The owner sees its elements through local[i][j] in local coordinates.
  auto ext = matrix.pattern().local_extents();
  for (std::size_t i = 0; i < ext[0]; ++i)
    for (std::size_t j = 0; j < ext[1]; ++j) {
      auto g = matrix.pattern().global({long(i), long(j)});
      CHECK(matrix.local[i][j] == int(g[0] * 100 + g[1]));
    }
  matrix.barrier();
  report_ok("matrix_subscripts");
  dash::finalize();
}
