// Small-item exchange: every block enqueues 20-byte items for random blocks,
// exchange() moves them, every block dequeues what it got. Baseline: the
// same exchange written by hand with MPI: items bucketed per destination
// unit into one send buffer (a counting pass, then a filling pass),
// MPI_Alltoall of counts, MPI_Alltoallv, and a pass over the received items.
// Both sides read the same precomputed destination blocks, build the same
// items and sum one field of every received item into a local. Counters: ns
// per item of each side and their ratio (target <= 1.2).
//
// Big arrays (BM_arrays): every block sends one array of doubles to each of
// its two ring neighbours (blocks spread over the units, so most go to
// another unit) and reads what came in place (dequeue_view). Subject:
// enqueue_view (sent from the block's memory); baselines: enqueue (copied
// into the queue) and the same transfers written by hand with MPI_Isend /
// MPI_Irecv between the arrays' memory (received into a buffer per
// neighbour, summed in place as well).
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/Master.h>
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "../support/paired.h"

namespace {

struct Item {
  std::int32_t from, to, seq;
  float payload[2];
};
static_assert(sizeof(Item) == 20, "a 20-byte item");

struct Cell {
  int gid = 0;
  std::vector<int> targets;  // destination block of each item this block sends
  double sum = 0;
};

struct ExchangeCase {
  int units = 1, me = 0, nblocks = 0;
  std::unique_ptr<dash::bp::Master<Cell>> master;
  // Baseline state, allocated once.
  std::size_t nitems = 0;                        // items this unit sends
  std::vector<int> gids;                         // the local blocks, in order
  std::vector<const std::vector<int>*> targets;  // their destinations (the cells')
  std::vector<int> block_owner;                  // unit of every gid
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs, fill;
  std::vector<Item> send, recv;
  double sum = 0;
  MPI_Datatype item_type = MPI_DATATYPE_NULL;

  ~ExchangeCase() {
    if (item_type != MPI_DATATYPE_NULL) MPI_Type_free(&item_type);
  }
};

std::unique_ptr<ExchangeCase> make_case(int blocks_per_unit, int items_per_unit) {
  auto c = std::make_unique<ExchangeCase>();
  c->units = int(dash::size());
  c->me = int(dash::myid().id);
  c->nblocks = blocks_per_unit * c->units;
  c->master = std::make_unique<dash::bp::Master<Cell>>(c->nblocks);
  const int per_block = items_per_unit / blocks_per_unit;
  for (int gid :
       dash::bp::local_gids(c->me, c->nblocks, c->units, dash::bp::Assignment::contiguous)) {
    auto cell = std::make_unique<Cell>();
    cell->gid = gid;
    std::mt19937 rng(unsigned(gid) * 7919u + 1);
    for (int k = 0; k < per_block; ++k) {
      const int to = int(rng() % unsigned(c->nblocks));
      cell->targets.push_back(to);
    }
    c->nitems += cell->targets.size();
    c->gids.push_back(gid);
    c->targets.push_back(&cell->targets);
    c->master->add(gid, std::move(cell), {});
  }
  for (int gid = 0; gid < c->nblocks; ++gid) c->block_owner.push_back(c->master->owner(gid));
  const std::size_t u = std::size_t(c->units);
  c->send_counts.assign(u, 0);
  c->send_displs.assign(u, 0);
  c->recv_counts.assign(u, 0);
  c->recv_displs.assign(u, 0);
  c->fill.assign(u, 0);
  c->send.resize(c->nitems);
  c->recv.resize(c->nitems * 4 + 1024);  // room for skewed receives
  MPI_Type_contiguous(int(sizeof(Item)), MPI_BYTE, &c->item_type);
  MPI_Type_commit(&c->item_type);
  return c;
}

// The dash side: enqueue, exchange, dequeue.
void dash_pass(ExchangeCase& c) {
  c.master->foreach ([](Cell& cell, dash::bp::Proxy& p) {
    int k = 0;
    for (int to : cell.targets) {
      p.enqueue(to, Item{cell.gid, to, k, {float(k), 1.f}});
      ++k;
    }
  });
  c.master->exchange();
  c.master->foreach ([](Cell& cell, dash::bp::Proxy& p) {
    double sum = 0;  // in a register, as on the MPI side
    for (int from : p.incoming_from())
      while (p.incoming(from) > 0) {
        Item it;
        p.dequeue(from, it);
        sum += it.payload[0];
      }
    cell.sum += sum;
  });
}

// The hand-written side: bucket, alltoall counts, alltoallv, read.
void mpi_pass(ExchangeCase& c) {
  const std::size_t units = std::size_t(c.units);
  std::fill(c.send_counts.begin(), c.send_counts.end(), 0);
  for (const std::vector<int>* targets : c.targets)
    for (int to : *targets) ++c.send_counts[std::size_t(c.block_owner[std::size_t(to)])];
  for (std::size_t u = 0, at = 0; u < units; ++u) {
    c.send_displs[u] = int(at);
    c.fill[u] = int(at);
    at += std::size_t(c.send_counts[u]);
  }
  for (std::size_t b = 0; b < c.gids.size(); ++b) {
    int k = 0;
    for (int to : *c.targets[b]) {
      const Item it{c.gids[b], to, k, {float(k), 1.f}};
      c.send[std::size_t(c.fill[std::size_t(c.block_owner[std::size_t(to)])]++)] = it;
      ++k;
    }
  }
  MPI_Alltoall(c.send_counts.data(), 1, MPI_INT, c.recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::size_t total = 0;
  for (std::size_t u = 0; u < units; ++u) {
    c.recv_displs[u] = int(total);
    total += std::size_t(c.recv_counts[u]);
  }
  if (total > c.recv.size()) c.recv.resize(total);  // never in practice (4x reserve)
  MPI_Alltoallv(c.send.data(), c.send_counts.data(), c.send_displs.data(), c.item_type,
                c.recv.data(), c.recv_counts.data(), c.recv_displs.data(), c.item_type,
                MPI_COMM_WORLD);
  double sum = 0;
  for (std::size_t i = 0; i < total; ++i) sum += c.recv[i].payload[0];
  c.sum += sum;
}

void BM_small_items(benchmark::State& state) {
  const int blocks_per_unit = int(state.range(0));
  const int items_per_unit = int(state.range(1));
  auto c = make_case(blocks_per_unit, items_per_unit);
  // Warm both sides (buffers reach their sizes).
  dash_pass(*c);
  mpi_pass(*c);
  bench::run_paired(state, double(c->nitems), "item", bench::Side{"dash", [&] { dash_pass(*c); }},
                    {bench::Side{"alltoallv", [&] { mpi_pass(*c); }}},
                    [] { MPI_Barrier(MPI_COMM_WORLD); });
  benchmark::DoNotOptimize(c->sum);
  state.counters["blocks_per_unit"] = blocks_per_unit;
}

BENCHMARK(BM_small_items)
    ->ArgNames({"blocks_per_unit", "items_per_unit"})
    ->Args({1, 1 << 16})
    ->Args({8, 1 << 16})
    ->Args({1, 1 << 19})
    ->Args({8, 1 << 19})
    ->Iterations(30)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

struct Ring {
  int gid = 0;
  std::vector<double> out;               // what it sends each neighbour
  std::vector<double> in_prev, in_next;  // the MPI baseline's receive buffers
  double sum = 0;
};

struct ArraysCase {
  int units = 1, me = 0, nblocks = 0;
  std::unique_ptr<dash::bp::Master<Ring>> master;
  std::vector<Ring*> rings;
  std::vector<MPI_Request> requests;
};

std::unique_ptr<ArraysCase> make_arrays(int blocks_per_unit, std::size_t doubles) {
  auto c = std::make_unique<ArraysCase>();
  c->units = int(dash::size());
  c->me = int(dash::myid().id);
  c->nblocks = blocks_per_unit * c->units;
  // Round robin: a block's ring neighbours are on other units (from 2 units).
  c->master =
      std::make_unique<dash::bp::Master<Ring>>(c->nblocks, dash::bp::Assignment::round_robin);
  for (int gid :
       dash::bp::local_gids(c->me, c->nblocks, c->units, dash::bp::Assignment::round_robin)) {
    auto r = std::make_unique<Ring>();
    r->gid = gid;
    r->out.assign(doubles, double(gid));
    r->in_prev.resize(doubles);
    r->in_next.resize(doubles);
    c->rings.push_back(r.get());
    const int nb = c->nblocks;
    c->master->add(gid, std::move(r), {(gid + 1) % nb, (gid + nb - 1) % nb});
  }
  c->requests.resize(4 * c->rings.size());
  return c;
}

// The dash side: each block sends `out` to both neighbours, then reads.
void arrays_pass(ArraysCase& c, bool view) {
  c.master->foreach ([view](Ring& r, dash::bp::Proxy& p) {
    for (int to : p.link()) {
      if (view)
        p.enqueue_view(to, r.out.data(), r.out.size());
      else
        p.enqueue(to, r.out.data(), r.out.size());
    }
  });
  c.master->exchange();
  c.master->foreach ([](Ring& r, dash::bp::Proxy& p) {
    double sum = 0;
    for (int from : p.link()) {
      const dash::bp::QueueView<double> v = p.dequeue_view<double>(from);
      sum += v[0] + v[v.size() - 1];
    }
    r.sum += sum;
  });
}

// The hand-written side: one Irecv and one Isend per neighbour of every
// block (tag: the receiving block's side), then a wait and the same reads.
void arrays_mpi_pass(ArraysCase& c) {
  const int nb = c.nblocks;
  std::size_t k = 0;
  for (Ring* r : c.rings) {
    const int prev = (r->gid + nb - 1) % nb, next = (r->gid + 1) % nb;
    const int n = int(r->out.size());
    // Tag = the sender's gid * 2 + (0: to its next, 1: to its previous).
    MPI_Irecv(r->in_prev.data(), n, MPI_DOUBLE, c.master->owner(prev), prev * 2, MPI_COMM_WORLD,
              &c.requests[k++]);
    MPI_Irecv(r->in_next.data(), n, MPI_DOUBLE, c.master->owner(next), next * 2 + 1, MPI_COMM_WORLD,
              &c.requests[k++]);
  }
  for (Ring* r : c.rings) {
    const int prev = (r->gid + nb - 1) % nb, next = (r->gid + 1) % nb;
    const int n = int(r->out.size());
    MPI_Isend(r->out.data(), n, MPI_DOUBLE, c.master->owner(next), r->gid * 2, MPI_COMM_WORLD,
              &c.requests[k++]);
    MPI_Isend(r->out.data(), n, MPI_DOUBLE, c.master->owner(prev), r->gid * 2 + 1, MPI_COMM_WORLD,
              &c.requests[k++]);
  }
  MPI_Waitall(int(k), c.requests.data(), MPI_STATUSES_IGNORE);
  for (Ring* r : c.rings)
    r->sum += r->in_prev[0] + r->in_prev.back() + r->in_next[0] + r->in_next.back();
}

void BM_arrays(benchmark::State& state) {
  const int blocks_per_unit = int(state.range(0));
  const std::size_t doubles = std::size_t(state.range(1)) / sizeof(double);
  if (blocks_per_unit * int(dash::size()) < 3) {
    state.SkipWithError("BM_arrays needs a ring of at least 3 blocks");
    return;
  }
  auto c = make_arrays(blocks_per_unit, doubles);
  arrays_pass(*c, true);  // warm: queue and receive buffers reach their sizes
  arrays_pass(*c, false);
  arrays_mpi_pass(*c);
  const double bytes = double(2 * c->rings.size() * doubles * sizeof(double));
  bench::run_paired(state, bytes, "byte",
                    bench::Side{"enqueue_view", [&] { arrays_pass(*c, true); }},
                    {bench::Side{"enqueue", [&] { arrays_pass(*c, false); }},
                     bench::Side{"isend", [&] { arrays_mpi_pass(*c); }}},
                    [] { MPI_Barrier(MPI_COMM_WORLD); });
  double sum = 0;
  for (Ring* r : c->rings) sum += r->sum;
  benchmark::DoNotOptimize(sum);
  state.counters["blocks_per_unit"] = blocks_per_unit;
  state.counters["array_bytes"] = double(doubles * sizeof(double));
}

BENCHMARK(BM_arrays)
    ->ArgNames({"blocks_per_unit", "bytes"})
    ->Args({2, 1 << 16})
    ->Args({2, 1 << 20})
    ->Args({2, 16 << 20})
    ->Args({8, 1 << 20})
    ->Iterations(30)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
