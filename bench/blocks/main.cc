// bench/blocks: the block-parallel layer (dash::bp) against hand-written MPI.
// The benchmarks live in the other files of this folder and register
// themselves with BENCHMARK(...); every unit runs every benchmark (they are
// collective), unit 0 reports.
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/blocks/Master.h>
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "../support/paired.h"

int main(int argc, char** argv) {
  try {
    dash::init(&argc, &argv);
    const int me = int(dash::myid().id);
    // Units other than 0 print nothing and write no file (an empty
    // --benchmark_out, last, overrides any given).
    std::vector<char*> args(argv, argv + argc);
    std::string no_out = "--benchmark_out=";
    if (me != 0) args.push_back(no_out.data());
    int nargs = int(args.size());
    args.push_back(nullptr);
    benchmark::Initialize(&nargs, args.data());
    if (me == 0) {
      benchmark::AddCustomContext("dart_units", std::to_string(dash::size()));
      benchmark::RunSpecifiedBenchmarks();
    } else {
      bench::SilentReporter silent;
      benchmark::RunSpecifiedBenchmarks(&silent);
    }
    benchmark::Shutdown();
    MPI_Barrier(MPI_COMM_WORLD);
    dash::finalize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "blocks: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 0;
}
