// DASH's stand-in for C++17's polymorphic memory resources
// (std::pmr::memory_resource, polymorphic_allocator, get_default_resource,
// the pool resources). This library needs C++17, whose <memory_resource>
// has them all: the header only includes it.
#ifndef CPP17__POLYMORPHIC_ALLOCATOR_H_
#define CPP17__POLYMORPHIC_ALLOCATOR_H_

#include <cpp17/cstddef.h>

#include <memory_resource>

#endif  // CPP17__POLYMORPHIC_ALLOCATOR_H_
