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

// Unsigned count of elements.
using default_size_t = std::uint64_t;

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

// Unit id relative to DART_TEAM_ALL. Converts to int implicitly. Local.
struct global_unit_t {
  dart_unit_t id = DART_UNDEFINED_UNIT_ID;
  constexpr global_unit_t() = default;
  constexpr explicit global_unit_t(dart_unit_t unit) : id(unit) {}
  constexpr global_unit_t(dart_global_unit_t unit) : id(unit.id) {}
  constexpr operator dart_unit_t() const { return id; }
  constexpr operator dart_global_unit_t() const {
    return dart_global_unit_t{id};
  }  // Steps to the next / previous unit id (loops over units, as in DASH). Local.
  constexpr global_unit_t& operator++() {
    ++id;
    return *this;
  }
  constexpr global_unit_t operator++(int) {
    global_unit_t before = *this;
    ++id;
    return before;
  }
  constexpr global_unit_t& operator--() {
    --id;
    return *this;
  }
  constexpr global_unit_t& operator+=(dart_unit_t n) {
    id += n;
    return *this;
  }
  constexpr global_unit_t& operator-=(dart_unit_t n) {
    id -= n;
    return *this;
  }
};

// Unit id relative to some team. Converts to int implicitly. Local.
struct team_unit_t {
  dart_unit_t id = DART_UNDEFINED_UNIT_ID;
  constexpr team_unit_t() = default;
  constexpr explicit team_unit_t(dart_unit_t unit) : id(unit) {}
  constexpr team_unit_t(dart_team_unit_t unit) : id(unit.id) {}
  constexpr operator dart_unit_t() const { return id; }
  constexpr operator dart_team_unit_t() const {
    return dart_team_unit_t{id};
  }  // Steps to the next / previous unit id (loops over units, as in DASH). Local.
  constexpr team_unit_t& operator++() {
    ++id;
    return *this;
  }
  constexpr team_unit_t operator++(int) {
    team_unit_t before = *this;
    ++id;
    return before;
  }
  constexpr team_unit_t& operator--() {
    --id;
    return *this;
  }
  constexpr team_unit_t& operator+=(dart_unit_t n) {
    id += n;
    return *this;
  }
  constexpr team_unit_t& operator-=(dart_unit_t n) {
    id -= n;
    return *this;
  }
};

}  // namespace dash

#endif  // DASH__TYPES_H_
