// dash::internal::print_pattern_mapping: a pattern's mapping (what a callback returns per
// element) as a table with the block borders drawn, written to the debug log, under DASH's
// header path (DASH programs call it to log patterns). With debug logging off
// (DASH_ENABLE_LOGGING undefined, the default) it writes nothing and calls nothing.
#ifndef DASH__PATTERN__INTERNAL__PATTERN_LOGGING_H_
#define DASH__PATTERN__INTERNAL__PATTERN_LOGGING_H_

#include <dash/internal/Logging.h>

#include <iomanip>
#include <sstream>
#include <string>
#include <type_traits>

namespace dash {
namespace internal {

// 1-D: the elements in order, "|" where the owner changes; callback(pattern, index).
template <class PatternT, class CallbackFun>
std::enable_if_t<PatternT::ndim() == 1> print_pattern_mapping(const std::string& name,
                                                              const PatternT& pattern,
                                                              int field_width,
                                                              const CallbackFun& callback) {
#if defined(DASH_ENABLE_LOGGING)
  using I = typename PatternT::index_type;
  std::ostringstream line;
  line << "[";
  for (I i = 0; i < I(pattern.extent(0)); ++i) {
    if (i > 0 && pattern.unit_at(i) != pattern.unit_at(i - 1)) line << "|";
    line << std::setw(field_width) << callback(pattern, i) << " ";
  }
  line << "]";
  DASH_LOG_DEBUG("print_pattern_mapping", name, PatternT::PatternName);
  DASH_LOG_DEBUG("print_pattern_mapping", name, line.str());
#else
  (void)name, (void)pattern, (void)field_width, (void)callback;
#endif
}

// 2-D: a row of the table per row of the pattern, "|" after every block's last column and a
// line of "-" after every block's last row; callback(pattern, row, col).
template <class PatternT, class CallbackFun>
std::enable_if_t<PatternT::ndim() == 2> print_pattern_mapping(const std::string& name,
                                                              const PatternT& pattern,
                                                              int field_width,
                                                              const CallbackFun& callback) {
#if defined(DASH_ENABLE_LOGGING)
  const long rows = long(pattern.extent(0)), cols = long(pattern.extent(1));
  const long brows = long(pattern.blocksize(0)), bcols = long(pattern.blocksize(1));
  const std::string rule(
      std::size_t(cols * (field_width + 1) + long(pattern.blockspec().extent(1)) * 2 - 1), '-');
  DASH_LOG_DEBUG("print_pattern_mapping", name);
  DASH_LOG_DEBUG("print_pattern_mapping", name, " " + rule);
  for (long r = 0; r < rows; ++r) {
    std::ostringstream line;
    line << "|";
    for (long c = 0; c < cols; ++c) {
      line << std::setw(field_width + 1) << callback(pattern, int(r), int(c));
      if (c + 1 == cols || (c + 1) % bcols == 0) line << " |";
    }
    DASH_LOG_DEBUG("print_pattern_mapping", name, line.str());
    if (r + 1 == rows || (r + 1) % brows == 0)
      DASH_LOG_DEBUG("print_pattern_mapping", name, " " + rule);
  }
#else
  (void)name, (void)pattern, (void)field_width, (void)callback;
#endif
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__PATTERN__INTERNAL__PATTERN_LOGGING_H_
