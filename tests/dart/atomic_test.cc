// Atomics under contention from all units: fetch-and-op counters end at the exact total and
// hand out unique tickets, accumulate with every operation on arrays of several types,
// compare-and-swap elects one winner per round, NO_OP and REPLACE fetches, and atomics on
// dart_memalloc memory. Values are checked on the owner and, through MPI, on every unit.
#include <dart/dart.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
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

void Barrier() { EXPECT_EQ(DART_OK, dart_barrier(DART_TEAM_ALL)); }

// Reads one element through MPI (fetch-and-op with NO_OP).
template <class T>
T AtomicRead(dart_gptr_t p) {
  T dummy = T(12345), result = T(0);
  EXPECT_EQ(DART_OK, dart_fetch_and_op(p, &dummy, &result, DartType<T>(), DART_OP_NO_OP));
  return result;
}

std::string Peer(int unit) {
  return " (unit " + std::to_string(Me()) + ", peer " + std::to_string(unit) + ")";
}

// ---- unsigned minimum and maximum ----------------------------------------------------------

// Every unit applies MIN and MAX with a value on either side of the signed range to elements
// on unit 0 (fetch-and-op and accumulate): they end at the true unsigned minimum and maximum
// (MPICH 4.0.2 compares unsigned values as signed; DART must not).
TEST(DartAtomic, MinMaxOfUnsignedValuesAboveTheSignedRange) {
  using U = unsigned long long;
  auto value = [](int u) { return u % 2 == 0 ? ~U(0) - U(u) : U(u + 1); };
  const U start = U(1) << 63;
  U lo = start, hi = start;
  for (int u = 0; u < N(); ++u) lo = std::min(lo, value(u)), hi = std::max(hi, value(u));
  TeamArray<U> cells(4);
  cells.Fill(start);
  Barrier();
  const U mine = value(Me());
  U old = 0;
  EXPECT_EQ(DART_OK,
            dart_fetch_and_op(cells.At(0, 0), &mine, &old, DART_TYPE_ULONGLONG, DART_OP_MIN));
  EXPECT_EQ(DART_OK,
            dart_fetch_and_op(cells.At(0, 1), &mine, &old, DART_TYPE_ULONGLONG, DART_OP_MAX));
  EXPECT_EQ(DART_OK, dart_accumulate_blocking_local(cells.At(0, 2), &mine, 1, DART_TYPE_ULONGLONG,
                                                    DART_OP_MIN));
  EXPECT_EQ(DART_OK, dart_accumulate_blocking_local(cells.At(0, 3), &mine, 1, DART_TYPE_ULONGLONG,
                                                    DART_OP_MAX));
  EXPECT_EQ(DART_OK, dart_flush_all(cells.At(0, 0)));
  Barrier();
  EXPECT_EQ(AtomicRead<U>(cells.At(0, 0)), lo) << "fetch-and-op MIN";
  EXPECT_EQ(AtomicRead<U>(cells.At(0, 1)), hi) << "fetch-and-op MAX";
  EXPECT_EQ(AtomicRead<U>(cells.At(0, 2)), lo) << "accumulate MIN";
  EXPECT_EQ(AtomicRead<U>(cells.At(0, 3)), hi) << "accumulate MAX";
  Barrier();
}

// ---- fetch-and-op counters ------------------------------------------------------------------

// Each unit adds 1 K times to a counter on unit 0 and to one on the last unit (different words
// when they are the same unit). The counters end at K*n; the fetched values of all units
// together are a permutation of 0..K*n-1, and each unit's own are increasing.
TEST(DartAtomic, FetchAndAddFromAllUnitsCountsExactlyAndHandsOutUniqueTickets) {
  const int n = N(), me = Me();
  const int K = 100;
  const int last = n - 1;
  TeamArray<long> counters(2);  // [0] used on unit 0, [1] on the last unit
  counters.Fill(0);
  Barrier();
  std::vector<long> fetched(2 * K, -1);  // [0, K): unit 0's counter, [K, 2K): the last unit's
  const long one = 1;
  for (int k = 0; k < K; ++k) {
    EXPECT_EQ(DART_OK,
              dart_fetch_and_op(counters.At(0, 0), &one, &fetched[k], DART_TYPE_LONG, DART_OP_SUM));
    EXPECT_EQ(DART_OK, dart_fetch_and_op(counters.At(last, 1), &one, &fetched[K + k],
                                         DART_TYPE_LONG, DART_OP_SUM));
  }
  for (int c = 0; c < 2; ++c) {
    for (int k = 1; k < K; ++k) {
      EXPECT_LT(fetched[c * K + k - 1], fetched[c * K + k])
          << "counter " << c << ": tickets of one unit not increasing at " << k;
    }
  }
  std::vector<long> all(static_cast<size_t>(n) * 2 * K, -1);
  EXPECT_EQ(DART_OK,
            dart_allgather(fetched.data(), all.data(), 2 * K, DART_TYPE_LONG, DART_TEAM_ALL));
  for (int c = 0; c < 2; ++c) {
    std::vector<long> tickets;
    for (int u = 0; u < n; ++u) {
      tickets.insert(tickets.end(), all.begin() + (u * 2 + c) * K,
                     all.begin() + (u * 2 + c + 1) * K);
    }
    std::sort(tickets.begin(), tickets.end());
    size_t wrong = 0;
    for (size_t i = 0; i < tickets.size(); ++i) wrong += tickets[i] != static_cast<long>(i);
    EXPECT_EQ(0u, wrong) << "counter " << c << ": fetched values are not a permutation of 0.."
                         << K * n - 1;
  }
  Barrier();
  EXPECT_EQ(static_cast<long>(K) * n, AtomicRead<long>(counters.At(0, 0)));
  EXPECT_EQ(static_cast<long>(K) * n, AtomicRead<long>(counters.At(last, 1)));
  if (me == 0) {
    EXPECT_EQ(static_cast<long>(K) * n, counters.Local()[0]);
  }
  if (me == last) {
    EXPECT_EQ(static_cast<long>(K) * n, counters.Local()[1]);
  }
  Barrier();
}

// Swapping with REPLACE from all units at once loses no value: the values fetched by all units
// plus the final one are exactly the initial value and every unit's id.
TEST(DartAtomic, FetchAndReplaceFromAllUnitsLosesNoValue) {
  const int n = N(), me = Me();
  const int rounds = 20;
  TeamArray<int> word(rounds);
  word.Fill(-1);
  Barrier();
  std::vector<int> fetched(rounds, -7);
  for (int r = 0; r < rounds; ++r) {
    const int value = me + r * n;
    EXPECT_EQ(DART_OK, dart_fetch_and_op(word.At(r % n, r), &value, &fetched[r], DART_TYPE_INT,
                                         DART_OP_REPLACE));
  }
  std::vector<int> all(static_cast<size_t>(n) * rounds);
  EXPECT_EQ(DART_OK,
            dart_allgather(fetched.data(), all.data(), rounds, DART_TYPE_INT, DART_TEAM_ALL));
  Barrier();
  for (int r = 0; r < rounds; ++r) {
    std::vector<int> seen;
    for (int u = 0; u < n; ++u) seen.push_back(all[u * rounds + r]);
    seen.push_back(AtomicRead<int>(word.At(r % n, r)));
    std::sort(seen.begin(), seen.end());
    std::vector<int> want;
    want.push_back(-1);
    for (int u = 0; u < n; ++u) want.push_back(u + r * n);
    EXPECT_EQ(want, seen) << "round " << r;
  }
  Barrier();
}

TEST(DartAtomic, FetchAndOpNoOpReadsEveryUnitWithoutModifying) {
  const int n = N(), me = Me();
  TeamArray<double> arr(3);
  for (int i = 0; i < 3; ++i) arr.Local()[i] = 1000.5 + me * 10 + i;
  Barrier();
  for (int t = 0; t < n; ++t) {
    for (int i = 0; i < 3; ++i) {
      double value = -99.0, result = 0.0;
      EXPECT_EQ(DART_OK,
                dart_fetch_and_op(arr.At(t, i), &value, &result, DART_TYPE_DOUBLE, DART_OP_NO_OP));
      EXPECT_EQ(1000.5 + t * 10 + i, result) << Peer(t);
    }
  }
  Barrier();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(1000.5 + me * 10 + i, arr.Local()[i]) << "modified";
  Barrier();
}

// ---- accumulate -----------------------------------------------------------------------------

template <class T>
class DartAtomicTyped : public ::testing::Test {};
using AccumulateTypes = ::testing::Types<int, long, unsigned long long, double, float>;
TYPED_TEST_SUITE(DartAtomicTyped, AccumulateTypes);

// Every unit s accumulates into every unit's arrays (M elements each) with SUM, MIN, MAX, BOR
// (integers), REPLACE on disjoint elements and REPLACE on shared elements, completed with
// dart_flush per target.
TYPED_TEST(DartAtomicTyped, AccumulateWithEveryOpFromAllUnitsCombinesExactly) {
  using T = TypeParam;
  const int n = N(), me = Me();
  const dart_datatype_t dt = DartType<T>();
  constexpr bool kInteger = std::is_integral<T>::value;
  const size_t M = 5;
  // Offsets of the arrays in every unit's part.
  const size_t kSum = 0, kMin = M, kMax = 2 * M, kBor = 3 * M, kRepShared = 4 * M, kRepOwn = 5 * M,
               total = 5 * M + n;
  auto sum_c = [](int s, size_t i) { return T(s + i + 1); };
  auto min_c = [](int s, size_t i) { return T(50 + (s * 7 + i * 3) % 40); };
  auto max_c = [](int s, size_t i) { return T(2 + (s * 5 + i * 11) % 60); };
  auto bor_c = [](int s, size_t i) { return T(1ull << ((s * 3 + i) % 16)); };
  auto rep_c = [](int s, size_t i) { return T(2000 + s * 10 + i); };
  TeamArray<T> arr(total);
  T* local = arr.Local();
  for (size_t i = 0; i < M; ++i) {
    local[kSum + i] = T(10);
    local[kMin + i] = T(100);
    local[kMax + i] = T(1);
    local[kBor + i] = T(1u << 20);
    local[kRepShared + i] = T(7);
  }
  for (int s = 0; s < n; ++s) local[kRepOwn + s] = T(7);
  Barrier();
  std::vector<T> sum(M), mn(M), mx(M), bor(M), rep(M);
  for (size_t i = 0; i < M; ++i) {
    sum[i] = sum_c(me, i);
    mn[i] = min_c(me, i);
    mx[i] = max_c(me, i);
    bor[i] = bor_c(me, i);
    rep[i] = rep_c(me, i);
  }
  const T own = T(1000 + me);
  for (int t = 0; t < n; ++t) {
    EXPECT_EQ(DART_OK, dart_accumulate(arr.At(t, kSum), sum.data(), M, dt, DART_OP_SUM));
    EXPECT_EQ(DART_OK, dart_accumulate(arr.At(t, kMin), mn.data(), M, dt, DART_OP_MIN));
    EXPECT_EQ(DART_OK, dart_accumulate(arr.At(t, kMax), mx.data(), M, dt, DART_OP_MAX));
    if (kInteger) {
      EXPECT_EQ(DART_OK, dart_accumulate(arr.At(t, kBor), bor.data(), M, dt, DART_OP_BOR));
    }
    EXPECT_EQ(DART_OK, dart_accumulate(arr.At(t, kRepShared), rep.data(), M, dt, DART_OP_REPLACE));
    EXPECT_EQ(DART_OK, dart_accumulate(arr.At(t, kRepOwn + me), &own, 1, dt, DART_OP_REPLACE));
    EXPECT_EQ(DART_OK, dart_flush(arr.At(t)));
  }
  Barrier();
  // Expected values; every unit checks every unit's arrays (its own by load, all through MPI).
  std::vector<T> want(total);
  for (size_t i = 0; i < M; ++i) {
    T s = T(10), lo = T(100), hi = T(1), b = T(1u << 20);
    for (int u = 0; u < n; ++u) {
      s = T(s + sum_c(u, i));
      lo = std::min(lo, min_c(u, i));
      hi = std::max(hi, max_c(u, i));
      if constexpr (kInteger) b = T(b | bor_c(u, i));
    }
    want[kSum + i] = s;
    want[kMin + i] = lo;
    want[kMax + i] = hi;
    want[kBor + i] = b;
  }
  for (int s = 0; s < n; ++s) want[kRepOwn + s] = T(1000 + s);
  auto check = [&](const T* got, const std::string& where) {
    for (size_t i = 0; i < M; ++i) {
      EXPECT_EQ(want[kSum + i], got[kSum + i]) << "SUM [" << i << "]" << where;
      EXPECT_EQ(want[kMin + i], got[kMin + i]) << "MIN [" << i << "]" << where;
      EXPECT_EQ(want[kMax + i], got[kMax + i]) << "MAX [" << i << "]" << where;
      if (kInteger) {
        EXPECT_EQ(want[kBor + i], got[kBor + i]) << "BOR [" << i << "]" << where;
      }
      bool from_a_unit = false;
      for (int u = 0; u < n; ++u) from_a_unit |= got[kRepShared + i] == rep_c(u, i);
      EXPECT_TRUE(from_a_unit) << "REPLACE [" << i << "] = " << got[kRepShared + i]
                               << " was written by no unit" << where;
    }
    for (int s = 0; s < n; ++s) {
      EXPECT_EQ(want[kRepOwn + s], got[kRepOwn + s]) << "REPLACE of unit " << s << where;
    }
  };
  check(local, " in own memory");
  for (int t = 0; t < n; ++t) {
    std::vector<T> got(total);
    EXPECT_EQ(DART_OK, dart_get_blocking(got.data(), arr.At(t), total, dt, dt));
    check(got.data(), " read from" + Peer(t));
  }
  Barrier();
}

// After dart_accumulate_blocking_local returns, the value buffer may be overwritten at once.
TEST(DartAtomic, AccumulateBlockingLocalLetsTheBufferBeReusedAtOnce) {
  const int n = N(), me = Me();
  const size_t M = 8;
  TeamArray<long> arr(M);
  arr.Fill(0);
  Barrier();
  std::vector<long> values(M);
  for (int t = 0; t < n; ++t) {
    for (size_t i = 0; i < M; ++i) values[i] = me + 1 + static_cast<long>(i);
    EXPECT_EQ(DART_OK, dart_accumulate_blocking_local(arr.At(t), values.data(), M, DART_TYPE_LONG,
                                                      DART_OP_SUM));
    for (size_t i = 0; i < M; ++i) values[i] = 100 * (me + 1);  // reuse at once
    EXPECT_EQ(DART_OK, dart_accumulate_blocking_local(arr.At(t), values.data(), M, DART_TYPE_LONG,
                                                      DART_OP_SUM));
    std::fill(values.begin(), values.end(), -1000000L);
  }
  EXPECT_EQ(DART_OK, dart_flush_all(arr.At(0)));
  Barrier();
  for (size_t i = 0; i < M; ++i) {
    long want = 0;
    for (int u = 0; u < n; ++u) want += (u + 1 + static_cast<long>(i)) + 100 * (u + 1);
    EXPECT_EQ(want, arr.Local()[i]) << "element " << i;
    for (int t = 0; t < n; ++t) EXPECT_EQ(want, AtomicRead<long>(arr.At(t, i))) << Peer(t);
  }
  Barrier();
}

// An accumulate larger than DART_TRANSFER_CHUNK_SIZE in the chunk_small variant (12000 bytes
// against 4K chunks) still adds every element exactly once.
TEST(DartAtomic, AccumulateOfManyElementsFromAllUnitsAddsEachOnce) {
  const int n = N(), me = Me();
  const size_t M = 3001;
  TeamArray<int> arr(M);
  arr.Fill(1);
  Barrier();
  std::vector<int> values(M);
  for (size_t i = 0; i < M; ++i) values[i] = static_cast<int>(i % 97) + me;
  for (int t = 0; t < n; ++t) {
    EXPECT_EQ(DART_OK,
              dart_accumulate(arr.At((me + t) % n), values.data(), M, DART_TYPE_INT, DART_OP_SUM));
  }
  EXPECT_EQ(DART_OK, dart_flush_all(arr.At(0)));
  Barrier();
  size_t wrong = 0;
  for (size_t i = 0; i < M; ++i) {
    int want = 1 + n * static_cast<int>(i % 97) + n * (n - 1) / 2;
    wrong += arr.Local()[i] != want;
  }
  EXPECT_EQ(0u, wrong) << "elements with a wrong sum";
  Barrier();
}

// ---- compare-and-swap -----------------------------------------------------------------------

template <class T>
class DartAtomicCas : public ::testing::Test {};
using CasTypes = ::testing::Types<int, long, unsigned long long>;
TYPED_TEST_SUITE(DartAtomicCas, CasTypes);

// In each round all units try to swap their id into a free word (on unit r % n); exactly one
// sees the word free, all others see that winner's id, and the word holds it.
TYPED_TEST(DartAtomicCas, CompareAndSwapElectsExactlyOneWinnerPerRound) {
  using T = TypeParam;
  const int n = N(), me = Me();
  const int rounds = 16;
  const T kFree = T(-1);
  TeamArray<T> words(rounds);
  words.Fill(kFree);
  Barrier();
  std::vector<T> seen(rounds, T(-2));
  for (int r = 0; r < rounds; ++r) {
    const T value = T(me), compare = kFree;
    EXPECT_EQ(DART_OK,
              dart_compare_and_swap(words.At(r % n, r), &value, &compare, &seen[r], DartType<T>()));
  }
  std::vector<T> all(static_cast<size_t>(n) * rounds);
  EXPECT_EQ(DART_OK, dart_allgather(seen.data(), all.data(), rounds, DartType<T>(), DART_TEAM_ALL));
  Barrier();
  for (int r = 0; r < rounds; ++r) {
    int winners = 0, winner = -1;
    for (int u = 0; u < n; ++u) {
      if (all[u * rounds + r] == kFree) {
        ++winners;
        winner = u;
      }
    }
    EXPECT_EQ(1, winners) << "round " << r;
    if (winners != 1) continue;
    for (int u = 0; u < n; ++u) {
      if (u != winner) {
        EXPECT_EQ(T(winner), all[u * rounds + r]) << "round " << r << " unit " << u;
      }
    }
    EXPECT_EQ(T(winner), AtomicRead<T>(words.At(r % n, r))) << "round " << r;
    if (r % n == me) {
      EXPECT_EQ(T(winner), words.Local()[r]) << "round " << r;
    }
  }
  Barrier();
}

// ---- local allocations ----------------------------------------------------------------------

TEST(DartAtomic, AtomicsOnLocalAllocationsOfEveryUnitAreExact) {
  const int n = N(), me = Me();
  const int K = 20;
  dart_gptr_t mine = DART_GPTR_NULL;
  EXPECT_EQ(DART_OK, dart_memalloc(3, DART_TYPE_LONG, &mine));  // counter, sum, CAS word
  void* addr = nullptr;
  EXPECT_EQ(DART_OK, dart_gptr_getaddr(mine, &addr));
  long* local = static_cast<long*>(addr);
  EXPECT_NE(nullptr, local);
  if (local != nullptr) local[0] = local[1] = 0, local[2] = -1;
  std::vector<dart_gptr_t> all(n, DART_GPTR_NULL);
  EXPECT_EQ(DART_OK,
            dart_allgather(&mine, all.data(), sizeof(dart_gptr_t), DART_TYPE_BYTE, DART_TEAM_ALL));
  Barrier();
  const long one = 1;
  std::vector<long> cas_seen(n, -2);
  for (int t = 0; t < n; ++t) {
    dart_gptr_t counter = all[t], sum = all[t], cas = all[t];
    EXPECT_EQ(DART_OK, dart_gptr_incaddr(&sum, sizeof(long)));
    EXPECT_EQ(DART_OK, dart_gptr_incaddr(&cas, 2 * sizeof(long)));
    long prev = -1;
    for (int k = 0; k < K; ++k) {
      long got = -1;
      EXPECT_EQ(DART_OK, dart_fetch_and_op(counter, &one, &got, DART_TYPE_LONG, DART_OP_SUM));
      EXPECT_LT(prev, got) << Peer(t);
      prev = got;
    }
    const long mine_value = me + 1;
    EXPECT_EQ(DART_OK, dart_accumulate(sum, &mine_value, 1, DART_TYPE_LONG, DART_OP_SUM));
    EXPECT_EQ(DART_OK, dart_flush(sum));
    const long value = me, compare = -1;
    EXPECT_EQ(DART_OK, dart_compare_and_swap(cas, &value, &compare, &cas_seen[t], DART_TYPE_LONG));
  }
  std::vector<long> cas_all(static_cast<size_t>(n) * n);
  EXPECT_EQ(DART_OK,
            dart_allgather(cas_seen.data(), cas_all.data(), n, DART_TYPE_LONG, DART_TEAM_ALL));
  Barrier();
  if (local != nullptr) {
    EXPECT_EQ(static_cast<long>(K) * n, local[0]);
    EXPECT_EQ(static_cast<long>(n) * (n + 1) / 2, local[1]);
    int winners = 0;
    for (int u = 0; u < n; ++u) {
      if (cas_all[u * n + me] == -1) {
        ++winners;
        EXPECT_EQ(u, local[2]) << "the CAS winner's id is not in the word";
      }
    }
    EXPECT_EQ(1, winners) << "CAS winners on unit " << me << "'s word";
  }
  Barrier();
  EXPECT_EQ(DART_OK, dart_memfree(mine));
}

}  // namespace
