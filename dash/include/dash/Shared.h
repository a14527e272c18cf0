// dash::Shared<T>: one value in global memory, owned by one unit of a team
// and reached by every unit (DASH's Shared):
//
//   dash::Shared<double> total;               // owned by unit 0 of Team::All()
//   if (dash::myid() == 0) total.set(0.0);
//   total.barrier();
//   double t = total.get();                   // a GlobRef<T>: reads convert
//
//   dash::Shared<dash::Atomic<long>> counter; // with an atomic element type
//   counter.get().add(1);                     // every unit, atomically
//
// | call                           | cost                                   |
// |--------------------------------|----------------------------------------|
// | constructors, destructor       | collective over the team               |
// | get() (a GlobRef), set(value)  | local / one-sided (load/store or RMA)  |
// | local() (owner's address)      | local                                  |
// | flush()                        | completes the caller's writes; local   |
// | barrier()                      | collective over the team               |
#ifndef DASH__SHARED_H_
#define DASH__SHARED_H_

#include <dash/Array.h>
#include <dash/Atomic.h>
#include <dash/Exception.h>
#include <dash/Team.h>

#include <string>

namespace dash {

template <class T>
class Shared {
 public:
  using value_type = T;
  using reference = GlobRef<T>;
  using const_reference = GlobRef<const T>;

  // The value, owned by `owner` of `team`, value-initialised. Collective over
  // team; throws dash::exception::InvalidArgument if owner is not a unit of
  // team.
  explicit Shared(team_unit_t owner = team_unit_t(0), Team& team = Team::All())
      : owner_(checked(owner, team)), storage_(team.size(), BLOCKED, team) {
    if (storage_.lsize() > 0) *storage_.lbegin() = T();
    team.barrier();
  }
  // The same, set to `value` by the owner before the constructor returns on
  // any unit. Collective over team.
  explicit Shared(const T& value, team_unit_t owner = team_unit_t(0), Team& team = Team::All())
      : owner_(checked(owner, team)), storage_(team.size(), BLOCKED, team) {
    if (storage_.lsize() > 0) *storage_.lbegin() = team.myid() == owner_ ? value : T();
    team.barrier();
  }
  Shared(const Shared&) = delete;
  Shared& operator=(const Shared&) = delete;
  Shared(Shared&&) noexcept = default;
  Shared& operator=(Shared&&) noexcept = default;

  // Reference to the value (reads convert to T; for Atomic<T> the atomic
  // operations). Local.
  reference get() { return storage_[owner_.id]; }
  const_reference get() const { return storage_[owner_.id]; }
  // The value's address in the owner's local memory on the owner, nullptr on every other unit
  // (DASH's Shared::local). Local.
  T* local() {
    return storage_.lsize() > 0 && team().myid() == owner_ ? storage_.lbegin() : nullptr;
  }
  const T* local() const {
    return storage_.lsize() > 0 && team().myid() == owner_ ? storage_.lbegin() : nullptr;
  }
  // Writes the value; returns once it is at the owner. One-sided.
  void set(const T& value) { get() = value; }
  // Completes the calling unit's outstanding writes to the value. Local.
  void flush() { storage_.flush(); }
  // Waits for every unit of the team. Collective.
  void barrier() { storage_.barrier(); }
  // The owning unit (relative to the team). Local.
  team_unit_t owner() const { return owner_; }
  Team& team() const { return storage_.team(); }

 private:
  static team_unit_t checked(team_unit_t owner, Team& team) {
    if (owner.id < 0 || std::size_t(owner.id) >= team.size())
      throw exception::InvalidArgument("dash::Shared: owner " + std::to_string(owner.id) +
                                       " is not a unit of a team of " +
                                       std::to_string(team.size()));
    return owner;
  }

  team_unit_t owner_;
  Array<T> storage_;  // one element per unit; the owner's is the value
};

}  // namespace dash

#endif  // DASH__SHARED_H_
