// dash::MatrixRef: what `matrix[i]` gives, as in DASH: a proxy of the
// matrix (or view, or local part) with its leading coordinates fixed. Each
// further [] fixes one more; the last one gives the element (a GlobRef for
// global access, T& for matrix.local). A proxy of rank r is also the range of
// the elements under it: begin()/end() over a view with extent 1 in the fixed
// dimensions, so `for (auto v : matrix[i])` visits row i.
//
// | call                          | cost                                    |
// |-------------------------------|-----------------------------------------|
// | operator[] (not the last)     | local, copies N coordinates             |
// | the last operator[]           | that of matrix(i, j, ...): local        |
// | view, begin/end, size, extent | local, O(N)                             |
// | viewspec, lbegin/lend         | local, O(N)                             |
//
// Subscripts are checked only when the program defines DASH_CHECK_BOUNDS (as in DASH, they are
// not otherwise; matrix.at(i, j, ...) always is): then each [] checks its subscript against the
// extent of its dimension as it is given, so m[12] of a 10-row matrix throws
// dash::exception::OutOfRange ("index [12] is outside extents (10, 10)") before any element is
// touched. A proxy of a dash::Matrix kept past the matrix's deallocate() or destructor throws
// InvalidArgument when used.
#ifndef DASH__MATRIX__MATRIX_REF_H_
#define DASH__MATRIX__MATRIX_REF_H_

#include <dash/Types.h>
#include <dash/internal/BoundsCheck.h>
#include <dash/internal/MemoryStamp.h>

#include <array>
#include <type_traits>

namespace dash {

namespace internal {

// How a proxy reaches what it subscripts: a container (coordinates are its
// global ones) or a view (coordinates relative to it).
//   element(c): the element at full coordinates c, not checked;
//   slice(c, fixed): the view of the elements whose first `fixed`
//   coordinates are those of c;
//   check(c, given): throws OutOfRange unless subscript given - 1 of c lies
//   inside its extent (called only under DASH_CHECK_BOUNDS).
// A view's subscripts name `Call` in their messages. ViewT makes
// ViewSubscript a friend for its unchecked element(c).
template <class ViewT, const char* Call>
struct ViewSubscript {
  using index_type = typename ViewT::index_type;
  using value_type = typename ViewT::value_type;
  ViewT view;
  decltype(auto) element(const std::array<index_type, ViewT::ndim()>& c) const {
    return view.element(c);
  }
  ViewT slice(const std::array<index_type, ViewT::ndim()>& c, dim_t fixed) const {
    return view.leading(c, fixed);
  }
  void check(const std::array<index_type, ViewT::ndim()>& c, dim_t given) const {
    check_subscript(Call, c, given, view.extents());
  }
};

// A dash::Matrix (const or not): element access without the view's checks, but with the
// liveness of the matrix's memory when the proxy was made (one load and compare per access: a
// proxy kept past deallocate() or the destructor throws instead of touching freed memory).
template <class MatrixT>
struct MatrixSubscript {
  using index_type = typename MatrixT::index_type;
  using value_type = typename MatrixT::value_type;
  MatrixT* matrix;
  MemoryStamp stamp;
  decltype(auto) element(const std::array<index_type, MatrixT::ndim()>& c) const {
    if (!stamp.live()) throw_stale_handle("dash::Matrix::operator[]");
    if constexpr (std::is_const_v<MatrixT>)
      return matrix->celement(c);
    else
      return matrix->element(c);
  }
  auto slice(const std::array<index_type, MatrixT::ndim()>& c, dim_t fixed) const {
    if (!stamp.live()) throw_stale_handle("dash::Matrix::operator[]");
    return matrix->view().leading(c, fixed);
  }
  void check(const std::array<index_type, MatrixT::ndim()>& c, dim_t given) const {
    if (!stamp.live()) throw_stale_handle("dash::Matrix::operator[]");
    check_subscript("dash::Matrix::operator[]", c, given, matrix->extents());
  }
};

}  // namespace internal

template <class Target, dim_t N, dim_t Fixed>
class MatrixRef {
  static_assert(Fixed >= 1 && Fixed < N, "dash::MatrixRef: a proxy fixes 1 .. N-1 coordinates");

 public:
  using index_type = typename Target::index_type;
  using value_type = typename Target::value_type;
  using coords_type = std::array<index_type, N>;

  // Local.
  MatrixRef(const Target& target, const coords_type& coords) : target_(target), coords_(coords) {}

  // Number of coordinates still free: DASH's ndim() (m[i].ndim() is N - 1), and rank().
  static constexpr dim_t ndim() { return N - Fixed; }
  static constexpr dim_t rank() { return N - Fixed; }

  // Fixes the next coordinate: the element after the last one, else a proxy
  // of one rank less. Under DASH_CHECK_BOUNDS throws OutOfRange if i is
  // outside the extent of dimension Fixed. Local.
  decltype(auto) operator[](index_type i) const {
    coords_type c = coords_;
    c[Fixed] = i;
    if constexpr (internal::bounds_checked) target_.check(c, Fixed + 1);
    if constexpr (Fixed + 1 == N)
      return target_.element(c);
    else
      return MatrixRef<Target, N, Fixed + 1>(target_, c);
  }
  // DASH's partial call: the element at the given free coordinates, m[i](j, k) is m[i][j][k].
  // Under DASH_CHECK_BOUNDS each is checked against its extent. Local.
  template <class... I, class = std::enable_if_t<sizeof...(I) == N - Fixed>>
  decltype(auto) operator()(I... free) const {
    const std::array<index_type, N - Fixed> rest{static_cast<index_type>(free)...};
    coords_type c = coords_;
    for (dim_t k = 0; k < N - Fixed; ++k) c[Fixed + k] = rest[k];
    if constexpr (internal::bounds_checked)
      for (dim_t given = Fixed + 1; given <= N; ++given) target_.check(c, given);
    return target_.element(c);
  }

  // The elements under this proxy, as a view of rank N (extent 1 in the
  // fixed dimensions). Local.
  auto view() const { return target_.slice(coords_, Fixed); }
  auto begin() const { return view().begin(); }
  auto end() const { return view().end(); }
  auto size() const { return view().size(); }
  bool empty() const { return size() == 0; }
  // As DASH's, over all N dimensions of that view: m[i].extent(0) is 1, m[i].extent(1) the
  // extent of dimension 1; offsets in the target's coordinates (global ones for a matrix and
  // its views, local ones for m.local). Local, O(N).
  auto extent(dim_t d) const { return view().extent(d); }
  auto extents() const { return view().extents(); }
  auto offset(dim_t d) const { return view().viewspec().offset(d); }
  auto offsets() const { return view().viewspec().offsets(); }
  // The rectangle (offsets and extents) of that view. Local, O(N).
  auto viewspec() const { return view().viewspec(); }
  // Native pointers to the calling unit's elements under this proxy, as the view's lbegin() and
  // lend() (lend() throws dash::exception::InvalidArgument where they are not contiguous in
  // local memory). Local, O(N).
  auto lbegin() const { return view().lbegin(); }
  auto lend() const { return view().lend(); }

 private:
  Target target_;
  coords_type coords_;
};

namespace internal {

// target[i]: the element (1-D) or the proxy with the first coordinate i.
// Under DASH_CHECK_BOUNDS throws OutOfRange if i is outside the extent of
// dimension 0. Local.
template <dim_t N, class Target>
decltype(auto) subscript(const Target& target, typename Target::index_type i) {
  std::array<typename Target::index_type, N> c{};
  c[0] = i;
  if constexpr (bounds_checked) target.check(c, 1);
  if constexpr (N == 1)
    return target.element(c);
  else
    return MatrixRef<Target, N, 1>(target, c);
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__MATRIX__MATRIX_REF_H_
