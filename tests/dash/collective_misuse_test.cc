// Collective containers under misuse and failure: arguments that differ between units (size,
// extents, distribution) throw dash::exception::InvalidArgument on every unit; an allocation no
// node can back throws OutOfMemory on every unit; a container whose scope is left by an
// exception thrown on every unit does not start a collective while unwinding (its memory is
// released by dash::finalize), so the program catches, allocates again and carries on.
#include <dart/dart.h>
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/algorithm/Accumulate.h>
#include <dash/algorithm/Copy.h>
#include <dash/algorithm/Fill.h>
#include <dash/algorithm/ForEach.h>
#include <dash/algorithm/Sort.h>
#include <dash/algorithm/Transform.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

// Every unit's flag (1/0). Collective.
std::vector<int> AllFlags(bool flag) {
  int mine = flag ? 1 : 0;
  std::vector<int> all(N(), -1);
  EXPECT_EQ(dart_allgather(&mine, all.data(), 1, DART_TYPE_INT, DART_TEAM_ALL), DART_OK);
  return all;
}

void ExpectOnEveryUnit(bool flag, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_TRUE(flag);
  std::vector<int> all = AllFlags(flag);
  for (int u = 0; u < N(); ++u) EXPECT_EQ(all[u], 1) << "unit " << u;
}

long LiveSegments() {
  dart_runtime_stats_t stats{};
  EXPECT_EQ(dart_runtime_stats(&stats), DART_OK);
  return stats.segments;
}

// A block-distributed array of n longs, every element i set to i * factor and read back from
// every unit.
void ExpectArrayWorks(long n, long factor) {
  dash::Array<long> a(static_cast<std::size_t>(n));
  for (long* p = a.lbegin(); p != a.lend(); ++p) *p = -1;
  a.barrier();
  for (long i = Me(); i < n; i += N()) a[i] = i * factor;
  a.barrier();
  for (long i = 0; i < n; ++i) EXPECT_EQ(static_cast<long>(a[i]), i * factor) << "element " << i;
  a.barrier();
}

TEST(CollectiveMisuse, ArraySizeThatDiffersBetweenUnitsThrowsOnEveryUnit) {
  if (N() < 2) GTEST_SKIP() << "needs two units";
  // 10 on unit 0, 20 on the others; and sizes whose local capacities agree (4 units: 13 and 16
  // both give 4 per unit) so that only the extents tell them apart.
  for (std::size_t other : {std::size_t{20}, static_cast<std::size_t>(4 * N())}) {
    const std::size_t mine = Me() == 0 ? (other == 20 ? 10 : 4 * N() - 3) : other;
    bool threw = false;
    try {
      dash::Array<int> a(mine);
    } catch (const dash::exception::InvalidArgument& e) {
      threw = std::string(e.what()).find("dash::Array") != std::string::npos &&
              std::string(e.what()).find("different sizes") != std::string::npos;
      EXPECT_TRUE(threw) << e.what();
    }
    ExpectOnEveryUnit(threw, "size " + std::to_string(mine));
  }
  // Same size, different distribution.
  bool threw = false;
  try {
    dash::Array<int> a(8 * N(), Me() == 0 ? dash::BLOCKED : dash::CYCLIC);
  } catch (const dash::exception::InvalidArgument&) {
    threw = true;
  }
  ExpectOnEveryUnit(threw, "BLOCKED on unit 0, CYCLIC elsewhere");
  ExpectArrayWorks(3 * N() + 1, 3);
}

TEST(CollectiveMisuse, MatrixExtentsOrDistributionThatDifferThrowOnEveryUnit) {
  if (N() < 2) GTEST_SKIP() << "needs two units";
  bool threw = false;
  try {
    dash::NArray<int, 2> m(dash::SizeSpec<2>(4 * N(), Me() == 0 ? 6 : 7));
  } catch (const dash::exception::InvalidArgument& e) {
    threw = std::string(e.what()).find("dash::Matrix") != std::string::npos;
    EXPECT_TRUE(threw) << e.what();
  }
  ExpectOnEveryUnit(threw, "6 columns on unit 0, 7 elsewhere");
  threw = false;
  try {
    dash::NArray<int, 2> m(
        dash::SizeSpec<2>(4 * N(), 8),
        dash::DistributionSpec<2>(Me() == 0 ? dash::BLOCKED : dash::CYCLIC, dash::NONE));
  } catch (const dash::exception::InvalidArgument&) {
    threw = true;
  }
  ExpectOnEveryUnit(threw, "rows BLOCKED on unit 0, CYCLIC elsewhere");
  ExpectArrayWorks(2 * N(), 5);
}

TEST(CollectiveMisuse, ArrayLargerThanTheNodeThrowsOutOfMemoryOnEveryUnit) {
  bool threw = false;
  try {
    dash::Array<char> a(std::size_t{1} << 60);
  } catch (const dash::exception::OutOfMemory&) {
    threw = true;
  }
  ExpectOnEveryUnit(threw, "2^60 bytes");
  ExpectArrayWorks(N() + 3, 2);
}

TEST(CatchAndCarryOn, EveryUnitThrowsInAScopeHoldingAnArrayThenAllocatesAgain) {
  const long before = LiveSegments();
  bool caught = false;
  try {
    dash::Array<long> doomed(4 * N());
    doomed.local[0] = 1;
    throw std::runtime_error("every unit fails here");
  } catch (const std::runtime_error&) {
    caught = true;
  }
  ExpectOnEveryUnit(caught, "caught");
  // The unwinding started no collective: the memory is still there, released at finalize.
  EXPECT_EQ(LiveSegments(), before + 1);
  ExpectArrayWorks(5 * N() + 2, 7);
  EXPECT_EQ(LiveSegments(), before + 1);
  // An array destroyed normally inside a catch block is still freed at once.
  try {
    throw std::runtime_error("again");
  } catch (const std::runtime_error&) {
    dash::Array<int> inside(N());
    inside.local[0] = 3;
    inside.barrier();
  }
  EXPECT_EQ(LiveSegments(), before + 1);
}

// ---- stale handles ---------------------------------------------------------------------------

// True if f throws dash::exception::InvalidArgument whose message names `call`.
template <class F>
bool ThrowsNaming(F&& f, const std::string& call) {
  try {
    f();
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(call), std::string::npos) << e.what();
    return std::string(e.what()).find(call) != std::string::npos;
  }
  return false;
}

TEST(StaleHandle, ReferencesAndIteratorsOfAFreedArrayThrow) {
  const long n = 3 * N();
  for (bool deallocate : {true, false}) {
    SCOPED_TRACE(deallocate ? "deallocate()" : "destructor");
    auto a = std::make_unique<dash::Array<long>>(n);
    for (long* p = a->lbegin(); p != a->lend(); ++p) *p = 1;
    a->barrier();
    // A reference to an own element (load/store), to every unit's first element, iterators.
    dash::GlobRef<long> own = (*a)[a->pattern().global_index(dash::team_unit_t(Me()), 0)];
    std::vector<dash::GlobRef<long>> firsts;
    for (int u = 0; u < N(); ++u)
      firsts.push_back((*a)[a->pattern().global_index(dash::team_unit_t(u), 0)]);
    auto it = a->begin() + 1;
    dash::GlobRef<const long> cown = own;
    EXPECT_EQ(static_cast<long>(own), 1);
    a->barrier();
    if (deallocate) {
      a->deallocate();
      EXPECT_EQ(a->size(), 0u);
    } else {
      a.reset();
    }
    EXPECT_TRUE(ThrowsNaming([&] { own = 5; }, "dash::GlobRef::put"));
    EXPECT_TRUE(ThrowsNaming([&] { (void)static_cast<long>(cown); }, "dash::GlobRef::get"));
    for (int u = 0; u < N(); ++u) {
      // Same-node elements throw here; others are rejected by the runtime (stale pointer).
      EXPECT_THROW((void)firsts[u].get(), dash::exception::InvalidArgument) << "unit " << u;
    }
    EXPECT_TRUE(ThrowsNaming([&] { (void)*it; }, "dash::GlobIter::operator*"));
    EXPECT_TRUE(ThrowsNaming([&] { (void)it.local(); }, "dash::GlobIter::local"));
    if (a) {
      auto end = a->end();  // a deallocated array's iterators: no element to reach
      EXPECT_TRUE(ThrowsNaming([&] { (void)*a->begin(); }, "dash::GlobIter::operator*"));
      EXPECT_EQ(a->begin(), end);
    }
  }
  ExpectArrayWorks(n, 4);
}

TEST(StaleHandle, ViewsOfAFreedMatrixThrow) {
  auto m = std::make_unique<dash::NArray<int, 2>>(2 * N(), 3);
  auto view = m->view();
  auto it = view.begin();
  for (int* p = m->lbegin(); p != m->lend(); ++p) *p = 2;
  m->barrier();
  EXPECT_EQ(static_cast<int>(*it), 2);
  m->barrier();
  m.reset();
  EXPECT_TRUE(ThrowsNaming([&] { (void)*it; }, "dash::GlobViewIter::operator*"));
  EXPECT_TRUE(ThrowsNaming([&] { (void)view(0, 0); }, "dash::GlobView::at_coords"));
  EXPECT_TRUE(ThrowsNaming([&] { (void)*view.begin(); }, "dash::GlobViewIter::operator*"));
}

// Ranges of a freed array given to the algorithms: each call checks its range once (the memory's
// stamp), on every unit, and throws instead of touching freed memory.
TEST(StaleHandle, AlgorithmsOnRangesOfAFreedArrayThrow) {
  const long n = 5 * N() + 3;
  for (bool deallocate : {true, false}) {
    SCOPED_TRACE(deallocate ? "deallocate()" : "destructor");
    auto a = std::make_unique<dash::Array<long>>(n);
    auto b = std::make_unique<dash::Array<long>>(n);
    dash::fill(a->begin(), a->end(), 3L);
    auto first = a->begin(), last = a->end();
    if (deallocate)
      a->deallocate();
    else
      a.reset();
    std::vector<long> out(std::size_t(n), 0);
    EXPECT_THROW(dash::fill(first, last, 1L), dash::exception::InvalidArgument);
    EXPECT_THROW(dash::for_each(first, last, [](long& x) { x = 2; }),
                 dash::exception::InvalidArgument);
    EXPECT_THROW((void)dash::accumulate(first, last, 0L), dash::exception::InvalidArgument);
    EXPECT_THROW(dash::sort(first, last), dash::exception::InvalidArgument);
    EXPECT_THROW(dash::transform(first, last, b->begin(), [](long x) { return x + 1; }),
                 dash::exception::InvalidArgument);
    EXPECT_THROW(dash::copy(first, last, out.data()), dash::exception::InvalidArgument);
    EXPECT_EQ(out, std::vector<long>(std::size_t(n), 0));
    dash::fill(b->begin(), b->end(), 4L);  // the other array is untouched and works
    EXPECT_EQ(dash::accumulate(b->begin(), b->end(), 0L), 4L * n);
  }
}

// m[i][j] through a proxy of a matrix kept past deallocate() or the destructor throws.
TEST(StaleHandle, SubscriptProxiesOfAFreedMatrixThrow) {
  for (bool deallocate : {true, false}) {
    SCOPED_TRACE(deallocate ? "deallocate()" : "destructor");
    auto m = std::make_unique<dash::Matrix<int, 2>>(2 * N(), 3);
    for (int* p = m->lbegin(); p != m->lend(); ++p) *p = 7;
    m->barrier();
    auto row = (*m)[0];
    EXPECT_EQ(static_cast<int>(row[1]), 7);
    m->barrier();
    if (deallocate)
      m->deallocate();
    else
      m.reset();
    EXPECT_TRUE(ThrowsNaming([&] { (void)static_cast<int>(row[1]); }, "dash::Matrix::operator[]"));
    EXPECT_TRUE(ThrowsNaming([&] { (void)row.begin(); }, "dash::Matrix::operator[]"));
  }
}

TEST(StaleHandle, FreeSubteamsKeepsATeamAliveWhileAnArrayUsesIt) {
  dash::Team& all = dash::Team::All();
  dash::Team& half = all.split(2);
  const dart_team_t id = half.dart_id();
  const long before = LiveSegments();
  {
    dash::Array<long> a(2 * half.size(), half);
    all.free_subteams();  // a still uses `half`: it stays
    EXPECT_EQ(a.team().dart_id(), id);
    EXPECT_EQ(a.team().size(), half.size());
    for (long* p = a.lbegin(); p != a.lend(); ++p) *p = 7 + half.myid().id;
    a.barrier();  // on the kept team
    for (long i = 0; i < static_cast<long>(a.size()); ++i)
      EXPECT_EQ(static_cast<long>(a[i]), 7 + i / 2) << "element " << i;
    a.barrier();
  }  // the last container on `half` goes: the team is destroyed with it
  EXPECT_EQ(LiveSegments(), before);
  size_t size = 0;
  EXPECT_EQ(dart_team_size(id, &size), DART_ERR_INVAL);
  all.free_subteams();  // drops the emptied Team object; nothing collective left
  ExpectArrayWorks(N() + 1, 6);
}

}  // namespace
