// The calling unit's part of a dash::Matrix (`matrix.local`): native pointers
// over its local memory (begin/end), its local blocks as views
// (block(i)), and, for patterns whose local part is one N-D local array
// (BlockPattern, TilePattern), local extents and element access by local
// coordinates. Under DASH_CHECK_BOUNDS (dash/internal/BoundsCheck.h)
// operator[] and operator() check their indices against the local extents and
// throw dash::exception::OutOfRange outside them.
#ifndef DASH__MATRIX__LOCAL_MATRIX_REF_H_
#define DASH__MATRIX__LOCAL_MATRIX_REF_H_

#include <dash/internal/BoundsCheck.h>
#include <dash/matrix/MatrixRef.h>
#include <dash/view/GlobView.h>
#include <dash/view/LocalView.h>

#include <cstddef>
#include <string>

namespace dash {

namespace internal {
// The call m.local's subscripts name in their messages.
inline constexpr char local_matrix_subscript_call[] = "dash::Matrix::local.operator[]";
}  // namespace internal

template <class T, class MatrixT>
class LocalMatrixRef {
 public:
  using value_type = T;
  using index_type = typename MatrixT::index_type;
  using size_type = typename MatrixT::size_type;
  using pattern_type = typename MatrixT::pattern_type;
  static constexpr dim_t N = pattern_type::ndim();

  explicit LocalMatrixRef(MatrixT* matrix) : matrix_(matrix) {}

  // Local memory as native pointers, in local-memory order.
  T* begin() const { return matrix_->lbegin(); }
  T* end() const { return matrix_->lend(); }
  T* data() const { return matrix_->lbegin(); }
  // DASH's names for the same native pointers. Local.
  T* lbegin() const { return matrix_->lbegin(); }
  T* lend() const { return matrix_->lend(); }
  size_type size() const { return matrix_->lsize(); }
  bool empty() const { return size() == 0; }
  // 1-D: local element i. N-D: DASH's subscripts by local coordinates,
  // local[i][j]... is (*this)(i, j, ...), local[i] alone a dash::MatrixRef.
  // Under DASH_CHECK_BOUNDS each subscript is checked against its local
  // extent as it is given. Local.
  decltype(auto) operator[](index_type i) const {
    if constexpr (N == 1) {
      if constexpr (internal::bounds_checked)
        internal::check_index(internal::local_matrix_subscript_call, i, size());
      return matrix_->lbegin()[i];
    } else {
      return internal::subscript<N>(
          internal::ViewSubscript<LocalView<T, pattern_type>,
                                  internal::local_matrix_subscript_call>{view()},
          i);
    }
  }

  // Local extent in dimension d.
  size_type extent(dim_t d) const { return matrix_->pattern().local_extents()[d]; }
  auto extents() const { return matrix_->pattern().local_extents(); }
  // Global coordinates of the calling unit's first local element (local coordinates 0, ..., 0),
  // as DASH's local.offsets(); all 0 where the unit holds no element. Local, O(N).
  std::array<index_type, N> offsets() const {
    if (size() == 0) return {};
    return matrix_->pattern().global_coords(std::array<index_type, N>{});
  }
  // Element at local coordinates. Under DASH_CHECK_BOUNDS throws
  // dash::exception::OutOfRange outside the local extents. Local, O(N).
  template <class... I, class = std::enable_if_t<sizeof...(I) == N>>
  T& operator()(I... lcoords) const {
    const std::array<index_type, N> l{static_cast<index_type>(lcoords)...};
    if constexpr (internal::bounds_checked)
      internal::check_coords("dash::Matrix::local.operator()", l,
                             matrix_->pattern().local_extents());
    return matrix_->lbegin()[matrix_->pattern().local_at(l)];
  }
  // Element at local coordinates, always checked (DASH's at): throws
  // dash::exception::OutOfRange outside the local extents. Local, O(N).
  template <class... I, class = std::enable_if_t<sizeof...(I) == N>>
  T& at(I... lcoords) const {
    const std::array<index_type, N> l{static_cast<index_type>(lcoords)...};
    internal::check_coords("dash::Matrix::local.at", l, matrix_->pattern().local_extents());
    return matrix_->lbegin()[matrix_->pattern().local_at(l)];
  }
  // The whole local part as a LocalView (local coordinates).
  LocalView<T, pattern_type> view() const {
    auto ext = matrix_->pattern().local_extents();
    return LocalView<T, pattern_type>(matrix_->lbegin(), &matrix_->pattern(),
                                      ViewSpec<N, index_type>(std::array<index_type, N>{}, ext));
  }

  // Local row i (local coordinate i in dimension 0), as DASH's: for N >= 2 the proxy local[i]
  // (a dash::MatrixRef of ndim() N - 1: row(i)[j], row(i)(j), begin/end, extents() over all N
  // dimensions, lbegin()/lend()), for N == 1 a LocalView of extent 1. Local column j as a
  // LocalView (extent 1 in dimension 1). Both throw dash::exception::OutOfRange outside the
  // local extents. Local, O(N).
  decltype(auto) row(index_type i) const {
    if constexpr (N == 1) {
      return view().row(i);
    } else {
      internal::check_index("dash::Matrix::local.row", i, extent(0));
      std::array<index_type, N> c{};
      c[0] = i;
      return MatrixRef<internal::ViewSubscript<LocalView<T, pattern_type>,
                                               internal::local_matrix_subscript_call>,
                       N, 1>({view()}, c);
    }
  }
  template <dim_t M = N, class = std::enable_if_t<(M >= 2)>>
  LocalView<T, pattern_type> col(index_type j) const {
    return view().col(j);
  }

  // Number of blocks the calling unit owns.
  size_type num_blocks() const { return matrix_->pattern().local_nblocks(); }
  // The calling unit's local block i as a global view. Throws
  // dash::exception::OutOfRange if i >= num_blocks().
  GlobView<T, pattern_type> block(index_type i) const {
    if (i < 0 || size_type(i) >= num_blocks())
      throw exception::OutOfRange("dash::Matrix::local.block: block " + std::to_string(i) + " of " +
                                  std::to_string(num_blocks()) + " local blocks");
    return GlobView<T, pattern_type>(&matrix_->globmem(), &matrix_->pattern(),
                                     matrix_->pattern().local_block(i));
  }

 private:
  friend MatrixT;
  MatrixT* matrix_;
};

}  // namespace dash

#endif  // DASH__MATRIX__LOCAL_MATRIX_REF_H_
