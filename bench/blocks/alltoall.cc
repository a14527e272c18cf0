// dash::bp::all_to_all against the same all-to-all written with MPI's
// collectives:
//   BM_all_to_all/<k>/<items per block>  4 blocks per unit, each holding
//       that many items of 64 bytes; every item goes to the block its hash
//       picks (of all blocks), through k-ary rounds of swap partners
//       (log_k(blocks) rounds; the items are copied once per round)
//     mpi_alltoallv  the items packed by destination unit (a count pass and
//                    a placing pass), MPI_Alltoall of the counts,
//                    MPI_Alltoallv of the items, each received item put into
//                    its block
// Both sides start from the same blocks (restored untimed before each pass)
// and are checked once to end with the same items in every block. Counters:
// ns per item (items of all blocks of the calling unit) of each side and
// ratio_vs_mpi_alltoallv (median of dash / MPI).
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/AllToAll.h>
#include <dash/bp/Master.h>
#include <mpi.h>
#include <workloads/Mix.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../support/paired.h"

namespace {

using examples::mix64;

struct Item {
  std::uint64_t id;
  std::uint64_t payload[7];
};

struct Cell {
  int gid = 0;
  std::vector<Item> items;
};

constexpr int kBlocksPerUnit = 4;

struct AllToAllCase {
  int units = 1, me = 0, nb = 0;
  std::size_t items = 0;  // per block
  std::unique_ptr<dash::bp::Master<Cell>> master;
  std::vector<std::vector<Item>> input;  // per local block, never changed
  std::vector<std::vector<Item>> mpi_blocks;
  std::vector<Item> send, recv;
  std::vector<int> send_counts, recv_counts, send_displs, recv_displs, fill;  // in items
  MPI_Datatype item_type = MPI_DATATYPE_NULL;                                 // sizeof(Item) bytes

  AllToAllCase() {
    MPI_Type_contiguous(int(sizeof(Item)), MPI_BYTE, &item_type);
    MPI_Type_commit(&item_type);
  }
  ~AllToAllCase() { MPI_Type_free(&item_type); }

  int destination(const Item& item) const { return int(mix64(item.id) % std::uint64_t(nb)); }
  int owner(int gid) const { return gid / kBlocksPerUnit; }  // contiguous assignment
};

std::unique_ptr<AllToAllCase> MakeCase(std::size_t items) {
  auto c = std::make_unique<AllToAllCase>();
  c->units = int(dash::size());
  c->me = int(dash::myid().id);
  c->nb = kBlocksPerUnit * c->units;
  c->items = items;
  c->master = std::make_unique<dash::bp::Master<Cell>>(c->nb, dash::bp::Assignment::contiguous);
  for (int gid : dash::bp::local_gids(c->me, c->nb, c->units, dash::bp::Assignment::contiguous)) {
    std::vector<Item> v(items);
    for (std::size_t i = 0; i < items; ++i) {
      v[i].id = std::uint64_t(gid) * items + i;
      for (int w = 0; w < 7; ++w) v[i].payload[w] = mix64(v[i].id * 7 + std::uint64_t(w));
    }
    c->input.push_back(v);
    auto cell = std::make_unique<Cell>();
    cell->gid = gid;
    c->master->add(gid, std::move(cell), {});
  }
  c->mpi_blocks.resize(c->input.size());
  const std::size_t units = std::size_t(c->units);
  c->send.resize(items * c->input.size());
  c->send_counts.resize(units);
  c->recv_counts.resize(units);
  c->send_displs.resize(units);
  c->recv_displs.resize(units);
  c->fill.resize(units);
  return c;
}

void Restore(AllToAllCase& c) {
  c.master->foreach ([&](Cell& cell, dash::bp::Proxy&) {
    cell.items = c.input[std::size_t(cell.gid % kBlocksPerUnit)];
  });
}

void DashPass(AllToAllCase& c, int k) {
  dash::bp::all_to_all(
      *c.master,
      [&](Cell& cell, dash::bp::AllToAllProxy& ap) {
        if (ap.sending()) {
          for (const Item& item : cell.items) ap.enqueue(c.destination(item), item);
          cell.items.clear();
          return;
        }
        for (int from : ap.incoming_from())
          while (ap.incoming(from) > 0) {
            Item item;
            ap.dequeue(from, item);
            cell.items.push_back(item);
          }
      },
      k);
}

void MpiPass(AllToAllCase& c) {
  const std::size_t units = std::size_t(c.units);
  std::fill(c.send_counts.begin(), c.send_counts.end(), 0);
  for (const auto& block : c.input)
    for (const Item& item : block) c.send_counts[std::size_t(c.owner(c.destination(item)))] += 1;
  int at = 0;
  for (std::size_t u = 0; u < units; ++u) {
    c.send_displs[u] = at;
    c.fill[u] = at;
    at += c.send_counts[u];
  }
  for (const auto& block : c.input)
    for (const Item& item : block)
      c.send[std::size_t(c.fill[std::size_t(c.owner(c.destination(item)))]++)] = item;
  MPI_Alltoall(c.send_counts.data(), 1, MPI_INT, c.recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  at = 0;
  for (std::size_t u = 0; u < units; ++u) {
    c.recv_displs[u] = at;
    at += c.recv_counts[u];
  }
  c.recv.resize(std::size_t(at));
  MPI_Alltoallv(c.send.data(), c.send_counts.data(), c.send_displs.data(), c.item_type,
                c.recv.data(), c.recv_counts.data(), c.recv_displs.data(), c.item_type,
                MPI_COMM_WORLD);
  for (auto& block : c.mpi_blocks) block.clear();
  for (const Item& item : c.recv)
    c.mpi_blocks[std::size_t(c.destination(item) % kBlocksPerUnit)].push_back(item);
}

void BM_all_to_all(benchmark::State& state) {
  const int k = int(state.range(0));
  auto c = MakeCase(std::size_t(state.range(1)));
  auto mpi_pass = [&] { MpiPass(*c); };
  // Check once: the same items (by id) in every block.
  Restore(*c);
  DashPass(*c, k);
  mpi_pass();
  bool same = true;
  c->master->foreach ([&](Cell& cell, dash::bp::Proxy&) {
    auto ids = [](const std::vector<Item>& v) {
      std::vector<std::uint64_t> out;
      for (const Item& item : v) out.push_back(item.id);
      std::sort(out.begin(), out.end());
      return out;
    };
    same = same && ids(cell.items) == ids(c->mpi_blocks[std::size_t(cell.gid % kBlocksPerUnit)]);
  });
  int mine = same ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (all == 0) {
    state.SkipWithError("all_to_all and MPI_Alltoallv ended with different items");
    return;
  }
  const double items = double(c->items) * kBlocksPerUnit;
  bench::run_paired(state, items, "item",
                    bench::Side{"dash", [&] { DashPass(*c, k); }, [&] { Restore(*c); }},
                    {bench::Side{"mpi_alltoallv", mpi_pass}}, [] { MPI_Barrier(MPI_COMM_WORLD); });
  dash::bp::RegularSwapPartners<1> partners(dash::bp::RegularDecomposer<1>({{0}, {c->nb}}, c->nb),
                                            k);
  state.SetLabel("dash::bp::all_to_all k=" + std::to_string(k) + " (" +
                 std::to_string(partners.rounds()) + " rounds) vs MPI_Alltoallv, " +
                 std::to_string(kBlocksPerUnit) + " blocks per unit of " +
                 std::to_string(c->items) + " items x 64 B");
}

BENCHMARK(BM_all_to_all)
    ->ArgNames({"k", "items"})
    ->ArgsProduct({{2, 4, 8}, {4096, 65536}})
    ->Iterations(10)
    ->UseManualTime();

}  // namespace
