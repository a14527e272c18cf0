// dash::ooc::SpillDirectory: the unit's spill directory, now part of the
// block layer (dash/bp/SpillDirectory.h, dash::bp::SpillDirectory); this
// header keeps the old path and names for programs that use them. Nothing of
// its own.
#ifndef DASH__OOC__SPILL_DIRECTORY_H_
#define DASH__OOC__SPILL_DIRECTORY_H_

#include <dash/bp/SpillDirectory.h>

namespace dash {
namespace ooc {

using dash::bp::remove_spill_directory;
using dash::bp::spill_open;
using dash::bp::spill_rename;
using dash::bp::spill_unlink;
using dash::bp::SpillDirectory;

}  // namespace ooc
}  // namespace dash

#endif  // DASH__OOC__SPILL_DIRECTORY_H_
