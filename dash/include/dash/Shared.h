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
// The value lives in the owner's allocation pool (dash::memalloc's memory,
// DART_LOCAL_POOL_SIZE): making one is one broadcast of its global pointer,
// no collective window allocation.
//
// | call                           | cost                                    |
// |--------------------------------|-----------------------------------------|
// | constructors, init             | collective over the team: one broadcast |
// | destructor                     | local: the owner frees the value; the   |
// |                                | others must be done with it (a barrier) |
// | local() (owner's address)      | local                                   |
// | get() (a GlobRef), set(value)  | local / one-sided (load/store or RMA)   |
// | flush()                        | completes the caller's writes; local    |
// | barrier()                      | collective over the team                |
#ifndef DASH__SHARED_H_
#define DASH__SHARED_H_

#include <dart/dart.h>
#include <dash/Atomic.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/internal/MemoryStamp.h>
#include <dash/memory/GlobRef.h>

#include <cstddef>
#include <exception>
#include <new>
#include <string>
#include <utility>

namespace dash {

template <class T>
class Shared {
  static_assert(alignof(T) <= alignof(std::max_align_t),
                "dash::Shared: T needs more alignment than the allocation pool guarantees");

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
  Shared(Shared&& other) noexcept { swap(other); }
  Shared& operator=(Shared&& other) noexcept {
    if (this != &other) {
      release();
      swap(other);
    }
    return *this;
  }
  // The owner frees the value (after dash::finalize nothing is left to free).
  // Local: every unit must be done with the value before its owner's
  // destructor runs.
  ~Shared() { release(); }

  // Allocates the value at its owner and sets it to `value`: for a Shared made
  // before dash::init. Returns false (and changes nothing) if it is allocated
  // already. Collective over the team: one broadcast. Throws
  // dash::exception::RuntimeError before dash::init, InvalidArgument if the
  // owner is not a unit of the team, and OutOfMemory on every unit if the
  // owner's pool cannot hold the value (or, elsewhere than at the owner, if
  // T's copy threw there: the owner rethrows that).
  bool init(const T& value = T()) {
    if (!dash::is_initialized())
      throw exception::RuntimeError("dash::Shared::init: called before dash::init");
    if (!DART_GPTR_ISNULL(gptr_)) return false;
    checked(owner_, *team_);
    // The owner makes the value; its pointer (null if that failed) goes to every unit, so a
    // failure at the owner (a full pool, T's copy throwing) leaves no unit waiting.
    dart_gptr_t gptr = DART_GPTR_NULL;
    std::exception_ptr failed;
    if (team_->myid() == owner_ && dart_memalloc(sizeof(T), DART_TYPE_BYTE, &gptr) == DART_OK) {
      try {
        void* addr = nullptr;
        internal::check_dart(dart_gptr_getaddr(gptr, &addr), "dash::Shared::init");
        new (addr) T(value);
      } catch (...) {
        failed = std::current_exception();
        (void)dart_memfree(gptr);
        gptr = DART_GPTR_NULL;
      }
    }
    internal::check_dart(dart_bcast(&gptr, sizeof gptr, DART_TYPE_BYTE,
                                    DART_TEAM_UNIT_ID(owner_.id), team_->dart_id()),
                         "dash::Shared::init: dart_bcast");
    if (failed) std::rethrow_exception(failed);
    if (DART_GPTR_ISNULL(gptr))
      throw exception::OutOfMemory("dash::Shared::init: unit " + std::to_string(owner_.id) +
                                   " could not make the value of " + std::to_string(sizeof(T)) +
                                   " bytes (its allocation pool is full: raise "
                                   "DART_LOCAL_POOL_SIZE, or the value's copy threw there)");
    void* shared_addr = nullptr;
    internal::check_dart(dart_gptr_getaddr_shared(gptr, &shared_addr), "dash::Shared::init");
    gptr_ = gptr;
    addr_ = static_cast<T*>(shared_addr);
    stamp_ = internal::acquire_memory_stamp();
    return true;
  }

  // Reference to the value (reads convert to T; for Atomic<T> the atomic
  // operations). Local.
  reference get() { return reference(checked_gptr("dash::Shared::get"), addr_, stamp_); }
  const_reference get() const {
    return const_reference(checked_gptr("dash::Shared::get"), addr_, stamp_);
  }
  // Writes the value; returns once it is at the owner. One-sided.
  void set(const T& value) { get() = value; }
  // Address of the value on its owner, nullptr on every other unit and before
  // init(). Local.
  T* local() { return is_owner() ? addr_ : nullptr; }
  const T* local() const { return is_owner() ? addr_ : nullptr; }
  // Completes the calling unit's outstanding writes to the value. Local.
  void flush() {
    if (!DART_GPTR_ISNULL(gptr_))
      internal::check_dart(dart_flush(gptr_), "dash::Shared::flush: dart_flush");
  }
  // Waits for every unit of the team. Collective.
  void barrier() { team_->barrier(); }
  // The owning unit (relative to the team). Local.
  team_unit_t owner() const { return owner_; }
  Team& team() const { return *team_; }

  // Exchanges this value's storage with other's (no communication). Local.
  void swap(Shared& other) noexcept {
    std::swap(owner_, other.owner_);
    std::swap(team_, other.team_);
    std::swap(gptr_, other.gptr_);
    std::swap(addr_, other.addr_);
    std::swap(stamp_, other.stamp_);
  }

 private:
  bool is_owner() const { return !DART_GPTR_ISNULL(gptr_) && team_->myid() == owner_; }
  dart_gptr_t checked_gptr(const char* call) const {
    if (DART_GPTR_ISNULL(gptr_))
      throw exception::RuntimeError(std::string(call) + ": the value is not allocated (made " +
                                    "before dash::init and not init()-ed, or moved from)");
    return gptr_;
  }
  static void checked(team_unit_t owner, Team& team) {
    if (owner.id < 0 || std::size_t(owner.id) >= team.size())
      throw exception::InvalidArgument("dash::Shared: owner " + std::to_string(owner.id) +
                                       " is not a unit of a team of " +
                                       std::to_string(team.size()));
  }
  // Frees the value at its owner and forgets it everywhere. Local.
  void release() noexcept {
    if (DART_GPTR_ISNULL(gptr_)) return;
    internal::release_memory_stamp(stamp_);
    if (dash::is_initialized() && team_->myid() == owner_) {
      addr_->~T();
      (void)dart_memfree(gptr_);  // nothing to report from a destructor
    }
    gptr_ = DART_GPTR_NULL;
    addr_ = nullptr;
  }

  team_unit_t owner_{0};
  Team* team_ = &Team::All();
  dart_gptr_t gptr_ = DART_GPTR_NULL;
  T* addr_ = nullptr;  // the value's load/store address, nullptr where RMA reaches it
  internal::MemoryStamp stamp_;
};

// dash::swap(a, b): exchanges two shared values' storage. Local.
template <class T>
void swap(Shared<T>& a, Shared<T>& b) noexcept {
  a.swap(b);
}

}  // namespace dash

#endif  // DASH__SHARED_H_
