// Helpers shared by the algorithms over global ranges of a 1-D container
// (Fill.h, Accumulate.h, MinMax.h, ...): the calling unit's segments of a
// range with their global indices, the DART type of an element type, and the
// one collective each value-returning algorithm combines with.
#ifndef DASH__ALGORITHM__INTERNAL__COLLECTIVE_H_
#define DASH__ALGORITHM__INTERNAL__COLLECTIVE_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/algorithm/LocalRange.h>
#include <dash/iterator/GlobIter.h>

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
template <class T, class P>
Team* range_team(const GlobIter<T, P>& first) {
  return first.memory() ? &first.memory()->team() : nullptr;
}

// Calls f(begin, end, g) for every contiguous native segment of the calling
// unit's elements of [first, last), in global order; g is the global index of
// *begin. Local, O(local elements touched by f + segments).
template <class T, class P, class F>
void for_each_local_segment(const GlobIter<T, P>& first, const GlobIter<T, P>& last, F&& f) {
  if (first == last) {
    local_index_range(first, last);  // argument checks only
    return;
  }
  const P& pattern = first.pattern();
  T* base = first.memory()->lbegin();
  for (const Range<T>& seg : local_range(first, last)) {
    if (seg.begin == seg.end) continue;
    f(seg.begin, seg.end, typename P::index_type(pattern.global(seg.begin - base)));
  }
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
