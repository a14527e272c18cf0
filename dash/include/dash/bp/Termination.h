// dash::bp::Termination: global termination detection for iexchange, the
// state machine of the IExchange protocol.
//
// A unit is idle when all its blocks are done, no message it received waits
// to be processed, and every message it sent has been matched by its
// receiver (synchronous-mode sends, counted while in flight). Idle units
// enter a non-blocking barrier; when the barrier completes, an all-reduce
// (logical or) asks whether any unit received a message since it entered the
// barrier ("dirty"). If none did, every unit was idle with nothing in flight
// at one moment, and nothing can create work any more: done. Otherwise all
// return to work and try again later.
//
//   state 0 (working)  --idle-->               post barrier, dirty = 0   -> 1
//   state 1 (barrier)  --barrier complete-->   post or-reduce of dirty   -> 2
//   state 2 (reduce)   --reduce complete-->    0 everywhere: done, else  -> 0
//
// A message received in states 1 or 2 sets dirty (received()); it is
// processed at once, whatever the state.
//
// Failures: the or-reduce also carries a failure bit (bit 1; dirty is bit
// 0): set by every unit that knows of a failure. A unit that fails stops
// creating work and tells the others by messages, which they must receive
// before it can be idle, so when a clean reduce ends the machine every unit
// has heard of every failure; failed() then says whether there was one. The collectives are a
// template parameter, so that tests can run the machine against a simulated network with
// adversarial timing (tests/dash/blocks_termination_test.cc).
//
// Collectives interface (all local calls on the calling unit):
//   void start_barrier();                 bool test_barrier();
//   void start_or(const int* in, int* out); bool test_or();
#ifndef DASH__BP__TERMINATION_H_
#define DASH__BP__TERMINATION_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>

#include <cstdint>
#include <string>

namespace dash {
namespace bp {

class Termination {
 public:
  enum State { working = 0, in_barrier = 1, in_reduce = 2, finished = 3 };

  // Records that a message arrived (new work). Local.
  void received() { dirty_ = 1; }

  // Advances the machine by at most one transition; `idle` says whether
  // the calling unit is idle now. Returns true once termination is
  // detected (then stays true). Local (tests and posts non-blocking
  // collectives).
  template <class Collectives>
  bool step(bool idle, Collectives& coll, bool failed = false) {
    switch (state_) {
      case working:
        if (!idle) return false;
        dirty_ = 0;
        coll.start_barrier();
        state_ = in_barrier;
        return false;
      case in_barrier:
        if (!coll.test_barrier()) return false;
        // Not idle now means work arrived since the barrier: dirty.
        send_ = ((dirty_ || !idle) ? 1 : 0) | (failed ? 2 : 0);
        coll.start_or(&send_, &recv_);
        state_ = in_reduce;
        return false;
      case in_reduce:
        if (!coll.test_or()) return false;
        if ((recv_ & 1) == 0) {
          state_ = finished;
          return true;
        }
        ++restarts_;
        state_ = working;
        return false;
      case finished:
        return true;
    }
    return false;
  }

  State state() const { return State(state_); }
  // Once finished: whether some unit reported a failure. Local.
  bool failed() const { return state_ == finished && (recv_ & 2) != 0; }
  // How many times the machine went back from a dirty reduce to working.
  int restarts() const { return restarts_; }

 private:
  int state_ = working;
  int dirty_ = 0;
  int send_ = 0, recv_ = 0;
  int restarts_ = 0;
};

// The collectives of Termination over a DART team, through DART's
// non-blocking barrier and all-reduce.
class TeamCollectives {
 public:
  explicit TeamCollectives(dart_team_t team) : team_(team) {}
  TeamCollectives(const TeamCollectives&) = delete;
  TeamCollectives& operator=(const TeamCollectives&) = delete;
  ~TeamCollectives() {
    // Only reached with a handle pending when an exception unwinds
    // iexchange; completing it could wait forever, so it is left to MPI.
  }

  void start_barrier() { dash::check_dart(dart_ibarrier(team_, &handle_), "dart_ibarrier"); }
  bool test_barrier() { return test(); }
  void start_or(const int* in, int* out) {
    dash::check_dart(dart_iallreduce(in, out, 1, DART_TYPE_INT, DART_OP_BOR, team_, &handle_),
                     "dart_iallreduce");
  }
  bool test_or() { return test(); }

 private:
  bool test() {
    std::int32_t done = 0;
    dash::check_dart(dart_test(&handle_, &done), "dart_test");
    return done != 0;
  }

  dart_team_t team_;
  dart_handle_t handle_ = DART_HANDLE_NULL;
};

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__TERMINATION_H_
