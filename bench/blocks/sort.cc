// dash::bp::sort against the same sample sort written with MPI's
// collectives (PSRS, one block per unit):
//   BM_sort/<blocks per unit>/<items per unit>  random 64-bit keys, the
//       unit's items spread over its blocks; dash::bp::sort with 32 samples
//       per block (k = 2)
//     dash_array_sort  dash::sort of a dash::Array holding the same keys
//                      (the unit's items its local part)
//     mpi_psrs  std::sort of the unit's items, 32 regular samples,
//               MPI_Allgather of the samples, splitters, MPI_Alltoall of the
//               counts, MPI_Alltoallv of the items, the runs that came merged
// Both sides start from the same items (restored untimed before each pass)
// and are checked once to end with the same items in the same global order
// (per unit, dash's blocks in gid order against MPI's unit). Counters: ns
// per item of each side and ratio_vs_<side> (median of dash::bp::sort /
// that side).
#include <benchmark/benchmark.h>
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/algorithm/Sort.h>
#include <dash/bp/Master.h>
#include <dash/bp/Sort.h>
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

constexpr int kSamples = 32;

struct Keys {
  std::vector<std::uint64_t> values;
};

struct SortCase {
  int units = 1, me = 0, per_unit = 1;
  std::size_t items = 0;  // per unit
  std::unique_ptr<dash::bp::Master<Keys>> master;
  std::unique_ptr<dash::Array<std::uint64_t>> array;  // items per unit, blocked
  std::vector<std::vector<std::uint64_t>> input;      // per local block, never changed
  std::vector<std::uint64_t> mpi_items, samples, all_samples, splitters, recv;
  std::vector<int> send_counts, recv_counts, send_displs, recv_displs;
};

std::unique_ptr<SortCase> MakeCase(int per_unit, std::size_t items) {
  auto c = std::make_unique<SortCase>();
  c->units = int(dash::size());
  c->me = int(dash::myid().id);
  c->per_unit = per_unit;
  c->items = items;
  const int nb = per_unit * c->units;
  c->master = std::make_unique<dash::bp::Master<Keys>>(nb, dash::bp::Assignment::contiguous);
  std::size_t next = std::size_t(c->me) * items;
  for (int gid : dash::bp::local_gids(c->me, nb, c->units, dash::bp::Assignment::contiguous)) {
    const std::size_t n = items / std::size_t(per_unit) +
                          (std::size_t(gid % per_unit) < items % std::size_t(per_unit) ? 1 : 0);
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = mix64(next++);
    c->input.push_back(std::move(v));
    c->master->add(gid, std::make_unique<Keys>(), {});
  }
  const std::size_t units = std::size_t(c->units);
  c->samples.resize(kSamples);
  c->all_samples.resize(units * kSamples);
  c->send_counts.resize(units);
  c->recv_counts.resize(units);
  c->send_displs.resize(units);
  c->recv_displs.resize(units);
  c->mpi_items.reserve(items);
  c->array = std::make_unique<dash::Array<std::uint64_t>>(items * units);
  c->recv.reserve(4 * items);
  return c;
}

void Restore(SortCase& c) {
  for (std::size_t i = 0; i < c.master->size(); ++i) c.master->block(i).values = c.input[i];
  c.mpi_items.clear();
  for (const auto& v : c.input) c.mpi_items.insert(c.mpi_items.end(), v.begin(), v.end());
}

// The unit's items into its part of the array (untimed).
void RestoreArray(SortCase& c) {
  std::uint64_t* at = c.array->lbegin();
  for (const auto& v : c.input) at = std::copy(v.begin(), v.end(), at);
  c.array->barrier();
}

void DashPass(SortCase& c) { dash::bp::sort(*c.master, &Keys::values, std::less<>(), kSamples); }

void MpiPass(SortCase& c) {
  std::vector<std::uint64_t>& v = c.mpi_items;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size(), units = std::size_t(c.units);
  for (std::size_t j = 0; j < kSamples; ++j)
    c.samples[j] = n ? v[(2 * j + 1) * n / (2 * kSamples)] : 0;
  MPI_Allgather(c.samples.data(), kSamples, MPI_UINT64_T, c.all_samples.data(), kSamples,
                MPI_UINT64_T, MPI_COMM_WORLD);
  std::sort(c.all_samples.begin(), c.all_samples.end());
  std::size_t lo = 0;
  int at = 0;
  for (std::size_t u = 0; u < units; ++u) {
    const std::size_t hi =
        u + 1 == units
            ? n
            : std::size_t(std::upper_bound(v.begin() + std::ptrdiff_t(lo), v.end(),
                                           c.all_samples[(u + 1) * c.all_samples.size() / units]) -
                          v.begin());
    c.send_counts[u] = int(hi - lo);
    c.send_displs[u] = at;
    at += int(hi - lo);
    lo = hi;
  }
  MPI_Alltoall(c.send_counts.data(), 1, MPI_INT, c.recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  at = 0;
  for (std::size_t u = 0; u < units; ++u) {
    c.recv_displs[u] = at;
    at += c.recv_counts[u];
  }
  c.recv.resize(std::size_t(at));
  MPI_Alltoallv(v.data(), c.send_counts.data(), c.send_displs.data(), MPI_UINT64_T, c.recv.data(),
                c.recv_counts.data(), c.recv_displs.data(), MPI_UINT64_T, MPI_COMM_WORLD);
  // The units' runs, each sorted, merged one after the other.
  for (std::size_t u = 1; u < units; ++u)
    std::inplace_merge(c.recv.begin(), c.recv.begin() + c.recv_displs[u],
                       c.recv.begin() + c.recv_displs[u] + c.recv_counts[u]);
}

// Whether the three sides hold the same items in the same global order: the
// concatenation over units (dash::bp::sort: blocks in gid order) is the same
// sorted sequence, compared through its length and a position-weighted hash.
bool SameOrder(SortCase& c) {
  std::vector<std::uint64_t> dash_items;
  for (std::size_t i = 0; i < c.master->size(); ++i) {
    const auto& v = c.master->block(i).values;
    dash_items.insert(dash_items.end(), v.begin(), v.end());
  }
  auto digest = [&](const std::vector<std::uint64_t>& v) {
    std::uint64_t n = v.size(), before = 0, h = 0;
    MPI_Exscan(&n, &before, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (c.me == 0) before = 0;
    for (std::size_t i = 0; i < v.size(); ++i) h += mix64(v[i] ^ mix64(before + i));
    std::uint64_t all = 0;
    MPI_Allreduce(&h, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return all;
  };
  const std::vector<std::uint64_t> array_items(c.array->lbegin(), c.array->lend());
  const std::uint64_t expected = digest(c.recv);
  return digest(dash_items) == expected && digest(array_items) == expected;
}

void BM_sort(benchmark::State& state) {
  auto c = MakeCase(int(state.range(0)), std::size_t(state.range(1)));
  Restore(*c);
  DashPass(*c);
  MpiPass(*c);
  RestoreArray(*c);
  dash::sort(c->array->begin(), c->array->end());
  if (!SameOrder(*c)) {
    state.SkipWithError("dash::bp::sort, dash::sort and the MPI sample sort disagree");
    return;
  }
  bench::run_paired(
      state, double(c->items), "item",
      bench::Side{"dash", [&] { DashPass(*c); }, [&] { Restore(*c); }},
      {bench::Side{"dash_array_sort", [&] { dash::sort(c->array->begin(), c->array->end()); },
                   [&] { RestoreArray(*c); }},
       bench::Side{"mpi_psrs", [&] { MpiPass(*c); }, [&] { Restore(*c); }}},
      [] { MPI_Barrier(MPI_COMM_WORLD); });
  state.SetLabel("dash::bp::sort vs dash::sort of a dash::Array and an MPI sample sort, " +
                 std::to_string(c->per_unit) + " blocks per unit, " + std::to_string(c->items) +
                 " keys per unit");
}

BENCHMARK(BM_sort)
    ->ArgNames({"blocks_per_unit", "items"})
    ->ArgsProduct({{1, 4}, {1 << 16, 1 << 20}})
    ->Iterations(10)
    ->UseManualTime();

}  // namespace
