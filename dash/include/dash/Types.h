// Unit id types of the C++ layer: strong wrappers around the DART unit ids,
// so a team-relative id cannot be passed where a global one is meant.
#ifndef DASH__TYPES_H_
#define DASH__TYPES_H_

#include <dart/dart_types.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace dash {

// Number of dimensions of a pattern, container or view.
using dim_t = int;

// Signed index of an element in a global or local index space.
using default_index_t = std::int64_t;
// Distance between two global pointers, in elements (DASH's name).
using gptrdiff_t = default_index_t;

// Unsigned count of elements.
using default_size_t = std::uint64_t;
// Unsigned extent of a dimension (DASH's name; the same type).
using default_extent_t = default_size_t;

// Order in which the elements of an N-D index space are linearised: the last
// coordinate moves fastest (ROW_MAJOR, as C arrays) or the first (COL_MAJOR).
enum MemArrange { ROW_MAJOR, COL_MAJOR };

// Element types of containers: anything trivially copyable, since elements
// move between units as bytes.
// is_container_compatible<T>::value, DASH's spelling, and the _v form.
template <class T>
struct is_container_compatible : std::bool_constant<std::is_trivially_copyable_v<T>> {};
template <class T>
inline constexpr bool is_container_compatible_v = is_container_compatible<T>::value;

namespace internal {

// What both unit id types share: the id, conversion to int and to the DART
// type, and stepping to the next / previous id (loops over units, as in
// DASH). Derived is the id type, DartId its DART counterpart. Local.
template <class Derived, class DartId>
struct UnitId {
  dart_unit_t id = DART_UNDEFINED_UNIT_ID;
  constexpr UnitId() = default;
  constexpr explicit UnitId(dart_unit_t unit) : id(unit) {}
  constexpr operator dart_unit_t() const { return id; }
  constexpr operator DartId() const { return DartId{id}; }
  constexpr Derived& operator++() { return ++id, self(); }
  constexpr Derived operator++(int) {
    Derived before = self();
    ++id;
    return before;
  }
  constexpr Derived& operator--() { return --id, self(); }
  constexpr Derived operator--(int) {
    Derived before = self();
    --id;
    return before;
  }
  constexpr Derived& operator+=(dart_unit_t n) { return id += n, self(); }
  constexpr Derived& operator-=(dart_unit_t n) { return id -= n, self(); }

 private:
  constexpr Derived& self() { return static_cast<Derived&>(*this); }
};

}  // namespace internal

// Unit id relative to DART_TEAM_ALL. Converts to int implicitly. Local.
struct global_unit_t : internal::UnitId<global_unit_t, dart_global_unit_t> {
  constexpr global_unit_t() = default;
  constexpr explicit global_unit_t(dart_unit_t unit) : UnitId(unit) {}
  constexpr global_unit_t(dart_global_unit_t unit) : UnitId(unit.id) {}
};

// Unit id relative to some team. Converts to int implicitly. Local.
struct team_unit_t : internal::UnitId<team_unit_t, dart_team_unit_t> {
  constexpr team_unit_t() = default;
  constexpr explicit team_unit_t(dart_unit_t unit) : UnitId(unit) {}
  constexpr team_unit_t(dart_team_unit_t unit) : UnitId(unit.id) {}
};

}  // namespace dash

#endif  // DASH__TYPES_H_
