// dash::Matrix<T, N> (and dash::NArray<T, N>): an N-D global array
// distributed by a pattern (TilePattern for Matrix, BlockPattern for NArray
// unless named). Global access by coordinates (GlobRef), iterators in the
// pattern's linear order, rectangular views (block, row, col, sub), and the
// calling unit's part as `local`.
//
// | call                                  | cost                       |
// |---------------------------------------|----------------------------|
// | constructors, destructor              | collective over the team   |
// | operator(), at(), m[i][j]...: access  | load/store or one get/put  |
// | block, row, col, sub, view, local     | local, O(N)                |
// | barrier()                             | collective over the team   |
//
// Bounds checks: at() always throws dash::exception::OutOfRange outside the
// extents; operator(), ref/cref, m[i][j]... (each subscript as it is given),
// m.local(...), m.local[...], views and iterators do when the program defines
// DASH_CHECK_BOUNDS (see dash/internal/BoundsCheck.h), and cost nothing more
// without it.
#ifndef DASH__MATRIX_H_
#define DASH__MATRIX_H_

#include <dash/Pattern.h>
#include <dash/internal/BoundsCheck.h>
#include <dash/internal/PatternMemory.h>
#include <dash/iterator/GlobIter.h>
#include <dash/matrix/LocalMatrixRef.h>
#include <dash/matrix/MatrixRef.h>
#include <dash/view/GlobView.h>

#include <string>

namespace dash {

template <class T, dim_t N, class IndexType = default_index_t,
          class PatternT = TilePattern<N, ROW_MAJOR, IndexType>>
class Matrix {
  static_assert(is_container_compatible_v<T>,
                "dash::Matrix<T>: T must be trivially copyable (elements move between units "
                "as bytes)");
  static_assert(PatternT::ndim() == N, "dash::Matrix<T, N>: the pattern has a different rank");
  static_assert(std::is_same_v<typename PatternT::index_type, IndexType>,
                "dash::Matrix: IndexType differs from the pattern's index type");

 public:
  using value_type = T;
  using index_type = IndexType;
  using size_type = std::make_unsigned_t<IndexType>;
  using pattern_type = PatternT;
  using coords_type = std::array<IndexType, N>;
  using iterator = GlobIter<T, PatternT>;
  using const_iterator = GlobIter<const T, PatternT>;
  using reference = GlobRef<T>;
  using const_reference = GlobRef<const T>;
  using pointer = GlobPtr<T>;
  using memory_type = GlobStaticMem<T>;  // DASH: the memory space of the elements
  using view_type = GlobView<T, PatternT>;
  using const_view_type = GlobView<const T, PatternT>;
  using local_type = LocalMatrixRef<T, Matrix>;

  // Extents, distribution, team and unit grid. Collective over team.
  Matrix(const SizeSpec<N, IndexType>& size, const DistributionSpec<N>& dist, Team& team,
         const TeamSpec<N, IndexType>& teamspec)
      : Matrix(PatternT(size, dist, teamspec, team)) {}
  // Every unit in the first TILE, else first distributed, dimension of dist
  // (TeamSpec(dist, team), as in DASH; make_pattern balances).
  explicit Matrix(const SizeSpec<N, IndexType>& size,
                  const DistributionSpec<N>& dist = DistributionSpec<N>(), Team& team = Team::All())
      : Matrix(PatternT(size, dist, TeamSpec<N, IndexType>(dist, team), team)) {}
  // Elements laid out by `pattern`. Collective over the pattern's team.
  explicit Matrix(const PatternT& pattern)
      : local(this), team_(&pattern.team()), storage_(pattern, "dash::Matrix") {}
  // DASH's variadic form: the N extents, then optionally N Distributions or
  // a DistributionSpec, a TeamSpec and a Team, as the pattern takes them,
  // e.g. Matrix<double, 2> m(rows, cols) or m(rows, cols, TILE(32),
  // TILE(32)). Collective over the team.
  template <class E0, class... Args,
            class = std::enable_if_t<internal::starts_pattern_arguments_v<E0>>>
  explicit Matrix(E0 extent0, Args&&... args)
      : Matrix(PatternT(extent0, std::forward<Args>(args)...)) {}
  // A matrix without memory (size 0) on `team`; see allocate(). Local.
  explicit Matrix(Team& team = Team::All()) : local(this), team_(&team) {}
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
  Matrix(Matrix&& other) noexcept
      : local(this), team_(other.team_), storage_(std::move(other.storage_)) {}
  Matrix& operator=(Matrix&& other) noexcept {
    storage_ = std::move(other.storage_);
    team_ = other.team_;
    return *this;
  }

  // (Re)allocates for `pattern`, freeing the previous memory first. Returns
  // true, as DASH's does (failures throw). Collective over the pattern's team.
  bool allocate(const PatternT& pattern) {
    storage_.reset();
    storage_ = internal::PatternMemory<T, PatternT>(pattern, "dash::Matrix");
    team_ = &pattern.team();
    return true;
  }
  // (Re)allocates with extents, distribution, team and unit grid (DASH's
  // argument order). Collective over team.
  bool allocate(const SizeSpec<N, IndexType>& size, const DistributionSpec<N>& dist,
                const TeamSpec<N, IndexType>& teamspec, Team& team = Team::All()) {
    return allocate(PatternT(size, dist, teamspec, team));
  }
  bool allocate(const SizeSpec<N, IndexType>& size,
                const DistributionSpec<N>& dist = DistributionSpec<N>(), Team& team = Team::All()) {
    return allocate(PatternT(size, dist, team));
  }
  // (Re)allocates from DASH's variadic arguments (see the constructor).
  template <class E0, class... Args,
            class = std::enable_if_t<internal::starts_pattern_arguments_v<E0>>>
  bool allocate(E0 extent0, Args&&... args) {
    return allocate(PatternT(extent0, std::forward<Args>(args)...));
  }
  // Frees the memory; the matrix has size 0 afterwards. Collective.
  void deallocate() { storage_.reset(); }

  static constexpr dim_t ndim() { return N; }
  size_type size() const { return storage_.size(); }
  bool empty() const { return size() == 0; }
  size_type extent(dim_t d) const { return pattern().extent(d); }
  const std::array<size_type, N>& extents() const { return pattern().extents(); }
  // Elements of the calling unit.
  size_type lsize() const { return storage_.lsize(); }
  // Whether the calling unit owns the element at global linear index g (DASH's). Local.
  bool is_local(index_type g) const { return pattern().is_local(g); }
  size_type local_size() const { return lsize(); }
  // Elements every unit has allocated (the largest local size).
  size_type local_capacity() const {
    return storage_.allocated() ? storage_.pattern_ptr()->local_capacity() : 0;
  }
  size_type lcapacity() const { return local_capacity(); }
  T* lbegin() const { return storage_.lbegin(); }
  T* lend() const { return storage_.lend(); }
  const PatternT& pattern() const { return storage_.pattern("dash::Matrix::pattern"); }
  Team& team() const { return *team_; }
  const GlobStaticMem<T>& globmem() const { return *storage_.mem_ptr(); }

  // Iterators over all elements in the pattern's linear order.
  iterator begin() { return iterator(storage_.mem_ptr(), storage_.pattern_ptr(), 0); }
  iterator end() {
    return iterator(storage_.mem_ptr(), storage_.pattern_ptr(), index_type(size()));
  }
  const_iterator begin() const {
    return const_iterator(storage_.mem_ptr(), storage_.pattern_ptr(), 0);
  }
  const_iterator end() const {
    return const_iterator(storage_.mem_ptr(), storage_.pattern_ptr(), index_type(size()));
  }

  // Element at global coordinates. Checked only under DASH_CHECK_BOUNDS (then
  // throws dash::exception::OutOfRange outside the extents). Local.
  template <class... I, class = std::enable_if_t<sizeof...(I) == N>>
  reference operator()(I... coords) {
    const coords_type c{static_cast<index_type>(coords)...};
    if constexpr (internal::bounds_checked) check_coords("dash::Matrix::operator()", c);
    return element(c);
  }
  template <class... I, class = std::enable_if_t<sizeof...(I) == N>>
  const_reference operator()(I... coords) const {
    const coords_type c{static_cast<index_type>(coords)...};
    if constexpr (internal::bounds_checked) check_coords("dash::Matrix::operator()", c);
    return celement(c);
  }
  // Like operator(); throws dash::exception::OutOfRange (a std::out_of_range)
  // outside the extents, with or without DASH_CHECK_BOUNDS.
  template <class... I, class = std::enable_if_t<sizeof...(I) == N>>
  reference at(I... coords) {
    const coords_type c{static_cast<index_type>(coords)...};
    check_coords("dash::Matrix::at", c);
    return element(c);
  }
  template <class... I, class = std::enable_if_t<sizeof...(I) == N>>
  const_reference at(I... coords) const {
    const coords_type c{static_cast<index_type>(coords)...};
    check_coords("dash::Matrix::at", c);
    return celement(c);
  }
  // Element at global coordinates given as an array; checked like
  // operator(). Local.
  reference ref(const coords_type& coords) {
    if constexpr (internal::bounds_checked) check_coords("dash::Matrix::ref", coords);
    return element(coords);
  }
  const_reference cref(const coords_type& coords) const {
    if constexpr (internal::bounds_checked) check_coords("dash::Matrix::cref", coords);
    return celement(coords);
  }
  // DASH's subscripts: m[i][j]... is m(i, j, ...); m[i] alone is a
  // dash::MatrixRef, the elements with first coordinate i (a row of a 2-D
  // matrix, with begin/end). Under DASH_CHECK_BOUNDS each subscript is checked
  // against its extent as it is given. Local.
  decltype(auto) operator[](index_type i) {
    return internal::subscript<N>(
        internal::MatrixSubscript<Matrix>{this, internal::stamp_of(storage_.mem_ptr())}, i);
  }
  decltype(auto) operator[](index_type i) const {
    return internal::subscript<N>(
        internal::MatrixSubscript<const Matrix>{this, internal::stamp_of(storage_.mem_ptr())}, i);
  }

  // The whole matrix as a view.
  view_type view() { return view_type(storage_.mem_ptr(), storage_.pattern_ptr(), whole()); }
  const_view_type view() const {
    return const_view_type(storage_.mem_ptr(), storage_.pattern_ptr(), whole());
  }
  // Block at block-grid coordinates, e.g. block({3, 5}). Throws
  // dash::exception::OutOfRange outside the block grid.
  view_type block(const coords_type& block_coords) {
    auto grid = pattern().blockspec();
    for (dim_t d = 0; d < N; ++d) {
      if (block_coords[d] < 0 || size_type(block_coords[d]) >= grid.extent(d))
        throw exception::OutOfRange("dash::Matrix::block: block coordinate " +
                                    std::to_string(block_coords[d]) + " in dimension " +
                                    std::to_string(d) + " outside the block grid extent " +
                                    std::to_string(grid.extent(d)));
    }
    return view_type(storage_.mem_ptr(), storage_.pattern_ptr(), pattern().block(block_coords));
  }
  // Block `block_index` of the block grid in its linear (Arrangement) order, DASH's
  // block(gindex), the pattern's block(block_index). Throws
  // dash::exception::OutOfRange outside [0, number of blocks). Local, O(N).
  template <dim_t M = N, class = std::enable_if_t<(M >= 2)>>
  view_type block(index_type block_index) {
    const auto grid = pattern().blockspec();
    if (block_index < 0 || size_type(block_index) >= grid.size())
      throw exception::OutOfRange("dash::Matrix::block: block " + std::to_string(block_index) +
                                  " outside the " + std::to_string(grid.size()) +
                                  " blocks of the block grid");
    return view_type(storage_.mem_ptr(), storage_.pattern_ptr(), pattern().block(block_index));
  }
  // Row i / column j / the range [offset, offset + extent) of dimension D.
  view_type row(index_type i) { return view().row(i); }
  const_view_type row(index_type i) const { return view().row(i); }
  template <dim_t M = N, class = std::enable_if_t<(M >= 2)>>
  view_type col(index_type j) {
    return view().col(j);
  }
  template <dim_t M = N, class = std::enable_if_t<(M >= 2)>>
  const_view_type col(index_type j) const {
    return view().col(j);
  }
  template <dim_t D>
  view_type sub(index_type offset, size_type extent) {
    return view().template sub<D>(offset, extent);
  }
  // DASH's slice sub<0>(i): the elements with first coordinate i, as m[i] (a dash::MatrixRef
  // of one dimension less). Checked as m[i]. Local.
  template <dim_t D>
  decltype(auto) sub(index_type i) {
    static_assert(D == 0,
                  "dash::Matrix::sub<D>(i): only D = 0 (m[i]); for D > 0 use "
                  "sub<D>(i, 1) or col(i)");
    return (*this)[i];
  }
  // DASH's ranges: rows [offset, offset + extent) (sub<0>), columns (sub<1>), as views that
  // take rows()/cols() again, e.g. m.rows(7, 4).cols(1, 6). Throw dash::exception::OutOfRange
  // outside the extents. Local, O(N).
  view_type rows(index_type offset, size_type extent) { return view().rows(offset, extent); }
  const_view_type rows(index_type offset, size_type extent) const {
    return view().rows(offset, extent);
  }
  template <dim_t M = N, class = std::enable_if_t<(M >= 2)>>
  view_type cols(index_type offset, size_type extent) {
    return view().cols(offset, extent);
  }
  template <dim_t M = N, class = std::enable_if_t<(M >= 2)>>
  const_view_type cols(index_type offset, size_type extent) const {
    return view().cols(offset, extent);
  }

  // Waits for all units of the team. Collective.
  void barrier() const { team().barrier(); }
  // Completes the calling unit's one-sided writes to this matrix. Local.
  void flush() const { storage_.flush(); }

  // The calling unit's part.
  local_type local;

 private:
  template <class>
  friend struct internal::MatrixSubscript;

  Team* team_;
  ViewSpec<N, IndexType> whole() const { return ViewSpec<N, IndexType>(pattern().sizespec()); }
  // Element at global coordinates, not checked. Local.
  reference element(const coords_type& coords) {
    auto l = storage_.pattern_ptr()->local_index(coords);
    return storage_.mem_ptr()->ref(l.unit, l.index);
  }
  const_reference celement(const coords_type& coords) const {
    auto l = storage_.pattern_ptr()->local_index(coords);
    return storage_.mem_ptr()->template ref<const T>(l.unit, l.index);
  }
  // Throws dash::exception::OutOfRange naming `call` unless c lies inside the
  // extents (all 0 while nothing is allocated). Local, O(N).
  void check_coords(const char* call, const coords_type& c) const {
    if (storage_.allocated())
      internal::check_coords(call, c, storage_.pattern_ptr()->extents());
    else
      internal::check_coords(call, c, std::array<size_type, N>{});
  }

  internal::PatternMemory<T, PatternT> storage_;
};

// An N-D array distributed by a BlockPattern (one local N-D array per unit).
template <class T, dim_t N, class IndexType = default_index_t,
          class PatternT = BlockPattern<N, ROW_MAJOR, IndexType>>
using NArray = Matrix<T, N, IndexType, PatternT>;

}  // namespace dash

#endif  // DASH__MATRIX_H_
