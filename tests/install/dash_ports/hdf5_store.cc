// HDF5 files as DASH's programs write them (ex.08.io-hdf5, ex.08.io-hdf5-stream,
// bench.11.hdf-io): <libdash.h> with DASH_ENABLE_HDF5 (dash::hdf5 defines it), StoreHDF::write
// and read with hdf5_options, an array without memory that gets the stored pattern back, a
// dataset added to the file and then modified through an OutputStream in DeviceMode::app, a
// matrix read through an InputStream, and restore_pattern(false).
#include <unistd.h>

#include <string>

#include "check.h"

#ifndef DASH_ENABLE_HDF5
#error "dash::hdf5 defines DASH_ENABLE_HDF5, which brings dash::io::hdf5 into <libdash.h>"
#endif

using dash::io::hdf5::DeviceMode;
using dash::io::hdf5::hdf5_options;
using dash::io::hdf5::InputStream;
using dash::io::hdf5::OutputStream;
using dash::io::hdf5::StoreHDF;
namespace dio = dash::io::hdf5;

typedef dash::Pattern<1, dash::ROW_MAJOR, long> pattern_t;
typedef dash::Array<int, long, pattern_t> array_t;

// Value of matrix element (r, c), version v.
double matrix_value(long r, long c, int v) { return 100.0 * r + c + 0.5 * v; }

// Fills the calling unit's part of m with matrix_value(coords, v). Collective (barrier).
template <class MatrixT>
void fill_matrix(MatrixT& m, int v) {
  for (long r = 0; r < long(m.extent(0)); ++r)
    for (long c = 0; c < long(m.extent(1)); ++c)
      if (m.pattern().unit_at({r, c}) == dash::Team::All().myid()) m[r][c] = matrix_value(r, c, v);
  m.barrier();
}

// Checks the calling unit's part of m against matrix_value(coords, v).
template <class MatrixT>
void check_matrix(MatrixT& m, int v) {
  for (long r = 0; r < long(m.extent(0)); ++r)
    for (long c = 0; c < long(m.extent(1)); ++c)
      if (m.pattern().unit_at({r, c}) == dash::Team::All().myid())
        CHECK(double(m[r][c]) == matrix_value(r, c, v));
}

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  dash::Shared<long> pid;
  if (dash::myid() == 0) pid.set(long(getpid()));
  pid.barrier();
  const char* tmp = getenv("TMPDIR");
  const std::string file =
      std::string(tmp ? tmp : "/tmp") + "/hdf5_store." + std::to_string(long(pid.get())) + ".hdf5";

  // An array written with the defaults (a new file, the pattern kept) ...
  array_t array_a(pattern_t(100, dash::TILE(7)));
  for (size_t l = 0; l < array_a.lsize(); ++l)
    array_a.local[l] = int(2 * array_a.pattern().global(long(l)));
  array_a.barrier();
  StoreHDF::write(array_a, file, "group/data");
  dash::barrier();
  // ... read into an array without memory: the stored pattern, the same local elements.
  array_t array_c;
  StoreHDF::read(array_c, file, "group/data");
  CHECK(array_c.size() == 100 && array_c.pattern().blocksize(0) == 7);
  CHECK(array_c.lsize() == array_a.lsize());
  for (size_t l = 0; l < array_c.lsize(); ++l) CHECK(array_c.local[l] == array_a.local[l]);
  // ... and into an allocated array of another pattern: by position.
  array_t array_d(pattern_t(100, dash::TILE(10)));
  StoreHDF::read(array_d, file, "group/data");
  for (long g = 0; g < 100; g += 9) CHECK(int(array_d[g]) == 2 * g);

  // A matrix added to the file, then modified through a stream in append mode.
  dash::Matrix<double, 2> temperature(dash::SizeSpec<2>(13, 9));
  fill_matrix(temperature, 0);
  hdf5_options fopts;
  fopts.overwrite_file = false;
  StoreHDF::write(temperature, file, "temperature", fopts);
  dash::barrier();
  fill_matrix(temperature, 1);
  {
    OutputStream os(file, DeviceMode::app);
    os << dio::dataset("temperature") << dio::modify_dataset() << temperature;
  }
  dash::barrier();
  dash::Matrix<double, 2> back;
  InputStream is(file);
  is >> dio::dataset("temperature") >> back;
  CHECK(back.extent(0) == 13 && back.extent(1) == 9);
  check_matrix(back, 1);
  // The pattern attribute ignored: the default distribution (BLOCKED).
  array_t array_e;
  is >> dio::dataset("group/data") >> dio::restore_pattern(false) >> array_e;
  CHECK(array_e.pattern().blocksize(0) == long((100 + dash::size() - 1) / dash::size()));
  for (long g = 0; g < 100; g += 11) CHECK(int(array_e[g]) == 2 * g);

  dash::barrier();
  if (dash::myid() == 0) remove(file.c_str());
  report_ok("hdf5_store");
  dash::finalize();
  return 0;
}
