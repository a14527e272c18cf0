// bench/hot_potato: particles passed along a chain of blocks by dash::bp::Master::iexchange,
// the workload of DIY's own iexchange test, as a plain MPI program (not a Google Benchmark);
// bench/diy/hot_potato_diy.cc does the same work with DIY and prints the same lines, and
// scripts/bench_diy.py --workload hot-potato runs the two side by side.
//
//   hot_potato [--blocks-per-unit B] [--particles P] [--max-hops H] [--reps R]
//              [--threads T] [--verbose]
//
// B blocks per unit (default 1) in a chain, block gid linked to gid - 1 and gid + 1, at least
// 2 blocks in all. Every block starts P particles (default 100), each with an id and 1..H
// hops (default 20). An iexchange callback sends its block's particles to neighbours on its
// first call, then takes in whatever arrived: a particle arriving spends one hop there and
// goes on to a neighbour while it has hops left, else it ends in that block. A particle's
// hop count (a hash of its id) and every direction it takes (a hash of id and hops left; at
// the chain's ends the only neighbour) never depend on the timing of messages, so every run
// does the same work and ends with the same particles in the same blocks. Each repetition
// times the iexchange alone (a barrier before it; the largest time of any unit), checks with
// an allreduce that the finished particles and hops are the expected ones (exit 1
// otherwise) and prints on unit 0
//   hot_potato units=U blocks=NB particles=N hops=H seconds=S checksum=X
// where X is the sum over particles of a hash of (id, gid of the block it ended in), the
// same whatever the order. --verbose adds, per repetition,
//   hot_potato_calls calls=C messages=M bytes=Y   (sums over units; C: callback calls,
//                                                  M, Y: Master::last_iexchange sends)
// The barrier and the allreduces around the timed call poll and give the core away
// (complete()): on more units than cores a spinning MPI_Barrier or MPI_Allreduce (MPICH)
// would hold a core that a unit still inside the iexchange needs.
#include <dash/Init.h>
#include <dash/bp/Master.h>
#include <mpi.h>
#include <sched.h>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "diy/hot_potato_work.h"

using namespace hot_potato;

namespace {

// One block of the chain: particles still to start and what ended here.
struct Block {
  int gid = 0;
  bool started = false;
  std::uint64_t expected_particles = 0, expected_hops = 0;
  std::uint64_t finished_particles = 0, finished_hops = 0;
  std::uint64_t checksum = 0, calls = 0;
};

// Runs the repetitions on this unit; returns the exit code (the same on every unit).
int run(const Options& o) {
  int me = 0, units = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &units);
  const int nb = o.blocks_per_unit * units;
  if (nb < 2 || std::int64_t(nb) * o.particles > INT32_MAX) {
    if (me == 0) std::fprintf(stderr, "hot_potato: needs 2 .. 2^31 / particles blocks\n");
    return 2;
  }
  const int P = o.particles, H = o.max_hops;

  dash::bp::Master<Block> master(nb);
  master.threads(o.threads);
  for (int gid : dash::bp::local_gids(me, nb, units, dash::bp::Assignment::contiguous)) {
    std::vector<int> link;
    if (gid > 0) link.push_back(gid - 1);
    if (gid < nb - 1) link.push_back(gid + 1);
    auto b = std::make_unique<Block>();
    b->gid = gid;
    master.add(gid, std::move(b), std::move(link));
  }

  // The iexchange callback: starts the block's particles once, passes on what arrived.
  auto bounce = [P, H, nb](Block& b, dash::bp::Proxy& p) {
    ++b.calls;
    if (!b.started) {
      b.started = true;
      for (int k = 0; k < P; ++k) {
        const Particle q{std::int32_t(b.gid * P + k), initial_hops(b.gid * P + k, H)};
        ++b.expected_particles;
        b.expected_hops += std::uint64_t(q.hops);
        p.enqueue(next_block(b.gid, nb, q.id, q.hops), q);
      }
    }
    for (int from : p.link()) {
      while (p.incoming(from) > 0) {
        Particle q;
        p.dequeue(from, q);
        --q.hops;
        ++b.finished_hops;
        if (q.hops > 0) {
          p.enqueue(next_block(b.gid, nb, q.id, q.hops), q);
        } else {
          ++b.finished_particles;
          b.checksum += end_term(q.id, b.gid);
        }
      }
    }
    return true;
  };

  int failed = 0;
  for (int rep = 0; rep < o.reps; ++rep) {
    for (std::size_t i = 0; i < master.size(); ++i) {
      Block& b = master.block(i);
      const int gid = b.gid;
      b = Block();
      b.gid = gid;
    }
    MPI_Request barrier;
    MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
    complete(barrier, false);
    const auto start = std::chrono::steady_clock::now();
    master.iexchange(bounce);
    const double mine =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // expected particles, hops; finished particles, hops; checksum; calls; messages; bytes
    std::uint64_t local[8] = {}, total[8] = {};
    for (std::size_t i = 0; i < master.size(); ++i) {
      const Block& b = master.block(i);
      local[0] += b.expected_particles;
      local[1] += b.expected_hops;
      local[2] += b.finished_particles;
      local[3] += b.finished_hops;
      local[4] += b.checksum;
      local[5] += b.calls;
    }
    local[6] = master.last_iexchange().messages;
    local[7] = master.last_iexchange().bytes;
    double seconds = 0;
    MPI_Request sums, slowest;
    MPI_Iallreduce(local, total, 8, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &sums);
    MPI_Iallreduce(&mine, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &slowest);
    complete(sums, true);
    complete(slowest, true);
    if (total[0] != std::uint64_t(nb) * std::uint64_t(P) || total[2] != total[0] ||
        total[3] != total[1]) {
      if (me == 0)
        std::fprintf(stderr,
                     "hot_potato: finished %" PRIu64 " particles, %" PRIu64
                     " hops; expected %" PRIu64 ", %" PRIu64 "\n",
                     total[2], total[3], total[0], total[1]);
      failed = 1;
      break;
    }
    if (me == 0) {
      std::printf("hot_potato units=%d blocks=%d particles=%" PRIu64 " hops=%" PRIu64
                  " seconds=%.6f checksum=%016" PRIx64 "\n",
                  units, nb, total[0], total[1], seconds, total[4]);
      if (o.verbose)
        std::printf("hot_potato_calls calls=%" PRIu64 " messages=%" PRIu64 " bytes=%" PRIu64 "\n",
                    total[5], total[6], total[7]);
      std::fflush(stdout);
    }
  }
  return failed;
}

}  // namespace

// Parses the options, runs the repetitions between dash::init and dash::finalize.
int main(int argc, char** argv) {
  const Options o = parse_args("hot_potato", argc, argv);
  int rc = 0;
  try {
    dash::init(&argc, &argv);
    rc = run(o);
    dash::finalize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hot_potato: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return rc;
}
