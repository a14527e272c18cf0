// A program that saves, or fails to save, or loads a subfiled array, for tests that need a
// save's process to be gone (tests/scripts/stale_parts_reaped.sh). Run with at least two
// (emulated) nodes. Usage:
//   io_subfiled_save_child save PATH SEED        saves n values SEED + i, one file per node
//   io_subfiled_save_child fail-save PATH SEED   the same save, made to fail
//                                                (DASH_IO_TEST_FAIL_WRITE)
//   io_subfiled_save_child check PATH SEED       loads PATH and checks the values
// Prints on unit 0 "saved <k> parts", "save failed as expected" or "values ok" and exits 0;
// anything else is printed and exits 1.
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/io/Save.h>
#include <stdlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

constexpr std::size_t kValues = 12000;

// Runs the mode; returns what unit 0 prints. Collective.
std::string run(const std::string& mode, const std::string& path, std::int64_t seed) {
  dash::Array<std::int64_t> a(kValues);
  dash::io::IoSettings settings;
  settings.subfiling = 1;
  settings.aggregators = int(dash::size());
  settings.buffer_bytes = 4096;
  if (mode == "check") {
    dash::io::load(path, a);
    long wrong = 0;
    for (std::size_t i = 0; i < a.lsize(); ++i)
      if (a.lbegin()[i] != seed + std::int64_t(a.pattern().global(i))) ++wrong;
    std::int64_t total = 0;
    dart_allreduce(&wrong, &total, 1, DART_TYPE_LONG, DART_OP_SUM, DART_TEAM_ALL);
    return total == 0 ? "values ok" : std::to_string(total) + " values wrong";
  }
  for (std::size_t i = 0; i < a.lsize(); ++i)
    a.lbegin()[i] = seed + std::int64_t(a.pattern().global(i));
  a.barrier();
  if (mode == "save")
    return "saved " + std::to_string(dash::io::save(a, path, settings).subfiles) + " parts";
  if (mode != "fail-save") return "unknown mode '" + mode + "'";
  setenv("DASH_IO_TEST_FAIL_WRITE", "2", 1);
  try {
    dash::io::save(a, path, settings);
  } catch (const dash::exception::RuntimeError&) {
    return "save failed as expected";
  }
  return "the save did not fail";
}

}  // namespace

int main(int argc, char** argv) {
  dash::init(&argc, &argv);
  std::string result = "usage: io_subfiled_save_child save|fail-save|check PATH SEED";
  if (argc == 4) {
    try {
      result = run(argv[1], argv[2], std::atoll(argv[3]));
    } catch (const std::exception& e) {
      result = std::string("failed: ") + e.what();
    }
  }
  const bool ok = result == "values ok" || result == "save failed as expected" ||
                  result.compare(0, 6, "saved ") == 0;
  if (dash::myid().id == 0) std::printf("%s\n", result.c_str());
  dash::finalize();
  return ok ? 0 : 1;
}
