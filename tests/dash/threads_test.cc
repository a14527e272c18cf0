// What may run concurrently from several threads of one unit after dash::init_thread (MPI
// granted MPI_THREAD_MULTIPLE; docs/running.md, "Threads"): dash::copy of different arrays from two
// threads, in both directions, and dash::bp foreach callbacks on Master::threads(t) enqueueing
// to their links. Run by the test main with DASH_TEST_INIT_THREAD=1 (dart_init_thread), at 1-4
// units, and in the ThreadSanitizer CI stage (DASH_SANITIZE=thread).
#include <dart/dart.h>
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/algorithm/Copy.h>
#include <dash/bp/Master.h>
#include <gtest/gtest.h>

#include <atomic>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

bool ThreadMultiple() {
  dart_thread_support_level_t level = DART_THREAD_SINGLE;
  return dart_thread_support_level(&level) == DART_OK && level == DART_THREAD_MULTIPLE;
}

#define REQUIRE_THREAD_MULTIPLE()                                                 \
  do {                                                                            \
    if (!ThreadMultiple()) GTEST_SKIP() << "MPI_THREAD_MULTIPLE was not granted"; \
  } while (0)

// Runs f on a thread of its own; an exception becomes the returned message.
class Worker {
 public:
  template <class F>
  explicit Worker(F f)
      : thread_([this, f] {
          try {
            f();
          } catch (const std::exception& e) {
            error_ = e.what();
          }
        }) {}
  std::string join() {
    thread_.join();
    return error_;
  }

 private:
  std::string error_;
  std::thread thread_;
};

int Value(int array, long index) { return array * 1000003 + static_cast<int>(index); }

TEST(Threads, InitThreadGrantsMultiple) {
  EXPECT_TRUE(ThreadMultiple()) << "both MPIs here grant MPI_THREAD_MULTIPLE";
}

TEST(Threads, TwoThreadsCopyDifferentArraysGlobalToLocal) {
  REQUIRE_THREAD_MULTIPLE();
  const long n = 3000L * nunits() + 7;
  dash::Array<int> a(n), b(n);
  for (dash::Array<int>* arr : {&a, &b}) {
    const int id = arr == &a ? 1 : 2;
    for (long i = 0; i < long(arr->lsize()); ++i) {
      arr->lbegin()[i] = Value(id, arr->pattern().global(i));
    }
  }
  dash::barrier();
  std::vector<int> ra(n), rb(n);
  Worker ta([&] {
    for (int round = 0; round < 20; ++round) dash::copy(a.begin(), a.end(), ra.data());
  });
  Worker tb([&] {
    for (int round = 0; round < 20; ++round) dash::copy(b.begin(), b.end(), rb.data());
  });
  EXPECT_EQ(ta.join(), "");
  EXPECT_EQ(tb.join(), "");
  for (long i = 0; i < n; ++i) {
    ASSERT_EQ(ra[i], Value(1, i)) << "a[" << i << "]";
    ASSERT_EQ(rb[i], Value(2, i)) << "b[" << i << "]";
  }
  dash::barrier();
}

TEST(Threads, TwoThreadsCopyDifferentArraysLocalToGlobal) {
  REQUIRE_THREAD_MULTIPLE();
  const int units = nunits();
  const long per_unit = 2000;
  const long n = per_unit * units;
  dash::Array<int> a(n), b(n);
  // Unit u writes the block of unit u + 1 (a) and u - 1 (b): every element written once.
  const long next = (myid() + 1) % units, prev = (myid() + units - 1) % units;
  std::vector<int> sa(per_unit), sb(per_unit);
  for (long i = 0; i < per_unit; ++i) {
    sa[i] = Value(1, next * per_unit + i);
    sb[i] = Value(2, prev * per_unit + i);
  }
  Worker ta([&] {
    for (int round = 0; round < 20; ++round)
      dash::copy(sa.data(), sa.data() + per_unit, a.begin() + next * per_unit);
  });
  Worker tb([&] {
    for (int round = 0; round < 20; ++round)
      dash::copy(sb.data(), sb.data() + per_unit, b.begin() + prev * per_unit);
  });
  EXPECT_EQ(ta.join(), "");
  EXPECT_EQ(tb.join(), "");
  dash::barrier();
  ASSERT_EQ(long(a.lsize()), per_unit);
  for (long i = 0; i < per_unit; ++i) {
    ASSERT_EQ(a.lbegin()[i], Value(1, myid() * per_unit + i)) << "local a[" << i << "]";
    ASSERT_EQ(b.lbegin()[i], Value(2, myid() * per_unit + i)) << "local b[" << i << "]";
  }
  dash::barrier();
}

struct Counter {
  int gid = 0;
  long received = 0;
};

TEST(Threads, MasterThreadsCallbacksEnqueue) {
  REQUIRE_THREAD_MULTIPLE();
  using dash::bp::Assignment;
  const int nblocks = 8 * nunits();
  dash::bp::Master<Counter> master(nblocks, Assignment::round_robin);
  for (int gid : dash::bp::local_gids(myid(), nblocks, nunits(), Assignment::round_robin)) {
    auto block = std::make_unique<Counter>();
    block->gid = gid;
    master.add(gid, std::move(block),
               {(gid + 1) % nblocks, (gid + nblocks - 1) % nblocks, (gid + nblocks / 2) % nblocks});
  }
  master.threads(4);
  for (int round = 0; round < 5; ++round) {
    master.foreach ([&](Counter& c, dash::bp::Proxy& p) {
      for (int link : p.link()) {
        std::vector<long> payload(50, c.gid * 100 + round);
        p.enqueue(link, payload);
      }
    });
    master.exchange();
    master.foreach ([&](Counter& c, dash::bp::Proxy& p) {
      for (int link : p.link()) {
        std::vector<long> payload;
        p.dequeue(link, payload);
        ASSERT_EQ(payload.size(), 50u);
        ASSERT_EQ(payload[0], link * 100 + round) << "block " << c.gid << " from " << link;
        c.received += payload[0];
      }
    });
  }
  for (std::size_t i = 0; i < master.size(); ++i) {
    const Counter& c = master.block(i);
    long expect = 0;
    for (int from :
         {(c.gid + nblocks - 1) % nblocks, (c.gid + 1) % nblocks, (c.gid + nblocks / 2) % nblocks})
      for (int round = 0; round < 5; ++round) expect += from * 100 + round;
    EXPECT_EQ(c.received, expect) << "block " << c.gid;
  }
}

}  // namespace
