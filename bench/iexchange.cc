// bench/iexchange: what one block call of dash::bp::Master::iexchange costs as the unit count
// grows while every block keeps two neighbours (a ring of blocks, tokens passed on).
//
// BM_iexchange_ring/<blocks per unit>/<tokens per block>: every block starts with that many
// tokens of 4 * P hops each (P the unit count); a block call forwards the tokens it received
// to its next block (one message per call), so every call has work and the neighbours stay
// two whatever P is. Counters, per block call of the measuring unit (unit 0; the work is the
// same on every unit):
//   buffers_visited  per-unit send buffers iexchange looked at to route the call's queues
//                    (its routing loop; Master::last_iexchange)
//   alloc_bytes      bytes malloc'd on the calling thread during the iexchange (every
//                    malloc, calloc and realloc of the process's main thread, counted here)
//   allocs           those calls
//   own_alloc_bytes  the same outside MPI's calls (MPI_Issend, _Test, _Improbe, _Mrecv,
//   own_allocs       _Ibarrier, _Iallreduce ... wrapped here through the profiling interface):
//                    what the library itself allocates
//   us               wall time (the slowest unit's iexchange / its block calls; with more
//                    units than cores this is the scheduler's share, not the library's work)
// scripts/bench_iexchange.py runs it at 2-64 units (oversubscribed: count work, not time).
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/Master.h>
#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "support/runner.h"

// Counting allocations of the main thread: glibc's own entry points behind ours.
extern "C" void* __libc_malloc(std::size_t);
extern "C" void* __libc_calloc(std::size_t, std::size_t);
extern "C" void* __libc_realloc(void*, std::size_t);

namespace {
thread_local bool counting = false;
thread_local int in_mpi = 0;  // inside one of the MPI calls below
thread_local std::uint64_t counted_bytes = 0, counted_calls = 0;  // all
thread_local std::uint64_t own_bytes = 0, own_calls = 0;          // outside MPI
inline void count(std::size_t n) {
  if (!counting) return;
  counted_bytes += n;
  ++counted_calls;
  if (in_mpi > 0) return;
  own_bytes += n;
  ++own_calls;
}
// Marks the time inside an MPI call (its own allocations are the MPI's).
struct InMpi {
  InMpi() { ++in_mpi; }
  ~InMpi() { --in_mpi; }
};
}  // namespace

// The MPI calls of iexchange's path, through the profiling interface: what they allocate is
// counted apart from the library's own allocations.
extern "C" {
int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  InMpi in;
  return PMPI_Issend(buf, count, type, dest, tag, comm, request);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  InMpi in;
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}
int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  InMpi in;
  return PMPI_Test(request, flag, status);
}
int MPI_Testall(int n, MPI_Request* requests, int* flag, MPI_Status* statuses) {
  InMpi in;
  return PMPI_Testall(n, requests, flag, statuses);
}
int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                MPI_Status* status) {
  InMpi in;
  return PMPI_Improbe(source, tag, comm, flag, message, status);
}
int MPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  InMpi in;
  return PMPI_Mrecv(buf, count, type, message, status);
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  InMpi in;
  return PMPI_Ibarrier(comm, request);
}
int MPI_Iallreduce(const void* in_buf, void* out_buf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
  InMpi in;
  return PMPI_Iallreduce(in_buf, out_buf, count, type, op, comm, request);
}
}

extern "C" void* malloc(std::size_t n) {
  count(n);
  return __libc_malloc(n);
}
extern "C" void* calloc(std::size_t k, std::size_t n) {
  count(k * n);
  return __libc_calloc(k, n);
}
extern "C" void* realloc(void* p, std::size_t n) {
  count(n);
  return __libc_realloc(p, n);
}

namespace {

// A block of the ring: the tokens it retired (arrived with no hops left), and its token
// buffers, kept from call to call so that the counts are the library's.
struct Hop {
  int gid = 0;
  bool started = false;
  std::uint64_t retired = 0;
  std::vector<int> in, out;
};

struct RingCase {
  int units = 1, me = 0, nblocks = 0, tokens = 0, hops = 0;
  std::unique_ptr<dash::bp::Master<Hop>> master;
};

std::unique_ptr<RingCase> make_ring(int blocks_per_unit, int tokens) {
  auto c = std::make_unique<RingCase>();
  c->units = int(dash::size());
  c->me = int(dash::myid().id);
  c->nblocks = blocks_per_unit * c->units;
  c->tokens = tokens;
  c->hops = 4 * c->units;
  c->master = std::make_unique<dash::bp::Master<Hop>>(c->nblocks);
  for (int gid :
       dash::bp::local_gids(c->me, c->nblocks, c->units, dash::bp::Assignment::contiguous)) {
    auto hop = std::make_unique<Hop>();
    hop->gid = gid;
    const int prev = (gid + c->nblocks - 1) % c->nblocks, next = (gid + 1) % c->nblocks;
    c->master->add(gid, std::move(hop), {prev, next});
  }
  return c;
}

// One iexchange: every token makes c.hops hops along the ring. Collective.
void pass_tokens(RingCase& c) {
  c.master->foreach ([](Hop& h, dash::bp::Proxy&) {
    h.started = false;
    h.retired = 0;
  });
  const int tokens = c.tokens, hops = c.hops, nblocks = c.nblocks;
  c.master->iexchange([=](Hop& h, dash::bp::Proxy& p) {
    const int next = (h.gid + 1) % nblocks, prev = (h.gid + nblocks - 1) % nblocks;
    h.out.clear();
    if (!h.started) {
      h.started = true;
      h.out.assign(std::size_t(tokens), hops);
    }
    while (p.incoming(prev) > 0) {  // every message that came
      p.dequeue(prev, h.in);
      for (int left : h.in) {
        if (left <= 1)
          ++h.retired;
        else
          h.out.push_back(left - 1);
      }
    }
    if (!h.out.empty()) p.enqueue(next, h.out);
    return true;
  });
}

void BM_iexchange_ring(benchmark::State& state) {
  auto c = make_ring(int(state.range(0)), int(state.range(1)));
  if (c->nblocks < 2) {
    state.SkipWithError("needs 2 blocks");
    return;
  }
  pass_tokens(*c);  // warm: buffers reach their sizes
  double calls = 0, visited = 0, bytes = 0, allocs = 0, own = 0, own_allocs = 0, seconds = 0;
  for (auto _ : state) {
    MPI_Barrier(MPI_COMM_WORLD);
    counted_bytes = counted_calls = own_bytes = own_calls = 0;
    counting = true;
    const auto t0 = std::chrono::steady_clock::now();
    pass_tokens(*c);
    const double mine =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    counting = false;
    double slowest = mine;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    state.SetIterationTime(slowest);
    const auto stats = c->master->last_iexchange();
    calls += double(stats.block_calls);
    visited += double(stats.buffers_visited);
    bytes += double(counted_bytes);
    allocs += double(counted_calls);
    own += double(own_bytes);
    own_allocs += double(own_calls);
    seconds += slowest;
  }
  std::uint64_t retired = 0, all_retired = 0;
  c->master->foreach ([&](Hop& h, dash::bp::Proxy&) { retired += h.retired; });
  MPI_Allreduce(&retired, &all_retired, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (all_retired != std::uint64_t(c->nblocks) * std::uint64_t(c->tokens)) {
    state.SkipWithError("tokens lost");
    return;
  }
  state.counters["units"] = c->units;
  state.counters["block_calls"] = calls / double(state.iterations());
  state.counters["buffers_visited"] = visited / calls;
  state.counters["alloc_bytes"] = bytes / calls;
  state.counters["allocs"] = allocs / calls;
  state.counters["own_alloc_bytes"] = own / calls;
  state.counters["own_allocs"] = own_allocs / calls;
  state.counters["us"] = 1e6 * seconds / calls;
}

BENCHMARK(BM_iexchange_ring)
    ->ArgNames({"blocks_per_unit", "tokens"})
    ->Args({1, 1})
    ->Args({1, 16})
    ->Args({4, 16})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  return bench::guarded_main("iexchange", [&] {
    dash::init(&argc, &argv);
    bench::run_on_every_unit(argc, argv, int(dash::myid().id), int(dash::size()));
    MPI_Barrier(MPI_COMM_WORLD);
    dash::finalize();
  });
}
