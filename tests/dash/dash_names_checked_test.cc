// DASH's assertion and log macros as a DASH build with ENABLE_ASSERTIONS and ENABLE_LOGGING has
// them: the program defines DASH_ENABLE_ASSERTIONS / DASH_ENABLE_LOGGING before its first dash
// header. Part of the dash_names suite (dash_names_test.cc has the default build).
#define DASH_ENABLE_ASSERTIONS
#define DASH_ENABLE_LOGGING

#include <dash/Exception.h>
#include <dash/internal/Logging.h>
#include <dash/pattern/TilePattern.h>
#include <dash/pattern/internal/PatternLogging.h>
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>

#include "captured_stream.h"
#include "mpi_test.h"

namespace {

using dash_test::myid;

// What `log` writes to std::clog.
template <class Log>
std::string captured_clog(Log log) {
  return dash_test::captured(std::clog, log);
}

int returns_four() { return 4; }

// The message of the exception `check` throws, or "" (and a failure) if it throws none.
template <class Exception, class Check>
std::string thrown(Check check) {
  try {
    check();
  } catch (const Exception& e) {
    return e.what();
  }
  ADD_FAILURE() << "nothing thrown";
  return "";
}

TEST(DashNamesChecked, AssertThrowsAssertionFailed) {
  int evaluated = 0;
  DASH_ASSERT(++evaluated == 1);
  EXPECT_EQ(evaluated, 1);
  const std::string what =
      thrown<dash::exception::AssertionFailed>([] { DASH_ASSERT(returns_four() == 5); });
  EXPECT_EQ(what.rfind("[ Unit " + std::to_string(myid()) + " ] Assertion failed: ", 0), 0u)
      << what;
  EXPECT_NE(what.find("returns_four() == 5"), std::string::npos) << what;
  EXPECT_NE(what.find("dash_names_checked_test.cc:"), std::string::npos) << what;
  EXPECT_NE(thrown<dash::exception::AssertionFailed>([] {
              DASH_ASSERT_MSG(false, "the reason " << 12);
            }).find("the reason 12"),
            std::string::npos);
}

TEST(DashNamesChecked, ComparingAssertions) {
  DASH_ASSERT_RETURNS(returns_four(), 4);
  EXPECT_NE(thrown<dash::exception::AssertionFailed>([] {
              DASH_ASSERT_RETURNS(returns_four(), 3);
            }).find("did not return 3"),
            std::string::npos);
  DASH_ASSERT_EQ(2, 2, "equal");
  DASH_ASSERT_NE(2, 3, "different");
  EXPECT_NE(thrown<dash::exception::AssertionFailed>([] {
              DASH_ASSERT_EQ(2, 3, "why");
            }).find("Assertion 2 == 3 failed: why"),
            std::string::npos);
  EXPECT_THROW(DASH_ASSERT_NE(2, 2, "same"), dash::exception::AssertionFailed);
  DASH_ASSERT_RANGE(0, 3, 3, "inside");
  DASH_ASSERT_RANGE(0u, 0u, 3u, "unsigned, at the lower end");
  EXPECT_NE(thrown<dash::exception::OutOfRange>([] {
              DASH_ASSERT_RANGE(0, 4, 3, "index");
            }).find("Assertion 0 <= 4 <= 3 failed: index"),
            std::string::npos);
  EXPECT_THROW(DASH_ASSERT_RANGE(1, 0, 3, "below"), dash::exception::OutOfRange);
  DASH_ASSERT_GT(2, 1, "");
  DASH_ASSERT_GE(1, 1, "");
  DASH_ASSERT_LT(1, 2, "");
  DASH_ASSERT_LE(2, 2, "");
  EXPECT_THROW(DASH_ASSERT_GT(1, 1, ""), dash::exception::OutOfRange);
  EXPECT_THROW(DASH_ASSERT_GE(0, 1, ""), dash::exception::OutOfRange);
  EXPECT_THROW(DASH_ASSERT_LT(2, 2, ""), dash::exception::OutOfRange);
  EXPECT_THROW(DASH_ASSERT_LE(3, 2, ""), dash::exception::OutOfRange);
}

TEST(DashNamesChecked, DebugLogPrintsTraceDoesNot) {
  const int line = __LINE__ + 1;
  const std::string debug = captured_clog([] { DASH_LOG_DEBUG("ctx", 1, "two", 3.5); });
  EXPECT_EQ(debug, "[ unit " + std::to_string(myid()) + " DEBUG ] dash_names_checked_test.cc:" +
                       std::to_string(line) + " | ctx | 1 two 3.5\n");
  const int value = 17;
  const std::string var = captured_clog([&] { DASH_LOG_DEBUG_VAR("ctx", value); });
  EXPECT_NE(var.find("| ctx | value: 17\n"), std::string::npos) << var;
  EXPECT_EQ(captured_clog([] { DASH_LOG_DEBUG("only a context"); }).find("| only a context |\n") ==
                std::string::npos,
            false);
  EXPECT_EQ(captured_clog([] { DASH_LOG_TRACE("ctx", 1); }), "");  // trace needs its own switch
  dash::internal::logging::disable_log();
  EXPECT_EQ(captured_clog([] { DASH_LOG_DEBUG("ctx", 1); }), "");
  dash::internal::logging::enable_log();
}

// print_pattern_mapping writes the callback's table to the debug log, block borders drawn.
TEST(DashNamesChecked, PatternMappingIsLogged) {
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
  EXPECT_EQ(calls, 20);
  // Row 3: columns 0-2 (a block), then 3-4, each field 4 wide.
  EXPECT_NE(log.find("|  30  31  32 |  33  34 |"), std::string::npos) << log;
  EXPECT_NE(log.find(" " + std::string(5 * 4 + 2 * 2 - 1, '-')), std::string::npos) << log;
}

}  // namespace
