// dash::GlobPtr<T>: a pointer into global memory (DASH's global pointer).
// A pointer that knows its allocation's layout (made from a container's
// iterator, or by GlobStaticMem::at: every unit holds `unit_capacity`
// elements, units in team order) moves through that memory space as DASH's
// do: past the end of one unit's part into the next unit's, p - q counting
// the elements between across units. A pointer made from a dart_gptr_t alone
// (dash::memalloc, addressof) moves within its unit's part. In both, the
// order of the memory space is not the order of a container's elements
// (that is the pattern's, which global iterators follow).
#ifndef DASH__MEMORY__GLOB_PTR_H_
#define DASH__MEMORY__GLOB_PTR_H_

#include <dart/dart.h>
#include <dash/Types.h>
#include <dash/memory/GlobRef.h>

#include <cstddef>
#include <cstdint>
#include <ostream>

namespace dash {

template <class T>
class GlobPtr {
 public:
  using value_type = std::remove_const_t<T>;
  using difference_type = default_index_t;

  GlobPtr() = default;
  // The null pointer (so that std::unique_ptr can hold a GlobPtr). Local.
  GlobPtr(std::nullptr_t) {}
  explicit GlobPtr(dart_gptr_t gptr) : gptr_(gptr) {}
  // A pointer into an allocation of `units` parts of `unit_capacity` elements
  // each, starting at offset 0 of every unit's part of the segment. Local.
  GlobPtr(dart_gptr_t gptr, default_index_t unit_capacity, int units)
      : gptr_(gptr), unit_capacity_(units > 0 ? unit_capacity : 0), units_(units) {}
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  GlobPtr(const GlobPtr<U>& other)
      : gptr_(other.dart_gptr()), unit_capacity_(other.unit_capacity()), units_(other.units()) {}
  // A typed pointer from an untyped one (a GlobPtr<void> counts its memory
  // space in bytes), only when asked for by name. Local.
  template <class U,
            class = std::enable_if_t<std::is_void_v<U> && !std::is_void_v<T> &&
                                     (std::is_const_v<T> || !std::is_const_v<U>)>,
            class = void>
  explicit GlobPtr(const GlobPtr<U>& other)
      : gptr_(other.dart_gptr()),
        unit_capacity_(other.unit_capacity() / static_cast<default_index_t>(sizeof(T))),
        units_(other.units()) {}
  // An untyped pointer from a typed one, as native pointers convert. Local.
  template <class U,
            class = std::enable_if_t<std::is_void_v<T> && !std::is_void_v<U> &&
                                     (std::is_const_v<T> || !std::is_const_v<U>)>,
            class = void, class = void>
  GlobPtr(const GlobPtr<U>& other)
      : gptr_(other.dart_gptr()),
        unit_capacity_(other.unit_capacity() * static_cast<default_index_t>(sizeof(U))),
        units_(other.units()) {}

  // Reference to the element pointed to / n elements further. Local.
  GlobRef<T> operator*() const { return GlobRef<T>(gptr_); }
  GlobRef<T> operator[](difference_type n) const { return *(*this + n); }

  GlobPtr& operator+=(difference_type n) {
    if (unit_capacity_ <= 0) {
      gptr_.addr_or_offs.offset += n * static_cast<difference_type>(sizeof(T));
      return *this;
    }
    // Position in the memory space, clamped to its ends: units past the last
    // one are the last unit's part past its end (DASH's end pointer).
    difference_type pos = space_position() + n;
    difference_type unit = pos >= 0 ? pos / unit_capacity_ : 0;
    if (unit >= units_) unit = units_ - 1;
    set_position(unit, pos - unit * unit_capacity_);
    return *this;
  }
  GlobPtr& operator-=(difference_type n) { return *this += -n; }
  GlobPtr& operator++() { return *this += 1; }
  GlobPtr& operator--() { return *this -= 1; }
  GlobPtr operator++(int) {
    GlobPtr old = *this;
    ++*this;
    return old;
  }
  GlobPtr operator--(int) {
    GlobPtr old = *this;
    --*this;
    return old;
  }
  friend GlobPtr operator+(GlobPtr p, difference_type n) { return p += n; }
  friend GlobPtr operator+(difference_type n, GlobPtr p) { return p += n; }
  friend GlobPtr operator-(GlobPtr p, difference_type n) { return p -= n; }
  // Distance in elements: across units for pointers that know their memory
  // space, else both must point into the same unit's part.
  friend difference_type operator-(const GlobPtr& a, const GlobPtr& b) {
    if (a.unit_capacity_ > 0 && b.unit_capacity_ > 0)
      return a.space_position() - b.space_position();
    return (static_cast<difference_type>(a.gptr_.addr_or_offs.offset) -
            static_cast<difference_type>(b.gptr_.addr_or_offs.offset)) /
           static_cast<difference_type>(sizeof(T));
  }
  friend bool operator==(const GlobPtr& a, const GlobPtr& b) {
    return dart_gptr_equal(a.gptr_, b.gptr_);
  }
  friend bool operator!=(const GlobPtr& a, const GlobPtr& b) { return !(a == b); }
  // Order by (unit, offset) within the same allocation.
  friend bool operator<(const GlobPtr& a, const GlobPtr& b) {
    if (a.gptr_.unitid != b.gptr_.unitid) return a.gptr_.unitid < b.gptr_.unitid;
    return a.gptr_.addr_or_offs.offset < b.gptr_.addr_or_offs.offset;
  }
  explicit operator bool() const { return !DART_GPTR_ISNULL(gptr_); }

  dart_gptr_t dart_gptr() const { return gptr_; }
  explicit operator dart_gptr_t() const { return gptr_; }
  // Unit (relative to the allocation's team) the pointer points into.
  team_unit_t unit() const { return team_unit_t(gptr_.unitid); }
  // Points the pointer at the same offset of `unit`'s part (DASH's
  // set_unit). Local.
  void set_unit(team_unit_t unit) { gptr_.unitid = unit.id; }
  // Native pointer if the calling unit owns the element, else nullptr. Local.
  T* local() const {
    void* addr = nullptr;
    if (dart_gptr_getaddr(gptr_, &addr) != DART_OK) return nullptr;
    return static_cast<T*>(addr);
  }
  // The same as local(), DASH's static_cast<T*>(ptr): nullptr on every unit
  // but the owner. Local.
  explicit operator T*() const { return local(); }
  bool is_local() const { return local() != nullptr; }

  // Elements per unit of the memory space, 0 if the pointer does not know it;
  // the number of units. Local.
  default_index_t unit_capacity() const { return unit_capacity_; }
  int units() const { return units_; }

 private:
  // Elements before this one in the memory space (units in team order).
  difference_type space_position() const {
    return static_cast<difference_type>(gptr_.unitid) * unit_capacity_ +
           static_cast<difference_type>(dart_gptr_offset(gptr_)) /
               static_cast<difference_type>(sizeof(T));
  }
  void set_position(difference_type unit, difference_type elements) {
    gptr_.unitid = static_cast<dart_unit_t>(unit);
    gptr_.addr_or_offs.offset =
        (gptr_.addr_or_offs.offset & ~DART_GPTR_OFFSET_MASK) |
        (static_cast<std::uint64_t>(elements * static_cast<difference_type>(sizeof(T))) &
         DART_GPTR_OFFSET_MASK);
  }

  dart_gptr_t gptr_ = DART_GPTR_NULL;
  default_index_t unit_capacity_ = 0;  // elements per unit; 0: moves within the unit's part
  int units_ = 0;
};

// Writes "dash::GlobPtr(unit <u>, team <t>, segment <s>, offset <bytes>)". Local.
template <class T>
std::ostream& operator<<(std::ostream& os, const GlobPtr<T>& p) {
  const dart_gptr_t g = p.dart_gptr();
  return os << "dash::GlobPtr(unit " << g.unitid << ", team " << g.teamid << ", segment " << g.segid
            << ", offset " << g.addr_or_offs.offset << ")";
}

// last - first in elements (DASH's dash::distance of global pointers). Local.
template <class T>
gptrdiff_t distance(const GlobPtr<T>& first, const GlobPtr<T>& last) {
  return last - first;
}

// Where `unit`'s part of the allocation `global_begin` points into begins,
// as a native pointer (DASH's dash::local_begin): for units reachable by
// load/store (the calling unit, units of its node with the shared windows
// on), else nullptr. Local.
template <class T>
T* local_begin(const GlobPtr<T>& global_begin, team_unit_t unit) {
  dart_gptr_t g = global_begin.dart_gptr();
  internal::check_dart(dart_gptr_setunit(&g, dart_team_unit_t{unit.id}), "dash::local_begin");
  g.addr_or_offs.offset &= ~DART_GPTR_OFFSET_MASK;  // offset 0, the segment's tag kept
  void* addr = nullptr;
  internal::check_dart(dart_gptr_getaddr_shared(g, &addr), "dash::local_begin");
  return static_cast<T*>(addr);
}

// The global pointer of a referenced element (DASH's dash::addressof; the
// form with a memory-space type argument, addressof<Array<T>::memory_type>(ref),
// gives the same pointer). Local.
template <class T>
GlobPtr<T> addressof(const GlobRef<T>& ref) {
  return GlobPtr<T>(ref.dart_gptr());
}
template <class MemorySpace, class T>
GlobPtr<T> addressof(const GlobRef<T>& ref) {
  return GlobPtr<T>(ref.dart_gptr());
}

}  // namespace dash

#endif  // DASH__MEMORY__GLOB_PTR_H_
