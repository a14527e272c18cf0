// hot_potato_diy: the work of bench/hot_potato written against DIY's API (diy::Master,
// ContiguousAssigner, diy::Link, Master::iexchange), the baseline of scripts/bench_diy.py
// --workload hot-potato (DIY is not a dependency of the library: the script builds this file
// against a DIY source tree given to it).
//
// Same options as hot_potato (--blocks-per-unit, --particles, --max-hops, --reps, --threads,
// --verbose), same chain of blocks, same particles with the same hashed hop counts and
// directions, same polling barrier and allreduces around the timed call, same check, and the
// same lines on unit 0:
//   hot_potato units=U blocks=NB particles=N hops=H seconds=S checksum=X
// with --verbose also "hot_potato_calls calls=C" (callback calls, summed over units; DIY does
// not count its messages).
#include <mpi.h>
#include <sched.h>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <diy/assigner.hpp>
#include <diy/link.hpp>
#include <diy/master.hpp>
#include <diy/mpi.hpp>
#include <string>
#include <thread>
#include <vector>

#include "hot_potato_work.h"

using namespace hot_potato;

namespace {

// One block of the chain: particles still to start and what ended here.
struct Block {
  int gid = 0;
  bool started = false;
  std::uint64_t expected_particles = 0, expected_hops = 0;
  std::uint64_t finished_particles = 0, finished_hops = 0;
  std::uint64_t checksum = 0, calls = 0;

  // DIY's block factory functions (no storage: every block stays in memory).
  static void* create() { return new Block; }
  static void destroy(void* b) { delete static_cast<Block*>(b); }
};

}  // namespace

// Builds the chain of blocks and runs the repetitions; exit 1 if a check fails.
int main(int argc, char** argv) {
  diy::mpi::environment env(argc, argv);
  diy::mpi::communicator world;
  const Options o = parse_args("hot_potato_diy", argc, argv);
  const int me = world.rank(), units = world.size();
  const int nb = o.blocks_per_unit * units;
  if (nb < 2 || std::int64_t(nb) * o.particles > INT32_MAX) {
    if (me == 0) std::fprintf(stderr, "hot_potato_diy: needs 2 .. 2^31 / particles blocks\n");
    return 2;
  }
  const int P = o.particles, H = o.max_hops;

  diy::Master master(world, o.threads, -1, &Block::create, &Block::destroy);
  diy::ContiguousAssigner assigner(units, nb);
  std::vector<int> gids;
  assigner.local_gids(me, gids);
  for (int gid : gids) {
    auto* link = new diy::Link;
    for (int n : {gid - 1, gid + 1})
      if (n >= 0 && n < nb) link->add_neighbor(diy::BlockID{n, assigner.rank(n)});
    auto* b = new Block;
    b->gid = gid;
    master.add(gid, b, link);
  }

  // The iexchange callback: starts the block's particles once, passes on what arrived.
  auto bounce = [P, H, nb](Block* b, const diy::Master::ProxyWithLink& cp) -> bool {
    const diy::Link* l = cp.link();
    ++b->calls;
    if (!b->started) {
      b->started = true;
      for (int k = 0; k < P; ++k) {
        const Particle q{std::int32_t(b->gid * P + k), initial_hops(b->gid * P + k, H)};
        ++b->expected_particles;
        b->expected_hops += std::uint64_t(q.hops);
        cp.enqueue(l->target(l->find(next_block(b->gid, nb, q.id, q.hops))), q);
      }
    }
    for (int i = 0; i < l->size(); ++i) {
      const int from = l->target(i).gid;
      while (cp.incoming(from)) {
        Particle q;
        cp.dequeue(from, q);
        --q.hops;
        ++b->finished_hops;
        if (q.hops > 0) {
          cp.enqueue(l->target(l->find(next_block(b->gid, nb, q.id, q.hops))), q);
        } else {
          ++b->finished_particles;
          b->checksum += end_term(q.id, b->gid);
        }
      }
    }
    return true;
  };

  int failed = 0;
  for (int rep = 0; rep < o.reps; ++rep) {
    for (unsigned i = 0; i < master.size(); ++i) {
      Block* b = master.block<Block>(int(i));
      const int gid = b->gid;
      *b = Block();
      b->gid = gid;
    }
    MPI_Request barrier;
    MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
    complete(barrier, false);
    const auto start = std::chrono::steady_clock::now();
    master.iexchange(bounce);
    const double mine =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // expected particles, hops; finished particles, hops; checksum; calls
    std::uint64_t local[6] = {}, total[6] = {};
    for (unsigned i = 0; i < master.size(); ++i) {
      const Block* b = master.block<Block>(int(i));
      local[0] += b->expected_particles;
      local[1] += b->expected_hops;
      local[2] += b->finished_particles;
      local[3] += b->finished_hops;
      local[4] += b->checksum;
      local[5] += b->calls;
    }
    double seconds = 0;
    MPI_Request sums, slowest;
    MPI_Iallreduce(local, total, 6, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &sums);
    MPI_Iallreduce(&mine, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &slowest);
    complete(sums, true);
    complete(slowest, true);
    if (total[0] != std::uint64_t(nb) * std::uint64_t(P) || total[2] != total[0] ||
        total[3] != total[1]) {
      if (me == 0)
        std::fprintf(stderr,
                     "hot_potato_diy: finished %" PRIu64 " particles, %" PRIu64
                     " hops; expected %" PRIu64 ", %" PRIu64 "\n",
                     total[2], total[3], total[0], total[1]);
      failed = 1;
      break;
    }
    if (me == 0) {
      std::printf("hot_potato units=%d blocks=%d particles=%" PRIu64 " hops=%" PRIu64
                  " seconds=%.6f checksum=%016" PRIx64 "\n",
                  units, nb, total[0], total[1], seconds, total[4]);
      if (o.verbose) std::printf("hot_potato_calls calls=%" PRIu64 "\n", total[5]);
      std::fflush(stdout);
    }
  }
  return failed;
}
