// bench/blocks: the block-parallel layer (dash::bp) against hand-written MPI.
// The benchmarks live in the other files of this folder and register
// themselves with BENCHMARK(...); every unit runs every benchmark (they are
// collective), unit 0 reports.
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/Master.h>
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "../support/runner.h"

int main(int argc, char** argv) {
  return bench::guarded_main("blocks", [&] {
    dash::init(&argc, &argv);
    bench::run_on_every_unit(argc, argv, int(dash::myid().id), int(dash::size()));
    MPI_Barrier(MPI_COMM_WORLD);
    dash::finalize();
  });
}
