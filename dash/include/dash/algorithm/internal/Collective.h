// Helpers shared by the algorithms over global ranges (Fill.h,
// Accumulate.h, MinMax.h, ...): the DART type of an element type, the team of
// a range, and the one collective each value-returning algorithm combines
// with. The calling unit's runs of a range come from LocalRuns.h.
#ifndef DASH__ALGORITHM__INTERNAL__COLLECTIVE_H_
#define DASH__ALGORITHM__INTERNAL__COLLECTIVE_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/algorithm/internal/LocalRuns.h>

#include <cstring>
#include <type_traits>
#include <vector>

namespace dash {
namespace internal {

// DART basic type of T, or DART_TYPE_UNDEFINED if T has none. Local.
template <class T>
constexpr dart_datatype_t dart_datatype_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, char>)
    return DART_TYPE_CHAR;
  else if constexpr (std::is_same_v<U, short>)
    return DART_TYPE_SHORT;
  else if constexpr (std::is_same_v<U, int>)
    return DART_TYPE_INT;
  else if constexpr (std::is_same_v<U, unsigned int>)
    return DART_TYPE_UINT;
  else if constexpr (std::is_same_v<U, long>)
    return DART_TYPE_LONG;
  else if constexpr (std::is_same_v<U, unsigned long>)
    return DART_TYPE_ULONG;
  else if constexpr (std::is_same_v<U, long long>)
    return DART_TYPE_LONGLONG;
  else if constexpr (std::is_same_v<U, unsigned long long>)
    return DART_TYPE_ULONGLONG;
  else if constexpr (std::is_same_v<U, float>)
    return DART_TYPE_FLOAT;
  else if constexpr (std::is_same_v<U, double>)
    return DART_TYPE_DOUBLE;
  else if constexpr (std::is_same_v<U, long double>)
    return DART_TYPE_LONG_DOUBLE;
  else
    return DART_TYPE_UNDEFINED;
}

// The team of the range's container, or nullptr for a container that is not
// allocated (then the range is empty on every unit). Local.
template <class It>
Team* range_team(const It& first) {
  return first.memory() ? &first.memory()->team() : nullptr;
}

// Every unit's record `mine`, in unit order (one allgather of bytes).
// Collective over team.
template <class R>
std::vector<R> allgather_records(const R& mine, Team& team, const char* who) {
  static_assert(std::is_trivially_copyable_v<R>, "records must be trivially copyable");
  std::vector<R> all(team.size());
  check_dart(dart_allgather(&mine, all.data(), sizeof(R), DART_TYPE_BYTE, team.dart_id()), who);
  return all;
}

// Element-wise allreduce of one value with a DART type and op. Collective
// over team.
template <class V>
V allreduce_value(V mine, dart_operation_t op, Team& team, const char* who) {
  static_assert(dart_datatype_of<V>() != DART_TYPE_UNDEFINED, "V needs a DART type");
  V out{};
  check_dart(dart_allreduce(&mine, &out, 1, dart_datatype_of<V>(), op, team.dart_id()), who);
  return out;
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__ALGORITHM__INTERNAL__COLLECTIVE_H_
