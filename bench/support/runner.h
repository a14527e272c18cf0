// How a benchmark binary runs its registered benchmarks under MPI: on every unit (collective
// benchmarks, unit 0 reports) or on unit 0 alone (one-sided ones, the other units only serve
// their memory and wait), with the report's context, and how its main() ends on an error.
#ifndef DASH_BENCH_SUPPORT_RUNNER_H_
#define DASH_BENCH_SUPPORT_RUNNER_H_

#include <benchmark/benchmark.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "paired.h"

namespace bench {

// Key/value pairs for the report's context.
using Context = std::vector<std::pair<std::string, std::string>>;

// (name, the value of environment variable `name`, or `unset` when it is not set).
inline std::pair<std::string, std::string> env_context(const char* name, const char* unset) {
  const char* value = std::getenv(name);
  return {name, value ? value : unset};
}

// How run_on_every_unit and run_on_unit_zero run the benchmarks.
struct RunOptions {
  Context context;  // besides "dart_units" (always added)
  // --benchmark_min_time when neither the command line nor BENCHMARK_MIN_TIME sets one
  // (nullptr: Google Benchmark's default).
  const char* default_min_time = nullptr;
  // Unit 0's display reporter (nullptr: the console's).
  benchmark::BenchmarkReporter* reporter = nullptr;
};

namespace internal {

// Prints nothing: the display reporter of units other than 0.
class SilentReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

// benchmark::Initialize with argv, plus the default minimum time, plus an empty
// --benchmark_out (last, so it overrides any given) unless `writes_file`.
inline void initialize(int argc, char** argv, const RunOptions& options, bool writes_file) {
  std::vector<char*> args(argv, argv + argc);
  std::string min_time, no_out = "--benchmark_out=";
  bool min_time_set = std::getenv("BENCHMARK_MIN_TIME") != nullptr;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--benchmark_min_time", 20) == 0) min_time_set = true;
  if (options.default_min_time && !min_time_set) {
    min_time = std::string("--benchmark_min_time=") + options.default_min_time;
    args.push_back(min_time.data());
  }
  if (!writes_file) args.push_back(no_out.data());
  int nargs = int(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&nargs, args.data());
}

// Unit 0's part: the context, then the benchmarks with options.reporter.
inline void run_reporting(int units, const RunOptions& options) {
  benchmark::AddCustomContext("dart_units", std::to_string(units));
#ifdef DASH_BENCH_BUILD
  // Google Benchmark's own "library_build_type" is that of Debian's libbenchmark (always
  // "debug" there): this one says how the measured code was built.
  benchmark::AddCustomContext("dash_build", DASH_BENCH_BUILD);
#endif
  for (const auto& [key, value] : options.context) benchmark::AddCustomContext(key, value);
  if (options.reporter)
    benchmark::RunSpecifiedBenchmarks(options.reporter);
  else
    benchmark::RunSpecifiedBenchmarks();
}

}  // namespace internal

// Runs the registered benchmarks on every unit (they are collective): unit `me` 0 reports and
// writes --benchmark_out, the others print nothing and write no file. Call between dash::init
// (or dart_init) and finalize. Collective over MPI_COMM_WORLD.
inline void run_on_every_unit(int argc, char** argv, int me, int units,
                              const RunOptions& options = {}) {
  internal::initialize(argc, argv, options, me == 0);
  if (me == 0) {
    internal::run_reporting(units, options);
  } else {
    internal::SilentReporter silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
}

// True when this node has a core for each of its units (hardware threads counted as the OS
// does): then idle units may spin in MPI without slowing the measuring one. Collective over
// MPI_COMM_WORLD (a communicator split by node).
inline bool core_per_unit() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int on_node = 1;
  MPI_Comm_size(node, &on_node);
  MPI_Comm_free(&node);
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 || unsigned(on_node) <= cores;
}

// How the units that only serve their memory wait in run_on_unit_zero: "spin" (in MPI_Test,
// so the MPI progresses one-sided operations that need the target, as on a real node where the
// target's owner computes in MPI calls or has a progress thread) when the node has a core per
// unit, else "sleep" (sleeping_barrier: their cores go to unit 0). DASH_BENCH_IDLE=spin|sleep
// overrides. Collective over MPI_COMM_WORLD.
inline std::string idle_mode() {
  const char* forced = std::getenv("DASH_BENCH_IDLE");
  const bool spare_cores = core_per_unit();  // collective: called on every unit
  if (forced && (std::strcmp(forced, "spin") == 0 || std::strcmp(forced, "sleep") == 0))
    return forced;
  if (forced && *forced != '\0')
    std::fprintf(stderr, "DASH_BENCH_IDLE='%s' is not spin or sleep: choosing by cores\n", forced);
  return spare_cores ? "spin" : "sleep";
}

// A barrier over MPI_COMM_WORLD that tests without pause: the waiting unit keeps its core
// and keeps the MPI progressing.
inline void spinning_barrier() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  int done = 0;
  while (MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) {
  }
}

// Runs the registered benchmarks on unit `me` 0 only (one-sided benchmarks: the others serve
// their memory); the other units wait as idle_mode() says meanwhile (context key
// "idle_units"). Collective over MPI_COMM_WORLD.
inline void run_on_unit_zero(int argc, char** argv, int me, int units,
                             const RunOptions& options = {}) {
  const std::string idle = idle_mode();
  if (me == 0) {
    RunOptions with_idle = options;
    with_idle.context.emplace_back("idle_units", idle);
    internal::initialize(argc, argv, with_idle, true);
    internal::run_reporting(units, with_idle);
    benchmark::Shutdown();
  }
  if (idle == "spin")
    spinning_barrier();
  else
    sleeping_barrier();
}

// The body of a benchmark's main(): body(), 0; an exception prints "<program>: <what>" and
// ends every unit (MPI_Abort with 1), since the others may wait in a collective.
template <class Body>
int guarded_main(const char* program, Body&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 0;
}

}  // namespace bench

#endif  // DASH_BENCH_SUPPORT_RUNNER_H_
