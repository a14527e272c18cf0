// Particle tracing (examples/particles): iexchange() against rounds of
// foreach + exchange(), the IExchange paper's synthetic experiment.
// 24^3 particles traced with RK4 through a flow along +x over
// blocks_per_unit x units blocks; diagonal blocks compute each step 10
// times (slow ratio 10). The target: iexchange >= 2x faster than
// exchange at 4 units x 8 blocks.
//
//   BM_particles/<blocks per unit>   (1, 2, 4, 8)
//
// Both protocols first trace once (untimed) and must agree on particles and
// checksum. Then every iteration runs one pass of each (seeding untimed, a
// sleeping barrier before each pass, the order alternating). Counters (unit
// 0's times, medians over the iterations):
//   iexchange_s, exchange_s        seconds per run
//   exchange_over_iexchange        exchange / iexchange: 2.00 = iexchange
//                                  twice as fast (the target at 4 x 8)
//   ratio_vs_exchange              iexchange / exchange (bench::run_paired)
//   rounds                         exchange rounds
//   cpu_total_s, cpu_busiest_unit_s
//                                  advection CPU seconds (check run of
//                                  exchange): all units, the busiest unit
//   bound_any_s, bound_exchange_s  the least wall time on this node's cores
//                                  of any protocol (max(busiest unit, total /
//                                  cores)) and of exchange (that bound per
//                                  round, summed): the most iexchange can
//                                  gain is bound_exchange_s / bound_any_s
//   exchange_other_cpu_s, iexchange_other_cpu_s
//                                  CPU seconds of all units besides advecting
//                                  (check runs): messages and waits that
//                                  spin (time taken from working units when
//                                  units outnumber cores)
#include "../../examples/particles/particles.h"

#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <mpi.h>

#include <exception>
#include <memory>
#include <string>

#include "../support/paired.h"

namespace {

constexpr int kSeeds = 24;  // seeds per axis
constexpr int kSlowRatio = 10;

void BM_particles(benchmark::State& state) {
  const int blocks_per_unit = int(state.range(0));
  particles::Config config;
  config.seeds = kSeeds;
  config.slow_ratio = kSlowRatio;
  particles::Result exchange, iexchange;
  std::unique_ptr<particles::Tracer> tracer;
  try {
    tracer = std::make_unique<particles::Tracer>(blocks_per_unit, config);
    exchange = tracer->run(particles::Protocol::exchange);
    iexchange = tracer->run(particles::Protocol::iexchange);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  // The results are reduced over all units, so every unit decides alike.
  if (exchange.retired != iexchange.retired || exchange.checksum != iexchange.checksum) {
    state.SkipWithError("exchange and iexchange disagree on particles or checksum");
    return;
  }
  particles::Tracer& t = *tracer;
  bench::run_paired(state, 1, "run",
                    bench::Side{"iexchange", [&t] { t.run_iexchange(); }, [&t] { t.seed(); }},
                    {bench::Side{"exchange", [&t] { t.run_exchange(); }, [&t] { t.seed(); }}},
                    bench::sleeping_barrier);
  auto& c = state.counters;
  if (c.count("ns_per_run") != 0 && c.count("ratio_vs_exchange") != 0) {
    c["iexchange_s"] = double(c["ns_per_run"]) * 1e-9;
    c["exchange_s"] = double(c["exchange_ns_per_run"]) * 1e-9;
    c["exchange_over_iexchange"] = 1.0 / double(c["ratio_vs_exchange"]);
  }
  c["blocks_per_unit"] = blocks_per_unit;
  c["rounds"] = exchange.rounds;
  c["cpu_total_s"] = exchange.cpu_total;
  c["cpu_busiest_unit_s"] = exchange.cpu_busiest_unit;
  c["bound_any_s"] = exchange.bound_any;
  c["bound_exchange_s"] = exchange.bound_exchange;
  c["exchange_other_cpu_s"] = exchange.cpu_other;
  c["iexchange_other_cpu_s"] = iexchange.cpu_other;
  state.SetLabel("iexchange vs exchange, " + std::to_string(kSeeds) + "^3 particles, slow ratio " +
                 std::to_string(kSlowRatio) + ", " + std::to_string(exchange.cores) + " cores");
}

// An odd iteration count: the median of exchange / iexchange is then the
// inverse of the median of iexchange / exchange.
BENCHMARK(BM_particles)
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Arg(8)
    ->Iterations(7)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
