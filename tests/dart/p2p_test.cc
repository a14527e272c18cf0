// Two-sided messages: blocking send/recv in a ring, non-blocking and synchronous-mode sends
// matched by probes (any source and a given source), empty messages, a synchronous send that
// stays pending until the receiver matches it, matched messages received at once (imrecv),
// messages on a sub-team, and bad arguments; a
// message of the wrong size is refused whole, and stays queued when there is no memory to drop it.
#include <dart/dart.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

#include "mpi_test.h"

namespace {

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

TEST(DartP2p, RingSendRecv) {
  const int next = (Me() + 1) % N(), prev = (Me() + N() - 1) % N();
  std::vector<std::int64_t> out(1000), in(1000, -1);
  std::iota(out.begin(), out.end(), std::int64_t(Me()) * 10000);
  // Sending to oneself with a blocking send needs an eager message; keep it small then.
  dart_handle_t h = DART_HANDLE_NULL;
  ASSERT_EQ(dart_isend(out.data(), out.size() * sizeof(std::int64_t), 5, DART_TEAM_UNIT_ID(next),
                       DART_TEAM_ALL, &h),
            DART_OK);
  ASSERT_EQ(dart_recv(in.data(), in.size(), DART_TYPE_LONGLONG, 5, DART_GLOBAL_UNIT_ID(prev)),
            DART_OK);
  ASSERT_EQ(dart_wait(&h), DART_OK);
  EXPECT_EQ(h, DART_HANDLE_NULL);
  for (std::size_t i = 0; i < in.size(); ++i) ASSERT_EQ(in[i], std::int64_t(prev) * 10000 + i);
  dart_barrier(DART_TEAM_ALL);
}

// dart_sendrecv (DASH's runtime tests use it): every unit sends to the next and receives from
// the previous at once, large enough to need the receiver (no eager delivery); a receive of the
// wrong size is refused and the send still completes; bad arguments are rejected.
TEST(DartP2p, SendRecvExchangesInARing) {
  const int next = (Me() + 1) % N(), prev = (Me() + N() - 1) % N();
  std::vector<double> out(1 << 17), in(1 << 17, -1.0);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = Me() * 1e6 + double(i);
  ASSERT_EQ(dart_sendrecv(out.data(), out.size(), DART_TYPE_DOUBLE, 3, DART_GLOBAL_UNIT_ID(next),
                          in.data(), in.size(), DART_TYPE_DOUBLE, 3, DART_GLOBAL_UNIT_ID(prev)),
            DART_OK);
  for (std::size_t i = 0; i < in.size(); ++i) ASSERT_EQ(in[i], prev * 1e6 + double(i)) << i;
  int small[2] = {Me(), Me()}, got[3] = {-1, -1, -1};
  EXPECT_EQ(dart_sendrecv(small, 2, DART_TYPE_INT, 4, DART_GLOBAL_UNIT_ID(next), got, 3,
                          DART_TYPE_INT, 4, DART_GLOBAL_UNIT_ID(prev)),
            DART_ERR_INVAL);  // two ints arrive where three are expected
  EXPECT_EQ(got[0], -1);
  EXPECT_EQ(dart_sendrecv(small, 2, DART_TYPE_INT, 40000, DART_GLOBAL_UNIT_ID(next), got, 2,
                          DART_TYPE_INT, 4, DART_GLOBAL_UNIT_ID(prev)),
            DART_ERR_INVAL);  // tag out of range: nothing sent
  EXPECT_EQ(dart_sendrecv(small, 2, DART_TYPE_INT, 4, DART_GLOBAL_UNIT_ID(N()), got, 2,
                          DART_TYPE_INT, 4, DART_GLOBAL_UNIT_ID(prev)),
            DART_ERR_INVAL);  // no such unit
  dart_barrier(DART_TEAM_ALL);
}

TEST(DartP2p, BlockingSendToNeighbour) {
  if (N() < 2) GTEST_SKIP() << "needs 2 units";
  int value = Me() * 7 + 1, got = -1;
  if (Me() == 0) {
    ASSERT_EQ(dart_send(&value, 1, DART_TYPE_INT, 9, DART_GLOBAL_UNIT_ID(1)), DART_OK);
  } else if (Me() == 1) {
    ASSERT_EQ(dart_recv(&got, 1, DART_TYPE_INT, 9, DART_GLOBAL_UNIT_ID(0)), DART_OK);
    EXPECT_EQ(got, 1);
  }
  dart_barrier(DART_TEAM_ALL);
}

TEST(DartP2p, ProbeAnySourceGetsEveryMessageOnce) {
  // Every unit sends unit u a message of u + 3*sender bytes (some empty), synchronous mode.
  const int tag = 11;
  std::vector<std::vector<unsigned char>> out(N());
  std::vector<dart_handle_t> handles(N(), DART_HANDLE_NULL);
  for (int u = 0; u < N(); ++u) {
    out[u].assign(std::size_t(u + 3 * Me()), static_cast<unsigned char>(Me() * 16 + u));
    ASSERT_EQ(dart_issend(out[u].data(), out[u].size(), tag, DART_TEAM_UNIT_ID(u), DART_TEAM_ALL,
                          &handles[u]),
              DART_OK);
  }
  std::vector<int> seen(N(), 0);
  for (int got = 0; got < N();) {
    int32_t found = 0;
    dart_message_t message;
    dart_team_unit_t from{-1};
    std::size_t nbytes = 0;
    ASSERT_EQ(dart_improbe(tag, DART_UNDEFINED_TEAM_UNIT_ID, DART_TEAM_ALL, &found, &message, &from,
                           &nbytes),
              DART_OK);
    if (!found) continue;
    ASSERT_GE(from.id, 0);
    ASSERT_LT(from.id, N());
    EXPECT_EQ(nbytes, std::size_t(Me() + 3 * from.id));
    std::vector<unsigned char> in(nbytes + 1, 0xee);
    ASSERT_EQ(dart_mrecv(in.data(), nbytes, &message), DART_OK);
    for (std::size_t i = 0; i < nbytes; ++i)
      ASSERT_EQ(in[i], static_cast<unsigned char>(from.id * 16 + Me()));
    EXPECT_EQ(in[nbytes], 0xee);
    ++seen[from.id];
    ++got;
  }
  for (int u = 0; u < N(); ++u) EXPECT_EQ(seen[u], 1) << "from unit " << u;
  ASSERT_EQ(dart_waitall(handles.data(), handles.size()), DART_OK);
  // Nothing more is there.
  dart_barrier(DART_TEAM_ALL);
  int32_t found = 1;
  dart_message_t message;
  dart_team_unit_t from{-1};
  std::size_t nbytes = 0;
  ASSERT_EQ(dart_improbe(tag, DART_UNDEFINED_TEAM_UNIT_ID, DART_TEAM_ALL, &found, &message, &from,
                         &nbytes),
            DART_OK);
  EXPECT_EQ(found, 0);
  dart_barrier(DART_TEAM_ALL);
}

TEST(DartP2p, SynchronousSendPendsUntilMatched) {
  if (N() < 2) GTEST_SKIP() << "needs 2 units";
  const int tag = 12;
  if (Me() == 0) {
    int value = 42;
    dart_handle_t h = DART_HANDLE_NULL;
    ASSERT_EQ(dart_issend(&value, sizeof value, tag, DART_TEAM_UNIT_ID(1), DART_TEAM_ALL, &h),
              DART_OK);
    // Unit 1 matches only after this barrier, so the send cannot have completed before it.
    int32_t done = 1;
    for (int i = 0; i < 100; ++i) ASSERT_EQ(dart_test(&h, &done), DART_OK);
    EXPECT_EQ(done, 0);
    dart_barrier(DART_TEAM_ALL);
    ASSERT_EQ(dart_wait(&h), DART_OK);
  } else {
    dart_barrier(DART_TEAM_ALL);
    if (Me() == 1) {
      dart_message_t message;
      dart_team_unit_t from{-1};
      std::size_t nbytes = 0;
      ASSERT_EQ(dart_mprobe(tag, DART_TEAM_UNIT_ID(0), DART_TEAM_ALL, &message, &from, &nbytes),
                DART_OK);
      EXPECT_EQ(from.id, 0);
      ASSERT_EQ(nbytes, sizeof(int));
      int value = 0;
      ASSERT_EQ(dart_mrecv(&value, nbytes, &message), DART_OK);
      EXPECT_EQ(value, 42);
    }
  }
  dart_barrier(DART_TEAM_ALL);
}

TEST(DartP2p, SubTeamUsesTeamUnitIds) {
  // Team of all units in reverse order: team unit t is global unit N-1-t.
  dart_team_t reversed = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_split(DART_TEAM_ALL, 0, -Me(), &reversed), DART_OK);
  ASSERT_NE(reversed, DART_TEAM_NULL);
  dart_team_unit_t tme{-1};
  ASSERT_EQ(dart_team_myid(reversed, &tme), DART_OK);
  ASSERT_EQ(tme.id, N() - 1 - Me());
  const int to = (tme.id + 1) % N();
  int value = Me(), got = -1;
  dart_handle_t h = DART_HANDLE_NULL;
  ASSERT_EQ(dart_isend(&value, sizeof value, 3, DART_TEAM_UNIT_ID(to), reversed, &h), DART_OK);
  dart_message_t message;
  dart_team_unit_t from{-1};
  std::size_t nbytes = 0;
  ASSERT_EQ(dart_mprobe(3, DART_UNDEFINED_TEAM_UNIT_ID, reversed, &message, &from, &nbytes),
            DART_OK);
  EXPECT_EQ(from.id, (tme.id + N() - 1) % N());
  ASSERT_EQ(dart_mrecv(&got, nbytes, &message), DART_OK);
  EXPECT_EQ(got, N() - 1 - from.id);  // the sender's global id
  ASSERT_EQ(dart_wait(&h), DART_OK);
  ASSERT_EQ(dart_team_destroy(&reversed), DART_OK);
}

TEST(DartP2p, BadArgumentsAreRejected) {
  int value = 0;
  dart_handle_t h = DART_HANDLE_NULL;
  EXPECT_EQ(dart_isend(&value, sizeof value, -1, DART_TEAM_UNIT_ID(0), DART_TEAM_ALL, &h),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_isend(&value, sizeof value, 40000, DART_TEAM_UNIT_ID(0), DART_TEAM_ALL, &h),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_issend(&value, sizeof value, 1, DART_TEAM_UNIT_ID(N()), DART_TEAM_ALL, &h),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_isend(&value, sizeof value, 1, DART_TEAM_UNIT_ID(0), DART_TEAM_ALL, nullptr),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_isend(nullptr, 4, 1, DART_TEAM_UNIT_ID(0), DART_TEAM_ALL, &h), DART_ERR_INVAL);
  EXPECT_EQ(dart_send(&value, 1, DART_TYPE_INT, 1, DART_GLOBAL_UNIT_ID(-2)), DART_ERR_INVAL);
  EXPECT_EQ(h, DART_HANDLE_NULL);
  int32_t found = 0;
  dart_message_t message;
  dart_team_unit_t from{-1};
  std::size_t nbytes = 0;
  EXPECT_EQ(
      dart_improbe(1, DART_TEAM_UNIT_ID(N()), DART_TEAM_ALL, &found, &message, &from, &nbytes),
      DART_ERR_INVAL);
  EXPECT_EQ(
      dart_improbe(1, DART_UNDEFINED_TEAM_UNIT_ID, DART_TEAM_ALL, &found, nullptr, &from, &nbytes),
      DART_ERR_INVAL);
  EXPECT_EQ(dart_improbe(1, DART_UNDEFINED_TEAM_UNIT_ID, 99, &found, &message, &from, &nbytes),
            DART_ERR_INVAL);
}

TEST(DartP2p, TooSmallMrecvIsRefused) {
  // A matched message of 8 bytes: a 4-byte receive is refused, the right one still works.
  std::int64_t value = 77, got = 0;
  dart_handle_t h = DART_HANDLE_NULL;
  ASSERT_EQ(dart_isend(&value, sizeof value, 14, DART_TEAM_UNIT_ID(Me()), DART_TEAM_ALL, &h),
            DART_OK);
  dart_message_t message;
  dart_team_unit_t from{-1};
  std::size_t nbytes = 0;
  ASSERT_EQ(dart_mprobe(14, DART_TEAM_UNIT_ID(Me()), DART_TEAM_ALL, &message, &from, &nbytes),
            DART_OK);
  ASSERT_EQ(nbytes, sizeof value);
  EXPECT_EQ(dart_mrecv(&got, 4, &message), DART_ERR_INVAL);
  ASSERT_EQ(dart_mrecv(&got, nbytes, &message), DART_OK);
  EXPECT_EQ(got, 77);
  ASSERT_EQ(dart_wait(&h), DART_OK);
  dart_barrier(DART_TEAM_ALL);
}

TEST(DartP2p, ImrecvReceivesSeveralMatchedMessagesAtOnce) {
  // The left neighbour sends three messages of 300 KiB (beyond the eager sizes), an empty one
  // and one of 5 bytes; all are matched in order, started at once and waited for together. A
  // receive into too small a buffer is refused and the message stays matched.
  const int tag = 15;
  const int right = (Me() + 1) % N(), left = (Me() + N() - 1) % N();
  const std::vector<std::size_t> sizes = {300 << 10, 300 << 10, 300 << 10, 0, 5};
  std::vector<std::vector<unsigned char>> out, in;
  std::vector<dart_handle_t> sends(sizes.size(), DART_HANDLE_NULL);
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    out.emplace_back(sizes[k]);
    for (std::size_t i = 0; i < sizes[k]; ++i)
      out[k][i] = static_cast<unsigned char>(Me() * 31 + k * 7 + i % 251);
    ASSERT_EQ(dart_isend(out[k].data(), sizes[k], tag, DART_TEAM_UNIT_ID(right), DART_TEAM_ALL,
                         &sends[k]),
              DART_OK);
  }
  std::vector<dart_handle_t> receives(sizes.size(), DART_HANDLE_NULL);
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    dart_message_t message;
    dart_team_unit_t from{-1};
    std::size_t nbytes = 0;
    ASSERT_EQ(dart_mprobe(tag, DART_TEAM_UNIT_ID(left), DART_TEAM_ALL, &message, &from, &nbytes),
              DART_OK);
    ASSERT_EQ(nbytes, sizes[k]);
    in.emplace_back(nbytes + 1, 0xee);
    if (nbytes > 0) {
      EXPECT_EQ(dart_imrecv(in[k].data(), nbytes - 1, &message, &receives[k]), DART_ERR_INVAL);
      EXPECT_EQ(receives[k], DART_HANDLE_NULL);
    }
    ASSERT_EQ(dart_imrecv(in[k].data(), nbytes, &message, &receives[k]), DART_OK);
  }
  ASSERT_EQ(dart_waitall(receives.data(), receives.size()), DART_OK);
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    for (std::size_t i = 0; i < sizes[k]; ++i)
      ASSERT_EQ(in[k][i], static_cast<unsigned char>(left * 31 + k * 7 + i % 251)) << k << " " << i;
    EXPECT_EQ(in[k][sizes[k]], 0xee);
  }
  ASSERT_EQ(dart_waitall(sends.data(), sends.size()), DART_OK);
  dart_message_t used;
  dart_team_unit_t from{-1};
  std::size_t nbytes = 0;
  std::int64_t value = 1, got = 0;
  dart_handle_t h = DART_HANDLE_NULL, r = DART_HANDLE_NULL;
  ASSERT_EQ(dart_isend(&value, sizeof value, tag, DART_TEAM_UNIT_ID(Me()), DART_TEAM_ALL, &h),
            DART_OK);
  ASSERT_EQ(dart_mprobe(tag, DART_TEAM_UNIT_ID(Me()), DART_TEAM_ALL, &used, &from, &nbytes),
            DART_OK);
  ASSERT_EQ(dart_imrecv(&got, nbytes, &used, &r), DART_OK);
  ASSERT_EQ(dart_wait(&r), DART_OK);
  EXPECT_EQ(got, 1);
  EXPECT_EQ(dart_imrecv(&got, nbytes, &used, &r), DART_ERR_INVAL);  // received already
  ASSERT_EQ(dart_wait(&h), DART_OK);
  dart_barrier(DART_TEAM_ALL);
}

TEST(DartP2p, WrongSizeIsReportedNotTruncated) {
  // Each unit sends itself 3 ints and asks for 2: refused, and the message is gone afterwards.
  int three[3] = {1, 2, 3}, two[2] = {-1, -1};
  dart_handle_t h = DART_HANDLE_NULL;
  ASSERT_EQ(dart_isend(three, sizeof three, 13, DART_TEAM_UNIT_ID(Me()), DART_TEAM_ALL, &h),
            DART_OK);
  EXPECT_EQ(dart_recv(two, 2, DART_TYPE_INT, 13, DART_GLOBAL_UNIT_ID(Me())), DART_ERR_INVAL);
  ASSERT_EQ(dart_wait(&h), DART_OK);
  EXPECT_EQ(two[0], -1);
  int32_t found = 1;
  dart_message_t message;
  dart_team_unit_t from{-1};
  std::size_t nbytes = 0;
  ASSERT_EQ(dart_improbe(13, DART_UNDEFINED_TEAM_UNIT_ID, DART_TEAM_ALL, &found, &message, &from,
                         &nbytes),
            DART_OK);
  EXPECT_EQ(found, 0);
  dart_barrier(DART_TEAM_ALL);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizedAllocator = true;  // a failed malloc ends the run there
#else
constexpr bool kSanitizedAllocator = false;
#endif

// Lowers the calling process's address-space limit to what it maps now plus `headroom` bytes,
// so that a larger malloc fails; restores the limit when it goes.
class AddressSpaceLimit {
 public:
  explicit AddressSpaceLimit(std::size_t headroom) {
    getrlimit(RLIMIT_AS, &saved_);
    std::size_t pages = 0;
    if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%zu", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    rlimit lowered = saved_;
    lowered.rlim_cur = rlim_t(pages * std::size_t(sysconf(_SC_PAGESIZE)) + headroom);
    active_ = pages > 0 && setrlimit(RLIMIT_AS, &lowered) == 0;
  }
  ~AddressSpaceLimit() {
    if (active_) setrlimit(RLIMIT_AS, &saved_);
  }
  bool active() const { return active_; }

 private:
  rlimit saved_{};
  bool active_ = false;
};

TEST(DartP2p, WrongSizeWithoutMemoryToDropItStaysQueued) {
  // Each unit sends itself 64 MiB and asks for 2 ints while a 64 MiB malloc cannot succeed:
  // DART_ERR_NOMEM, and the message is still there for a receive of the right size.
  if (kSanitizedAllocator)
    GTEST_SKIP() << "the sanitizer's allocator ends the run on a failed malloc";
  const std::size_t count = (std::size_t(64) << 20) / sizeof(int);
  std::vector<int> sent(count), got(count, -1);
  std::iota(sent.begin(), sent.end(), Me() * 7);
  int two[2] = {-1, -1};
  dart_handle_t h = DART_HANDLE_NULL;
  ASSERT_EQ(
      dart_isend(sent.data(), count * sizeof(int), 14, DART_TEAM_UNIT_ID(Me()), DART_TEAM_ALL, &h),
      DART_OK);
  {
    AddressSpaceLimit limit(std::size_t(16) << 20);
    ASSERT_TRUE(limit.active()) << "could not lower RLIMIT_AS";
    EXPECT_EQ(dart_recv(two, 2, DART_TYPE_INT, 14, DART_GLOBAL_UNIT_ID(Me())), DART_ERR_NOMEM);
  }
  EXPECT_EQ(two[0], -1);
  ASSERT_EQ(dart_recv(got.data(), count, DART_TYPE_INT, 14, DART_GLOBAL_UNIT_ID(Me())), DART_OK);
  ASSERT_EQ(dart_wait(&h), DART_OK);
  EXPECT_TRUE(got == sent) << "the message received after the refusal differs";
  dart_barrier(DART_TEAM_ALL);
}

}  // namespace
