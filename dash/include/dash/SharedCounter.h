// dash::SharedCounter<T>: a counter the units of a team change together (DASH's SharedCounter).
// Every unit adds to and subtracts from its own slot; get() sums the slots of all units:
//
//   dash::SharedCounter<std::size_t> visited;  // collective: every slot 0
//   visited.inc(n_local);                      // local
//   dash::barrier();                           // every unit's changes are done
//   std::size_t all = visited.get();           // the sum, on any unit
//
// So changing the counter never waits for another unit, and reading it costs one read of the
// team's slots. get() sees another unit's change once that unit is past it and both have met
// in a barrier (or another synchronisation); it is not one atomic snapshot of the counter.
//
// | call                          | cost                                                    |
// |-------------------------------|---------------------------------------------------------|
// | constructors, destructor      | collective over the team (an Array of team.size())      |
// | inc(v), dec(v)                | local: the calling unit's own slot                      |
// | get()                         | one-sided: one blocking copy of the team's slots        |
//
// T is an arithmetic type; the sum wraps like T's own arithmetic.
#ifndef DASH__SHARED_COUNTER_H_
#define DASH__SHARED_COUNTER_H_

#include <dash/Array.h>
#include <dash/Team.h>
#include <dash/algorithm/Copy.h>

#include <numeric>
#include <type_traits>
#include <vector>

namespace dash {

template <class ValueType = int>
class SharedCounter {
  static_assert(std::is_arithmetic_v<ValueType> && !std::is_same_v<ValueType, bool>,
                "dash::SharedCounter<T>: T must be an arithmetic type");

 public:
  using value_type = ValueType;

  // A counter of Team::All(), 0. Collective over Team::All().
  SharedCounter() : SharedCounter(Team::All()) {}
  // A counter of `team`, 0. Collective over team.
  explicit SharedCounter(Team& team) : slots_(team.size(), team) {
    *slots_.lbegin() = ValueType(0);
    slots_.barrier();
  }
  SharedCounter(const SharedCounter&) = delete;
  SharedCounter& operator=(const SharedCounter&) = delete;
  SharedCounter(SharedCounter&&) noexcept = default;
  SharedCounter& operator=(SharedCounter&&) noexcept = default;

  // Adds `increment` to the counter. Local.
  void inc(ValueType increment) { *slots_.lbegin() += increment; }
  // Subtracts `decrement` from the counter. Local.
  void dec(ValueType decrement) { *slots_.lbegin() -= decrement; }

  // The counter: the sum of every unit's changes made before the last synchronisation with
  // them (see the top of the file). One-sided: one blocking copy of team.size() values.
  ValueType get() const {
    std::vector<ValueType> slots(slots_.size());
    dash::copy(slots_.begin(), slots_.end(), slots.data());
    return std::accumulate(slots.begin(), slots.end(), ValueType(0));
  }

  // The team counting together. Local.
  Team& team() const { return slots_.team(); }

 private:
  Array<ValueType> slots_;  // one per unit, BLOCKED: the calling unit's is its only local one
};

}  // namespace dash

#endif  // DASH__SHARED_COUNTER_H_
