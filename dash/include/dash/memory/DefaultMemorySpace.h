// The process-wide default instance of each kind of local memory space
// (DASH's get_default_memory_space). Local.
#ifndef DASH__MEMORY__DEFAULT_MEMORY_SPACE_H_
#define DASH__MEMORY__DEFAULT_MEMORY_SPACE_H_

#include <dash/memory/HBWSpace.h>
#include <dash/memory/HostSpace.h>
#include <dash/memory/MemorySpaceBase.h>

#include <type_traits>

namespace dash {

namespace internal {
template <class, class>
struct no_default_space : std::false_type {};
}  // namespace internal

// The process-wide memory space of domain MemoryDomain and kind MemoryType:
// a HostSpace for (memory_domain_local, memory_space_host_tag), an HBWSpace
// for (memory_domain_local, memory_space_hbw_tag); other pairs do not
// compile. Local; the instance lives until the program ends.
template <class MemoryDomain, class MemoryType>
MemorySpace<MemoryDomain, MemoryType>* get_default_memory_space() {
  static_assert(internal::no_default_space<MemoryDomain, MemoryType>::value,
                "dash::get_default_memory_space: there is a default only for the local host and "
                "high-bandwidth memory spaces");
  return nullptr;
}
template <>
inline MemorySpace<memory_domain_local, memory_space_host_tag>*
get_default_memory_space<memory_domain_local, memory_space_host_tag>() {
  static HostSpace space;
  return &space;
}
template <>
inline MemorySpace<memory_domain_local, memory_space_hbw_tag>*
get_default_memory_space<memory_domain_local, memory_space_hbw_tag>() {
  static HBWSpace space;
  return &space;
}

namespace internal {

// The default instance of the local memory space type Space: the process-wide
// one of its kind for HostSpace and HBWSpace, else one default-constructed
// instance of Space. Local.
template <class Space>
Space* default_local_space() {
  static_assert(is_local_memory_space<Space>::value,
                "dash: a local memory space is a std::pmr::memory_resource with "
                "memory_space_domain_category memory_domain_local (see MemorySpaceBase.h)");
  if constexpr (std::is_same_v<Space, HostSpace> || std::is_same_v<Space, HBWSpace>) {
    return static_cast<Space*>(
        get_default_memory_space<memory_domain_local,
                                 typename Space::memory_space_type_category>());
  } else {
    static Space space;
    return &space;
  }
}

// Where the units' parts of global memory over the space `space` come
// from (see GlobStaticMem): nullptr, DART's team allocation, for HostSpace
// and for HBWSpace where there is no HBM (logged once, naming `who`); else
// `space`, whose parts DART registers. Local.
template <class Space>
std::pmr::memory_resource* parts_resource(Space* space, const char* who) {
  if constexpr (std::is_same_v<Space, HostSpace>) {
    (void)space;
    (void)who;
    return nullptr;
  } else if constexpr (std::is_same_v<Space, HBWSpace>) {
    if (HBWSpace::check_hbw_available()) return space;
    warn_hbw_fallback(who);
    return nullptr;
  } else {
    (void)who;
    return space;
  }
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__MEMORY__DEFAULT_MEMORY_SPACE_H_
