// DASH's names for programs written for DASH, compiled as DASH's default build has them
// (assertions and debug logging off; dash_names_checked_test.cc has them on):
// DASH_THROW, DASH_ASSERT..., DASH_LOG_..., dash__toxstr/dash__unused, DASH_MPI_IMPL_ID,
// dash__print_stacktrace, TeamSpec::num_units(d), x/y/z and at(x, y), Team::GlobalUnitID(),
// dash::typestr, std::array and std::vector written to streams, print_pattern_mapping (silent
// without logging). Every unit checks.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/Version.h>
#include <dash/algorithm/Operation.h>
#include <dash/internal/Config.h>
#include <dash/internal/DartType.h>
#include <dash/internal/Logging.h>
#include <dash/internal/Macro.h>
#include <dash/internal/Math.h>
#include <dash/internal/StackTrace.h>
#include <dash/internal/StreamConversion.h>
#include <dash/meta/TypeInfo.h>
#include <dash/pattern/BlockPattern.h>
#include <dash/pattern/SeqTilePattern.h>
#include <dash/pattern/TeamSpec.h>
#include <dash/pattern/TilePattern.h>
#include <dash/pattern/internal/PatternLogging.h>
#include <dash/util/Locality.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "captured_stream.h"
#include "mpi_test.h"

#if defined(DASH_ENABLE_ASSERTIONS) || defined(DASH_ENABLE_LOGGING)
#error "this file checks the default build: assertions and debug logging off"
#endif

namespace {

using dash_test::myid;
using dash_test::nunits;

// What `log` writes to std::clog.
template <class Log>
std::string captured_clog(Log log) {
  return dash_test::captured(std::clog, log);
}

int returns_four() { return 4; }

TEST(DashNames, ThrowPrefixesTheUnit) {
  try {
    DASH_THROW(dash::exception::InvalidArgument, "bad value " << 3 << " of " << 7);
    ADD_FAILURE() << "DASH_THROW did not throw";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "[ Unit " + std::to_string(myid()) + " ] bad value 3 of 7");
  }
  EXPECT_THROW(DASH_THROW(dash::exception::RuntimeError, "x"), dash::exception::RuntimeError);
  EXPECT_THROW(DASH_THROW(dash::exception::OutOfRange, "x"), std::out_of_range);
  EXPECT_THROW(DASH_THROW(dash::exception::NotImplemented, "x"), std::runtime_error);
}

TEST(DashNames, AssertionsAreOffByDefault) {
  int evaluated = 0;
  DASH_ASSERT(false);
  DASH_ASSERT(++evaluated > 100);  // compiled, not evaluated
  DASH_ASSERT_MSG(++evaluated > 100, "message " << evaluated);
  EXPECT_EQ(evaluated, 0);
  DASH_ASSERT_RETURNS(++evaluated, 5);  // the expression always runs
  EXPECT_EQ(evaluated, 1);
  DASH_ASSERT_RETURNS(returns_four(), 3);
  DASH_ASSERT_EQ(1, 2, "off");
  DASH_ASSERT_NE(1, 1, "off");
  DASH_ASSERT_RANGE(0, ++evaluated, -1, "operands evaluated once");
  EXPECT_EQ(evaluated, 2);
  DASH_ASSERT_GT(1, 2, "off");
  DASH_ASSERT_GE(1, 2, "off");
  DASH_ASSERT_LT(2, 1, "off");
  DASH_ASSERT_LE(2, 1, "off");
}

TEST(DashNames, AlwaysAssertionsCheck) {
  DASH_ASSERT_ALWAYS(1 + 1 == 2);
  try {
    DASH_ASSERT_ALWAYS(nunits() < 0);
    ADD_FAILURE() << "DASH_ASSERT_ALWAYS(false) did not throw";
  } catch (const dash::exception::AssertionFailed& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("[ Unit " + std::to_string(myid()) + " ] Assertion failed: ", 0), 0u)
        << what;
    EXPECT_NE(what.find("nunits() < 0"), std::string::npos) << what;
    EXPECT_NE(what.find("dash_names_test.cc:"), std::string::npos) << what;
  }
  EXPECT_THROW(DASH_ASSERT_MSG_ALWAYS(false, "why " << 1), dash::exception::AssertionFailed);
}

TEST(DashNames, DebugLoggingIsOffErrorsAndWarningsPrint) {
  int evaluated = 0;
  const std::string quiet = captured_clog([&] {
    DASH_LOG_DEBUG("context", ++evaluated);
    DASH_LOG_TRACE("context", ++evaluated);
    DASH_LOG_DEBUG_VAR("context", evaluated);
    DASH_LOG_TRACE_VAR("context", evaluated);
  });
  EXPECT_EQ(quiet, "");
  EXPECT_EQ(evaluated, 0);
  const int line = __LINE__ + 1;
  const std::string loud = captured_clog([&] { DASH_LOG_ERROR("dash_names", "value", 42); });
  EXPECT_EQ(loud, "[ unit " + std::to_string(myid()) + " ERROR ] dash_names_test.cc:" +
                      std::to_string(line) + " | dash_names | value 42\n");
  const std::vector<unsigned long> sizes = {3, 0, 5};
  const std::string range = captured_clog([&] { DASH_LOG_ERROR("ctx", "sizes:", sizes); });
  EXPECT_NE(range.find("| ctx | sizes: [3, 0, 5]\n"), std::string::npos) << range;
  const int x = 5;
  const std::string var = captured_clog([&] { DASH_LOG_WARN_VAR("ctx", x); });
  EXPECT_NE(var.find(" WARN ] "), std::string::npos) << var;
  EXPECT_NE(var.find("| ctx | x: 5\n"), std::string::npos) << var;
  dash::internal::logging::disable_log();
  EXPECT_EQ(captured_clog([&] { DASH_LOG_ERROR("dash_names", "value"); }), "");
  dash::internal::logging::enable_log();
}

static_assert(dash::dart_datatype<float>::value == DART_TYPE_FLOAT, "");
static_assert(dash::plus<int>().dart_operation() == DART_OP_SUM, "");
static_assert(dash::max<double>::dart_operation() == DART_OP_MAX, "");
static_assert(dash::dart_datatype<const int>::value == DART_TYPE_INT, "");
static_assert(dash::dart_datatype<unsigned long>::value == DART_TYPE_ULONG, "");
static_assert(dash::dart_datatype<std::string>::value == DART_TYPE_UNDEFINED, "");

TEST(DashNames, MathHelpers) {
  EXPECT_EQ(dash::math::div_ceil(10, 3), 4);
  EXPECT_EQ(dash::math::div_ceil(9, 3), 3);
  EXPECT_EQ(dash::math::div_ceil(0, 7), 0);
  EXPECT_EQ(dash::math::div_ceil(std::size_t(10), 4), std::size_t(3));
  EXPECT_EQ(dash::math::max(3, 1), 3);
  EXPECT_EQ(dash::math::min(3, 1), 1);
  EXPECT_EQ(dash::math::NextPowerOf2(5u), 8u);
  EXPECT_EQ(dash::math::NextPowerOf2(8u), 8u);
  std::vector<double> w = {1, 2, 3, 6};
  dash::math::div_mean(w.begin(), w.end());
  EXPECT_DOUBLE_EQ(w[0], 1.0 / 3);
  EXPECT_DOUBLE_EQ(w[3], 2.0);
  std::vector<int> v = {2, 4, 4, 4, 5, 5, 7, 9};  // mean 5, population deviation 2
  EXPECT_DOUBLE_EQ(dash::math::sigma(v.begin(), v.end()), 2.0);
  EXPECT_EQ(dash::math::sigma(v.begin(), v.begin()), 0.0);
  auto f = dash::math::factorize(2L * 2 * 2 * 7 * 7 * 13);
  EXPECT_EQ(f.size(), 3u);
  EXPECT_EQ(f[2], 3u);
  EXPECT_EQ(f[7], 2u);
  EXPECT_EQ(f[13], 1u);
  EXPECT_TRUE(dash::math::factorize(1).empty());
  EXPECT_EQ(dash::math::factors(60), (std::set<int>{2, 3, 5}));
  EXPECT_THROW(dash::math::factorize(0), dash::exception::InvalidArgument);
  double lo = 1, hi = 0;
  for (int i = 0; i < 1000; ++i) {
    const double r = dash::math::drand();
    lo = std::min(lo, r);
    hi = std::max(hi, r);
  }
  EXPECT_GE(lo, 0.0);
  EXPECT_LT(hi, 1.0);
  EXPECT_LT(lo, 0.1);  // 1000 draws spread over [0, 1)
  EXPECT_GT(hi, 0.9);
}

TEST(DashNames, LocalityNumNodes) {
  EXPECT_EQ(dash::util::Locality::NumNodes(), int(dash::util::Locality().num_nodes()));
  EXPECT_GE(dash::util::Locality::NumNodes(), 1);
}

TEST(DashNames, MacroHelpers) {
  EXPECT_STREQ(dash__tostr(DASH_MPI_IMPL_ID), "DASH_MPI_IMPL_ID");
  const std::string mpi = dash__toxstr(DASH_MPI_IMPL_ID);
  EXPECT_TRUE(mpi == "openmpi" || mpi == "mpich") << mpi;
  int unused_otherwise = myid();
  dash__unused(unused_otherwise);
}

TEST(DashNames, StackTraceListsFrames) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  dash__print_stacktrace(out);
  std::rewind(out);
  char line[4096];
  int frames = 0;
  while (std::fgets(line, sizeof line, out) != nullptr)
    if (line[0] == '#') ++frames;
  std::fclose(out);
  EXPECT_GE(frames, 2);             // this test and GoogleTest's caller at least
  dash__print_stacktrace(nullptr);  // nowhere to write: nothing happens
}

TEST(DashNames, TeamSpecUnitsPerDimension) {
  dash::TeamSpec<2> grid(2, 3);
  EXPECT_EQ(grid.num_units(0), 2u);
  EXPECT_EQ(grid.num_units(1), 3u);
  EXPECT_EQ(grid.num_units(), 6u);
  dash::TeamSpec<3> all(dash::Team::All());  // DASH's default: every unit in dimension 0
  EXPECT_EQ(all.num_units(0), std::size_t(nunits()));
  EXPECT_EQ(all.num_units(1), 1u);
  EXPECT_EQ(all.num_units(2), 1u);
  all.balance_extents();
  EXPECT_EQ(all.num_units(0) * all.num_units(1) * all.num_units(2), std::size_t(nunits()));
  for (dash::dim_t d = 0; d < 3; ++d) EXPECT_EQ(all.num_units(d), all.extent(d));
  // x, y, z: a unit's grid coordinates (row-major: unit 5 of 2 x 3 is at (1, 2))
  EXPECT_EQ(grid.x(5), 1u);
  EXPECT_EQ(grid.y(5), 2u);
  EXPECT_EQ(grid.x(2), 0u);
  EXPECT_EQ(grid.y(2), 2u);
  EXPECT_EQ(grid.at(1, 2), 5);
  EXPECT_EQ(grid.at(0u, 1ul), 1);
  for (int u = 0; u < nunits(); ++u) {
    const auto c = all.coords(u);
    EXPECT_EQ(all.x(u), std::size_t(c[0]));
    EXPECT_EQ(all.y(u), std::size_t(c[1]));
    EXPECT_EQ(all.z(u), std::size_t(c[2]));
  }
}

// The smaller names DASH's own unit tests use: ranks (an index space's is its dimension count,
// a grid's the dimensions with more than one unit, at least 1), coordinates of an index in a
// rectangle, the owner of a rectangle's element, a dealt-tile pattern's local tile shape,
// local_coords_t, DASH's configuration record and macros, is_multithreaded.
TEST(DashNames, NamesOfDashsUnitTests) {
  EXPECT_EQ(dash::CartesianIndexSpace<4>().rank(), 4);
  EXPECT_EQ(dash::SizeSpec<2>(5, 1).rank(), 2);
  EXPECT_EQ(dash::TeamSpec<2>(1, 1).rank(), 1);
  EXPECT_EQ(dash::TeamSpec<3>(1, 4, 2).rank(), 2);
  dash::CartesianIndexSpace<2> space(10, 10);
  const dash::ViewSpec<2> rect({2, 3}, {4, 5});
  EXPECT_EQ(space.coords(7, rect), (std::array<long, 2>{3, 5}));  // 7 = 1 * 5 + 2 in 4 x 5
  dash::CartesianIndexSpace<2, dash::COL_MAJOR> by_cols(10, 10);
  EXPECT_EQ(by_cols.coords(7, rect), (std::array<long, 2>{5, 4}));  // 7 = 1 * 4 + 3
  const long n = nunits();
  dash::TilePattern<2> tiles(4, 6 * n, dash::TILE(2), dash::TILE(3), dash::TeamSpec<2>(1, n));
  for (long b = 0; b < 2 * n; ++b) {
    const auto block = tiles.block(b);
    EXPECT_EQ(tiles.unit_at(std::array<long, 2>{1, 2}, block),
              tiles.unit_at(std::array<long, 2>{block.offset(0) + 1, block.offset(1) + 2}));
  }
  dash::TilePattern<2>::local_coords_t l = tiles.local(std::array<long, 2>{3, 4});
  EXPECT_EQ(l.unit, tiles.unit_at(std::array<long, 2>{3, 4}));
  dash::SeqTilePattern<2> seq(dash::SizeSpec<2>(6, 6 * n),
                              dash::DistributionSpec<2>(dash::TILE(3), dash::TILE(3)));
  for (long u = 0; u < n; ++u) {
    const dash::team_unit_t unit(static_cast<dart_unit_t>(u));
    EXPECT_EQ(seq.local_blockspec(unit).extent(0), seq.local_nblocks(unit));
    EXPECT_EQ(seq.local_blockspec(unit).size(), seq.local_nblocks(unit));
  }
  EXPECT_EQ(tiles.underfilled_blocksize(0), 0u);
  dash::BlockPattern<1> cyclic3(dash::SizeSpec<1>(10),
                                dash::DistributionSpec<1>(dash::BLOCKCYCLIC(3)));
  EXPECT_EQ(cyclic3.underfilled_blocksize(0), 2u);  // the last block holds 1 of 3
  EXPECT_TRUE(dash::util::DashConfig.avail_algo_summa);
  EXPECT_FALSE(dash::util::DashConfig.avail_mkl);
  EXPECT_EQ(dash::math::div_ceil(7, 2), 4);  // through the pattern headers, as DASH's
  const std::string compiler = DASH_COMPILER_ID;
  EXPECT_TRUE(compiler.rfind("gcc-", 0) == 0 || compiler.rfind("clang-", 0) == 0) << compiler;
#if !defined(DASH__ARCH__ARCH_64) || !defined(DASH__PLATFORM__LINUX)
  ADD_FAILURE() << "DASH__ARCH__ARCH_64 and DASH__PLATFORM__LINUX are defined on this machine";
#endif
  EXPECT_FALSE(dash::is_multithreaded());  // the suite's main uses dash::init
}

TEST(DashNames, GlobalUnitIdIsMyId) {
  EXPECT_EQ(dash::Team::GlobalUnitID(), dash::myid());
  EXPECT_EQ(int(dash::Team::GlobalUnitID()), myid());
}

TEST(DashNames, TypestrNamesTypesReadably) {
  EXPECT_EQ(dash::typestr(42), "int");
  EXPECT_EQ(dash::typestr<std::vector<double>>().rfind("std::vector<double", 0), 0u);
  dash::TilePattern<2> p(dash::SizeSpec<2>(4, 4),
                         dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(2)));
  const std::string name = dash::typestr(p);
  EXPECT_EQ(name.rfind("dash::TilePattern<2", 0), 0u) << name;
}

TEST(DashNames, ArraysAndVectorsPrintAsDash) {
  using namespace dash;  // as DASH's examples
  std::ostringstream os;
  os << std::array<long, 2>{24, 32} << "; " << std::vector<int>{1, 2, 3} << "; "
     << std::vector<int>{};
  EXPECT_EQ(os.str(), "long { 24 32 }; int { 1 2 3 }; int { }");
}

TEST(DashNames, PatternMappingIsSilentWithoutLogging) {
  dash::TilePattern<2> p(dash::SizeSpec<2>(4, 5),
                         dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(3)));
  int calls = 0;
  const std::string log = captured_clog([&] {
    dash::internal::print_pattern_mapping("ids", p, 3,
                                          [&](const dash::TilePattern<2>&, int r, int c) {
                                            ++calls;
                                            return 10 * r + c;
                                          });
  });
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(log, "");
}

}  // namespace
