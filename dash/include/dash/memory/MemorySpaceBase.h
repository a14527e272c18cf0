// Memory spaces (DASH's names): where the bytes of a container or an
// allocator live. A *local* memory space is a std::pmr::memory_resource
// (allocate(bytes, alignment) / deallocate) that also names its kind of
// memory by a tag type:
//
// | space            | tag                    | memory                                   |
// |------------------|------------------------|------------------------------------------|
// | dash::HostSpace  | memory_space_host_tag  | the process heap (operator new)          |
// | dash::HBWSpace   | memory_space_hbw_tag   | high-bandwidth memory through memkind,   |
// |                  |                        | ordinary memory where there is none      |
//
// memory_space_traits<Space> reads a space's domain (local or global), kind
// and pointer types. Everything here is local: no call communicates.
#ifndef DASH__MEMORY__MEMORY_SPACE_BASE_H_
#define DASH__MEMORY__MEMORY_SPACE_BASE_H_

#include <cstddef>
#include <memory_resource>
#include <type_traits>

namespace dash {

// The domain of a memory space: the calling process's (local) or a team's
// (global).
struct memory_domain_local {};
struct memory_domain_global {};

// The kind of memory.
struct memory_space_host_tag {};
struct memory_space_hbw_tag {};
struct memory_space_cuda_tag {};
struct memory_space_pmem_tag {};

// Whether a global memory space's parts follow each other in one address
// order (a contiguous space: one allocation per unit, units in team order).
struct memory_space_noncontiguous {};
struct memory_space_contiguous : memory_space_noncontiguous {};

// How a global memory space allocates: all units together at once (static),
// or each unit alone and attaching to global memory later (dynamic).
struct allocation_static {};
struct allocation_dynamic {};

// How the units agree on a global memory space's state: every allocation is
// collective, units allocate independently and synchronise later, or a
// single unit allocates for all.
struct synchronization_collective {};
struct synchronization_independent {};
struct synchronization_single {};

namespace internal {

template <class Space, class = void>
struct space_void_pointer {
  using type = void*;
};
template <class Space>
struct space_void_pointer<Space, std::void_t<typename Space::void_pointer>> {
  using type = typename Space::void_pointer;
};
template <class Space, class = void>
struct space_const_void_pointer {
  using type = const void*;
};
template <class Space>
struct space_const_void_pointer<Space, std::void_t<typename Space::const_void_pointer>> {
  using type = typename Space::const_void_pointer;
};
template <class Space, class = void>
struct space_layout_tag {
  using type = memory_space_noncontiguous;
};
template <class Space>
struct space_layout_tag<Space, std::void_t<typename Space::memory_space_layout_tag>> {
  using type = typename Space::memory_space_layout_tag;
};

}  // namespace internal

// What a memory space type declares, with DASH's defaults for what it
// leaves out (void pointers: native; layout: noncontiguous).
template <class Space>
struct memory_space_traits {
  using memory_space_type = Space;
  using memory_space_type_category = typename Space::memory_space_type_category;
  using memory_space_domain_category = typename Space::memory_space_domain_category;
  using memory_space_layout_tag = typename internal::space_layout_tag<Space>::type;
  using is_global = std::is_same<memory_space_domain_category, memory_domain_global>;
  using is_local = std::is_same<memory_space_domain_category, memory_domain_local>;
  using void_pointer = typename internal::space_void_pointer<Space>::type;
  using const_void_pointer = typename internal::space_const_void_pointer<Space>::type;
};

// The base of local memory spaces of kind MemoryType: a
// std::pmr::memory_resource that names its domain and kind.
template <class MemoryType>
class LocalMemorySpaceBase : public std::pmr::memory_resource {
 public:
  using memory_space_domain_category = memory_domain_local;
  using memory_space_type_category = MemoryType;
};

// The base of global memory spaces of kind MemoryType.
template <class MemoryType>
class GlobalMemorySpaceBase {
 public:
  using memory_space_domain_category = memory_domain_global;
  using memory_space_type_category = MemoryType;

  GlobalMemorySpaceBase() = default;
  GlobalMemorySpaceBase(const GlobalMemorySpaceBase&) = default;
  GlobalMemorySpaceBase(GlobalMemorySpaceBase&&) = default;
  GlobalMemorySpaceBase& operator=(const GlobalMemorySpaceBase&) = default;
  GlobalMemorySpaceBase& operator=(GlobalMemorySpaceBase&&) = default;
  virtual ~GlobalMemorySpaceBase() = default;
};

// MemorySpace<domain, kind>: the base class of a memory space, local or
// global, by domain.
template <class MemoryDomain, class MemoryType>
class MemorySpace;
template <class MemoryType>
class MemorySpace<memory_domain_local, MemoryType> : public LocalMemorySpaceBase<MemoryType> {};
template <class MemoryType>
class MemorySpace<memory_domain_global, MemoryType> : public GlobalMemorySpaceBase<MemoryType> {};

// Whether Space is a local memory space (a memory resource with a kind).
template <class Space, class = void>
struct is_local_memory_space : std::false_type {};
template <class Space>
struct is_local_memory_space<Space, std::void_t<typename Space::memory_space_type_category,
                                                typename Space::memory_space_domain_category>>
    : std::bool_constant<
          std::is_same_v<typename Space::memory_space_domain_category, memory_domain_local> &&
          std::is_base_of_v<std::pmr::memory_resource, Space>> {};

}  // namespace dash

#endif  // DASH__MEMORY__MEMORY_SPACE_BASE_H_
