// Failure agreement of the algorithms that call user code: a function that
// throws on some units inside for_each, for_each_with_index, generate,
// generate_with_index, transform (unary and binary), sort (comparator), or
// a value-returning algorithm (count_if, find_if, any_of, all_of, equal,
// min_element, max_element, accumulate with an op of the user's)
// makes every unit throw, the failing units their own exceptions, the
// others dash::exception::RemoteFailure naming the lowest failing unit.
// Afterwards the same containers work, with exact results on every unit.
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/algorithm/Accumulate.h>
#include <dash/algorithm/Count.h>
#include <dash/algorithm/Equal.h>
#include <dash/algorithm/Find.h>
#include <dash/algorithm/ForEach.h>
#include <dash/algorithm/Generate.h>
#include <dash/algorithm/MinMax.h>
#include <dash/algorithm/Predicates.h>
#include <dash/algorithm/Sort.h>
#include <dash/algorithm/Transform.h>
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "agreed_failure.h"
#include "mpi_test.h"

namespace {

using dash_test::ExpectAgreedFailure;
using dash_test::FailingSets;
using dash_test::myid;
using dash_test::nunits;
using dash_test::Why;

// Throws Why(me) if the calling unit is one of `failing`.
void FailIfOneOf(const std::set<int>& failing) {
  if (failing.count(myid())) throw std::runtime_error(Why(myid()));
}

// Every element of a equals value(global index), read on every unit (the
// algorithm's end orders the writes of all units before it returns), then
// a barrier.
template <class A, class F>
void ExpectValues(A& a, F value) {
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(long(a[i]), value(long(i))) << "index " << i;
  a.barrier();  // read everywhere before anyone writes again
}

TEST(AlgorithmsFailure, ForEachAndGenerate_ThrowOnEveryUnit) {
  dash::Array<long> a(7 * nunits() + 3);
  for (const std::set<int>& failing : FailingSets()) {
    SCOPED_TRACE("lowest failing unit " + std::to_string(*failing.begin()));
    ExpectAgreedFailure(
        [&] { dash::for_each(a.begin(), a.end(), [&](long&) { FailIfOneOf(failing); }); }, failing,
        "dash::for_each");
    ExpectAgreedFailure(
        [&] {
          dash::for_each_with_index(a.begin(), a.end(), [&](long&, long) { FailIfOneOf(failing); });
        },
        failing, "dash::for_each_with_index");
    ExpectAgreedFailure(
        [&] {
          dash::generate(a.begin(), a.end(), [&] {
            FailIfOneOf(failing);
            return 0L;
          });
        },
        failing, "dash::generate");
    ExpectAgreedFailure(
        [&] {
          dash::generate_with_index(a.begin(), a.end(), [&](long) {
            FailIfOneOf(failing);
            return 0L;
          });
        },
        failing, "dash::generate_with_index");
  }
  // Working again, and on return every unit's elements are written.
  dash::generate_with_index(a.begin(), a.end(), [](long g) { return 3 * g; });
  ExpectValues(a, [](long g) { return 3 * g; });
  dash::for_each(a.begin(), a.end(), [](long& x) { x += 1; });
  ExpectValues(a, [](long g) { return 3 * g + 1; });
  a.barrier();
}

TEST(AlgorithmsFailure, Transform_ThrowsOnEveryUnit) {
  dash::Array<long> a(5 * nunits() + 2), b(5 * nunits() + 2, dash::CYCLIC);
  dash::generate_with_index(a.begin(), a.end(), [](long g) { return g; });
  dash::generate_with_index(b.begin(), b.end(), [](long g) { return 100 * g; });
  for (const std::set<int>& failing : FailingSets()) {
    SCOPED_TRACE("lowest failing unit " + std::to_string(*failing.begin()));
    ExpectAgreedFailure(
        [&] {
          dash::transform(a.begin(), a.end(), b.begin(), [&](long x) {
            FailIfOneOf(failing);
            return x;
          });
        },
        failing, "dash::transform");
    ExpectAgreedFailure(
        [&] {
          dash::transform(a.begin(), a.end(), b.begin(), a.begin(), [&](long x, long y) {
            FailIfOneOf(failing);
            return x + y;
          });
        },
        failing, "dash::transform");
  }
  // Units that did not fail wrote their outputs: start again.
  dash::generate_with_index(a.begin(), a.end(), [](long g) { return g; });
  dash::generate_with_index(b.begin(), b.end(), [](long g) { return 100 * g; });
  dash::transform(a.begin(), a.end(), b.begin(), a.begin(), [](long x, long y) { return x + y; });
  ExpectValues(a, [](long g) { return 101 * g; });
  a.barrier();
}

TEST(AlgorithmsFailure, ValueReturning_ThrowOnEveryUnit) {
  dash::Array<long> a(6 * nunits() + 1), b(6 * nunits() + 1, dash::CYCLIC);
  dash::generate_with_index(a.begin(), a.end(), [](long g) { return g % 5; });
  dash::generate_with_index(b.begin(), b.end(), [](long g) { return g % 5; });
  for (const std::set<int>& failing : FailingSets()) {
    SCOPED_TRACE("lowest failing unit " + std::to_string(*failing.begin()));
    auto pred = [&](long x) {
      FailIfOneOf(failing);
      return x == 4;
    };
    ExpectAgreedFailure([&] { dash::count_if(a.begin(), a.end(), pred); }, failing,
                        "dash::count_if");
    ExpectAgreedFailure([&] { dash::find_if(a.begin(), a.end(), pred); }, failing, "dash::find_if");
    ExpectAgreedFailure([&] { dash::any_of(a.begin(), a.end(), pred); }, failing, "dash::any_of");
    ExpectAgreedFailure([&] { dash::all_of(a.begin(), a.end(), pred); }, failing, "dash::any_of");
    ExpectAgreedFailure(
        [&] {
          dash::equal(a.begin(), a.end(), b.begin(), [&](long x, long y) {
            FailIfOneOf(failing);
            return x == y;
          });
        },
        failing, "dash::equal");
    auto less = [&](long x, long y) {
      FailIfOneOf(failing);
      return x < y;
    };
    ExpectAgreedFailure([&] { dash::min_element(a.begin(), a.end(), less); }, failing,
                        "dash::min_element");
    ExpectAgreedFailure([&] { dash::max_element(a.begin(), a.end(), less); }, failing,
                        "dash::min_element");
    ExpectAgreedFailure(
        [&] {
          dash::accumulate(a.begin(), a.end(), 0L, [&](long x, long y) {
            FailIfOneOf(failing);
            return x + y;
          });
        },
        failing, "dash::accumulate");
  }
  // The same calls without failures.
  const long n = long(a.size());
  long fours = 0, sum = 0;
  for (long g = 0; g < n; ++g) fours += (g % 5 == 4), sum += g % 5;
  EXPECT_EQ(long(dash::count_if(a.begin(), a.end(), [](long x) { return x == 4; })), fours);
  EXPECT_EQ(dash::find_if(a.begin(), a.end(), [](long x) { return x == 4; }) - a.begin(), 4);
  EXPECT_TRUE(dash::equal(a.begin(), a.end(), b.begin(), [](long x, long y) { return x == y; }));
  EXPECT_EQ(long(*dash::max_element(a.begin(), a.end(), std::less<long>())), 4);
  EXPECT_EQ(dash::accumulate(a.begin(), a.end(), 0L, [](long x, long y) { return x + y; }), sum);
  a.barrier();
}

TEST(AlgorithmsFailure, Sort_ComparatorThrowsOnEveryUnit) {
  const long n = 40L * nunits() + 9;
  dash::Array<long> a(n);
  auto reversed = [n](long g) { return (n - g) * 7 % (n + 13); };
  // The calls a clean sort of this data makes on this unit (the same every
  // time: the data and the algorithm are deterministic).
  long clean_calls = 0;
  dash::generate_with_index(a.begin(), a.end(), reversed);
  dash::sort(a.begin(), a.end(), [&](long x, long y) {
    ++clean_calls;
    return x < y;
  });
  for (const std::set<int>& failing : FailingSets()) {
    SCOPED_TRACE("lowest failing unit " + std::to_string(*failing.begin()));
    // The comparator fails at its first call (local sort), half-way, or at
    // its last call (the cut at the splitters or the merge after the
    // all-to-all).
    for (long fail_after : {0L, clean_calls / 2, clean_calls - 1}) {
      SCOPED_TRACE("fails after " + std::to_string(fail_after) + " of " +
                   std::to_string(clean_calls) + " comparisons");
      dash::generate_with_index(a.begin(), a.end(), reversed);
      long calls = 0;
      ExpectAgreedFailure(
          [&] {
            dash::sort(a.begin(), a.end(), [&](long x, long y) {
              if (++calls > fail_after) FailIfOneOf(failing);
              return x < y;
            });
          },
          failing, "dash::sort", fail_after > 0);
      ExpectValues(a, reversed);  // a failure before the final puts changes nothing
    }
  }
  dash::generate_with_index(a.begin(), a.end(), reversed);
  dash::sort(a.begin(), a.end());
  for (long i = 1; i < n; ++i) EXPECT_LE(long(a[i - 1]), long(a[i])) << "index " << i;
  a.barrier();
}

}  // namespace
