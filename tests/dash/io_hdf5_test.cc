// dash::io::hdf5::save and load: datasets any HDF5 reader sees as the container (read back
// here on one unit with plain serial HDF5 calls), loaded into other patterns, another rank and
// a team of fewer units; two datasets in one file, a dataset replaced; wrong types, extents,
// missing files and datasets throw on every unit.
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Matrix.h>
#include <dash/Team.h>
#include <dash/algorithm/Copy.h>
#include <dash/io/Hdf5.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mpi_test.h"
#include "row_major.h"
#include "shared_dir.h"

namespace {

using dash_test::myid;
using dash_test::nunits;
using dash_test::RowMajor;
using dash_test::SharedDir;

double Value(std::int64_t g) { return double(g) * 0.5 - 3; }

// Each element holds Value of its row-major index (unit 0 writes them all).
template <class C>
void Fill(C& c) {
  std::vector<double> all(c.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = Value(RowMajor(c, i));
  if (myid() == 0 && c.size() > 0) dash::copy(all.data(), all.data() + all.size(), c.begin());
  c.barrier();
}

template <class C>
void ExpectValues(C& c) {
  std::vector<double> all(c.size());
  if (c.size() > 0) dash::copy(c.begin(), c.end(), all.data());
  for (std::size_t i = 0; i < all.size(); ++i)
    ASSERT_EQ(all[i], Value(RowMajor(c, i))) << "element " << i << " on unit " << myid();
}

// The dataset read on unit 0 alone with serial HDF5: its extents and values.
void ExpectDataset(const std::string& file, const std::string& name,
                   const std::vector<hsize_t>& extents) {
  dash::Team::All().barrier();
  if (myid() != 0) return;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  ASSERT_GE(d, 0);
  const hid_t s = H5Dget_space(d);
  std::vector<hsize_t> dims(std::size_t(H5Sget_simple_extent_ndims(s)));
  H5Sget_simple_extent_dims(s, dims.data(), nullptr);
  EXPECT_EQ(dims, extents);
  hsize_t n = 1;
  for (hsize_t e : dims) n *= e;
  std::vector<double> v(n);
  EXPECT_GE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), 0);
  for (hsize_t i = 0; i < n; ++i) ASSERT_EQ(v[i], Value(std::int64_t(i))) << "element " << i;
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
}

TEST(IoHdf5, ArrayAndMatrix_AnyPattern_RoundTrip_SeenBySerialHdf5) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("out.h5");
  dash::Array<double> a(1001, dash::CYCLIC);
  Fill(a);
  dash::io::hdf5::save(a, file, "/cyclic");
  ExpectDataset(file, "/cyclic", {1001});
  dash::Matrix<double, 2> m(37, 29, dash::TILE(8), dash::TILE(5));
  Fill(m);
  dash::io::hdf5::save(m, file, "/tiles");  // a second dataset in the same file
  ExpectDataset(file, "/tiles", {37, 29});
  ExpectDataset(file, "/cyclic", {1001});
  dash::Matrix<double, 2> rows(37, 29, dash::BLOCKED, dash::NONE);
  dash::io::hdf5::load(file, "/tiles", rows);
  ExpectValues(rows);
  dash::Matrix<double, 2> blocks(37, 29, dash::BLOCKED, dash::BLOCKED);
  dash::io::hdf5::load(file, "/tiles", blocks);
  ExpectValues(blocks);
  dash::Array<double> flat(37 * 29, dash::BLOCKCYCLIC(7));  // another rank, as many elements
  dash::io::hdf5::load(file, "/tiles", flat);
  ExpectValues(flat);
  dash::Array<double> back(1001);
  dash::io::hdf5::load(file, "/cyclic", back);
  ExpectValues(back);
  // Replaced: the dataset now holds the blocked matrix (same values, same shape).
  dash::io::hdf5::save(blocks, file, "/tiles");
  ExpectDataset(file, "/tiles", {37, 29});
}

// Column-major patterns: the dataset is row-major as HDF5 readers expect, whatever the
// container's memory order; it loads back into another column-major pattern.
TEST(IoHdf5, ColumnMajorPatterns_DatasetRowMajor) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("col.h5");
  const long rows = 19, cols = 13;
  dash::NArray<double, 2, dash::default_index_t, dash::BlockPattern<2, dash::COL_MAJOR>> a(
      dash::SizeSpec<2>(rows, cols), dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED));
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      if (a.pattern().unit_at({r, c}).id == myid()) a[r][c] = Value(r * cols + c);
  a.barrier();
  dash::io::hdf5::save(a, file, "/col");
  ExpectDataset(file, "/col", {hsize_t(rows), hsize_t(cols)});
  dash::Matrix<double, 2, dash::default_index_t, dash::TilePattern<2, dash::COL_MAJOR>> t(
      dash::SizeSpec<2>(rows, cols), dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  dash::io::hdf5::load(file, "/col", t);
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      ASSERT_EQ(double(t[r][c]), Value(r * cols + c)) << r << "," << c << " on " << myid();
}

TEST(IoHdf5, LoadsOnTeamOfFewerUnits) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  dash::Array<double> a(777);
  Fill(a);
  dash::io::hdf5::save(a, dir.file("t.h5"), "/a");
  dash::Team& all = dash::Team::All();
  if (all.size() < 2) return;
  dash::Team& part = all.split(2);
  if (part.global_id(dash::team_unit_t{0}).id == 0) {  // unit 0's half
    dash::Array<double> b(777, dash::CYCLIC, part);
    dash::io::hdf5::load(dir.file("t.h5"), "/a", b);
    ExpectValues(b);
  }
  all.barrier();
}

TEST(IoHdf5, BadInput_ThrowsEverywhere) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("bad.h5");
  dash::Array<double> a(100);
  Fill(a);
  dash::io::hdf5::save(a, file, "/a");
  dash::Array<std::int32_t> ints(100);
  EXPECT_THROW(dash::io::hdf5::load(file, "/a", ints), dash::exception::InvalidArgument);
  dash::Array<double> longer(101);
  EXPECT_THROW(dash::io::hdf5::load(file, "/a", longer), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::io::hdf5::load(file, "/missing", a), dash::exception::RuntimeError);
  EXPECT_THROW(dash::io::hdf5::load(dir.file("none.h5"), "/a", a), dash::exception::RuntimeError);
  EXPECT_THROW(dash::io::hdf5::save(a, dir.file("no/such/dir.h5"), "/a"),
               dash::exception::RuntimeError);
}

}  // namespace
