// Out-of-core runtime hooks for dash::init / dash::finalize (not public).
#ifndef DASH__SRC__OOC__OUT_OF_CORE_H_
#define DASH__SRC__OOC__OUT_OF_CORE_H_

namespace dash {
namespace ooc {

// Finishes the queued spill I/O, stops the I/O thread and removes the unit's spill directory
// (dash::finalize). Local.
void shutdown_out_of_core() noexcept;

// Checks the DASH_OOC_* flags (dash::init, before MPI starts): a malformed
// one throws InvalidArgument naming the flag, prefixed by `call`. Local.
void check_out_of_core_flags(const char* call);

}  // namespace ooc
}  // namespace dash

#endif  // DASH__SRC__OOC__OUT_OF_CORE_H_
