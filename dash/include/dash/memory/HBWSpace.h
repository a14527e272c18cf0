// dash::HBWSpace: high-bandwidth memory (HBM, MCDRAM) as a local memory
// space (see MemorySpaceBase.h), through memkind's hbwmalloc interface,
// which the library loads at run time (libmemkind.so.0; Debian: libmemkind0).
//
// Where there is no HBM (memkind not installed, or it finds no
// high-bandwidth NUMA node; MEMKIND_HBW_NODES names one), HBWSpace hands
// out ordinary memory, as DASH's does, and says so once in the log (a
// warning). HBWSpace::check_hbw_available() tells a program which it gets;
// the answer is fixed for the run.
//
// | call                         | cost                                        |
// |------------------------------|---------------------------------------------|
// | check_hbw_available()        | local; the first call may load memkind      |
// | allocate / deallocate        | local (hbw_posix_memalign / hbw_free, or    |
// |                              | operator new / delete without HBM)          |
#ifndef DASH__MEMORY__HBW_SPACE_H_
#define DASH__MEMORY__HBW_SPACE_H_

#include <dash/memory/MemorySpaceBase.h>

#include <cstddef>
#include <memory_resource>
#include <string>

namespace dash {

class HBWSpace : public MemorySpace<memory_domain_local, memory_space_hbw_tag> {
 public:
  using void_pointer = void*;
  using const_void_pointer = const void*;

  // Whether allocations get high-bandwidth memory in this run (false: they
  // get ordinary memory). Local, thread-safe.
  static bool check_hbw_available();
  // Why there is no high-bandwidth memory ("" if there is). Local.
  static std::string hbw_unavailable_reason();

 protected:
  // `bytes` aligned to `alignment` (a power of two) in HBM, or in ordinary
  // memory where there is none; throws std::bad_alloc if there is no
  // memory left. Local.
  void* do_allocate(std::size_t bytes, std::size_t alignment) override;
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override;
  // Every HBWSpace frees what another allocated.
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return dynamic_cast<const HBWSpace*>(&other) != nullptr;
  }
};

namespace internal {
// Logs, once per run, that `who` gets ordinary memory instead of HBM, and
// why. Local.
void warn_hbw_fallback(const char* who);
}  // namespace internal

}  // namespace dash

#endif  // DASH__MEMORY__HBW_SPACE_H_
