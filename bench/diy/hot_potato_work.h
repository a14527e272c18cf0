// bench/diy/hot_potato_work.h: what bench/hot_potato.cc (ours) and bench/diy/hot_potato_diy.cc
// (DIY's) share, so that both do the same work by construction: the options, the particle,
// the hashes that fix every particle's hops and directions, the checksum term, and the
// polling wait around the timed call. MPI and the standard library only.
#ifndef BENCH_DIY_HOT_POTATO_WORK_H_
#define BENCH_DIY_HOT_POTATO_WORK_H_

#include <mpi.h>
#include <sched.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "command_line.h"

namespace hot_potato {

struct Options {
  int blocks_per_unit = 1;
  int particles = 100;
  int max_hops = 20;
  int reps = 1;
  int threads = 1;
  bool verbose = false;
};

// A particle on its way: its id and the hops it has left.
struct Particle {
  std::int32_t id;
  std::int32_t hops;
};

// One block of the chain: particles still to start and what ended here.

// SplitMix64's finaliser: a well-mixed 64-bit hash of x.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The hop count particle `id` starts with: 1 .. max_hops.
std::int32_t initial_hops(std::int32_t id, int max_hops) {
  return 1 + std::int32_t(mix(0xa5a5000000000000ULL ^ std::uint64_t(std::uint32_t(id))) %
                          std::uint64_t(max_hops));
}

// The block a particle leaves gid for with `hops` left: the only neighbour at the chain's
// ends, else left or right by a hash of (id, hops).
int next_block(int gid, int nblocks, std::int32_t id, std::int32_t hops) {
  if (gid == 0) return 1;
  if (gid == nblocks - 1) return nblocks - 2;
  const std::uint64_t h = mix((std::uint64_t(std::uint32_t(id)) << 32) | std::uint32_t(hops));
  return (h & 1) ? gid + 1 : gid - 1;
}

// The checksum term of particle id ending in block gid.
std::uint64_t end_term(std::int32_t id, int gid) {
  return mix(0x5bd1e99500000000ULL ^ (std::uint64_t(std::uint32_t(id)) << 20) ^
             std::uint64_t(std::uint32_t(gid)));
}

// Completes request r by polling it. With more units than cores a blocking MPI call spins
// (MPICH's do) and takes the core from units still inside the iexchange; this yields the core
// between polls and, with `sleep`, sleeps 20 us after 64 polls (not before the timed call:
// a unit waking late would start late).
void complete(MPI_Request& r, bool sleep) {
  int done = 0;
  for (int polls = 0;; ++polls) {
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (done) return;
    if (sleep && polls >= 64)
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    else
      sched_yield();
  }
}

// The options of the command line (exit 2 on a bad one, naming `program`).
Options parse_args(const char* program, int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto is = [&](const char* name) { return diy_bench::is_option(a, name); };
    if (a == "--verbose") {
      o.verbose = true;
    } else if (is("--blocks-per-unit")) {
      o.blocks_per_unit =
          std::atoi(diy_bench::option_value(program, argc, argv, i, "--blocks-per-unit"));
    } else if (is("--particles")) {
      o.particles = std::atoi(diy_bench::option_value(program, argc, argv, i, "--particles"));
    } else if (is("--max-hops")) {
      o.max_hops = std::atoi(diy_bench::option_value(program, argc, argv, i, "--max-hops"));
    } else if (is("--reps")) {
      o.reps = std::atoi(diy_bench::option_value(program, argc, argv, i, "--reps"));
    } else if (is("--threads")) {
      o.threads = std::atoi(diy_bench::option_value(program, argc, argv, i, "--threads"));
    } else {
      std::fprintf(stderr, "%s: unknown option '%s'\n", program, argv[i]);
      std::exit(2);
    }
  }
  if (o.blocks_per_unit < 1 || o.particles < 0 || o.max_hops < 1 || o.reps < 1 || o.threads < 1) {
    std::fprintf(stderr, "%s: bad option value\n", program);
    std::exit(2);
  }
  return o;
}

}  // namespace hot_potato

#endif  // BENCH_DIY_HOT_POTATO_WORK_H_
