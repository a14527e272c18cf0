// Small-item exchange: every block enqueues 20-byte items for random blocks,
// exchange() moves them, every block dequeues what it got. Baseline: the
// same exchange written by hand with MPI: items bucketed per destination
// unit into one send buffer (a counting pass, then a filling pass),
// MPI_Alltoall of counts, MPI_Alltoallv, and a pass over the received items.
// Both sides read the same precomputed destination blocks, build the same
// items and sum one field of every received item into a local. Counters: ns
// per item of each side and their ratio (target <= 1.2).
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/blocks/Master.h>
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
    ->Args({1, 1 << 16})
    ->Args({8, 1 << 16})
    ->Args({1, 1 << 19})
    ->Args({8, 1 << 19})
    ->Iterations(30)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
