// How a program that uses dash ends when it goes wrong (dash/Init.h; installed by dash::init):
//
//   what happens                               what the unit prints (stderr, one line)   then
//   an exception escapes main (or a thread)    [unit U] <exception type>: <what()>       abort
//   std::terminate without an exception        [unit U] std::terminate called ...        abort
//   main returns (or exit) before finalize     [unit U] dash: the program ended ...      abort
//
// "abort" is dart_abort(1) while the runtime is up: MPI_Abort ends every unit of the job with a
// non-zero code (a unit that failed alone would otherwise leave the others waiting in a
// collective), after DART's abort hooks (the out-of-core spill directory is removed); without
// the runtime the process exits with status 1. No abort signal, so no backtrace dump.
#include "EndOfRun.h"

#include <cxxabi.h>
#include <dart/dart.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <typeinfo>

namespace dash {
namespace internal {

namespace {

// "[unit U]": the DART unit, or before dart_init the launcher's rank, else "[dash]".
std::string unit_label() {
  dart_global_unit_t id;
  if (dart_initialized() && dart_myid(&id) == DART_OK)
    return "[unit " + std::to_string(id.id) + "]";
  for (const char* rank : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"})
    if (const char* value = std::getenv(rank)) return std::string("[unit ") + value + "]";
  return "[dash]";
}

// The type's name as written in C++ ("dash::exception::InvalidArgument").
std::string type_name(const std::type_info& type) {
  int status = 0;
  char* name = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
  const std::string text = status == 0 && name != nullptr ? name : type.name();
  std::free(name);
  return text;
}

// One write, so that the lines of several units (or threads) do not interleave.
void write_line(const std::string& line) {
  std::fflush(stdout);
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(STDERR_FILENO, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += std::size_t(n);
  }
}

[[noreturn]] void end_job() {
  std::fflush(stdout);
  std::fflush(stderr);
  if (dart_initialized()) {
    // When every unit fails at once, the first abort can kill the others before their line is
    // out (MPICH's launcher dropped about half at 2 units without a pause; none with 20 ms).
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    dart_abort(1);
  }
  std::_Exit(1);
}

void on_terminate() {
  std::string line = unit_label() + " ";
  if (const std::exception_ptr escaped = std::current_exception()) {
    try {
      std::rethrow_exception(escaped);
    } catch (const std::exception& e) {
      line += type_name(typeid(e)) + ": " + e.what();
    } catch (...) {
      const std::type_info* type = abi::__cxa_current_exception_type();
      line +=
          "an exception of type " + (type ? type_name(*type) : std::string("unknown")) + " escaped";
    }
  } else {
    line += "std::terminate called without an exception";
  }
  write_line(line);
  end_job();
}

void on_exit() {
  if (!dart_initialized()) return;
  write_line(unit_label() +
             " dash: the program ended without dash::finalize() (call it on every unit before "
             "main returns); the job is aborted");
  end_job();
}

}  // namespace

void install_end_of_run_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::set_terminate(on_terminate);
    std::atexit(on_exit);
  });
}

}  // namespace internal
}  // namespace dash
