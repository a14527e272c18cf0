// dash::CSRPattern<1>: DASH's irregular 1-D pattern. Each unit's element count is given
// explicitly (zero allowed); unit 0 owns the first local_size(0) global indices, unit 1 the next
// local_size(1), and so on, as the row offsets of a compressed sparse row matrix cut its
// nonzeros. A unit's local memory is its one block in global order.
//
//   dash::CSRPattern<1> pattern(std::vector<size_type>{3, 0, 5});   // one size per unit
//   dash::Array<double, dash::default_index_t, dash::CSRPattern<1>> a(pattern);
//
// Lookups: global -> (unit, offset) and unit_at O(log P) (a binary search over the prefix sums
// of the sizes), local -> global O(1); none allocates. Construction is local and O(P); every
// unit must pass the same sizes (the array's allocation checks that they agree).
// The interface is PatternBase's (see dash/Pattern.h) plus the 1-D local coordinates, lbegin()
// and lend() (the calling unit's global index range) and local_sizes(); the core is shared with
// dash::LoadBalancePattern (internal/IrregularPattern.h).
#ifndef DASH__PATTERN__CSR_PATTERN_H_
#define DASH__PATTERN__CSR_PATTERN_H_

#include <dash/pattern/PatternProperties.h>
#include <dash/pattern/internal/IrregularPattern.h>
#include <dash/pattern/internal/PatternArguments.h>

#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {

template <dim_t N, MemArrange Arr = ROW_MAJOR, class IndexType = default_index_t>
class CSRPattern
    : public internal::IrregularPattern<CSRPattern<N, Arr, IndexType>, Arr, IndexType> {
  static_assert(N == 1, "dash::CSRPattern is one-dimensional (as DASH's)");
  using Base = internal::IrregularPattern<CSRPattern<N, Arr, IndexType>, Arr, IndexType>;

 public:
  static constexpr const char* PatternName = "CSRPattern";

  // The properties DASH declares for it (see PatternProperties.h): one block per unit, of any
  // size; units may own different amounts; each block contiguous, in global order.
  using partitioning_properties = pattern_partitioning_properties<
      pattern_partitioning_tag::minimal, pattern_partitioning_tag::rectangular,
      pattern_partitioning_tag::balanced, pattern_partitioning_tag::unbalanced>;
  using mapping_properties = pattern_mapping_properties<pattern_mapping_tag::unbalanced>;
  using layout_properties =
      pattern_layout_properties<pattern_layout_tag::blocked, pattern_layout_tag::linear>;
  using typename Base::size_type;

  // Unit u of `team` owns local_sizes[u] elements. Local, O(P); throws
  // dash::exception::InvalidArgument unless there is one size per unit.
  explicit CSRPattern(const std::vector<size_type>& local_sizes, Team& team = Team::All())
      : Base(local_sizes, TeamSpec<1, IndexType>(team), team) {}
  CSRPattern(const std::vector<size_type>& local_sizes, const TeamSpec<1, IndexType>& teamspec,
             Team& team = Team::All())
      : Base(local_sizes, teamspec, team) {}
  // The local sizes, then DASH's size arguments (the total, optionally a distribution, TeamSpec
  // and Team), e.g. CSRPattern<1>(sizes, n, team). Local; throws InvalidArgument when the
  // sizes do not add up to the total.
  template <class E0, class... Args,
            class = std::enable_if_t<internal::starts_pattern_arguments_v<E0>>>
  CSRPattern(const std::vector<size_type>& local_sizes, E0 total, Args&&... args)
      : CSRPattern(local_sizes,
                   internal::PatternArguments<1, IndexType>(total, std::forward<Args>(args)...)) {}
  // n elements cut as BlockPattern<1>(n, dist) cuts them (BLOCKED or TILE: blocks of
  // ceil(n / units); NONE: all on unit 0), in DASH's variadic form: CSRPattern<1>(n),
  // (n, dash::BLOCKED, team), ... Local, O(P); throws InvalidArgument for CYCLIC and
  // BLOCKCYCLIC.
  template <class E0, class... Args,
            class = std::enable_if_t<internal::starts_pattern_arguments_v<E0>>>
  explicit CSRPattern(E0 n, Args&&... args)
      : CSRPattern(internal::PatternArguments<1, IndexType>(n, std::forward<Args>(args)...)) {}
  // The same from a SizeSpec and DistributionSpec (the form dash::Array uses). Local.
  CSRPattern(const SizeSpec<1, IndexType>& sizespec, const DistributionSpec<1>& dist,
             const TeamSpec<1, IndexType>& teamspec, Team& team = Team::All())
      : Base(Base::blocked_sizes(sizespec.size(), dist[0], team.size()), teamspec, team) {}
  explicit CSRPattern(const SizeSpec<1, IndexType>& sizespec,
                      const DistributionSpec<1>& dist = DistributionSpec<1>(),
                      Team& team = Team::All())
      : CSRPattern(sizespec, dist, TeamSpec<1, IndexType>(team), team) {}

 private:
  explicit CSRPattern(const internal::PatternArguments<1, IndexType>& args)
      : CSRPattern(args.sizespec(), args.distspec(), args.teamspec(), args.team()) {}
  CSRPattern(const std::vector<size_type>& local_sizes,
             const internal::PatternArguments<1, IndexType>& args)
      : Base(checked_sizes(local_sizes, args.sizespec().size()), args.teamspec(), args.team()) {}
  static const std::vector<size_type>& checked_sizes(const std::vector<size_type>& sizes,
                                                     size_type total) {
    size_type sum = std::accumulate(sizes.begin(), sizes.end(), size_type(0));
    if (sum != total)
      throw exception::InvalidArgument("dash::CSRPattern: the local sizes add up to " +
                                       std::to_string(sum) + ", the size given is " +
                                       std::to_string(total));
    return sizes;
  }
};

}  // namespace dash

#endif  // DASH__PATTERN__CSR_PATTERN_H_
