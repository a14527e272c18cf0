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
#include <dash/internal/DartType.h>
#include <dash/internal/Failure.h>

#include <atomic>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {
namespace internal {

// The team of the range's container, or nullptr for a container that is not
// allocated (then the range is empty on every unit). InvalidArgument if the
// container's memory was freed since the iterator was made (the team is not
// touched then; every unit throws alike). Local.
template <class It>
Team* range_team(const It& first) {
  if (first.memory() == nullptr) return nullptr;
  if (!first.stamp().live()) throw_stale_handle("a dash algorithm");
  return &first.memory()->team();
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

// Runs body(), the calling unit's part of an algorithm that calls user code
// on its elements, then makes every unit of the team agree on whether any
// unit's part threw (one allreduce of an int, which also orders every
// unit's writes before every unit's return, as a barrier would); if one
// did, throws on every unit: its own exception on the failing unit,
// dash::exception::RemoteFailure naming it elsewhere. A null team (a
// container not allocated: nothing to do anywhere) only runs body.
// Collective over team.
template <class Body>
void run_agreed(Team* team, const char* who, Body&& body) {
  Failure failure;
  try {
    body();
  } catch (...) {
    failure.capture();
  }
  if (team == nullptr) {
    failure.raise(who);
    return;
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);  // publish load/store writes
  agree(failure, team->dart_id(), who);
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

// The count a failing unit sends instead of its own in a collective of
// counts (allgather, alltoall), so that the collective carries the failure.
constexpr std::size_t kFailedCount = ~std::size_t(0);

// After a collective of counts in which every failing unit sent
// kFailedCount (counts[u] is what unit u sent): if any did, every unit
// learns the lowest failing unit's message (two broadcasts) and throws, the
// failing units their own exceptions. Collective only when a unit failed.
inline void raise_counted_failure(const std::size_t* counts, std::size_t units,
                                  const Failure& failure, dart_team_t team, const char* who) {
  for (std::size_t u = 0; u < units; ++u) {
    if (counts[u] != kFailedCount) continue;
    const std::string message = broadcast_failure_message(
        failure.own() ? failure.own_message() : std::string(), int(u), team, who);
    failure.raise(who);
    throw exception::RemoteFailure(who, int(u), message);
  }
}

// The pair of values (ok, failed) of type V that `op` combines into `ok`
// only when every unit sends `ok`: a failure flag that rides in the same
// allreduce as the value. False for ops (and small integer types, which a
// sum could wrap) that have none. Local.
template <class V>
bool failure_flag_values(dart_operation_t op, V& ok, V& failed) {
  if constexpr (std::is_integral_v<V> && sizeof(V) < sizeof(int)) {
    return false;
  } else {
    switch (op) {
      case DART_OP_SUM:
      case DART_OP_MAX:
      case DART_OP_LOR:
      case DART_OP_BOR:
        ok = V(0), failed = V(1);
        return true;
      case DART_OP_PROD:
      case DART_OP_MIN:
      case DART_OP_LAND:
        ok = V(1), failed = V(0);
        return true;
      default:
        return false;
    }
  }
}

// allreduce_value for an algorithm whose local part may have failed: a
// failure flag travels in the same allreduce (two elements instead of one);
// if any unit failed, every unit throws (see agree()). Collective over team.
template <class V>
V allreduce_value(V mine, dart_operation_t op, Team& team, const char* who,
                  const Failure& failure) {
  V ok{}, failed{};
  if (!failure_flag_values(op, ok, failed)) {
    agree(failure, team.dart_id(), who);
    return allreduce_value(mine, op, team, who);
  }
  V in[2] = {mine, failure.own() ? failed : ok};
  V out[2];
  check_dart(dart_allreduce(in, out, 2, dart_datatype_of<V>(), op, team.dart_id()), who);
  if (!(out[1] == ok)) agree(failure, team.dart_id(), who);  // throws on every unit
  return out[0];
}

// allgather_records for an algorithm whose local part may have failed: each
// record carries a failure flag; if any unit failed, every unit throws (the
// failing units their own exceptions, the others RemoteFailure). Collective
// over team.
template <class R>
std::vector<R> allgather_records(const R& mine, Team& team, const char* who,
                                 const Failure& failure) {
  struct Flagged {
    R record;
    std::size_t count;  // kFailedCount: the unit failed
  };
  Flagged flagged;
  std::memset(&flagged, 0, sizeof(flagged));
  flagged.record = mine;
  flagged.count = failure.own() ? kFailedCount : 1;
  std::vector<Flagged> all = allgather_records(flagged, team, who);
  std::vector<std::size_t> counts(all.size());
  for (std::size_t u = 0; u < all.size(); ++u) counts[u] = all[u].count;
  raise_counted_failure(counts.data(), counts.size(), failure, team.dart_id(), who);
  std::vector<R> records(all.size());
  for (std::size_t u = 0; u < all.size(); ++u) records[u] = all[u].record;
  return records;
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__ALGORITHM__INTERNAL__COLLECTIVE_H_
