// halo: one Jacobi step (5-point, the domain's edge cells left alone) on an n x n matrix of
// doubles distributed by rows over the units, written three ways and measured in the same
// benchmark, interleaved (bench::run_paired, medians):
//   subject   dash::halo::HaloMatrixWrapper as DASH programs use it: update_async(), the inner
//             cells by inner.update, wait(), the boundary cells by boundary.update, barrier
//   blocking  the same wrapper with update() first, then inner and boundary (no overlap)
//   mpi       a hand-written MPI version: local rows plus two ghost rows, MPI_Sendrecv of the
//             edge rows with both neighbours, the same loop over plain pointers, barrier
// BM_halo_copy/<n>: the same step on the same matrices through dash::copy of the neighbours'
// edge rows into two ghost rows (the "row-distributed dash::Matrix" version):
//   copy_async     copy_async of both rows, the interior rows, wait, the first and last row
//   copy_blocking  dash::copy of both rows, then every row
//   mpi            the hand-written version above
// Counters: ns_per_step (subject), <baseline>_ns_per_step, ratio_vs_<baseline> (1.00: as
// fast). BM_halo_jacobi/<n>. Collective: every unit runs it (the same iterations), unit 0
// reports. Which path the
// halo gets take depends on the environment (same node: load/store; DART_VIRTUAL_NODE_SIZE=1:
// MPI RMA, context key "remote_path").
#include <benchmark/benchmark.h>
#include <libdash.h>
#include <mpi.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "support/paired.h"
#include "support/runner.h"

namespace {

using Matrix = dash::NArray<double, 2>;
using StencilP = dash::halo::StencilPoint<2>;
using Spec = dash::halo::StencilSpec<StencilP, 4>;
using Wrapper = dash::halo::HaloMatrixWrapper<Matrix>;

const Spec kCross(StencilP(-1, 0), StencilP(1, 0), StencilP(0, -1), StencilP(0, 1));

// The three versions of one size, each with its two time levels.
struct Case {
  long n = 0;
  int me = 0, units = 1;
  std::unique_ptr<Matrix> a, b;
  std::unique_ptr<Wrapper> wa, wb;
  using Op = decltype(std::declval<Wrapper&>().stencil_operator(kCross));
  std::unique_ptr<Op> opa, opb;
  // The hand-written version: rows + 2 ghost rows of n doubles, twice.
  long rows = 0, first_row = 0;
  std::vector<double> ma, mb;
  // The dash::copy versions: the rows above and below the unit's rows.
  std::vector<double> ghost_up, ghost_down;

  explicit Case(long side) : n(side), me(int(dash::myid().id)), units(int(dash::size())) {
    dash::BlockPattern<2> pattern(dash::SizeSpec<2>(n, n),
                                  dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
                                  dash::TeamSpec<2>(units, 1), dash::Team::All());
    a = std::make_unique<Matrix>(pattern);
    b = std::make_unique<Matrix>(pattern);
    rows = long(pattern.local_extent(0));
    first_row = rows > 0 ? long(pattern.global({0, 0})[0]) : 0;
    for (long l = 0; l < long(a->lsize()); ++l)
      a->lbegin()[l] = b->lbegin()[l] = double((first_row * n + l) % 17);
    wa = std::make_unique<Wrapper>(*a, kCross);
    wb = std::make_unique<Wrapper>(*b, kCross);
    opa = std::make_unique<Op>(wa->stencil_operator(kCross));
    opb = std::make_unique<Op>(wb->stencil_operator(kCross));
    ma.assign(std::size_t((rows + 2) * n), 0.0);
    mb = ma;
    std::copy(a->lbegin(), a->lend(), ma.begin() + n);
    std::copy(b->lbegin(), b->lend(), mb.begin() + n);
    ghost_up.assign(std::size_t(n), 0.0);
    ghost_down.assign(std::size_t(n), 0.0);
    dash::barrier();
  }

  // Jacobi on the local rows [r0, r1) of `from` into `to`, rows above the first and below the
  // last local row taken from the ghost rows; the domain's edge rows and columns left alone.
  void copy_rows(const Matrix& from, Matrix& to, long r0, long r1) const {
    const double* f = from.lbegin();
    double* t = to.lbegin();
    for (long r = r0; r < r1; ++r) {
      const long g = first_row + r;
      if (g == 0 || g == n - 1) continue;
      const double* up = r == 0 ? ghost_up.data() : f + (r - 1) * n;
      const double* down = r == rows - 1 ? ghost_down.data() : f + (r + 1) * n;
      const double* c = f + r * n;
      double* o = t + r * n;
      for (long j = 1; j < n - 1; ++j) o[j] = 0.25 * (up[j] + down[j] + c[j - 1] + c[j + 1]);
    }
  }

  // One step by dash::copy of the neighbours' edge rows into ghost rows: blocking (both copies,
  // then every row), or overlapping (copy_async of both, the interior rows, wait, the first and
  // last row). Barrier at the end, as every version.
  void copy_step(Matrix& from, Matrix& to, bool overlap) {
    if (rows == 0) {
      dash::barrier();
      return;
    }
    const bool has_up = first_row > 0, has_down = first_row + rows < n;
    auto up_row = from.begin() + (first_row - 1) * n;
    auto down_row = from.begin() + (first_row + rows) * n;
    if (!overlap) {
      if (has_up) dash::copy(up_row, up_row + n, ghost_up.data());
      if (has_down) dash::copy(down_row, down_row + n, ghost_down.data());
      copy_rows(from, to, 0, rows);
    } else {
      dash::Future<double*> up, down;
      if (has_up) up = dash::copy_async(up_row, up_row + n, ghost_up.data());
      if (has_down) down = dash::copy_async(down_row, down_row + n, ghost_down.data());
      copy_rows(from, to, 1, rows - 1);
      if (has_up) up.wait();
      if (has_down) down.wait();
      copy_rows(from, to, 0, 1);
      if (rows > 1) copy_rows(from, to, rows - 1, rows);
    }
    dash::barrier();
  }

  // One step of the wrapper from `from` into `to`'s matrix.
  static void wrapper_step(Wrapper& from, const Op& op, Wrapper& to, bool overlap) {
    double* out = to.matrix().lbegin();
    auto inner = [](const double* c, double* dst, long, const auto& offs) {
      *dst = 0.25 * (c[offs[0]] + c[offs[1]] + c[offs[2]] + c[offs[3]]);
    };
    if (overlap)
      from.update_async();
    else
      from.update();
    op.inner.update(out, inner);
    from.wait();
    op.boundary.update(out, [](auto& it) {
      return 0.25 * (it.value_at(0) + it.value_at(1) + it.value_at(2) + it.value_at(3));
    });
    dash::barrier();
  }

  // One step of the hand-written version from `from` into `to`.
  void mpi_step(std::vector<double>& from, std::vector<double>& to) {
    const int up = me > 0 ? me - 1 : MPI_PROC_NULL, down = me + 1 < units ? me + 1 : MPI_PROC_NULL;
    double* f = from.data();
    if (rows > 0) {
      MPI_Sendrecv(f + n, int(n), MPI_DOUBLE, up, 1, f + (rows + 1) * n, int(n), MPI_DOUBLE, down,
                   1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Sendrecv(f + rows * n, int(n), MPI_DOUBLE, down, 2, f, int(n), MPI_DOUBLE, up, 2,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    double* t = to.data();
    for (long r = 1; r <= rows; ++r) {
      const long g = first_row + r - 1;
      if (g == 0 || g == n - 1) continue;
      const double* c = f + r * n;
      double* o = t + r * n;
      for (long j = 1; j < n - 1; ++j) o[j] = 0.25 * (c[j - n] + c[j + n] + c[j - 1] + c[j + 1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
};

std::unique_ptr<Case> current;

// The case of side n: the current one, or a new one (the old one freed first). Collective.
Case& case_of(long n) {
  if (!current || current->n != n) {
    current.reset();
    current = std::make_unique<Case>(n);
  }
  return *current;
}

void BM_halo_jacobi(benchmark::State& state) {
  Case& c = case_of(long(state.range(0)));
  bool flip_w = false, flip_b = false, flip_m = false;
  bench::run_paired(
      state, 1, "step",
      bench::Side{"overlap",
                  [&] {
                    flip_w = !flip_w;
                    Case::wrapper_step(flip_w ? *c.wa : *c.wb, flip_w ? *c.opa : *c.opb,
                                       flip_w ? *c.wb : *c.wa, true);
                  }},
      {bench::Side{"blocking",
                   [&] {
                     flip_b = !flip_b;
                     Case::wrapper_step(flip_b ? *c.wa : *c.wb, flip_b ? *c.opa : *c.opb,
                                        flip_b ? *c.wb : *c.wa, false);
                   }},
       bench::Side{"mpi", [&] {
                     flip_m = !flip_m;
                     c.mpi_step(flip_m ? c.ma : c.mb, flip_m ? c.mb : c.ma);
                   }}});
  state.counters["n"] = double(c.n);
}

// The dash::copy version: copy_async of the halo rows overlapping the interior rows, against
// the same with blocking copies and the hand-written MPI version.
void BM_halo_copy(benchmark::State& state) {
  Case& c = case_of(long(state.range(0)));
  bool flip_o = false, flip_b = false, flip_m = false;
  bench::run_paired(state, 1, "step",
                    bench::Side{"copy_async",
                                [&] {
                                  flip_o = !flip_o;
                                  c.copy_step(flip_o ? *c.a : *c.b, flip_o ? *c.b : *c.a, true);
                                }},
                    {bench::Side{"copy_blocking",
                                 [&] {
                                   flip_b = !flip_b;
                                   c.copy_step(flip_b ? *c.a : *c.b, flip_b ? *c.b : *c.a, false);
                                 }},
                     bench::Side{"mpi", [&] {
                                   flip_m = !flip_m;
                                   c.mpi_step(flip_m ? c.ma : c.mb, flip_m ? c.mb : c.ma);
                                 }}});
  state.counters["n"] = double(c.n);
}

// A fixed number of iterations per size, the same on every unit (the step is collective).
BENCHMARK(BM_halo_jacobi)
    ->ArgName("n")
    ->Arg(512)
    ->Iterations(400)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_halo_jacobi)
    ->ArgName("n")
    ->Arg(2048)
    ->Iterations(60)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_halo_jacobi)
    ->ArgName("n")
    ->Arg(4096)
    ->Iterations(20)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_halo_copy)
    ->ArgName("n")
    ->Arg(512)
    ->Iterations(400)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_halo_copy)
    ->ArgName("n")
    ->Arg(4000)
    ->Iterations(20)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  return bench::guarded_main("halo", [&] {
    dash::init(&argc, &argv);
    const int me = int(dash::myid().id), units = int(dash::size());
    bench::RunOptions options;
    options.context = {bench::env_context("DART_VIRTUAL_NODE_SIZE", "unset")};
    const char* vnode = std::getenv("DART_VIRTUAL_NODE_SIZE");
    options.context.push_back(
        {"remote_path", vnode && std::atoi(vnode) == 1 ? "rma" : "load/store"});
    bench::run_on_every_unit(argc, argv, me, units, options);
    MPI_Barrier(MPI_COMM_WORLD);
    current.reset();
    dash::finalize();
  });
}
