// DASH's memory spaces and the memory of containers: HostSpace and HBWSpace as std::pmr memory
// resources (alignment, equality, the process-wide defaults, traits), dash::Array over HBWSpace
// (ordinary memory where there is no HBM; the hbm variant of this suite makes memkind take NUMA
// node 0 as HBM, so the registered path runs) and over a memory space of the test's own (every
// unit's part comes from it, is given back at destruction, and is reached from every unit),
// SimpleMemoryPoolResource (blocks reused, chunks from the upstream space, release, reserve,
// copies and moves), EpochSynchronizedAllocator (local memory attached by the team and reached
// from every unit, detach, traits and rebind, what its destructor frees), GlobStaticMem<Space>
// with GlobalAllocator and allocate_unique (pointers that walk all units' parts, capacity, the
// registry, moves, what a destroyed resource frees), GlobHeapMem (parts grown and shrunk by each
// unit alone, seen by the others after commit, given-up buckets readable until then, local
// ranges over several buckets, global positions across units), dash::List over it (local pushes,
// links, sizes and capacities before and after the barrier), and bad input: a bad
// alignment, a memory space that fails on one unit, foreign pointers and lengths, sizes or null
// pointers that differ between units.
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/List.h>
#include <dash/algorithm/Fill.h>
#include <dash/allocator/EpochSynchronizedAllocator.h>
#include <dash/allocator/GlobalAllocator.h>
#include <dash/memory/GlobHeapMem.h>
#include <dash/memory/HBWSpace.h>
#include <dash/memory/HostSpace.h>
#include <dash/memory/MemorySpace.h>
#include <dash/memory/SimpleMemoryPoolResource.h>
#include <dash/memory/UniquePtr.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

// The message of what f throws on this unit ("" if nothing), and whether it is an E or a
// RemoteFailure (another unit's failure).
template <class E, class F>
std::string ThrownMessage(F&& f, bool* expected_type) {
  *expected_type = false;
  try {
    f();
  } catch (const std::exception& e) {
    *expected_type = dynamic_cast<const E*>(&e) != nullptr ||
                     dynamic_cast<const dash::exception::RemoteFailure*>(&e) != nullptr;
    return e.what();
  }
  return "";
}

// ---- memory spaces as memory resources -------------------------------------------------------

static_assert(dash::memory_space_traits<dash::HostSpace>::is_local::value);
static_assert(!dash::memory_space_traits<dash::HostSpace>::is_global::value);
static_assert(std::is_same_v<dash::memory_space_traits<dash::HBWSpace>::memory_space_type_category,
                             dash::memory_space_hbw_tag>);
static_assert(std::is_same_v<dash::memory_space_traits<dash::HostSpace>::void_pointer, void*>);
static_assert(std::is_same_v<dash::memory_space_traits<dash::HostSpace>::memory_space_layout_tag,
                             dash::memory_space_noncontiguous>);
static_assert(dash::is_local_memory_space<dash::HBWSpace>::value);
static_assert(!dash::is_local_memory_space<int>::value);

// Every alignment from 1 to 4096 is honoured; the bytes can be written and read back.
template <class Space>
void ExpectAlignedAllocations(Space& space) {
  for (std::size_t align = 1; align <= 4096; align *= 4) {
    const std::size_t bytes = 3 * align + 5;
    auto* p = static_cast<unsigned char*>(space.allocate(bytes, align));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % align, 0u) << "alignment " << align;
    for (std::size_t i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(i * 7);
    for (std::size_t i = 0; i < bytes; ++i)
      ASSERT_EQ(p[i], static_cast<unsigned char>(i * 7)) << "byte " << i;
    space.deallocate(p, bytes, align);
  }
}

TEST(MemorySpaces, HostSpaceAllocatesAlignedAndEqualsEveryHostSpace) {
  dash::HostSpace a, b;
  ExpectAlignedAllocations(a);
  EXPECT_TRUE(a.is_equal(b));
  dash::HBWSpace h;
  EXPECT_FALSE(a.is_equal(h));
  EXPECT_FALSE(h.is_equal(a));
  EXPECT_FALSE(a.is_equal(*std::pmr::new_delete_resource()));
}

TEST(MemorySpaces, DefaultSpacesAreProcessWideInstancesOfTheirKind) {
  auto* host =
      dash::get_default_memory_space<dash::memory_domain_local, dash::memory_space_host_tag>();
  EXPECT_EQ(
      host,
      (dash::get_default_memory_space<dash::memory_domain_local, dash::memory_space_host_tag>()));
  EXPECT_NE(dynamic_cast<dash::HostSpace*>(host), nullptr);
  auto* hbw =
      dash::get_default_memory_space<dash::memory_domain_local, dash::memory_space_hbw_tag>();
  EXPECT_NE(dynamic_cast<dash::HBWSpace*>(hbw), nullptr);
  EXPECT_NE(static_cast<void*>(host), static_cast<void*>(hbw));
}

// MEMKIND_HBW_NODES (the suite's hbm variant) makes memkind take a NUMA node as HBM; without
// it, this machine may have none, and then the reason is given.
TEST(MemorySpaces, HbwSpaceTellsWhetherItGivesHighBandwidthMemory) {
  const bool available = dash::HBWSpace::check_hbw_available();
  if (std::getenv("MEMKIND_HBW_NODES") != nullptr) {
    EXPECT_TRUE(available) << dash::HBWSpace::hbw_unavailable_reason();
  }
  if (available) {
    EXPECT_EQ(dash::HBWSpace::hbw_unavailable_reason(), "");
  } else {
    EXPECT_NE(dash::HBWSpace::hbw_unavailable_reason(), "");
  }
  EXPECT_EQ(available, dash::HBWSpace::check_hbw_available());  // fixed for the run
  dash::HBWSpace space;
  ExpectAlignedAllocations(space);
}

TEST(MemorySpaces, HbwSpaceRefusesAnAlignmentThatIsNoPowerOfTwo) {
  dash::HBWSpace space;
  bool typed = false;
  const std::string what =
      ThrownMessage<dash::exception::InvalidArgument>([&] { (void)space.allocate(64, 3); }, &typed);
  EXPECT_TRUE(typed) << what;
  EXPECT_NE(what.find("alignment 3"), std::string::npos) << what;
}

// ---- arrays over memory spaces -----------------------------------------------------------------

// A local memory space of the test's own: counts the bytes it holds (per process) and can be
// told to fail on one unit.
struct CountingSpace : dash::MemorySpace<dash::memory_domain_local, dash::memory_space_host_tag> {
  static inline std::size_t bytes_held = 0;
  static inline int allocations = 0;
  static inline int fail_on_unit = -1;

 protected:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    if (myid() == fail_on_unit) throw dash::exception::OutOfMemory("CountingSpace: told to fail");
    bytes_held += bytes;
    ++allocations;
    return std::pmr::new_delete_resource()->allocate(bytes, alignment);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    bytes_held -= bytes;
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }
};

// Runs `allocate` with CountingSpace told to fail on the last unit: the last unit must throw its
// own OutOfMemory ("told to fail"), every other unit RemoteFailure naming it, and no bytes of
// the space may stay held.
template <class F>
void ExpectAFailureOnTheLastUnitReachesEveryUnit(F&& allocate) {
  const std::size_t held_before = CountingSpace::bytes_held;
  CountingSpace::fail_on_unit = nunits() - 1;
  bool thrown = false;
  std::string what;
  try {
    allocate();
  } catch (const dash::exception::OutOfMemory& e) {
    thrown = myid() == nunits() - 1;
    what = e.what();
  } catch (const dash::exception::RemoteFailure& e) {
    thrown = myid() != nunits() - 1;
    what = e.what();
  }
  CountingSpace::fail_on_unit = -1;
  EXPECT_TRUE(thrown) << what;
  EXPECT_NE(what.find("told to fail"), std::string::npos) << what;
  EXPECT_EQ(CountingSpace::bytes_held, held_before);
}

// Element i holds 1000 + 3 i, written by the unit (i mod units), read back by every unit.
template <class ArrayT>
void ExpectEveryUnitReachesEveryElement(ArrayT& a) {
  const long n = static_cast<long>(a.size());
  for (long i = myid(); i < n; i += nunits()) a[i] = 1000 + 3 * i;
  a.barrier();
  for (long i = 0; i < n; ++i) ASSERT_EQ(static_cast<long>(a[i]), 1000 + 3 * i) << "element " << i;
  long local_sum = 0, expected = 0;
  for (const long* p = a.lbegin(); p != a.lend(); ++p) local_sum += *p;
  for (long l = 0; l < static_cast<long>(a.lsize()); ++l)
    expected += 1000 + 3 * a.pattern().global(l);
  EXPECT_EQ(local_sum, expected);
  a.barrier();
}

TEST(ArrayMemorySpace, HbwArrayHoldsValuesOfEveryUnitWhereverItsMemoryIs) {
  using pattern_t = dash::BlockPattern<1, dash::ROW_MAJOR, long>;
  using array_t = dash::Array<long, long, pattern_t, dash::HBWSpace>;
  static_assert(std::is_same_v<array_t::local_memory_space_type, dash::HBWSpace>);
  const long n = 7 * nunits() + 3;
  {
    array_t a(n, dash::CYCLIC);
    // With HBM every unit's part comes from HBWSpace (registered); without, from the team
    // allocation, as a HostSpace array's.
    EXPECT_EQ(a.globmem().local_space() != nullptr, dash::HBWSpace::check_hbw_available());
    ExpectEveryUnitReachesEveryElement(a);
    dash::fill(a.begin(), a.end(), -5L);
    a.barrier();
    for (long i = 0; i < n; ++i) ASSERT_EQ(static_cast<long>(a[i]), -5) << "element " << i;
    a.barrier();
  }
  array_t empty(0);
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.lbegin(), empty.lend());
}

TEST(ArrayMemorySpace, HostArrayKeepsTheTeamAllocation) {
  dash::Array<long> a(5);
  EXPECT_EQ(a.globmem().local_space(), nullptr);
  static_assert(std::is_same_v<dash::Array<long>::local_memory_space_type, dash::HostSpace>);
}

TEST(ArrayMemorySpace, PartsComeFromTheArraysSpaceAndGoBackToIt) {
  using pattern_t = dash::BlockPattern<1, dash::ROW_MAJOR, long>;
  using array_t = dash::Array<long, long, pattern_t, CountingSpace>;
  const std::size_t held_before = CountingSpace::bytes_held;
  const long n = 5 * nunits() + 2;  // the last unit holds fewer
  {
    array_t a(n);
    EXPECT_EQ(CountingSpace::bytes_held - held_before, a.lcapacity() * sizeof(long));
    EXPECT_EQ(a.globmem().local_space(), dash::internal::default_local_space<CountingSpace>());
    ExpectEveryUnitReachesEveryElement(a);
    // Reallocation gives the old parts back first.
    a.allocate(3 * nunits(), dash::BLOCKED);
    EXPECT_EQ(CountingSpace::bytes_held - held_before, 3 * sizeof(long));
    ExpectEveryUnitReachesEveryElement(a);
    array_t moved(std::move(a));
    EXPECT_EQ(CountingSpace::bytes_held - held_before, 3 * sizeof(long));
    ExpectEveryUnitReachesEveryElement(moved);
  }
  EXPECT_EQ(CountingSpace::bytes_held, held_before);
  // An array with no elements takes nothing from the space.
  const int allocations_before = CountingSpace::allocations;
  { array_t empty(0); }
  EXPECT_EQ(CountingSpace::allocations, allocations_before);
}

// A space that fails on the last unit: every unit throws (the last its own OutOfMemory, the
// others RemoteFailure), none waits in the registration, and the others' parts are given back.
TEST(ArrayMemorySpace, ASpaceFailingOnOneUnitFailsTheAllocationOnEveryUnit) {
  using pattern_t = dash::BlockPattern<1, dash::ROW_MAJOR, long>;
  using array_t = dash::Array<long, long, pattern_t, CountingSpace>;
  ExpectAFailureOnTheLastUnitReachesEveryUnit([] { array_t a(4 * nunits()); });
  // The team is usable afterwards.
  array_t b(2 * nunits());
  ExpectEveryUnitReachesEveryElement(b);
}

// Units that build arrays of different sizes over a registered space fail together.
TEST(ArrayMemorySpace, DifferentSizesOnTheUnitsFailOnEveryUnit) {
  if (nunits() == 1) GTEST_SKIP() << "needs two units";
  using pattern_t = dash::BlockPattern<1, dash::ROW_MAJOR, long>;
  using array_t = dash::Array<long, long, pattern_t, CountingSpace>;
  const std::size_t held_before = CountingSpace::bytes_held;
  bool typed = false;
  const std::string what = ThrownMessage<dash::exception::InvalidArgument>(
      [&] { array_t a(myid() == 0 ? 10 * nunits() : 20 * nunits()); }, &typed);
  EXPECT_TRUE(typed) << what;
  EXPECT_NE(what.find("dash::Array"), std::string::npos) << what;
  EXPECT_EQ(CountingSpace::bytes_held, held_before);
}

// ---- SimpleMemoryPoolResource ------------------------------------------------------------------

using CountingPool = dash::SimpleMemoryPoolResource<CountingSpace>;
static_assert(std::is_same_v<dash::memory_space_traits<CountingPool>::memory_space_type_category,
                             dash::memory_space_host_tag>);

TEST(SimpleMemoryPool, SmallBlocksComeFromFewChunksAndAreReused) {
  CountingSpace upstream;
  const std::size_t held_before = CountingSpace::bytes_held;
  const int allocations_before = CountingSpace::allocations;
  {
    CountingPool pool(&upstream);
    EXPECT_EQ(pool.upstream_resource(), &upstream);
    EXPECT_EQ(CountingSpace::allocations, allocations_before);  // nothing taken yet
    const int n = 101;
    std::vector<long*> blocks;
    std::set<long*> distinct;
    for (int i = 0; i < n; ++i) {
      auto* p = static_cast<long*>(pool.allocate(16, alignof(long)));
      ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignof(long), 0u);
      p[0] = 7 * i;
      p[1] = -i;
      blocks.push_back(p);
      distinct.insert(p);
    }
    EXPECT_EQ(distinct.size(), std::size_t(n));
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(blocks[i][0], 7 * i);
      EXPECT_EQ(blocks[i][1], -i);
    }
    const int chunks = CountingSpace::allocations - allocations_before;
    EXPECT_GE(chunks, 1);
    EXPECT_LT(chunks, n / 4) << "the pool should take its blocks in chunks";
    for (long* p : blocks) pool.deallocate(p, 16, alignof(long));
    for (int i = 0; i < n; ++i) blocks[i] = static_cast<long*>(pool.allocate(16, alignof(long)));
    EXPECT_EQ(CountingSpace::allocations - allocations_before, chunks) << "freed blocks reused";
    // A large request goes to the upstream space.
    void* big = pool.allocate(5000, 8);
    EXPECT_GE(CountingSpace::bytes_held - held_before, 5000u);
    pool.deallocate(big, 5000, 8);
    pool.release();
    EXPECT_EQ(CountingSpace::bytes_held, held_before);
    // Usable after release.
    auto* q = static_cast<int*>(pool.allocate(sizeof(int), alignof(int)));
    *q = 42;
    EXPECT_EQ(*q, 42);
    pool.deallocate(q, sizeof(int), alignof(int));
  }
  EXPECT_EQ(CountingSpace::bytes_held, held_before) << "destruction gives everything back";
}

TEST(SimpleMemoryPool, ReserveTakesTheMemoryAheadOfTheAllocations) {
  CountingSpace upstream;
  CountingPool pool(&upstream);
  pool.reserve(50);
  const int after_reserve = CountingSpace::allocations;
  std::vector<void*> blocks;
  for (int i = 0; i < 50; ++i) blocks.push_back(pool.allocate(16, 8));
  EXPECT_EQ(CountingSpace::allocations, after_reserve);
  for (void* b : blocks) pool.deallocate(b, 16, 8);
}

TEST(SimpleMemoryPool, CopiesShareTheUpstreamAndMovesTakeTheMemory) {
  const std::size_t held_before = CountingSpace::bytes_held;
  CountingSpace upstream;
  CountingPool a(&upstream);
  void* p = a.allocate(16, 8);
  CountingPool copy(a);
  EXPECT_EQ(copy.upstream_resource(), &upstream);
  EXPECT_FALSE(copy.is_equal(a));
  EXPECT_TRUE(a.is_equal(a));
  {
    CountingPool moved(std::move(a));
    moved.deallocate(p, 16, 8);   // moved holds a's blocks
    void* q = a.allocate(16, 8);  // a is empty and usable
    a.deallocate(q, 16, 8);
    a.release();
  }
  copy.release();
  EXPECT_EQ(CountingSpace::bytes_held, held_before);
  // Without an upstream: the process-wide HostSpace.
  dash::SimpleMemoryPoolResource<dash::HostSpace> host_pool;
  EXPECT_EQ(static_cast<void*>(host_pool.upstream_resource()),
            static_cast<void*>(dash::get_default_memory_space<dash::memory_domain_local,
                                                              dash::memory_space_host_tag>()));
}

// ---- EpochSynchronizedAllocator ----------------------------------------------------------------

using LongAlloc = dash::EpochSynchronizedAllocator<long>;
using LongTraits = dash::allocator_traits<LongAlloc>;
static_assert(std::is_same_v<LongTraits::pointer, dart_gptr_t>);
static_assert(std::is_same_v<LongTraits::local_pointer, long*>);
static_assert(std::is_same_v<LongTraits::size_type, dash::default_size_t>);
static_assert(std::is_same_v<LongTraits::rebind_traits<double>::value_type, double>);
static_assert(std::is_same_v<LongTraits::rebind_traits<double>::local_pointer, double*>);
static_assert(std::is_same_v<LongTraits::rebind_alloc<char>,
                             dash::EpochSynchronizedAllocator<char, dash::HostSpace>>);

// Element i of unit u's part of the segment g.
dash::GlobRef<long> Element(dart_gptr_t g, int unit, long i) {
  g.unitid = unit;
  return dash::GlobPtr<long>(g)[i];
}

TEST(EpochSynchronizedAllocator, AttachedMemoryIsReachedFromEveryUnit) {
  const long n = 7;
  LongAlloc alloc(dash::Team::All());
  long* local = alloc.allocate_local(n);
  for (long i = 0; i < n; ++i) local[i] = 100 * myid() + i;
  dart_gptr_t g = alloc.attach(local, n);
  ASSERT_FALSE(DART_GPTR_ISNULL(g));
  EXPECT_EQ(g.unitid, 0);
  for (int u = 0; u < nunits(); ++u)
    for (long i = 0; i < n; ++i)
      EXPECT_EQ(static_cast<long>(Element(g, u, i)), 100 * u + i) << "unit " << u << " " << i;
  dash::Team::All().barrier();
  // Unit w writes element (w mod n) of its right neighbour's part.
  const int right = (myid() + 1) % nunits();
  Element(g, right, myid() % n) = -1 - myid();
  dash::Team::All().barrier();
  const int left = (myid() + nunits() - 1) % nunits();
  EXPECT_EQ(local[left % n], -1 - left);
  alloc.detach(g, n);
  EXPECT_EQ(local[left % n], -1 - left) << "the local memory stays after detach";
  alloc.deallocate_local(local, n);
}

TEST(EpochSynchronizedAllocator, AllocateAndDeallocateThroughTraitsOverAPool) {
  using Pool = dash::SimpleMemoryPoolResource<CountingSpace>;
  using Alloc = dash::EpochSynchronizedAllocator<double, Pool>;
  CountingSpace upstream;
  const std::size_t held_before = CountingSpace::bytes_held;
  {
    Pool pool(&upstream);
    Alloc alloc(dash::Team::All(), &pool);
    auto g = dash::allocator_traits<Alloc>::allocate(alloc, 3);
    ASSERT_FALSE(DART_GPTR_ISNULL(g));
    EXPECT_GT(CountingSpace::bytes_held, held_before) << "the pool took memory from upstream";
    dash::allocator_traits<Alloc>::deallocate(alloc, g, 3);
    // A rebound allocator takes the same space.
    dash::allocator_traits<Alloc>::rebind_alloc<int> ints(alloc);
    EXPECT_TRUE(ints == alloc);
    auto gi = ints.allocate(5);
    EXPECT_FALSE(DART_GPTR_ISNULL(gi));
    ints.deallocate(gi, 5);
  }
  EXPECT_EQ(CountingSpace::bytes_held, held_before);
}

TEST(EpochSynchronizedAllocator, DestructorDetachesAndFreesWhatIsLeft) {
  CountingSpace space;
  const std::size_t held_before = CountingSpace::bytes_held;
  {
    dash::EpochSynchronizedAllocator<long, CountingSpace> alloc(dash::Team::All(), &space);
    dart_gptr_t a = alloc.allocate(4);
    dart_gptr_t b = alloc.allocate(9);
    long* loose = alloc.allocate_local(3);
    (void)loose;
    EXPECT_FALSE(DART_GPTR_ISNULL(a));
    EXPECT_FALSE(DART_GPTR_ISNULL(b));
    EXPECT_EQ(CountingSpace::bytes_held - held_before, 16 * sizeof(long));
    // A moved allocator takes the segments along.
    dash::EpochSynchronizedAllocator<long, CountingSpace> taken(std::move(alloc));
    EXPECT_EQ(CountingSpace::bytes_held - held_before, 16 * sizeof(long));
    Element(b, nunits() - 1, 8) = 5;  // still attached
    dash::Team::All().barrier();
    EXPECT_EQ(static_cast<long>(Element(b, nunits() - 1, 8)), 5);
    dash::Team::All().barrier();
  }
  EXPECT_EQ(CountingSpace::bytes_held, held_before);
  // The team can allocate afterwards (no registration is left half done).
  LongAlloc again(dash::Team::All());
  dart_gptr_t g = again.allocate(2);
  EXPECT_FALSE(DART_GPTR_ISNULL(g));
  again.deallocate(g, 2);
}

TEST(EpochSynchronizedAllocator, BadArgumentsFailOnEveryUnit) {
  LongAlloc alloc(dash::Team::All());
  const int last = nunits() - 1;
  long* local = alloc.allocate_local(4);
  long other[4];
  bool typed = false;
  // A pointer not from allocate_local on the last unit.
  std::string what = ThrownMessage<dash::exception::InvalidArgument>(
      [&] { alloc.attach(myid() == last ? other : local, 4); }, &typed);
  EXPECT_TRUE(typed) << what;
  EXPECT_NE(what.find("allocate_local"), std::string::npos) << what;
  // Another length on unit 0.
  what = ThrownMessage<dash::exception::InvalidArgument>(
      [&] { alloc.attach(local, myid() == 0 ? 5 : 4); }, &typed);
  EXPECT_TRUE(typed) << what;
  // Nothing got attached: the memory can be freed locally, and then it is unknown.
  alloc.deallocate_local(local, 4);
  what = ThrownMessage<dash::exception::InvalidArgument>([&] { alloc.deallocate_local(local, 4); },
                                                         &typed);
  EXPECT_TRUE(typed) << what;
  // Attached memory cannot be freed locally.
  dart_gptr_t g = alloc.allocate(6);
  long* attached = nullptr;
  {
    dart_gptr_t mine = g;
    mine.unitid = myid();
    void* addr = nullptr;
    ASSERT_EQ(dart_gptr_getaddr(mine, &addr), DART_OK);
    attached = static_cast<long*>(addr);
  }
  what = ThrownMessage<dash::exception::InvalidArgument>(
      [&] { alloc.deallocate_local(attached, 6); }, &typed);
  EXPECT_TRUE(typed) << what;
  EXPECT_NE(what.find("attached"), std::string::npos) << what;
  // A null pointer on some units only.
  if (nunits() > 1) {
    what = ThrownMessage<dash::exception::InvalidArgument>(
        [&] { alloc.deallocate(myid() == 0 ? DART_GPTR_NULL : g, 6); }, &typed);
    EXPECT_TRUE(typed) << what;
    EXPECT_NE(what.find("null"), std::string::npos) << what;
  }
  alloc.deallocate(DART_GPTR_NULL, 6);  // null everywhere: nothing
  alloc.deallocate(g, 6);
  // Different sizes on the units: DART registers one size.
  if (nunits() > 1) {
    what = ThrownMessage<dash::exception::InvalidArgument>(
        [&] { alloc.allocate(myid() == 0 ? 3 : 4); }, &typed);
    EXPECT_TRUE(typed) << what;
    EXPECT_NE(what.find("different"), std::string::npos) << what;
  }
}

// A memory space that fails on the last unit: allocate throws there (its own OutOfMemory) and
// on every other unit (RemoteFailure); nobody waits in the registration, nothing stays held.
TEST(EpochSynchronizedAllocator, ASpaceFailingOnOneUnitFailsAllocateOnEveryUnit) {
  CountingSpace space;
  dash::EpochSynchronizedAllocator<long, CountingSpace> alloc(dash::Team::All(), &space);
  ExpectAFailureOnTheLastUnitReachesEveryUnit([&] { alloc.allocate(5); });
  dart_gptr_t g = alloc.allocate(5);  // the team goes on
  EXPECT_FALSE(DART_GPTR_ISNULL(g));
  alloc.deallocate(g, 5);
}

// ---- GlobStaticMem<Space>, GlobalAllocator, allocate_unique ------------------------------------

using HostMem = dash::GlobStaticMem<dash::HostSpace>;
static_assert(dash::memory_space_traits<HostMem>::is_global::value);
static_assert(std::is_same_v<dash::memory_space_traits<HostMem>::memory_space_layout_tag,
                             dash::memory_space_contiguous>);
static_assert(
    std::is_same_v<std::pointer_traits<HostMem::void_pointer>::rebind<long>, dash::GlobPtr<long>>);
static_assert(std::is_same_v<std::allocator_traits<dash::GlobalAllocator<long, HostMem>>::pointer,
                             dash::GlobPtr<long>>);
static_assert(
    std::is_same_v<std::allocator_traits<dash::GlobalAllocator<long, HostMem>>::rebind_alloc<char>,
                   dash::GlobalAllocator<char, HostMem>>);

// Unit u's part holds 10 u + i at i; every unit walks the whole memory space forwards from the
// first element to the end and backwards, checking positions, distances and values.
template <class Mem>
void ExpectPointerWalksEveryUnitsPart(Mem& memory, long per_unit) {
  dash::GlobalAllocator<long, Mem> alloc(&memory);
  const long total = per_unit * nunits();
  dash::GlobPtr<long> begin = alloc.allocate(per_unit);
  ASSERT_TRUE(static_cast<bool>(begin));
  EXPECT_EQ(memory.capacity(), std::size_t(total) * sizeof(long));
  EXPECT_EQ(memory.capacity(dash::team_unit_t{nunits() - 1}), std::size_t(per_unit) * sizeof(long));
  EXPECT_EQ(
      dash::internal::MemorySpaceRegistry::GetInstance().lookup(static_cast<dart_gptr_t>(begin)),
      static_cast<void*>(&memory));
  long* mine = dash::local_begin(begin, dash::team_unit_t{myid()});
  ASSERT_NE(mine, nullptr);
  dash::GlobPtr<long> my_first = begin;
  my_first.set_unit(dash::team_unit_t{myid()});
  EXPECT_EQ(my_first.local(), mine);
  for (long i = 0; i < per_unit; ++i) mine[i] = 10 * myid() + i;
  memory.barrier();
  dash::GlobPtr<long> end = begin + total;
  EXPECT_EQ(end - begin, total);
  EXPECT_EQ(dash::distance(end, begin), -total);
  dash::GlobPtr<long> it = begin;
  for (long g = 0; g < total; ++g, ++it) {
    ASSERT_EQ(it, begin + g);
    ASSERT_EQ(dash::distance(it, end), total - g);
    ASSERT_EQ(static_cast<long>(*it), 10 * (g / per_unit) + g % per_unit) << "element " << g;
    ASSERT_EQ(static_cast<long>(begin[g]), 10 * (g / per_unit) + g % per_unit);
  }
  EXPECT_EQ(it, end);
  for (long g = total - 1; g >= 0; --g) {
    --it;
    ASSERT_EQ(static_cast<long>(*it), 10 * (g / per_unit) + g % per_unit) << "element " << g;
  }
  memory.barrier();
  alloc.deallocate(begin, per_unit);
  EXPECT_EQ(memory.capacity(), 0u);
  EXPECT_EQ(
      dash::internal::MemorySpaceRegistry::GetInstance().lookup(static_cast<dart_gptr_t>(begin)),
      nullptr);
}

TEST(GlobStaticMemOfSpace, HostPointerWalksEveryUnitsPart) {
  HostMem memory(dash::Team::All());
  ExpectPointerWalksEveryUnitsPart(memory, 3);
  ExpectPointerWalksEveryUnitsPart(memory, 1);
}

TEST(GlobStaticMemOfSpace, HbwAndOwnSpacesGiveTheSameMemorySpace) {
  dash::GlobStaticMem<dash::HBWSpace> hbw(dash::Team::All());
  ExpectPointerWalksEveryUnitsPart(hbw, 4);
  CountingSpace space;
  const std::size_t held_before = CountingSpace::bytes_held;
  dash::GlobStaticMem<CountingSpace> counted(&space, dash::Team::All());
  dash::GlobalAllocator<long, dash::GlobStaticMem<CountingSpace>> alloc(&counted);
  auto p = alloc.allocate(6);
  EXPECT_EQ(CountingSpace::bytes_held - held_before, 6 * sizeof(long));
  alloc.deallocate(p, 6);
  EXPECT_EQ(CountingSpace::bytes_held, held_before);
  ExpectPointerWalksEveryUnitsPart(counted, 5);
}

TEST(GlobStaticMemOfSpace, UntypedAndTypedPointersConvert) {
  HostMem memory(dash::Team::All());
  HostMem::void_pointer raw = memory.allocate(6 * sizeof(long), alignof(long));
  dash::GlobPtr<long> typed(raw);
  EXPECT_EQ(typed.unit_capacity(), 6);
  EXPECT_EQ(raw.unit_capacity(), static_cast<long>(6 * sizeof(long)));
  dash::GlobPtr<void> back = typed + 6;  // unit 1's first element (or the end at one unit)
  EXPECT_EQ(back.unit_capacity(), raw.unit_capacity());
  EXPECT_EQ(static_cast<int>(back.dart_gptr().unitid), nunits() > 1 ? 1 : 0);
  dash::GlobPtr<long> null = nullptr;
  EXPECT_FALSE(static_cast<bool>(null));
  EXPECT_TRUE(null == nullptr);
  memory.deallocate(raw, 6 * sizeof(long), alignof(long));
}

TEST(GlobStaticMemOfSpace, UniquePointersFreeAtTheEndOfTheirScope) {
  CountingSpace space;
  const std::size_t held_before = CountingSpace::bytes_held;
  using Mem = dash::GlobStaticMem<CountingSpace>;
  Mem memory(&space, dash::Team::All());
  dash::GlobalAllocator<std::byte, Mem> bytes(&memory);
  {
    auto p = dash::allocate_unique<long>(bytes, 9);
    ASSERT_TRUE(static_cast<bool>(p.get()));
    EXPECT_EQ(memory.capacity(), 9 * sizeof(long) * nunits());
    EXPECT_EQ(CountingSpace::bytes_held - held_before, 9 * sizeof(long));
    auto q = std::move(p);
    EXPECT_EQ(p.get(), nullptr);
    EXPECT_TRUE(q.get_deleter() == (dash::DefaultDeleter<dash::GlobalAllocator<long, Mem>>(
                                       dash::GlobalAllocator<long, Mem>(&memory), 9)));
  }
  EXPECT_EQ(memory.capacity(), 0u);
  EXPECT_EQ(CountingSpace::bytes_held, held_before);
}

TEST(GlobStaticMemOfSpace, MovedResourcesTakeTheirAllocationsAndFreeThemAtTheEnd) {
  CountingSpace space;
  const std::size_t held_before = CountingSpace::bytes_held;
  using Mem = dash::GlobStaticMem<CountingSpace>;
  {
    Mem a(&space, dash::Team::All());
    auto p = a.allocate(24, 8);
    auto q = a.allocate(40, 8);
    EXPECT_EQ(a.capacity(dash::team_unit_t{0}), 64u);
    Mem b(std::move(a));
    EXPECT_EQ(a.capacity(), 0u);
    EXPECT_EQ(b.capacity(), 64u * nunits());
    b.deallocate(p, 24, 8);
    EXPECT_EQ(b.capacity(), 40u * nunits());
    (void)q;  // b frees it when it goes
  }
  EXPECT_EQ(CountingSpace::bytes_held, held_before);
}

TEST(GlobStaticMemOfSpace, BadArgumentsFailOnEveryUnit) {
  HostMem memory(dash::Team::All());
  bool typed = false;
  std::string what;
  if (nunits() > 1) {
    what = ThrownMessage<dash::exception::InvalidArgument>(
        [&] { (void)memory.allocate(myid() == 0 ? 16 : 24); }, &typed);
    EXPECT_TRUE(typed) << what;
    EXPECT_NE(what.find("dash::GlobStaticMem::allocate"), std::string::npos) << what;
  }
  what = ThrownMessage<dash::exception::InvalidArgument>([&] { (void)memory.allocate(16, 128); },
                                                         &typed);
  EXPECT_TRUE(typed) << what;
  EXPECT_NE(what.find("alignment 128"), std::string::npos) << what;
  auto p = memory.allocate(32);
  // Another size on the last unit.
  what = ThrownMessage<dash::exception::InvalidArgument>(
      [&] { memory.deallocate(p, myid() == nunits() - 1 ? 31 : 32); }, &typed);
  EXPECT_TRUE(typed) << what;
  memory.deallocate(p, 32);
  // Freed before.
  what = ThrownMessage<dash::exception::InvalidArgument>([&] { memory.deallocate(p, 32); }, &typed);
  EXPECT_TRUE(typed) << what;
  EXPECT_NE(what.find("freed before"), std::string::npos) << what;
  // No team, no resource.
  HostMem without_team;
  what = ThrownMessage<dash::exception::InvalidArgument>([&] { (void)without_team.allocate(8); },
                                                         &typed);
  EXPECT_TRUE(typed) << what;
  dash::GlobalAllocator<long, HostMem> without_resource;
  what = ThrownMessage<dash::exception::InvalidArgument>(
      [&] { (void)without_resource.allocate(1); }, &typed);
  EXPECT_TRUE(typed) << what;
  EXPECT_EQ(memory.capacity(), 0u);
}

// ---- GlobHeapMem
// ---------------------------------------------------------------------------------

using Heap = dash::GlobHeapMem<long>;

// Element i of unit u holds 1000 u + i.
long HeapValue(long unit, long i) { return 1000 * unit + i; }

void FillLocal(Heap& heap) {
  long i = 0;
  for (auto it = heap.lbegin(); it != heap.lend(); ++it, ++i) *it = HeapValue(myid(), i);
}

// Every unit reads every other unit's elements through at() and through global positions.
void ExpectEveryUnitsElements(const Heap& heap, const std::vector<long>& sizes) {
  long position = 0;
  for (int u = 0; u < nunits(); ++u) {
    ASSERT_EQ(heap.local_size(dash::team_unit_t{u}), std::size_t(sizes[u])) << "unit " << u;
    auto first = heap.at(dash::team_unit_t{u}, 0);
    auto last = heap.at(dash::team_unit_t{u}, sizes[u]);
    EXPECT_EQ(last - first, sizes[u]);
    EXPECT_EQ(first.pos(), position);
    for (long i = 0; i < sizes[u]; ++i) {
      ASSERT_EQ(static_cast<long>(*(first + i)), HeapValue(u, i)) << "unit " << u << " " << i;
      long via_dart = 0;
      ASSERT_EQ(
          dart_get_blocking(&via_dart, (first + i).dart_gptr(), 1, DART_TYPE_LONG, DART_TYPE_LONG),
          DART_OK);
      ASSERT_EQ(via_dart, HeapValue(u, i));
      ASSERT_EQ(static_cast<long>(heap.begin()[position + i]), HeapValue(u, i));
    }
    position += sizes[u];
  }
  EXPECT_EQ(heap.end() - heap.begin(), position);
}

TEST(GlobHeapMem, ConstructionPublishesEveryUnitsPart) {
  Heap heap(4);
  EXPECT_EQ(heap.size(), 4u * nunits());
  EXPECT_EQ(heap.local_size(), 4u);
  EXPECT_EQ(heap.lend() - heap.lbegin(), 4);
  FillLocal(heap);
  heap.barrier();
  ExpectEveryUnitsElements(heap, std::vector<long>(nunits(), 4));
  heap.barrier();
  Heap empty;
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_TRUE(empty.lbegin() == empty.lend());
}

// Unit u grows by u + 1 elements (odd sizes, another on every unit): seen by itself at once,
// by the others after the commit; the values written before the commit are there after it.
TEST(GlobHeapMem, GrowthIsSeenLocallyAtOnceAndByOthersAfterCommit) {
  Heap heap(3);
  const long me = myid(), n = nunits();
  auto first_new = heap.grow(me + 1);
  EXPECT_EQ(first_new - heap.lbegin(), 3);
  EXPECT_EQ(heap.local_size(), std::size_t(3 + me + 1));
  EXPECT_EQ(heap.size(), std::size_t(3 * n + me + 1));
  for (long u = 0; u < n; ++u) {
    if (u != me) {
      EXPECT_EQ(heap.local_size(dash::team_unit_t{static_cast<int>(u)}), 3u);
    }
  }
  FillLocal(heap);
  heap.barrier();
  // Before the commit the others' published parts are read as they were published.
  std::vector<long> before(n, 3);
  before[me] = 3 + me + 1;
  ExpectEveryUnitsElements(heap, before);
  heap.commit();
  std::vector<long> after(n);
  for (long u = 0; u < n; ++u) after[u] = 3 + u + 1;
  EXPECT_EQ(heap.size(), std::size_t(3 * n + n * (n + 1) / 2));
  ExpectEveryUnitsElements(heap, after);
  heap.barrier();
}

// A published bucket given up entirely stays readable by the others until the commit.
TEST(GlobHeapMem, ShrunkElementsStayReadableUntilCommit) {
  Heap heap(2);
  heap.grow(3);
  heap.commit();  // buckets of 2 and 3 published
  FillLocal(heap);
  heap.barrier();
  heap.shrink(4);  // the bucket of 3 goes, the bucket of 2 keeps 1
  EXPECT_EQ(heap.local_size(), 1u);
  EXPECT_EQ(heap.lend() - heap.lbegin(), 1);
  std::vector<long> published(nunits(), 5);
  published[myid()] = 1;
  ExpectEveryUnitsElements(heap, published);
  heap.commit();
  EXPECT_EQ(heap.size(), std::size_t(nunits()));
  ExpectEveryUnitsElements(heap, std::vector<long>(nunits(), 1));
  heap.barrier();
}

TEST(GlobHeapMem, LocalRangeRunsThroughBuckets) {
  Heap heap(0);
  heap.grow(2);
  heap.grow(3);
  heap.grow(1);
  heap.shrink(2);  // the last bucket goes, the second keeps 2
  heap.grow(4);
  ASSERT_EQ(heap.local_buckets().size(), 3u);
  EXPECT_EQ(heap.local_size(), 8u);
  EXPECT_EQ(std::distance(heap.lbegin(), heap.lend()), 8);
  for (long i = 0; i < 8; ++i) heap.lbegin()[i] = 10 * i;
  long i = 0;
  for (auto it = heap.lbegin(); it != heap.lend(); ++it, ++i) EXPECT_EQ(*it, 10 * i);
  auto it = heap.lend();
  for (long j = 7; j >= 0; --j) EXPECT_EQ(*--it, 10 * j);
  EXPECT_EQ(*(heap.lbegin() + 5 - 3), 20);
  EXPECT_EQ(*(heap.lend() - 1), 70);
  // resize to a global size: grows or shrinks the calling unit's part.
  heap.resize(heap.size() + 2);
  EXPECT_EQ(heap.local_size(), 10u);
  heap.resize(heap.size() - 7);
  EXPECT_EQ(heap.local_size(), 3u);
  heap.commit();
  EXPECT_EQ(heap.size(), 3u * nunits());
  FillLocal(heap);
  heap.barrier();
  ExpectEveryUnitsElements(heap, std::vector<long>(nunits(), 3));
  heap.barrier();
  // put_value / get_value by global position: unit w writes position w of the right neighbour.
  const int right = (myid() + 1) % nunits();
  heap.put_value(-1L - myid(), 3 * right + 1);
  heap.barrier();
  long got = 0;
  heap.get_value(&got, 3 * myid() + 1);
  EXPECT_EQ(got, -1 - (myid() + nunits() - 1) % nunits());
  heap.barrier();
}

TEST(GlobHeapMem, BadInputThrows) {
  Heap heap(2);
  EXPECT_THROW(heap.shrink(3), dash::exception::InvalidArgument);
  EXPECT_EQ(heap.local_size(), 2u);
  EXPECT_THROW(heap.local_size(dash::team_unit_t{nunits()}), dash::exception::OutOfRange);
  EXPECT_THROW(heap.at(dash::team_unit_t{-1}, 0), dash::exception::OutOfRange);
  EXPECT_THROW((void)heap.end().dart_gptr(), dash::exception::OutOfRange);
  try {
    heap.grow(std::size_t(1) << 40);  // 8 TiB: more than DART's pool
    ADD_FAILURE() << "no OutOfMemory";
  } catch (const dash::exception::OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find("DART_LOCAL_POOL_SIZE"), std::string::npos) << e.what();
  }
  EXPECT_EQ(heap.local_size(), 2u);
  heap.barrier();
}

// ---- List
// ----------------------------------------------------------------------------------------

// Unit u pushes 2 u + 5 values (odd counts, another on every unit) into a list with 2 nodes per
// unit at first and buckets of 3: capacities grow in steps of 3, sizes reach the others at the
// barrier, the local nodes are linked in order.
TEST(List, LocalPushesGrowInBucketsAndReachTheOthersAtTheBarrier) {
  const long n = nunits(), me = myid();
  dash::List<long> list(2 * n, 3);
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.lcapacity(), 3u) << "at least one buffer per unit";
  EXPECT_EQ(list.capacity(), 3u * n);
  const long mine = 2 * me + 5;
  for (long i = 0; i < mine; ++i) list.local.push_back(100 * me + i);
  const long lcap = 3 * ((mine + 2) / 3);
  EXPECT_EQ(list.lsize(), std::size_t(mine));
  EXPECT_EQ(list.local.size(), std::size_t(mine));
  EXPECT_EQ(list.lcapacity(), std::size_t(lcap));
  EXPECT_EQ(list.size(), std::size_t(mine)) << "the others' pushes are not seen yet";
  EXPECT_EQ(list.capacity(), std::size_t(3 * (n - 1) + lcap));
  list.barrier();
  long total = 0, total_capacity = 0;
  for (long u = 0; u < n; ++u) {
    total += 2 * u + 5;
    total_capacity += 3 * ((2 * u + 5 + 2) / 3);
  }
  EXPECT_EQ(list.size(), std::size_t(total));
  EXPECT_EQ(list.capacity(), std::size_t(total_capacity));
  EXPECT_EQ(list.lsize(), std::size_t(mine));
  long i = 0;
  const dash::internal::ListNode<long>* prev = nullptr;
  for (auto it = list.local.begin(); it != list.local.end(); ++it, ++i) {
    EXPECT_EQ(it->value, 100 * me + i);
    EXPECT_EQ(it->lprev, prev);
    if (prev != nullptr) {
      EXPECT_EQ(prev->lnext, &*it);
    }
    prev = &*it;
  }
  EXPECT_EQ(i, mine);
  EXPECT_EQ(prev->lnext, nullptr);
  EXPECT_EQ(list.local.front(), 100 * me);
  EXPECT_EQ(list.local.back(), 100 * me + mine - 1);
  // Every unit reads every unit's first value through the list's global memory.
  for (int u = 0; u < n; ++u) {
    dash::internal::ListNode<long> node = *list.globmem().at(dash::team_unit_t{u}, 0);
    EXPECT_EQ(node.value, 100 * u);
  }
  list.barrier();
}

TEST(List, PopBackAndBadInput) {
  dash::List<int> list(0, 2);
  EXPECT_THROW(list.local.pop_back(), dash::exception::InvalidArgument);
  EXPECT_THROW(list.local.back(), dash::exception::InvalidArgument);
  list.local.push_back(1);
  list.local.push_back(2);
  list.local.push_back(3);
  list.local.pop_back();
  EXPECT_EQ(list.local.size(), 2u);
  EXPECT_EQ(list.local.back(), 2);
  EXPECT_EQ(list.lcapacity(), 4u) << "popped nodes stay for the next push";
  list.local.push_back(7);
  EXPECT_EQ(list.local.back(), 7);
  EXPECT_EQ((list.local.begin() + 1)->lnext, &*(list.local.begin() + 2));
  list.barrier();
  EXPECT_EQ(list.size(), 3u * nunits());
  EXPECT_THROW(dash::List<int>(4, 0), dash::exception::InvalidArgument);
}

}  // namespace
