// dash::init and friends: thin wrappers around the DART runtime that turn
// error codes into exceptions.
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/internal/CopyEngine.h>
#include <dash/internal/Flags.h>
#include <dash/internal/LayerHooks.h>
#include <dash/util/Config.h>

#include <cstring>
#include <string>
#include <vector>

#include "EndOfRun.h"

namespace dash {
namespace internal {

void throw_dart_error(dart_ret_t ret, const char* call) {
  std::string message = std::string(call) + " failed: ";
  switch (ret) {
    case DART_OK:
      return;
    case DART_ERR_INVAL:
      throw exception::InvalidArgument(message + "invalid argument (DART_ERR_INVAL)");
    case DART_ERR_NOTFOUND:
      throw exception::InvalidArgument(message + "not found (DART_ERR_NOTFOUND)");
    case DART_ERR_NOTINIT:
      // Used before dash::init: the exception, if it escapes, ends the program with one line.
      install_end_of_run_handlers();
      throw exception::NotInitialized(
          message + "runtime not initialised: call dash::init first (DART_ERR_NOTINIT)");
    case DART_ERR_NOMEM:
      throw exception::OutOfMemory(message + "out of memory (DART_ERR_NOMEM)");
    default:
      throw exception::RuntimeError(message + "runtime error " + std::to_string(int(ret)));
  }
}

void throw_invalid_argument(const char* who, const char* what) {
  throw exception::InvalidArgument(std::string(who) + ": " + what);
}

void throw_runtime_error(const std::string& what) { throw exception::RuntimeError(what); }

void throw_dart_failure(dart_ret_t ret, const std::string& what) {
  switch (ret) {
    case DART_ERR_NOMEM:
      throw exception::OutOfMemory(what + " (out of memory)");
    case DART_ERR_NOTINIT:
      install_end_of_run_handlers();
      throw exception::NotInitialized(what + " (runtime not initialised: call dash::init first)");
    default:
      throw exception::RuntimeError(what);
  }
}

std::string errno_text(int e) { return std::strerror(e); }

}  // namespace internal

namespace {

// Checks DART's environment flags and the C++ layer's (their table, dash/internal/Flags.h),
// configures the copy engine from its own and runs the layers' start-up checks, before MPI
// starts: a malformed flag throws InvalidArgument naming the flag, its value and what is
// expected. Local.
void check_flags(const char* call) {
  char err[DART_FLAG_ERROR_SIZE];
  if (dart_flags_check(err, sizeof err) != DART_OK)
    throw exception::InvalidArgument(std::string(call) + ": " + err);
  internal::check_flags(call);
  internal::CopyEngine::instance().configure_from_environment();
  for (const internal::LayerHooks& layer : internal::registered_layers())
    if (layer.at_init != nullptr) layer.at_init(call);
  util::Config::init();  // DASH's run-time table reads the environment here, as DASH's does
}

// The C++ layer's flags that steer collective operations (the I/O plan, the exchange
// algorithm: FlagSpec::agreed) must be alike on every unit; otherwise every unit stops DART and
// throws InvalidArgument naming the flag (a unit that planned otherwise would wait for ever).
// Collective.
void agree_on_flags(const char* call) {
  const std::vector<const char*> names = internal::agreed_flag_names();
  char err[DART_FLAG_ERROR_SIZE];
  const dart_ret_t ret = dart_flags_agree(names.data(), names.size(), err, sizeof err);
  if (ret == DART_OK) return;
  dart_exit();  // on every unit: they all see the same difference
  throw exception::InvalidArgument(std::string(call) + ": " + err);
}

}  // namespace

void init(int* argc, char*** argv) {
  internal::install_end_of_run_handlers();
  check_flags("dash::init");
  internal::check_dart(dart_init(argc, argv), "dash::init");
  agree_on_flags("dash::init");
}

bool init_thread(int* argc, char*** argv) {
  internal::install_end_of_run_handlers();
  check_flags("dash::init_thread");
  dart_thread_support_level_t level = DART_THREAD_MULTIPLE;
  internal::check_dart(dart_init_thread(argc, argv, &level), "dash::init_thread");
  agree_on_flags("dash::init_thread");
  return level == DART_THREAD_MULTIPLE;
}

void finalize() {
  internal::CopyEngine::instance().shutdown();  // the worker never outlives the runtime
  // The layers finish (out of core: its I/O stopped and the spill directory removed; I/O:
  // burst-buffer writes drained, collectively) while the runtime is up.
  const auto& layers = internal::registered_layers();
  for (const internal::LayerHooks& layer : layers)
    if (layer.at_finalize != nullptr) layer.at_finalize();
  if (is_initialized()) Team::All().free_subteams();
  // A layer's failure at the end (e.g. a burst-buffer write that could not reach its path)
  // fails the program after the runtime has ended.
  std::string failure;
  for (const internal::LayerHooks& layer : layers)
    if (layer.failure_at_finalize != nullptr && failure.empty())
      failure = layer.failure_at_finalize();
  internal::check_dart(dart_exit(), "dash::finalize");
  if (!failure.empty()) throw exception::RuntimeError("dash::finalize: " + failure);
}

bool is_initialized() { return dart_initialized() != 0; }

bool is_multithreaded() {
  dart_thread_support_level_t level = DART_THREAD_SINGLE;
  return is_initialized() && dart_thread_support_level(&level) == DART_OK &&
         level == DART_THREAD_MULTIPLE;
}

global_unit_t myid() {
  dart_global_unit_t id;
  internal::check_dart(dart_myid(&id), "dash::myid");
  return global_unit_t(id);
}

std::size_t size() {
  std::size_t n = 0;
  internal::check_dart(dart_size(&n), "dash::size");
  return n;
}

void barrier() { internal::check_dart(dart_barrier(DART_TEAM_ALL), "dash::barrier"); }

}  // namespace dash
