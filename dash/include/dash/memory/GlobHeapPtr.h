// dash::GlobHeapPtr<T, HeapMem>: a pointer into a GlobHeapMem by global
// position: the units' elements in team order, each unit's in its local
// order (its buckets one after the other). Arithmetic and comparison are
// local and O(1); dereferencing finds the unit and bucket (O(log units +
// log buckets)) and gives a GlobRef (load/store on the node where DART
// allows it, else one one-sided get or put). Valid until the memory is
// committed again or destroyed.
#ifndef DASH__MEMORY__GLOB_HEAP_PTR_H_
#define DASH__MEMORY__GLOB_HEAP_PTR_H_

#include <dart/dart.h>
#include <dash/Types.h>
#include <dash/memory/GlobRef.h>

#include <cstddef>
#include <iterator>
#include <type_traits>

namespace dash {

template <class T, class HeapMem>
class GlobHeapPtr {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::remove_const_t<T>;
  using difference_type = default_index_t;
  using index_type = default_index_t;
  using reference = GlobRef<T>;
  using pointer = GlobHeapPtr;

  GlobHeapPtr() = default;
  // Position `index` of `mem`. Local.
  GlobHeapPtr(const HeapMem* mem, index_type index) : mem_(mem), index_(index) {}
  // Element `local_index` of `unit`'s part of `mem`. Local.
  GlobHeapPtr(const HeapMem* mem, team_unit_t unit, index_type local_index)
      : mem_(mem), index_(mem->unit_offset(unit) + local_index) {}
  // A pointer to const from one to mutable.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  GlobHeapPtr(const GlobHeapPtr<U, HeapMem>& other) : mem_(other.memory()), index_(other.pos()) {}

  // The element as a global reference. Local (no communication yet).
  reference operator*() const { return GlobRef<T>(dart_gptr()); }
  reference operator[](difference_type n) const { return *(*this + n); }
  // DART's pointer to the element. Local; throws
  // dash::exception::OutOfRange past the last element.
  dart_gptr_t dart_gptr() const { return mem_->dart_gptr_at_index(index_); }
  // The element's native address if the calling unit owns it, else nullptr.
  T* local() const {
    void* addr = nullptr;
    if (dart_gptr_getaddr(dart_gptr(), &addr) != DART_OK) return nullptr;
    return static_cast<T*>(addr);
  }
  // The position in the memory space. Local.
  index_type pos() const { return index_; }
  const HeapMem* memory() const { return mem_; }

  GlobHeapPtr& operator+=(difference_type n) {
    index_ += n;
    return *this;
  }
  GlobHeapPtr& operator-=(difference_type n) { return *this += -n; }
  GlobHeapPtr& operator++() { return *this += 1; }
  GlobHeapPtr& operator--() { return *this -= 1; }
  GlobHeapPtr operator++(int) {
    GlobHeapPtr old = *this;
    ++*this;
    return old;
  }
  GlobHeapPtr operator--(int) {
    GlobHeapPtr old = *this;
    --*this;
    return old;
  }
  friend GlobHeapPtr operator+(GlobHeapPtr p, difference_type n) { return p += n; }
  friend GlobHeapPtr operator+(difference_type n, GlobHeapPtr p) { return p += n; }
  friend GlobHeapPtr operator-(GlobHeapPtr p, difference_type n) { return p -= n; }
  friend difference_type operator-(const GlobHeapPtr& a, const GlobHeapPtr& b) {
    return a.index_ - b.index_;
  }
  friend bool operator==(const GlobHeapPtr& a, const GlobHeapPtr& b) {
    return a.mem_ == b.mem_ && a.index_ == b.index_;
  }
  friend bool operator!=(const GlobHeapPtr& a, const GlobHeapPtr& b) { return !(a == b); }
  friend bool operator<(const GlobHeapPtr& a, const GlobHeapPtr& b) { return a.index_ < b.index_; }
  friend bool operator>(const GlobHeapPtr& a, const GlobHeapPtr& b) { return b < a; }
  friend bool operator<=(const GlobHeapPtr& a, const GlobHeapPtr& b) { return !(b < a); }
  friend bool operator>=(const GlobHeapPtr& a, const GlobHeapPtr& b) { return !(a < b); }

 private:
  const HeapMem* mem_ = nullptr;
  index_type index_ = 0;
};

}  // namespace dash

#endif  // DASH__MEMORY__GLOB_HEAP_PTR_H_
