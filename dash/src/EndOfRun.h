// The handlers dash::init installs for a program's end (EndOfRun.cc): an exception escaping main
// and a return without dash::finalize print one line per unit and abort the job. Not public.
#ifndef DASH__SRC__END_OF_RUN_H_
#define DASH__SRC__END_OF_RUN_H_

namespace dash {
namespace internal {

// Installs the terminate handler and the exit check, once per process. Local.
void install_end_of_run_handlers();

}  // namespace internal
}  // namespace dash

#endif  // DASH__SRC__END_OF_RUN_H_
