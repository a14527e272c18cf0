// Failure agreement of dash::bp's collective operations: an exception on
// some units inside foreach (before exchange or exchange_halos), inside an
// iexchange callback (first call, late, every unit, peers that would wait
// for ever, one or two threads) or inside a reduction round (a merge root's
// last call, a leaf's first) ends the operation on every unit: the failing
// units throw their own exceptions, the others dash::exception::RemoteFailure
// naming the lowest failing unit and carrying its message. Afterwards the
// same master runs a clean round with exact results (nothing of the failed
// round is left in a queue or in flight).
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/bp/ContainerBlocks.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <dash/bp/Reduce.h>
#include <dash/bp/ReducePartners.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "agreed_failure.h"
#include "mpi_test.h"
#include "relay_blocks.h"

namespace {

using dash::bp::Assignment;
using dash::bp::Master;
using dash::bp::Proxy;
using dash::bp::ReduceProxy;
using dash::bp::RegularDecomposer;
using dash_test::ExpectAgreedFailure;
using dash_test::FailingSets;
using dash_test::myid;
using dash_test::nunits;
using dash_test::Relay;
using dash_test::Why;

// ---- exchange ---------------------------------------------------------------

struct Ring {
  int gid = 0;
  long got = -1;
};

std::unique_ptr<Master<Ring>> MakeRing(int nb, Assignment a) {
  auto master = std::make_unique<Master<Ring>>(nb, a);
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), a)) {
    auto b = std::make_unique<Ring>();
    b->gid = gid;
    master->add(gid, std::move(b), {(gid + 1) % nb});
  }
  return master;
}

// One clean round: every block sends round * 1000 + gid to the next block,
// which must receive exactly that, once.
void CleanRingRound(Master<Ring>& master, long round) {
  const int nb = master.nblocks();
  master.foreach ([&](Ring& b, Proxy& p) { p.enqueue((b.gid + 1) % nb, round * 1000 + b.gid); });
  master.exchange();
  master.foreach ([&](Ring& b, Proxy& p) {
    const int from = (b.gid + nb - 1) % nb;
    EXPECT_EQ(p.incoming_from(), std::vector<int>{from}) << "block " << b.gid;
    p.dequeue(from, b.got);
    EXPECT_EQ(b.got, round * 1000 + from);
    EXPECT_EQ(p.incoming(from), 0u) << "nothing of an earlier round may be left";
  });
}

TEST(BlocksFailure, Exchange_ForeachFailure_ThrowsOnEveryUnit) {
  for (Assignment a : {Assignment::contiguous, Assignment::round_robin}) {
    for (int threads : {1, 2}) {
      for (const std::set<int>& failing : FailingSets()) {
        SCOPED_TRACE("threads " + std::to_string(threads) + ", lowest failing unit " +
                     std::to_string(*failing.begin()) + ", " + std::to_string(failing.size()) +
                     " failing");
        const int nb = 2 * nunits() + 1;
        auto master = MakeRing(nb, a);
        master->threads(threads);
        CleanRingRound(*master, 1);
        // Big and small queues are filled before the failure.
        master->foreach ([&](Ring& b, Proxy& p) {
          p.enqueue((b.gid + 1) % nb, std::vector<char>(std::size_t(40) << 10, 'x'));
          p.enqueue((b.gid + 1) % nb, b.gid);
          if (failing.count(myid()) && b.gid == master->gid(master->size() - 1))
            throw std::runtime_error(Why(myid()));
        });
        ExpectAgreedFailure([&] { master->exchange(); }, failing, "dash::bp::Master::exchange");
        CleanRingRound(*master, 2);
      }
    }
  }
}

// report_failures: a foreach failure held on some units is thrown on every
// unit before the program's own collective (a sum here); without one it
// returns, and the master goes on.
TEST(BlocksFailure, ReportFailures_ThrowsWhatForeachHeldOnEveryUnit) {
  for (const std::set<int>& failing : FailingSets()) {
    SCOPED_TRACE("lowest failing unit " + std::to_string(*failing.begin()) + ", " +
                 std::to_string(failing.size()) + " failing");
    const int nb = 2 * nunits() + 1;
    auto master = MakeRing(nb, Assignment::round_robin);
    master->report_failures();  // nothing held: returns
    master->foreach ([&](Ring& b, Proxy&) {
      if (failing.count(myid()) && b.gid == master->gid(0)) throw std::runtime_error(Why(myid()));
    });
    ExpectAgreedFailure([&] { master->report_failures(); }, failing,
                        "dash::bp::Master::report_failures");
    master->report_failures();  // reported once: nothing held any more
    CleanRingRound(*master, 1);
  }
}

// ---- iexchange --------------------------------------------------------------

// The token relay of relay_blocks.h: every block stays busy until it has
// received kHops tokens, so a unit whose peer failed would wait for ever
// without the failure notice.
constexpr int kHops = 40;

std::unique_ptr<Master<Relay>> MakeRelay(int nb, Assignment a) {
  return dash_test::MakeRelay(myid(), nunits(), nb, a);
}

// The relay callback with kHops; block `fail_gid` throws after receiving
// `fail_after` tokens (fail_gid -1: never).
auto RelayStep(int nb, int fail_gid, int fail_after) {
  return dash_test::RelayStep(nb, kHops, fail_gid, fail_after, [] { return Why(myid()); });
}

void CleanRelay(Master<Relay>& master) {
  master.foreach ([](Relay& b, Proxy&) {
    b.received = 0;
    b.started = false;
  });
  try {
    master.iexchange(RelayStep(master.nblocks(), -1, -1));
  } catch (const std::exception& e) {
    ADD_FAILURE() << "a clean run after a failed one threw: " << e.what();
    return;
  }
  master.foreach ([&](Relay& b, Proxy& p) {
    EXPECT_EQ(b.received, kHops) << "block " << b.gid;
    EXPECT_FALSE(p.has_incoming()) << "block " << b.gid;
  });
}

// Back-to-back calls without a collective in between: a unit that has
// finished one may send for the next while another still polls the first.
TEST(BlocksFailure, Iexchange_BackToBackCallsKeepTheirMessages) {
  auto master = MakeRelay(3 * nunits(), Assignment::round_robin);
  for (int k = 0; k < 20; ++k) CleanRelay(*master);
}

TEST(BlocksFailure, Iexchange_CallbackFailure_ThrowsOnEveryUnit) {
  for (int threads : {1, 2}) {
    for (int fail_after : {0, 1, kHops / 2}) {
      for (const std::set<int>& failing : FailingSets()) {
        SCOPED_TRACE("threads " + std::to_string(threads) + ", fails after " +
                     std::to_string(fail_after) + " tokens, lowest failing unit " +
                     std::to_string(*failing.begin()) + ", " + std::to_string(failing.size()) +
                     " failing");
        const int nb = 3 * nunits();
        auto master = MakeRelay(nb, Assignment::round_robin);
        master->threads(threads);
        // The failing units' first block fails (the others keep going).
        // Under a memory-block limit (DASH_OOC_MEM_BLOCKS) the blocks in
        // memory run first, so that block may run after another unit failed.
        const int fail_gid = failing.count(myid()) ? master->gid(0) : -1;
        ExpectAgreedFailure([&] { master->iexchange(RelayStep(nb, fail_gid, fail_after)); },
                            failing, "dash::bp::Master::iexchange",
                            fail_after > 0 || master->limit() > 0);
        CleanRelay(*master);
      }
    }
  }
}

TEST(BlocksFailure, Iexchange_HeldForeachFailure_ThrowsOnEveryUnit) {
  const int nb = 2 * nunits();
  auto master = MakeRelay(nb, Assignment::contiguous);
  const std::set<int> failing{nunits() - 1};
  master->foreach ([&](Relay&, Proxy&) {
    if (failing.count(myid())) throw std::runtime_error(Why(myid()));
  });
  ExpectAgreedFailure([&] { master->iexchange(RelayStep(nb, -1, -1)); }, failing,
                      "dash::bp::Master::iexchange");
  CleanRelay(*master);
}

// ---- exchange_halos ---------------------------------------------------------

TEST(BlocksFailure, ExchangeHalos_ForeachFailure_ThrowsOnEveryUnit) {
  const long rows = 4L * nunits() + 1, cols = 7;
  dash::Matrix<long, 2> m(dash::SizeSpec<2>(rows, cols),
                          dash::DistributionSpec<2>(dash::TILE(2), dash::TILE(3)));
  dash::bp::HaloSpec<2> spec;
  spec.periodic = {true, true};
  auto master = dash::bp::of(m, spec);
  const std::set<int> failing{nunits() - 1};
  master.foreach ([&](dash::bp::ContainerBlock<long, 2>&, Proxy&) {
    if (failing.count(myid())) throw std::runtime_error(Why(myid()));
  });
  ExpectAgreedFailure([&] { dash::bp::exchange_halos(master); }, failing,
                      "dash::bp::Master::exchange");
  // A clean exchange afterwards fills every face halo from its neighbour.
  auto value = [&](long i, long j) { return ((i + rows) % rows) * 1000 + (j + cols) % cols; };
  master.foreach ([&](dash::bp::ContainerBlock<long, 2>& b, Proxy&) {
    for (long i = 0; i < b.extent(0); ++i)
      for (long j = 0; j < b.extent(1); ++j)
        b(i, j) = value(b.box().min[0] + i, b.box().min[1] + j);
  });
  m.barrier();
  dash::bp::exchange_halos(master);
  master.foreach ([&](dash::bp::ContainerBlock<long, 2>& b, Proxy&) {
    const long i0 = b.box().min[0], j0 = b.box().min[1];
    for (long j = 0; j < b.extent(1); ++j) {
      EXPECT_EQ(b(-1, j), value(i0 - 1, j0 + j)) << "block " << b.gid();
      EXPECT_EQ(b(b.extent(0), j), value(i0 + b.extent(0), j0 + j)) << "block " << b.gid();
    }
    for (long i = 0; i < b.extent(0); ++i) {
      EXPECT_EQ(b(i, -1), value(i0 + i, j0 - 1)) << "block " << b.gid();
      EXPECT_EQ(b(i, b.extent(1)), value(i0 + i, j0 + b.extent(1))) << "block " << b.gid();
    }
  });
  m.barrier();
}

// ---- reduce -----------------------------------------------------------------

struct Sum {
  int gid = 0;
  long value = 0;
};

std::unique_ptr<Master<Sum>> MakeSums(int nb) {
  auto master = std::make_unique<Master<Sum>>(nb, Assignment::contiguous);
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), Assignment::contiguous)) {
    auto b = std::make_unique<Sum>();
    b->gid = gid;
    b->value = gid + 1;
    master->add(gid, std::move(b), {});
  }
  return master;
}

// A merge of every block's value into block 0; `fail(gid, round)` says
// where it throws.
template <class Fail>
auto MergeSum(Fail fail) {
  return [fail](Sum& b, ReduceProxy& rp) {
    if (fail(b.gid, rp.round())) throw std::runtime_error(Why(myid()));
    for (int from : rp.in_link()) {
      if (from == rp.gid()) continue;
      long v = 0;
      rp.dequeue(from, v);
      b.value += v;
    }
    for (int to : rp.out_link())
      if (to != rp.gid()) rp.enqueue(to, b.value);
  };
}

TEST(BlocksFailure, Reduce_FailureAnywhere_ThrowsOnEveryUnit) {
  const int nb = 2 * nunits() + 1;
  RegularDecomposer<1> dec({{0}, {1000}}, nb);
  dash::bp::RegularMergePartners<1> partners(dec, 2);
  const int last_round = partners.rounds();
  const int last_gid = nb - 1;
  const int last_owner = dash::bp::owner(last_gid, nb, nunits(), Assignment::contiguous);
  // The root's last call (only receives: nothing carries the failure
  // onwards), and a leaf's first call.
  ExpectAgreedFailure(
      [&] {
        auto master = MakeSums(nb);
        dash::bp::reduce(*master, partners, MergeSum([&](int gid, int round) {
          return gid == 0 && round == last_round;
        }));
      },
      {0}, "dash::bp::reduce");
  ExpectAgreedFailure(
      [&] {
        auto master = MakeSums(nb);
        dash::bp::reduce(*master, partners, MergeSum([&](int gid, int round) {
          return gid == last_gid && round == 0;
        }));
      },
      {last_owner}, "dash::bp::reduce");
  // A failure held from foreach; then the same master reduces cleanly.
  auto master = MakeSums(nb);
  master->foreach ([&](Sum&, Proxy&) {
    if (myid() == last_owner) throw std::runtime_error(Why(myid()));
  });
  ExpectAgreedFailure(
      [&] { dash::bp::reduce(*master, partners, MergeSum([](int, int) { return false; })); },
      {last_owner}, "dash::bp::reduce");
  master->foreach ([](Sum& b, Proxy&) { b.value = b.gid + 1; });
  dash::bp::reduce(*master, partners, MergeSum([](int, int) { return false; }));
  master->foreach ([&](Sum& b, Proxy&) {
    if (b.gid == 0) {
      EXPECT_EQ(b.value, long(nb) * (nb + 1) / 2);
    }
  });
}

}  // namespace
