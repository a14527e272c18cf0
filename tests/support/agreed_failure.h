// Helpers for tests of failure agreement: an operation that fails on some
// units must throw on every unit, the failing units their own exceptions,
// the others dash::exception::RemoteFailure naming a failing unit.
#ifndef DASH_TESTS_SUPPORT_AGREED_FAILURE_H_
#define DASH_TESTS_SUPPORT_AGREED_FAILURE_H_

#include <dash/Exception.h>
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace dash_test {

// The text a failing unit's exception carries.
inline std::string Why(int unit) { return "unit " + std::to_string(unit) + " gives up"; }

// Runs op, which must throw on every unit: on a unit of `failing` its own
// std::runtime_error (Why(unit)), on the others RemoteFailure naming the
// lowest failing unit and carrying its message. With `late`, units of
// `failing` may hear of another's failure before failing themselves (then
// they stop, and throw RemoteFailure naming some unit of `failing`).
template <class Op>
void ExpectAgreedFailure(Op&& op, const std::set<int>& failing, const char* operation,
                         bool late = false) {
  const int lowest = *failing.begin();
  try {
    op();
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::RemoteFailure& e) {
    EXPECT_NE(e.unit(), myid()) << e.what();
    if (late) {
      EXPECT_EQ(failing.count(e.unit()), 1u) << e.what();
    } else {
      EXPECT_EQ(failing.count(myid()), 0u) << "a failing unit must rethrow its own exception";
      EXPECT_EQ(e.unit(), lowest) << e.what();
    }
    EXPECT_NE(e.message().find(Why(e.unit())), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(operation, 0), 0u) << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(failing.count(myid()), 1u) << e.what();
    EXPECT_EQ(std::string(e.what()), Why(myid()));
  }
}

// The failing-unit sets every test runs: the last unit, unit 0, every unit.
inline std::vector<std::set<int>> FailingSets() {
  std::vector<std::set<int>> sets{{nunits() - 1}, {0}};
  std::set<int> all;
  for (int u = 0; u < nunits(); ++u) all.insert(u);
  sets.push_back(all);
  return sets;
}

}  // namespace dash_test

#endif  // DASH_TESTS_SUPPORT_AGREED_FAILURE_H_
