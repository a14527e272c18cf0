// High-bandwidth memory through memkind (Hbm.h).
#include "memory/Hbm.h"

#include <dirent.h>
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace dash {
namespace internal {

namespace {

// memkind's hbwmalloc functions (hbwmalloc.h), looked up at run time.
struct Memkind {
  int (*check_available)() = nullptr;
  int (*posix_memalign)(void**, std::size_t, std::size_t) = nullptr;
  void (*free)(void*) = nullptr;
  long (*capacity)(void*) = nullptr;  // memkind_get_capacity (memkind 1.10 on), may be absent
  void** hbw_kind = nullptr;          // &MEMKIND_HBW
  bool usable = false;
  std::string why;
};

// The NUMA nodes the kernel lists (0 if it cannot tell).
int numa_nodes() {
  DIR* dir = opendir("/sys/devices/system/node");
  if (dir == nullptr) return 0;
  int nodes = 0;
  while (const dirent* e = readdir(dir))
    if (std::strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' && e->d_name[4] <= '9')
      ++nodes;
  closedir(dir);
  return nodes;
}

const Memkind& memkind() {
  static Memkind m;
  static std::once_flag once;
  std::call_once(once, [] {
    // memkind finds HBM as a NUMA node of its own (or one MEMKIND_HBW_NODES names): with one
    // node and no such name there is none, and loading memkind (about 45 ms, its own hwloc and
    // arenas) is spared.
    if (std::getenv("MEMKIND_HBW_NODES") == nullptr && numa_nodes() == 1) {
      m.why = "this machine has one NUMA node and MEMKIND_HBW_NODES names none";
      return;
    }
    void* lib = dlopen("libmemkind.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      m.why = "memkind is not installed (libmemkind.so.0: " + std::string(dlerror()) + ")";
      return;
    }
    m.check_available = reinterpret_cast<int (*)()>(dlsym(lib, "hbw_check_available"));
    m.posix_memalign = reinterpret_cast<int (*)(void**, std::size_t, std::size_t)>(
        dlsym(lib, "hbw_posix_memalign"));
    m.free = reinterpret_cast<void (*)(void*)>(dlsym(lib, "hbw_free"));
    m.capacity = reinterpret_cast<long (*)(void*)>(dlsym(lib, "memkind_get_capacity"));
    m.hbw_kind = static_cast<void**>(dlsym(lib, "MEMKIND_HBW"));
    if (!m.check_available || !m.posix_memalign || !m.free) {
      m.why = "libmemkind.so.0 lacks the hbwmalloc functions";
      return;
    }
    if (m.check_available() != 0) {
      m.why = "memkind finds no high-bandwidth memory on this node (MEMKIND_HBW_NODES names it)";
      return;
    }
    m.usable = true;  // the library stays loaded for the process
  });
  return m;
}

}  // namespace

bool hbm_available(std::string* why) {
  const Memkind& m = memkind();
  if (!m.usable && why) *why = m.why;
  return m.usable;
}

void* hbm_allocate(std::size_t bytes, std::size_t alignment, std::string* why) {
  const Memkind& m = memkind();
  if (!m.usable) {
    if (why) *why = m.why;
    return nullptr;
  }
  void* p = nullptr;
  // hbw_posix_memalign wants a power of two of at least sizeof(void*).
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  const int rc = m.posix_memalign(&p, alignment, bytes > 0 ? bytes : 1);
  if (rc != 0) {
    if (why) *why = "memkind cannot allocate " + std::to_string(bytes) + " bytes of HBM";
    return nullptr;
  }
  return p;
}

std::uint64_t hbm_capacity() {
  const Memkind& m = memkind();
  if (!m.usable || !m.capacity || !m.hbw_kind) return 0;
  const long c = m.capacity(*m.hbw_kind);
  return c > 0 ? std::uint64_t(c) : 0;
}

void hbm_free(void* p) {
  if (p) memkind().free(p);
}

}  // namespace internal
}  // namespace dash
