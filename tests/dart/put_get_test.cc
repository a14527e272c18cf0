// put / get: round trips to every unit (itself included) with values checked on both sides,
// every completion form (blocking, flush, handles in any order), zero and odd sizes of every
// basic type, large transfers (split into many RMA chunks in the chunk_small variant), strided
// layouts, overlapping copies inside one's own segment, and dart_memalloc memory reached by
// other units.
//
// The suite runs under the fast-path variants of tests/dart/CMakeLists.txt; it checks values,
// never which path moved them, except SharedAddressIsSetExactlyForUnitsTheFastPathReaches and
// RmaTransfersCounted_WindowPairWhereRmaOnMpich, which prove from the environment flags that
// the RMA path is the one taken when it should be (and on which window layout).
#include <dart/dart.h>
#include <dart/dart_mpi.h>
#include <gtest/gtest.h>
#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "dart_test_util.h"
#include "mpi_test.h"

namespace {

using dash_test::DartType;
using dash_test::TeamArray;

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

void Barrier(dart_team_t team = DART_TEAM_ALL) { EXPECT_EQ(DART_OK, dart_barrier(team)); }

// Value that unit `src` sends to unit `dst` as element i: distinct for nearby (src, dst, i),
// never equal to Sentinel<T>(), exact in every type.
template <class T>
T Val(int src, int dst, size_t i) {
  const long mod = sizeof(T) == 1 ? 120 : sizeof(T) == 2 ? 30000 : 1000000;
  long v =
      1 +
      (static_cast<long>(src) * 7919 + static_cast<long>(dst) * 131 + static_cast<long>(i)) % mod;
  if (std::is_floating_point<T>::value) return static_cast<T>(v) + static_cast<T>(0.25);
  return static_cast<T>(v);
}

// Marks memory that no transfer should have written.
template <class T>
T Sentinel() {
  return static_cast<T>(-3);
}

// Success if got[i] == want(i) for all i < n, else names the first mismatch and the count.
template <class T, class Want>
::testing::AssertionResult AllEqual(const T* got, size_t n, Want want, const std::string& what) {
  size_t bad = 0, first = n;
  for (size_t i = 0; i < n; ++i) {
    if (!(got[i] == want(i))) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": " << bad << " of " << n << " elements differ, first at " << first << " (got "
         << +got[first] << ", want " << +want(first) << ")";
}

std::string Where(const char* what, int unit) {
  return std::string(what) + " (unit " + std::to_string(Me()) + ", peer " + std::to_string(unit) +
         ")";
}

long LiveHandles() {
  dart_runtime_stats_t stats;
  EXPECT_EQ(DART_OK, dart_runtime_stats(&stats));
  return stats.handles;
}

// ---- blocking round trips -----------------------------------------------------------------

// Every unit owns n slots of K ints; unit s puts into slot s of every unit.
TEST(DartPutGet, BlockingPutToEveryUnitIsVisibleAtTargetAfterBarrier) {
  const int n = N(), me = Me();
  const size_t K = 5;
  TeamArray<int> arr(n * K);
  arr.Fill(Sentinel<int>());
  Barrier();
  std::vector<int> src(K);
  for (int t = 0; t < n; ++t) {
    for (size_t i = 0; i < K; ++i) src[i] = Val<int>(me, t, i);
    EXPECT_EQ(DART_OK,
              dart_put_blocking(arr.At(t, me * K), src.data(), K, DART_TYPE_INT, DART_TYPE_INT));
    // Blocking: the data can be read back at once.
    std::vector<int> back(K, Sentinel<int>());
    EXPECT_EQ(DART_OK,
              dart_get_blocking(back.data(), arr.At(t, me * K), K, DART_TYPE_INT, DART_TYPE_INT));
    EXPECT_TRUE(AllEqual(
        back.data(), K, [&](size_t i) { return Val<int>(me, t, i); }, Where("read back", t)));
  }
  Barrier();
  for (int s = 0; s < n; ++s) {
    EXPECT_TRUE(AllEqual(
        arr.Local() + s * K, K, [&](size_t i) { return Val<int>(s, me, i); },
        Where("target memory", s)));
  }
  Barrier();
}

TEST(DartPutGet, BlockingGetReadsEveryUnitsDataAndLeavesItUnchanged) {
  const int n = N(), me = Me();
  const size_t K = 9;
  TeamArray<long> arr(K);
  for (size_t i = 0; i < K; ++i) arr.Local()[i] = Val<long>(me, -1, i);
  Barrier();
  for (int t = 0; t < n; ++t) {
    std::vector<long> dst(K + 1, Sentinel<long>());
    EXPECT_EQ(DART_OK, dart_get_blocking(dst.data(), arr.At(t), K, DART_TYPE_LONG, DART_TYPE_LONG));
    EXPECT_TRUE(AllEqual(
        dst.data(), K, [&](size_t i) { return Val<long>(t, -1, i); }, Where("get", t)));
    EXPECT_EQ(Sentinel<long>(), dst[K]) << "get wrote past its destination";
  }
  Barrier();
  EXPECT_TRUE(AllEqual(
      arr.Local(), K, [&](size_t i) { return Val<long>(me, -1, i); }, "owner memory after gets"));
  Barrier();
}

// ---- non-blocking with flush ----------------------------------------------------------------

TEST(DartPutGet, NonBlockingPutCompletedByFlushOrFlushAllIsVisibleAtTarget) {
  const int n = N(), me = Me();
  const size_t K = 6;
  TeamArray<int> arr(n * K);
  for (int use_flush_all = 0; use_flush_all < 2; ++use_flush_all) {
    arr.Fill(Sentinel<int>());
    Barrier();
    std::vector<std::vector<int>> src(n, std::vector<int>(K));
    for (int t = 0; t < n; ++t) {
      for (size_t i = 0; i < K; ++i) src[t][i] = Val<int>(me, t, i + 10 * use_flush_all);
      EXPECT_EQ(DART_OK,
                dart_put(arr.At(t, me * K), src[t].data(), K, DART_TYPE_INT, DART_TYPE_INT));
      if (!use_flush_all) {
        EXPECT_EQ(DART_OK, dart_flush(arr.At(t)));
      }
    }
    if (use_flush_all) {
      EXPECT_EQ(DART_OK, dart_flush_all(arr.At(0)));
    }
    Barrier();
    for (int s = 0; s < n; ++s) {
      EXPECT_TRUE(AllEqual(
          arr.Local() + s * K, K, [&](size_t i) { return Val<int>(s, me, i + 10 * use_flush_all); },
          Where(use_flush_all ? "after dart_flush_all" : "after dart_flush", s)));
    }
    Barrier();
  }
}

// After dart_flush_local the source buffer may be reused: overwriting it must not change what
// arrives at the target.
TEST(DartPutGet, PutSourceIsReusableAfterFlushLocal) {
  const int n = N(), me = Me();
  const size_t K = 8;
  TeamArray<short> arr(n * K);
  for (int use_all = 0; use_all < 2; ++use_all) {
    arr.Fill(Sentinel<short>());
    Barrier();
    std::vector<short> src(K);
    for (int t = 0; t < n; ++t) {
      for (size_t i = 0; i < K; ++i) src[i] = Val<short>(me, t, i + use_all);
      EXPECT_EQ(DART_OK,
                dart_put(arr.At(t, me * K), src.data(), K, DART_TYPE_SHORT, DART_TYPE_SHORT));
      if (use_all) {
        EXPECT_EQ(DART_OK, dart_flush_local_all(arr.At(t)));
      } else {
        EXPECT_EQ(DART_OK, dart_flush_local(arr.At(t)));
      }
      std::fill(src.begin(), src.end(), Sentinel<short>());  // reuse
    }
    EXPECT_EQ(DART_OK, dart_flush_all(arr.At(0)));
    Barrier();
    for (int s = 0; s < n; ++s) {
      EXPECT_TRUE(AllEqual(
          arr.Local() + s * K, K, [&](size_t i) { return Val<short>(s, me, i + use_all); },
          Where(use_all ? "after dart_flush_local_all" : "after dart_flush_local", s)));
    }
    Barrier();
  }
}

TEST(DartPutGet, NonBlockingGetCompletedByEveryFlushFormHoldsData) {
  const int n = N(), me = Me();
  const size_t K = 7;
  TeamArray<double> arr(K);
  for (size_t i = 0; i < K; ++i) arr.Local()[i] = Val<double>(me, 0, i);
  Barrier();
  const char* names[] = {"dart_flush", "dart_flush_all", "dart_flush_local",
                         "dart_flush_local_all"};
  for (int form = 0; form < 4; ++form) {
    std::vector<std::vector<double>> dst(n, std::vector<double>(K, Sentinel<double>()));
    for (int t = 0; t < n; ++t) {
      EXPECT_EQ(DART_OK, dart_get(dst[t].data(), arr.At(t), K, DART_TYPE_DOUBLE, DART_TYPE_DOUBLE));
      if (form == 0) {
        EXPECT_EQ(DART_OK, dart_flush(arr.At(t)));
      }
      if (form == 2) {
        EXPECT_EQ(DART_OK, dart_flush_local(arr.At(t)));
      }
    }
    if (form == 1) {
      EXPECT_EQ(DART_OK, dart_flush_all(arr.At(0)));
    }
    if (form == 3) {
      EXPECT_EQ(DART_OK, dart_flush_local_all(arr.At(0)));
    }
    for (int t = 0; t < n; ++t) {
      EXPECT_TRUE(AllEqual(
          dst[t].data(), K, [&](size_t i) { return Val<double>(t, 0, i); }, Where(names[form], t)));
    }
  }
  Barrier();
}

// ---- handles completing out of order ------------------------------------------------------

constexpr size_t kBlocks = 3;  // blocks per unit in the handle tests
constexpr size_t kBlockLen = 17;

// Every unit's part holds kBlocks blocks; block b of unit u holds Val(u, b, i).
void FillBlocks(TeamArray<int>& arr, int me) {
  for (size_t b = 0; b < kBlocks; ++b)
    for (size_t i = 0; i < kBlockLen; ++i)
      arr.Local()[b * kBlockLen + i] = Val<int>(me, static_cast<int>(b), i);
}

TEST(DartPutGet, GetHandlesWaitedInReverseOrderHoldData) {
  const int n = N(), me = Me();
  TeamArray<int> arr(kBlocks * kBlockLen);
  FillBlocks(arr, me);
  Barrier();
  const long handles_before = LiveHandles();
  std::vector<std::vector<int>> dst(n * kBlocks, std::vector<int>(kBlockLen, Sentinel<int>()));
  std::vector<dart_handle_t> h(n * kBlocks, DART_HANDLE_NULL);
  for (int t = 0; t < n; ++t) {
    for (size_t b = 0; b < kBlocks; ++b) {
      size_t k = t * kBlocks + b;
      EXPECT_EQ(DART_OK, dart_get_handle(dst[k].data(), arr.At(t, b * kBlockLen), kBlockLen,
                                         DART_TYPE_INT, DART_TYPE_INT, &h[k]));
    }
  }
  for (size_t k = h.size(); k-- > 0;) {
    EXPECT_EQ(DART_OK, dart_wait(&h[k]));
    EXPECT_EQ(DART_HANDLE_NULL, h[k]);
    const int t = static_cast<int>(k / kBlocks), b = static_cast<int>(k % kBlocks);
    EXPECT_TRUE(AllEqual(
        dst[k].data(), kBlockLen, [&](size_t i) { return Val<int>(t, b, i); },
        Where("get handle", t)));
  }
  EXPECT_EQ(handles_before, LiveHandles()) << "handles leaked";
  Barrier();
}

TEST(DartPutGet, PutHandlesWaitedInShuffledOrderAreVisibleAtTargets) {
  const int n = N(), me = Me();
  TeamArray<int> arr(n * kBlocks * kBlockLen);
  arr.Fill(Sentinel<int>());
  Barrier();
  const long handles_before = LiveHandles();
  // Unit me writes its blocks into slot me of every unit, at block offsets in slot order.
  std::vector<std::vector<int>> src(n * kBlocks, std::vector<int>(kBlockLen));
  std::vector<dart_handle_t> h(n * kBlocks, DART_HANDLE_NULL);
  std::vector<size_t> order(h.size());
  for (size_t k = 0; k < h.size(); ++k) order[k] = k;
  std::mt19937 rng(1234u + me);
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t k : order) {  // issue in one shuffled order ...
    const int t = static_cast<int>(k / kBlocks);
    const size_t b = k % kBlocks;
    for (size_t i = 0; i < kBlockLen; ++i) src[k][i] = Val<int>(me, t, b * kBlockLen + i);
    EXPECT_EQ(DART_OK, dart_put_handle(arr.At(t, (me * kBlocks + b) * kBlockLen), src[k].data(),
                                       kBlockLen, DART_TYPE_INT, DART_TYPE_INT, &h[k]));
  }
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t k : order) {  // ... and complete in another
    EXPECT_EQ(DART_OK, dart_wait(&h[k]));
    EXPECT_EQ(DART_HANDLE_NULL, h[k]);
  }
  EXPECT_EQ(handles_before, LiveHandles()) << "handles leaked";
  Barrier();
  const size_t slot = kBlocks * kBlockLen;
  for (int s = 0; s < n; ++s) {
    EXPECT_TRUE(AllEqual(
        arr.Local() + s * slot, slot, [&](size_t i) { return Val<int>(s, me, i); },
        Where("put handles", s)));
  }
  Barrier();
}

// Gets from every unit and puts to every unit in one handle array, completed by one call of
// dart_waitall, dart_testall (polled), dart_test on each handle, or one of the local forms
// (dart_wait_local, dart_waitall_local, dart_testall_local, dart_test_local) followed by a flush.
TEST(DartPutGet, MixedHandlesCompletedByWaitallTestallAndTestHoldData) {
  const int n = N(), me = Me();
  const size_t slot = kBlockLen;
  // Part of unit u: [block of Val(u, 99, .)] [n put slots]
  TeamArray<int> arr(slot + n * slot);
  const char* names[] = {"dart_waitall",    "dart_testall",       "dart_test",
                         "dart_wait_local", "dart_waitall_local", "dart_testall_local",
                         "dart_test_local"};
  for (int form = 0; form < 7; ++form) {
    for (size_t i = 0; i < slot; ++i) arr.Local()[i] = Val<int>(me, 99, i);
    std::fill(arr.Local() + slot, arr.Local() + slot + n * slot, Sentinel<int>());
    Barrier();
    const long handles_before = LiveHandles();
    std::vector<std::vector<int>> got(n, std::vector<int>(slot, Sentinel<int>()));
    std::vector<std::vector<int>> src(n, std::vector<int>(slot));
    std::vector<dart_handle_t> h;
    for (int t = n - 1; t >= 0; --t) {  // interleave gets and puts, highest unit first
      dart_handle_t g = DART_HANDLE_NULL, p = DART_HANDLE_NULL;
      EXPECT_EQ(DART_OK,
                dart_get_handle(got[t].data(), arr.At(t), slot, DART_TYPE_INT, DART_TYPE_INT, &g));
      for (size_t i = 0; i < slot; ++i) src[t][i] = Val<int>(me, t, i + form);
      EXPECT_EQ(DART_OK, dart_put_handle(arr.At(t, slot + me * slot), src[t].data(), slot,
                                         DART_TYPE_INT, DART_TYPE_INT, &p));
      h.push_back(g);
      h.push_back(p);
    }
    if (form == 0) {
      EXPECT_EQ(DART_OK, dart_waitall(h.data(), h.size()));
    } else if (form == 1) {
      int32_t done = 0;
      for (long polls = 0; done == 0; ++polls) {
        EXPECT_EQ(DART_OK, dart_testall(h.data(), h.size(), &done));
        if (polls > 16) sched_yield();
      }
    } else if (form == 2) {
      for (size_t k = 0; k < h.size(); ++k) {
        int32_t done = 0;
        for (long polls = 0; done == 0; ++polls) {
          EXPECT_EQ(DART_OK, dart_test(&h[k], &done));
          if (polls > 16) sched_yield();
        }
      }
    } else if (form == 3) {
      for (size_t k = h.size(); k-- > 0;) EXPECT_EQ(DART_OK, dart_wait_local(&h[k]));
    } else if (form == 4) {
      EXPECT_EQ(DART_OK, dart_waitall_local(h.data(), h.size()));
    } else if (form == 5) {
      int32_t done = 0;
      for (long polls = 0; done == 0; ++polls) {
        EXPECT_EQ(DART_OK, dart_testall_local(h.data(), h.size(), &done));
        if (polls > 16) sched_yield();
      }
    } else {
      for (size_t k = h.size(); k-- > 0;) {
        int32_t done = 0;
        for (long polls = 0; done == 0; ++polls) {
          EXPECT_EQ(DART_OK, dart_test_local(&h[k], &done));
          if (polls > 16) sched_yield();
        }
      }
    }
    for (dart_handle_t x : h) EXPECT_EQ(DART_HANDLE_NULL, x) << names[form];
    EXPECT_EQ(handles_before, LiveHandles()) << names[form] << " leaked handles";
    // Gets are complete locally in every form; puts' sources are reusable in every form.
    for (int t = 0; t < n; ++t) {
      EXPECT_TRUE(AllEqual(
          got[t].data(), slot, [&](size_t i) { return Val<int>(t, 99, i); },
          Where(names[form], t)));
      std::fill(src[t].begin(), src[t].end(), Sentinel<int>());
    }
    if (form >= 3) {  // remote completion
      EXPECT_EQ(DART_OK, dart_flush_all(arr.At(0)));
    }
    Barrier();
    for (int s = 0; s < n; ++s) {
      EXPECT_TRUE(AllEqual(
          arr.Local() + slot + s * slot, slot, [&](size_t i) { return Val<int>(s, me, i + form); },
          Where(names[form], s)));
    }
    Barrier();
  }
}

TEST(DartPutGet, WaitAndTestOnNullHandleSucceedAtOnce) {
  dart_handle_t h = DART_HANDLE_NULL;
  EXPECT_EQ(DART_OK, dart_wait(&h));
  EXPECT_EQ(DART_OK, dart_wait_local(&h));
  int32_t done = 0;
  EXPECT_EQ(DART_OK, dart_test(&h, &done));
  EXPECT_EQ(1, done);
  done = 0;
  EXPECT_EQ(DART_OK, dart_testall(&h, 1, &done));
  EXPECT_EQ(1, done);
  EXPECT_EQ(DART_OK, dart_waitall(&h, 1));
}

// ---- sizes and types ----------------------------------------------------------------------

TEST(DartPutGet, ZeroElementTransfersSucceedAndChangeNothing) {
  const int n = N(), me = Me();
  TeamArray<int> arr(4);
  arr.Fill(Val<int>(me, 0, 0));
  Barrier();
  int buf[4] = {Sentinel<int>(), Sentinel<int>(), Sentinel<int>(), Sentinel<int>()};
  for (int t = 0; t < n; ++t) {
    EXPECT_EQ(DART_OK, dart_put_blocking(arr.At(t), buf, 0, DART_TYPE_INT, DART_TYPE_INT));
    EXPECT_EQ(DART_OK, dart_get_blocking(buf, arr.At(t), 0, DART_TYPE_INT, DART_TYPE_INT));
    EXPECT_EQ(DART_OK, dart_put(arr.At(t), buf, 0, DART_TYPE_INT, DART_TYPE_INT));
    EXPECT_EQ(DART_OK, dart_get(buf, arr.At(t), 0, DART_TYPE_INT, DART_TYPE_INT));
    EXPECT_EQ(DART_OK, dart_flush(arr.At(t)));
    dart_handle_t h = reinterpret_cast<dart_handle_t>(&buf);  // must be overwritten
    EXPECT_EQ(DART_OK, dart_put_handle(arr.At(t), buf, 0, DART_TYPE_INT, DART_TYPE_INT, &h));
    EXPECT_EQ(DART_HANDLE_NULL, h);
    EXPECT_EQ(DART_OK, dart_wait(&h));
    h = reinterpret_cast<dart_handle_t>(&buf);
    EXPECT_EQ(DART_OK, dart_get_handle(buf, arr.At(t), 0, DART_TYPE_INT, DART_TYPE_INT, &h));
    EXPECT_EQ(DART_HANDLE_NULL, h);
    EXPECT_EQ(DART_OK, dart_wait(&h));
  }
  for (int v : buf) EXPECT_EQ(Sentinel<int>(), v) << "zero-element get wrote";
  Barrier();
  EXPECT_TRUE(AllEqual(
      arr.Local(), 4, [&](size_t) { return Val<int>(me, 0, 0); }, "zero-element put wrote"));
  Barrier();
}

template <class T>
class DartPutGetTyped : public ::testing::Test {};
using BasicTypes = ::testing::Types<char, short, int, unsigned, long, long long, unsigned long long,
                                    float, double, long double>;
TYPED_TEST_SUITE(DartPutGetTyped, BasicTypes);

// Unit s writes 1, 7 and 1023 elements into slot s of every unit, between two guard elements
// that must stay untouched, then reads them back.
TYPED_TEST(DartPutGetTyped, OddSizedRoundTripsToEveryUnitKeepValuesAndGuards) {
  using T = TypeParam;
  const int n = N(), me = Me();
  const dart_datatype_t dt = DartType<T>();
  const size_t kMax = 1023, slot = kMax + 2;
  TeamArray<T> arr(n * slot);
  for (size_t size : {size_t{1}, size_t{7}, kMax}) {
    arr.Fill(Sentinel<T>());
    Barrier();
    std::vector<T> src(size);
    for (int t = 0; t < n; ++t) {
      for (size_t i = 0; i < size; ++i) src[i] = Val<T>(me, t, i + size);
      EXPECT_EQ(DART_OK, dart_put_blocking(arr.At(t, me * slot + 1), src.data(), size, dt, dt));
    }
    Barrier();
    for (int s = 0; s < n; ++s) {
      const T* part = arr.Local() + s * slot;
      EXPECT_TRUE(AllEqual(
          part + 1, size, [&](size_t i) { return Val<T>(s, me, i + size); },
          Where(("put of " + std::to_string(size)).c_str(), s)));
      EXPECT_TRUE(Sentinel<T>() == part[0]) << "guard before slot " << s << " overwritten";
      EXPECT_TRUE(Sentinel<T>() == part[size + 1])
          << "guard after slot " << s << " overwritten, size " << size;
    }
    for (int t = 0; t < n; ++t) {
      std::vector<T> back(size + 1, Sentinel<T>());
      EXPECT_EQ(DART_OK, dart_get_blocking(back.data(), arr.At(t, me * slot + 1), size, dt, dt));
      EXPECT_TRUE(AllEqual(
          back.data(), size, [&](size_t i) { return Val<T>(me, t, i + size); },
          Where(("get of " + std::to_string(size)).c_str(), t)));
      EXPECT_TRUE(Sentinel<T>() == back[size]) << "get wrote past its destination";
    }
    Barrier();
  }
}

// ---- transfers larger than one chunk --------------------------------------------------------

// DART_TRANSFER_CHUNK_SIZE as this run set it (default 16M).
size_t ChunkBytes() {
  const char* text = std::getenv("DART_TRANSFER_CHUNK_SIZE");
  if (text == nullptr) return size_t{16} << 20;
  char* end = nullptr;
  size_t value = std::strtoull(text, &end, 10);
  switch (*end) {
    case 'k':
    case 'K':
      return value << 10;
    case 'm':
    case 'M':
      return value << 20;
    case 'g':
    case 'G':
      return value << 30;
    default:
      return value;
  }
}

// Elements of int in a large transfer: with a small DART_TRANSFER_CHUNK_SIZE (the chunk_small
// variant: 4K, fast path off) it spans 64 full chunks plus a partial one; with the default 16M
// chunks it is 1 MiB (exceeding 16M in every variant would cost seconds of first-touch memory
// per run for no extra coverage).
size_t LargeTransferElems() {
  const size_t chunk = ChunkBytes();
  const size_t bytes =
      chunk <= (size_t{1} << 20) ? std::max(2 * chunk, size_t{256} << 10) : size_t{1} << 20;
  return bytes / sizeof(int) + 3;
}

// Pattern `seed` of the large transfers: cheap to make, distinct per seed and element.
std::vector<int> LargePattern(size_t nelem, unsigned seed) {
  std::vector<int> v(nelem);
  for (size_t i = 0; i < nelem; ++i)
    v[i] = static_cast<int>(static_cast<unsigned>(i) * 2654435761u + seed);
  return v;
}

unsigned Seed(int src, int dst, int round) {
  return static_cast<unsigned>(src) * 1000003u + static_cast<unsigned>(dst) * 7919u +
         static_cast<unsigned>(round) * 104729u;
}

::testing::AssertionResult SameInts(const int* got, const std::vector<int>& want,
                                    const char* what) {
  if (std::memcmp(got, want.data(), want.size() * sizeof(int)) == 0) {
    return ::testing::AssertionSuccess();
  }
  return AllEqual(
      got, want.size(), [&](size_t i) { return want[i]; }, what);
}

TEST(DartPutGet, LargeTransfersSplitIntoChunksArriveWhole) {
  const int n = N(), me = Me();
  const size_t nelem = LargeTransferElems();
  const int right = (me + 1) % n, left = (me + n - 1) % n, left2 = (left + n - 1) % n;
  TeamArray<int> arr(nelem);
  arr.Fill(Sentinel<int>());
  Barrier();
  // Blocking put to the right neighbour.
  std::vector<int> src = LargePattern(nelem, Seed(me, right, 0));
  EXPECT_EQ(DART_OK,
            dart_put_blocking(arr.At(right), src.data(), nelem, DART_TYPE_INT, DART_TYPE_INT));
  Barrier();
  EXPECT_TRUE(SameInts(arr.Local(), LargePattern(nelem, Seed(left, me, 0)), "large blocking put"));
  Barrier();
  // Blocking get back from the right neighbour, then a handle get from the left one.
  std::vector<int> dst(nelem, Sentinel<int>());
  EXPECT_EQ(DART_OK,
            dart_get_blocking(dst.data(), arr.At(right), nelem, DART_TYPE_INT, DART_TYPE_INT));
  EXPECT_TRUE(SameInts(dst.data(), src, "large blocking get"));
  std::fill(dst.begin(), dst.end(), Sentinel<int>());
  dart_handle_t h = DART_HANDLE_NULL;
  EXPECT_EQ(DART_OK,
            dart_get_handle(dst.data(), arr.At(left), nelem, DART_TYPE_INT, DART_TYPE_INT, &h));
  EXPECT_EQ(DART_OK, dart_wait(&h));
  EXPECT_TRUE(SameInts(dst.data(), LargePattern(nelem, Seed(left2, left, 0)), "large handle get"));
  Barrier();
  // Handle put, then non-blocking put + flush, each with its own pattern.
  src = LargePattern(nelem, Seed(me, right, 1));
  EXPECT_EQ(DART_OK,
            dart_put_handle(arr.At(right), src.data(), nelem, DART_TYPE_INT, DART_TYPE_INT, &h));
  EXPECT_EQ(DART_OK, dart_wait(&h));
  Barrier();
  EXPECT_TRUE(SameInts(arr.Local(), LargePattern(nelem, Seed(left, me, 1)), "large handle put"));
  Barrier();
  src = LargePattern(nelem, Seed(me, right, 2));
  EXPECT_EQ(DART_OK, dart_put(arr.At(right), src.data(), nelem, DART_TYPE_INT, DART_TYPE_INT));
  EXPECT_EQ(DART_OK, dart_flush(arr.At(right)));
  Barrier();
  EXPECT_TRUE(SameInts(arr.Local(), LargePattern(nelem, Seed(left, me, 2)), "large put + flush"));
  Barrier();
}

// ---- strided layouts ------------------------------------------------------------------------

// A layout of a sequence of elements in memory: contiguous (stride 0), blocks of blocklen
// elements every stride elements, or indexed: runs of {length, offset}.
struct Layout {
  size_t stride;
  size_t blocklen;
  std::vector<std::pair<size_t, size_t>> runs = {};
  // Memory index of sequence element k.
  size_t Pos(size_t k) const {
    if (!runs.empty()) {
      for (const auto& r : runs) {
        if (k < r.first) return r.second + k;
        k -= r.first;
      }
      ADD_FAILURE() << "element beyond the indexed layout";
      return 0;
    }
    return stride == 0 ? k : (k / blocklen) * stride + k % blocklen;
  }
  // Elements of memory spanned by nelem sequence elements.
  size_t Span(size_t nelem) const { return nelem == 0 ? 0 : Pos(nelem - 1) + 1; }
  std::string Name() const {
    if (!runs.empty()) return "indexed(" + std::to_string(runs.size()) + " runs)";
    return stride == 0 ? "contiguous"
                       : "strided(" + std::to_string(stride) + "," + std::to_string(blocklen) + ")";
  }
};

// A DART type for a layout (basic int or a strided type destroyed at scope exit).
class LayoutType {
 public:
  explicit LayoutType(const Layout& l) {
    if (!l.runs.empty()) {
      std::vector<size_t> lens, offs;
      for (const auto& r : l.runs) lens.push_back(r.first), offs.push_back(r.second);
      EXPECT_EQ(DART_OK, dart_type_create_indexed(DART_TYPE_INT, lens.size(), lens.data(),
                                                  offs.data(), &type_));
      owned_ = true;
      return;
    }
    if (l.stride == 0) return;
    EXPECT_EQ(DART_OK, dart_type_create_strided(DART_TYPE_INT, l.stride, l.blocklen, &type_));
    owned_ = true;
  }
  ~LayoutType() {
    if (owned_) {
      EXPECT_EQ(DART_OK, dart_type_destroy(&type_));
    }
  }
  LayoutType(const LayoutType&) = delete;
  LayoutType& operator=(const LayoutType&) = delete;
  dart_datatype_t get() const { return type_; }

 private:
  dart_datatype_t type_ = DART_TYPE_INT;
  bool owned_ = false;
};

enum class Completion { kBlocking, kFlush, kHandle };

// Unit me puts nelem elements laid out as `local` in its buffer into slot me of every unit,
// laid out there as `remote`; each target checks its slots (data at the layout's positions,
// sentinels in the gaps). Then me gets every slot back into a buffer laid out as `local`.
void StridedRoundTrip(const Layout& local, const Layout& remote, size_t nelem, Completion mode,
                      TeamArray<int>& arr, size_t slot) {
  const int n = N(), me = Me();
  const std::string what = local.Name() + " <-> " + remote.Name() + " of " + std::to_string(nelem) +
                           " mode " + std::to_string(static_cast<int>(mode));
  SCOPED_TRACE(what);
  LayoutType ltype(local), rtype(remote);
  const size_t lspan = local.Span(nelem), rspan = remote.Span(nelem);
  EXPECT_LE(rspan, slot);
  arr.Fill(Sentinel<int>());
  Barrier();
  std::vector<std::vector<int>> src(n, std::vector<int>(lspan + 1, Sentinel<int>()));
  std::vector<dart_handle_t> h(n, DART_HANDLE_NULL);
  for (int t = 0; t < n; ++t) {
    for (size_t k = 0; k < nelem; ++k) src[t][local.Pos(k)] = Val<int>(me, t, k);
    dart_gptr_t to = arr.At(t, me * slot);
    if (mode == Completion::kBlocking) {
      EXPECT_EQ(DART_OK, dart_put_blocking(to, src[t].data(), nelem, ltype.get(), rtype.get()));
    } else if (mode == Completion::kFlush) {
      EXPECT_EQ(DART_OK, dart_put(to, src[t].data(), nelem, ltype.get(), rtype.get()));
    } else {
      EXPECT_EQ(DART_OK,
                dart_put_handle(to, src[t].data(), nelem, ltype.get(), rtype.get(), &h[t]));
    }
  }
  if (mode == Completion::kFlush) {
    EXPECT_EQ(DART_OK, dart_flush_all(arr.At(0)));
  }
  if (mode == Completion::kHandle) {
    EXPECT_EQ(DART_OK, dart_waitall(h.data(), h.size()));
  }
  Barrier();
  for (int s = 0; s < n; ++s) {
    std::vector<int> want(slot, Sentinel<int>());
    for (size_t k = 0; k < nelem; ++k) want[remote.Pos(k)] = Val<int>(s, me, k);
    EXPECT_TRUE(AllEqual(
        arr.Local() + s * slot, slot, [&](size_t i) { return want[i]; },
        Where(("strided put " + what).c_str(), s)));
  }
  // Get back: remote layout is the source, local layout the destination.
  std::vector<std::vector<int>> dst(n, std::vector<int>(lspan + 1, Sentinel<int>()));
  for (int t = 0; t < n; ++t) {
    dart_gptr_t from = arr.At(t, me * slot);
    if (mode == Completion::kBlocking) {
      EXPECT_EQ(DART_OK, dart_get_blocking(dst[t].data(), from, nelem, rtype.get(), ltype.get()));
    } else if (mode == Completion::kFlush) {
      EXPECT_EQ(DART_OK, dart_get(dst[t].data(), from, nelem, rtype.get(), ltype.get()));
    } else {
      EXPECT_EQ(DART_OK,
                dart_get_handle(dst[t].data(), from, nelem, rtype.get(), ltype.get(), &h[t]));
    }
  }
  if (mode == Completion::kFlush) {
    EXPECT_EQ(DART_OK, dart_flush_local_all(arr.At(0)));
  }
  if (mode == Completion::kHandle) {
    for (int t = n - 1; t >= 0; --t) EXPECT_EQ(DART_OK, dart_wait(&h[t]));
  }
  for (int t = 0; t < n; ++t) {
    EXPECT_TRUE(AllEqual(
        dst[t].data(), lspan + 1, [&](size_t i) { return src[t][i]; },
        Where(("strided get " + what).c_str(), t)));
  }
  Barrier();
}

TEST(DartPutGet, StridedSourceDestinationAndBothSidesRoundTripToEveryUnit) {
  const Layout contiguous{0, 1};
  const std::vector<std::pair<Layout, Layout>> cases = {
      {contiguous, {4, 2}},  // scatter into the target
      {{5, 3}, contiguous},  // gather from the origin
      {{5, 3}, {4, 2}},      // both sides, different block lengths and strides
      {{3, 1}, {7, 4}},      // single elements into wide blocks
      {{6, 6}, {2, 1}},      // blocklen == stride is contiguous in disguise
  };
  const size_t slot = 7 * 24 / 4 + 8;  // the widest remote span ({7, 4} of 24) and then some
  TeamArray<int> arr(N() * slot);
  // 24 is a multiple of every blocklen; 23 leaves a partial last block for all of them but 1.
  for (const auto& c : cases) {
    for (size_t nelem : {size_t{24}, size_t{23}}) {
      for (Completion mode : {Completion::kBlocking, Completion::kFlush, Completion::kHandle}) {
        StridedRoundTrip(c.first, c.second, nelem, mode, arr, slot);
      }
    }
  }
}

// More strided shapes than DART keeps committed MPI types for (16), both sides strided, each
// shape twice: types are reused, replaced and never lost while a transfer needs them. Over MPI
// RMA (shm_off, vnode1 variants) this is the path the type cache serves.
TEST(DartPutGet, ManyStridedShapesRoundTripTwice) {
  std::vector<std::pair<Layout, Layout>> cases;
  for (size_t stride = 2; stride <= 8; ++stride)
    for (size_t block = 1; block < stride; ++block)
      cases.push_back({{stride + 1, block}, {stride, block}});
  ASSERT_GT(cases.size(), 16u);
  const size_t slot = 9 * 24 + 8;  // the widest remote span ({8, 1} of 24 elements) fits
  TeamArray<int> arr(N() * slot);
  for (int pass = 0; pass < 2; ++pass)
    for (const auto& c : cases)
      StridedRoundTrip(c.first, c.second, 24, Completion::kBlocking, arr, slot);
}

// Indexed layouts (DASH's dart_type_create_indexed) against contiguous, strided and other indexed
// ones, whole and cut short inside a run, in the three completion modes; their bad input.
TEST(DartPutGet, IndexedLayoutsRoundTripToEveryUnit) {
  const Layout contiguous{0, 1};
  const Layout five{0, 0, {{1, 0}, {2, 10}, {3, 20}, {4, 30}, {5, 40}}};  // 15 elements
  const Layout ten{0, 0, {{1, 0}, {1, 2}, {3, 5}, {2, 9}, {8, 11}}};      // 15 elements
  const Layout tight{0, 0, {{4, 0}, {4, 4}, {7, 8}}};                     // contiguous, 15
  const std::vector<std::pair<Layout, Layout>> cases = {
      {contiguous, five}, {five, contiguous}, {five, ten}, {ten, {3, 2}}, {{4, 1}, tight},
  };
  const size_t slot = 48;  // the widest remote span (five: 45) fits
  TeamArray<int> arr(N() * slot);
  for (const auto& c : cases) {
    for (size_t nelem : {size_t{15}, size_t{12}, size_t{1}}) {
      for (Completion mode : {Completion::kBlocking, Completion::kFlush, Completion::kHandle}) {
        StridedRoundTrip(c.first, c.second, nelem, mode, arr, slot);
      }
    }
  }
  // More elements than the layout holds; empty runs, a layout as base type.
  LayoutType t(five);
  std::vector<int> buf(64, 0);
  EXPECT_EQ(DART_ERR_INVAL, dart_get_blocking(buf.data(), arr.At(0), 16, t.get(), DART_TYPE_INT));
  EXPECT_EQ(DART_ERR_INVAL, dart_put_blocking(arr.At(0), buf.data(), 16, DART_TYPE_INT, t.get()));
  dart_datatype_t bad = DART_TYPE_UNDEFINED;
  const size_t lens[2] = {3, 2}, zero[2] = {0, 5}, apart[2] = {0, 5};
  EXPECT_EQ(DART_ERR_INVAL, dart_type_create_indexed(DART_TYPE_INT, 2, zero, apart, &bad));
  EXPECT_EQ(DART_ERR_INVAL, dart_type_create_indexed(DART_TYPE_INT, 0, lens, apart, &bad));
  EXPECT_EQ(DART_ERR_INVAL, dart_type_create_indexed(t.get(), 2, lens, apart, &bad));
  EXPECT_EQ(bad, DART_TYPE_UNDEFINED);
  // A layout type is no element type: not allocated, not reduced.
  dart_gptr_t g = DART_GPTR_NULL;
  EXPECT_EQ(DART_ERR_INVAL, dart_memalloc(4, t.get(), &g));
  Barrier();
}

// Runs out of order and overlapping (DASH allows both): as a source every run is read in run order;
// as a get's destination a later run's value stays (over RMA through a staging buffer).
TEST(DartPutGet, IndexedRunsOutOfOrderAndOverlapping) {
  const size_t slot = 16;
  TeamArray<int> arr(N() * slot);
  for (size_t i = 0; i < slot; ++i) arr.Local()[i] = 100 * Me() + static_cast<int>(i);
  Barrier();
  const size_t lens[3] = {3, 4, 2}, offs[3] = {10, 0, 2};  // 10..12, 0..3, then 2..3 again
  dart_datatype_t odd = DART_TYPE_UNDEFINED;
  ASSERT_EQ(DART_OK, dart_type_create_indexed(DART_TYPE_INT, 3, lens, offs, &odd));
  const int next = (Me() + 1) % N();
  std::vector<int> got(9, -1);
  EXPECT_EQ(DART_OK, dart_get_blocking(got.data(), arr.At(next, 0), 9, odd, DART_TYPE_INT));
  const int order[9] = {10, 11, 12, 0, 1, 2, 3, 2, 3};
  for (int k = 0; k < 9; ++k) EXPECT_EQ(got[k], 100 * next + order[k]) << "source element " << k;
  for (int mode = 0; mode < 3; ++mode) {
    std::vector<int> into(slot, -1);
    dart_handle_t h = DART_HANDLE_NULL;
    if (mode == 0) {
      EXPECT_EQ(DART_OK, dart_get_blocking(into.data(), arr.At(next, 0), 9, DART_TYPE_INT, odd));
    } else if (mode == 1) {
      EXPECT_EQ(DART_OK, dart_get(into.data(), arr.At(next, 0), 9, DART_TYPE_INT, odd));
      EXPECT_EQ(DART_OK, dart_flush_local(arr.At(next, 0)));
    } else {
      EXPECT_EQ(DART_OK, dart_get_handle(into.data(), arr.At(next, 0), 9, DART_TYPE_INT, odd, &h));
      EXPECT_EQ(DART_OK, dart_wait(&h));
    }
    std::vector<int> want(slot, -1);
    for (int k = 0; k < 9; ++k) want[order[k]] = 100 * next + k;  // later runs overwrite
    EXPECT_EQ(into, want) << "mode " << mode;
  }
  Barrier();
  // A put from the out-of-order layout into a contiguous target.
  std::vector<int> src(slot);
  for (size_t i = 0; i < slot; ++i) src[i] = 1000 * (Me() + 1) + static_cast<int>(i);
  EXPECT_EQ(DART_OK, dart_put_blocking(arr.At(next, 0), src.data(), 9, odd, DART_TYPE_INT));
  Barrier();
  const int prev = (Me() + N() - 1) % N();
  for (int k = 0; k < 9; ++k) EXPECT_EQ(arr.Local()[k], 1000 * (prev + 1) + order[k]);
  Barrier();
  EXPECT_EQ(DART_OK, dart_type_destroy(&odd));
}

// ---- copies inside one's own segment ------------------------------------------------------

// A unit's own memory is always reached by load/store; a put or get whose source and
// destination overlap inside it behaves like memmove.
TEST(DartPutGet, OverlappingPutAndGetWithinOwnSegmentActLikeMemmove) {
  const int me = Me();
  const size_t L = 64, shift = 5;
  TeamArray<int> arr(L + shift);
  int* local = arr.Local();
  std::vector<int> want(L + shift);
  auto reset = [&] {
    for (size_t i = 0; i < L + shift; ++i) local[i] = want[i] = Val<int>(me, 7, i);
  };
  // Forward overlap: destination above source.
  reset();
  std::memmove(want.data() + shift, want.data(), L * sizeof(int));
  EXPECT_EQ(DART_OK, dart_put_blocking(arr.At(me, shift), local, L, DART_TYPE_INT, DART_TYPE_INT));
  EXPECT_TRUE(AllEqual(
      local, L + shift, [&](size_t i) { return want[i]; }, "put upward"));
  // Backward overlap: destination below source.
  reset();
  std::memmove(want.data(), want.data() + shift, L * sizeof(int));
  EXPECT_EQ(DART_OK,
            dart_put_blocking(arr.At(me, 0), local + shift, L, DART_TYPE_INT, DART_TYPE_INT));
  EXPECT_TRUE(AllEqual(
      local, L + shift, [&](size_t i) { return want[i]; }, "put downward"));
  // Gets with overlapping source and destination, both directions.
  reset();
  std::memmove(want.data() + shift, want.data(), L * sizeof(int));
  EXPECT_EQ(DART_OK,
            dart_get_blocking(local + shift, arr.At(me, 0), L, DART_TYPE_INT, DART_TYPE_INT));
  EXPECT_TRUE(AllEqual(
      local, L + shift, [&](size_t i) { return want[i]; }, "get upward"));
  reset();
  std::memmove(want.data(), want.data() + shift, L * sizeof(int));
  EXPECT_EQ(DART_OK, dart_get_blocking(local, arr.At(me, shift), L, DART_TYPE_INT, DART_TYPE_INT));
  EXPECT_TRUE(AllEqual(
      local, L + shift, [&](size_t i) { return want[i]; }, "get downward"));
  Barrier();
}

// ---- dart_memalloc memory -------------------------------------------------------------------

std::vector<dart_gptr_t> AllgatherGptrs(dart_gptr_t mine) {
  std::vector<dart_gptr_t> all(N(), DART_GPTR_NULL);
  EXPECT_EQ(DART_OK,
            dart_allgather(&mine, all.data(), sizeof(dart_gptr_t), DART_TYPE_BYTE, DART_TEAM_ALL));
  return all;
}

TEST(DartPutGet, LocalAllocationsAreReadAndWrittenByEveryUnit) {
  const int n = N(), me = Me();
  const size_t K = 11;  // [K own values][n slots of K for puts from every unit]
  const size_t total = K + n * K;
  dart_runtime_stats_t before;
  EXPECT_EQ(DART_OK, dart_runtime_stats(&before));
  dart_gptr_t mine = DART_GPTR_NULL;
  EXPECT_EQ(DART_OK, dart_memalloc(total, DART_TYPE_LONG, &mine));
  void* addr = nullptr;
  EXPECT_EQ(DART_OK, dart_gptr_getaddr(mine, &addr));
  long* local = static_cast<long*>(addr);
  EXPECT_NE(nullptr, local);
  if (local != nullptr) {
    for (size_t i = 0; i < K; ++i) local[i] = Val<long>(me, 5, i);
    std::fill(local + K, local + total, Sentinel<long>());
  }
  std::vector<dart_gptr_t> all = AllgatherGptrs(mine);
  Barrier();
  std::vector<std::vector<long>> src(n, std::vector<long>(K));
  std::vector<dart_handle_t> h(n, DART_HANDLE_NULL);
  for (int t = 0; t < n; ++t) {
    std::vector<long> got(K, Sentinel<long>());
    EXPECT_EQ(DART_OK, dart_get_blocking(got.data(), all[t], K, DART_TYPE_LONG, DART_TYPE_LONG));
    EXPECT_TRUE(AllEqual(
        got.data(), K, [&](size_t i) { return Val<long>(t, 5, i); }, Where("memalloc get", t)));
    dart_gptr_t slot = all[t];
    EXPECT_EQ(DART_OK, dart_gptr_incaddr(&slot, static_cast<int64_t>((K + me * K) * sizeof(long))));
    for (size_t i = 0; i < K; ++i) src[t][i] = Val<long>(me, t, i);
    if (t % 2 == 0) {
      EXPECT_EQ(DART_OK, dart_put_blocking(slot, src[t].data(), K, DART_TYPE_LONG, DART_TYPE_LONG));
    } else {
      EXPECT_EQ(DART_OK,
                dart_put_handle(slot, src[t].data(), K, DART_TYPE_LONG, DART_TYPE_LONG, &h[t]));
    }
  }
  EXPECT_EQ(DART_OK, dart_waitall(h.data(), h.size()));
  Barrier();
  if (local != nullptr) {
    for (int s = 0; s < n; ++s) {
      EXPECT_TRUE(AllEqual(
          local + K + s * K, K, [&](size_t i) { return Val<long>(s, me, i); },
          Where("memalloc put", s)));
    }
    EXPECT_TRUE(AllEqual(
        local, K, [&](size_t i) { return Val<long>(me, 5, i); }, "memalloc owner values"));
  }
  Barrier();
  EXPECT_EQ(DART_OK, dart_memfree(mine));
  dart_runtime_stats_t after;
  EXPECT_EQ(DART_OK, dart_runtime_stats(&after));
  EXPECT_EQ(before.local_pool_used, after.local_pool_used);
  EXPECT_EQ(before.handles, after.handles);
}

// ---- which path is taken --------------------------------------------------------------------

bool EnvFlagOff(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return false;
  std::string s(v);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s == "0" || s == "off" || s == "false" || s == "no";
}

// Whether this run lets unit `me` reach unit `t` by load/store: itself always; others only with
// shared windows on and in the same (emulated) node.
bool FastPathExpected(int me, int t) {
  if (t == me) return true;
  if (EnvFlagOff("DART_SHARED_WINDOWS")) return false;
  return dash_test::ExpectedNode(t) == dash_test::ExpectedNode(me);
}

// Under DART_SHARED_WINDOWS=0 and DART_VIRTUAL_NODE_SIZE=1 every other unit has no shared
// address, so the value checks of this suite ran over MPI RMA there.
TEST(DartPutGet, SharedAddressIsSetExactlyForUnitsTheFastPathReaches) {
  const int n = N(), me = Me();
  TeamArray<int> arr(2);
  arr.Local()[0] = 1000 + me;
  dart_gptr_t mine = DART_GPTR_NULL;
  EXPECT_EQ(DART_OK, dart_memalloc(1, DART_TYPE_INT, &mine));
  std::vector<dart_gptr_t> pool = AllgatherGptrs(mine);
  Barrier();
  for (int t = 0; t < n; ++t) {
    const bool want = FastPathExpected(me, t);
    void* shared = reinterpret_cast<void*>(&arr);  // must be overwritten
    EXPECT_EQ(DART_OK, dart_gptr_getaddr_shared(arr.At(t), &shared));
    EXPECT_EQ(want, shared != nullptr) << Where("team segment", t);
    if (shared != nullptr) {
      EXPECT_EQ(1000 + t, *static_cast<int*>(shared)) << Where("alias", t);
    }
    void* own = reinterpret_cast<void*>(&arr);
    EXPECT_EQ(DART_OK, dart_gptr_getaddr(arr.At(t), &own));
    EXPECT_EQ(t == me, own != nullptr) << Where("dart_gptr_getaddr", t);
    if (t == me) {
      EXPECT_EQ(own, shared);
    }
    shared = reinterpret_cast<void*>(&arr);
    EXPECT_EQ(DART_OK, dart_gptr_getaddr_shared(pool[t], &shared));
    EXPECT_EQ(want, shared != nullptr) << Where("local allocation", t);
  }
  Barrier();
  EXPECT_EQ(DART_OK, dart_memfree(mine));
}

dart_runtime_stats_t Stats() {
  dart_runtime_stats_t stats{};
  EXPECT_EQ(DART_OK, dart_runtime_stats(&stats));
  return stats;
}

// Gets from every unit count as RMA transfers exactly where the fast path does not reach:
// the emulated-node and shm_off runs really move data through MPI RMA. A team segment takes
// one window, or two (the window pair: a shared window per node and an MPI_Win_create window)
// where DART chooses the pair: with DART_TEST_FORCE_WINDOW_PAIR and, built against MPICH,
// whenever some unit reaches another only by RMA (docs/platform.md: "RMA on shared windows
// (MPICH)").
TEST(DartPutGet, RmaTransfersCounted_WindowPairWhereRmaOnMpich) {
  const int n = N(), me = Me();
  bool rma = false;
  for (int t = 0; t < n; ++t) rma = rma || !FastPathExpected(me, t);
#ifdef MPICH_VERSION
  const bool mpich = true;
#else
  const bool mpich = false;
#endif
  const bool pair = !EnvFlagOff("DART_TEST_FORCE_WINDOW_PAIR") &&
                    std::getenv("DART_TEST_FORCE_WINDOW_PAIR") != nullptr;
  bool spans_hosts = false;  // a team over several hosts always gets the window pair
  for (int t = 0; t < n; ++t) spans_hosts = spans_hosts || dash_test::ExpectedRealNode(t) != 0;
  const long windows_before = Stats().windows;
  {
    TeamArray<int> arr(4);
    EXPECT_EQ(Stats().windows - windows_before, pair || spans_hosts || (mpich && rma) ? 2 : 1);
    arr.Local()[0] = 7 * me;
    Barrier();
    const long before = Stats().rma_transfers;
    long want = 0;
    for (int t = 0; t < n; ++t) {
      int got = -1;
      EXPECT_EQ(DART_OK, dart_get_blocking(&got, arr.At(t), 1, DART_TYPE_INT, DART_TYPE_INT));
      EXPECT_EQ(7 * t, got) << Where("get", t);
      want += FastPathExpected(me, t) ? 0 : 1;
    }
    EXPECT_EQ(Stats().rma_transfers - before, want);
    Barrier();
  }
  EXPECT_EQ(Stats().windows, windows_before);
}

// dart_gptr_mpi_window names the window, rank and displacement DART's RMA uses: raw MPI_Get
// and MPI_Put there (at an element inside the part, of a team segment and of a local
// allocation) move the same bytes as dart_get and dart_put; bad pointers are refused.
TEST(DartPutGet, MpiWindowOfAGlobalPointerReachesTheSameBytes) {
  const int n = N(), me = Me();
  constexpr size_t K = 5;
  TeamArray<long> arr(K);
  for (size_t i = 0; i < K; ++i) arr.Local()[i] = Val<long>(me, 0, i);
  dart_gptr_t mine = DART_GPTR_NULL;
  ASSERT_EQ(DART_OK, dart_memalloc(K, DART_TYPE_LONG, &mine));
  void* addr = nullptr;
  EXPECT_EQ(DART_OK, dart_gptr_getaddr(mine, &addr));
  long* pool_local = static_cast<long*>(addr);
  for (size_t i = 0; i < K; ++i) pool_local[i] = Val<long>(me, 1, i);
  std::vector<dart_gptr_t> pool = AllgatherGptrs(mine);
  Barrier();
  for (int t = 0; t < n; ++t) {
    const dart_gptr_t targets[2] = {arr.At(t, 2), pool[t]};
    for (int which = 0; which < 2; ++which) {
      dart_gptr_t g = targets[which];
      if (which == 1) {
        EXPECT_EQ(DART_OK, dart_gptr_incaddr(&g, 2 * sizeof(long)));
      }
      MPI_Win win = MPI_WIN_NULL;
      int rank = -1;
      MPI_Aint disp = -1;
      ASSERT_EQ(DART_OK, dart_gptr_mpi_window(g, &win, &rank, &disp)) << Where("window", t);
      long raw = -1, dart = -2;
      ASSERT_EQ(MPI_SUCCESS, MPI_Get(&raw, 1, MPI_LONG, rank, disp, 1, MPI_LONG, win));
      ASSERT_EQ(MPI_SUCCESS, MPI_Win_flush(rank, win));
      EXPECT_EQ(DART_OK, dart_get_blocking(&dart, g, 1, DART_TYPE_LONG, DART_TYPE_LONG));
      EXPECT_EQ(Val<long>(t, which, 2), raw) << Where(which == 0 ? "segment" : "pool", t);
      EXPECT_EQ(raw, dart) << Where(which == 0 ? "segment" : "pool", t);
    }
  }
  Barrier();
  // Each unit puts its id into element 3 of the next unit's part through the raw window.
  const int next = (me + 1) % n;
  MPI_Win win = MPI_WIN_NULL;
  int rank = -1;
  MPI_Aint disp = -1;
  ASSERT_EQ(DART_OK, dart_gptr_mpi_window(arr.At(next, 3), &win, &rank, &disp));
  EXPECT_EQ(next, rank);
  const long value = 900 + me;
  ASSERT_EQ(MPI_SUCCESS, MPI_Put(&value, 1, MPI_LONG, rank, disp, 1, MPI_LONG, win));
  ASSERT_EQ(MPI_SUCCESS, MPI_Win_flush(rank, win));
  Barrier();
  EXPECT_EQ(900 + (me + n - 1) % n, arr.Local()[3]);
  EXPECT_EQ(Val<long>(me, 0, 4), arr.Local()[4]);  // the neighbour untouched
  // Bad input: null arguments, the null pointer, a freed allocation.
  EXPECT_EQ(DART_ERR_INVAL, dart_gptr_mpi_window(arr.At(me), nullptr, &rank, &disp));
  EXPECT_EQ(DART_ERR_INVAL, dart_gptr_mpi_window(DART_GPTR_NULL, &win, &rank, &disp));
  Barrier();
  EXPECT_EQ(DART_OK, dart_memfree(mine));
  EXPECT_EQ(DART_ERR_INVAL, dart_gptr_mpi_window(mine, &win, &rank, &disp));
}

// Elements of every basic type can be placed at offset 0 of a team segment or a local
// allocation: the addresses through which units load and store are aligned like malloc's.
TEST(DartPutGet, SegmentAddressesAreAlignedForEveryBasicType) {
  const int n = N();
  constexpr size_t kAlign = alignof(std::max_align_t);
  TeamArray<long double> arr(3);
  dart_gptr_t mine = DART_GPTR_NULL;
  EXPECT_EQ(DART_OK, dart_memalloc(1, DART_TYPE_CHAR, &mine));
  std::vector<dart_gptr_t> pool = AllgatherGptrs(mine);
  for (int t = 0; t < n; ++t) {
    for (dart_gptr_t p : {arr.At(t), pool[t]}) {
      void* shared = nullptr;
      EXPECT_EQ(DART_OK, dart_gptr_getaddr_shared(p, &shared));
      EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(shared) % kAlign)
          << Where("shared address", t) << " segment " << p.segid << ": " << shared;
    }
  }
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(arr.Local()) % kAlign) << arr.Local();
  Barrier();
  EXPECT_EQ(DART_OK, dart_memfree(mine));
}

}  // namespace
