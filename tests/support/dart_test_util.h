// DART helpers shared by the test suites: the DART type id of a C++ type,
// TeamArray, team memory that frees itself, TeamUnits, a team's members, and
// ExpectedNode, a unit's node (from the host names MPI reports and DART_VIRTUAL_NODE_SIZE).
#ifndef DASH_TESTS_SUPPORT_DART_TEST_UTIL_H_
#define DASH_TESTS_SUPPORT_DART_TEST_UTIL_H_

#include <dart/dart.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace dash_test {

// Host index of every MPI rank (of MPI_COMM_WORLD), from the host names MPI reports, not from
// DART: ranks with the same name share a host; hosts are numbered in the order of their lowest
// rank (as DART numbers real nodes). Collective on its first call, which the test main makes
// right after dart_init on every unit; local after that.
inline const std::vector<int>& RankHosts() {
  static const std::vector<int> hosts = [] {
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    std::vector<char> all(static_cast<size_t>(size) * MPI_MAX_PROCESSOR_NAME);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME,
                  MPI_CHAR, MPI_COMM_WORLD);
    std::vector<std::string> seen;
    std::vector<int> host(static_cast<size_t>(size));
    for (int r = 0; r < size; ++r) {
      std::string h(&all[static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME]);
      auto at = std::find(seen.begin(), seen.end(), h);
      host[static_cast<size_t>(r)] = static_cast<int>(at - seen.begin());
      if (at == seen.end()) seen.push_back(h);
    }
    return host;
  }();
  return hosts;
}

// MPI rank of global unit u (unit ids may be remapped, ranks are not).
inline int RankOf(int u) {
  int rank = -1;
  EXPECT_EQ(dart_unit_mpi_rank(dart_global_unit_t{u}, &rank), DART_OK);
  return rank;
}

// The real node (host) of global unit u.
inline int ExpectedRealNode(int u) { return RankHosts().at(static_cast<size_t>(RankOf(u))); }

// The (emulated) node of global unit u: its host, further cut into groups of
// DART_VIRTUAL_NODE_SIZE consecutive MPI ranks; nodes numbered by (host, group).
inline int ExpectedNode(int u) {
  const char* v = std::getenv("DART_VIRTUAL_NODE_SIZE");
  const int k = v ? std::atoi(v) : 0;
  const std::vector<int>& hosts = RankHosts();
  const int64_t n = static_cast<int64_t>(hosts.size());
  auto key = [&](int rank) {
    return hosts[static_cast<size_t>(rank)] * n + (k > 0 ? rank / k : 0);
  };
  std::vector<int64_t> keys;
  for (int r = 0; r < static_cast<int>(n); ++r) keys.push_back(key(r));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return static_cast<int>(std::lower_bound(keys.begin(), keys.end(), key(RankOf(u))) -
                          keys.begin());
}

// Global ids of a team's units in team order, through dart_team_unit_l2g.
inline std::vector<int> TeamUnits(dart_team_t team) {
  size_t size = 0;
  EXPECT_EQ(dart_team_size(team, &size), DART_OK);
  std::vector<int> ids;
  for (size_t i = 0; i < size; ++i) {
    dart_global_unit_t g{-1};
    EXPECT_EQ(dart_team_unit_l2g(team, DART_TEAM_UNIT_ID(static_cast<int>(i)), &g), DART_OK);
    ids.push_back(g.id);
  }
  return ids;
}

// DART type id of a C++ element type.
template <class T>
struct DartTypeOf;
#define DASH_TEST_DART_TYPE_OF(T, id)            \
  template <>                                    \
  struct DartTypeOf<T> {                         \
    static constexpr dart_datatype_t value = id; \
  }
DASH_TEST_DART_TYPE_OF(char, DART_TYPE_CHAR);
DASH_TEST_DART_TYPE_OF(short, DART_TYPE_SHORT);
DASH_TEST_DART_TYPE_OF(int, DART_TYPE_INT);
DASH_TEST_DART_TYPE_OF(unsigned, DART_TYPE_UINT);
DASH_TEST_DART_TYPE_OF(long, DART_TYPE_LONG);
DASH_TEST_DART_TYPE_OF(long long, DART_TYPE_LONGLONG);
DASH_TEST_DART_TYPE_OF(unsigned long long, DART_TYPE_ULONGLONG);
DASH_TEST_DART_TYPE_OF(float, DART_TYPE_FLOAT);
DASH_TEST_DART_TYPE_OF(double, DART_TYPE_DOUBLE);
DASH_TEST_DART_TYPE_OF(long double, DART_TYPE_LONG_DOUBLE);
#undef DASH_TEST_DART_TYPE_OF

template <class T>
dart_datatype_t DartType() {
  return DartTypeOf<T>::value;
}

// Team memory of nelem elements of T on every unit of a team; freed (collectively) at scope
// exit.
template <class T>
class TeamArray {
 public:
  explicit TeamArray(size_t nelem, dart_team_t team = DART_TEAM_ALL) : nelem_(nelem) {
    EXPECT_EQ(DART_OK, dart_team_memalloc_aligned(team, nelem, DartType<T>(), &gptr_));
    dart_team_unit_t me;
    EXPECT_EQ(DART_OK, dart_team_myid(team, &me));
    myid_ = me.id;
    void* addr = nullptr;
    EXPECT_EQ(DART_OK, dart_gptr_getaddr(At(myid_), &addr));
    local_ = static_cast<T*>(addr);
    EXPECT_TRUE(local_ != nullptr || nelem == 0);
  }
  ~TeamArray() { EXPECT_EQ(DART_OK, dart_team_memfree(gptr_)); }
  TeamArray(const TeamArray&) = delete;
  TeamArray& operator=(const TeamArray&) = delete;

  // Global pointer to element `elem` of team unit `unit`'s part.
  dart_gptr_t At(int unit, size_t elem = 0) const {
    dart_gptr_t p = gptr_;
    EXPECT_EQ(DART_OK, dart_gptr_setunit(&p, DART_TEAM_UNIT_ID(unit)));
    EXPECT_EQ(DART_OK, dart_gptr_incaddr(&p, static_cast<int64_t>(elem * sizeof(T))));
    return p;
  }
  // The calling unit's part (nelem elements).
  T* Local() const { return local_; }
  void Fill(T value) { std::fill(local_, local_ + nelem_, value); }

 private:
  dart_gptr_t gptr_ = DART_GPTR_NULL;
  size_t nelem_;
  int myid_ = 0;
  T* local_ = nullptr;
};

}  // namespace dash_test

#endif  // DASH_TESTS_SUPPORT_DART_TEST_UTIL_H_
