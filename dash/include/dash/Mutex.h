// dash::Mutex: a lock shared by the units of a team, shaped like std::mutex so that
// std::lock_guard and std::unique_lock work with it (DASH's Mutex):
//
//   dash::Mutex mx;                          // collective over Team::All()
//   {
//     std::lock_guard<dash::Mutex> hold(mx); // one unit of the team at a time
//     int v = counter.get();
//     counter.set(v + 1);                    // blocking write: at its target before unlock
//   }
//
// Underneath is one DART team lock (an MCS queue lock on MPI atomics: waiting units poll their
// own queue slot; see dart/dart_synchronization.h). Lock and unlock are memory fences for the
// calling unit, so every write it finished inside the critical section (GlobRef and Shared
// writes, plain stores to shared-window memory) is seen by the next holder. Non-blocking writes
// (async references, copy_async) must be completed (flush, wait) before unlock().
//
// | call                                   | cost                                        |
// |----------------------------------------|---------------------------------------------|
// | Mutex(team) after dash::init, init()   | collective over the team (one lock, barrier)|
// | Mutex(team) before dash::init          | local (init() later)                        |
// | destructor                             | collective over the team (frees the lock)   |
// | lock()                                 | one-sided: two atomics at the lock's home,  |
// |                                        | then polls the caller's own slot if queued  |
// | try_lock()                             | one-sided: one compare-and-swap             |
// | unlock()                               | one-sided: one or two atomics              |
//
// Errors throw: lock() or try_lock() by a unit that holds the mutex, unlock() by one that does
// not (dash::exception::InvalidArgument); any of them on a mutex without a lock (made before
// dash::init and never init()ed, moved from) throws dash::exception::NotInitialized.
#ifndef DASH__MUTEX_H_
#define DASH__MUTEX_H_

#include <dart/dart_synchronization.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>

namespace dash {

class Mutex {
 public:
  // A mutex of `team`: its lock is made at once when DASH is initialised (collective over the
  // team), else by init() later (local now).
  explicit Mutex(Team& team = Team::All()) : team_(&team) {
    if (dash::is_initialized()) init();
  }
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;
  // Moves the lock; the source has none afterwards. Local.
  Mutex(Mutex&& other) noexcept : team_(other.team_), lock_(std::exchange(other.lock_, nullptr)) {}
  Mutex& operator=(Mutex&& other) noexcept {
    if (this != &other) {
      release_lock();
      team_ = other.team_;
      lock_ = std::exchange(other.lock_, nullptr);
    }
    return *this;
  }
  // Frees the lock. Collective over the team (nothing but local clean-up after
  // dash::finalize or once the team is gone).
  ~Mutex() { release_lock(); }

  // Makes the lock if the mutex has none yet; true once it has one. Collective over the team.
  bool init() {
    if (lock_ == nullptr)
      check_dart(dart_team_lock_init(team_->dart_id(), &lock_), "dash::Mutex::init");
    return lock_ != nullptr;
  }

  // Blocks until the calling unit holds the mutex (units are served in arrival order).
  // One-sided.
  void lock() {
    check_dart(dart_lock_acquire(checked_lock("dash::Mutex::lock")), "dash::Mutex::lock");
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  // Takes the mutex if no unit holds it or waits for it; true if taken. One-sided.
  bool try_lock() {
    std::int32_t taken = 0;
    check_dart(dart_lock_try_acquire(checked_lock("dash::Mutex::try_lock"), &taken),
               "dash::Mutex::try_lock");
    if (taken != 0) std::atomic_thread_fence(std::memory_order_seq_cst);
    return taken != 0;
  }
  // Releases the mutex held by the calling unit. One-sided.
  void unlock() {
    dart_lock_t lock = checked_lock("dash::Mutex::unlock");
    std::atomic_thread_fence(std::memory_order_seq_cst);
    check_dart(dart_lock_release(lock), "dash::Mutex::unlock");
  }

  // The team whose units the mutex excludes. Local.
  Team& team() const { return *team_; }
  // True if the mutex has its lock (made, not moved away). Local.
  bool is_initialized() const { return lock_ != nullptr; }

 private:
  dart_lock_t checked_lock(const char* call) const {
    if (lock_ == nullptr)
      throw exception::NotInitialized(std::string(call) +
                                      ": the mutex has no lock (made before dash::init and not "
                                      "init()ed, or moved from)");
    return lock_;
  }
  void release_lock() noexcept {
    // After dash::finalize DART only drops its record of the lock (its memory went with the
    // team), so this never waits for other units then.
    if (lock_ != nullptr) (void)dart_team_lock_destroy(&lock_);
    lock_ = nullptr;
  }

  Team* team_;
  dart_lock_t lock_ = nullptr;
};

}  // namespace dash

#endif  // DASH__MUTEX_H_
