// DASH's HDF5 interface (dash::io::hdf5::StoreHDF, OutputStream, InputStream, the
// manipulators, hdf5_options): containers without memory get the stored pattern back (the same
// elements on the same units), DASH's pattern attribute read here with serial HDF5 against
// values worked out by hand, files replaced or added to, datasets refused or written into,
// groups, compound types, and files that must not be written (a symlink) refused on every unit.
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Matrix.h>
#include <dash/Team.h>
#include <dash/algorithm/Copy.h>
#include <dash/io/HDF5.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "mpi_test.h"
#include "row_major.h"
#include "shared_dir.h"

namespace {

namespace dio = dash::io::hdf5;
using dash_test::myid;
using dash_test::nunits;
using dash_test::RowMajor;
using dash_test::SharedDir;

// The value of the element at row-major index i, for a dataset number k.
int Value(std::int64_t i, int k = 0) { return int(i * 3 + 1 + 1000 * k); }

// Every element holds Value(its row-major index, k) (unit 0 writes them all).
template <class C>
void Fill(C& c, int k = 0) {
  std::vector<typename C::value_type> all(c.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    all[i] = typename C::value_type(Value(RowMajor(c, i), k));
  if (myid() == 0 && c.size() > 0) dash::copy(all.data(), all.data() + all.size(), c.begin());
  c.barrier();
}

// Every element of c holds Value(its row-major index, k), seen from every unit.
template <class C>
void ExpectValues(C& c, int k = 0) {
  std::vector<typename C::value_type> all(c.size());
  if (c.size() > 0) dash::copy(c.begin(), c.end(), all.data());
  for (std::size_t i = 0; i < all.size(); ++i)
    ASSERT_EQ(all[i], typename C::value_type(Value(RowMajor(c, i), k)))
        << "element " << i << " on unit " << myid();
}

// The calling unit's elements, in local order.
template <class C>
std::vector<typename C::value_type> Local(C& c) {
  return std::vector<typename C::value_type>(c.lbegin(), c.lend());
}

// What serial HDF5 sees of a file (on unit 0 only; -1 / empty elsewhere).
struct Seen {
  int exists = -1;              // the link is there
  std::vector<long> attribute;  // the long attribute "key", if any
};
Seen Look(const std::string& file, const std::string& name, const std::string& key) {
  Seen s;
  dash::Team::All().barrier();
  if (myid() != 0) return s;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return s;
  s.exists = H5Lexists(f, name.c_str(), H5P_DEFAULT) > 0;
  if (s.exists) {
    const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
    if (H5Aexists(d, key.c_str()) > 0) {
      const hid_t a = H5Aopen(d, key.c_str(), H5P_DEFAULT);
      const hid_t sp = H5Aget_space(a);
      s.attribute.resize(std::size_t(H5Sget_simple_extent_npoints(sp)));
      H5Aread(a, H5T_NATIVE_LONG, s.attribute.data());
      H5Sclose(sp);
      H5Aclose(a);
    }
    H5Dclose(d);
  }
  H5Fclose(f);
  return s;
}

long CeilDiv(long a, long b) { return (a + b - 1) / b; }

using Pattern1 = dash::Pattern<1, dash::ROW_MAJOR, long>;
using Array1 = dash::Array<int, long, Pattern1>;

TEST(Hdf5Store, EmptyArrayGetsTheStoredPattern_SameElementsOnEveryUnit) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("a.h5");
  const long n = 103;
  Array1 a(Pattern1(n, dash::TILE(7)));
  Fill(a);
  dio::StoreHDF::write(a, file, "group/data");
  const Seen seen = Look(file, "group/data", "DASH_PATTERN");
  if (myid() == 0) {  // extent, unit grid, blocks, block extent
    EXPECT_EQ(seen.attribute, (std::vector<long>{n, long(nunits()), CeilDiv(n, 7), 7}));
  }
  Array1 b;
  dio::StoreHDF::read(b, file, "group/data");
  EXPECT_EQ(long(b.size()), n);
  EXPECT_EQ(b.pattern().blocksize(0), 7);
  EXPECT_EQ(Local(b), Local(a)) << "unit " << myid();
  ExpectValues(b);
  // Into an array with memory and another pattern: redistributed by position.
  Array1 c(Pattern1(n, dash::TILE(5)));
  dio::StoreHDF::read(c, file, "group/data");
  ExpectValues(c);
  // Into the default pattern type.
  dash::Array<int> d;
  dio::StoreHDF::read(d, file, "group/data");
  EXPECT_EQ(Local(d), Local(a)) << "unit " << myid();
}

TEST(Hdf5Store, Underfilled3DMatrixThroughStreams_RestoredOnItsGrid) {
  using P3 = dash::Pattern<3, dash::ROW_MAJOR>;
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("m.h5");
  dash::TeamSpec<3> grid(long(nunits()), 1, 1);
  grid.balance_extents();
  const long b0 = 2, b1 = 3, b2 = 4;
  const long e0 = b0 * long(grid.extent(0)) + 1, e1 = b1 * long(grid.extent(1)),
             e2 = b2 * long(grid.extent(2)) - 1;
  const P3 pattern(dash::SizeSpec<3>(e0, e1, e2),
                   dash::DistributionSpec<3>(dash::TILE(b0), dash::TILE(b1), dash::TILE(b2)), grid,
                   dash::Team::All());
  dash::Matrix<int, 3, dash::default_index_t, P3> m(pattern);
  Fill(m, 2);
  {
    dio::OutputStream os(file);
    os << dio::dataset("g/m") << m;
  }
  const Seen seen = Look(file, "g/m", "DASH_PATTERN");
  if (myid() == 0) {
    EXPECT_EQ(seen.attribute,
              (std::vector<long>{e0, e1, e2, long(grid.extent(0)), long(grid.extent(1)),
                                 long(grid.extent(2)), CeilDiv(e0, b0), CeilDiv(e1, b1),
                                 CeilDiv(e2, b2), b0, b1, b2}));
  }
  dash::Matrix<int, 3, dash::default_index_t, P3> back;
  dio::InputStream is(file);
  is >> dio::dataset("g/m") >> back;
  ASSERT_EQ(back.size(), m.size());
  for (dash::dim_t d = 0; d < 3; ++d)
    EXPECT_EQ(back.pattern().blocksize(d), m.pattern().blocksize(d));
  EXPECT_EQ(Local(back), Local(m)) << "unit " << myid();
  ExpectValues(back, 2);
}

TEST(Hdf5Store, WithoutStoredPattern_TheDefaultDistribution) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("p.h5");
  const long n = 4 * long(nunits()) + 3;
  Array1 a(Pattern1(n, dash::CYCLIC));
  Fill(a);
  dio::hdf5_options off;
  off.store_pattern = false;
  dio::StoreHDF::write(a, file, "plain", off);
  dio::StoreHDF::write(a, file, "kept", [] {
    dio::hdf5_options o;
    o.overwrite_file = false;
    return o;
  }());
  const Seen plain = Look(file, "plain", "DASH_PATTERN");
  const Seen kept = Look(file, "kept", "DASH_PATTERN");
  if (myid() == 0) {
    EXPECT_EQ(plain.exists, 1);
    EXPECT_TRUE(plain.attribute.empty());
    EXPECT_EQ(kept.attribute.size(), 4u);
  }
  const long blocked = CeilDiv(n, long(nunits()));
  Array1 b;
  dio::StoreHDF::read(b, file, "plain");
  EXPECT_EQ(b.pattern().blocksize(0), blocked);
  ExpectValues(b);
  Array1 c;  // the attribute is there but not wanted
  dio::InputStream is(file);
  is >> dio::dataset("kept") >> dio::restore_pattern(false) >> c;
  EXPECT_EQ(c.pattern().blocksize(0), blocked);
  ExpectValues(c);
  Array1 d;
  dio::InputStream(file) >> dio::dataset("kept") >> d;
  EXPECT_EQ(d.pattern().blocksize(0), 1);
  EXPECT_EQ(Local(d), Local(a));
}

// Irregular patterns (a size per unit) keep no shape: read back by position, into their own
// type's default distribution or any other pattern.
TEST(Hdf5Store, IrregularPatternStoresNoShape_ReadByPosition) {
  using Csr = dash::CSRPattern<1, dash::ROW_MAJOR, long>;
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("csr.h5");
  std::vector<Csr::size_type> sizes;
  for (std::size_t u = 0; u < nunits(); ++u) sizes.push_back(u % 2 ? 3 : 10);
  dash::Array<int, long, Csr> a{Csr(sizes)};
  Fill(a);
  dio::OutputStream(file) << a;
  const Seen seen = Look(file, "data", "DASH_PATTERN");
  if (myid() == 0) {
    EXPECT_EQ(seen.exists, 1);
    EXPECT_TRUE(seen.attribute.empty());
  }
  dash::Array<int, long, Csr> b;
  dio::InputStream(file) >> b;
  EXPECT_EQ(b.size(), a.size());
  ExpectValues(b);
  dash::Array<int> c;
  dio::InputStream(file) >> c;
  EXPECT_EQ(c.pattern().blocksize(0), CeilDiv(long(a.size()), long(nunits())));
  ExpectValues(c);
}

TEST(Hdf5Store, CustomPatternKey) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("k.h5");
  Array1 a(Pattern1(50, dash::TILE(3)));
  Fill(a);
  dio::OutputStream(file) << dio::setpattern_key("MINE") << a;
  const Seen seen = Look(file, "data", "MINE");
  const Seen dash_key = Look(file, "data", "DASH_PATTERN");
  if (myid() == 0) {
    EXPECT_EQ(seen.attribute.size(), 4u);
    EXPECT_TRUE(dash_key.attribute.empty());
  }
  Array1 b, c;
  dio::InputStream(file) >> dio::setpattern_key("MINE") >> b;
  EXPECT_EQ(b.pattern().blocksize(0), 3);
  dio::InputStream(file) >> c;  // looks for DASH_PATTERN: the default distribution
  EXPECT_EQ(c.pattern().blocksize(0), CeilDiv(50, long(nunits())));
  ExpectValues(c);
}

TEST(Hdf5Store, FileReplacedOrAddedTo) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("f.h5");
  dash::Array<int> a(31), b(17);
  Fill(a, 0);
  Fill(b, 1);
  {
    dio::OutputStream os(file);  // replaces at the first write, adds after
    os << dio::dataset("a") << a << dio::dataset("g1/b") << b;
  }
  {
    dio::OutputStream os(file, dio::DeviceMode::app);
    os << dio::dataset("g1/g2/c") << a;
  }
  EXPECT_EQ(Look(file, "a", "x").exists, myid() == 0 ? 1 : -1);
  EXPECT_EQ(Look(file, "g1/b", "x").exists, myid() == 0 ? 1 : -1);
  EXPECT_EQ(Look(file, "g1/g2/c", "x").exists, myid() == 0 ? 1 : -1);
  dash::Array<int> ra, rb, rc;
  dio::InputStream is(file);
  is >> dio::dataset("a") >> ra >> dio::dataset("g1/b") >> rb >> dio::dataset("g1/g2/c") >> rc;
  ExpectValues(ra, 0);
  ExpectValues(rb, 1);
  ExpectValues(rc, 0);
  dio::StoreHDF::write(b, file, "only");  // overwrite_file: a new file
  EXPECT_EQ(Look(file, "a", "x").exists, myid() == 0 ? 0 : -1);
  EXPECT_EQ(Look(file, "only", "x").exists, myid() == 0 ? 1 : -1);
}

TEST(Hdf5Store, ExistingDatasetRefusedUnlessModified) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("d.h5");
  dash::Matrix<double, 2> m(7, 5), other(7, 5), wider(7, 6);
  Fill(m, 0);
  Fill(other, 1);
  dio::StoreHDF::write(m, file, "m");
  dio::hdf5_options add;
  add.overwrite_file = false;
  EXPECT_THROW(dio::StoreHDF::write(other, file, "m", add), dash::exception::InvalidArgument);
  dash::Matrix<double, 2> r1;
  dio::StoreHDF::read(r1, file, "m");
  ExpectValues(r1, 0);  // nothing written
  add.modify_dataset = true;
  dio::StoreHDF::write(other, file, "m", add);
  dash::Matrix<double, 2> r2;
  dio::StoreHDF::read(r2, file, "m");
  ExpectValues(r2, 1);
  EXPECT_THROW(dio::StoreHDF::write(wider, file, "m", add), dash::exception::InvalidArgument);
  dash::Array<int> ints(35);
  EXPECT_THROW(dio::StoreHDF::write(ints, file, "m", add), dash::exception::InvalidArgument);
  dio::StoreHDF::write(m, file, "new", add);  // modify_dataset on a missing dataset creates it
  {
    dio::OutputStream os(file, dio::DeviceMode::app);
    os << dio::dataset("m") << dio::modify_dataset() << m;
  }
  dash::Matrix<double, 2> r3;
  dio::InputStream(file) >> dio::dataset("m") >> r3;
  ExpectValues(r3, 0);
}

struct Pair {
  double a;
  int b;
};

TEST(Hdf5Store, CompoundTypeThroughConverter) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("c.h5");
  auto compound = [] {
    const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(Pair));
    H5Tinsert(t, "a_name", HOFFSET(Pair, a), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "b_name", HOFFSET(Pair, b), H5T_NATIVE_INT);
    return t;
  };
  const long n = 3 * long(nunits()) + 1;
  dash::Array<Pair> a(n);
  for (auto it = a.lbegin(); it != a.lend(); ++it) {
    const long g = a.pattern().global(long(it - a.lbegin()));
    *it = Pair{g * 0.5, int(g) - 4};
  }
  a.barrier();
  dio::OutputStream(file) << dio::dataset("pairs") << dio::type_converter(compound) << a;
  dash::Team::All().barrier();
  if (myid() == 0) {  // member b alone, read by serial HDF5
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, "pairs", H5P_DEFAULT);
    const hid_t only_b = H5Tcreate(H5T_COMPOUND, sizeof(int));
    H5Tinsert(only_b, "b_name", 0, H5T_NATIVE_INT);
    std::vector<int> bs(std::size_t(n), -99);
    EXPECT_GE(H5Dread(d, only_b, H5S_ALL, H5S_ALL, H5P_DEFAULT, bs.data()), 0);
    for (long g = 0; g < n; ++g) EXPECT_EQ(bs[std::size_t(g)], int(g) - 4) << g;
    H5Tclose(only_b);
    H5Dclose(d);
    H5Fclose(f);
  }
  dash::Array<Pair> b(n, dash::CYCLIC);
  dio::InputStream(file) >> dio::dataset("pairs") >> dio::type_converter(compound) >> b;
  for (auto it = b.lbegin(); it != b.lend(); ++it) {
    const long g = b.pattern().global(long(it - b.lbegin()));
    EXPECT_EQ(it->a, g * 0.5);
    EXPECT_EQ(it->b, int(g) - 4);
  }
}

TEST(Hdf5Store, AsyncPolicyWritesBeforeFlushReturns) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("async.h5");
  dash::Array<double> a(40);
  Fill(a, 3);
  dio::OutputStream os(dash::launch::async, file);
  os << dio::dataset("x") << a;
  os.flush();
  dash::Array<double> b;
  dio::InputStream is(dash::launch::async, file);
  is >> dio::dataset("x") >> b;
  is.flush();
  ExpectValues(b, 3);
}

TEST(Hdf5Store, SymlinkTargetRefusedOnEveryUnit_TargetUntouched) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string victim = dir.file("victim.txt"), link = dir.file("link.h5");
  if (myid() == 0) {
    std::ofstream(victim) << "keep me\n";
    ASSERT_EQ(symlink(victim.c_str(), link.c_str()), 0);
  }
  dash::Team::All().barrier();
  dash::Array<int> a(20);
  Fill(a);
  EXPECT_THROW(dio::StoreHDF::write(a, link, "x"), dash::exception::RuntimeError);
  dio::hdf5_options add;
  add.overwrite_file = false;
  EXPECT_THROW(dio::StoreHDF::write(a, link, "x", add), dash::exception::RuntimeError);
  EXPECT_THROW(dio::OutputStream(link, dio::DeviceMode::app) << a, dash::exception::RuntimeError);
  EXPECT_THROW(dash::io::hdf5::save(a, link, "x"), dash::exception::RuntimeError);
  dash::Team::All().barrier();
  if (myid() == 0) {
    std::ifstream in(victim);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "keep me\n");
  }
}

TEST(Hdf5Store, BadInput_ThrowsEverywhere) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.file("bad.h5");
  dash::Array<double> a(30);
  Fill(a);
  dio::StoreHDF::write(a, file, "a");
  dash::Array<double> b;
  EXPECT_THROW(dio::StoreHDF::read(b, file, "missing"), dash::exception::RuntimeError);
  EXPECT_THROW(dio::StoreHDF::read(b, dir.file("none.h5"), "a"), dash::exception::RuntimeError);
  dash::Matrix<double, 2> m;  // a 1-D dataset into an empty 2-D matrix
  EXPECT_THROW(dio::StoreHDF::read(m, file, "a"), dash::exception::InvalidArgument);
  dash::Array<int> ints;
  EXPECT_THROW(dio::StoreHDF::read(ints, file, "a"), dash::exception::InvalidArgument);
  auto no_type = [] { return hid_t(-1); };
  dash::Array<double> c(30);
  EXPECT_THROW(dio::StoreHDF::read(c, file, "a", dio::hdf5_options(), no_type),
               dash::exception::InvalidArgument);
}

}  // namespace
