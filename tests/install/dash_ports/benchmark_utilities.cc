// A benchmark written the way DASH's bench.* programs are: dash::util::Timer calibrated and
// timing a loop, BenchmarkParams printing its header, pinning and parameters, Config read and
// set, DASH_ASSERT / DASH_LOG_DEBUG / DASH_THROW, TeamSpec::num_units(d), dash__toxstr of
// DASH_MPI_IMPL_ID, and std::cout / std::setw with nothing but <libdash.h> (through check.h)
// included: DASH's libdash.h brings <iostream> and <iomanip>, and DASH's programs rely on it.
#include "check.h"

typedef dash::util::Timer<dash::util::TimeMeasure::Clock> Timer;

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  Timer::Calibrate(0);

  dash::util::BenchmarkParams bench_params("benchmark_utilities");
  bench_params.set_output_width(72);
  bench_params.print_header();
  bench_params.print_pinning();
  auto bench_cfg = bench_params.config();
  CHECK(bench_cfg.env_hwloc);
  CHECK(dash::util::Config::get<bool>("DASH_ENABLE_HWLOC"));
  dash::util::Config::set("DASH_PORT_CHUNK_SIZE", "2K");
  CHECK(dash::util::Config::get<size_t>("DASH_PORT_CHUNK_SIZE_BYTES") == 2048);

  const size_t per_unit = 1000;
  dash::Array<double> a(per_unit * dash::size());
  Timer::timestamp_t ts_start = Timer::Now();
  Timer timer;
  std::fill(a.lbegin(), a.lend(), 1.0 + dash::myid());
  a.barrier();
  double sum = dash::accumulate(a.begin(), a.end(), 0.0);
  double elapsed_us = Timer::ElapsedSince(ts_start);
  CHECK(elapsed_us >= timer.Elapsed() - 1.0 && elapsed_us >= 0.0);
  const size_t n = dash::size();
  CHECK(sum == double(per_unit) * double(n * (n + 1) / 2));
  DASH_ASSERT(sum > 0.0);
  DASH_LOG_DEBUG("benchmark_utilities", "sum", sum);

  dash::TeamSpec<2> teamspec(dash::Team::All());
  teamspec.balance_extents();
  CHECK(teamspec.num_units(0) * teamspec.num_units(1) == n);

  if (dash::myid() == 0) {
    bench_params.print_section_start("Runtime arguments");
    bench_params.print_param("-n", "elements per unit", per_unit);
    bench_params.print_section_end();
    std::string mpi_impl = dash__toxstr(DASH_MPI_IMPL_ID);
    std::cout << std::setw(6) << "units"
              << "," << std::setw(9) << "mpi.impl"
              << "," << std::setw(12) << "time.us" << std::endl;
    std::cout << std::setw(6) << n << "," << std::setw(9) << mpi_impl << "," << std::fixed
              << std::setprecision(2) << std::setw(12) << elapsed_us << std::endl;
  }
  try {
    DASH_THROW(dash::exception::InvalidArgument, "bad size " << 7);
  } catch (const dash::exception::InvalidArgument& e) {
    CHECK(std::string(e.what()).find("] bad size 7") != std::string::npos);
  }
  a.barrier();
  report_ok("benchmark_utilities");
  dash::finalize();
}
