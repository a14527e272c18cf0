// How one dimension of an index space is cut into blocks and dealt to the
// units of that dimension: BLOCKED, CYCLIC, BLOCKCYCLIC(b), TILE(b), NONE.
#ifndef DASH__PATTERN__DISTRIBUTION_H_
#define DASH__PATTERN__DISTRIBUTION_H_

#include <dash/Types.h>

namespace dash {

enum class DistributionType {
  NONE,         // not distributed: the whole extent is one block, one unit
  BLOCKED,      // one block of ceil(extent / units) per unit
  CYCLIC,       // blocks of 1, dealt round-robin
  BLOCKCYCLIC,  // blocks of b, dealt round-robin
  TILE,         // blocks of b, dealt round-robin; in tile patterns a block
                // is also contiguous in local memory
};

struct Distribution {
  DistributionType type = DistributionType::NONE;
  default_size_t blocksize = 0;  // elements; used by BLOCKCYCLIC and TILE

  // Block extent for `extent` elements dealt over `units` units; never 0.
  // Local.
  constexpr default_size_t block_extent(default_size_t extent, default_size_t units) const {
    switch (type) {
      case DistributionType::NONE:
        return extent > 0 ? extent : 1;
      case DistributionType::BLOCKED:
        return extent > 0 && units > 0 ? (extent + units - 1) / units : 1;
      case DistributionType::CYCLIC:
        return 1;
      default:
        return blocksize > 0 ? blocksize : 1;
    }
  }

  constexpr bool operator==(const Distribution& o) const {
    return type == o.type && blocksize == o.blocksize;
  }
  constexpr bool operator!=(const Distribution& o) const { return !(*this == o); }
};

inline constexpr Distribution NONE{DistributionType::NONE, 0};
inline constexpr Distribution BLOCKED{DistributionType::BLOCKED, 0};
inline constexpr Distribution CYCLIC{DistributionType::CYCLIC, 1};

// Blocks of `blocksize` elements dealt round-robin. Local.
constexpr Distribution BLOCKCYCLIC(default_size_t blocksize) {
  return Distribution{DistributionType::BLOCKCYCLIC, blocksize};
}

// Tiles of `blocksize` elements per dimension dealt round-robin. Local.
constexpr Distribution TILE(default_size_t blocksize) {
  return Distribution{DistributionType::TILE, blocksize};
}

// "BLOCKED", "TILE(32)", ... for messages. Local.
const char* distribution_name(DistributionType type);

}  // namespace dash

#endif  // DASH__PATTERN__DISTRIBUTION_H_
