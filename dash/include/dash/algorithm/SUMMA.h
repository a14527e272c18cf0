// dash::summa(A, B, C) (DASH's name; dash::mmult is the same call): C += A x B for tiled
// matrices of float or double, after the SUMMA scheme: each unit computes its own tiles of C,
// C(i, j) += sum over k of A(i, k) x B(k, j), the k-th step over one tile column of A: it
// fetches the rows of A and the columns of B that step needs (dash::copy_async of the two
// rectangles: a whole tile is one transfer), the next step's while it multiplies. C starts as
// the caller left it (DASH: "initialized with zeros").
//
// The operands' patterns must have the SUMMA constraints (summa_pattern_*_constraints, which
// dash::make_pattern takes to choose one): tiles of equal extents that divide the matrix
// extents (rectangular, balanced), cut in both dimensions (ndimensional), each tile contiguous
// in its owner's memory in the pattern's order (blocked, linear). Their tilings may differ
// (make_pattern picks each matrix's own); the extents must fit (A's columns B's rows, C's
// rows A's, C's columns B's), and the three share one team and one Arrangement.
//
// | call        | cost                                                                    |
// |-------------|-------------------------------------------------------------------------|
// | summa, mmult| collective over the team (a barrier before and after); per unit, for    |
// |             | each of its tiles of C and each tile column of A, two rectangle copies |
// |             | (one-sided, a transfer per owner's tile) and the multiplication; two   |
// |             | pairs of buffers of those rectangles                                   |
//
// Unlike DASH, whose local multiplication needs MKL or a BLAS (its fallback throws outside
// debug builds), the tiles are multiplied by the library's own loop.
#ifndef DASH__ALGORITHM__SUMMA_H_
#define DASH__ALGORITHM__SUMMA_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Pattern.h>  // DASH's SUMMA.h brings the patterns and make_team_spec
#include <dash/algorithm/CopyView.h>
#include <dash/internal/DartType.h>
#include <dash/pattern/PatternProperties.h>
#include <dash/util/Trace.h>  // dash::util::TraceStore, which DASH's summa records into

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {

// The constraints a pattern of a dash::summa operand must satisfy (DASH's names).
using summa_pattern_partitioning_constraints =
    pattern_partitioning_properties<pattern_partitioning_tag::rectangular,
                                    pattern_partitioning_tag::balanced,
                                    pattern_partitioning_tag::ndimensional>;
using summa_pattern_mapping_constraints =
    pattern_mapping_properties<pattern_mapping_tag::multiple, pattern_mapping_tag::unbalanced>;
using summa_pattern_layout_constraints =
    pattern_layout_properties<pattern_layout_tag::blocked, pattern_layout_tag::linear>;
// ::satisfied is std::true_type if MatrixType's pattern type can have them. Compile time.
template <class MatrixType>
using summa_pattern_constraints =
    pattern_constraints<summa_pattern_partitioning_constraints, summa_pattern_mapping_constraints,
                        summa_pattern_layout_constraints, typename MatrixType::pattern_type>;

namespace internal {

// out[m x n] += left[m x k] x right[k x n], all row-major and contiguous. Local; the i-k-j
// order streams rows of right and out, which the compiler vectorises.
template <class T>
void multiply_tiles(const T* __restrict left, const T* __restrict right, T* __restrict out,
                    std::size_t m, std::size_t k, std::size_t n) {
  for (std::size_t i = 0; i < m; ++i) {
    T* __restrict row = out + i * n;
    for (std::size_t x = 0; x < k; ++x) {
      const T a = left[i * k + x];
      const T* __restrict b = right + x * n;
      for (std::size_t j = 0; j < n; ++j) row[j] += a * b[j];
    }
  }
}

// Throws InvalidArgument naming dash::summa and `what` unless `ok`.
inline void summa_require(bool ok, const std::string& what) {
  if (!ok) throw exception::InvalidArgument("dash::summa: " + what);
}

}  // namespace internal

// C += A x B (see the file comment). Throws dash::exception::InvalidArgument, on every unit
// alike and before any communication, if a pattern misses the constraints or the operands do
// not fit. Collective over the matrices' team.
template <class MatrixTypeA, class MatrixTypeB, class MatrixTypeC>
void summa(MatrixTypeA& A, MatrixTypeB& B, MatrixTypeC& C) {
  using T = typename MatrixTypeC::value_type;
  using index_type = typename MatrixTypeC::index_type;
  using Arr = std::integral_constant<MemArrange, MatrixTypeC::pattern_type::memory_order()>;
  static_assert(std::is_floating_point_v<T>, "dash::summa expects matrices of float or double");
  static_assert(std::is_same_v<std::remove_const_t<typename MatrixTypeA::value_type>, T> &&
                    std::is_same_v<std::remove_const_t<typename MatrixTypeB::value_type>, T>,
                "dash::summa: A, B and C must have the same element type");
  static_assert(MatrixTypeA::ndim() == 2 && MatrixTypeB::ndim() == 2 && MatrixTypeC::ndim() == 2,
                "dash::summa multiplies 2-D matrices");
  static_assert(MatrixTypeA::pattern_type::memory_order() == Arr::value &&
                    MatrixTypeB::pattern_type::memory_order() == Arr::value,
                "dash::summa: A, B and C must have the same Arrangement");
  static_assert(summa_pattern_constraints<MatrixTypeA>::satisfied::value &&
                    summa_pattern_constraints<MatrixTypeB>::satisfied::value &&
                    summa_pattern_constraints<MatrixTypeC>::satisfied::value,
                "dash::summa: a pattern type cannot have the SUMMA constraints (tiles contiguous "
                "in local memory in the pattern's order: TilePattern)");

  const char* names[3] = {"A", "B", "C"};
  auto check_pattern = [&](const auto& m, int which) {
    const std::string broken =
        pattern_constraint_violations<summa_pattern_partitioning_constraints,
                                      summa_pattern_mapping_constraints,
                                      summa_pattern_layout_constraints>(m.pattern());
    internal::summa_require(broken.empty(), std::string("the pattern of ") + names[which] +
                                                " does not have the SUMMA constraints: " + broken);
  };
  check_pattern(A, 0);
  check_pattern(B, 1);
  check_pattern(C, 2);
  internal::summa_require(&A.team() == &C.team() && &B.team() == &C.team(),
                          "A, B and C must belong to one team");
  const auto ext = [](const auto& m, int d) { return std::size_t(m.extent(d)); };
  const auto tile = [](const auto& m, int d) { return std::size_t(m.pattern().blocksize(d)); };
  internal::summa_require(
      ext(A, 1) == ext(B, 0) && ext(C, 0) == ext(A, 0) && ext(C, 1) == ext(B, 1),
      "extents " + std::to_string(ext(A, 0)) + " x " + std::to_string(ext(A, 1)) + " times " +
          std::to_string(ext(B, 0)) + " x " + std::to_string(ext(B, 1)) + " into " +
          std::to_string(ext(C, 0)) + " x " + std::to_string(ext(C, 1)));
  const std::size_t bm = tile(A, 1);  // a step's width along A's columns, B's rows

  C.barrier();  // A and B as every unit left them
  const auto& pc = C.pattern();
  const std::size_t steps = bm == 0 ? 0 : (ext(A, 1) + bm - 1) / bm;
  std::vector<T> a_buf[2], b_buf[2];
  for (std::size_t lb = 0; lb < std::size_t(pc.local_nblocks()); ++lb) {
    const auto rect = pc.local_block(index_type(lb));
    const index_type row = rect.offset(0), col = rect.offset(1);
    const std::size_t h = rect.extent(0), w = rect.extent(1);
    if (h == 0 || w == 0) continue;
    // The tile is contiguous in the calling unit's memory, in the Arrangement order.
    T* out = C.lbegin() + pc.local_index(std::array<index_type, 2>{row, col}).index;
    Future<T*> pending[2][2];
    auto fetch = [&](std::size_t k, int slot) {
      const index_type inner = index_type(k * bm);
      const std::size_t kw = std::min(bm, ext(A, 1) - k * bm);
      a_buf[slot].resize(h * kw);
      b_buf[slot].resize(kw * w);
      auto a_part = A.rows(row, h).cols(inner, kw);
      auto b_part = B.rows(inner, kw).cols(col, w);
      pending[slot][0] = dash::copy_async(a_part.begin(), a_part.end(), a_buf[slot].data());
      pending[slot][1] = dash::copy_async(b_part.begin(), b_part.end(), b_buf[slot].data());
    };
    if (steps > 0) fetch(0, 0);
    for (std::size_t k = 0; k < steps; ++k) {
      const int slot = int(k % 2);
      pending[slot][0].wait();
      pending[slot][1].wait();
      if (k + 1 < steps) fetch(k + 1, 1 - slot);
      const std::size_t kw = std::min(bm, ext(A, 1) - k * bm);
      // Row-major: out += a x b. Column-major buffers hold the transposes: out^T += b^T a^T.
      if constexpr (Arr::value == ROW_MAJOR)
        internal::multiply_tiles(a_buf[slot].data(), b_buf[slot].data(), out, h, kw, w);
      else
        internal::multiply_tiles(b_buf[slot].data(), a_buf[slot].data(), out, w, kw, h);
    }
  }
  C.barrier();  // every tile of C complete
}

// DASH's other name of dash::summa, for operands whose pattern types can have the SUMMA
// constraints. Collective over the matrices' team.
template <class MatrixTypeA, class MatrixTypeB, class MatrixTypeC>
auto mmult(MatrixTypeA& A, MatrixTypeB& B, MatrixTypeC& C)
    -> std::enable_if_t<summa_pattern_constraints<MatrixTypeA>::satisfied::value &&
                        summa_pattern_constraints<MatrixTypeB>::satisfied::value &&
                        summa_pattern_constraints<MatrixTypeC>::satisfied::value> {
  summa(A, B, C);
}

}  // namespace dash

#endif  // DASH__ALGORITHM__SUMMA_H_
