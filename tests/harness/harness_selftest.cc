// Self-test of the MPI-aware test main: with DASH_TEST_HARNESS_FAIL_UNIT=k set, one test fails
// on unit k only, and CTest checks (expect_failure.cmake) that unit 0 reports it as FAILED
// naming unit k and that the launcher exits non-zero. Without the variable everything passes.
#include <mpi.h>

#include <cstdlib>

#include "mpi_test.h"

namespace {

// Number of units that reach this call, counted with an allreduce. Collective.
int CountUnits() {
  int one = 1;
  int sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

TEST(HarnessSelfTest, AllUnitsTakePart) {
  EXPECT_EQ(CountUnits(), dash_test::nunits());
  EXPECT_GE(dash_test::myid(), 0);
  EXPECT_LT(dash_test::myid(), dash_test::nunits());
}

TEST(HarnessSelfTest, FailsOnChosenUnit) {
  const char* fail_unit = std::getenv("DASH_TEST_HARNESS_FAIL_UNIT");
  if (fail_unit != nullptr && std::atoi(fail_unit) == dash_test::myid()) {
    ADD_FAILURE() << "deliberate failure on unit " << dash_test::myid();
  }
}

TEST(HarnessSelfTest, UnitsStayInStepAfterAFailure) {
  EXPECT_EQ(CountUnits(), dash_test::nunits());
}

}  // namespace
