// Out-of-core runtime hooks for dash::init / dash::finalize (not public).
#ifndef DASH__SRC__OOC__OUT_OF_CORE_H_
#define DASH__SRC__OOC__OUT_OF_CORE_H_

namespace dash {
namespace ooc {

// Finishes the queued spill I/O, stops the I/O thread and removes the unit's spill directory
// (dash::finalize). Local.
void shutdown_out_of_core() noexcept;

}  // namespace ooc
}  // namespace dash

#endif  // DASH__SRC__OOC__OUT_OF_CORE_H_
