// High-bandwidth memory (HBM, MCDRAM) for dash::HBWSpace and dash::io's "hbm" tier, through
// memkind's hbwmalloc interface, loaded at run time (libmemkind.so.0): a
// machine without memkind, or whose memkind finds no high-bandwidth NUMA
// node, has no hbm tier (with one NUMA node memkind is not even loaded).
// memkind's MEMKIND_HBW_NODES names the nodes to take as HBM (e.g.
// MEMKIND_HBW_NODES=0 on a machine without HBM, for tests). Not public.
#ifndef DASH__SRC__MEMORY__HBM_H_
#define DASH__SRC__MEMORY__HBM_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace dash {
namespace internal {

// Whether HBM can be allocated here; if not, `why` says why. The first
// call loads memkind (not where one NUMA node and no MEMKIND_HBW_NODES
// leave nothing to find). Local, thread-safe.
bool hbm_available(std::string* why = nullptr);

// `bytes` of HBM aligned to `alignment` (a power of two), or nullptr (why
// says why). Local.
void* hbm_allocate(std::size_t bytes, std::size_t alignment, std::string* why);

// Bytes of HBM of the node as memkind tells (memkind_get_capacity; 0 if
// it cannot). Local.
std::uint64_t hbm_capacity();

// Frees what hbm_allocate gave. Local.
void hbm_free(void* p);

}  // namespace internal
}  // namespace dash

#endif  // DASH__SRC__MEMORY__HBM_H_
