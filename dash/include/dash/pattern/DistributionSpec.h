// DistributionSpec: one Distribution per dimension.
#ifndef DASH__PATTERN__DISTRIBUTION_SPEC_H_
#define DASH__PATTERN__DISTRIBUTION_SPEC_H_

#include <dash/pattern/Distribution.h>

#include <array>
#include <type_traits>

namespace dash {

template <dim_t N>
class DistributionSpec {
 public:
  // Default: BLOCKED in the first dimension, NONE in the others.
  constexpr DistributionSpec() {
    for (auto& d : dists_) d = NONE;
    if (N > 0) dists_[0] = BLOCKED;
  }
  constexpr explicit DistributionSpec(const std::array<Distribution, N>& dists) : dists_(dists) {}
  template <class... D, class = std::enable_if_t<sizeof...(D) == N && N != 0 &&
                                                 (std::is_same_v<D, Distribution> && ...)>>
  constexpr DistributionSpec(D... dists) : dists_{dists...} {}

  static constexpr dim_t ndim() { return N; }
  constexpr const Distribution& operator[](dim_t d) const { return dists_[d]; }
  constexpr Distribution& operator[](dim_t d) { return dists_[d]; }
  constexpr const std::array<Distribution, N>& values() const { return dists_; }
  // True if every dimension is TILE.
  constexpr bool is_tiled() const {
    for (auto& d : dists_)
      if (d.type != DistributionType::TILE) return false;
    return true;
  }
  constexpr bool operator==(const DistributionSpec& o) const { return dists_ == o.dists_; }

 private:
  std::array<Distribution, N> dists_{};
};

}  // namespace dash

#endif  // DASH__PATTERN__DISTRIBUTION_SPEC_H_
