// DASH's benchmark utilities: dash::util::Timer (both sources, the clock choice, the unit
// conversions), dash::util::Config (types, unset keys, boolean words, _SIZE keys, the
// environment, logging switch) and dash::util::BenchmarkParams (what unit 0 prints, that the
// others print nothing, the settings it reads). Every unit checks its own values.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Version.h>
#include <dash/internal/Logging.h>
#include <dash/internal/Macro.h>
#include <dash/util/BenchmarkParams.h>
#include <dash/util/Config.h>
#include <dash/util/Timer.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "captured_stream.h"
#include "mpi_test.h"
#include "scoped_env.h"

namespace {

using dash_test::myid;
using dash_test::nunits;
using ClockTimer = dash::util::Timer<dash::util::TimeMeasure::Clock>;
using CounterTimer = dash::util::Timer<dash::util::TimeMeasure::Counter>;

// ---------------------------------------------------------------------------------------------
// Timer

TEST(Timer, ClockElapsedFollowsASleep) {
  ClockTimer::Calibrate(0);
  ClockTimer timer;
  const auto start = ClockTimer::Now();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double elapsed = timer.Elapsed();  // microseconds
  EXPECT_GE(elapsed, 20000.0);
  EXPECT_LT(elapsed, 20000.0 + 5e6);  // a loaded machine may stall us, not for seconds
  EXPECT_GE(ClockTimer::ElapsedSince(start), 20000.0);
  EXPECT_LE(timer.Start(), start);
  const auto end = ClockTimer::Now();
  EXPECT_DOUBLE_EQ(ClockTimer::FromInterval(start, end), double(end - start) / 1000.0);
  EXPECT_DOUBLE_EQ(ClockTimer::FromInterval(end, start), -double(end - start) / 1000.0);
  EXPECT_DOUBLE_EQ(ClockTimer::FromInterval(1000.0, 6000.0), 5.0);
  EXPECT_DOUBLE_EQ(ClockTimer::FrequencyScaling(), 1000.0);  // ns ticks
}

TEST(Timer, CounterAgreesWithTheClock) {
  CounterTimer::Calibrate();
  EXPECT_GT(CounterTimer::FrequencyScaling(), 0.0);
  ClockTimer clock;
  CounterTimer counter;
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const double by_counter = counter.Elapsed();
  const double by_clock = clock.Elapsed();
  EXPECT_GE(by_counter, 0.5 * by_clock) << CounterTimer::TimerName();
  EXPECT_LE(by_counter, 2.0 * by_clock) << CounterTimer::TimerName();
  EXPECT_FALSE(std::string(CounterTimer::TimerName()).empty());
}

TEST(Timer, CalibrateSelectsTheClock) {
  EXPECT_STREQ(ClockTimer::TimerName(), "CLOCK_MONOTONIC");
  ClockTimer::Calibrate(2);
  EXPECT_STREQ(ClockTimer::TimerName(), "CLOCK_REALTIME");
  const auto a = ClockTimer::Now();
  EXPECT_GT(a, 1500000000ull * 1000000000ull);  // realtime: nanoseconds since 1970, past 2017
  ClockTimer::Calibrate(3);
  EXPECT_STREQ(ClockTimer::TimerName(), "CLOCK_PROCESS_CPUTIME_ID");
  try {
    ClockTimer::Calibrate(99);
    ADD_FAILURE() << "Calibrate(99) did not throw";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("mode 99"), std::string::npos) << e.what();
  }
  EXPECT_STREQ(ClockTimer::TimerName(), "CLOCK_PROCESS_CPUTIME_ID");  // unchanged
  ClockTimer::Calibrate();
  EXPECT_STREQ(ClockTimer::TimerName(), "CLOCK_MONOTONIC");
}

TEST(Timer, TimestampsOrderAndBound) {
  auto previous = ClockTimer::Now();
  for (int i = 0; i < 1000; ++i) {
    const auto now = ClockTimer::Now();
    EXPECT_GE(now, previous);
    previous = now;
  }
  EXPECT_LT(ClockTimer::TimestampNegInfinity(), previous);
  EXPECT_GT(ClockTimer::TimestampInfinity(), previous);
  EXPECT_GT(CounterTimer::TimestampInfinity(), CounterTimer::Now());
  // the min/max fold DASH's benchmarks write
  auto lowest = ClockTimer::TimestampInfinity();
  for (auto ts : {previous + 5, previous, previous + 9}) lowest = std::min(lowest, ts);
  EXPECT_EQ(lowest, previous);
}

// ---------------------------------------------------------------------------------------------
// Config

using dash::util::Config;

TEST(Config, SetAndGetEachType) {
  Config::set("DASH_TEST_CONFIG_INT", 42 + myid());
  EXPECT_TRUE(Config::is_set("DASH_TEST_CONFIG_INT"));
  EXPECT_EQ(Config::get<int>("DASH_TEST_CONFIG_INT"), 42 + myid());
  EXPECT_EQ(Config::get<std::size_t>("DASH_TEST_CONFIG_INT"), std::size_t(42 + myid()));
  EXPECT_DOUBLE_EQ(Config::get<double>("DASH_TEST_CONFIG_INT"), 42.0 + myid());
  EXPECT_EQ(Config::get<std::string>("DASH_TEST_CONFIG_INT"), std::to_string(42 + myid()));
  Config::set("DASH_TEST_CONFIG_REAL", 2.5);
  EXPECT_DOUBLE_EQ(Config::get<double>("DASH_TEST_CONFIG_REAL"), 2.5);
  EXPECT_DOUBLE_EQ(Config::get<float>("DASH_TEST_CONFIG_REAL"), 2.5f);
  Config::set("DASH_TEST_CONFIG_REAL", 0.1);  // shortest text that reads back the same
  EXPECT_EQ(Config::get<double>("DASH_TEST_CONFIG_REAL"), 0.1);
  Config::set("DASH_TEST_CONFIG_TEXT", "hello");
  EXPECT_EQ(Config::get<std::string>("DASH_TEST_CONFIG_TEXT"), "hello");
  Config::set("DASH_TEST_CONFIG_NEGATIVE", -7);
  EXPECT_EQ(Config::get<long>("DASH_TEST_CONFIG_NEGATIVE"), -7);
}

TEST(Config, ValuesThatAreNotTheTypeThrow) {
  Config::set("DASH_TEST_CONFIG_TEXT", "hello");
  try {
    Config::get<int>("DASH_TEST_CONFIG_TEXT");
    ADD_FAILURE() << "get<int> of 'hello' did not throw";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("DASH_TEST_CONFIG_TEXT = 'hello'"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(Config::get<double>("DASH_TEST_CONFIG_TEXT"), dash::exception::InvalidArgument);
  EXPECT_THROW(Config::get<bool>("DASH_TEST_CONFIG_TEXT"), dash::exception::InvalidArgument);
  Config::set("DASH_TEST_CONFIG_PARTLY", "12abc");
  EXPECT_THROW(Config::get<int>("DASH_TEST_CONFIG_PARTLY"), dash::exception::InvalidArgument);
  Config::set("DASH_TEST_CONFIG_NEGATIVE", -7);
  EXPECT_THROW(Config::get<unsigned>("DASH_TEST_CONFIG_NEGATIVE"),
               dash::exception::InvalidArgument);
}

TEST(Config, UnsetKeysGiveTheTypesDefault) {
  EXPECT_FALSE(Config::is_set("DASH_TEST_CONFIG_NEVER_SET"));
  EXPECT_EQ(Config::get<int>("DASH_TEST_CONFIG_NEVER_SET"), 0);
  EXPECT_EQ(Config::get<double>("DASH_TEST_CONFIG_NEVER_SET"), 0.0);
  EXPECT_FALSE(Config::get<bool>("DASH_TEST_CONFIG_NEVER_SET"));
  EXPECT_EQ(Config::get<std::string>("DASH_TEST_CONFIG_NEVER_SET"), "");
  EXPECT_FALSE(Config::is_set("DASH_TEST_CONFIG_NEVER_SET"));  // reading adds nothing
}

TEST(Config, BooleanWordsSetTheBoolKey) {
  for (const char* word : {"true", "TRUE", "yes", "Yes", "on", "t", "Y"}) {
    Config::set("DASH_TEST_CONFIG_FLAG", word);
    EXPECT_TRUE(Config::get<bool>("DASH_TEST_CONFIG_FLAG")) << word;
    EXPECT_EQ(Config::get<std::string>("DASH_TEST_CONFIG_FLAG_BOOL"), "1") << word;
    EXPECT_EQ(Config::get<std::string>("DASH_TEST_CONFIG_FLAG"), word);  // kept as given
  }
  for (const char* word : {"false", "No", "OFF", "f", "n"}) {
    Config::set("DASH_TEST_CONFIG_FLAG", word);
    EXPECT_FALSE(Config::get<bool>("DASH_TEST_CONFIG_FLAG")) << word;
    EXPECT_EQ(Config::get<std::string>("DASH_TEST_CONFIG_FLAG_BOOL"), "0") << word;
  }
  // the digits read as they are and leave no _BOOL key of their own
  Config::set("DASH_TEST_CONFIG_DIGIT", true);
  EXPECT_EQ(Config::get<std::string>("DASH_TEST_CONFIG_DIGIT"), "1");
  EXPECT_TRUE(Config::get<bool>("DASH_TEST_CONFIG_DIGIT"));
  Config::set("DASH_TEST_CONFIG_DIGIT", 0);
  EXPECT_FALSE(Config::get<bool>("DASH_TEST_CONFIG_DIGIT"));
  EXPECT_FALSE(Config::is_set("DASH_TEST_CONFIG_DIGIT_BOOL"));
  Config::set("DASH_TEST_CONFIG_FLAG", "yes");
  Config::set("DASH_TEST_CONFIG_FLAG", "2");  // not a word: the earlier _BOOL goes
  EXPECT_FALSE(Config::is_set("DASH_TEST_CONFIG_FLAG_BOOL"));
  EXPECT_THROW(Config::get<bool>("DASH_TEST_CONFIG_FLAG"), dash::exception::InvalidArgument);
}

TEST(Config, SizeKeysGetTheirBytes) {
  struct Case {
    const char* value;
    std::size_t bytes;
  };
  for (Case c : {Case{"512", 512}, Case{"4K", 4096}, Case{"4M", std::size_t(4) << 20},
                 Case{"64KiB", 65536}, Case{"2mb", std::size_t(2) << 20},
                 Case{"1G", std::size_t(1) << 30}, Case{"1T", std::size_t(1) << 40}}) {
    Config::set("DASH_TEST_CONFIG_CHUNK_SIZE", c.value);
    EXPECT_EQ(Config::get<std::size_t>("DASH_TEST_CONFIG_CHUNK_SIZE_BYTES"), c.bytes) << c.value;
    EXPECT_EQ(Config::get<std::string>("DASH_TEST_CONFIG_CHUNK_SIZE"), c.value);
  }
  for (const char* bad : {"4X", "", "M", "-4K", "4 K", "99999999999999999999T"}) {
    EXPECT_THROW(Config::set("DASH_TEST_CONFIG_CHUNK_SIZE", bad), dash::exception::InvalidArgument)
        << "'" << bad << "'";
    EXPECT_EQ(Config::get<std::string>("DASH_TEST_CONFIG_CHUNK_SIZE"), "1T");  // unchanged
  }
}

TEST(Config, ReadsTheDashEnvironment) {
  {
    dash_test::ScopedEnv number("DASH_TEST_CONFIG_FROM_ENV", std::to_string(100 + myid()));
    dash_test::ScopedEnv size("DASH_TEST_CONFIG_ENV_SIZE", "3K");
    dash_test::ScopedEnv other("NOT_DASH_TEST_CONFIG", "1");
    Config::set("DASH_TEST_CONFIG_BEFORE_INIT", 1);
    Config::init();
    EXPECT_EQ(Config::get<int>("DASH_TEST_CONFIG_FROM_ENV"), 100 + myid());
    EXPECT_EQ(Config::get<int>("DASH_TEST_CONFIG_ENV_SIZE_BYTES"), 3072);
    EXPECT_FALSE(Config::is_set("NOT_DASH_TEST_CONFIG"));
    EXPECT_FALSE(Config::is_set("DASH_TEST_CONFIG_BEFORE_INIT"));  // init starts afresh
    // what the run has (the suite runs with the shared windows on)
    EXPECT_TRUE(Config::get<bool>("DASH_ENABLE_MPI_SHWIN"));
    EXPECT_TRUE(Config::get<bool>("DASH_ENABLE_HWLOC"));
    EXPECT_EQ(Config::get<std::string>("DART_MPI_IMPL"), dash__toxstr(DASH_MPI_IMPL_ID));
    {
      dash_test::ScopedEnv off("DART_SHARED_WINDOWS", "0");
      Config::init();
      EXPECT_FALSE(Config::get<bool>("DASH_ENABLE_MPI_SHWIN"));
    }
    // a malformed _SIZE variable: every use throws until it is mended
    dash_test::ScopedEnv bad("DASH_TEST_CONFIG_BAD_SIZE", "lots");
    EXPECT_THROW(Config::init(), dash::exception::InvalidArgument);
    EXPECT_THROW(Config::get<int>("DASH_TEST_CONFIG_FROM_ENV"), dash::exception::InvalidArgument);
  }
  Config::init();
  EXPECT_FALSE(Config::is_set("DASH_TEST_CONFIG_FROM_ENV"));
  EXPECT_TRUE(Config::is_set("DASH_ENABLE_MPI_SHWIN"));
}

TEST(Config, IteratesInKeyOrder) {
  Config::set("DASH_TEST_CONFIG_B", 2);
  Config::set("DASH_TEST_CONFIG_A", 1);
  std::vector<std::string> keys;
  for (auto it = Config::begin(); it != Config::end(); ++it) keys.push_back(it->first);
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  const auto a = std::find(keys.begin(), keys.end(), "DASH_TEST_CONFIG_A");
  const auto b = std::find(keys.begin(), keys.end(), "DASH_TEST_CONFIG_B");
  ASSERT_NE(a, keys.end());
  ASSERT_NE(b, keys.end());
  EXPECT_EQ(b - a, 1);
}

TEST(Config, EnableLoggingSwitchesTheLog) {
  EXPECT_TRUE(dash::internal::logging::log_enabled());
  Config::set("DASH_ENABLE_LOGGING", "off");
  EXPECT_FALSE(dash::internal::logging::log_enabled());
  Config::set("DASH_ENABLE_LOGGING", 1);
  EXPECT_TRUE(dash::internal::logging::log_enabled());
}

// ---------------------------------------------------------------------------------------------
// BenchmarkParams

// What `print` writes to std::cout.
template <class Print>
std::string captured_cout(Print print) {
  return dash_test::captured(std::cout, print);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(BenchmarkParams, UnitZeroPrintsTheHeaderAndParameters) {
  dash::util::BenchmarkParams params("bench.test.util");
  const std::string out = captured_cout([&] {
    params.print_header();
    params.print_section_start("Runtime arguments");
    params.print_param("-r", "repetitions", 100);
    params.print_param("size", 2.5);
    params.print_section_end();
  });
  if (myid() != 0) {
    EXPECT_EQ(out, "");
    return;
  }
  const auto lines = lines_of(out);
  ASSERT_GT(lines.size(), 8u);
  for (const auto& line : lines) EXPECT_EQ(line.rfind("--", 0), 0u) << line;
  auto has = [&](const std::string& start, const std::string& end) {
    for (const auto& line : lines)
      if (line.rfind("--   " + start, 0) == 0 && line.size() >= end.size() &&
          line.compare(line.size() - end.size(), end.size(), end) == 0)
        return true;
    return false;
  };
  EXPECT_TRUE(has("identifier", " bench.test.util")) << out;
  EXPECT_TRUE(has("units", " " + std::to_string(nunits()))) << out;
  EXPECT_TRUE(has("dash version", std::string(" ") + DASH_VERSION_STRING)) << out;
  EXPECT_TRUE(has("MPI implementation", std::string(" ") + dash__toxstr(DASH_MPI_IMPL_ID))) << out;
  EXPECT_TRUE(has("MPI shared windows", " enabled")) << out;
  EXPECT_TRUE(has("-r      repetitions", " 100")) << out;
  EXPECT_TRUE(has("size", " 2.5")) << out;
  // a section line fills the output width; a parameter's value ends at it
  const std::string section = "-- Runtime arguments ";
  bool found = false;
  for (const auto& line : lines) {
    if (line.rfind(section, 0) != 0) continue;
    found = true;
    EXPECT_EQ(int(line.size()), params.output_width());
    EXPECT_EQ(line.find_first_not_of('-', section.size()), std::string::npos);
  }
  EXPECT_TRUE(found) << out;
  for (const auto& line : lines)
    if (line.rfind("--   -r ", 0) == 0) {
      EXPECT_EQ(int(line.size()), params.output_width());
    }
}

TEST(BenchmarkParams, OutputWidthAlignsTheValues) {
  dash::util::BenchmarkParams params("width");
  params.set_output_width(40);
  EXPECT_EQ(params.output_width(), 40);
  const std::string out = captured_cout([&] {
    params.print_param("name", 7);
    params.print_param("a very long parameter name that is wider than forty", "v");
  });
  if (myid() != 0) {
    EXPECT_EQ(out, "");
    return;
  }
  const auto lines = lines_of(out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "--   name" + std::string(40 - 9 - 1, ' ') + "7");
  EXPECT_EQ(lines[1], "--   a very long parameter name that is wider than forty v");
}

TEST(BenchmarkParams, PinningListsEveryUnit) {
  dash::util::BenchmarkParams params("pinning");
  const std::string out = captured_cout([&] { params.print_pinning(); });
  if (myid() != 0) {
    EXPECT_EQ(out, "");
    return;
  }
  const auto lines = lines_of(out);
  // section line, column names, a row per unit, section end
  ASSERT_EQ(lines.size(), std::size_t(nunits()) + 3) << out;
  EXPECT_NE(lines[1].find("host"), std::string::npos);
  for (int u = 0; u < nunits(); ++u) {
    std::istringstream row(lines[std::size_t(u) + 2]);
    std::string dashes, host, domain;
    int unit = -1;
    row >> dashes >> unit >> host >> domain;
    EXPECT_EQ(dashes, "--");
    EXPECT_EQ(unit, u);
    EXPECT_FALSE(host.empty());
    EXPECT_EQ(domain.rfind(".", 0), 0u) << lines[std::size_t(u) + 2];
  }
  EXPECT_EQ(lines.back(), "--");
}

TEST(BenchmarkParams, PrintWritesOnTheCallingUnit) {
  dash::util::BenchmarkParams params("print");
  std::stringstream text;
  text << "first\nunit " << myid() << "\n";
  const std::string out = captured_cout([&] { params.print(text, "#"); });
  EXPECT_EQ(out, "--  # first\n--  # unit " + std::to_string(myid()) + "\n");
}

TEST(BenchmarkParams, ConfigHoldsTheEnvironmentFlags) {
  dash_test::ScopedEnv dart("DART_TEST_BENCHMARK_PARAMS", "7");
  Config::set("DASH_TEST_BENCHMARK_PARAMS", "x");
  dash::util::BenchmarkParams params("config");
  const auto& config = params.config();
  auto holds = [](const dash::util::BenchmarkParams::env_flags_type& flags, const char* name,
                  const char* value) {
    for (const auto& f : flags)
      if (f.first == name) return f.second == value;
    return false;
  };
  EXPECT_TRUE(holds(config.env_dart_config, "DART_TEST_BENCHMARK_PARAMS", "7"));
  EXPECT_TRUE(holds(config.env_dash_config, "DASH_TEST_BENCHMARK_PARAMS", "x"));
  EXPECT_FALSE(holds(config.env_mpi_config, "DART_TEST_BENCHMARK_PARAMS", "7"));
  EXPECT_TRUE(config.env_mpi_shared_win);
  EXPECT_TRUE(config.env_hwloc);
  EXPECT_FALSE(config.env_mkl);
  EXPECT_FALSE(config.env_papi);
}

}  // namespace
