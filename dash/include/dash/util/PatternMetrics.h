// dash::util::PatternMetrics<PatternT>: how evenly a pattern instance maps its blocks and
// elements to the units, under DASH's header path (ex.06.pattern-block-visualizer prints it).
// Elements are counted as the units hold them (underfilled blocks at their real size; DASH
// counts every block at the full block size).
#ifndef DASH__UTIL__PATTERN_METRICS_H_
#define DASH__UTIL__PATTERN_METRICS_H_

#include <dash/Types.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace dash {
namespace util {

template <class PatternT>
class PatternMetrics {
 public:
  // Counts the blocks and elements of every unit of the pattern's team. Local, O(blocks +
  // units).
  explicit PatternMetrics(const PatternT& pattern)
      : unit_blocks_(pattern.num_units(), 0), unit_elements_(pattern.num_units(), 0) {
    const auto nblocks = pattern.blockspec().size();
    num_blocks_ = int(nblocks);
    for (std::size_t b = 0; b < std::size_t(nblocks); ++b) {
      const auto block = pattern.block(typename PatternT::index_type(b));
      if (block.size() == 0) continue;
      ++unit_blocks_[std::size_t(pattern.unit_at(block.offsets()).id)];
    }
    for (std::size_t u = 0; u < unit_elements_.size(); ++u)
      unit_elements_[u] = int(pattern.local_size(team_unit_t(dart_unit_t(u))));
    if (unit_blocks_.empty()) return;
    min_blocks_ = *std::min_element(unit_blocks_.begin(), unit_blocks_.end());
    max_blocks_ = *std::max_element(unit_blocks_.begin(), unit_blocks_.end());
    min_elements_ = *std::min_element(unit_elements_.begin(), unit_elements_.end());
    max_elements_ = *std::max_element(unit_elements_.begin(), unit_elements_.end());
    num_balanced_ = int(std::count(unit_blocks_.begin(), unit_blocks_.end(), min_blocks_));
    num_imbalanced_ = min_blocks_ == max_blocks_
                          ? 0
                          : int(std::count(unit_blocks_.begin(), unit_blocks_.end(), max_blocks_));
  }

  // Blocks of the pattern.
  int num_blocks() const noexcept { return num_blocks_; }
  // Most elements of a unit over fewest (1: every unit holds as many; infinite if a unit holds
  // none while another holds some).
  double imbalance_factor() const noexcept {
    if (max_elements_ == 0) return 1.0;
    return min_elements_ == 0 ? std::numeric_limits<double>::infinity()
                              : double(max_elements_) / double(min_elements_);
  }
  // Fewest / most blocks and elements of a unit.
  int min_blocks_per_unit() const noexcept { return min_blocks_; }
  int max_blocks_per_unit() const noexcept { return max_blocks_; }
  int min_elements_per_unit() const noexcept { return min_elements_; }
  int max_elements_per_unit() const noexcept { return max_elements_; }
  // Units holding the fewest blocks; units holding the most (0 if every unit holds as many).
  int num_balanced_units() const noexcept { return num_balanced_; }
  int num_imbalanced_units() const noexcept { return num_imbalanced_; }
  // Blocks of one unit.
  int unit_local_blocks(team_unit_t unit) const noexcept { return unit_blocks_[unit.id]; }

 private:
  std::vector<int> unit_blocks_, unit_elements_;
  int num_blocks_ = 0, min_blocks_ = 0, max_blocks_ = 0, min_elements_ = 0, max_elements_ = 0;
  int num_balanced_ = 0, num_imbalanced_ = 0;
};

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__PATTERN_METRICS_H_
