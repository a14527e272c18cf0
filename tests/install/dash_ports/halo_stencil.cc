// 2-D heat diffusion on a periodic domain the way DASH's halo examples write it: a
// dash::halo::HaloMatrixWrapper per time level, a StencilOperator each, the halo fetched with
// update_async() while the inner cells are updated, the boundary cells after wait(); compared
// with the same steps computed serially by every unit, and the total heat kept. The specs come
// from the headers DASH's halo examples include by these paths (<dash/Dimensional.h>,
// <dash/TeamSpec.h>), included first so they compile on their own.
#include <dash/Dimensional.h>
#include <dash/TeamSpec.h>

#include <cmath>
#include <utility>
#include <vector>

#include "check.h"

using PatternT = dash::Pattern<2>;
using MatrixT = dash::Matrix<double, 2, typename PatternT::index_type, PatternT>;
using StencilT = dash::halo::StencilPoint<2>;
using StencilSpecT = dash::halo::StencilSpec<StencilT, 4>;
using GlobBoundSpecT = dash::halo::GlobalBoundarySpec<2>;
using HaloMatrixWrapperT = dash::halo::HaloMatrixWrapper<MatrixT>;

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const long rows = 11, cols = 9, steps = 5;
  const double dt = 0.1;
  dash::TeamSpec<2> tspec(dash::size(), 1);
  tspec.balance_extents();
  PatternT pattern(dash::SizeSpec<2>(rows, cols),
                   dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED), tspec,
                   dash::Team::All());
  MatrixT a(pattern), b(pattern);
  auto init = [](long r, long c) { return double((r * 5 + c * 3) % 7) + (r == 4 ? 50.0 : 0.0); };
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      if (a[r][c].is_local()) a[r][c] = init(r, c);
  a.barrier();

  StencilSpecT stencil_spec(StencilT(-1, 0), StencilT(1, 0), StencilT(0, -1), StencilT(0, 1));
  GlobBoundSpecT bound_spec(dash::halo::BoundaryProp::CYCLIC, dash::halo::BoundaryProp::CYCLIC);
  HaloMatrixWrapperT halo_a(a, bound_spec, stencil_spec);
  HaloMatrixWrapperT halo_b(b, bound_spec, stencil_spec);
  auto op_a = halo_a.stencil_operator(stencil_spec);
  auto op_b = halo_b.stencil_operator(stencil_spec);
  HaloMatrixWrapperT* current = &halo_a;
  HaloMatrixWrapperT* next = &halo_b;
  auto* current_op = &op_a;
  auto* next_op = &op_b;

  for (long s = 0; s < steps; ++s) {
    current->update_async();
    auto* out = next->matrix().lbegin();
    current_op->inner.update(out, [&](auto* center, auto* center_dst, auto, const auto& offs) {
      *center_dst = *center + dt * (center[offs[0]] + center[offs[1]] + center[offs[2]] +
                                    center[offs[3]] - 4 * *center);
    });
    current->wait();
    current_op->boundary.update(out, [&](auto& it) {
      return *it +
             dt * (it.value_at(0) + it.value_at(1) + it.value_at(2) + it.value_at(3) - 4 * *it);
    });
    dash::barrier();
    std::swap(current, next);
    std::swap(current_op, next_op);
  }

  std::vector<double> serial(rows * cols), tmp(rows * cols);
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c) serial[r * cols + c] = init(r, c);
  for (long s = 0; s < steps; ++s) {
    for (long r = 0; r < rows; ++r)
      for (long c = 0; c < cols; ++c) {
        auto at = [&](long i, long j) {
          return serial[((i + rows) % rows) * cols + (j + cols) % cols];
        };
        tmp[r * cols + c] = at(r, c) + dt * (at(r - 1, c) + at(r + 1, c) + at(r, c - 1) +
                                             at(r, c + 1) - 4 * at(r, c));
      }
    serial.swap(tmp);
  }
  MatrixT& result = current->matrix();
  double total = 0, serial_total = 0;
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c) {
      CHECK(std::fabs(double(result[r][c]) - serial[r * cols + c]) < 1e-12);
      total += double(result[r][c]);
      serial_total += init(r, c);
    }
  CHECK(std::fabs(total - serial_total) < 1e-9);
  result.barrier();
  report_ok("halo_stencil");
  dash::finalize();
}
