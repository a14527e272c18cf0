// dash::copy / dash::copy_async between global ranges of dash::Array, N-D
// views and local buffers: every 1-D distribution, ranges starting and ending inside
// blocks, empty and one-element ranges, both directions, futures (test,
// wait twice, move, destroy without waiting), and bad input; copy_async with the copy
// engine's worker thread on and off (many futures in flight, polling, moving, destroying
// unwaited, bad input, restart, flag parsing); DASH's explicit-template-argument form. Run as
// is, with
// every transfer over MPI RMA (shm_off) and across emulated nodes (vnode1).
#include <dash/Array.h>
#include <dash/Future.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/algorithm/Copy.h>
#include <dash/algorithm/CopyView.h>
#include <dash/internal/CopyEngine.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

double Value(long g) { return 0.5 * double(g) + 3.0; }

template <class ArrayT>
void FillByOwner(ArrayT& arr) {
  for (std::size_t l = 0; l < arr.lsize(); ++l) arr.local[l] = Value(arr.local.global_index(l));
  arr.barrier();
}

std::vector<dash::Distribution> Distributions() {
  return {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(3), dash::TILE(4),
          dash::BLOCKCYCLIC(1000)};
}

TEST(Copy, GlobalToLocalEveryDistributionAndSubRange) {
  for (auto dist : Distributions()) {
    for (long n : {0L, 1L, 13L, 100L, 1001L}) {
      dash::Array<double> arr(n, dist);
      FillByOwner(arr);
      // Each unit copies differently placed ranges, so all pairs of units exchange.
      for (long a : {0L, 1L, long(myid()) % (n + 1), n / 3}) {
        for (long b : {a, a + 1, n - 1, n}) {
          if (a > n || b > n || b < a) continue;
          std::vector<double> buf(std::size_t(b - a) + 1, -1.0);
          double* end = dash::copy(arr.begin() + a, arr.begin() + b, buf.data());
          ASSERT_EQ(end, buf.data() + (b - a));
          for (long k = 0; k < b - a; ++k) ASSERT_EQ(buf[k], Value(a + k)) << a << ".." << b;
          EXPECT_EQ(buf[b - a], -1.0) << "wrote past the end";
        }
      }
      arr.barrier();
    }
  }
}

TEST(Copy, LocalToGlobalEveryDistribution) {
  for (auto dist : Distributions()) {
    for (long n : {1L, 17L, 250L}) {
      dash::Array<double> arr(n, dist);
      for (auto& v : arr.local) v = -1.0;
      arr.barrier();
      // Unit u writes the u-th of nunits consecutive slices (sizes differ by one).
      long a = n * myid() / nunits(), b = n * (myid() + 1) / nunits();
      std::vector<double> src(std::size_t(b - a));
      for (long k = 0; k < b - a; ++k) src[k] = Value(a + k);
      auto end = dash::copy(src.data(), src.data() + src.size(), arr.begin() + a);
      EXPECT_EQ(end.pos(), b);
      arr.barrier();
      for (std::size_t l = 0; l < arr.lsize(); ++l)
        ASSERT_EQ(arr.local[l], Value(arr.local.global_index(l)));
      arr.barrier();
    }
  }
}

// DASH's explicit form dash::copy<ValueType, GlobIt, UseHandles>(...), both directions, over a
// tiled 2-D NArray (DASH's bench.15.copy) and a 1-D array.
TEST(Copy, DashExplicitTemplateArguments) {
  using Matrix = dash::NArray<double, 2>;
  Matrix m(dash::SizeSpec<2>(12, 10), dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(5)),
           dash::Team::All(), dash::TeamSpec<2>(dash::Team::All()));
  for (long i = 0; i < 12; ++i)
    for (long j = 0; j < 10; ++j)
      if (m.pattern().unit_at(std::array<long, 2>{i, j}) == dash::Team::All().myid())
        m(i, j) = Value(10 * i + j);
  m.barrier();
  auto begin = m.begin();
  auto end = m.end();
  std::vector<double> with(m.size()), without(m.size());
  EXPECT_EQ((dash::copy<double, decltype(begin), true>(begin, end, with.data())),
            with.data() + m.size());
  EXPECT_EQ((dash::copy<double, decltype(begin), false>(begin, end, without.data())),
            without.data() + m.size());
  for (long g = 0; g < long(m.size()); ++g) {
    const double expected = static_cast<double>(*(begin + g));
    ASSERT_EQ(with[g], expected) << g;
    ASSERT_EQ(without[g], expected) << g;
  }
  m.barrier();

  dash::Array<double> arr(3 * nunits() + 1);
  std::vector<double> src(arr.size());
  for (long k = 0; k < long(src.size()); ++k) src[k] = Value(k);
  if (myid() == 0) {
    auto out = dash::copy<double, decltype(arr.begin()), true>(src.data(), src.data() + src.size(),
                                                               arr.begin());
    EXPECT_EQ(out, arr.end());
  }
  arr.barrier();
  for (std::size_t l = 0; l < arr.lsize(); ++l)
    ASSERT_EQ(arr.local[l], Value(arr.local.global_index(l)));
  arr.barrier();
}

TEST(Copy, TilePatternArray) {
  using Pattern = dash::TilePattern<1>;
  dash::Array<double, dash::default_index_t, Pattern> arr(Pattern(97, dash::TILE(5)));
  FillByOwner(arr);
  std::vector<double> buf(90);
  dash::copy(arr.begin() + 3, arr.begin() + 93, buf.data());
  for (long k = 0; k < 90; ++k) ASSERT_EQ(buf[k], Value(3 + k));
  arr.barrier();
}

TEST(Copy, SeedListing) {
  const long N = 1000, off = 37, ncopy = 500;
  dash::Array<double> arr(N);
  FillByOwner(arr);
  std::vector<double> buf(ncopy);
  double* end = dash::copy(arr.begin() + off, arr.begin() + off + ncopy, buf.data());
  EXPECT_EQ(end, buf.data() + ncopy);
  auto fut = dash::copy_async(arr.begin(), arr.begin() + ncopy, buf.data());
  EXPECT_TRUE(fut.valid());
  double* e2 = fut.wait();
  EXPECT_EQ(e2, buf.data() + ncopy);
  EXPECT_EQ(fut.get(), e2);  // waiting twice is safe
  for (long k = 0; k < ncopy; ++k) ASSERT_EQ(buf[k], Value(k));
  arr.barrier();
}

TEST(Copy, AsyncWithComputationBetweenStartAndWaitAndFuturesMove) {
  dash::Array<double> arr(4096, dash::BLOCKCYCLIC(64));
  FillByOwner(arr);
  std::vector<double> buf(4096);
  auto fut = dash::copy_async(arr.begin(), arr.end(), buf.data());
  // Independent computation while the transfer runs.
  std::vector<double> work(10000);
  std::iota(work.begin(), work.end(), 0.0);
  double sum = std::accumulate(work.begin(), work.end(), 0.0);
  EXPECT_EQ(sum, 49995000.0);
  while (!fut.test()) {
  }
  dash::Future<double*> moved(std::move(fut));
  EXPECT_EQ(moved.wait(), buf.data() + 4096);
  for (long k = 0; k < 4096; ++k) ASSERT_EQ(buf[k], Value(k));
  {
    // Destroying an unwaited future completes its transfer.
    std::vector<double> buf2(4096, 0.0);
    { auto unwaited = dash::copy_async(arr.begin(), arr.end(), buf2.data()); }
    for (long k = 0; k < 4096; ++k) ASSERT_EQ(buf2[k], Value(k));
  }
  dash::Future<double*> none;
  EXPECT_FALSE(none.valid());
  EXPECT_THROW(none.wait(), dash::exception::InvalidArgument);
  arr.barrier();
}

TEST(Copy, BadInputThrows) {
  dash::Array<double> a(100), b(100);
  std::vector<double> buf(100);
  EXPECT_THROW(dash::copy(a.begin(), b.end(), buf.data()), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::copy(a.begin() + 10, a.begin() + 5, buf.data()),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::copy(a.begin(), a.begin() + 101, buf.data()),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::copy(buf.data(), buf.data() + 100, a.begin() + 1),
               dash::exception::InvalidArgument);
  // A buffer overlapping the caller's own elements of the range.
  if (a.lsize() > 1) {
    auto first_local = a.begin() + a.local.global_index(0);
    EXPECT_THROW(dash::copy(first_local, first_local + 2, a.lbegin() + 1),
                 dash::exception::InvalidArgument);
  }
  a.barrier();
}

}  // namespace

namespace {

// Ranges inside one block of one unit take a shorter path (one memcpy or one blocking
// get/put, no handle): every such range of a BLOCKCYCLIC(7) array, both directions, then the
// errors that path must still report.
TEST(Copy, RangesInsideOneBlockBothDirectionsAndTheirErrors) {
  const long block = 7, n = block * 3 * nunits() + 5;  // a short last block
  dash::Array<double> arr(n, dash::BLOCKCYCLIC(block));
  FillByOwner(arr);
  std::vector<double> buf(block + 1);
  long wrong = 0;  // counted, not asserted, so a failing unit still meets the barriers
  for (long a = 0; a < n; ++a) {
    for (long len = 1; a % block + len <= block && a + len <= n; len += 2) {
      buf.assign(buf.size(), -1.0);
      dash::copy(arr.begin() + a, arr.begin() + a + len, buf.data());
      for (long k = 0; k < len; ++k) wrong += buf[k] != Value(a + k);
      wrong += buf[len] != -1.0;  // wrote past the end
    }
  }
  EXPECT_EQ(wrong, 0) << "elements read wrong";
  arr.barrier();
  // Unit u writes -(g + 1) into every element of the blocks of unit (u + 1) % units, as
  // ranges of up to 3 elements that never leave a block.
  const long next = (myid() + 1) % nunits();
  for (long b = next; b * block < n; b += nunits()) {
    const long end = std::min(n, (b + 1) * block);
    for (long a = b * block; a < end; a += 3) {
      const long len = std::min(3L, end - a);
      std::vector<double> src(len);
      for (long k = 0; k < len; ++k) src[k] = -double(a + k + 1);
      auto out = dash::copy(src.data(), src.data() + len, arr.begin() + a);
      EXPECT_EQ(out.pos(), a + len);
    }
  }
  arr.barrier();
  wrong = 0;
  for (std::size_t l = 0; l < arr.lsize(); ++l)
    wrong += arr.local[l] != -double(arr.local.global_index(l) + 1);
  EXPECT_EQ(wrong, 0) << "elements written wrong";
  arr.barrier();
  // A local buffer overlapping the caller's own elements, in both directions.
  if (arr.lsize() > 2) {
    auto first_local = arr.begin() + arr.local.global_index(0);
    EXPECT_THROW(dash::copy(first_local, first_local + 2, arr.lbegin() + 1),
                 dash::exception::InvalidArgument);
    EXPECT_THROW(dash::copy(arr.lbegin() + 1, arr.lbegin() + 3, first_local),
                 dash::exception::InvalidArgument);
  }
  // An iterator into freed memory: an error on every path (load/store or RMA), not a read.
  auto stale = arr.begin() + block * next;
  arr.barrier();
  arr.deallocate();
  EXPECT_THROW(dash::copy(stale, stale + 2, buf.data()), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::copy(buf.data(), buf.data() + 2, stale), dash::exception::InvalidArgument);
}

TEST(Copy, GlobalToGlobalBetweenPatterns) {
  using Tile = dash::TilePattern<1>;
  for (auto src_dist : {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(7)}) {
    for (auto dst_dist : {dash::BLOCKED, dash::CYCLIC, dash::TILE(5)}) {
      dash::Array<double> src(203, src_dist);
      dash::Array<double> dst(211, dst_dist);
      FillByOwner(src);
      for (auto& v : dst.local) v = -1.0;
      dst.barrier();
      // Unit u copies its slice of src[3, 203) to dst[5, 205).
      long n = 200, a = n * myid() / nunits(), b = n * (myid() + 1) / nunits();
      auto end = dash::copy(src.begin() + 3 + a, src.begin() + 3 + b, dst.begin() + 5 + a);
      EXPECT_EQ(end.pos(), 5 + b);
      dst.barrier();
      for (std::size_t l = 0; l < dst.lsize(); ++l) {
        long g = dst.local.global_index(l);
        double expected = (g >= 5 && g < 205) ? Value(g - 2) : -1.0;
        ASSERT_EQ(dst.local[l], expected) << g;
      }
      dst.barrier();
    }
  }
  // Between teams: all units' array into a sub-team's array.
  dash::Team& half = dash::Team::All().split(2);
  dash::Array<double> all(50, dash::CYCLIC);
  dash::Array<double, dash::default_index_t, Tile> part(Tile(50, dash::TILE(4), half));
  FillByOwner(all);
  if (half.myid() == 0) dash::copy(all.begin(), all.end(), part.begin());
  dash::barrier();
  for (std::size_t l = 0; l < part.lsize(); ++l)
    ASSERT_EQ(part.local[l], Value(part.local.global_index(l)));
  dash::barrier();
}

TEST(Copy, GlobalToGlobalOverlapThrows) {
  dash::Array<double> a(100);
  EXPECT_THROW(dash::copy(a.begin(), a.begin() + 50, a.begin() + 10),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::copy(a.begin() + 10, a.begin() + 60, a.begin()),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::copy(a.begin(), a.begin() + 50, a.begin() + 60),
               dash::exception::InvalidArgument);  // runs past the end
  a.barrier();
}

}  // namespace

namespace {

double Value2(long r, long c) { return 1000.0 * double(r) + double(c); }

template <class M>
void FillMatrix(M& m) {
  auto lv = m.local.view();
  for (long p = 0; p < long(lv.size()); ++p) {
    auto g = lv.global_coords(p);
    lv.begin()[p] = Value2(g[0], g[1]);
  }
  m.barrier();
}

using TileMatrix = dash::Matrix<double, 2>;
using BlockMatrix = dash::NArray<double, 2>;

template <class M>
class CopyViews : public ::testing::Test {};
using ViewMatrixTypes = ::testing::Types<TileMatrix, BlockMatrix>;
TYPED_TEST_SUITE(CopyViews, ViewMatrixTypes);

TYPED_TEST(CopyViews, BlocksAndSubViewsToLocalAndBack) {
  TypeParam m(dash::SizeSpec<2>(37, 29), dash::DistributionSpec<2>(dash::TILE(8), dash::TILE(6)));
  FillMatrix(m);
  // Every block (including underfilled last ones) and an odd sub-view.
  auto grid = m.pattern().blockspec();
  for (long bi = 0; bi < long(grid.extent(0)); ++bi) {
    for (long bj = 0; bj < long(grid.extent(1)); ++bj) {
      auto blk = m.block({bi, bj});
      std::vector<double> buf(blk.size());
      double* end = dash::copy(blk.begin(), blk.end(), buf.data());
      ASSERT_EQ(end, buf.data() + buf.size());
      long k = 0;
      for (auto it = blk.begin(); it != blk.end(); ++it, ++k) {
        auto c = it.coords();
        ASSERT_EQ(buf[k], Value2(c[0], c[1]));
      }
    }
  }
  auto s = m.template sub<0>(3, 30).template sub<1>(2, 25);
  std::vector<double> buf(s.size());
  auto fut = dash::copy_async(s.begin(), s.end(), buf.data());
  fut.wait();
  long k = 0;
  for (auto it = s.begin(); it != s.end(); ++it, ++k) {
    auto c = it.coords();
    ASSERT_EQ(buf[k], Value2(c[0], c[1]));
  }
  // The blocking form: about 150 row pieces, more handles than fit inline.
  std::vector<double> buf2(s.size());
  dash::copy(s.begin(), s.end(), buf2.data());
  EXPECT_EQ(buf2, buf);
  m.barrier();
  // Local -> view: unit 0 negates row 5.
  if (myid() == 0) {
    auto row = m.row(5);
    std::vector<double> neg(row.size());
    for (long j = 0; j < long(neg.size()); ++j) neg[j] = -Value2(5, j);
    dash::copy(neg.data(), neg.data() + neg.size(), row.begin());
  }
  m.barrier();
  for (long j = 0; j < 29; ++j) ASSERT_EQ(double(m(5, j)), -Value2(5, j));
  m.barrier();
}

TYPED_TEST(CopyViews, SeedListingLocalBlockToGlobalBlock) {
  TypeParam m(dash::SizeSpec<2>(64, 48), dash::DistributionSpec<2>(dash::TILE(8), dash::TILE(8)));
  FillMatrix(m);
  // Unit 0 copies its first local block onto block {3, 5} (not its own when
  // there are several units; for one unit, a different block).
  if (myid() == 0) {
    auto l_block = m.local.block(0);
    auto m_block = m.block({3, 5});
    dash::copy(l_block.begin(), l_block.end(), m_block.begin());
  }
  m.barrier();
  auto l0 = m.pattern().local_block(dash::team_unit_t(0), 0);
  for (long i = 0; i < 8; ++i)
    for (long j = 0; j < 8; ++j)
      ASSERT_EQ(double(m(24 + i, 40 + j)), Value2(l0.offset(0) + i, l0.offset(1) + j));
  m.barrier();
  EXPECT_THROW(
      dash::copy(m.block({0, 0}).begin(), m.block({0, 0}).end(), m.block({0, 0}).begin() + 1),
      dash::exception::InvalidArgument);
  m.barrier();
}

}  // namespace

// ---- copy_async on the copy engine (dash/internal/CopyEngine.h) ---------------------------
namespace {

using dash::internal::CopyEngine;

// Sets the copy engine's threshold for one test (0: every load/store segment goes to the
// worker thread; CopyEngine::kOff: none does) and restores it afterwards.
class EngineThreshold {
 public:
  explicit EngineThreshold(std::size_t bytes) : saved_(CopyEngine::instance().threshold_bytes()) {
    CopyEngine::instance().set_threshold_bytes(bytes);
  }
  ~EngineThreshold() { CopyEngine::instance().set_threshold_bytes(saved_); }

 private:
  std::size_t saved_;
};

std::vector<std::size_t> EngineSettings() {
  return {CopyEngine::kOff, 0, CopyEngine::kDefaultThresholdBytes};
}

TEST(CopyAsyncEngine, EngineOnAndOffCopyTheSameValuesBothDirections) {
  const long n = 3 * 100000 + 17;  // several chunks per unit, a partial block at the end
  for (std::size_t threshold : EngineSettings()) {
    EngineThreshold engine(threshold);
    for (auto dist : {dash::BLOCKED, dash::CYCLIC, dash::BLOCKCYCLIC(1000)}) {
      dash::Array<double> arr(n, dist);
      FillByOwner(arr);
      // Global -> local, starting inside a block (head, strided middle, tail).
      const long a = 5 + long(myid()), b = n - 3;
      std::vector<double> buf(std::size_t(b - a) + 1, -1.0);
      auto fut = dash::copy_async(arr.begin() + a, arr.begin() + b, buf.data());
      EXPECT_EQ(fut.wait(), buf.data() + (b - a));
      for (long k = 0; k < b - a; ++k) ASSERT_EQ(buf[k], Value(a + k)) << "threshold " << threshold;
      EXPECT_EQ(buf[b - a], -1.0) << "wrote past the end";
      arr.barrier();
      // Local -> global: unit u writes the u-th slice; every unit checks its own elements.
      for (auto& v : arr.local) v = -1.0;
      arr.barrier();
      long lo = n * myid() / nunits(), hi = n * (myid() + 1) / nunits();
      std::vector<double> src(std::size_t(hi - lo));
      for (long k = 0; k < hi - lo; ++k) src[k] = Value(lo + k) + 1.0;
      auto put = dash::copy_async(src.data(), src.data() + src.size(), arr.begin() + lo);
      EXPECT_EQ(put.wait().pos(), hi);
      arr.barrier();
      for (std::size_t l = 0; l < arr.lsize(); ++l)
        ASSERT_EQ(arr.local[l], Value(arr.local.global_index(l)) + 1.0)
            << "threshold " << threshold;
      arr.barrier();
    }
  }
}

TEST(CopyAsyncEngine, ManyFuturesInFlightWaitedOutOfOrder) {
  EngineThreshold engine(0);
  const long n = 64 * 4096;
  dash::Array<double> arr(n, dash::BLOCKCYCLIC(4096));
  FillByOwner(arr);
  const long pieces = 48, len = n / pieces;
  std::vector<double> buf(std::size_t(n), -1.0);
  std::vector<dash::Future<double*>> futures;
  for (long p = 0; p < pieces; ++p) {
    auto first = arr.begin() + p * len;
    futures.push_back(dash::copy_async(first, first + len, buf.data() + p * len));
  }
  for (long p = pieces - 1; p >= 0; p -= 2)
    EXPECT_EQ(futures[p].wait(), buf.data() + (p + 1) * len);
  for (long p = 0; p < pieces; p += 2) EXPECT_EQ(futures[p].wait(), buf.data() + (p + 1) * len);
  for (long k = 0; k < pieces * len; ++k) ASSERT_EQ(buf[k], Value(k));
  arr.barrier();
}

TEST(CopyAsyncEngine, UnwaitedFuturesCompleteWhenDestroyed) {
  EngineThreshold engine(0);
  const long n = 200000;
  dash::Array<double> arr(n, dash::BLOCKED);
  FillByOwner(arr);
  for (int round = 0; round < 5; ++round) {
    std::vector<double> buf(std::size_t(n), -1.0);
    {
      std::vector<dash::Future<double*>> futures;
      for (long half : {0L, n / 2})
        futures.push_back(
            dash::copy_async(arr.begin() + half, arr.begin() + half + n / 2, buf.data() + half));
    }  // destroyed unwaited: each waits for its copy
    for (long k = 0; k < n; ++k) ASSERT_EQ(buf[k], Value(k)) << "round " << round;
  }
  arr.barrier();
}

TEST(CopyAsyncEngine, TestPollsUntilDoneThenKeepsTheResult) {
  EngineThreshold engine(0);
  const long n = 500000;
  dash::Array<double> arr(n, dash::CYCLIC);
  FillByOwner(arr);
  std::vector<double> buf(static_cast<std::size_t>(n));
  auto fut = dash::copy_async(arr.begin(), arr.end(), buf.data());
  // test() alone must finish the copy (polling drives it; no wait() before the loop ends).
  while (!fut.test()) std::this_thread::yield();
  EXPECT_TRUE(fut.test());
  EXPECT_EQ(fut.wait(), buf.data() + n);
  for (long k = 0; k < n; ++k) ASSERT_EQ(buf[k], Value(k));
  arr.barrier();
}

TEST(CopyAsyncEngine, MovedFuturesCompleteTheirOwnCopies) {
  EngineThreshold engine(0);
  const long n = 300000;
  dash::Array<double> arr(n, dash::BLOCKED);
  FillByOwner(arr);
  std::vector<double> a(std::size_t(n), -1.0), b(std::size_t(n), -1.0);
  auto first = dash::copy_async(arr.begin(), arr.end(), a.data());
  dash::Future<double*> moved(std::move(first));
  auto second = dash::copy_async(arr.begin(), arr.end(), b.data());
  moved = std::move(second);  // waits for the copy into a first
  for (long k = 0; k < n; ++k) ASSERT_EQ(a[k], Value(k));
  EXPECT_EQ(moved.wait(), b.data() + n);
  for (long k = 0; k < n; ++k) ASSERT_EQ(b[k], Value(k));
  arr.barrier();
}

TEST(CopyAsyncEngine, BadInputThrowsAndTheEngineKeepsWorking) {
  EngineThreshold engine(0);
  dash::Array<double> arr(100000), other(100000);
  FillByOwner(arr);
  std::vector<double> buf(100000, -1.0);
  EXPECT_THROW(dash::copy_async(arr.begin(), other.end(), buf.data()),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::copy_async(arr.begin(), arr.begin() + 100001, buf.data()),
               dash::exception::InvalidArgument);
  if (arr.lsize() > 0) {  // a buffer overlapping the unit's own elements
    auto own = arr.begin() + arr.pattern().global_index(dash::team_unit_t(myid()), 0);
    EXPECT_THROW(dash::copy_async(own, own + 10, arr.lbegin() + 1),
                 dash::exception::InvalidArgument);
  }
  auto fut = dash::copy_async(arr.begin(), arr.end(), buf.data());
  fut.wait();
  for (long k = 0; k < 100000; ++k) ASSERT_EQ(buf[k], Value(k));
  arr.barrier();
}

TEST(CopyAsyncEngine, ShutdownThenNextCopyRestartsTheWorker) {
  EngineThreshold engine(0);
  dash::Array<double> arr(100000);
  FillByOwner(arr);
  std::vector<double> buf(100000, -1.0);
  dash::copy_async(arr.begin(), arr.end(), buf.data()).wait();
  CopyEngine::instance().shutdown();
  std::fill(buf.begin(), buf.end(), -1.0);
  dash::copy_async(arr.begin(), arr.end(), buf.data()).wait();
  for (long k = 0; k < 100000; ++k) ASSERT_EQ(buf[k], Value(k));
  arr.barrier();
}

TEST(CopyAsyncEngine, MalformedEnvironmentFlagsThrowNamingTheFlag) {
  const std::size_t saved = CopyEngine::instance().threshold_bytes();
  auto expect_throw = [](const char* flag, const char* value) {
    setenv(flag, value, 1);
    try {
      CopyEngine::instance().configure_from_environment();
      ADD_FAILURE() << flag << "=" << value << " was accepted";
    } catch (const dash::exception::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
    }
    unsetenv(flag);
  };
  expect_throw("DASH_COPY_ASYNC_THREAD", "sometimes");
  expect_throw("DASH_COPY_ASYNC_THRESHOLD", "64Q");
  expect_throw("DASH_COPY_ASYNC_THRESHOLD", "-1");
  setenv("DASH_COPY_ASYNC_THREAD", "1", 1);
  setenv("DASH_COPY_ASYNC_THRESHOLD", "1M", 1);
  CopyEngine::instance().configure_from_environment();
  EXPECT_EQ(CopyEngine::instance().threshold_bytes(), std::size_t(1) << 20);
  setenv("DASH_COPY_ASYNC_THREAD", "off", 1);
  CopyEngine::instance().configure_from_environment();
  EXPECT_EQ(CopyEngine::instance().threshold_bytes(), CopyEngine::kOff);
  unsetenv("DASH_COPY_ASYNC_THREAD");
  unsetenv("DASH_COPY_ASYNC_THRESHOLD");
  CopyEngine::instance().set_threshold_bytes(saved);
}

}  // namespace

namespace {

// DASH's pointer forms: a local range to the memory from a container's pointer on (across unit
// parts) and back, blocking and asynchronous; a plain pointer stays in its unit's part.
TEST(CopyPointer, LocalRangesToAndFromContainerPointersCrossUnits) {
  const long per_unit = 5;
  dash::Array<int> array(per_unit * nunits(), dash::BLOCKED);
  for (long l = 0; l < per_unit; ++l) array.local[l] = -1;
  array.barrier();
  // Each unit writes per_unit values from offset 2 of the next unit's part on: they run on into
  // the part after it (the last unit's part ends the memory: those stop there). No two ranges
  // overlap.
  const long total = per_unit * nunits();
  const long start = ((myid() + 1) % nunits()) * per_unit + 2;
  const long n = std::min<long>(per_unit, total - start);
  std::vector<int> mine(static_cast<std::size_t>(n));
  std::iota(mine.begin(), mine.end(), 1000 * (myid() + 1));
  using ptr_t = dash::Array<int>::pointer;
  const auto dest = static_cast<ptr_t>(array.begin() + start);
  if (myid() % 2 == 0) {
    EXPECT_TRUE(dash::copy(mine.data(), mine.data() + n, dest) == dest + n);
  } else {
    auto fut = dash::copy_async(mine.data(), mine.data() + n, dest);
    fut.wait();
    EXPECT_TRUE(fut.get() == dest + n);
  }
  array.barrier();
  // Every element: written by the unit whose range covers it, else -1.
  for (long g = 0; g < total; ++g) {
    int want = -1;
    for (long u = 0; u < nunits(); ++u) {
      const long s = ((u + 1) % nunits()) * per_unit + 2, len = std::min<long>(per_unit, total - s);
      if (g >= s && g < s + len) want = static_cast<int>(1000 * (u + 1) + (g - s));
    }
    EXPECT_EQ(static_cast<int>(array[g]), want) << "element " << g;
  }
  std::vector<int> back(static_cast<std::size_t>(n), 0);
  EXPECT_EQ(dash::copy(dest, dest + n, back.data()), back.data() + n);
  EXPECT_EQ(back, mine);
  auto fut = dash::copy_async(dest, dest + 1, back.data());
  EXPECT_EQ(fut.get(), back.data() + 1);
  array.barrier();
  // A pointer without the layout: within the unit's part only.
  std::vector<int> two(2, 0);
  const dash::GlobPtr<int> plain(static_cast<ptr_t>(array.begin()).dart_gptr());
  dash::copy(plain, plain + 2, two.data());
  EXPECT_EQ(two[0], static_cast<int>(array[0]));
  EXPECT_EQ(two[1], static_cast<int>(array[1]));
  EXPECT_THROW(dash::copy(dest + 1, dest, two.data()), dash::exception::InvalidArgument);
  array.barrier();
}

TEST(CopyPointer, CopyableElementTypesAndLocalAt) {
  struct Point {
    int a, b;
  };
  static_assert(dash::internal::is_dash_copyable<const int, unsigned int>::value);
  static_assert(dash::internal::is_dash_copyable<const Point, Point>::value);
  static_assert(!dash::internal::is_dash_copyable<std::uint64_t, std::uint32_t>::value);
  static_assert(!dash::internal::is_dash_copyable<float, double>::value);
  static_assert(!dash::internal::is_dash_copyable<Point, std::uint64_t>::value);
  dash::Matrix<double, 2> m(2 * nunits() + 1, 3);
  auto& local = m.local;
  for (std::size_t i = 0; i < local.extent(0); ++i)
    for (std::size_t j = 0; j < local.extent(1); ++j) local.at(i, j) = 10.0 * i + j;
  // 2n + 1 rows in blocks of ceil((2n + 1) / n): the last unit may hold none.
  if (local.extent(0) > 0) {
    EXPECT_EQ(local(0, 2), 2.0);
    EXPECT_EQ(local.at(local.extent(0) - 1, 1), 10.0 * (local.extent(0) - 1) + 1);
  }
  EXPECT_THROW(local.at(local.extent(0), 0), dash::exception::OutOfRange);
  EXPECT_THROW(local.at(0, 3), dash::exception::OutOfRange);
  m.barrier();
}

}  // namespace
