// dash::ooc::BlockStore: the unit's block store, now part of the block layer
// (dash/bp/BlockStore.h, dash::bp::BlockStore); this header keeps the old
// path and names for programs that use them. Nothing of its own.
#ifndef DASH__OOC__BLOCK_STORE_H_
#define DASH__OOC__BLOCK_STORE_H_

#include <dash/bp/BlockStore.h>

namespace dash {
namespace ooc {

using dash::bp::BlockStore;
using dash::bp::StoreStats;

}  // namespace ooc
}  // namespace dash

#endif  // DASH__OOC__BLOCK_STORE_H_
