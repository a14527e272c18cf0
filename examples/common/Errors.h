// How the examples end on an error: one line on stderr, exit status 2, and no unit left
// waiting for another.
//
//   error                                       hits              how the program ends
//   dash::init fails (a malformed flag, a bad   every unit alike  one line, exit 2 (init)
//     topology file, an MPI error)              (usually)
//   a bad command line (UsageError) or a        every unit alike  unit 0 prints, every unit
//     combination every unit checks alike                         calls dash::finalize, exit 2
//   anything else thrown after dash::init (out  maybe one unit    that unit prints one line,
//     of memory, a failed call)                                   dart_abort(2) (abort_run)
//
// Why not dash::finalize after an error that may hit one unit only: finalize is collective,
// and the other units may be waiting in a collective the failing unit never enters (a barrier,
// an exchange, an allocation), so it would hang. dart_abort is MPI_Abort: it ends every unit
// of the run, whatever they are doing, under any launcher (srun does not end a job when one
// process exits with an error). A dash::init that fails before MPI starts (malformed flags are
// checked first) just exits; one that fails after MPI started aborts too, since a unit whose
// init failed alone would leave the others waiting inside dart_init.
#ifndef EXAMPLES__COMMON__ERRORS_H_
#define EXAMPLES__COMMON__ERRORS_H_

#include <libdash.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <thread>

#include "Args.h"

namespace examples {

// Ends the run with exit status 2: dart_abort (MPI_Abort on every unit) once MPI has
// started, else exit(2). It pauses 100 ms first: when several units abort at once (an error
// every unit hit after MPI started), MPICH 4.0.2's launcher dropped the lines of the units the
// first abort killed (measured: about half of them at 2 units; none lost with a 20 ms pause),
// and the line saying why is the point. Only on this fatal path.
[[noreturn]] inline void end_run() {
  std::fflush(stdout);
  std::fflush(stderr);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  dart_abort(2);
  std::_Exit(2);  // dart_abort does not return; this keeps [[noreturn]] honest
}

// dash::init; if it throws, prints "<program>: error: <what>" and ends the run with exit
// status 2 (end_run). Collective.
inline void init(const char* program, int* argc, char*** argv) {
  try {
    dash::init(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    end_run();
  }
}

// For an error that may have hit this unit only: prints "<program>: unit <u>: error: <what>"
// and ends every unit with exit status 2 (end_run). Local; never returns.
[[noreturn]] inline void abort_run(const char* program, const char* what) {
  if (dash::is_initialized()) {
    std::fprintf(stderr, "%s: unit %d: error: %s\n", program, int(dash::myid().id), what);
  } else {
    std::fprintf(stderr, "%s: error: %s\n", program, what);
  }
  end_run();
}

// The same for an exception: its what().
[[noreturn]] inline void abort_run(const char* program, const std::exception& e) {
  abort_run(program, e.what());
}

// dash::finalize, then `status`; if finalize throws, one line and exit status 2 (end_run).
// Collective.
inline int finalize(const char* program, int status) {
  try {
    dash::finalize();
  } catch (const std::exception& e) {
    abort_run(program, e);
  }
  return status;
}

// The whole life of an example with options: dash::init; parse(*argc, *argv) gives the
// options (every unit parses the same arguments, so all agree on a UsageError); unit 0 prints
// `usage` if they ask for help (options.help), else body(options) gives the exit status.
// A UsageError (a bad command line, or a combination every unit checks alike) prints
// "<program>: error: <what>" on unit 0 and gives 2; anything else
// thrown may have hit this unit only and ends the run (abort_run). Then dash::finalize.
// Collective.
template <class Parse, class Body>
int run_with_options(const char* program, const char* usage, int* argc, char*** argv, Parse&& parse,
                     Body&& body) {
  init(program, argc, argv);
  const bool root = dash::myid().id == 0;
  int status = 0;
  try {
    const auto options = parse(*argc, *argv);
    if (options.help) {
      if (root) std::fputs(usage, stdout);
    } else {
      status = body(options);
    }
  } catch (const UsageError& e) {
    if (root) std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    status = 2;
  } catch (const std::exception& e) {
    abort_run(program, e);
  }
  return finalize(program, status);
}

// The same for an example that takes only --help (anything else is a UsageError): body()
// gives the exit status. Collective.
template <class Body>
int run(const char* program, const char* usage, int* argc, char*** argv, Body&& body) {
  struct HelpOnly {
    bool help;
  };
  return run_with_options(
      program, usage, argc, argv, [](int n, char** args) { return HelpOnly{help_only(n, args)}; },
      [&](const HelpOnly&) { return body(); });
}

}  // namespace examples

#endif  // EXAMPLES__COMMON__ERRORS_H_
