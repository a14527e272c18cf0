// dash::broadcast: the root unit's values on every unit of a team (DASH's Bcast.h).
//
//   std::vector<Particle> seeds(n);                   // n the same on every unit
//   dash::broadcast(seeds.begin(), seeds.end(), dash::team_unit_t{0});
//   Params p = dash::broadcast(shared_params);        // dash::Shared<Params>: its owner's value
//   dash::broadcast(coarr, dash::team_unit_t{2});     // image 2's value on every image
//
// A range of local memory (any iterator whose reference is a C++ reference; global iterators
// are not ranges here) is sent as bytes: in place when the range is contiguous (a pointer range,
// std::vector, std::array, std::string), else through one contiguous copy on every unit (a
// std::list, a std::deque), written back on all but the root. Elements are trivially copyable.
//
// | call                                    | cost                                          |
// |-----------------------------------------|-----------------------------------------------|
// | broadcast(first, last, root [, team])   | collective over team: one allreduce (the      |
// |                                         | lengths agree) and one broadcast              |
// | broadcast(shared)                       | collective over the Shared's team: one        |
// |                                         | broadcast from its owner                      |
// | broadcast(coarray, root)                | collective over the coarray's team (one       |
// |                                         | broadcast; dash::coarray::cobroadcast)        |
//
// Bad input throws dash::exception::InvalidArgument on every unit alike: a root that is not a
// unit of the team, ranges of different lengths on different units.
#ifndef DASH__ALGORITHM__BCAST_H_
#define DASH__ALGORITHM__BCAST_H_

#include <dart/dart.h>
#include <dash/Coarray.h>
#include <dash/Exception.h>
#include <dash/Shared.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/algorithm/Operation.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {

namespace internal {

// True if It's elements lie one after the other in memory: pointers and the iterators of
// std::vector (not of vector<bool>), std::array and std::basic_string.
template <class It, class V = typename std::iterator_traits<It>::value_type>
inline constexpr bool is_contiguous_iterator_v =
    std::is_pointer_v<It> ||
    (!std::is_same_v<V, bool> && (std::is_same_v<It, typename std::vector<V>::iterator> ||
                                  std::is_same_v<It, typename std::vector<V>::const_iterator> ||
                                  std::is_same_v<It, typename std::basic_string<V>::iterator>));

// True if It iterates over local memory: its reference is a C++ reference (a global iterator's
// is a GlobRef).
template <class It>
inline constexpr bool is_local_iterator_v =
    std::is_reference_v<typename std::iterator_traits<It>::reference>;

// Throws InvalidArgument naming `call` unless root is a unit of team. Local.
inline void check_broadcast_root(const Team& team, team_unit_t root, const char* call) {
  if (root.id < 0 || static_cast<std::size_t>(root.id) >= team.size())
    throw exception::InvalidArgument(std::string(call) + ": root " + std::to_string(root.id) +
                                     " is not a unit of the team of " +
                                     std::to_string(team.size()) + " units");
}

// Sends n elements at data from root to every unit of team. Collective.
template <class T>
void broadcast_bytes(T* data, std::size_t n, team_unit_t root, const Team& team, const char* call) {
  check_dart(
      dart_bcast(data, n * sizeof(T), DART_TYPE_BYTE, DART_TEAM_UNIT_ID(root.id), team.dart_id()),
      call);
}

}  // namespace internal

// Overwrites [first, last) on every unit of team but root with root's elements. The range has
// the same length on every unit. Collective over team: one allreduce (the lengths agree, else
// InvalidArgument on every unit), one broadcast; a range that is not contiguous goes through one
// buffer (a copy in and, on all but root, a copy out).
template <class LocalIter, class = std::enable_if_t<internal::is_local_iterator_v<LocalIter>>>
void broadcast(LocalIter first, LocalIter last, team_unit_t root, Team& team = Team::All()) {
  static const char* const call = "dash::broadcast";
  using V = typename std::iterator_traits<LocalIter>::value_type;
  static_assert(std::is_trivially_copyable_v<V>,
                "dash::broadcast: elements must be trivially copyable (they travel as bytes)");
  internal::check_broadcast_root(team, root, call);
  const long long n = static_cast<long long>(std::distance(first, last));
  // The largest length and the largest negated length: the shortest is -lengths[1].
  const std::vector<long long> lengths =
      team.allreduce(std::vector<long long>{n, -n}, max<long long>());
  if (lengths[0] != -lengths[1])
    throw exception::InvalidArgument(std::string(call) + ": the ranges differ in length (from " +
                                     std::to_string(-lengths[1]) + " to " +
                                     std::to_string(lengths[0]) + " elements across the units)");
  if (n == 0) return;
  if constexpr (internal::is_contiguous_iterator_v<LocalIter>) {
    internal::broadcast_bytes(const_cast<V*>(std::addressof(*first)), static_cast<std::size_t>(n),
                              root, team, call);
  } else {
    std::vector<V> buffer(first, last);
    internal::broadcast_bytes(buffer.data(), buffer.size(), root, team, call);
    if (team.myid() != root) std::copy(buffer.begin(), buffer.end(), first);
  }
}

// The value of `shared` as its owner holds it, returned on every unit of its team. Collective
// over that team: one broadcast from the owner.
template <class T>
T broadcast(Shared<T>& shared) {
  static_assert(std::is_trivially_copyable_v<T>,
                "dash::broadcast: the value must be trivially copyable (it travels as bytes)");
  T value{};
  if (shared.team().myid() == shared.owner()) value = *shared.local();
  internal::broadcast_bytes(&value, 1, shared.owner(), shared.team(), "dash::broadcast");
  return value;
}

// Image root's value on every image of the coarray's team (dash::coarray::cobroadcast).
// Collective over the coarray's team; InvalidArgument for a root outside it.
template <class T, class I, MemArrange A>
void broadcast(Coarray<T, I, A>& coarr, const team_unit_t& root) {
  coarray::cobroadcast(coarr, root);
}

}  // namespace dash

#endif  // DASH__ALGORITHM__BCAST_H_
