// dash__print_stacktrace: the calling thread's stack, one demangled frame a line, under DASH's
// name (DASH_STACK_TRACE() in dash/internal/Assert.h calls it). Local.
#ifndef DASH__INTERNAL__STACK_TRACE_H_
#define DASH__INTERNAL__STACK_TRACE_H_

#include <cstdio>

// Writes up to max_frames frames of the caller's stack to `out` (the innermost first, this
// function left out), "#<n> <function> (<object file>)"; frames without symbols show their
// address. Local; async-signal-unsafe (it allocates).
void dash__print_stacktrace(std::FILE* out = stderr, unsigned int max_frames = 63);

#endif  // DASH__INTERNAL__STACK_TRACE_H_
