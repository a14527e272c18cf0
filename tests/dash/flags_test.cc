// The C++ layer's environment flags go through DART's strict parser (dart_flags.h) by one
// table (dash/internal/Flags.h) that the flag reference (docs/flags.md) matches: the copy engine's
// DASH_COPY_ASYNC_THREAD / DASH_COPY_ASYNC_THRESHOLD (read by dash::init), the block layer's test
// flags DASH_BP_TEST_SEND_DELAY_US / DASH_BP_TEST_SEED (read by each iexchange), and dash::init's
// check of DART's flags and of every flag of the table before MPI starts. A malformed value
// (blanks, sign, empty, overflow, past the maximum) throws dash::exception::InvalidArgument naming
// the flag and the value, on every unit alike.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/bp/Master.h>
#include <dash/internal/CopyEngine.h>
#include <dash/internal/Flags.h>
#include <dash/io/Pieces.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mpi_test.h"
#include "scoped_env.h"

namespace {

using dash::internal::CopyEngine;
using dash_test::ScopedEnv;

// Expects call() to throw InvalidArgument whose message names flag and 'value'.
template <class F>
void ExpectRefused(const char* flag, const std::string& value, F&& call) {
  try {
    call();
    ADD_FAILURE() << flag << "='" << value << "' was accepted";
  } catch (const dash::exception::InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(
        what.find(std::string("environment flag ") + flag + " has malformed value '" + value + "'"),
        std::string::npos)
        << what;
    EXPECT_NE(what.find("(expected "), std::string::npos) << what;
  }
}

TEST(DashFlags, CopyEngineFlagsFollowTheStrictRules) {
  const std::size_t saved = CopyEngine::instance().threshold_bytes();
  auto configure = [] { CopyEngine::instance().configure_from_environment(); };
  {
    ScopedEnv thread("DASH_COPY_ASYNC_THREAD", nullptr);
    for (const char* bad : {"", " 64K", "64K ", "+64K", "-1", "2T", "18446744073709551615",
                            "99999999999999999999", "64Q"}) {
      ScopedEnv flag("DASH_COPY_ASYNC_THRESHOLD", bad);
      ExpectRefused("DASH_COPY_ASYNC_THRESHOLD", bad, configure);
    }
  }
  for (const char* bad : {"", " on", "on ", "+1", "2", "sometimes"}) {
    ScopedEnv flag("DASH_COPY_ASYNC_THREAD", bad);
    ExpectRefused("DASH_COPY_ASYNC_THREAD", bad, configure);
  }
  {
    ScopedEnv thread("DASH_COPY_ASYNC_THREAD", "ON");
    ScopedEnv bytes("DASH_COPY_ASYNC_THRESHOLD", "1T");  // the maximum
    configure();
    EXPECT_EQ(CopyEngine::instance().threshold_bytes(), std::size_t(1) << 40);
  }
  {
    ScopedEnv thread("DASH_COPY_ASYNC_THREAD", "yes");
    ScopedEnv bytes("DASH_COPY_ASYNC_THRESHOLD", "0");
    configure();
    EXPECT_EQ(CopyEngine::instance().threshold_bytes(), 0u);
  }
  {
    ScopedEnv thread("DASH_COPY_ASYNC_THREAD", "no");
    configure();
    EXPECT_EQ(CopyEngine::instance().threshold_bytes(), CopyEngine::kOff);
  }
  CopyEngine::instance().set_threshold_bytes(saved);
}

// dash::init checks DART's flags before anything else: a malformed one is reported by name
// (the runtime is already up here, so a good environment gets "already initialised" instead).
TEST(DashFlags, InitNamesAMalformedDartFlag) {
  const std::size_t saved = CopyEngine::instance().threshold_bytes();
  int argc = 0;
  char** argv = nullptr;
  for (const auto& bad : {std::make_pair("DART_LOCAL_POOL_SIZE", " -1"),
                          std::make_pair("DART_LOCAL_POOL_SIZE", "18446744073709551615"),
                          std::make_pair("DART_TOPOLOGY_FILE", "")}) {
    ScopedEnv flag(bad.first, bad.second);
    ExpectRefused(bad.first, bad.second, [&] { dash::init(&argc, &argv); });
    ExpectRefused(bad.first, bad.second, [&] { dash::init_thread(&argc, &argv); });
  }
  EXPECT_THROW(dash::init(&argc, &argv), dash::exception::InvalidArgument);
  EXPECT_TRUE(dash::is_initialized());
  CopyEngine::instance().set_threshold_bytes(saved);
}

// dash::init checks the out-of-core flags too, before any store or master reads them.
TEST(DashFlags, InitNamesAMalformedOutOfCoreFlag) {
  const std::size_t saved = CopyEngine::instance().threshold_bytes();
  int argc = 0;
  char** argv = nullptr;
  for (const auto& bad :
       {std::make_pair("DASH_OOC_MEM_BLOCKS", "-1"),
        std::make_pair("DASH_OOC_MEM_BLOCKS", "1073741825"),
        std::make_pair("DASH_OOC_QUEUE_INLINE", "4Q"), std::make_pair("DASH_OOC_MAX_BYTES", " 1G"),
        std::make_pair("DASH_OOC_DIRECT", "sometimes"), std::make_pair("DASH_OOC_HUGE_PAGES", "2"),
        std::make_pair("DASH_OOC_TEST_FAIL_WRITE", "x"), std::make_pair("DASH_OOC_DIR", "")}) {
    ScopedEnv flag(bad.first, bad.second);
    ExpectRefused(bad.first, bad.second, [&] { dash::init(&argc, &argv); });
  }
  CopyEngine::instance().set_threshold_bytes(saved);
}

// dash::init checks the I/O flags too, before any save or load reads them.
TEST(DashFlags, InitNamesAMalformedIoFlag) {
  const std::size_t saved = CopyEngine::instance().threshold_bytes();
  int argc = 0;
  char** argv = nullptr;
  for (const auto& bad :
       {std::make_pair("DASH_IO_AGGREGATORS", "-1"),
        std::make_pair("DASH_IO_AGGREGATORS", "16777217"),
        std::make_pair("DASH_IO_BUFFER_SIZE", "4Q"), std::make_pair("DASH_IO_BUFFER_SIZE", "100"),
        std::make_pair("DASH_IO_BUFFER_SIZE", "2G"), std::make_pair("DASH_IO_TEST_FAIL_WRITE", "x"),
        std::make_pair("DASH_IO_PERSISTENCY", "sometimes"),
        std::make_pair("DASH_IO_SUBFILING", "-1")}) {
    ScopedEnv flag(bad.first, bad.second);
    ExpectRefused(bad.first, bad.second, [&] { dash::init(&argc, &argv); });
  }
  CopyEngine::instance().set_threshold_bytes(saved);
}

// A tier file with garbage stops dash::init, naming the file and the line, in a program that
// uses dash::io (its layer reads the file at dash::init; this test uses dash::io's settings).
TEST(DashFlags, InitNamesTheBadLineOfATierFile) {
  EXPECT_EQ(dash::io::resolve_settings({}).tier, "auto");
  if (dash_test::myid() != 0) return;  // the tier table is per process: one unit checks
  const std::size_t saved = CopyEngine::instance().threshold_bytes();
  const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                           "/dash-flags-tiers-" + std::to_string(getpid());
  {
    std::ofstream out(path);
    out << "dram 100ns 8GB/s 16G no\nssd 1us 2GB/s 100G yes /scratch\n";
  }
  ScopedEnv flag("DASH_IO_TIERS", path.c_str());
  int argc = 0;
  char** argv = nullptr;
  try {
    dash::init(&argc, &argv);
    ADD_FAILURE() << "a tier file with an unknown tier was accepted";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":2: unknown tier 'ssd'"), std::string::npos)
        << e.what();
  }
  std::remove(path.c_str());
  CopyEngine::instance().set_threshold_bytes(saved);
}

struct Counter {
  int received = 0;
};

// One iexchange round over a ring of blocks: each sends its gid to the next; returns the sum of
// what the local blocks received.
long RingExchange(dash::bp::Master<Counter>& master, int nblocks) {
  long sum = 0;
  master.iexchange([&](Counter& c, dash::bp::Proxy& p) {
    if (c.received == 0) {
      c.received = -1;  // sent
      p.enqueue((p.gid() + 1) % nblocks, p.gid());
      return false;
    }
    for (int from : p.incoming_from())
      while (p.incoming(from) > 0) {
        int v = 0;
        p.dequeue(from, v);
        sum += v;
      }
    return true;
  });
  return sum;
}

TEST(DashFlags, SendDelayFlagsAreCheckedByEveryIexchange) {
  const int units = dash_test::nunits(), me = dash_test::myid();
  const int nblocks = 2 * units;
  auto make = [&] {
    auto master = std::make_unique<dash::bp::Master<Counter>>(nblocks);
    for (int gid : dash::bp::local_gids(me, nblocks, units, dash::bp::Assignment::contiguous))
      master->add(gid, std::make_unique<Counter>(), {(gid + 1) % nblocks});
    return master;
  };
  auto master = make();
  const std::pair<const char*, const char*> bad[] = {
      {"DASH_BP_TEST_SEND_DELAY_US", "99999999999999999999"},  // used to hang the run
      {"DASH_BP_TEST_SEND_DELAY_US", "1000001"},               // over 1 s
      {"DASH_BP_TEST_SEND_DELAY_US", ""},
      {"DASH_BP_TEST_SEND_DELAY_US", " 10"},
      {"DASH_BP_TEST_SEND_DELAY_US", "+10"},
      {"DASH_BP_TEST_SEED", "4294967296"},
      {"DASH_BP_TEST_SEED", "-1"},
  };
  for (const auto& b : bad) {
    ScopedEnv flag(b.first, b.second);
    ExpectRefused(b.first, b.second, [&] { RingExchange(*master, nblocks); });
  }
  // Refused before any message: the same master still exchanges correctly, delayed or not.
  ScopedEnv seed("DASH_BP_TEST_SEED", "4294967295");
  for (const char* delay : {"0", "50"}) {
    ScopedEnv flag("DASH_BP_TEST_SEND_DELAY_US", delay);
    auto fresh = make();
    long local = RingExchange(*fresh, nblocks), total = 0;
    ASSERT_EQ(dart_allreduce(&local, &total, 1, DART_TYPE_LONG, DART_OP_SUM, DART_TEAM_ALL),
              DART_OK);
    EXPECT_EQ(total, long(nblocks) * (nblocks - 1) / 2) << "delay " << delay;
  }
  long local = RingExchange(*master, nblocks), total = 0;
  ASSERT_EQ(dart_allreduce(&local, &total, 1, DART_TYPE_LONG, DART_OP_SUM, DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(total, long(nblocks) * (nblocks - 1) / 2);
}

// The flag reference (docs/flags.md) lists exactly the flags of the C++ layer's table
// (dash/internal/Flags.h) with the default it shows: section "The flags" the flags a program
// sets, in the table's order, section "Test-only flags" the fault-injection flags (a name with
// _TEST_), in the table's order. (The name keeps the README, where the table used to be.)
TEST(DashFlags, FlagTableMatchesTheReadme) {
  const char* doc = std::getenv("DASH_TEST_FLAGS_DOC");
  ASSERT_NE(doc, nullptr) << "DASH_TEST_FLAGS_DOC (set by CMake) names docs/flags.md";
  std::ifstream in(doc);
  ASSERT_TRUE(in.good()) << doc;
  struct Row {
    std::string name, shown;
    bool test_only;  // in section "Test-only flags"
  };
  std::vector<Row> rows;
  enum { other, flags, test_flags } section = other;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0)
      section = line == "## The flags" ? flags : line == "## Test-only flags" ? test_flags : other;
    if (section == other || line.rfind("| `DASH_", 0) != 0) continue;
    const std::size_t name_end = line.find('`', 3);
    const std::size_t cell = line.find('|', name_end);
    const std::size_t cell_end = line.find('|', cell + 1);
    ASSERT_NE(cell_end, std::string::npos) << line;
    std::string shown = line.substr(cell + 1, cell_end - cell - 1);
    shown = shown.substr(shown.find_first_not_of(' '));
    shown = shown.substr(0, shown.find_last_not_of(' ') + 1);
    rows.push_back({line.substr(3, name_end - 3), shown, section == test_flags});
  }
  // The table's flags in the order the page lists them: those a program sets, then the test
  // flags, each group in the table's order.
  std::vector<const dash::internal::FlagSpec*> expected;
  for (bool test_only : {false, true})
    for (const auto& spec : dash::internal::kFlags)
      if ((std::string(spec.name).find("_TEST_") != std::string::npos) == test_only)
        expected.push_back(&spec);
  ASSERT_EQ(rows.size(), expected.size()) << "DASH_* rows in " << doc << " against the flag table";
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const bool test_only = std::string(expected[i]->name).find("_TEST_") != std::string::npos;
    EXPECT_EQ(rows[i].name, expected[i]->name) << "row " << i;
    EXPECT_EQ(rows[i].shown, expected[i]->shown) << rows[i].name;
    EXPECT_EQ(rows[i].test_only, test_only)
        << rows[i].name
        << (test_only ? " belongs in \"Test-only flags\"" : " belongs in \"The flags\"");
  }
}

// Each default in the table is the value docs/flags.md shows: the first `value` of the default
// cell, read as the flag, gives the table's default.
TEST(DashFlags, TableDefaultsAreTheValuesTheReadmeShows) {
  using dash::internal::FlagKind;
  for (const auto& spec : dash::internal::kFlags) {
    if (spec.kind == FlagKind::text) continue;  // no value shown: $TMPDIR, a probe
    const std::string shown = spec.shown;
    ASSERT_EQ(shown.front(), '`') << spec.name;
    const std::string value = shown.substr(1, shown.find('`', 1) - 1);
    ScopedEnv flag(spec.name, value.c_str());
    switch (spec.kind) {
      case FlagKind::integer:
      case FlagKind::bytes:
        EXPECT_EQ(dash::internal::read_flag_number(spec.flag, "test"), spec.fallback) << spec.name;
        break;
      case FlagKind::boolean:
        EXPECT_EQ(dash::internal::read_flag_bool(spec.flag, "test"), spec.fallback != 0)
            << spec.name;
        break;
      case FlagKind::choice:
        EXPECT_EQ(std::uint64_t(dash::internal::read_flag_choice(spec.flag, "test")), spec.fallback)
            << spec.name;
        break;
      case FlagKind::text:
        break;
    }
  }
}

// Each flag is read only by the reader of its kind (numbers: integer and bytes flags); the
// others throw InvalidArgument naming the flag, so a flag read by the wrong function shows at
// once. Local.
TEST(DashFlags, EachFlagIsReadOnlyByTheReaderOfItsKind) {
  using dash::internal::FlagKind;
  enum Reader { number, boolean, choice, text };
  const auto reads = [](Reader r, FlagKind k) {
    switch (r) {
      case number:
        return k == FlagKind::integer || k == FlagKind::bytes;
      case boolean:
        return k == FlagKind::boolean;
      case choice:
        return k == FlagKind::choice;
      case text:
        return k == FlagKind::text;
    }
    return false;
  };
  const auto read = [](Reader r, dash::internal::Flag f) {
    switch (r) {
      case number:
        dash::internal::read_flag_number(f, "test");
        break;
      case boolean:
        dash::internal::read_flag_bool(f, "test");
        break;
      case choice:
        dash::internal::read_flag_choice(f, "test");
        break;
      case text:
        dash::internal::read_flag_text(f, "test");
        break;
    }
  };
  for (const auto& spec : dash::internal::kFlags) {
    ScopedEnv unset(spec.name, nullptr);  // the default: no malformed value in the way
    int readers = 0;
    for (Reader r : {number, boolean, choice, text}) {
      if (reads(r, spec.kind)) {
        ++readers;
        EXPECT_NO_THROW(read(r, spec.flag)) << spec.name << ", reader " << r;
        continue;
      }
      try {
        read(r, spec.flag);
        ADD_FAILURE() << spec.name << " read by reader " << r << " of another kind";
      } catch (const dash::exception::InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find(spec.name), std::string::npos) << e.what();
      }
    }
    EXPECT_EQ(readers, 1) << spec.name;
  }
}

// dash::init checks every flag of the table before MPI starts, whichever layer reads it later;
// only the block layer's fault-injection flags are left to the call that reads them
// (SendDelayFlagsAreCheckedByEveryIexchange).
TEST(DashFlags, InitChecksEveryFlagOfTheTable) {
  const std::size_t saved = CopyEngine::instance().threshold_bytes();
  int argc = 0;
  char** argv = nullptr;
  std::vector<std::string> left_to_their_call;
  for (const auto& spec : dash::internal::kFlags) {
    ScopedEnv flag(spec.name, " 1");  // blanks: malformed for every kind
    if (spec.checked_at_init) {
      ExpectRefused(spec.name, " 1", [&] { dash::init(&argc, &argv); });
    } else {
      left_to_their_call.emplace_back(spec.name);
      try {
        dash::init(&argc, &argv);  // refused for another reason: the runtime is up
      } catch (const dash::exception::InvalidArgument& e) {
        EXPECT_EQ(std::string(e.what()).find(spec.name), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_EQ(left_to_their_call,
            (std::vector<std::string>{"DASH_BP_TEST_SEND_DELAY_US", "DASH_BP_TEST_SEED"}));
  CopyEngine::instance().set_threshold_bytes(saved);
}

// Every unit must give the flags that steer collective operations alike: the table marks them.
TEST(DashFlags, AgreedFlagsAreTheOnesThatSteerCollectives) {
  std::vector<std::string> agreed;
  for (const char* name : dash::internal::agreed_flag_names()) agreed.emplace_back(name);
  const std::vector<std::string> expected = {
      "DASH_IO_AGGREGATORS",  "DASH_IO_BUFFER_SIZE", "DASH_IO_AGGR_TIER",
      "DASH_IO_PERSISTENCY",  "DASH_IO_SUBFILING",   "DASH_IO_AGGREGATION",
      "DASH_IO_BURST_BUFFER", "DASH_IO_TIERS",       "DASH_BP_EXCHANGE_SPARSE_UNITS"};
  EXPECT_EQ(agreed, expected);
}

}  // namespace
