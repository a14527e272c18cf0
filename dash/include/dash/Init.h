// Start-up and shut-down of the C++ layer, and the calling unit's identity.
#ifndef DASH__INIT_H_
#define DASH__INIT_H_

#include <dash/Types.h>

#include <cstddef>

namespace dash {

// Initialises the runtime (and MPI unless the program did). Collective over
// all processes. Throws dash::exception::* on failure; every environment flag
// (DART_* and DASH_*) is checked first, before MPI starts, and a malformed one
// throws InvalidArgument naming the flag, its value and what is expected.
// From here on, an exception that escapes main (or a thread) prints one line,
// "[unit U] <exception type>: <what>", and a program that ends without
// finalize prints one line saying so; either ends the job (MPI_Abort, non-zero
// exit code) instead of leaving the other units waiting.
void init(int* argc, char*** argv);

// Like init, asking MPI for MPI_THREAD_MULTIPLE; returns whether it was
// granted. Collective.
bool init_thread(int* argc, char*** argv);

// Shuts the runtime down (finalises MPI if init started it). Collective.
void finalize();

// True between init and finalize. Local.
bool is_initialized();

// True if the runtime was started with MPI_THREAD_MULTIPLE (init_thread, and the MPI granted
// it), so units may call DASH from several threads (DASH's is_multithreaded). False before init.
// Local.
bool is_multithreaded();

// Global id of the calling unit. Local.
global_unit_t myid();

// Number of units. Local.
std::size_t size();

// Waits for all units. Collective.
void barrier();

}  // namespace dash

#endif  // DASH__INIT_H_
