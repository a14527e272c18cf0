// Collectives: barrier, bcast, scatter, gather, allgather(v), reduce/allreduce with every legal
// operation, alltoall, ibarrier and iallreduce, with zero elements, on DART_TEAM_ALL and on
// sub-teams whose unit order differs from the global one.
#include <dart/dart.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

// A team as its member sees it: own team id, size and the global id of every team unit.
struct TeamView {
  dart_team_t team;
  std::string name;
  int me;
  int n;
  std::vector<int> global;  // team unit -> global unit
};

TeamView View(dart_team_t team, const std::string& name) {
  TeamView v{team, name, -1, 0, {}};
  dart_team_unit_t me{-1};
  size_t size = 0;
  EXPECT_EQ(dart_team_myid(team, &me), DART_OK);
  EXPECT_EQ(dart_team_size(team, &size), DART_OK);
  v.me = me.id;
  v.n = static_cast<int>(size);
  for (int u = 0; u < v.n; ++u) {
    dart_global_unit_t g{-1};
    EXPECT_EQ(dart_team_unit_l2g(team, DART_TEAM_UNIT_ID(u), &g), DART_OK);
    v.global.push_back(g.id);
  }
  return v;
}

// Runs body on DART_TEAM_ALL, on teams of even / odd units in reverse order, and on the team of
// every unit but 0 (unit 0 sits that one out). Collective over DART_TEAM_ALL.
void ForEachTeam(const std::function<void(const TeamView&)>& body) {
  {
    SCOPED_TRACE("DART_TEAM_ALL");
    body(View(DART_TEAM_ALL, "DART_TEAM_ALL"));
  }
  dart_team_t parity = DART_TEAM_NULL, rest = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, Me() % 2, -Me(), &parity), DART_OK);
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, Me() == 0 ? -1 : 0, Me(), &rest), DART_OK);
  if (parity != DART_TEAM_NULL) {
    SCOPED_TRACE("parity team, reversed");
    body(View(parity, "parity team"));
  }
  if (rest != DART_TEAM_NULL) {
    SCOPED_TRACE("all units but 0");
    body(View(rest, "units 1.."));
  }
  if (parity != DART_TEAM_NULL) {
    EXPECT_EQ(dart_team_destroy(&parity), DART_OK);
  }
  if (rest != DART_TEAM_NULL) {
    EXPECT_EQ(dart_team_destroy(&rest), DART_OK);
  }
}

TEST(DartCollective, BarrierOrdersPutsOfConsecutiveRounds) {
  ForEachTeam([](const TeamView& t) {
    dart_gptr_t gptr = DART_GPTR_NULL;
    EXPECT_EQ(dart_team_memalloc_aligned(t.team, 1, DART_TYPE_INT, &gptr), DART_OK);
    dart_gptr_t right = gptr, mine = gptr;
    EXPECT_EQ(dart_gptr_setunit(&right, DART_TEAM_UNIT_ID((t.me + 1) % t.n)), DART_OK);
    EXPECT_EQ(dart_gptr_setunit(&mine, DART_TEAM_UNIT_ID(t.me)), DART_OK);
    const int left = t.global[(t.me + t.n - 1) % t.n];
    for (int round = 0; round < 5; ++round) {
      const int value = 100 * round + Me();
      EXPECT_EQ(dart_put_blocking(right, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
      EXPECT_EQ(dart_barrier(t.team), DART_OK);
      int got = -1;
      EXPECT_EQ(dart_get_blocking(&got, mine, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
      EXPECT_EQ(got, 100 * round + left) << "round " << round;
      EXPECT_EQ(dart_barrier(t.team), DART_OK);  // read before the next round's put
    }
    EXPECT_EQ(dart_team_memfree(gptr), DART_OK);
  });
}

TEST(DartCollective, BcastFromEveryRoot) {
  ForEachTeam([](const TeamView& t) {
    for (int root = 0; root < t.n; ++root) {
      std::vector<int> buf(5, -1);
      if (t.me == root) {
        for (int i = 0; i < 5; ++i) buf[i] = 1000 * t.global[root] + i;
      }
      EXPECT_EQ(dart_bcast(buf.data(), 5, DART_TYPE_INT, DART_TEAM_UNIT_ID(root), t.team), DART_OK);
      for (int i = 0; i < 5; ++i) EXPECT_EQ(buf[i], 1000 * t.global[root] + i) << "root " << root;
    }
  });
}

TEST(DartCollective, ScatterFromEveryRoot) {
  ForEachTeam([](const TeamView& t) {
    const int k = 3;
    for (int root = 0; root < t.n; ++root) {
      std::vector<double> send;
      if (t.me == root) {
        for (int j = 0; j < t.n * k; ++j) send.push_back(t.global[root] * 1000.0 + j + 0.5);
      }
      std::vector<double> recv(k, -1.0);
      EXPECT_EQ(dart_scatter(send.data(), recv.data(), k, DART_TYPE_DOUBLE, DART_TEAM_UNIT_ID(root),
                             t.team),
                DART_OK);
      for (int i = 0; i < k; ++i) {
        EXPECT_EQ(recv[i], t.global[root] * 1000.0 + t.me * k + i + 0.5) << "root " << root;
      }
    }
  });
}

TEST(DartCollective, GatherToEveryRootInTeamOrder) {
  ForEachTeam([](const TeamView& t) {
    for (int root = 0; root < t.n; ++root) {
      const long send[2] = {10L * Me(), 10L * Me() + 1};
      std::vector<long> recv(2 * t.n, -1);
      EXPECT_EQ(dart_gather(send, recv.data(), 2, DART_TYPE_LONG, DART_TEAM_UNIT_ID(root), t.team),
                DART_OK);
      if (t.me == root) {
        for (int u = 0; u < t.n; ++u) {
          EXPECT_EQ(recv[2 * u], 10L * t.global[u]) << "root " << root << " team unit " << u;
          EXPECT_EQ(recv[2 * u + 1], 10L * t.global[u] + 1) << "root " << root;
        }
      }
    }
  });
}

TEST(DartCollective, AllgatherInTeamOrder) {
  ForEachTeam([](const TeamView& t) {
    const short send[3] = {static_cast<short>(Me()), static_cast<short>(-Me()), 7};
    std::vector<short> recv(3 * t.n, -1);
    EXPECT_EQ(dart_allgather(send, recv.data(), 3, DART_TYPE_SHORT, t.team), DART_OK);
    for (int u = 0; u < t.n; ++u) {
      EXPECT_EQ(recv[3 * u], t.global[u]);
      EXPECT_EQ(recv[3 * u + 1], -t.global[u]);
      EXPECT_EQ(recv[3 * u + 2], 7);
    }
  });
}

// Allgatherv with count(u) elements from team unit u, stored in reverse unit order with one
// untouched element between the blocks.
void ExpectAllgathervWithCounts(const TeamView& t, const std::function<size_t(int)>& count) {
  std::vector<size_t> counts(t.n), displs(t.n);
  size_t at = 0;
  for (int u = t.n - 1; u >= 0; --u) {
    counts[u] = count(u);
    displs[u] = at;
    at += counts[u] + 1;
  }
  const int sentinel = -12345;
  std::vector<int> recv(at + 1, sentinel);
  std::vector<int> send;
  for (size_t i = 0; i < counts[t.me]; ++i) send.push_back(100 * Me() + static_cast<int>(i));
  send.push_back(sentinel);  // never sent; keeps data() valid for zero counts
  EXPECT_EQ(dart_allgatherv(send.data(), counts[t.me], DART_TYPE_INT, recv.data(), counts.data(),
                            displs.data(), t.team),
            DART_OK);
  for (int u = 0; u < t.n; ++u) {
    for (size_t i = 0; i < counts[u]; ++i) {
      EXPECT_EQ(recv[displs[u] + i], 100 * t.global[u] + static_cast<int>(i))
          << "team unit " << u << " element " << i;
    }
    EXPECT_EQ(recv[displs[u] + counts[u]], sentinel) << "gap after team unit " << u;
  }
}

TEST(DartCollective, AllgathervWithUnevenAndZeroCounts) {
  ForEachTeam([](const TeamView& t) {
    ExpectAllgathervWithCounts(t, [](int u) { return static_cast<size_t>(u + 1); });
    ExpectAllgathervWithCounts(t, [](int u) { return u % 2 == 1 ? size_t{0} : size_t(u + 2); });
    ExpectAllgathervWithCounts(t, [](int) { return size_t{0}; });
  });
}

// Alltoallv where team unit s sends (s + 2 * r) % 3 elements to team unit r (so some pairs send
// nothing), packed in reverse receiver order on the send side and with one untouched element
// between the blocks on the receive side.
TEST(DartCollective, AlltoallvWithUnevenAndZeroCounts) {
  ForEachTeam([](const TeamView& t) {
    auto count = [](int s, int r) { return static_cast<size_t>((s + 2 * r) % 3); };
    std::vector<size_t> scounts(t.n), sdispls(t.n), rcounts(t.n), rdispls(t.n);
    std::vector<int> send;
    for (int r = t.n - 1; r >= 0; --r) {
      scounts[r] = count(t.me, r);
      sdispls[r] = send.size();
      for (size_t i = 0; i < scounts[r]; ++i)
        send.push_back(1000 * Me() + 10 * t.global[r] + static_cast<int>(i));
    }
    send.push_back(0);  // keeps data() valid when nothing is sent
    const int sentinel = -777;
    size_t at = 0;
    for (int s = 0; s < t.n; ++s) {
      rcounts[s] = count(s, t.me);
      rdispls[s] = at;
      at += rcounts[s] + 1;
    }
    std::vector<int> recv(at + 1, sentinel);
    EXPECT_EQ(dart_alltoallv(send.data(), scounts.data(), sdispls.data(), DART_TYPE_INT,
                             recv.data(), rcounts.data(), rdispls.data(), t.team),
              DART_OK);
    for (int s = 0; s < t.n; ++s) {
      for (size_t i = 0; i < rcounts[s]; ++i)
        EXPECT_EQ(recv[rdispls[s] + i], 1000 * t.global[s] + 10 * Me() + static_cast<int>(i))
            << "from team unit " << s << " element " << i;
      EXPECT_EQ(recv[rdispls[s] + rcounts[s]], sentinel) << "gap after team unit " << s;
    }
    std::vector<size_t> huge(t.n, size_t{1} << 40);
    EXPECT_EQ(dart_alltoallv(send.data(), huge.data(), sdispls.data(), DART_TYPE_INT, recv.data(),
                             rcounts.data(), rdispls.data(), t.team),
              DART_ERR_INVAL);
    EXPECT_EQ(dart_alltoallv(send.data(), nullptr, sdispls.data(), DART_TYPE_INT, recv.data(),
                             rcounts.data(), rdispls.data(), t.team),
              DART_ERR_INVAL);
  });
}

// ---- reductions ------------------------------------------------------------------------------

constexpr int kElems = 6;

// Input of global unit g: a mix of positive, zero, negative and bit-pattern values.
template <typename T>
T Input(int g, int k);
template <>
int Input<int>(int g, int k) {
  switch (k) {
    case 0:
      return g + 1;
    case 1:
      return (g % 2) * 3;  // zero on even units
    case 2:
      return 0;
    case 3:
      return 6 - 2 * g;
    case 4:
      return 0x11 << g;
    default:
      return -(g + 1);
  }
}
template <>
double Input<double>(int g, int k) {  // dyadic values: every order of reduction is exact
  switch (k) {
    case 0:
      return g + 1.5;
    case 1:
      return (g % 2) * 0.25;
    case 2:
      return 0.0;
    case 3:
      return 6.0 - 2.5 * g;
    case 4:
      return 0.125 * (g + 1);
    default:
      return -(g + 1) * 0.5;
  }
}

template <typename T>
T Apply(dart_operation_t op, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case DART_OP_BAND:
        return a & b;
      case DART_OP_BOR:
        return a | b;
      case DART_OP_BXOR:
        return a ^ b;
      case DART_OP_LAND:
        return (a != 0) && (b != 0);
      case DART_OP_LOR:
        return (a != 0) || (b != 0);
      case DART_OP_LXOR:
        return (a != 0) != (b != 0);
      default:
        break;
    }
  }
  switch (op) {
    case DART_OP_MIN:
      return std::min(a, b);
    case DART_OP_MAX:
      return std::max(a, b);
    case DART_OP_SUM:
      return a + b;
    case DART_OP_PROD:
      return a * b;
    default:
      ADD_FAILURE() << "no reference for op " << op;
      return T{};
  }
}

template <typename T>
std::vector<T> Expected(const TeamView& t, dart_operation_t op) {
  std::vector<T> result(kElems);
  for (int k = 0; k < kElems; ++k) {
    result[k] = Input<T>(t.global[0], k);
    for (int u = 1; u < t.n; ++u) result[k] = Apply(op, result[k], Input<T>(t.global[u], k));
  }
  return result;
}

template <typename T>
void ExpectEveryReduction(const TeamView& t, dart_datatype_t type,
                          const std::vector<dart_operation_t>& ops) {
  std::vector<T> send(kElems);
  for (int k = 0; k < kElems; ++k) send[k] = Input<T>(Me(), k);
  for (size_t i = 0; i < ops.size(); ++i) {
    const dart_operation_t op = ops[i];
    const std::vector<T> expected = Expected<T>(t, op);
    std::vector<T> all(kElems, T(-99));
    EXPECT_EQ(dart_allreduce(send.data(), all.data(), kElems, type, op, t.team), DART_OK)
        << "op " << op;
    EXPECT_EQ(all, expected) << "allreduce op " << op;
    const int root = static_cast<int>(i) % t.n;
    std::vector<T> red(kElems, T(-99));
    EXPECT_EQ(
        dart_reduce(send.data(), red.data(), kElems, type, op, DART_TEAM_UNIT_ID(root), t.team),
        DART_OK)
        << "op " << op;
    if (t.me == root) {
      EXPECT_EQ(red, expected) << "reduce op " << op << " to root " << root;
    }
  }
}

TEST(DartCollective, ReduceAndAllreduceWithEveryOpOnInt) {
  ForEachTeam([](const TeamView& t) {
    ExpectEveryReduction<int>(t, DART_TYPE_INT,
                              {DART_OP_MIN, DART_OP_MAX, DART_OP_SUM, DART_OP_PROD, DART_OP_BAND,
                               DART_OP_BOR, DART_OP_BXOR, DART_OP_LAND, DART_OP_LOR, DART_OP_LXOR});
  });
}

TEST(DartCollective, ReduceAndAllreduceWithEveryArithmeticOpOnDouble) {
  ForEachTeam([](const TeamView& t) {
    ExpectEveryReduction<double>(t, DART_TYPE_DOUBLE,
                                 {DART_OP_MIN, DART_OP_MAX, DART_OP_SUM, DART_OP_PROD});
  });
}

// MIN and MAX of unsigned values on both sides of the signed range: unit u
// gives the largest value minus u (even u) or u + 1 (odd u). MPICH 4.0.2
// compares unsigned values as signed here; DART must not.
template <typename T>
void ExpectUnsignedMinMax(dart_datatype_t type) {
  auto value = [](int u) { return u % 2 == 0 ? T(~T(0) - T(u)) : T(u + 1); };
  T lo = value(0), hi = value(0);
  for (int u = 1; u < N(); ++u) lo = std::min(lo, value(u)), hi = std::max(hi, value(u));
  const T mine[2] = {value(Me()), value(Me())};
  T got[2] = {T(0), T(0)};
  EXPECT_EQ(dart_allreduce(mine, got, 1, type, DART_OP_MIN, DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(got[0], lo) << "allreduce MIN of type " << type;
  EXPECT_EQ(dart_allreduce(mine, got, 2, type, DART_OP_MAX, DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(got[1], hi) << "allreduce MAX of type " << type;
  got[0] = T(0);
  EXPECT_EQ(dart_reduce(mine, got, 1, type, DART_OP_MIN, DART_TEAM_UNIT_ID(0), DART_TEAM_ALL),
            DART_OK);
  if (Me() == 0) {
    EXPECT_EQ(got[0], lo) << "reduce MIN of type " << type;
  }
}

TEST(DartCollective, MinMaxOfUnsignedTypesAboveTheSignedRange) {
  ExpectUnsignedMinMax<unsigned>(DART_TYPE_UINT);
  ExpectUnsignedMinMax<unsigned long>(DART_TYPE_ULONG);
  ExpectUnsignedMinMax<unsigned long long>(DART_TYPE_ULONGLONG);
}

// DART_OP_MINMAX on two pairs of type T starting at `base`: pair 0 (base + me, base + me + n),
// pair 1 (base + 2n - me, base + me); allreduce on team t, and reduce to its last unit.
template <typename T>
void ExpectMinMaxPairs(dart_datatype_t type, T base, const TeamView& t) {
  const T me = static_cast<T>(t.me), n = static_cast<T>(t.n);
  const T mine[4] = {T(base + me), T(base + me + n), T(base + 2 * n - me), T(base + me)};
  const T want[4] = {base, T(base + 2 * n - 1), T(base + n + 1), T(base + n - 1)};
  T got[4] = {T(0), T(0), T(0), T(0)};
  EXPECT_EQ(dart_allreduce(mine, got, 4, type, DART_OP_MINMAX, t.team), DART_OK) << "type " << type;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], want[i]) << "type " << type << " element " << i;
  T at_root[4] = {T(0), T(0), T(0), T(0)};
  const dart_team_unit_t root{t.n - 1};
  EXPECT_EQ(dart_reduce(mine, at_root, 4, type, DART_OP_MINMAX, root, t.team), DART_OK);
  if (t.me == t.n - 1) {
    for (int i = 0; i < 4; ++i) EXPECT_EQ(at_root[i], want[i]) << "reduce, type " << type;
  }
}

// DASH's min/max pair reduction: element DART_OP_MINMAX_MIN of each pair the minimum,
// DART_OP_MINMAX_MAX the maximum, for every integer and floating type (unsigned ones above
// their signed range), on sub-teams; an odd count, a byte type and atomics are refused.
TEST(DartCollective, MinMaxPairsOfEveryArithmeticBasicType) {
  EXPECT_EQ(0, DART_OP_MINMAX_MIN);
  EXPECT_EQ(1, DART_OP_MINMAX_MAX);
  ForEachTeam([](const TeamView& t) {
    ExpectMinMaxPairs<signed char>(DART_TYPE_CHAR, -20, t);
    ExpectMinMaxPairs<short>(DART_TYPE_SHORT, -300, t);
    ExpectMinMaxPairs<int>(DART_TYPE_INT, -7, t);
    ExpectMinMaxPairs<unsigned>(DART_TYPE_UINT, ~0u - 20, t);
    ExpectMinMaxPairs<long>(DART_TYPE_LONG, -(1L << 40), t);
    ExpectMinMaxPairs<unsigned long>(DART_TYPE_ULONG, ~0ul - 20, t);
    ExpectMinMaxPairs<long long>(DART_TYPE_LONGLONG, 5, t);
    ExpectMinMaxPairs<unsigned long long>(DART_TYPE_ULONGLONG, ~0ull - 20, t);
    ExpectMinMaxPairs<float>(DART_TYPE_FLOAT, -2.5f, t);
    ExpectMinMaxPairs<double>(DART_TYPE_DOUBLE, 1e10, t);
    ExpectMinMaxPairs<long double>(DART_TYPE_LONG_DOUBLE, -3.25L, t);
  });
  int three[3] = {1, 2, 3}, out[4] = {0, 0, 0, 0};
  EXPECT_EQ(dart_allreduce(three, out, 3, DART_TYPE_INT, DART_OP_MINMAX, DART_TEAM_ALL),
            DART_ERR_INVAL);
  unsigned char bytes[2] = {1, 2}, bytes_out[2] = {0, 0};
  EXPECT_EQ(dart_allreduce(bytes, bytes_out, 2, DART_TYPE_BYTE, DART_OP_MINMAX, DART_TEAM_ALL),
            DART_ERR_INVAL);
  EXPECT_EQ(out[0], 0);
  dart_gptr_t word = DART_GPTR_NULL;
  ASSERT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, 2, DART_TYPE_INT, &word), DART_OK);
  const int pair[2] = {1, 2};
  int fetched[2] = {-7, -7};
  EXPECT_EQ(dart_accumulate(word, pair, 2, DART_TYPE_INT, DART_OP_MINMAX), DART_ERR_INVAL);
  EXPECT_EQ(dart_fetch_and_op(word, pair, fetched, DART_TYPE_INT, DART_OP_MINMAX), DART_ERR_INVAL);
  EXPECT_EQ(fetched[0], -7);
  EXPECT_EQ(dart_team_memfree(word), DART_OK);
}

template <typename T>
void ExpectSumOf(dart_datatype_t type) {
  T send[2] = {static_cast<T>(Me() + 1), static_cast<T>(2)};
  T recv[2] = {T(0), T(0)};
  EXPECT_EQ(dart_allreduce(send, recv, 2, type, DART_OP_SUM, DART_TEAM_ALL), DART_OK)
      << "type " << type;
  EXPECT_EQ(recv[0], static_cast<T>(N() * (N() + 1) / 2)) << "type " << type;
  EXPECT_EQ(recv[1], static_cast<T>(2 * N())) << "type " << type;
}

TEST(DartCollective, AllreduceSumsEveryArithmeticBasicType) {
  ExpectSumOf<signed char>(DART_TYPE_CHAR);
  ExpectSumOf<short>(DART_TYPE_SHORT);
  ExpectSumOf<int>(DART_TYPE_INT);
  ExpectSumOf<unsigned>(DART_TYPE_UINT);
  ExpectSumOf<long>(DART_TYPE_LONG);
  ExpectSumOf<unsigned long>(DART_TYPE_ULONG);
  ExpectSumOf<long long>(DART_TYPE_LONGLONG);
  ExpectSumOf<unsigned long long>(DART_TYPE_ULONGLONG);
  ExpectSumOf<float>(DART_TYPE_FLOAT);
  ExpectSumOf<double>(DART_TYPE_DOUBLE);
  ExpectSumOf<long double>(DART_TYPE_LONG_DOUBLE);
  // Bytes allow the bitwise operations.
  unsigned char bits = static_cast<unsigned char>(1u << (Me() % 8)), all = 0;
  EXPECT_EQ(dart_allreduce(&bits, &all, 1, DART_TYPE_BYTE, DART_OP_BOR, DART_TEAM_ALL), DART_OK);
  unsigned char expected = 0;
  for (int u = 0; u < N(); ++u) expected |= static_cast<unsigned char>(1u << (u % 8));
  EXPECT_EQ(all, expected);
}

TEST(DartCollective, AlltoallDeliversBlockJToTeamUnitJ) {
  ForEachTeam([](const TeamView& t) {
    const int k = 2;
    std::vector<int> send(k * t.n), recv(k * t.n, -1);
    for (int j = 0; j < t.n; ++j) {
      for (int i = 0; i < k; ++i) send[j * k + i] = 1000 * Me() + 10 * j + i;
    }
    EXPECT_EQ(dart_alltoall(send.data(), recv.data(), k, DART_TYPE_INT, t.team), DART_OK);
    for (int u = 0; u < t.n; ++u) {
      for (int i = 0; i < k; ++i) {
        EXPECT_EQ(recv[u * k + i], 1000 * t.global[u] + 10 * t.me + i) << "from team unit " << u;
      }
    }
  });
}

// ---- non-blocking ----------------------------------------------------------------------------

TEST(DartCollective, IbarrierCompletesOnlyAfterEveryUnitArrived) {
  // Unit 0 enters the ibarrier first and tests it; the others enter only after unit 0 released
  // them through a bcast on a separate team, so unit 0's first test cannot have completed.
  dart_team_t signal = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_clone(DART_TEAM_ALL, &signal), DART_OK);
  dart_runtime_stats_t before{}, during{};
  EXPECT_EQ(dart_runtime_stats(&before), DART_OK);
  dart_handle_t handle = DART_HANDLE_NULL;
  int go = 0;
  if (Me() == 0) {
    EXPECT_EQ(dart_ibarrier(DART_TEAM_ALL, &handle), DART_OK);
    EXPECT_NE(handle, DART_HANDLE_NULL);
    EXPECT_EQ(dart_runtime_stats(&during), DART_OK);
    EXPECT_EQ(during.handles, before.handles + 1);
    int32_t done = -1;
    EXPECT_EQ(dart_test(&handle, &done), DART_OK);
    if (N() > 1) {
      EXPECT_EQ(done, 0) << "ibarrier completed before the other units entered it";
      EXPECT_NE(handle, DART_HANDLE_NULL);
    }
    if (done == 1) {
      EXPECT_EQ(handle, DART_HANDLE_NULL);
    }
    go = 1;
    EXPECT_EQ(dart_bcast(&go, 1, DART_TYPE_INT, DART_TEAM_UNIT_ID(0), signal), DART_OK);
  } else {
    EXPECT_EQ(dart_bcast(&go, 1, DART_TYPE_INT, DART_TEAM_UNIT_ID(0), signal), DART_OK);
    EXPECT_EQ(go, 1);
    EXPECT_EQ(dart_ibarrier(DART_TEAM_ALL, &handle), DART_OK);
    // Poll a bounded number of times, then wait (never spin forever).
    int32_t done = 0;
    for (int i = 0; i < 100 && done == 0; ++i) EXPECT_EQ(dart_test(&handle, &done), DART_OK);
    if (done == 1) {
      EXPECT_EQ(handle, DART_HANDLE_NULL);
    }
  }
  EXPECT_EQ(dart_wait(&handle), DART_OK);  // DART_OK on DART_HANDLE_NULL too
  EXPECT_EQ(handle, DART_HANDLE_NULL);
  dart_runtime_stats_t after{};
  EXPECT_EQ(dart_runtime_stats(&after), DART_OK);
  EXPECT_EQ(after.handles, before.handles);
  EXPECT_EQ(dart_team_destroy(&signal), DART_OK);
}

TEST(DartCollective, IallreduceResultsArriveWhenWaitedInAnyOrder) {
  ForEachTeam([](const TeamView& t) {
    const int sendsum[3] = {Me(), 1, -Me()};
    const double sendmax = 0.5 * Me();
    int sum[3] = {-1, -1, -1};
    double max = -1.0;
    dart_handle_t h_sum = DART_HANDLE_NULL, h_max = DART_HANDLE_NULL;
    EXPECT_EQ(dart_iallreduce(sendsum, sum, 3, DART_TYPE_INT, DART_OP_SUM, t.team, &h_sum),
              DART_OK);
    EXPECT_EQ(dart_iallreduce(&sendmax, &max, 1, DART_TYPE_DOUBLE, DART_OP_MAX, t.team, &h_max),
              DART_OK);
    int32_t done = 0;
    for (int i = 0; i < 50 && done == 0; ++i) EXPECT_EQ(dart_test(&h_max, &done), DART_OK);
    EXPECT_EQ(dart_wait(&h_max), DART_OK);  // the second one first
    EXPECT_EQ(dart_wait(&h_sum), DART_OK);
    EXPECT_EQ(h_max, DART_HANDLE_NULL);
    EXPECT_EQ(h_sum, DART_HANDLE_NULL);
    int total = 0, top = 0;
    for (int g : t.global) {
      total += g;
      top = std::max(top, g);
    }
    EXPECT_EQ(sum[0], total);
    EXPECT_EQ(sum[1], t.n);
    EXPECT_EQ(sum[2], -total);
    EXPECT_EQ(max, 0.5 * top);
    // dart_testall drives a set of them.
    dart_handle_t hs[2] = {DART_HANDLE_NULL, DART_HANDLE_NULL};
    int a = 0, b = 0;
    const int one = 1;
    EXPECT_EQ(dart_iallreduce(&one, &a, 1, DART_TYPE_INT, DART_OP_SUM, t.team, &hs[0]), DART_OK);
    EXPECT_EQ(dart_iallreduce(&one, &b, 1, DART_TYPE_INT, DART_OP_PROD, t.team, &hs[1]), DART_OK);
    int32_t all_done = 0;
    for (int i = 0; i < 50 && all_done == 0; ++i) {
      EXPECT_EQ(dart_testall(hs, 2, &all_done), DART_OK);
    }
    EXPECT_EQ(dart_waitall(hs, 2), DART_OK);
    EXPECT_EQ(hs[0], DART_HANDLE_NULL);
    EXPECT_EQ(hs[1], DART_HANDLE_NULL);
    EXPECT_EQ(a, t.n);
    EXPECT_EQ(b, 1);
  });
}

// ---- zero elements ---------------------------------------------------------------------------

TEST(DartCollective, ZeroElementCollectivesSucceedAndTouchNothing) {
  ForEachTeam([](const TeamView& t) {
    const int kSentinel = 0x5A5A5A5A;
    std::vector<int> send(2 * t.n + 2, 7), recv(2 * t.n + 2, kSentinel);
    const dart_team_unit_t root = DART_TEAM_UNIT_ID(t.n - 1);
    EXPECT_EQ(dart_bcast(recv.data(), 0, DART_TYPE_INT, root, t.team), DART_OK);
    EXPECT_EQ(dart_bcast(nullptr, 0, DART_TYPE_INT, root, t.team), DART_OK);
    EXPECT_EQ(dart_scatter(send.data(), recv.data(), 0, DART_TYPE_INT, root, t.team), DART_OK);
    EXPECT_EQ(dart_gather(send.data(), recv.data(), 0, DART_TYPE_INT, root, t.team), DART_OK);
    EXPECT_EQ(dart_allgather(send.data(), recv.data(), 0, DART_TYPE_INT, t.team), DART_OK);
    EXPECT_EQ(dart_alltoall(send.data(), recv.data(), 0, DART_TYPE_INT, t.team), DART_OK);
    EXPECT_EQ(dart_reduce(send.data(), recv.data(), 0, DART_TYPE_INT, DART_OP_SUM, root, t.team),
              DART_OK);
    EXPECT_EQ(dart_allreduce(send.data(), recv.data(), 0, DART_TYPE_INT, DART_OP_MAX, t.team),
              DART_OK);
    std::vector<size_t> zeros(t.n, 0);
    EXPECT_EQ(dart_allgatherv(send.data(), 0, DART_TYPE_INT, recv.data(), zeros.data(),
                              zeros.data(), t.team),
              DART_OK);
    dart_handle_t handle = DART_HANDLE_NULL;
    EXPECT_EQ(
        dart_iallreduce(send.data(), recv.data(), 0, DART_TYPE_INT, DART_OP_SUM, t.team, &handle),
        DART_OK);
    EXPECT_EQ(dart_wait(&handle), DART_OK);
    for (size_t i = 0; i < recv.size(); ++i) EXPECT_EQ(recv[i], kSentinel) << "element " << i;
  });
}

}  // namespace
