// DASH's header <dash/atomic/GlobAtomicRef.h>, for programs that include it by path: the
// references to dash::Atomic elements (dash::GlobRef<dash::Atomic<T>>), in dash/Atomic.h.
#ifndef DASH__ATOMIC__GLOB_ATOMIC_REF_H_
#define DASH__ATOMIC__GLOB_ATOMIC_REF_H_

#include <dash/Atomic.h>

#endif  // DASH__ATOMIC__GLOB_ATOMIC_REF_H_
