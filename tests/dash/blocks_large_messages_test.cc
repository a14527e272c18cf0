// The block layer's messages beyond 2^31 bytes (MPI counts are int): a queue of more than 2 GiB
// from a block on one unit to a block on another arrives whole through exchange (an array sent
// from the caller's memory, and a copied queue) and iexchange. About 7 GiB of memory per unit:
// label soak (scripts/test.sh -L soak); variant sparse: exchange by NBX.
#include <dash/Init.h>
#include <dash/bp/Master.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::bp::Assignment;
using dash::bp::Master;
using dash::bp::Proxy;
using dash::bp::QueueView;

constexpr std::size_t kBytes = (std::size_t(1) << 31) + 4096 + 5;

char ByteAt(std::size_t i) { return char((i * 151 + i / 8191) & 0xff); }

struct Big {
  int gid = -1;
  bool sent = false, received = false;
};

// Block 0 sends kBytes to block 1 (as a view of `data`, or copied into the queue).
void Send(const Big& b, Proxy& p, const std::vector<char>& data, bool view) {
  if (b.gid != 0) return;
  if (view)
    p.enqueue_view(1, data.data(), data.size());
  else
    p.enqueue(1, data.data(), data.size());
}

// Block 1 reads what block 0 sent; true if it was there.
bool Receive(const Big& b, Proxy& p) {
  if (b.gid != 1 || p.incoming(0) == 0) return false;
  const QueueView<char> got = p.dequeue_view<char>(0);
  EXPECT_EQ(got.size(), kBytes);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) wrong += got[i] != ByteAt(i);
  EXPECT_EQ(wrong, 0u);
  return true;
}

std::unique_ptr<Master<Big>> TwoBlocks() {
  auto m = std::make_unique<Master<Big>>(2, Assignment::contiguous);
  for (int gid :
       dash::bp::local_gids(dash_test::myid(), 2, dash_test::nunits(), Assignment::contiguous)) {
    auto b = std::make_unique<Big>();
    b->gid = gid;
    m->add(gid, std::move(b), {});
  }
  return m;
}

std::vector<char> Data() {
  std::vector<char> data(dash_test::myid() == 0 ? kBytes : 0);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = ByteAt(i);
  return data;
}

TEST(BlocksLargeMessages, Exchange_QueueOver2GiB) {
  if (dash_test::nunits() != 2) GTEST_SKIP() << "needs two units";
  const std::vector<char> data = Data();
  for (bool view : {true, false}) {
    SCOPED_TRACE(view ? "enqueue_view" : "enqueue");
    auto m = TwoBlocks();
    m->foreach ([&](Big& b, Proxy& p) { Send(b, p, data, view); });
    m->exchange();
    int received = 0;
    m->foreach ([&](Big& b, Proxy& p) { received += Receive(b, p); });
    EXPECT_EQ(received, dash_test::myid() == 1 ? 1 : 0);
  }
}

TEST(BlocksLargeMessages, IExchange_QueueOver2GiB) {
  if (dash_test::nunits() != 2) GTEST_SKIP() << "needs two units";
  const std::vector<char> data = Data();
  auto m = TwoBlocks();
  m->iexchange([&](Big& b, Proxy& p) {
    if (!b.sent) Send(b, p, data, true);
    b.sent = true;
    if (!b.received) b.received = Receive(b, p);
    return b.gid == 0 || b.received;  // done
  });
  m->foreach ([&](Big& b, Proxy&) {
    if (b.gid == 1) {
      EXPECT_TRUE(b.received);
    }
  });
}

}  // namespace
