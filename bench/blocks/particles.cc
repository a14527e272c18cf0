// Particle tracing (examples/particles): iexchange() against rounds of
// foreach + exchange(), the IExchange paper's synthetic experiment.
// Particles traced with RK4 through a flow along +x over blocks_per_unit x
// units blocks; diagonal blocks compute each step 10 times (slow ratio 10).
// The target: iexchange >= 2x faster than exchange at 4 units x 8
// blocks.
//
//   BM_particles/<B>                    volume: 24^3 seeds over the whole
//                                       cube, the decomposer's blocks,
//                                       contiguous, iexchange chunk 0
//   BM_particles_inflow/<B>/<chunk>     inflow: 24^3 seeds in the slab
//                                       x < 1/64, so the particles cross
//                                       the x-layers as a front; otherwise
//                                       as volume, iexchange chunk <chunk>
//   BM_particles_inflow_slabs/<B>       inflow, 16^3 seeds, one block per
//                                       x-layer (x-divisions = units x B),
//                                       iexchange chunk 32: a pure
//                                       pipeline; every block is on the
//                                       diagonal, so all are slow
//   BM_particles_inflow_round_robin/<B> inflow, round-robin assignment
//                                       (every unit holds part of each
//                                       layer), iexchange chunk 32
//   (B, blocks per unit: 1, 2, 4, 8.)
//   BM_particles_ooc/<M>                volume, 8 blocks per unit, iexchange
//                                       with at most M of them in memory
//                                       (8: all; DASH_OOC_DIRECT=1) against
//                                       the same run with every block in
//                                       memory: ratio_vs_in_core, and the
//                                       bytes spilled and loaded per run
//
// Why several workloads: no protocol finishes before max(busiest unit's
// CPU, total CPU / cores), and exchange not before the sum over its rounds
// of that bound per round; their quotient (bound_exchange_over_any) is the
// most iexchange can gain, at most the core count. With volume seeding
// every unit is busy in every round and the quotient is about 1; with
// inflow seeding and contiguous assignment the front sits mostly on one
// unit per round, so exchange keeps about one core busy while iexchange
// pipelines the front through the units. On a 2-core node the quotient,
// hence any measured gain beyond noise, is at most 2 (less where the
// upstream units carry more work than total / cores: particles also leave
// through the side faces, so the front thins out downstream).
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
//                                  round, summed)
//   bound_exchange_over_any        bound_exchange_s / bound_any_s: the most
//                                  iexchange can gain here
//   iexchange_over_bound_any       iexchange_s / bound_any_s: 1.00 =
//                                  iexchange as fast as any protocol can be
//   exchange_other_cpu_s, iexchange_other_cpu_s
//                                  CPU seconds of all units besides advecting
//                                  (check runs): messages and waits that
//                                  spin (time taken from working units when
//                                  units outnumber cores)
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <mpi.h>
#include <workloads/particles/particles.h>

#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "../support/paired.h"

namespace {

constexpr int kSeeds = 24;      // seeds per axis
constexpr int kSlabSeeds = 16;  // seeds per axis, slabs (5 times the work
                                // per particle: every block is slow)
constexpr int kSlowRatio = 10;
constexpr int kPipelineChunk = 32;  // iexchange: particles per callback

// Traces `config` both ways on blocks_per_unit x units blocks, then times
// them against each other and sets the counters (see the top of this file).
// `workload` names the case in the label.
void compare(benchmark::State& state, const particles::Config& config, int blocks_per_unit,
             const std::string& workload) {
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
    if (exchange.bound_any > 0)
      c["iexchange_over_bound_any"] = double(c["iexchange_s"]) / exchange.bound_any;
  }
  const auto& div = t.decomposer().divisions();
  c["blocks_per_unit"] = blocks_per_unit;
  c["chunk"] = config.chunk;
  c["rounds"] = exchange.rounds;
  c["cpu_total_s"] = exchange.cpu_total;
  c["cpu_busiest_unit_s"] = exchange.cpu_busiest_unit;
  c["bound_any_s"] = exchange.bound_any;
  c["bound_exchange_s"] = exchange.bound_exchange;
  if (exchange.bound_any > 0)
    c["bound_exchange_over_any"] = exchange.bound_exchange / exchange.bound_any;
  c["exchange_other_cpu_s"] = exchange.cpu_other;
  c["iexchange_other_cpu_s"] = iexchange.cpu_other;
  state.SetLabel(workload + ", " + std::to_string(config.seeds) + "^3 particles, " +
                 std::to_string(div[0]) + "x" + std::to_string(div[1]) + "x" +
                 std::to_string(div[2]) + " blocks " + particles::name(config.assignment) +
                 ", slow ratio " + std::to_string(config.slow_ratio) + ", " +
                 std::to_string(exchange.cores) + " cores");
}

void BM_particles(benchmark::State& state) {
  particles::Config config;
  config.seeds = kSeeds;
  config.slow_ratio = kSlowRatio;
  compare(state, config, int(state.range(0)), "volume");
}

void BM_particles_inflow(benchmark::State& state) {
  particles::Config config;
  config.seeds = kSeeds;
  config.slow_ratio = kSlowRatio;
  config.seeding = particles::Seeding::inflow;
  config.chunk = int(state.range(1));
  compare(state, config, int(state.range(0)), "inflow");
}

void BM_particles_inflow_slabs(benchmark::State& state) {
  const int blocks_per_unit = int(state.range(0));
  particles::Config config;
  config.seeds = kSlabSeeds;
  config.slow_ratio = kSlowRatio;
  config.seeding = particles::Seeding::inflow;
  config.chunk = kPipelineChunk;
  config.x_divisions = blocks_per_unit * int(dash::size());
  compare(state, config, blocks_per_unit, "inflow, slabs");
}

void BM_particles_inflow_round_robin(benchmark::State& state) {
  particles::Config config;
  config.seeds = kSeeds;
  config.slow_ratio = kSlowRatio;
  config.seeding = particles::Seeding::inflow;
  config.chunk = kPipelineChunk;
  config.assignment = dash::bp::Assignment::round_robin;
  compare(state, config, int(state.range(0)), "inflow");
}

void BM_particles_ooc(benchmark::State& state) {
  constexpr int kBlocksPerUnit = 8;
  const std::size_t limit = std::size_t(state.range(0));
  setenv("DASH_OOC_DIRECT", "1", 1);  // read when the first store is made: the device
  particles::Config config;
  config.seeds = kSeeds;
  config.slow_ratio = kSlowRatio;
  std::unique_ptr<particles::Tracer> ooc, in_core;
  try {
    ooc = std::make_unique<particles::Tracer>(kBlocksPerUnit, config);
    in_core = std::make_unique<particles::Tracer>(kBlocksPerUnit, config);
    ooc->master().limit(limit);
    const particles::Result a = ooc->run(particles::Protocol::iexchange);
    const particles::Result b = in_core->run(particles::Protocol::iexchange);
    if (a.retired != b.retired || a.checksum != b.checksum)
      throw std::runtime_error("out of core and in memory disagree on particles or checksum");
  } catch (const std::exception& e) {
    unsetenv("DASH_OOC_DIRECT");
    state.SkipWithError(e.what());
    return;
  }
  particles::Tracer& o = *ooc;
  particles::Tracer& m = *in_core;
  const dash::bp::SpillCounters before = o.master().spill_counters();
  bench::run_paired(state, 1, "run",
                    bench::Side{"ooc", [&o] { o.run_iexchange(); }, [&o] { o.seed(); }},
                    {bench::Side{"in_core", [&m] { m.run_iexchange(); }, [&m] { m.seed(); }}},
                    bench::sleeping_barrier);
  const dash::bp::SpillCounters after = o.master().spill_counters();
  const double runs = double(state.iterations());
  state.counters["bytes_read_per_run"] = double(after.bytes_read - before.bytes_read) / runs;
  state.counters["bytes_written_per_run"] =
      double(after.bytes_written - before.bytes_written) / runs;
  state.SetLabel("volume, " + std::to_string(config.seeds) + "^3 particles, " +
                 std::to_string(kBlocksPerUnit) + " blocks per unit, " + std::to_string(limit) +
                 " in memory (O_DIRECT), iexchange, vs all in memory");
  unsetenv("DASH_OOC_DIRECT");
}

// Blocks per unit 1, 2, 4, 8, and an odd iteration count: the median of exchange / iexchange
// is then the inverse of the median of iexchange / exchange.
void PerBlockCount(benchmark::internal::Benchmark* b) {
  b->ArgName("blocks_per_unit");
  for (int blocks : {1, 2, 4, 8}) b->Arg(blocks);
  b->Iterations(7)->UseManualTime()->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_particles)->Apply(PerBlockCount);
BENCHMARK(BM_particles_ooc)
    ->ArgName("blocks_in_memory")
    ->Arg(8)
    ->Arg(4)
    ->Arg(2)
    ->Arg(1)
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_particles_inflow_slabs)->Apply(PerBlockCount);
BENCHMARK(BM_particles_inflow_round_robin)->Apply(PerBlockCount);

// Chunk 0 at B = 8 shows what the chunk buys: without it a block sends
// nothing before all its particles have left it.
BENCHMARK(BM_particles_inflow)
    ->ArgNames({"blocks_per_unit", "chunk"})
    ->Args({1, kPipelineChunk})
    ->Args({2, kPipelineChunk})
    ->Args({4, kPipelineChunk})
    ->Args({8, kPipelineChunk})
    ->Args({8, 0})
    ->Iterations(7)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
