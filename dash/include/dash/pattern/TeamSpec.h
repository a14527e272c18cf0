// TeamSpec: arranges the units of a team in an N-D grid. Unit ids are the
// row-major linearisation of their grid coordinates. The constructors from a
// team or a distribution follow DASH (all units in one dimension); the
// balanced grid of DART_UNIT_MAPPING and the block decomposer is
// balance_extents() or dash::make_team_spec.
#ifndef DASH__PATTERN__TEAM_SPEC_H_
#define DASH__PATTERN__TEAM_SPEC_H_

#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/pattern/BalancedGrid.h>
#include <dash/pattern/DistributionSpec.h>
#include <dash/pattern/SizeSpec.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace dash {

template <dim_t N, class IndexType = default_index_t>
class TeamSpec {
 public:
  using index_type = IndexType;
  using size_type = std::make_unsigned_t<IndexType>;

  // All units of `team` in dimension 0 (DASH's default; balance_extents()
  // or make_team_spec balance them). Local.
  explicit TeamSpec(const Team& team = Team::All()) : linear_(true) {
    assign_in_dimension(team.size(), 0);
  }
  // All units of `team` in the first dimension `dist` marks TILE if it marks
  // any, else in the first it does not mark NONE (dimension 0 if it marks
  // every one NONE), as DASH has it. Local.
  TeamSpec(const DistributionSpec<N>& dist, const Team& team = Team::All()) {
    assign_in_dimension(team.size(), first_distributed(dist));
  }
  // `other`'s grid for a pattern of `dist` over `team` (the grid the patterns use for a TeamSpec
  // they are given): `other` itself, unless it was made by TeamSpec(team): then the team's units
  // in the first dimension dist distributes (TeamSpec(dist, team)) when dist distributes more
  // than one dimension or `other` holds another number of units. A grid of another size than
  // the team stays as given (DASH's rule; see the patterns). Local.
  TeamSpec(const TeamSpec& other, const DistributionSpec<N>& dist, const Team& team)
      : extents_(other.extents_) {
    std::size_t distributed = 0;
    for (dim_t d = 0; d < N; ++d) distributed += dist[d].type != DistributionType::NONE;
    if (other.linear_ && (distributed > 1 || other.size() != team.size()))
      assign_in_dimension(team.size(), first_distributed(dist));
  }
  TeamSpec(const TeamSpec&) = default;
  TeamSpec& operator=(const TeamSpec&) = default;
  // An explicit grid, e.g. TeamSpec<2>(2, 3).
  template <class... E,
            class = std::enable_if_t<sizeof...(E) == N && N != 0 && (std::is_integral_v<E> && ...)>>
  TeamSpec(E... extents) : extents_{static_cast<size_type>(extents)...} {}
  explicit TeamSpec(const std::array<size_type, N>& extents) : extents_(extents) {}

  static constexpr dim_t ndim() { return N; }
  size_type extent(dim_t d) const { return extents_[d]; }
  const std::array<size_type, N>& extents() const { return extents_; }
  // Number of units in the grid.
  size_type size() const {
    size_type n = 1;
    for (auto e : extents_) n *= e;
    return n;
  }
  // Number of units in the grid (DASH's name for size()).
  size_type num_units() const { return size(); }
  // Number of units in dimension d (DASH's name for extent(d)).
  size_type num_units(dim_t d) const { return extents_[d]; }
  // Rearranges the same units in the balanced grid over all N dimensions
  // (dart_balanced_dims: 12 units in 2-D -> 4 x 3). Local.
  void balance_extents() {
    assign_balanced(size());
    linear_ = false;
  }
  // Sets the grid's extents (DASH's resize; a pattern built on it checks that they hold the
  // team's units). Local.
  template <class E>
  void resize(const std::array<E, N>& extents) {
    for (dim_t d = 0; d < N; ++d) extents_[d] = static_cast<size_type>(extents[d]);
    linear_ = false;
  }
  // Number of dimensions with more than one unit, at least 1 (DASH's: a grid of one unit has
  // rank 1).
  dim_t rank() const {
    dim_t r = 0;
    for (auto e : extents_) r += e > 1;
    return r > 0 ? r : 1;
  }
  // Grid coordinates of unit `unit`. Local.
  std::array<index_type, N> coords(index_type unit) const {
    return internal::delinearize<N, ROW_MAJOR>(unit, extents_);
  }
  // Grid coordinate of unit `unit` in dimension 0, 1 or 2 (DASH's names for coords(unit)[d]).
  // Local.
  template <dim_t M = N, class = std::enable_if_t<(M > 0)>>
  size_type x(index_type unit) const {
    return size_type(coords(unit)[0]);
  }
  template <dim_t M = N, class = std::enable_if_t<(M > 1)>>
  size_type y(index_type unit) const {
    return size_type(coords(unit)[1]);
  }
  template <dim_t M = N, class = std::enable_if_t<(M > 2)>>
  size_type z(index_type unit) const {
    return size_type(coords(unit)[2]);
  }
  // Unit at grid coordinates. Local.
  index_type at(const std::array<index_type, N>& coords) const {
    return internal::linearize<N, ROW_MAJOR>(coords, extents_);
  }
  // Unit at grid coordinates given one per dimension, as DASH writes it: ts.at(x, y). Local.
  template <class... E,
            class = std::enable_if_t<sizeof...(E) == N && (std::is_integral_v<E> && ...)>>
  index_type at(E... coords) const {
    return at(std::array<index_type, N>{static_cast<index_type>(coords)...});
  }
  bool operator==(const TeamSpec& o) const { return extents_ == o.extents_; }
  bool operator!=(const TeamSpec& o) const { return !(*this == o); }

 private:
  // The first dimension dist marks TILE, else the first it does not mark
  // NONE, else 0.
  static dim_t first_distributed(const DistributionSpec<N>& dist) {
    for (dim_t d = 0; d < N; ++d)
      if (dist[d].type == DistributionType::TILE) return d;
    for (dim_t d = 0; d < N; ++d)
      if (dist[d].type != DistributionType::NONE) return d;
    return 0;
  }
  // nunits units in dimension d, 1 in the others (all 1 for the null team,
  // which the pattern names).
  void assign_in_dimension(std::size_t nunits, dim_t d) {
    for (auto& e : extents_) e = 1;
    if (N > 0 && nunits > 0) extents_[d] = static_cast<size_type>(nunits);
  }
  void assign_balanced(std::size_t nunits) {
    for (auto& e : extents_) e = 1;
    if (nunits == 0) return;
    auto factors = internal::balanced_factors(nunits, N);
    for (dim_t d = 0; d < N; ++d) extents_[d] = factors[std::size_t(d)];
  }

  std::array<size_type, N> extents_{};
  bool linear_ = false;  // made by TeamSpec(team): patterns may rearrange it
};

// Writes "dash::TeamSpec<N>(e0 x e1 ...)". Local.
template <dim_t N, class IndexType>
std::ostream& operator<<(std::ostream& os, const TeamSpec<N, IndexType>& spec) {
  os << "dash::TeamSpec<" << N << ">(";
  for (dim_t d = 0; d < N; ++d) os << (d ? " x " : "") << spec.extent(d);
  return os << ")";
}

}  // namespace dash

#endif  // DASH__PATTERN__TEAM_SPEC_H_
