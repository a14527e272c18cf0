// DASH's tiled-matrix listing: the calling unit's first local block copied onto global block
// {i, j} and back into a local buffer; every element checked.
#include <vector>

#include "check.h"

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const long n = long(dash::size()), b = 4;
  dash::Matrix<long, 2> matrix(dash::SizeSpec<2>(b * 2 * n + 3, b * 5),
                               dash::DistributionSpec<2>(dash::TILE(b), dash::TILE(b)));
  const auto& pattern = matrix.pattern();
  for (std::size_t l = 0; l < matrix.lsize(); ++l)
    matrix.lbegin()[l] = pattern.global_index(pattern.myid(), long(l));
  matrix.barrier();
  // DASH's check: unit u's first local tile starts at row u * b, column 0.
  CHECK(pattern.local_block(0).offset(0) == b * long(dash::myid()));
  CHECK(pattern.local_block(0).offset(1) == 0);
  auto l_block = matrix.local.block(0);
  std::vector<long> buf(l_block.size());
  dash::copy(l_block.begin(), l_block.end(), buf.data());
  for (std::size_t k = 0; k < buf.size(); ++k)
    CHECK(buf[k] == pattern.global_index((l_block.begin() + long(k)).coords()));
  matrix.barrier();
  if (dash::myid() == 0) {
    auto m_block = matrix.block({1, 3});
    dash::copy(l_block.begin(), l_block.end(), m_block.begin());
  }
  matrix.barrier();
  auto src = pattern.local_block(dash::team_unit_t(0), 0);
  for (long i = 0; i < b; ++i)
    for (long j = 0; j < b; ++j)
      CHECK(matrix[b + i][3 * b + j] ==
            pattern.global_index({src.offset(0) + i, src.offset(1) + j}));
  matrix.barrier();
  report_ok("tile_copy");
  dash::finalize();
}
