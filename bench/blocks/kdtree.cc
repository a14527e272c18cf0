// dash::bp::kdtree against the same recursive bisection written with MPI
// (one block per unit, no links kept):
//   BM_kdtree/<blocks per unit>/<points per unit>/<bins>/<cloud>
//       3-D points, uniform in the unit cube (cloud 0) or packed towards a
//       corner (cloud 1: each coordinate u^4); dash::bp::kdtree with
//       `bins` histogram bins, no wrap
//     mpi_bisection  per level: the unit's histogram of its points on the
//                    level's dimension, MPI_Allreduce over the unit's group
//                    (a communicator), the cut at the group's share, the
//                    points of the other half to a partner there
//                    (MPI_Sendrecv of the count, then of the points, as
//                    dash pairs them), MPI_Comm_split into the halves
// Both sides start from the same points (restored untimed before each
// pass), in vectors with room for four times their points. With more
// blocks per unit than one, dash cuts the same points into that many more
// boxes: the ratio then includes the finer decomposition.
// Counters: ns per point of each side, ratio_vs_mpi_bisection (median of
// dash / MPI), balance and mpi_balance (most points of a block / mean: 1 is
// perfect).
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/KdTree.h>
#include <dash/bp/Master.h>
#include <mpi.h>
#include <workloads/Mix.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../support/paired.h"

namespace {

using examples::mix64;

struct Point3 {
  double x[3];
  std::uint64_t id;
  double operator[](int d) const { return x[d]; }
};

struct Cell {
  std::vector<Point3> points;
};

struct KdCase {
  int units = 1, me = 0, per_unit = 1, bins = 1;
  std::size_t points = 0;  // per unit
  dash::bp::ContinuousBox<3> domain{{0, 0, 0}, {1, 1, 1}};
  std::unique_ptr<dash::bp::Master<Cell>> master;
  std::vector<std::vector<Point3>> input;  // per local block, never changed
  std::vector<Point3> mpi_points, incoming;
  std::vector<std::uint64_t> histogram, merged;
};

std::unique_ptr<KdCase> MakeCase(int per_unit, std::size_t points, int bins, bool skewed) {
  auto c = std::make_unique<KdCase>();
  c->units = int(dash::size());
  c->me = int(dash::myid().id);
  c->per_unit = per_unit;
  c->points = points;
  c->bins = bins;
  const int nb = per_unit * c->units;
  c->master = std::make_unique<dash::bp::Master<Cell>>(nb, dash::bp::Assignment::contiguous);
  std::uint64_t next = std::uint64_t(c->me) * points;
  for (int gid : dash::bp::local_gids(c->me, nb, c->units, dash::bp::Assignment::contiguous)) {
    const std::size_t n = points / std::size_t(per_unit) +
                          (std::size_t(gid % per_unit) < points % std::size_t(per_unit) ? 1 : 0);
    std::vector<Point3> v(n);
    for (Point3& p : v) {
      p.id = next++;
      for (int d = 0; d < 3; ++d) {
        const double u = double(mix64(p.id * 4 + std::uint64_t(d)) >> 11) * 0x1.0p-53;
        p.x[d] = skewed ? u * u * u * u : u;
      }
    }
    c->input.push_back(std::move(v));
    auto cell = std::make_unique<Cell>();
    cell->points.reserve(4 * n);  // as the MPI side's vector: no regrowth while points arrive
    c->master->add(gid, std::move(cell), {});
  }
  c->mpi_points.reserve(4 * points);
  c->incoming.reserve(4 * points);
  c->histogram.resize(std::size_t(bins));
  c->merged.resize(std::size_t(bins));
  return c;
}

void Restore(KdCase& c) {
  for (std::size_t i = 0; i < c.master->size(); ++i) c.master->block(i).points = c.input[i];
  c.mpi_points.clear();
  for (const auto& v : c.input) c.mpi_points.insert(c.mpi_points.end(), v.begin(), v.end());
}

void DashPass(KdCase& c) { dash::bp::kdtree(*c.master, c.domain, &Cell::points, c.bins); }

// Recursive bisection of the units' points with MPI (see the top).
void MpiPass(KdCase& c) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  dash::bp::ContinuousBox<3> box = c.domain;
  for (int level = 0;; ++level) {
    int g = 0, m = 0;
    MPI_Comm_size(comm, &g);
    MPI_Comm_rank(comm, &m);
    if (g < 2) break;
    const int dim = level % 3, lo = g / 2, hi = g - lo;
    dash::bp::internal::kd_histogram<3>(c.mpi_points, box, dash::dim_t(dim), c.bins, c.histogram);
    MPI_Allreduce(c.histogram.data(), c.merged.data(), c.bins, MPI_UINT64_T, MPI_SUM, comm);
    const double cut = dash::bp::internal::kd_cut<3>(c.merged, box, dash::dim_t(dim), lo, g);
    const bool lower = m < lo;
    auto stays = [&](const Point3& p) { return (p[dim] < cut) == lower; };
    const std::size_t keep = std::size_t(
        std::partition(c.mpi_points.begin(), c.mpi_points.end(), stays) - c.mpi_points.begin());
    // Sends to one partner, receives from one or two (as dash::bp pairs them).
    const int partner = lower ? lo + m % hi : (m - lo) % lo;
    std::vector<int> sources;
    if (lower) {
      for (int u = lo + m; u < g; u += lo) sources.push_back(u);
    } else {
      for (int l = m - lo; l < lo; l += hi) sources.push_back(l);
    }
    const int send_count = int(c.mpi_points.size() - keep) * int(sizeof(Point3));
    MPI_Request requests[6];
    int counts[2] = {0, 0}, nreq = 0;
    for (std::size_t s = 0; s < sources.size(); ++s)
      MPI_Irecv(&counts[s], 1, MPI_INT, sources[s], 1, comm, &requests[nreq++]);
    MPI_Send(&send_count, 1, MPI_INT, partner, 1, comm);
    MPI_Waitall(nreq, requests, MPI_STATUSES_IGNORE);
    std::size_t total = 0;
    for (std::size_t s = 0; s < sources.size(); ++s) total += std::size_t(counts[s]);
    c.incoming.resize(total / sizeof(Point3));
    nreq = 0;
    char* at = reinterpret_cast<char*>(c.incoming.data());
    for (std::size_t s = 0; s < sources.size(); ++s) {
      MPI_Irecv(at, counts[s], MPI_BYTE, sources[s], 2, comm, &requests[nreq++]);
      at += counts[s];
    }
    MPI_Send(c.mpi_points.data() + keep, send_count, MPI_BYTE, partner, 2, comm);
    MPI_Waitall(nreq, requests, MPI_STATUSES_IGNORE);
    c.mpi_points.resize(keep);
    c.mpi_points.insert(c.mpi_points.end(), c.incoming.begin(), c.incoming.end());
    if (lower)
      box.max[std::size_t(dim)] = cut;
    else
      box.min[std::size_t(dim)] = cut;
    MPI_Comm half;
    MPI_Comm_split(comm, lower ? 0 : 1, m, &half);
    MPI_Comm_free(&comm);
    comm = half;
  }
  MPI_Comm_free(&comm);
}

// Most points of a block (or unit) over the mean.
double Balance(std::uint64_t most, std::uint64_t total, int blocks) {
  std::uint64_t all_most = 0, all_total = 0;
  MPI_Allreduce(&most, &all_most, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&total, &all_total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return all_total == 0 ? 1.0 : double(all_most) * blocks / double(all_total);
}

void BM_kdtree(benchmark::State& state) {
  const int per_unit = int(state.range(0)), bins = int(state.range(2));
  const bool skewed = state.range(3) != 0;
  auto c = MakeCase(per_unit, std::size_t(state.range(1)), bins, skewed);
  // Once, checked: both sides keep every point.
  Restore(*c);
  DashPass(*c);
  MpiPass(*c);
  std::uint64_t most = 0, total = 0;
  for (std::size_t i = 0; i < c->master->size(); ++i) {
    const std::uint64_t n = c->master->block(i).points.size();
    most = std::max(most, n);
    total += n;
  }
  const double balance = Balance(most, total, per_unit * c->units);
  const std::uint64_t mpi_n = c->mpi_points.size();
  const double mpi_balance = Balance(mpi_n, mpi_n, c->units);
  std::uint64_t sums[2] = {total, mpi_n}, all[2];
  MPI_Allreduce(sums, all, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (all[0] != all[1] || all[0] != std::uint64_t(c->units) * c->points) {
    state.SkipWithError("dash::bp::kdtree and the MPI bisection lost points");
    return;
  }
  bench::run_paired(state, double(c->points), "point",
                    bench::Side{"dash", [&] { DashPass(*c); }, [&] { Restore(*c); }},
                    {bench::Side{"mpi_bisection", [&] { MpiPass(*c); }, [&] { Restore(*c); }}},
                    [] { MPI_Barrier(MPI_COMM_WORLD); });
  state.counters["balance"] = balance;
  state.counters["mpi_balance"] = mpi_balance;
  state.SetLabel("dash::bp::kdtree vs an MPI recursive bisection, " + std::to_string(per_unit) +
                 " blocks per unit, " + std::to_string(c->points) + " points per unit, " +
                 std::to_string(bins) + " bins, " + (skewed ? "skewed" : "uniform") + " cloud");
}

BENCHMARK(BM_kdtree)
    ->ArgNames({"blocks_per_unit", "points", "bins", "skewed"})
    ->ArgsProduct({{1, 8}, {1 << 18}, {16, 256, 4096}, {0, 1}})
    ->Iterations(10)
    ->UseManualTime();

}  // namespace
