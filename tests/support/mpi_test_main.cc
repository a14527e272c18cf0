// MPI-aware main for every GoogleTest binary: initialises DART, prints from unit 0 only,
// agrees on one verdict per test across units, and exits with the same code on all units.
#include <dart/dart.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "dart_test_util.h"
#include "mpi_test.h"

namespace dash_test {

int myid() {
  dart_global_unit_t id;
  return dart_myid(&id) == DART_OK ? id.id : -1;
}

int nunits() {
  size_t size = 0;
  return dart_size(&size) == DART_OK ? static_cast<int>(size) : 0;
}

namespace {

// Prints `text` to stderr with every line prefixed "[unit N] ".
void PrintPrefixed(int unit, const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  std::string out;
  while (std::getline(lines, line)) out += "[unit " + std::to_string(unit) + "] " + line + "\n";
  std::fputs(out.c_str(), stderr);
  std::fflush(stderr);
}

// Wraps the default result printer: forwards events to it on unit 0 only, echoes failures of
// other units to stderr, and after each test fails it on every unit if it failed on any.
class MpiListener : public ::testing::EmptyTestEventListener {
 public:
  MpiListener(::testing::TestEventListener* printer, int unit, int size)
      : printer_(printer), unit_(unit), size_(size) {}

  void OnTestProgramStart(const ::testing::UnitTest& u) override {
    if (unit_ == 0) printer_->OnTestProgramStart(u);
  }
  void OnTestIterationStart(const ::testing::UnitTest& u, int iteration) override {
    if (unit_ == 0) printer_->OnTestIterationStart(u, iteration);
  }
  void OnEnvironmentsSetUpStart(const ::testing::UnitTest& u) override {
    if (unit_ == 0) printer_->OnEnvironmentsSetUpStart(u);
  }
  void OnEnvironmentsSetUpEnd(const ::testing::UnitTest& u) override {
    if (unit_ == 0) printer_->OnEnvironmentsSetUpEnd(u);
  }
  void OnTestSuiteStart(const ::testing::TestSuite& s) override {
    if (unit_ == 0) printer_->OnTestSuiteStart(s);
  }
  void OnTestStart(const ::testing::TestInfo& t) override {
    current_test_ = std::string(t.test_suite_name()) + "." + t.name();
    if (unit_ == 0) printer_->OnTestStart(t);
  }
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (unit_ == 0) {
      printer_->OnTestPartResult(r);
    } else if (r.failed() && !adding_agreed_failure_) {
      // No UnitTest accessors here: gtest holds its mutex while reporting a result.
      std::ostringstream text;
      text << current_test_ << ": " << (r.file_name() ? r.file_name() : "unknown file") << ":"
           << r.line_number() << ": Failure\n"
           << r.message();
      PrintPrefixed(unit_, text.str());
    }
  }
  void OnTestEnd(const ::testing::TestInfo& t) override {
    AgreeOnVerdict();
    if (unit_ == 0) printer_->OnTestEnd(t);
    current_test_ = "(outside a test)";
  }
  void OnTestSuiteEnd(const ::testing::TestSuite& s) override {
    if (unit_ == 0) printer_->OnTestSuiteEnd(s);
  }
  void OnEnvironmentsTearDownStart(const ::testing::UnitTest& u) override {
    if (unit_ == 0) printer_->OnEnvironmentsTearDownStart(u);
  }
  void OnEnvironmentsTearDownEnd(const ::testing::UnitTest& u) override {
    if (unit_ == 0) printer_->OnEnvironmentsTearDownEnd(u);
  }
  void OnTestIterationEnd(const ::testing::UnitTest& u, int iteration) override {
    if (unit_ == 0) printer_->OnTestIterationEnd(u, iteration);
  }
  void OnTestProgramEnd(const ::testing::UnitTest& u) override {
    if (unit_ == 0) printer_->OnTestProgramEnd(u);
  }

 private:
  // Collective: every unit learns which units failed the current test; a unit where it passed
  // records a failure naming them, so the test reads FAILED everywhere.
  void AgreeOnVerdict() {
    const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
    const bool failed_here = t != nullptr && t->result()->Failed();
    std::vector<int> failed(size_, 0);
    failed[unit_] = failed_here ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, failed.data(), size_, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    std::string units;
    for (int u = 0; u < size_; ++u) {
      if (failed[u]) units += (units.empty() ? "" : ",") + std::to_string(u);
    }
    if (units.empty() || failed_here) return;
    adding_agreed_failure_ = true;
    ADD_FAILURE_AT("all units agree", -1)
        << "failed on unit" << (units.find(',') == std::string::npos ? " " : "s ") << units
        << " (their messages are on stderr, prefixed [unit N])";
    adding_agreed_failure_ = false;
  }

  std::unique_ptr<::testing::TestEventListener> printer_;
  int unit_;
  int size_;
  std::string current_test_ = "(outside a test)";
  bool adding_agreed_failure_ = false;
};

}  // namespace
}  // namespace dash_test

int main(int argc, char** argv) {
  // DASH_TEST_INIT_THREAD=1: start as dash::init_thread does (asking for MPI_THREAD_MULTIPLE).
  const char* init_thread = std::getenv("DASH_TEST_INIT_THREAD");
  dart_thread_support_level_t level = DART_THREAD_MULTIPLE;
  dart_ret_t ret = init_thread != nullptr && std::string(init_thread) == "1"
                       ? dart_init_thread(&argc, &argv, &level)
                       : dart_init(&argc, &argv);
  if (ret != DART_OK) {
    std::fprintf(stderr, "mpi_test_main: dart_init failed with dart_ret_t %d\n",
                 static_cast<int>(ret));
    return 1;
  }
  ::testing::InitGoogleTest(&argc, argv);

  int unit = dash_test::myid();
  int size = dash_test::nunits();
  if (unit < 0 || size <= 0) {
    std::fprintf(stderr, "mpi_test_main: dart_myid/dart_size failed after dart_init\n");
    dart_exit();
    return 1;
  }
  ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
  ::testing::TestEventListener* printer = listeners.Release(listeners.default_result_printer());
  if (unit != 0) delete listeners.Release(listeners.default_xml_generator());  // one report file
  listeners.Append(new dash_test::MpiListener(printer, unit, size));

  // --gtest_shuffle must give every unit the same order: use unit 0's seed everywhere.
  int seed = GTEST_FLAG_GET(random_seed);
  if (seed == 0) seed = static_cast<int>(std::time(nullptr) % 99991) + 1;
  MPI_Bcast(&seed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  GTEST_FLAG_SET(random_seed, seed);
  dash_test::RankHosts();  // collective on its first call: every unit makes it here

  int result = RUN_ALL_TESTS();
  int agreed_result = result;
  MPI_Allreduce(&result, &agreed_result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  dart_exit();
  return agreed_result;
}
