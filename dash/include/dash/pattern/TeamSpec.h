// TeamSpec: arranges the units of a team in an N-D grid. Unit ids are the
// row-major linearisation of their grid coordinates.
#ifndef DASH__PATTERN__TEAM_SPEC_H_
#define DASH__PATTERN__TEAM_SPEC_H_

#include <dash/Team.h>
#include <dash/pattern/BalancedGrid.h>
#include <dash/pattern/DistributionSpec.h>
#include <dash/pattern/SizeSpec.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

namespace dash {

template <dim_t N, class IndexType = default_index_t>
class TeamSpec {
 public:
  using index_type = IndexType;
  using size_type = std::make_unsigned_t<IndexType>;

  // All units of `team` in a balanced grid over all N dimensions. Local.
  explicit TeamSpec(const Team& team = Team::All()) {
    assign_balanced(team.size(), std::array<bool, N>{} /* all distributed */, true);
  }
  // The units of `team` in a balanced grid over the dimensions `dist` does
  // not mark NONE. Local.
  TeamSpec(const DistributionSpec<N>& dist, const Team& team = Team::All()) {
    std::array<bool, N> none{};
    for (dim_t d = 0; d < N; ++d) none[d] = dist[d].type == DistributionType::NONE;
    assign_balanced(team.size(), none, false);
  }
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
  // Rearranges the same units in the balanced grid over all N dimensions
  // (dart_balanced_dims: 12 units in 2-D -> 4 x 3). Local.
  void balance_extents() { assign_balanced(size(), std::array<bool, N>{}, true); }
  // Number of dimensions with more than one unit.
  dim_t rank() const {
    dim_t r = 0;
    for (auto e : extents_) r += e > 1;
    return r;
  }
  // Grid coordinates of unit `unit`. Local.
  std::array<index_type, N> coords(index_type unit) const {
    return internal::delinearize<N, ROW_MAJOR>(unit, extents_);
  }
  // Unit at grid coordinates. Local.
  index_type at(const std::array<index_type, N>& coords) const {
    return internal::linearize<N, ROW_MAJOR>(coords, extents_);
  }
  bool operator==(const TeamSpec& o) const { return extents_ == o.extents_; }
  bool operator!=(const TeamSpec& o) const { return !(*this == o); }

 private:
  void assign_balanced(std::size_t nunits, const std::array<bool, N>& none, bool all_dims) {
    std::size_t ndist = 0;
    for (dim_t d = 0; d < N; ++d) ndist += all_dims || !none[d];
    for (auto& e : extents_) e = 1;
    if (nunits == 0) return;  // Team::Null(): the pattern names the null team
    if (ndist == 0) {
      // Nothing is distributed: keep the units in dimension 0 so the
      // pattern can report the mismatch with the distribution.
      if (N > 0) extents_[0] = nunits;
      return;
    }
    auto factors = internal::balanced_factors(nunits, ndist);
    std::size_t next = 0;
    for (dim_t d = 0; d < N; ++d) {
      if (all_dims || !none[d]) extents_[d] = factors[next++];
    }
  }

  std::array<size_type, N> extents_{};
};

}  // namespace dash

#endif  // DASH__PATTERN__TEAM_SPEC_H_
