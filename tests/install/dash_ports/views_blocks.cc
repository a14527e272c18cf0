// Views the way DASH programs use them: dash::blocks of a tiled matrix, dash::sub and
// dash::intersect, the local part of a view, view.extent<D>(), dash::view_traits, and a copy
// of a block view into a local buffer.
#include <vector>

#include "check.h"

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const long n = long(dash::size()), rows = 4 * n, cols = 9;
  dash::Matrix<int, 2> m(rows, cols, dash::TILE(2), dash::TILE(3));
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      if (m[r][c].is_local()) m[r][c] = int(r * 100 + c);
  m.barrier();
  auto blocks = dash::blocks(m);
  CHECK(long(blocks.size()) == (rows / 2) * 3);
  long cells = 0;
  for (const auto& b : blocks) cells += long(b.size());
  CHECK(cells == rows * cols);
  const auto& b = blocks[4];  // block (1, 1): rows 2-3, columns 3-5
  CHECK(b.offset<0>() == 2 && b.offset<1>() == 3 && b.extent<0>() == 2 && b.extent<1>() == 3);
  std::vector<int> buf(b.size());
  dash::copy(b.begin(), b.end(), buf.data());
  for (long i = 0; i < 2; ++i)
    for (long j = 0; j < 3; ++j) CHECK(buf[i * 3 + j] == int((2 + i) * 100 + 3 + j));
  auto band = dash::sub<0>(1, rows - 1, m), strip = dash::sub<1>(2, 7, m);
  auto both = dash::intersect(band, strip);
  CHECK(both.extent<0>() == std::size_t(rows - 2) && both.extent<1>() == 5u);
  CHECK(dash::domain(both).size() == m.size());
  using Traits = dash::view_traits<decltype(both)>;
  static_assert(Traits::is_view::value && Traits::rank::value == 2);
  static_assert(dash::view_traits<dash::Matrix<int, 2>>::is_origin::value);
  long local_cells = 0;
  for (int v : dash::local(both)) {
    CHECK(v % 100 >= 2 && v % 100 < 7);
    ++local_cells;
  }
  const long total = dash::Team::All().allreduce(local_cells, dash::plus<long>());
  CHECK(total == (rows - 2) * 5);
  m.barrier();
  report_ok("views_blocks");
  dash::finalize();
}
