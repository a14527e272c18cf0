// Helpers for tests run by the MPI-aware GoogleTest main (mpi_test_main.cc).
//
// The main initialises DART, prints results from unit 0 only, and after every test agrees on
// one verdict: a test that failed on any unit fails on all of them. Failure messages of units
// other than 0 go to stderr prefixed "[unit N]".
//
// Every unit runs the same tests in the same order, and the verdict is agreed collectively
// after each test. A test that returns early on one unit (ASSERT_*) while the others wait in a
// collective hangs until the CTest timeout: before collectives prefer EXPECT_*.
#ifndef DASH_TESTS_SUPPORT_MPI_TEST_H_
#define DASH_TESTS_SUPPORT_MPI_TEST_H_

#include <gtest/gtest.h>

namespace dash_test {

// This unit's id in DART_TEAM_ALL. Local.
int myid();

// Number of units in DART_TEAM_ALL. Local.
int nunits();

}  // namespace dash_test

// Runs the statement block on unit 0 only, e.g. DASH_TEST_ON_UNIT0 { EXPECT_EQ(sum, 10); }
#define DASH_TEST_ON_UNIT0 if (::dash_test::myid() == 0)

#endif  // DASH_TESTS_SUPPORT_MPI_TEST_H_
