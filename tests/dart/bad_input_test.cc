// Bad input: every case returns its error code on every unit and never aborts, corrupts memory
// or leaves a unit behind in a collective. Collective calls get the same bad arguments on every
// unit, so all of them return at once. (Use before dart_init / after dart_exit: dart_lifecycle.)
#include <dart/dart.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

constexpr unsigned char kUntouched = 0xC3;

// Every put/get form on gptr with nelem elements of type returns DART_ERR_INVAL, writes nothing
// into the local buffer and hands out no handle.
void ExpectTransfersRejected(dart_gptr_t gptr, size_t nelem, dart_datatype_t type,
                             const std::string& what) {
  SCOPED_TRACE(what);
  std::vector<unsigned char> buf(256, kUntouched);
  dart_handle_t handle = reinterpret_cast<dart_handle_t>(&buf);  // garbage in
  EXPECT_EQ(dart_get(buf.data(), gptr, nelem, type, type), DART_ERR_INVAL);
  EXPECT_EQ(dart_get_blocking(buf.data(), gptr, nelem, type, type), DART_ERR_INVAL);
  EXPECT_EQ(dart_get_handle(buf.data(), gptr, nelem, type, type, &handle), DART_ERR_INVAL);
  EXPECT_EQ(handle, DART_HANDLE_NULL);
  EXPECT_EQ(dart_put(gptr, buf.data(), nelem, type, type), DART_ERR_INVAL);
  EXPECT_EQ(dart_put_blocking(gptr, buf.data(), nelem, type, type), DART_ERR_INVAL);
  handle = reinterpret_cast<dart_handle_t>(&buf);
  EXPECT_EQ(dart_put_handle(gptr, buf.data(), nelem, type, type, &handle), DART_ERR_INVAL);
  EXPECT_EQ(handle, DART_HANDLE_NULL);
  size_t touched = 0;
  for (unsigned char c : buf) touched += c != kUntouched;
  EXPECT_EQ(touched, 0u) << "a rejected get wrote into the destination";
}

// Both accumulate forms on nelem ints at gptr return DART_ERR_INVAL.
void ExpectAccumulatesRejected(dart_gptr_t gptr, size_t nelem, const std::string& what) {
  SCOPED_TRACE(what);
  const int values[4] = {1, 2, 3, 4};
  EXPECT_EQ(dart_accumulate(gptr, values, nelem, DART_TYPE_INT, DART_OP_SUM), DART_ERR_INVAL);
  EXPECT_EQ(dart_accumulate_blocking_local(gptr, values, nelem, DART_TYPE_INT, DART_OP_SUM),
            DART_ERR_INVAL);
}

// Every atomic on one int at gptr returns DART_ERR_INVAL and writes no result.
void ExpectAtomicsRejected(dart_gptr_t gptr, const std::string& what) {
  ExpectAccumulatesRejected(gptr, 1, what);
  SCOPED_TRACE(what);
  int value = 1, result = -7, compare = 0;
  EXPECT_EQ(dart_fetch_and_op(gptr, &value, &result, DART_TYPE_INT, DART_OP_SUM), DART_ERR_INVAL);
  EXPECT_EQ(dart_fetch_and_op(gptr, nullptr, &result, DART_TYPE_INT, DART_OP_NO_OP),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_compare_and_swap(gptr, &value, &compare, &result, DART_TYPE_INT), DART_ERR_INVAL);
  EXPECT_EQ(result, -7);
}

void ExpectFlushesRejected(dart_gptr_t gptr, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(dart_flush(gptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_flush_all(gptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_flush_local(gptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_flush_local_all(gptr), DART_ERR_INVAL);
}

// Every global pointer helper that looks the pointer up returns DART_ERR_INVAL
// (dart_gptr_segment_size ignores the offset, so it is left out for bad offsets).
void ExpectLookupsRejected(dart_gptr_t gptr, const std::string& what, bool bad_offset_only) {
  SCOPED_TRACE(what);
  void* addr = &addr;
  EXPECT_EQ(dart_gptr_getaddr(gptr, &addr), DART_ERR_INVAL);
  EXPECT_EQ(addr, nullptr);
  addr = &addr;
  EXPECT_EQ(dart_gptr_getaddr_shared(gptr, &addr), DART_ERR_INVAL);
  EXPECT_EQ(addr, nullptr);
  dart_gptr_t copy = gptr;
  int local = 0;
  EXPECT_EQ(dart_gptr_setaddr(&copy, &local), DART_ERR_INVAL);
  EXPECT_TRUE(dart_gptr_equal(copy, gptr));
  if (!bad_offset_only) {
    size_t nbytes = 0;
    EXPECT_EQ(dart_gptr_segment_size(gptr, &nbytes), DART_ERR_INVAL);
  }
}

void ExpectEverythingRejected(dart_gptr_t gptr, const std::string& what,
                              bool bad_offset_only = false) {
  ExpectTransfersRejected(gptr, 1, DART_TYPE_INT, what);
  ExpectAtomicsRejected(gptr, what);
  ExpectFlushesRejected(gptr, what);
  ExpectLookupsRejected(gptr, what, bad_offset_only);
}

dart_runtime_stats_t Stats() {
  dart_runtime_stats_t stats{};
  EXPECT_EQ(dart_runtime_stats(&stats), DART_OK);
  return stats;
}

// Checks that DART still works after the errors: a ring of puts on a fresh segment and an
// allreduce, and that the errors left no handle, segment or window behind.
void ExpectStillWorking(const dart_runtime_stats_t& before) {
  dart_gptr_t gptr = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 1, DART_TYPE_INT, &gptr), DART_OK);
  dart_gptr_t right = gptr, mine = gptr;
  EXPECT_EQ(dart_gptr_setunit(&right, DART_TEAM_UNIT_ID((Me() + 1) % N())), DART_OK);
  EXPECT_EQ(dart_gptr_setunit(&mine, DART_TEAM_UNIT_ID(Me())), DART_OK);
  const int value = 77 + Me();
  EXPECT_EQ(dart_put_blocking(right, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  int got = -1;
  EXPECT_EQ(dart_get_blocking(&got, mine, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(got, 77 + (Me() + N() - 1) % N());
  int sum = 0;
  EXPECT_EQ(dart_allreduce(&value, &sum, 1, DART_TYPE_INT, DART_OP_SUM, DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(sum, 77 * N() + N() * (N() - 1) / 2);
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(dart_team_memfree(gptr), DART_OK);
  const dart_runtime_stats_t now = Stats();
  EXPECT_EQ(now.teams, before.teams);
  EXPECT_EQ(now.segments, before.segments);
  EXPECT_EQ(now.windows, before.windows);
  EXPECT_EQ(now.communicators, before.communicators);
  EXPECT_EQ(now.handles, before.handles);
  EXPECT_EQ(now.local_pool_used, before.local_pool_used);
}

// A team segment of 4 ints per unit for the tests below.
class DartBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    before_ = Stats();
    EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 4, DART_TYPE_INT, &seg_), DART_OK);
    mine_ = seg_;
    EXPECT_EQ(dart_gptr_setunit(&mine_, DART_TEAM_UNIT_ID(Me())), DART_OK);
  }
  void TearDown() override {
    EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
    EXPECT_EQ(dart_team_memfree(seg_), DART_OK);
    ExpectStillWorking(before_);
  }
  dart_runtime_stats_t before_{};
  dart_gptr_t seg_ = DART_GPTR_NULL;   // unit 0's part
  dart_gptr_t mine_ = DART_GPTR_NULL;  // the calling unit's part
};

// ---- global pointers -------------------------------------------------------------------------

TEST_F(DartBadInput, NullGptrIsRejectedByPutGetFlushAtomicsAndLookups) {
  ExpectEverythingRejected(DART_GPTR_NULL, "DART_GPTR_NULL");
  // Moving or re-uniting the null pointer does not make it valid.
  dart_gptr_t moved = DART_GPTR_NULL;
  EXPECT_EQ(dart_gptr_incaddr(&moved, 8), DART_OK);
  ExpectEverythingRejected(moved, "DART_GPTR_NULL + 8");
}

TEST_F(DartBadInput, ZeroElementTransfersStillCheckThePointer) {
  ExpectTransfersRejected(DART_GPTR_NULL, 0, DART_TYPE_INT, "DART_GPTR_NULL, 0 elements");
  dart_gptr_t freed = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 8, DART_TYPE_INT, &freed), DART_OK);
  EXPECT_EQ(dart_team_memfree(freed), DART_OK);
  ExpectTransfersRejected(freed, 0, DART_TYPE_INT, "freed segment, 0 elements");
  // The end of a segment is a valid place for an empty transfer.
  dart_gptr_t end = mine_;
  size_t bytes = 0;
  EXPECT_EQ(dart_gptr_segment_size(end, &bytes), DART_OK);
  EXPECT_EQ(dart_gptr_incaddr(&end, static_cast<int64_t>(bytes)), DART_OK);
  int value = 0;
  EXPECT_EQ(dart_get_blocking(&value, end, 0, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(dart_put_blocking(end, &value, 0, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
}

TEST_F(DartBadInput, FreedGptrIsRejected) {
  dart_gptr_t freed = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 8, DART_TYPE_INT, &freed), DART_OK);
  EXPECT_EQ(dart_gptr_setunit(&freed, DART_TEAM_UNIT_ID((Me() + 1) % N())), DART_OK);
  EXPECT_EQ(dart_team_memfree(freed), DART_OK);
  ExpectEverythingRejected(freed, "freed segment");
  EXPECT_EQ(dart_team_memfree(freed), DART_ERR_INVAL);  // twice: every unit, no hang
  // The segment we still hold is unaffected.
  const int value = 5;
  EXPECT_EQ(dart_put_blocking(mine_, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
}

TEST_F(DartBadInput, GptrOfUnknownTeamOrSegmentIsRejected) {
  for (dart_team_t team : {dart_team_t{12345}, dart_team_t{32767}, dart_team_t{-5}}) {
    dart_gptr_t g = mine_;
    g.teamid = team;
    ExpectEverythingRejected(g, "unknown team " + std::to_string(team));
  }
  for (int16_t segid : {int16_t{3000}, int16_t{-5}, int16_t{32767}}) {
    dart_gptr_t g = mine_;
    g.segid = segid;
    ExpectEverythingRejected(g, "unknown segment " + std::to_string(segid));
  }
  // Memory of a team that was destroyed (with the memory still allocated).
  dart_team_t clone = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_clone(DART_TEAM_ALL, &clone), DART_OK);
  dart_gptr_t orphan = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(clone, 4, DART_TYPE_INT, &orphan), DART_OK);
  EXPECT_EQ(dart_team_destroy(&clone), DART_OK);
  ExpectEverythingRejected(orphan, "segment of a destroyed team");
  EXPECT_EQ(dart_team_memfree(orphan), DART_ERR_INVAL);
}

TEST_F(DartBadInput, UnitOutOfRangeIsRejected) {
  for (int unit : {N(), N() + 100, -2, (1 << 23) - 1}) {
    dart_gptr_t g = seg_;
    g.unitid = unit;
    ExpectEverythingRejected(g, "unit " + std::to_string(unit));
  }
  dart_gptr_t g = seg_;
  EXPECT_EQ(dart_gptr_setunit(&g, DART_TEAM_UNIT_ID(-1)), DART_ERR_INVAL);
  EXPECT_EQ(dart_gptr_setunit(&g, DART_TEAM_UNIT_ID(1 << 23)), DART_ERR_INVAL);
  EXPECT_TRUE(dart_gptr_equal(g, seg_));
  // On a sub-team, team unit ids end at the team's size.
  dart_team_t half = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, Me() % 2, Me(), &half), DART_OK);
  size_t size = 0;
  EXPECT_EQ(dart_team_size(half, &size), DART_OK);
  dart_gptr_t sub = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(half, 2, DART_TYPE_INT, &sub), DART_OK);
  EXPECT_EQ(dart_gptr_setunit(&sub, DART_TEAM_UNIT_ID(static_cast<int>(size))), DART_OK);
  ExpectEverythingRejected(sub, "team unit == team size");
  EXPECT_EQ(dart_team_destroy(&half), DART_OK);
}

TEST_F(DartBadInput, OffsetsOutOfRangeAndRangesCrossingTheEndAreRejected) {
  const int64_t nbytes = 4 * sizeof(int);
  auto at = [&](int64_t offset) {
    dart_gptr_t g = mine_;
    EXPECT_EQ(dart_gptr_incaddr(&g, offset), DART_OK);
    return g;
  };
  // One past the end is a position (lookups and flushes accept it) but holds no element.
  ExpectTransfersRejected(at(nbytes), 1, DART_TYPE_INT, "offset == segment size");
  ExpectAtomicsRejected(at(nbytes), "offset == segment size");
  ExpectEverythingRejected(at(nbytes + 1), "offset past the end", true);
  ExpectEverythingRejected(at(-4), "offset before the start", true);
  ExpectEverythingRejected(at(INT64_MAX), "huge offset", true);
  ExpectTransfersRejected(at(nbytes - 4), 2, DART_TYPE_INT, "2 ints from the last int");
  ExpectTransfersRejected(at(0), 5, DART_TYPE_INT, "5 ints in a 4-int segment");
  ExpectTransfersRejected(at(1), 4, DART_TYPE_INT, "4 ints from byte 1");
  ExpectAccumulatesRejected(at(nbytes - 4), 2, "accumulate of 2 ints from the last int");
  ExpectAtomicsRejected(at(nbytes - 2), "atomic on the last 2 bytes");
  // The remote side of a strided transfer spans more than its elements.
  dart_datatype_t every4th = DART_TYPE_UNDEFINED;
  EXPECT_EQ(dart_type_create_strided(DART_TYPE_INT, 4, 1, &every4th), DART_OK);
  std::vector<unsigned char> buf(64, kUntouched);
  EXPECT_EQ(dart_get_blocking(buf.data(), at(0), 2, every4th, DART_TYPE_INT), DART_ERR_INVAL);
  EXPECT_EQ(dart_put_blocking(at(0), buf.data(), 2, DART_TYPE_INT, every4th), DART_ERR_INVAL);
  EXPECT_EQ(buf[0], kUntouched);
  EXPECT_EQ(dart_type_destroy(&every4th), DART_OK);
  // The exact end still works.
  int last = 0;
  EXPECT_EQ(dart_get_blocking(&last, at(nbytes - 4), 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(dart_get_blocking(buf.data(), at(0), 4, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
}

TEST_F(DartBadInput, OverflowingSizesAreRejected) {
  for (size_t nelem : {SIZE_MAX, SIZE_MAX / 2, SIZE_MAX / sizeof(int) + 1, size_t{1} << 40}) {
    ExpectTransfersRejected(mine_, nelem, DART_TYPE_INT, "nelem " + std::to_string(nelem));
    ExpectAccumulatesRejected(mine_, nelem, "accumulate nelem " + std::to_string(nelem));
  }
  dart_gptr_t g = DART_GPTR_NULL;
  // Collective, but rejected on every unit before any communication.
  EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, SIZE_MAX, DART_TYPE_INT, &g), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, SIZE_MAX / 4 + 1, DART_TYPE_INT, &g),
            DART_ERR_INVAL);
  EXPECT_TRUE(DART_GPTR_ISNULL(g));
  EXPECT_EQ(dart_memalloc(SIZE_MAX, DART_TYPE_INT, &g), DART_ERR_INVAL);
  EXPECT_EQ(dart_memalloc(SIZE_MAX / 2, DART_TYPE_LONG, &g), DART_ERR_INVAL);
  EXPECT_EQ(dart_memalloc(0, DART_TYPE_INT, &g), DART_ERR_INVAL);  // zero bytes
  EXPECT_TRUE(DART_GPTR_ISNULL(g));
  // Collectives whose element count overflows the buffer size or one MPI call.
  int buf[4] = {0, 0, 0, 0}, out[4] = {0, 0, 0, 0};
  const dart_team_unit_t root = DART_TEAM_UNIT_ID(0);
  for (size_t nelem : {SIZE_MAX, SIZE_MAX / sizeof(int) + 1}) {
    SCOPED_TRACE("nelem " + std::to_string(nelem));
    EXPECT_EQ(dart_bcast(buf, nelem, DART_TYPE_INT, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_reduce(buf, out, nelem, DART_TYPE_INT, DART_OP_SUM, root, DART_TEAM_ALL),
              DART_ERR_INVAL);
    EXPECT_EQ(dart_allreduce(buf, out, nelem, DART_TYPE_INT, DART_OP_SUM, DART_TEAM_ALL),
              DART_ERR_INVAL);
    EXPECT_EQ(dart_scatter(buf, out, nelem, DART_TYPE_INT, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_gather(buf, out, nelem, DART_TYPE_INT, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_allgather(buf, out, nelem, DART_TYPE_INT, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_alltoall(buf, out, nelem, DART_TYPE_INT, DART_TEAM_ALL), DART_ERR_INVAL);
    dart_handle_t handle = DART_HANDLE_NULL;
    EXPECT_EQ(dart_iallreduce(buf, out, nelem, DART_TYPE_INT, DART_OP_SUM, DART_TEAM_ALL, &handle),
              DART_ERR_INVAL);
    EXPECT_EQ(handle, DART_HANDLE_NULL);
    std::vector<size_t> counts(N(), nelem), displs(N(), 0);
    EXPECT_EQ(dart_allgatherv(buf, nelem, DART_TYPE_INT, out, counts.data(), displs.data(),
                              DART_TEAM_ALL),
              DART_ERR_INVAL);
  }
  EXPECT_EQ(buf[0], 0);
  EXPECT_EQ(out[0], 0);
}

// ---- data types ------------------------------------------------------------------------------

TEST_F(DartBadInput, BadDataTypeIdsAreRejected) {
  dart_datatype_t destroyed = DART_TYPE_UNDEFINED;
  EXPECT_EQ(dart_type_create_custom(8, &destroyed), DART_OK);
  const dart_datatype_t destroyed_id = destroyed;
  EXPECT_EQ(dart_type_destroy(&destroyed), DART_OK);
  const dart_datatype_t bad[] = {DART_TYPE_UNDEFINED, DART_TYPE_LAST, 999, -1,
                                 1024 + 777,          destroyed_id};
  int buf[4] = {0, 0, 0, 0}, out[4] = {0, 0, 0, 0};
  for (dart_datatype_t type : bad) {
    const std::string what = "type " + std::to_string(type);
    SCOPED_TRACE(what);
    ExpectTransfersRejected(mine_, 1, type, what);
    std::vector<unsigned char> local(16, kUntouched);
    EXPECT_EQ(dart_get_blocking(local.data(), mine_, 1, DART_TYPE_INT, type), DART_ERR_INVAL);
    EXPECT_EQ(dart_get_blocking(local.data(), mine_, 1, type, DART_TYPE_INT), DART_ERR_INVAL);
    EXPECT_EQ(local[0], kUntouched);
    size_t size = 0;
    EXPECT_EQ(dart_op_type_size(type, &size), DART_ERR_INVAL);
    dart_gptr_t g = DART_GPTR_NULL;
    EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 4, type, &g), DART_ERR_INVAL);
    EXPECT_EQ(dart_memalloc(4, type, &g), DART_ERR_INVAL);
    EXPECT_TRUE(DART_GPTR_ISNULL(g));
    int result = 0;
    EXPECT_EQ(dart_accumulate(mine_, buf, 1, type, DART_OP_SUM), DART_ERR_INVAL);
    EXPECT_EQ(dart_fetch_and_op(mine_, buf, &result, type, DART_OP_SUM), DART_ERR_INVAL);
    EXPECT_EQ(dart_compare_and_swap(mine_, buf, buf, &result, type), DART_ERR_INVAL);
    const dart_team_unit_t root = DART_TEAM_UNIT_ID(0);
    EXPECT_EQ(dart_bcast(buf, 1, type, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_scatter(buf, out, 1, type, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_gather(buf, out, 1, type, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_allgather(buf, out, 1, type, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_alltoall(buf, out, 1, type, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_reduce(buf, out, 1, type, DART_OP_SUM, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_allreduce(buf, out, 1, type, DART_OP_SUM, DART_TEAM_ALL), DART_ERR_INVAL);
    dart_handle_t handle = DART_HANDLE_NULL;
    EXPECT_EQ(dart_iallreduce(buf, out, 1, type, DART_OP_SUM, DART_TEAM_ALL, &handle),
              DART_ERR_INVAL);
    std::vector<size_t> counts(N(), 1), displs(N(), 0);
    EXPECT_EQ(dart_allgatherv(buf, 1, type, out, counts.data(), displs.data(), DART_TEAM_ALL),
              DART_ERR_INVAL);
    dart_datatype_t strided = DART_TYPE_UNDEFINED;
    EXPECT_EQ(dart_type_create_strided(type, 2, 1, &strided), DART_ERR_INVAL);
  }
  // Types that exist but do not fit the call.
  std::vector<double> dbl(4, 0.0);
  EXPECT_EQ(dart_get_blocking(dbl.data(), mine_, 1, DART_TYPE_INT, DART_TYPE_DOUBLE),
            DART_ERR_INVAL);  // different element types
  dart_datatype_t strided = DART_TYPE_UNDEFINED;
  EXPECT_EQ(dart_type_create_strided(DART_TYPE_INT, 3, 2, &strided), DART_OK);
  dart_gptr_t g = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 4, strided, &g), DART_ERR_INVAL);
  EXPECT_EQ(dart_memalloc(4, strided, &g), DART_ERR_INVAL);
  EXPECT_EQ(dart_allreduce(buf, out, 1, strided, DART_OP_SUM, DART_TEAM_ALL), DART_ERR_INVAL);
  dart_datatype_t nested = DART_TYPE_UNDEFINED;
  EXPECT_EQ(dart_type_create_strided(strided, 4, 1, &nested), DART_ERR_INVAL);
  EXPECT_EQ(dart_type_destroy(&strided), DART_OK);
  // Malformed type definitions and destroys.
  dart_datatype_t t = DART_TYPE_UNDEFINED;
  EXPECT_EQ(dart_type_create_strided(DART_TYPE_INT, 2, 0, &t), DART_ERR_INVAL);  // blocklen 0
  EXPECT_EQ(dart_type_create_strided(DART_TYPE_INT, 1, 2, &t), DART_ERR_INVAL);  // stride<block
  EXPECT_EQ(dart_type_create_custom(0, &t), DART_ERR_INVAL);
  EXPECT_EQ(dart_type_create_custom(SIZE_MAX, &t), DART_ERR_INVAL);
  EXPECT_EQ(t, DART_TYPE_UNDEFINED);
  dart_datatype_t basic = DART_TYPE_INT;
  EXPECT_EQ(dart_type_destroy(&basic), DART_ERR_INVAL);
  EXPECT_EQ(basic, DART_TYPE_INT);
  dart_datatype_t again = destroyed_id;
  EXPECT_EQ(dart_type_destroy(&again), DART_ERR_INVAL);  // destroyed twice
}

// ---- teams -----------------------------------------------------------------------------------

TEST_F(DartBadInput, UnknownTeamIsRejectedByEveryTeamCall) {
  dart_team_t destroyed = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_clone(DART_TEAM_ALL, &destroyed), DART_OK);
  const dart_team_t destroyed_id = destroyed;
  EXPECT_EQ(dart_team_destroy(&destroyed), DART_OK);
  int buf[4] = {1, 2, 3, 4}, out[16] = {0};
  const dart_team_unit_t root = DART_TEAM_UNIT_ID(0);
  for (dart_team_t team :
       {DART_TEAM_NULL, dart_team_t{-5}, dart_team_t{12345}, dart_team_t{32767}, destroyed_id}) {
    SCOPED_TRACE("team " + std::to_string(team));
    dart_team_unit_t me{-9};
    size_t size = 99;
    dart_team_t parent = 42, newteam = 42;
    dart_group_t group = nullptr;
    dart_global_unit_t global{-9};
    EXPECT_EQ(dart_team_myid(team, &me), DART_ERR_INVAL);
    EXPECT_EQ(dart_team_size(team, &size), DART_ERR_INVAL);
    EXPECT_EQ(dart_team_get_parent(team, &parent), DART_ERR_INVAL);
    EXPECT_EQ(dart_team_get_group(team, &group), DART_ERR_INVAL);
    EXPECT_EQ(group, nullptr);
    EXPECT_EQ(dart_team_unit_l2g(team, DART_TEAM_UNIT_ID(0), &global), DART_ERR_INVAL);
    EXPECT_EQ(dart_team_unit_g2l(team, DART_GLOBAL_UNIT_ID(0), &me), DART_ERR_INVAL);
    dart_group_t all = nullptr;
    EXPECT_EQ(dart_team_get_group(DART_TEAM_ALL, &all), DART_OK);
    EXPECT_EQ(dart_team_create(team, all, &newteam), DART_ERR_INVAL);
    dart_group_destroy(&all);
    EXPECT_EQ(dart_team_split(team, 0, 0, &newteam), DART_ERR_INVAL);
    EXPECT_EQ(dart_team_split_node(team, &newteam), DART_ERR_INVAL);
    EXPECT_EQ(dart_team_clone(team, &newteam), DART_ERR_INVAL);
    dart_team_t victim = team;
    EXPECT_EQ(dart_team_destroy(&victim), DART_ERR_INVAL);
    dart_gptr_t g = DART_GPTR_NULL;
    EXPECT_EQ(dart_team_memalloc_aligned(team, 4, DART_TYPE_INT, &g), DART_ERR_INVAL);
    EXPECT_TRUE(DART_GPTR_ISNULL(g));
    EXPECT_EQ(dart_barrier(team), DART_ERR_INVAL);
    EXPECT_EQ(dart_bcast(buf, 1, DART_TYPE_INT, root, team), DART_ERR_INVAL);
    EXPECT_EQ(dart_scatter(buf, out, 1, DART_TYPE_INT, root, team), DART_ERR_INVAL);
    EXPECT_EQ(dart_gather(buf, out, 1, DART_TYPE_INT, root, team), DART_ERR_INVAL);
    EXPECT_EQ(dart_allgather(buf, out, 1, DART_TYPE_INT, team), DART_ERR_INVAL);
    std::vector<size_t> counts(N(), 1), displs(N(), 0);
    EXPECT_EQ(dart_allgatherv(buf, 1, DART_TYPE_INT, out, counts.data(), displs.data(), team),
              DART_ERR_INVAL);
    EXPECT_EQ(dart_reduce(buf, out, 1, DART_TYPE_INT, DART_OP_SUM, root, team), DART_ERR_INVAL);
    EXPECT_EQ(dart_allreduce(buf, out, 1, DART_TYPE_INT, DART_OP_SUM, team), DART_ERR_INVAL);
    EXPECT_EQ(dart_alltoall(buf, out, 1, DART_TYPE_INT, team), DART_ERR_INVAL);
    dart_handle_t handle = DART_HANDLE_NULL;
    EXPECT_EQ(dart_ibarrier(team, &handle), DART_ERR_INVAL);
    EXPECT_EQ(dart_iallreduce(buf, out, 1, DART_TYPE_INT, DART_OP_SUM, team, &handle),
              DART_ERR_INVAL);
    EXPECT_EQ(handle, DART_HANDLE_NULL);
    dart_lock_t lock = nullptr;
    EXPECT_EQ(dart_team_lock_init(team, &lock), DART_ERR_INVAL);
    EXPECT_EQ(lock, nullptr);
    EXPECT_EQ(out[0], 0);
  }
  dart_team_t all = DART_TEAM_ALL;
  EXPECT_EQ(dart_team_destroy(&all), DART_ERR_INVAL);  // DART_TEAM_ALL cannot be destroyed
  EXPECT_EQ(all, DART_TEAM_ALL);
}

TEST_F(DartBadInput, TeamUnitIdsOutOfRangeAreRejected) {
  dart_global_unit_t global{-9};
  dart_team_unit_t local{-9};
  for (int unit : {-1, N(), N() + 7}) {
    EXPECT_EQ(dart_team_unit_l2g(DART_TEAM_ALL, DART_TEAM_UNIT_ID(unit), &global), DART_ERR_INVAL);
    EXPECT_EQ(dart_team_unit_g2l(DART_TEAM_ALL, DART_GLOBAL_UNIT_ID(unit), &local), DART_ERR_INVAL);
  }
  EXPECT_EQ(global.id, -9);
  EXPECT_EQ(local.id, -9);
}

TEST_F(DartBadInput, TeamCreateFromGroupWithUnitsOutsideTheParentIsRejected) {
  // Parent: the units of my parity. Group: every unit, so (with 2+ units) some are outside it.
  dart_team_t parity = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, Me() % 2, Me(), &parity), DART_OK);
  dart_group_t all = nullptr;
  EXPECT_EQ(dart_team_get_group(DART_TEAM_ALL, &all), DART_OK);
  dart_team_t newteam = 42;
  if (N() > 1) {
    EXPECT_EQ(dart_team_create(parity, all, &newteam), DART_ERR_INVAL);
  }
  EXPECT_EQ(dart_team_create(parity, nullptr, &newteam), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_create(parity, all, nullptr), DART_ERR_INVAL);
  dart_group_destroy(&all);
  EXPECT_EQ(dart_team_destroy(&parity), DART_OK);
}

// ---- collectives -----------------------------------------------------------------------------

TEST_F(DartBadInput, BadRootIsRejectedByRootedCollectives) {
  int buf[8] = {0}, out[8] = {0};
  for (int r : {-1, N(), N() + 10}) {
    SCOPED_TRACE("root " + std::to_string(r));
    const dart_team_unit_t root = DART_TEAM_UNIT_ID(r);
    EXPECT_EQ(dart_bcast(buf, 1, DART_TYPE_INT, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_scatter(buf, out, 1, DART_TYPE_INT, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_gather(buf, out, 1, DART_TYPE_INT, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_reduce(buf, out, 1, DART_TYPE_INT, DART_OP_SUM, root, DART_TEAM_ALL),
              DART_ERR_INVAL);
  }
}

TEST_F(DartBadInput, AllgathervWithInconsistentCountsIsRejected) {
  int buf[4] = {0}, out[16] = {0};
  std::vector<size_t> counts(N(), 1), displs(N(), 0);
  EXPECT_EQ(
      dart_allgatherv(buf, 2, DART_TYPE_INT, out, counts.data(), displs.data(), DART_TEAM_ALL),
      DART_ERR_INVAL);  // nsendelem != nrecvelem[me]
  EXPECT_EQ(dart_allgatherv(buf, 1, DART_TYPE_INT, out, nullptr, displs.data(), DART_TEAM_ALL),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_allgatherv(buf, 1, DART_TYPE_INT, out, counts.data(), nullptr, DART_TEAM_ALL),
            DART_ERR_INVAL);
}

// A bad count on one unit only: that unit's call fails with DART_ERR_INVAL, every other unit's
// with DART_ERR_OTHER, and none waits for it (they agree on the set-up first).
TEST_F(DartBadInput, CollectiveFailingOnOneUnitFailsOnEveryUnit) {
  const int bad = N() - 1;
  const bool me_bad = Me() == bad;
  std::vector<int> send(static_cast<size_t>(N()), Me()), recv(static_cast<size_t>(N()), -1);
  std::vector<size_t> counts(static_cast<size_t>(N()), 1), displs(static_cast<size_t>(N()));
  for (int u = 0; u < N(); ++u) displs[static_cast<size_t>(u)] = static_cast<size_t>(u);
  std::vector<size_t> send_counts = counts;
  if (me_bad) send_counts[0] = SIZE_MAX / 2;  // more ints than the address space holds
  EXPECT_EQ(dart_alltoallv(send.data(), send_counts.data(), displs.data(), DART_TYPE_INT,
                           recv.data(), counts.data(), displs.data(), DART_TEAM_ALL),
            me_bad ? DART_ERR_INVAL : DART_ERR_OTHER);
  EXPECT_EQ(dart_allgatherv(send.data(), me_bad ? 2 : 1, DART_TYPE_INT, recv.data(), counts.data(),
                            displs.data(), DART_TEAM_ALL),
            me_bad ? DART_ERR_INVAL : DART_ERR_OTHER);
  // The team is usable afterwards: the same calls with good counts.
  EXPECT_EQ(dart_alltoallv(send.data(), counts.data(), displs.data(), DART_TYPE_INT, recv.data(),
                           counts.data(), displs.data(), DART_TEAM_ALL),
            DART_OK);
  for (int u = 0; u < N(); ++u) EXPECT_EQ(recv[static_cast<size_t>(u)], u);
}

TEST_F(DartBadInput, OperationsIllegalForTheTypeAreRejected) {
  double dbl[2] = {1.0, 2.0}, dout[2] = {0.0, 0.0};
  int in[2] = {1, 2}, iout[2] = {0, 0};
  const dart_team_unit_t root = DART_TEAM_UNIT_ID(0);
  dart_handle_t handle = DART_HANDLE_NULL;
  for (dart_operation_t op :
       {DART_OP_BAND, DART_OP_BOR, DART_OP_BXOR, DART_OP_LAND, DART_OP_LOR, DART_OP_LXOR}) {
    SCOPED_TRACE("op " + std::to_string(op) + " on double");
    EXPECT_EQ(dart_allreduce(dbl, dout, 2, DART_TYPE_DOUBLE, op, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_reduce(dbl, dout, 2, DART_TYPE_DOUBLE, op, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_iallreduce(dbl, dout, 2, DART_TYPE_DOUBLE, op, DART_TEAM_ALL, &handle),
              DART_ERR_INVAL);
  }
  // Unknown operations: 14 and 15 are past DART_OP_LAST but still values the C++ enum can hold.
  for (dart_operation_t op : {DART_OP_REPLACE, DART_OP_NO_OP, DART_OP_UNDEFINED, DART_OP_LAST,
                              static_cast<dart_operation_t>(15)}) {
    SCOPED_TRACE("op " + std::to_string(op) + " in a reduction");
    EXPECT_EQ(dart_allreduce(in, iout, 2, DART_TYPE_INT, op, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_reduce(in, iout, 2, DART_TYPE_INT, op, root, DART_TEAM_ALL), DART_ERR_INVAL);
    EXPECT_EQ(dart_iallreduce(in, iout, 2, DART_TYPE_INT, op, DART_TEAM_ALL, &handle),
              DART_ERR_INVAL);
  }
  EXPECT_EQ(handle, DART_HANDLE_NULL);
  EXPECT_EQ(dout[0], 0.0);
  EXPECT_EQ(iout[0], 0);

  // Atomics: bitwise on double, compare-and-swap on floating types, no-op accumulate, unknown
  // operations.
  dart_gptr_t dseg = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 2, DART_TYPE_DOUBLE, &dseg), DART_OK);
  EXPECT_EQ(dart_gptr_setunit(&dseg, DART_TEAM_UNIT_ID(Me())), DART_OK);
  const double initial[2] = {5.0, 6.0};
  EXPECT_EQ(dart_put_blocking(dseg, initial, 2, DART_TYPE_DOUBLE, DART_TYPE_DOUBLE), DART_OK);
  const int initial_int = 11;
  EXPECT_EQ(dart_put_blocking(mine_, &initial_int, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  double result = -1.0;
  EXPECT_EQ(dart_accumulate(dseg, dbl, 1, DART_TYPE_DOUBLE, DART_OP_BAND), DART_ERR_INVAL);
  EXPECT_EQ(dart_fetch_and_op(dseg, dbl, &result, DART_TYPE_DOUBLE, DART_OP_BXOR), DART_ERR_INVAL);
  EXPECT_EQ(dart_compare_and_swap(dseg, &dbl[0], &dbl[1], &result, DART_TYPE_DOUBLE),
            DART_ERR_INVAL);
  float f[2] = {1.0f, 2.0f}, fresult = 0.0f;
  EXPECT_EQ(dart_compare_and_swap(dseg, &f[0], &f[1], &fresult, DART_TYPE_FLOAT), DART_ERR_INVAL);
  EXPECT_EQ(result, -1.0);
  int iresult = -1;
  EXPECT_EQ(dart_accumulate(mine_, in, 1, DART_TYPE_INT, DART_OP_NO_OP), DART_ERR_INVAL);
  EXPECT_EQ(dart_accumulate(mine_, in, 1, DART_TYPE_INT, DART_OP_UNDEFINED), DART_ERR_INVAL);
  EXPECT_EQ(
      dart_fetch_and_op(mine_, in, &iresult, DART_TYPE_INT, static_cast<dart_operation_t>(14)),
      DART_ERR_INVAL);
  EXPECT_EQ(iresult, -1);
  // Custom types are moved, never combined.
  dart_datatype_t custom = DART_TYPE_UNDEFINED;
  EXPECT_EQ(dart_type_create_custom(sizeof(int), &custom), DART_OK);
  EXPECT_EQ(dart_allreduce(in, iout, 1, custom, DART_OP_SUM, DART_TEAM_ALL), DART_ERR_INVAL);
  EXPECT_EQ(dart_accumulate(mine_, in, 1, custom, DART_OP_REPLACE), DART_ERR_INVAL);
  EXPECT_EQ(dart_type_destroy(&custom), DART_OK);
  // Nothing reached the memory.
  double stored[2] = {-1.0, -1.0};
  EXPECT_EQ(dart_get_blocking(stored, dseg, 2, DART_TYPE_DOUBLE, DART_TYPE_DOUBLE), DART_OK);
  EXPECT_EQ(stored[0], 5.0);
  EXPECT_EQ(stored[1], 6.0);
  int stored_int = -1;
  EXPECT_EQ(dart_get_blocking(&stored_int, mine_, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(stored_int, 11);
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(dart_team_memfree(dseg), DART_OK);
}

// ---- local allocation ------------------------------------------------------------------------

TEST_F(DartBadInput, MemfreeOfForeignMovedOrFreedPointersIsRejected) {
  const size_t used_before = Stats().local_pool_used;
  dart_gptr_t block = DART_GPTR_NULL, other = DART_GPTR_NULL;
  EXPECT_EQ(dart_memalloc(32, DART_TYPE_INT, &block), DART_OK);
  EXPECT_EQ(dart_memalloc(8, DART_TYPE_INT, &other), DART_OK);
  EXPECT_EQ(dart_memfree(mine_), DART_ERR_INVAL);       // a team segment
  EXPECT_EQ(dart_team_memfree(block), DART_ERR_INVAL);  // a dart_memalloc block
  dart_gptr_t moved = block;
  EXPECT_EQ(dart_gptr_incaddr(&moved, 64), DART_OK);
  EXPECT_EQ(dart_memfree(moved), DART_ERR_INVAL);  // not the start of a block
  dart_gptr_t wrong_team = block;
  wrong_team.teamid = 12345;
  EXPECT_EQ(dart_memfree(wrong_team), DART_ERR_INVAL);
  // Another unit's block (everyone frees its right neighbour's): only the owner may free it.
  std::vector<dart_gptr_t> all(N());
  EXPECT_EQ(dart_allgather(&block, all.data(), sizeof(dart_gptr_t), DART_TYPE_BYTE, DART_TEAM_ALL),
            DART_OK);
  if (N() > 1) {
    EXPECT_EQ(dart_memfree(all[(Me() + 1) % N()]), DART_ERR_INVAL);
  }
  // Write, free once, free again: the second free is rejected and the other block survives.
  int* p = nullptr;
  EXPECT_EQ(dart_gptr_getaddr(other, reinterpret_cast<void**>(&p)), DART_OK);
  if (p != nullptr) {
    for (int i = 0; i < 8; ++i) p[i] = 31 * i;
  }
  EXPECT_EQ(dart_memfree(block), DART_OK);
  EXPECT_EQ(dart_memfree(block), DART_ERR_INVAL);
  std::vector<int> got(8, -1);
  EXPECT_EQ(dart_get_blocking(got.data(), other, 8, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], 31 * i);
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);  // nobody touches the blocks any more
  EXPECT_EQ(dart_memfree(other), DART_OK);
  EXPECT_EQ(dart_memfree(other), DART_ERR_INVAL);
  EXPECT_EQ(Stats().local_pool_used, used_before);
}

// ---- locks -----------------------------------------------------------------------------------

TEST_F(DartBadInput, LockReleaseWithoutHoldingAndDoubleAcquireAreRejected) {
  dart_lock_t lock = nullptr;
  EXPECT_EQ(dart_team_lock_init(DART_TEAM_ALL, &lock), DART_OK);
  EXPECT_EQ(dart_lock_release(lock), DART_ERR_INVAL);  // never acquired
  EXPECT_EQ(dart_lock_acquire(lock), DART_OK);
  EXPECT_EQ(dart_lock_acquire(lock), DART_ERR_INVAL);  // already held
  int32_t taken = -1;
  EXPECT_EQ(dart_lock_try_acquire(lock, &taken), DART_ERR_INVAL);
  EXPECT_EQ(dart_lock_release(lock), DART_OK);
  EXPECT_EQ(dart_lock_release(lock), DART_ERR_INVAL);  // released twice
  EXPECT_EQ(dart_lock_acquire(nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_lock_release(nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_lock_try_acquire(nullptr, &taken), DART_ERR_INVAL);
  EXPECT_EQ(dart_lock_initialized(nullptr), 0);
  // The lock still works for everyone after the errors: a counter under the lock.
  int value = 0;
  if (Me() == 0) {
    EXPECT_EQ(dart_put_blocking(seg_, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  }
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(dart_lock_acquire(lock), DART_OK);
  EXPECT_EQ(dart_get_blocking(&value, seg_, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  ++value;
  EXPECT_EQ(dart_put_blocking(seg_, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(dart_lock_release(lock), DART_OK);
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(dart_get_blocking(&value, seg_, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  EXPECT_EQ(value, N());
  EXPECT_EQ(dart_team_lock_free(DART_TEAM_ALL, &lock), DART_OK);
  EXPECT_EQ(lock, nullptr);
  EXPECT_EQ(dart_team_lock_free(DART_TEAM_ALL, &lock), DART_ERR_INVAL);  // already freed
}

TEST_F(DartBadInput, LockOfADestroyedTeamIsRejected) {
  dart_team_t clone = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_clone(DART_TEAM_ALL, &clone), DART_OK);
  dart_lock_t lock = nullptr;
  EXPECT_EQ(dart_team_lock_init(clone, &lock), DART_OK);
  EXPECT_EQ(dart_lock_initialized(lock), 1);
  EXPECT_EQ(dart_team_destroy(&clone), DART_OK);
  EXPECT_EQ(dart_lock_initialized(lock), 0);
  EXPECT_EQ(dart_lock_acquire(lock), DART_ERR_INVAL);
  EXPECT_EQ(dart_lock_release(lock), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_lock_destroy(&lock), DART_OK);  // frees the handle only
  EXPECT_EQ(lock, nullptr);
}

// ---- null output pointers and handles ----------------------------------------------------------

TEST_F(DartBadInput, NullOutputPointersAreRejected) {
  EXPECT_EQ(dart_myid(nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_size(nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_myid(DART_TEAM_ALL, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_size(DART_TEAM_ALL, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_get_parent(DART_TEAM_ALL, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_get_group(DART_TEAM_ALL, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, 0, 0, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_clone(DART_TEAM_ALL, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_destroy(nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 1, DART_TYPE_INT, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_memalloc(1, DART_TYPE_INT, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_gptr_getaddr(mine_, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_gptr_setaddr(nullptr, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_gptr_incaddr(nullptr, 4), DART_ERR_INVAL);
  EXPECT_EQ(dart_gptr_setflags(nullptr, 1), DART_ERR_INVAL);
  EXPECT_EQ(dart_gptr_getflags(mine_, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_gptr_segment_size(mine_, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_wait(nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_wait_local(nullptr), DART_ERR_INVAL);
  int32_t result = 0;
  EXPECT_EQ(dart_test(nullptr, &result), DART_ERR_INVAL);
  dart_handle_t handle = DART_HANDLE_NULL;
  EXPECT_EQ(dart_test(&handle, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_waitall(nullptr, 2), DART_ERR_INVAL);
  EXPECT_EQ(dart_testall(nullptr, 2, &result), DART_ERR_INVAL);
  EXPECT_EQ(dart_ibarrier(DART_TEAM_ALL, nullptr), DART_ERR_INVAL);
  int in = 1, out = 0;
  EXPECT_EQ(dart_iallreduce(&in, &out, 1, DART_TYPE_INT, DART_OP_SUM, DART_TEAM_ALL, nullptr),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_get_handle(&out, mine_, 1, DART_TYPE_INT, DART_TYPE_INT, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_lock_init(DART_TEAM_ALL, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_runtime_stats(nullptr), DART_ERR_INVAL);
  // Null buffers with elements to move.
  EXPECT_EQ(dart_get_blocking(nullptr, mine_, 1, DART_TYPE_INT, DART_TYPE_INT), DART_ERR_INVAL);
  EXPECT_EQ(dart_put_blocking(mine_, nullptr, 1, DART_TYPE_INT, DART_TYPE_INT), DART_ERR_INVAL);
  EXPECT_EQ(dart_fetch_and_op(mine_, &in, nullptr, DART_TYPE_INT, DART_OP_SUM), DART_ERR_INVAL);
  EXPECT_EQ(dart_bcast(nullptr, 1, DART_TYPE_INT, DART_TEAM_UNIT_ID(0), DART_TEAM_ALL),
            DART_ERR_INVAL);
}

TEST_F(DartBadInput, GptrHelpersRejectForeignAddressesAndFlagOverflow) {
  int* base = nullptr;
  EXPECT_EQ(dart_gptr_getaddr(mine_, reinterpret_cast<void**>(&base)), DART_OK);
  dart_gptr_t g = mine_;
  int outside = 0;
  EXPECT_EQ(dart_gptr_setaddr(&g, &outside), DART_ERR_INVAL);
  if (base != nullptr) {
    EXPECT_EQ(dart_gptr_setaddr(&g, base + 5), DART_ERR_INVAL);  // past the 4 ints
    EXPECT_EQ(dart_gptr_setaddr(&g, reinterpret_cast<char*>(base) - 1), DART_ERR_INVAL);
  }
  EXPECT_TRUE(dart_gptr_equal(g, mine_));
  if (N() > 1) {  // another unit's part has no local address to set
    dart_gptr_t other = seg_;
    EXPECT_EQ(dart_gptr_setunit(&other, DART_TEAM_UNIT_ID((Me() + 1) % N())), DART_OK);
    EXPECT_EQ(dart_gptr_setaddr(&other, base), DART_ERR_INVAL);
  }
  EXPECT_EQ(dart_gptr_setflags(&g, 0x100), DART_ERR_INVAL);
  uint16_t flags = 99;
  EXPECT_EQ(dart_gptr_getflags(g, &flags), DART_OK);
  EXPECT_EQ(flags, 0);
}

}  // namespace
