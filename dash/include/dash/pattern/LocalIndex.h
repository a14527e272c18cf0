// Results of pattern lookups: which unit owns an element, and where.
#ifndef DASH__PATTERN__LOCAL_INDEX_H_
#define DASH__PATTERN__LOCAL_INDEX_H_

#include <dash/Types.h>

#include <array>

namespace dash {

// An element's owner and its offset in the owner's local memory.
template <class IndexType>
struct local_index_t {
  team_unit_t unit;
  IndexType index;
};

// An element's owner and its coordinates in the owner's local index space.
template <class IndexType, dim_t N>
struct local_coords_t {
  team_unit_t unit;
  std::array<IndexType, N> coords;
};

}  // namespace dash

#endif  // DASH__PATTERN__LOCAL_INDEX_H_
