// Consumer of the installed hdf5 component (target dash::hdf5): a matrix saved as an HDF5
// dataset and loaded into another pattern, compared element by element on every unit. Prints
// "consumer_hdf5: unit <i> of <n>" on every unit when all match. The file name is argv[1].
#include <dash/io/Hdf5.h>
#include <libdash.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  dash::init(&argc, &argv);
  const std::string file = argc > 1 ? argv[1] : "consumer_hdf5.h5";
  const int me = int(dash::myid().id), n = int(dash::size());
  const std::size_t rows = 13, cols = 7;
  dash::Matrix<double, 2> m(rows, cols);
  if (me == 0)  // one-sided writes of every element
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) m[r][c] = double(r * 100 + c);
  m.barrier();
  dash::io::hdf5::save(m, file, "/values");
  dash::Matrix<double, 2> back(rows, cols, dash::TILE(4), dash::TILE(3));
  dash::io::hdf5::load(file, "/values", back);
  long wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      if (double(back[r][c]) != double(r * 100 + c)) ++wrong;
  const std::string line =
      wrong == 0 ? "consumer_hdf5: unit " + std::to_string(me) + " of " + std::to_string(n) + "\n"
                 : "consumer_hdf5: " + std::to_string(wrong) + " wrong\n";
  std::fputs(line.c_str(), stdout);
  dash::finalize();
  return wrong == 0 ? 0 : 1;
}
