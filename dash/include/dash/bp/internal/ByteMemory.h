// dash::bp::internal byte memory: where the library's byte buffers live (Bytes, received
// arrays, the buffer stock, out-of-core slabs and spill buffers).
//
// Buffers of kMapBytes (128 KiB) and more are anonymous mappings of the library's own: grown
// with mremap (no copy), given back to the system with munmap the moment they are freed. They
// never pass through malloc, so the library neither moves glibc's dynamic mmap threshold with
// its traffic nor changes any of glibc's settings: the program's own allocations (FFTW's
// buffers, a block's vectors) behave as they would without the library. Smaller buffers come
// from malloc. Which of the two a buffer is follows from its capacity alone:
// capacity >= kMapBytes means a mapping of exactly `capacity` bytes (a multiple of the page).
// Mappings of kHugeAdviseBytes (4 MiB) and more are advised onto transparent huge pages
// (madvise(MADV_HUGEPAGE), the whole 2 MiB pages inside them; nothing is added to their size):
// a fresh 8 MiB buffer then takes 4 page faults, not 2048, and page faults are slow in a
// virtual machine (figures:
// bench/results/design_measurements.md#byte-buffers-of-4-mib-and-more-on-transparent-huge-pages).
// Advice only: with transparent huge pages off ("never", or prctl(PR_SET_THP_DISABLE)) they
// stay 4 KiB pages.
//
// | call             | cost                                                         |
// |------------------|--------------------------------------------------------------|
// | allocate_bytes   | local; malloc, or one mmap (pages faulted in on first touch) |
// | reallocate_bytes | local; realloc, mremap, or a mapping and one copy             |
// | release_bytes    | local; free or munmap                                         |
#ifndef DASH__BP__INTERNAL__BYTE_MEMORY_H_
#define DASH__BP__INTERNAL__BYTE_MEMORY_H_

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace dash {
namespace bp {
namespace internal {

constexpr std::size_t kMapBytes = std::size_t(128) << 10;
constexpr std::size_t kMapPage = 4096;
constexpr std::size_t kHugeAdviseBytes = std::size_t(4) << 20;

// Advises the mapping [data, data + capacity) onto transparent huge pages when it is
// kHugeAdviseBytes or more: the whole mapping, so that it stays one kernel mapping (advice on a
// part splits it, and mremap cannot grow a range over two); the kernel puts huge pages only
// on the aligned 2 MiB pages inside it, so no memory is added. Local; advice only (errors
// ignored).
inline void advise_huge_pages(char* data, std::size_t capacity) noexcept {
  if (capacity < kHugeAdviseBytes) return;
  madvise(data, capacity, MADV_HUGEPAGE);
}

// The capacity a request of n bytes gets: n below kMapBytes (at least 1), else n rounded up to
// whole pages. Local.
inline std::size_t byte_capacity(std::size_t n) {
  if (n < kMapBytes) return n > 0 ? n : 1;
  return (n + kMapPage - 1) / kMapPage * kMapPage;
}

// At least n bytes, uninitialised; `capacity` receives byte_capacity(n). Throws
// std::bad_alloc. Local.
inline char* allocate_bytes(std::size_t n, std::size_t& capacity) {
  capacity = byte_capacity(n);
  if (capacity < kMapBytes) {
    void* p = std::malloc(capacity);
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<char*>(p);
  }
  void* p = mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  advise_huge_pages(static_cast<char*>(p), capacity);
  return static_cast<char*>(p);
}

// Takes back a spill buffer of 1-2 MiB that shares a huge page with another (the spill store's
// direct buffers, dash/src/bp/store/DirectMemory.cc); false if `data` is not one. Local.
bool release_paired_bytes(char* data, std::size_t capacity) noexcept;
// Whether `data` is such a buffer. Local.
bool paired_bytes(const char* data, std::size_t capacity) noexcept;

// Gives back a buffer of allocate_bytes (or reallocate_bytes, or a spill buffer) of that
// capacity; nullptr is ignored. Local.
inline void release_bytes(char* data, std::size_t capacity) noexcept {
  if (data == nullptr) return;
  if (capacity < kMapBytes)
    std::free(data);
  else if (!release_paired_bytes(data, capacity))
    munmap(data, capacity);
}

// The buffer `data` of `capacity` bytes grown to at least n > capacity bytes, its first
// capacity bytes kept; `capacity` receives the new capacity. Throws std::bad_alloc (the old
// buffer then stays as it was). Local.
inline char* reallocate_bytes(char* data, std::size_t& capacity, std::size_t n) {
  if (data == nullptr) return allocate_bytes(n, capacity);
  const std::size_t grown = byte_capacity(n);
  if (grown < kMapBytes) {  // malloc to malloc
    void* p = std::realloc(data, grown);
    if (p == nullptr) throw std::bad_alloc();
    capacity = grown;
    return static_cast<char*>(p);
  }
  if (capacity >= kMapBytes) {  // mapping to mapping: the kernel moves the pages
    // (not those of a spill buffer that shares its huge page: it is copied, below)
    void* p =
        paired_bytes(data, capacity) ? MAP_FAILED : mremap(data, capacity, grown, MREMAP_MAYMOVE);
    if (p != MAP_FAILED) {
      advise_huge_pages(static_cast<char*>(p), grown);  // the grown part, or a grown small one
      capacity = grown;
      return static_cast<char*>(p);
    }
    // Refused (e.g. the range is several kernel mappings, as a buffer advised in parts by
    // someone else is): a fresh mapping and a copy.
    std::size_t mapped = 0;
    char* fresh = allocate_bytes(grown, mapped);
    std::memcpy(fresh, data, capacity);
    release_bytes(data, capacity);
    capacity = mapped;
    return fresh;
  }
  std::size_t mapped = 0;  // malloc to a mapping
  char* p = allocate_bytes(grown, mapped);
  std::memcpy(p, data, capacity);
  std::free(data);
  capacity = mapped;
  return p;
}

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__BYTE_MEMORY_H_
