// Test helper: the row-major index of a container's element (the order of a dataset or file that
// holds the container), whatever the order of the container's own positions.
#ifndef DASH_TESTS_SUPPORT_ROW_MAJOR_H_
#define DASH_TESTS_SUPPORT_ROW_MAJOR_H_

#include <dash/Types.h>

#include <cstddef>
#include <cstdint>

namespace dash_test {

// Row-major index of the element at global position g of c (a tiled matrix's positions go tile
// by tile). Local.
template <class C>
std::int64_t RowMajor(const C& c, std::size_t g) {
  const auto x = c.pattern().coords(typename C::index_type(g));
  std::int64_t i = 0;
  for (std::size_t d = 0; d < x.size(); ++d)
    i = i * std::int64_t(c.pattern().extent(dash::dim_t(d))) + x[d];
  return i;
}

}  // namespace dash_test

#endif  // DASH_TESTS_SUPPORT_ROW_MAJOR_H_
