// dash::UnorderedMap under the path DASH programs include; the map itself is
// in dash/map/UnorderedMap.h.
#ifndef DASH__UNORDERED_MAP_H_
#define DASH__UNORDERED_MAP_H_

#include <dash/map/UnorderedMap.h>

#endif  // DASH__UNORDERED_MAP_H_
