// The arguments of the variadic pattern and container constructors, as DASH
// takes them:
//
//   Pattern<N>(e0, ..., e(N-1)                 extents, integers, the first argument an extent
//              [, d0, ..., d(N-1) | distspec]  N Distributions or one DistributionSpec
//              [, teamspec] [, team])          in any order after the first extent
//
// e.g. BlockPattern<3>(nx, ny, nz, BLOCKED, NONE, NONE, team) or
// Matrix<double, 2>(n, m, TILE(32), TILE(32)). The extents may also be interleaved with the
// Distributions, as DASH allows: BlockPattern<2>(n, BLOCKED, m, NONE) or
// TilePattern<4>(n0, n1, TILE(2), TILE(2), n2, n3, NONE, NONE); the k-th integer is the extent
// of dimension k and the k-th Distribution its distribution. What is left out is DASH's
// default: BLOCKED in dimension 0 and NONE in the others, Team::All(), and
// TeamSpec(distspec, team). Wrong argument lists fail to compile with a
// message that says which rule they break.
#ifndef DASH__PATTERN__INTERNAL__PATTERN_ARGUMENTS_H_
#define DASH__PATTERN__INTERNAL__PATTERN_ARGUMENTS_H_

#include <dash/Team.h>
#include <dash/pattern/DistributionSpec.h>
#include <dash/pattern/SizeSpec.h>
#include <dash/pattern/TeamSpec.h>

#include <cstddef>
#include <optional>
#include <type_traits>

namespace dash {
namespace internal {

template <class A>
using pattern_argument_t = std::remove_cv_t<std::remove_reference_t<A>>;

template <class Want, class... A>
constexpr std::size_t count_arguments_of() {
  return (std::size_t(0) + ... + std::size_t(std::is_same_v<pattern_argument_t<A>, Want>));
}

// True if the first argument of a constructor call starts DASH's variadic
// argument list (an extent), so the other constructors keep their meaning.
template <class First>
inline constexpr bool starts_pattern_arguments_v = std::is_integral_v<pattern_argument_t<First>>;

template <dim_t N, class IndexType>
class PatternArguments {
 public:
  using size_type = std::make_unsigned_t<IndexType>;

  // Sorts `args` by type (see the top of the file). Local.
  template <class... Args>
  explicit PatternArguments(Args&&... args) {
    constexpr std::size_t extents = count_integral<Args...>();
    constexpr std::size_t dists = count_arguments_of<Distribution, Args...>();
    constexpr std::size_t distspecs = count_arguments_of<DistributionSpec<N>, Args...>();
    constexpr std::size_t teamspecs = count_arguments_of<TeamSpec<N, IndexType>, Args...>();
    constexpr std::size_t teams = count_arguments_of<Team, Args...>();
    static_assert(extents == N, "dash pattern arguments: give the N extents, as integers");
    static_assert(dists == 0 || dists == N,
                  "dash pattern arguments: give one Distribution per dimension, or none");
    static_assert(distspecs + (dists > 0) <= 1,
                  "dash pattern arguments: give the distribution once (N Distributions or one "
                  "DistributionSpec)");
    static_assert(teamspecs <= 1 && teams <= 1,
                  "dash pattern arguments: at most one TeamSpec and one Team");
    static_assert(extents + dists + distspecs + teamspecs + teams == sizeof...(Args),
                  "dash pattern arguments: only extents, Distribution, DistributionSpec<N>, "
                  "TeamSpec<N> and Team are accepted");
    (take(std::forward<Args>(args)), ...);
  }

  SizeSpec<N, IndexType> sizespec() const { return SizeSpec<N, IndexType>(extents_); }
  const DistributionSpec<N>& distspec() const { return distspec_; }
  Team& team() const { return *team_; }
  // The TeamSpec given, else TeamSpec(distspec, team).
  TeamSpec<N, IndexType> teamspec() const {
    return teamspec_ ? *teamspec_ : TeamSpec<N, IndexType>(distspec_, *team_);
  }

 private:
  template <class... A>
  static constexpr std::size_t count_integral() {
    return (std::size_t(0) + ... + std::size_t(std::is_integral_v<pattern_argument_t<A>>));
  }
  template <class I, class = std::enable_if_t<std::is_integral_v<I>>>
  void take(I extent) {
    extents_[next_extent_++] = static_cast<size_type>(extent);
  }
  void take(const Distribution& dist) { distspec_[next_dist_++] = dist; }
  void take(const DistributionSpec<N>& distspec) { distspec_ = distspec; }
  void take(const TeamSpec<N, IndexType>& teamspec) { teamspec_ = teamspec; }
  void take(Team& team) { team_ = &team; }

  std::array<size_type, N> extents_{};
  DistributionSpec<N> distspec_;
  std::optional<TeamSpec<N, IndexType>> teamspec_;
  Team* team_ = &Team::All();
  dim_t next_extent_ = 0;
  dim_t next_dist_ = 0;
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__PATTERN__INTERNAL__PATTERN_ARGUMENTS_H_
