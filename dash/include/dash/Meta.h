// DASH's header <dash/Meta.h>, for programs that include it by path: the type utilities
// (dash::typestr, ...).
#ifndef DASH__META_H_
#define DASH__META_H_

#include <dash/meta/TypeInfo.h>

#endif  // DASH__META_H_
