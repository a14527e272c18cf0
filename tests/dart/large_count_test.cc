// Counts beyond MPI's int: a message of more than 2^31 bytes sent with dart_isend is probed at
// its true size and received whole; a receive of the wrong size of such a message is refused
// (DART_ERR_INVAL) instead of aborting the job; a strided dart_get/dart_put of more than 2^31
// elements into or out of a contiguous buffer moves every element. Up to 6 GiB of memory per
// unit: label soak (scripts/test.sh -L soak). Run at 2 units with DART_SHARED_WINDOWS=0, so the
// transfers go through MPI RMA.
#include <dart/dart.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "mpi_test.h"

namespace {

int Me() { return dash_test::myid(); }

constexpr std::size_t kBigBytes = (std::size_t(1) << 31) + 4096 + 3;

// Byte i of a test message.
char ByteAt(std::size_t i) { return char((i * 131 + i / 4093) & 0xff); }

TEST(DartLargeCount, IsendOver2GiB_ProbedAndReceivedWhole) {
  if (dash_test::nunits() < 2) GTEST_SKIP() << "needs two units";
  if (Me() == 0) {
    std::vector<char> out(kBigBytes);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = ByteAt(i);
    dart_handle_t h = DART_HANDLE_NULL;
    ASSERT_EQ(dart_isend(out.data(), out.size(), 9, DART_TEAM_UNIT_ID(1), DART_TEAM_ALL, &h),
              DART_OK);
    ASSERT_EQ(dart_wait(&h), DART_OK);
  } else if (Me() == 1) {
    dart_message_t message;
    dart_team_unit_t from;
    std::size_t nbytes = 0;
    ASSERT_EQ(dart_mprobe(9, DART_TEAM_UNIT_ID(0), DART_TEAM_ALL, &message, &from, &nbytes),
              DART_OK);
    EXPECT_EQ(nbytes, kBigBytes);
    EXPECT_EQ(from.id, 0);
    std::vector<char> in(nbytes, 0);
    ASSERT_EQ(dart_mrecv(in.data(), in.size(), &message), DART_OK);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < in.size(); ++i) wrong += in[i] != ByteAt(i);
    EXPECT_EQ(wrong, 0u);
  }
  dart_barrier(DART_TEAM_ALL);
}

TEST(DartLargeCount, RecvOfWrongSizeOver2GiB_Refused) {
  if (dash_test::nunits() < 2) GTEST_SKIP() << "needs two units";
  const std::size_t n = kBigBytes / sizeof(double) + 1;  // more than 2^31 bytes of doubles
  if (Me() == 0) {
    std::vector<double> out(n, 1.5);
    ASSERT_EQ(dart_send(out.data(), out.size(), DART_TYPE_DOUBLE, 10, DART_GLOBAL_UNIT_ID(1)),
              DART_OK);
  } else if (Me() == 1) {
    std::vector<double> in(n - 1, 0.0);
    EXPECT_EQ(dart_recv(in.data(), in.size(), DART_TYPE_DOUBLE, 10, DART_GLOBAL_UNIT_ID(0)),
              DART_ERR_INVAL);
    EXPECT_EQ(in[0], 0.0) << "a refused message must not half-fill the buffer";
  }
  dart_barrier(DART_TEAM_ALL);
}

// Unit 0 gathers 7 of every 8 bytes of unit 1's segment into a contiguous buffer of more than
// 2^31 bytes, scatters them back into unit 1's segment shifted by one byte, and checks both.
TEST(DartLargeCount, StridedTransferOfMoreThan2Pow31Elements) {
  if (dash_test::nunits() < 2) GTEST_SKIP() << "needs two units";
  const std::size_t nelem = (std::size_t(1) << 31) + 13;  // > INT_MAX bytes, contiguous side
  const std::size_t span = (nelem / 7 + 1) * 8 + 8;
  dart_gptr_t seg = DART_GPTR_NULL;
  ASSERT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, span, DART_TYPE_BYTE, &seg), DART_OK);
  char* mine = nullptr;
  dart_gptr_t my_part = seg;
  ASSERT_EQ(dart_gptr_setunit(&my_part, DART_TEAM_UNIT_ID(Me())), DART_OK);
  ASSERT_EQ(dart_gptr_getaddr(my_part, reinterpret_cast<void**>(&mine)), DART_OK);
  for (std::size_t i = 0; i < span; ++i) mine[i] = ByteAt(i);
  dart_barrier(DART_TEAM_ALL);
  dart_datatype_t strided = DART_TYPE_UNDEFINED;
  ASSERT_EQ(dart_type_create_strided(DART_TYPE_BYTE, 8, 7, &strided), DART_OK);
  // Element k of the strided layout is byte (k / 7) * 8 + k % 7.
  auto at = [](std::size_t k) { return (k / 7) * 8 + k % 7; };
  if (Me() == 0) {
    dart_gptr_t theirs = seg;
    ASSERT_EQ(dart_gptr_setunit(&theirs, DART_TEAM_UNIT_ID(1)), DART_OK);
    std::vector<char> buf(nelem, 0);
    ASSERT_EQ(dart_get_blocking(buf.data(), theirs, nelem, strided, DART_TYPE_BYTE), DART_OK);
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < nelem; ++k) wrong += buf[k] != ByteAt(at(k));
    EXPECT_EQ(wrong, 0u) << "get";
    for (std::size_t k = 0; k < nelem; ++k) buf[k] = ByteAt(at(k) + 1);
    ASSERT_EQ(dart_put_blocking(theirs, buf.data(), nelem, DART_TYPE_BYTE, strided), DART_OK);
  }
  dart_barrier(DART_TEAM_ALL);
  if (Me() == 1) {
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < span; ++i) {
      const bool gathered = i % 8 != 7 && (i / 8) * 7 + i % 8 < nelem;
      wrong += mine[i] != (gathered ? ByteAt(i + 1) : ByteAt(i));
    }
    EXPECT_EQ(wrong, 0u) << "put";
  }
  EXPECT_EQ(dart_type_destroy(&strided), DART_OK);
  EXPECT_EQ(dart_team_memfree(seg), DART_OK);
}

// dart_alltoallv and dart_allgatherv with a count and offsets beyond INT_MAX elements: unit 0
// sends more than 2^31 bytes to unit 1, which stores them after a gap of 8 bytes; the small
// pieces each unit sends itself land at offsets beyond 2^31.
TEST(DartLargeCount, AlltoallvAndAllgathervBeyondIntMax) {
  if (dash_test::nunits() != 2) GTEST_SKIP() << "needs two units";
  const std::size_t big = kBigBytes, small = 16;
  // Unit 0 sends [small to itself | big to unit 1]; unit 1 sends [small to unit 0 | small to
  // itself]. Each receives what unit 0 sends it after what unit 1 sends it, 8 bytes apart.
  std::vector<std::size_t> scount(2), sdispl(2), rcount(2), rdispl(2);
  if (Me() == 0) {
    scount = {small, big}, sdispl = {0, small};
    rcount = {small, small}, rdispl = {small + 8, 0};
  } else {
    scount = {small, small}, sdispl = {0, small};
    rcount = {big, small}, rdispl = {small + 8, 0};
  }
  std::vector<char> out(scount[0] + scount[1]);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = ByteAt(i + std::size_t(Me()) * 7);
  std::vector<char> in(rdispl[0] + rcount[0], 0);
  ASSERT_EQ(dart_alltoallv(out.data(), scount.data(), sdispl.data(), DART_TYPE_BYTE, in.data(),
                           rcount.data(), rdispl.data(), DART_TEAM_ALL),
            DART_OK);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < rcount[0]; ++i)  // from unit 0, its part for me
    wrong += in[rdispl[0] + i] != ByteAt(sdispl[0] + (Me() == 0 ? 0 : small) + i);
  for (std::size_t i = 0; i < rcount[1]; ++i)  // from unit 1
    wrong += in[i] != ByteAt((Me() == 0 ? 0 : small) + i + 7);
  EXPECT_EQ(wrong, 0u) << "alltoallv";
  out.clear(), in.clear();
  out.shrink_to_fit(), in.shrink_to_fit();

  // allgatherv: unit 0 gives `big` bytes, unit 1 `small`, stored in reverse unit order.
  const std::vector<std::size_t> count = {big, small}, displ = {small, 0};
  std::vector<char> mine(count[std::size_t(Me())]);
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = ByteAt(i + std::size_t(Me()) * 3);
  std::vector<char> all(big + small, 0);
  ASSERT_EQ(dart_allgatherv(mine.data(), mine.size(), DART_TYPE_BYTE, all.data(), count.data(),
                            displ.data(), DART_TEAM_ALL),
            DART_OK);
  wrong = 0;
  for (std::size_t u = 0; u < 2; ++u)
    for (std::size_t i = 0; i < count[u]; ++i) wrong += all[displ[u] + i] != ByteAt(i + u * 3);
  EXPECT_EQ(wrong, 0u) << "allgatherv";
}

}  // namespace
