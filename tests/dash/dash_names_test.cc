// DASH's names for programs written for DASH, compiled as DASH's default build has them
// (assertions and debug logging off; dash_names_checked_test.cc has them on):
// DASH_THROW, DASH_ASSERT..., DASH_LOG_..., dash__toxstr/dash__unused, DASH_MPI_IMPL_ID,
// dash__print_stacktrace, TeamSpec::num_units(d), x/y/z and at(x, y), Team::GlobalUnitID(). Every
// unit checks.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/Version.h>
#include <dash/internal/Logging.h>
#include <dash/internal/Macro.h>
#include <dash/internal/StackTrace.h>
#include <dash/pattern/TeamSpec.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

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
  std::ostringstream out;
  std::streambuf* old = std::clog.rdbuf(out.rdbuf());
  log();
  std::clog.rdbuf(old);
  return out.str();
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
  const int x = 5;
  const std::string var = captured_clog([&] { DASH_LOG_WARN_VAR("ctx", x); });
  EXPECT_NE(var.find(" WARN ] "), std::string::npos) << var;
  EXPECT_NE(var.find("| ctx | x: 5\n"), std::string::npos) << var;
  dash::internal::logging::disable_log();
  EXPECT_EQ(captured_clog([&] { DASH_LOG_ERROR("dash_names", "value"); }), "");
  dash::internal::logging::enable_log();
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

TEST(DashNames, GlobalUnitIdIsMyId) {
  EXPECT_EQ(dash::Team::GlobalUnitID(), dash::myid());
  EXPECT_EQ(int(dash::Team::GlobalUnitID()), myid());
}

}  // namespace
