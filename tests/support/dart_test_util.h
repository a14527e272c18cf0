// DART helpers shared by the test suites: the DART type id of a C++ type,
// TeamArray, team memory that frees itself, TeamUnits, a team's members, and
// ExpectedNode, a unit's node on one host.
#ifndef DASH_TESTS_SUPPORT_DART_TEST_UTIL_H_
#define DASH_TESTS_SUPPORT_DART_TEST_UTIL_H_

#include <dart/dart.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace dash_test {

// The (emulated) node of global unit u when every unit runs on one host: DART_VIRTUAL_NODE_SIZE
// consecutive MPI ranks form a node (unit ids may be remapped, ranks are not); 0 without it.
inline int ExpectedNode(int u) {
  const char* v = std::getenv("DART_VIRTUAL_NODE_SIZE");
  const int k = v ? std::atoi(v) : 0;
  int rank = -1;
  EXPECT_EQ(dart_unit_mpi_rank(dart_global_unit_t{u}, &rank), DART_OK);
  return k > 0 ? rank / k : 0;
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
