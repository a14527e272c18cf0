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
// | constructors, init, destructor | collective over the team               |
// | local() (owner's address)      | local                                  |
// | get() (a GlobRef), set(value)  | local / one-sided (load/store or RMA)  |
// | flush()                        | completes the caller's writes; local   |
// | barrier()                      | collective over the team               |
#ifndef DASH__SHARED_H_
#define DASH__SHARED_H_

#include <dash/Array.h>
#include <dash/Atomic.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>

#include <string>
#include <utility>

namespace dash {

template <class T>
class Shared {
 public:
  using value_type = T;
  using reference = GlobRef<T>;
  using const_reference = GlobRef<const T>;

  // The value, owned by `owner` of `team`, value-initialised. Collective over
  // team; throws dash::exception::InvalidArgument if owner is not a unit of
  // team. Made before dash::init (a global, as DASH allows), it allocates
  // nothing until init() is called.
  explicit Shared(team_unit_t owner = team_unit_t(0), Team& team = Team::All())
      : Shared(T(), owner, team) {}
  // The same, set to `value` by the owner before the constructor returns on
  // any unit. Collective over team (after dash::init).
  explicit Shared(const T& value, team_unit_t owner = team_unit_t(0), Team& team = Team::All())
      : owner_(owner), team_(&team) {
    if (dash::is_initialized()) init(value);
  }
  Shared(const Shared&) = delete;
  Shared& operator=(const Shared&) = delete;
  Shared(Shared&&) noexcept = default;
  Shared& operator=(Shared&&) noexcept = default;

  // Allocates the value at its owner and sets it to `value`: for a Shared made
  // before dash::init. Returns false (and changes nothing) if it is allocated
  // already. Collective over the team; throws dash::exception::RuntimeError
  // before dash::init, InvalidArgument if the owner is not a unit of the team.
  bool init(const T& value = T()) {
    if (!dash::is_initialized())
      throw exception::RuntimeError("dash::Shared::init: called before dash::init");
    if (storage_.size() > 0) return false;
    checked(owner_, *team_);
    storage_.allocate(team_->size(), BLOCKED, *team_);
    if (storage_.lsize() > 0) *storage_.lbegin() = team_->myid() == owner_ ? value : T();
    team_->barrier();
    return true;
  }

  // Reference to the value (reads convert to T; for Atomic<T> the atomic
  // operations). Local.
  reference get() { return storage_[owner_.id]; }
  const_reference get() const { return storage_[owner_.id]; }
  // Writes the value; returns once it is at the owner. One-sided.
  void set(const T& value) { get() = value; }
  // Address of the value on its owner, nullptr on every other unit and before
  // init(). Local.
  T* local() { return is_owner() ? storage_.lbegin() : nullptr; }
  const T* local() const { return is_owner() ? storage_.lbegin() : nullptr; }
  // Completes the calling unit's outstanding writes to the value. Local.
  void flush() { storage_.flush(); }
  // Waits for every unit of the team. Collective.
  void barrier() { storage_.barrier(); }
  // The owning unit (relative to the team). Local.
  team_unit_t owner() const { return owner_; }
  Team& team() const { return *team_; }

  // Exchanges this value's storage with other's (no communication). Local.
  void swap(Shared& other) noexcept {
    std::swap(owner_, other.owner_);
    std::swap(team_, other.team_);
    std::swap(storage_, other.storage_);
  }

 private:
  bool is_owner() const { return storage_.size() > 0 && team_->myid() == owner_; }
  static void checked(team_unit_t owner, Team& team) {
    if (owner.id < 0 || std::size_t(owner.id) >= team.size())
      throw exception::InvalidArgument("dash::Shared: owner " + std::to_string(owner.id) +
                                       " is not a unit of a team of " +
                                       std::to_string(team.size()));
  }

  team_unit_t owner_;
  Team* team_;
  Array<T> storage_;  // one element per unit; the owner's is the value
};

// dash::swap(a, b): exchanges two shared values' storage. Local.
template <class T>
void swap(Shared<T>& a, Shared<T>& b) noexcept {
  a.swap(b);
}

}  // namespace dash

#endif  // DASH__SHARED_H_
