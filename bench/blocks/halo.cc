// Halo exchange over a 3-D periodic block grid, and the three ways to move
// a sparse exchange between units.
//
// BM_halo: a RegularDecomposer<3> of blocks_per_unit * P blocks (periodic,
// contiguous assignment); every block sends a face of `face_bytes` to each
// of its face neighbours with enqueue_view, exchange() moves them, every
// block reads what came in place. Baseline: the same transfers written by
// hand with MPI_Irecv / MPI_Isend per (block, neighbour) pair and one
// MPI_Waitall. Counters: ns per byte and ratio_vs_isend.
//
// BM_sparse_protocol: raw MPI, no library. Every unit sends `bytes` to each
// distinct face neighbour unit of the balanced 3-D periodic unit grid, by
//   dense     MPI_Alltoall of counts + MPI_Alltoallv (what exchange() did
//             before: O(P) per unit)
//   neighbor  MPI_Neighbor_alltoall of counts + MPI_Neighbor_alltoallv on an
//             MPI_Dist_graph_create_adjacent communicator built once
//   nbx       MPI_Issend to each neighbour, MPI_Improbe/MPI_Mrecv of what
//             comes, MPI_Ibarrier once the sends completed, done when the
//             barrier is (Hoefler, Siebert, Lumsdaine, "Scalable
//             communication protocols for dynamic sparse data exchange",
//             PPoPP 2010)
// Subject nbx; counters ratio_vs_dense and ratio_vs_neighbor.
//
// BM_exchange_model: what one halo exchange costs a unit as P grows, by
// emulating exchange()'s plan with the library's own decomposer and
// assignment (1 or 8 blocks per unit, 3-D periodic, face neighbours), for
// P up to 4096 without running P units. Per unit, the most over all units:
//   sparse_messages   packed messages sent (distinct destination units)
//   sparse_coll_steps messages of its ibarrier and 2-int allreduce
//                     (2 ceil(log2 P): dissemination / recursive doubling)
//   sparse_state      bytes of per-destination bookkeeping exchange() keeps
//                     (count, offset, fill per unit: O(P) words, zeroed
//                     each call; no O(P) messages)
//   dense_messages    what the alltoall of counts plus alltoallv of before
//                     sent: P - 1 each (pairwise algorithms, the default for
//                     large P in both MPIs)
// The timed part is the emulation itself; the counters are the result.
#include <benchmark/benchmark.h>
#include <dart/dart.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/Master.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "../support/paired.h"

namespace {

struct Face {
  int gid = 0;
  std::vector<char> out;              // the face it sends every neighbour
  std::vector<int> link;              // its face neighbours
  std::vector<std::vector<char>> in;  // the MPI baseline's receive buffers
  double sum = 0;
};

struct HaloCase {
  int nblocks = 0;
  std::unique_ptr<dash::bp::Master<Face>> master;
  std::vector<Face*> faces;
  std::vector<MPI_Request> requests;
};

std::unique_ptr<HaloCase> make_halo(int blocks_per_unit, std::size_t face_bytes) {
  auto c = std::make_unique<HaloCase>();
  const int units = int(dash::size()), me = int(dash::myid().id);
  const int nblocks = blocks_per_unit * units;
  dash::bp::RegularDecomposer<3> dec({{0, 0, 0}, {256, 256, 256}}, nblocks, {true, true, true});
  c->nblocks = nblocks;
  c->master = std::make_unique<dash::bp::Master<Face>>(nblocks);
  std::size_t pairs = 0;
  for (int gid : dash::bp::local_gids(me, nblocks, units, dash::bp::Assignment::contiguous)) {
    auto f = std::make_unique<Face>();
    f->gid = gid;
    f->out.assign(face_bytes, char(gid));
    f->link = dec.neighbors(gid);
    f->in.assign(f->link.size(), std::vector<char>(face_bytes));
    pairs += f->link.size();
    c->faces.push_back(f.get());
    const std::vector<int> link = f->link;
    c->master->add(gid, std::move(f), link);
  }
  c->requests.resize(2 * pairs);
  return c;
}

void halo_pass(HaloCase& c) {
  c.master->foreach ([](Face& f, dash::bp::Proxy& p) {
    for (int to : p.link()) p.enqueue_view(to, f.out.data(), f.out.size());
  });
  c.master->exchange();
  c.master->foreach ([](Face& f, dash::bp::Proxy& p) {
    double sum = 0;
    for (int from : p.link()) {
      const dash::bp::QueueView<char> v = p.dequeue_view<char>(from);
      sum += v[0] + v[v.size() - 1];
    }
    f.sum += sum;
  });
}

// Tag: sender gid * nblocks + receiver gid (nblocks <= 181 keeps it below 32768).
void halo_mpi_pass(HaloCase& c) {
  const int nb = c.nblocks;
  std::size_t k = 0;
  for (Face* f : c.faces)
    for (std::size_t i = 0; i < f->link.size(); ++i)
      MPI_Irecv(f->in[i].data(), int(f->in[i].size()), MPI_BYTE, c.master->owner(f->link[i]),
                f->link[i] * nb + f->gid, MPI_COMM_WORLD, &c.requests[k++]);
  for (Face* f : c.faces)
    for (int to : f->link)
      MPI_Isend(f->out.data(), int(f->out.size()), MPI_BYTE, c.master->owner(to), f->gid * nb + to,
                MPI_COMM_WORLD, &c.requests[k++]);
  MPI_Waitall(int(k), c.requests.data(), MPI_STATUSES_IGNORE);
  for (Face* f : c.faces) {
    double sum = 0;
    for (const auto& in : f->in) sum += in[0] + in.back();
    f->sum += sum;
  }
}

void BM_halo(benchmark::State& state) {
  const int blocks_per_unit = int(state.range(0));
  const std::size_t face_bytes = std::size_t(state.range(1));
  auto c = make_halo(blocks_per_unit, face_bytes);
  halo_pass(*c);  // warm: queues and buffers reach their sizes
  halo_mpi_pass(*c);
  double bytes = 0;
  for (Face* f : c->faces) bytes += double(f->link.size() * face_bytes);
  bench::run_paired(state, bytes, "byte", bench::Side{"exchange", [&] { halo_pass(*c); }},
                    {bench::Side{"isend", [&] { halo_mpi_pass(*c); }}},
                    [] { MPI_Barrier(MPI_COMM_WORLD); });
  double sum = 0;
  for (Face* f : c->faces) sum += f->sum;
  benchmark::DoNotOptimize(sum);
  state.counters["blocks_per_unit"] = blocks_per_unit;
  state.counters["face_bytes"] = double(face_bytes);
}

BENCHMARK(BM_halo)
    ->ArgNames({"blocks_per_unit", "face_bytes"})
    ->ArgsProduct({{1, 8}, {64, 4096, 256 << 10}})
    ->Iterations(50)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

// The distinct face neighbour units of this unit on the balanced periodic 3-D unit grid.
std::vector<int> neighbour_units(int me, int units) {
  std::array<int, 3> dims{};
  dart_balanced_dims(units, 3, dims.data());
  const std::array<int, 3> c{me / (dims[1] * dims[2]), me / dims[2] % dims[1], me % dims[2]};
  std::vector<int> out;
  for (int d = 0; d < 3; ++d)
    for (int step : {-1, 1}) {
      std::array<int, 3> n = c;
      n[d] = (n[d] + step + dims[d]) % dims[d];
      const int u = (n[0] * dims[1] + n[1]) * dims[2] + n[2];
      if (u != me) out.push_back(u);
    }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

struct SparseCase {
  int units = 1, me = 0;
  std::size_t bytes = 0;
  std::vector<int> nbr;  // distinct neighbour units (sources = destinations: symmetric)
  std::vector<char> send, recv;
  std::vector<int> counts_out, counts_in, displs_out, displs_in;  // dense: P entries
  std::vector<int> ncounts_out, ncounts_in, ndispls;              // neighbour: k entries
  std::vector<MPI_Request> requests;
  MPI_Comm graph = MPI_COMM_NULL;
  int round = 0;
  double sum = 0;
  ~SparseCase() {
    if (graph != MPI_COMM_NULL) MPI_Comm_free(&graph);
  }
};

std::unique_ptr<SparseCase> make_sparse(std::size_t bytes) {
  auto c = std::make_unique<SparseCase>();
  c->units = int(dash::size());
  c->me = int(dash::myid().id);
  c->bytes = bytes;
  c->nbr = neighbour_units(c->me, c->units);
  const std::size_t k = c->nbr.size(), P = std::size_t(c->units);
  c->send.assign(std::max<std::size_t>(1, k * bytes), char(c->me));
  c->recv.resize(std::max<std::size_t>(1, k * bytes));
  c->counts_out.assign(P, 0);
  c->counts_in.assign(P, 0);
  c->displs_out.assign(P, 0);
  c->displs_in.assign(P, 0);
  c->ncounts_out.assign(std::max<std::size_t>(1, k), int(bytes));
  c->ncounts_in.assign(std::max<std::size_t>(1, k), 0);
  c->ndispls.assign(std::max<std::size_t>(1, k), 0);
  for (std::size_t i = 0; i < k; ++i) c->ndispls[i] = int(i * bytes);
  c->requests.resize(std::max<std::size_t>(1, k));
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, int(k), c->nbr.data(), MPI_UNWEIGHTED, int(k),
                                 c->nbr.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c->graph);
  return c;
}

void dense_pass(SparseCase& c) {
  std::fill(c.counts_out.begin(), c.counts_out.end(), 0);
  for (std::size_t i = 0; i < c.nbr.size(); ++i) {
    c.counts_out[std::size_t(c.nbr[i])] = int(c.bytes);
    c.displs_out[std::size_t(c.nbr[i])] = int(i * c.bytes);
  }
  MPI_Alltoall(c.counts_out.data(), 1, MPI_INT, c.counts_in.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int at = 0;
  for (std::size_t u = 0; u < c.counts_in.size(); ++u) {
    c.displs_in[u] = at;
    at += c.counts_in[u];
  }
  MPI_Alltoallv(c.send.data(), c.counts_out.data(), c.displs_out.data(), MPI_BYTE, c.recv.data(),
                c.counts_in.data(), c.displs_in.data(), MPI_BYTE, MPI_COMM_WORLD);
  c.sum += c.recv[0];
}

void neighbor_pass(SparseCase& c) {
  MPI_Neighbor_alltoall(c.ncounts_out.data(), 1, MPI_INT, c.ncounts_in.data(), 1, MPI_INT, c.graph);
  MPI_Neighbor_alltoallv(c.send.data(), c.ncounts_out.data(), c.ndispls.data(), MPI_BYTE,
                         c.recv.data(), c.ncounts_in.data(), c.ndispls.data(), MPI_BYTE, c.graph);
  c.sum += c.recv[0];
}

void nbx_pass(SparseCase& c) {
  const int tag = 100 + (c.round++ & 1);  // a unit already in the next pass cannot be mistaken
  const std::size_t k = c.nbr.size();
  for (std::size_t i = 0; i < k; ++i)
    MPI_Issend(c.send.data() + i * c.bytes, int(c.bytes), MPI_BYTE, c.nbr[i], tag, MPI_COMM_WORLD,
               &c.requests[i]);
  MPI_Request barrier = MPI_REQUEST_NULL;
  bool in_barrier = false;
  std::size_t received = 0;
  for (;;) {
    int found = 0;
    MPI_Message message;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &found, &message, &status);
    if (found) {
      int n = 0;
      MPI_Get_count(&status, MPI_BYTE, &n);
      MPI_Mrecv(c.recv.data() + (received++ % std::max<std::size_t>(1, k)) * c.bytes, n, MPI_BYTE,
                &message, MPI_STATUS_IGNORE);
    }
    int done = 0;
    if (!in_barrier) {
      MPI_Testall(int(k), c.requests.data(), &done, MPI_STATUSES_IGNORE);
      if (done) {
        MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
        in_barrier = true;
      }
    } else {
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
      if (done) break;
    }
  }
  c.sum += c.recv[0];
}

void BM_sparse_protocol(benchmark::State& state) {
  auto c = make_sparse(std::size_t(state.range(0)));
  dense_pass(*c);
  neighbor_pass(*c);
  nbx_pass(*c);
  bench::run_paired(state, double(c->nbr.size() * c->bytes), "byte",
                    bench::Side{"nbx", [&] { nbx_pass(*c); }},
                    {bench::Side{"dense", [&] { dense_pass(*c); }},
                     bench::Side{"neighbor", [&] { neighbor_pass(*c); }}},
                    [] { MPI_Barrier(MPI_COMM_WORLD); });
  benchmark::DoNotOptimize(c->sum);
  state.counters["neighbour_units"] = double(c->nbr.size());
}

BENCHMARK(BM_sparse_protocol)
    ->ArgName("bytes")
    ->Arg(64)
    ->Arg(4096)
    ->Arg(256 << 10)
    ->Iterations(200)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_exchange_model(benchmark::State& state) {
  const int units = int(state.range(0)), per_unit = int(state.range(1));
  const int nblocks = units * per_unit;
  std::size_t most = 0;
  for (auto _ : state) {
    const auto start = bench::Clock::now();
    dash::bp::RegularDecomposer<3> dec({{0, 0, 0}, {1 << 12, 1 << 12, 1 << 12}}, nblocks,
                                       {true, true, true});
    std::vector<int> seen(std::size_t(units), -1);
    most = 0;
    for (int u = 0; u < units; ++u) {
      std::size_t messages = 0;
      for (int gid : dash::bp::local_gids(u, nblocks, units, dash::bp::Assignment::contiguous))
        for (int to : dec.neighbors(gid)) {
          const int dest = dash::bp::owner(to, nblocks, units, dash::bp::Assignment::contiguous);
          if (dest != u && seen[std::size_t(dest)] != u) {
            seen[std::size_t(dest)] = u;
            ++messages;
          }
        }
      most = std::max(most, messages);
    }
    state.SetIterationTime(std::chrono::duration<double>(bench::Clock::now() - start).count());
  }
  int log2p = 0;
  while ((1 << log2p) < units) ++log2p;
  state.counters["units"] = units;
  state.counters["sparse_messages"] = double(most);
  state.counters["sparse_coll_steps"] = 2.0 * log2p;
  state.counters["sparse_state"] = 3.0 * sizeof(std::size_t) * units;
  state.counters["dense_messages"] = 2.0 * (units - 1);
}

BENCHMARK(BM_exchange_model)
    ->ArgNames({"units", "blocks_per_unit"})
    ->ArgsProduct({{8, 64, 512, 4096}, {1, 8}})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
