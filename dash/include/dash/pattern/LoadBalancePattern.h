// dash::LoadBalancePattern<1>: DASH's 1-D pattern that gives each unit a share of the elements
// in proportion to its capacity, blocked by unit in order (as dash::CSRPattern, whose core it
// shares: same lookups and costs, see CSRPattern.h).
//
//   dash::util::TeamLocality tloc(dash::Team::All());
//   dash::LoadBalancePattern<1> pattern(dash::SizeSpec<1>(n), tloc);
//
// A unit's weight is the product of two measures (type parameters, as in DASH), each a class
// with a static unit_weights(const dash::util::TeamLocality&) giving one weight per team unit:
//
//   UnitClockFreqMeasure   DASH's CPU capacity: cores x threads per core x clock rate of the
//                          unit, as tloc.unit_locality(u) tells (UnitLocality::num_cores(),
//                          num_threads(), cpu_mhz()). A factor the locality layer does not know
//                          counts 1: cores where unknown, the clock rate unless every unit's is
//                          known (DART does not measure it; a program or test may set it
//                          through tloc.unit_locality(u).hwinfo()).
//   BytesPerCycleMeasure   1 for every unit: the locality layer reports no memory bandwidth.
//                          (DASH reads a per-unit bandwidth figure from its hwloc layer.)
//
// Each measure is normalised to mean 1, as is their product (unit_load_weights()). Unit u gets
// floor(n * w_u / sum w) elements, and the elements left by rounding go one each to the units
// with the largest remainders (lower unit first on ties), so the shares add up to n exactly.
// Construction is local (the locality hierarchy is the same on every unit, so every unit
// computes the same shares) and O(P); lookups as CSRPattern: O(log P), no allocation.
#ifndef DASH__PATTERN__LOAD_BALANCE_PATTERN_H_
#define DASH__PATTERN__LOAD_BALANCE_PATTERN_H_

#include <dash/pattern/PatternProperties.h>
#include <dash/pattern/internal/IrregularPattern.h>
#include <dash/util/TeamLocality.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace dash {

// CPU capacity per unit: cores x threads per core x clock rate (unknown factors 1). Local.
struct UnitClockFreqMeasure {
  static std::vector<double> unit_weights(const util::TeamLocality& tloc) {
    const std::size_t units = tloc.team().size();
    bool clocks_known = true;
    for (std::size_t u = 0; u < units; ++u)
      clocks_known = clocks_known && tloc.unit_locality(team_unit_t(dart_unit_t(u))).cpu_mhz() > 0;
    std::vector<double> w(units);
    for (std::size_t u = 0; u < units; ++u) {
      const util::UnitLocality& unit = tloc.unit_locality(team_unit_t(dart_unit_t(u)));
      const int cores = unit.num_cores();
      w[u] = (cores > 0 ? double(cores) : 1.0) * double(unit.num_threads()) *
             (clocks_known ? double(unit.cpu_mhz()) : 1.0);
    }
    return w;
  }
};

// Memory bandwidth per unit: not reported by the locality layer, so 1 for every unit. Local.
struct BytesPerCycleMeasure {
  static std::vector<double> unit_weights(const util::TeamLocality& tloc) {
    return std::vector<double>(tloc.team().size(), 1.0);
  }
};

template <dim_t N, class CompBasedMeasure = UnitClockFreqMeasure,
          class MemBasedMeasure = BytesPerCycleMeasure, MemArrange Arr = ROW_MAJOR,
          class IndexType = default_index_t>
class LoadBalancePattern
    : public internal::IrregularPattern<
          LoadBalancePattern<N, CompBasedMeasure, MemBasedMeasure, Arr, IndexType>, Arr,
          IndexType> {
  static_assert(N == 1, "dash::LoadBalancePattern is one-dimensional (as DASH's)");
  using Base = internal::IrregularPattern<
      LoadBalancePattern<N, CompBasedMeasure, MemBasedMeasure, Arr, IndexType>, Arr, IndexType>;

 public:
  static constexpr const char* PatternName = "LoadBalancePattern";

  // The properties DASH declares for it (without DASH's `dynamic`: the shares are fixed when
  // the pattern is built); see PatternProperties.h.
  using partitioning_properties = pattern_partitioning_properties<
      pattern_partitioning_tag::minimal, pattern_partitioning_tag::rectangular,
      pattern_partitioning_tag::balanced, pattern_partitioning_tag::unbalanced>;
  using mapping_properties = pattern_mapping_properties<pattern_mapping_tag::unbalanced>;
  using layout_properties =
      pattern_layout_properties<pattern_layout_tag::blocked, pattern_layout_tag::linear>;
  using typename Base::size_type;

  // sizespec.size() elements over the units of tloc's team, shared by weight. Local, O(P).
  LoadBalancePattern(const SizeSpec<1, IndexType>& sizespec, const util::TeamLocality& tloc)
      : LoadBalancePattern(sizespec.size(), Weights(tloc), tloc.team()) {}
  // The same over `team`'s locality. Local, O(P).
  explicit LoadBalancePattern(const SizeSpec<1, IndexType>& sizespec, Team& team = Team::All())
      : LoadBalancePattern(sizespec, util::TeamLocality(team)) {}

  // Each unit's weight by the CPU measure, the memory measure, and their product (each of mean
  // 1), indexed by team unit. Local.
  const std::vector<double>& unit_cpu_weights() const { return weights_.cpu; }
  const std::vector<double>& unit_membw_weights() const { return weights_.membw; }
  const std::vector<double>& unit_load_weights() const { return weights_.load; }

 private:
  struct Weights {
    std::vector<double> cpu, membw, load;
    explicit Weights(const util::TeamLocality& tloc)
        : cpu(CompBasedMeasure::unit_weights(tloc)), membw(MemBasedMeasure::unit_weights(tloc)) {
      if (cpu.size() != tloc.team().size() || membw.size() != tloc.team().size())
        throw exception::InvalidArgument(
            "dash::LoadBalancePattern: a measure gave a weight count other than the team size");
      normalise(cpu);
      normalise(membw);
      load.resize(cpu.size());
      for (std::size_t u = 0; u < load.size(); ++u) load[u] = cpu[u] * membw[u];
      normalise(load);
    }
    // Scales w to mean 1; throws InvalidArgument for negative or all-zero weights.
    static void normalise(std::vector<double>& w) {
      double sum = 0;
      for (double x : w) {
        if (!(x >= 0) || !std::isfinite(x))
          throw exception::InvalidArgument("dash::LoadBalancePattern: a unit weight is negative");
        sum += x;
      }
      if (!(sum > 0))
        throw exception::InvalidArgument("dash::LoadBalancePattern: every unit weight is 0");
      for (double& x : w) x *= double(w.size()) / sum;
    }
  };

  LoadBalancePattern(size_type n, Weights weights, Team& team)
      : Base(shares(n, weights.load), TeamSpec<1, IndexType>(team), team),
        weights_(std::move(weights)) {}

  // n split by weight: floors, then the rest one each by largest remainder. O(P log P).
  static std::vector<size_type> shares(size_type n, const std::vector<double>& weight) {
    const double total = std::accumulate(weight.begin(), weight.end(), 0.0);
    std::vector<size_type> out(weight.size());
    std::vector<double> rest(weight.size());
    size_type given = 0;
    for (std::size_t u = 0; u < weight.size(); ++u) {
      const double exact = double(n) * (weight[u] / total);
      out[u] = std::min<size_type>(size_type(std::floor(exact)), n - given);
      rest[u] = exact - double(out[u]);
      given += out[u];
    }
    std::vector<std::size_t> order(weight.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return rest[a] > rest[b]; });
    for (std::size_t i = 0; given < n; i = (i + 1) % order.size(), ++given) ++out[order[i]];
    return out;
  }

  Weights weights_;
};

}  // namespace dash

#endif  // DASH__PATTERN__LOAD_BALANCE_PATTERN_H_
