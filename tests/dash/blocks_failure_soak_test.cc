// Randomised failure agreement of dash::bp::Master::iexchange (label soak,
// not in the default test run: `scripts/test.sh -L soak`). Each seeded run
// picks the failing units, the token count after which each fails (or a
// failure held from foreach), the threads, the block count and the send
// delay; every run must end with an exception on every unit, and a clean
// run on the same master afterwards must deliver every token exactly once.
// A hang is caught by CTest's timeout. DASH_BP_SOAK_RUNS (default 1000) sets
// the number of runs, DASH_BP_SOAK_SEED the first seed; DASH_BP_SOAK_TRACE=1
// prints each seed as it starts (stderr). About 1 ms a run on a quiet
// machine, 100 ms with both cores busy with other work.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>

#include "agreed_failure.h"
#include "mpi_test.h"
#include "relay_blocks.h"

namespace {

using dash::bp::Assignment;
using dash::bp::Master;
using dash::bp::Proxy;
using dash_test::myid;
using dash_test::nunits;
using dash_test::Relay;
using dash_test::Why;

long EnvLong(const char* name, long fallback) {
  const char* text = std::getenv(name);
  return text != nullptr && *text != '\0' ? std::strtol(text, nullptr, 10) : fallback;
}

TEST(BlocksFailureSoak, Iexchange_RandomFailurePoints_NeverHang) {
  const long runs = EnvLong("DASH_BP_SOAK_RUNS", 1000);
  const long first_seed = EnvLong("DASH_BP_SOAK_SEED", 1);
  int failures_seen = 0;
  for (long seed = first_seed; seed < first_seed + runs; ++seed) {
    // The same draws on every unit.
    std::mt19937_64 random{static_cast<std::uint64_t>(seed)};
    auto draw = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
    const int nb = nunits() * draw(1, 4) + draw(0, nunits() - 1);
    const int hops = draw(1, 30);
    const int threads = draw(1, 2);
    const bool held = draw(0, 9) == 0;  // one run in ten: a failure held from foreach
    const int delay_us = draw(0, 3) == 0 ? draw(1, 200) : 0;
    std::set<int> failing;
    for (int u = 0; u < nunits(); ++u)
      if (draw(0, 2) == 0) failing.insert(u);
    if (failing.empty()) failing.insert(draw(0, nunits() - 1));
    std::vector<int> fail_after(static_cast<std::size_t>(nunits()));
    for (int& f : fail_after) f = draw(0, hops);
    SCOPED_TRACE("seed " + std::to_string(seed));
    if (std::getenv("DASH_BP_SOAK_TRACE") != nullptr)
      std::fprintf(stderr, "[unit %d] seed %ld\n", myid(), seed);
    const std::string delay = std::to_string(delay_us);
    ::setenv("DASH_BP_TEST_SEND_DELAY_US", delay.c_str(), 1);
    ::setenv("DASH_BP_TEST_SEED", std::to_string(seed).c_str(), 1);

    const Assignment a = draw(0, 1) ? Assignment::contiguous : Assignment::round_robin;
    auto master_ptr = dash_test::MakeRelay(myid(), nunits(), nb, a);
    Master<Relay>& master = *master_ptr;
    master.threads(threads);
    const bool fails_here = failing.count(myid()) && master.size() > 0;
    const int fail_gid = fails_here ? master.gid(std::size_t(seed) % master.size()) : -1;
    if (held)
      master.foreach ([&](Relay& b, Proxy&) {
        if (b.gid == fail_gid) throw std::runtime_error(Why(myid()));
      });
    bool threw = false;
    try {
      master.iexchange(dash_test::RelayStep(nb, hops, fail_gid, fail_after[std::size_t(myid())],
                                            [] { return Why(myid()); }));
    } catch (const dash::exception::RemoteFailure& e) {
      threw = true;
      EXPECT_EQ(failing.count(e.unit()), 1u) << e.what();
      EXPECT_NE(e.unit(), myid()) << e.what();
    } catch (const std::runtime_error& e) {
      threw = true;
      EXPECT_EQ(std::string(e.what()), Why(myid()));
    }
    // Some unit owns a block that fails at some point (units without blocks
    // cannot fail): then every unit must have thrown.
    int mine = fails_here ? 1 : 0, any = 0;
    ASSERT_EQ(DART_OK, dart_allreduce(&mine, &any, 1, DART_TYPE_INT, DART_OP_MAX, DART_TEAM_ALL));
    if (any) {
      EXPECT_TRUE(threw) << "a unit failed, this one returned";
      ++failures_seen;
    }
    // A clean run on the same master.
    master.foreach ([](Relay& b, Proxy&) {
      b.received = 0;
      b.started = false;
    });
    master.iexchange(dash_test::RelayStep(nb, hops, -1, 0, [] { return std::string(); }));
    master.foreach ([&](Relay& b, Proxy& p) {
      EXPECT_EQ(b.received, hops) << "block " << b.gid;
      EXPECT_FALSE(p.has_incoming()) << "block " << b.gid;
    });
    // One seed's report is enough; every unit stops at the same seed.
    int failed_here = ::testing::Test::HasFailure() ? 1 : 0, failed_anywhere = 0;
    ASSERT_EQ(DART_OK, dart_allreduce(&failed_here, &failed_anywhere, 1, DART_TYPE_INT, DART_OP_MAX,
                                      DART_TEAM_ALL));
    if (failed_anywhere) break;
  }
  ::unsetenv("DASH_BP_TEST_SEND_DELAY_US");
  ::unsetenv("DASH_BP_TEST_SEED");
  EXPECT_GT(failures_seen, 0);
}

}  // namespace
