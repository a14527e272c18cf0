// DASH's memory spaces and the memory of containers: HostSpace and HBWSpace as std::pmr memory
// resources (alignment, equality, the process-wide defaults, traits), dash::Array over HBWSpace
// (ordinary memory where there is no HBM; the hbm variant of this suite makes memkind take NUMA
// node 0 as HBM, so the registered path runs) and over a memory space of the test's own (every
// unit's part comes from it, is given back at destruction, and is reached from every unit), and
// bad input: a bad alignment, a memory space that fails on one unit.
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/algorithm/Fill.h>
#include <dash/memory/HBWSpace.h>
#include <dash/memory/HostSpace.h>
#include <dash/memory/MemorySpace.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <type_traits>

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
  const std::size_t held_before = CountingSpace::bytes_held;
  CountingSpace::fail_on_unit = nunits() - 1;
  bool thrown = false;
  std::string what;
  try {
    array_t a(4 * nunits());
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

}  // namespace
