// DASH's benchmark utilities: dash::util::Timer (both sources, the clock choice, the unit
// conversions), dash::util::Config (types, unset keys, boolean words, _SIZE keys, the
// environment, logging switch), dash::util::BenchmarkParams (what unit 0 prints, that the
// others print nothing, the settings it reads), dash::util::TraceStore and Trace (recording only
// with DASH_ENABLE_TRACE, the records, their lines and files), dash::prevent_opt_elimination and
// the printed locality hierarchy. Every unit checks its own values.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Version.h>
#include <dash/internal/Annotation.h>
#include <dash/internal/Logging.h>
#include <dash/internal/Macro.h>
#include <dash/util/BenchmarkParams.h>
#include <dash/util/Config.h>
#include <dash/util/TeamLocality.h>
#include <dash/util/Timer.h>
#include <dash/util/Trace.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <fstream>
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

// ---------------------------------------------------------------------------------------------
// TraceStore, Trace

using dash::util::Trace;
using dash::util::TraceStore;

TEST(TraceStore, RecordsNothingWithoutDashEnableTrace) {
  Config::set("DASH_ENABLE_TRACE", 0);
  EXPECT_FALSE(TraceStore::on());
  EXPECT_FALSE(TraceStore::enabled());
  TraceStore::clear();
  Trace trace("quiet");  // local while not recording
  trace.enter_state("a");
  trace.exit_state("a");
  EXPECT_TRUE(TraceStore::context_trace("quiet").empty());
  std::ostringstream out;
  TraceStore::write(out);
  EXPECT_EQ(out.str(), "");
  TraceStore::write("never.csv");  // no file either
  EXPECT_NE(access("./u00000.never.csv", F_OK), 0);
  TraceStore::clear();
}

TEST(TraceStore, RecordsStatesInOrderAndWritesThemAsLines) {
  Config::set("DASH_ENABLE_TRACE", 1);
  ASSERT_TRUE(TraceStore::on());
  TraceStore::clear();
  {
    Trace trace("phases");  // collective: a barrier, then the clock starts
    trace.enter_state("local");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    trace.exit_state("local");
    trace.enter_state("gather");
    trace.exit_state("gather");
  }
  TraceStore::off();
  Trace later("phases");  // not recording: appends nothing
  later.enter_state("ignored");
  const auto& events = TraceStore::context_trace("phases");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].state, "local");
  EXPECT_EQ(events[1].state, "gather");
  EXPECT_GE(events[0].end - events[0].start, 1000000u);  // the 2 ms sleep, in clock ticks (ns)
  EXPECT_GE(events[1].start, events[0].end);
  EXPECT_GE(events[1].end, events[1].start);

  std::ostringstream out;
  TraceStore::write(out);
  const auto lines = lines_of(out.str());
  const std::size_t header = myid() == 0 ? 1 : 0;
  ASSERT_EQ(lines.size(), header + 2);
  if (header == 1) {
    EXPECT_EQ(lines[0].rfind("-- [TRACE] ", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find("context"), std::string::npos);
    EXPECT_NE(lines[0].find("state"), std::string::npos);
  }
  for (std::size_t i = 0; i < 2; ++i) {
    const std::string& line = lines[header + i];
    std::ostringstream start, end;
    start << events[i].start;
    end << events[i].end;
    EXPECT_EQ(line.rfind("-- [TRACE] ", 0), 0u) << line;
    EXPECT_NE(line.find("phases, "), std::string::npos) << line;
    EXPECT_NE(line.find(" " + std::to_string(myid()) + ", "), std::string::npos) << line;
    EXPECT_NE(line.find(" " + start.str() + ", "), std::string::npos) << line;
    EXPECT_NE(line.find(" " + end.str() + ", "), std::string::npos) << line;
    EXPECT_EQ(line.substr(line.size() - events[i].state.size()), events[i].state) << line;
  }
  std::ostringstream no_header;
  TraceStore::write(no_header, false);
  EXPECT_EQ(lines_of(no_header.str()).size(), 2u);

  TraceStore::clear("phases");
  EXPECT_TRUE(TraceStore::context_trace("phases").empty());
  TraceStore::clear();
  Config::set("DASH_ENABLE_TRACE", 0);
}

TEST(TraceStore, WritesOneFilePerUnitUnderTheLogPath) {
  char dir[] = "/tmp/dash_trace_test_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  ASSERT_EQ(mkdir((std::string(dir) + "/run").c_str(), 0700), 0);
  Config::set("DASH_ENABLE_TRACE", 1);
  Config::set("DASH_TRACE_LOG_PATH", dir);
  ASSERT_TRUE(TraceStore::on());
  TraceStore::clear();
  TraceStore::context_trace("file").push_back({1, 2, "s"});
  TraceStore::write("trace.csv", "run");
  char name[16];
  std::snprintf(name, sizeof(name), "u%05d", static_cast<int>(myid()));
  const std::string path = std::string(dir) + "/run/" + name + ".trace.csv";
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("file, "), std::string::npos) << text;
  std::remove(path.c_str());
  rmdir((std::string(dir) + "/run").c_str());
  rmdir(dir);
  // A directory that does not exist: the file cannot be written.
  EXPECT_THROW(TraceStore::write("trace.csv", "missing"), dash::exception::RuntimeError);
  TraceStore::clear();
  TraceStore::off();
  Config::set("DASH_ENABLE_TRACE", 0);
}

// ---------------------------------------------------------------------------------------------
// prevent_opt_elimination, the printed locality hierarchy

TEST(Annotation, PreventOptEliminationKeepsValues) {
  int counter = 0;
  for (int i = 0; i < 100; ++i) {
    ++counter;
    dash::prevent_opt_elimination(counter);
  }
  const long fixed = 7;
  std::vector<int> v(3, 1);
  auto it = v.begin();
  dash::prevent_opt_elimination(fixed);
  dash::prevent_opt_elimination(it);
  dash::prevent_opt_elimination();
  EXPECT_EQ(counter, 100);
  EXPECT_EQ(fixed, 7);
  EXPECT_EQ(*it, 1);
}

TEST(LocalityDomain, PrintsEveryDomainWithItsTagScopeAndUnits) {
  dash::util::TeamLocality tloc(dash::Team::All());
  std::ostringstream out;
  out << tloc.domain();
  const auto lines = lines_of(out.str());
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].rfind(". (global", 0), 0u) << lines[0];
  std::string units;
  for (long u = 0; u < nunits(); ++u) units += " " + std::to_string(u);
  EXPECT_NE(lines[0].find("units" + units + ")"), std::string::npos) << lines[0];
  // Every unit appears once as a unit domain, indented below its parents.
  long unit_lines = 0;
  for (const auto& line : lines)
    if (line.find("(unit") != std::string::npos) {
      ++unit_lines;
      EXPECT_EQ(line.rfind("  ", 0), 0u) << line;
    }
  EXPECT_EQ(unit_lines, nunits());
}

}  // namespace
