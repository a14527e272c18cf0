// halo: one Jacobi step (5-point, the domain's edge cells left alone) on an n x n matrix of
// doubles distributed by rows over the units, written three ways and measured in the same
// benchmark, interleaved (bench::run_paired, medians):
//   subject   dash::halo::HaloMatrixWrapper as DASH programs use it: update_async(), the inner
//             cells by inner.update, wait(), the boundary cells by boundary.update, barrier
//   blocking  the same wrapper with update() first, then inner and boundary (no overlap)
//   mpi       a hand-written MPI version: local rows plus two ghost rows, MPI_Sendrecv of the
//             edge rows with both neighbours, the same loop over plain pointers, barrier
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

void BM_halo_jacobi(benchmark::State& state) {
  const long n = long(state.range(0));
  if (!current || current->n != n) {
    current.reset();
    current = std::make_unique<Case>(n);
  }
  Case& c = *current;
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
  state.counters["n"] = double(n);
}

// A fixed number of iterations per size, the same on every unit (the step is collective).
BENCHMARK(BM_halo_jacobi)
    ->Arg(512)
    ->Iterations(400)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_halo_jacobi)
    ->Arg(2048)
    ->Iterations(60)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_halo_jacobi)
    ->Arg(4096)
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
