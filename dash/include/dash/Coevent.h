// dash::Coevent: an event counter per image of a team, in the coarray style (DASH's Coevent):
// any unit posts events to any image; an image waits for events posted to itself.
//
//   dash::Coevent events;                     // collective: every counter 0
//   events(2).post();                         // one event to image 2
//   if (dash::coarray::this_image() == 2)
//     events.wait();                          // returns once an event is there, and takes it
//
// Underneath is a dash::Array<dash::Atomic<int>> with one counter per image: post() adds one
// to the image's counter, wait(n) polls the caller's own counter until it holds n events and
// then takes them (subtracts n), test() reads it. A post is counted at its image before post()
// returns; it orders nothing else (use Mutex, a barrier or a flush for data).
//
// | call                                   | cost                                          |
// |----------------------------------------|-----------------------------------------------|
// | Coevent(team) after dash::init,        | collective over the team: one array of        |
// | initialize(team)                       | team.size() counters, set to 0, a barrier     |
// | Coevent(team) before dash::init        | local (initialize later)                      |
// | destructor                             | collective over the team                      |
// | events(u), begin(), end(), size()      | local                                         |
// | events(u).post()                       | one-sided: one atomic add at image u          |
// | events(u).test(), events.test()        | one-sided: one atomic read                    |
// | events.wait(n)                         | polls the caller's own counter (one atomic    |
// |                                        | read each, yielding the core between polls),  |
// |                                        | then one atomic subtract                      |
//
// events(u) throws dash::exception::OutOfRange unless u is an image of the team; wait(n) with
// n < 0 throws dash::exception::InvalidArgument; any call but initialize() before the counters
// exist throws dash::exception::NotInitialized.
#ifndef DASH__COEVENT_H_
#define DASH__COEVENT_H_

#include <dash/Array.h>
#include <dash/Atomic.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/coarray/CoEventIter.h>
#include <dash/coarray/CoEventRef.h>

#include <string>
#include <thread>

namespace dash {

class Coevent {
  using counters_type = Array<Atomic<int>>;

 public:
  using iterator = coarray::CoEventIter;
  using const_iterator = coarray::CoEventIter;
  using reference = coarray::CoEventRef;
  using size_type = int;

  // The event counters of the images of `team`: made at once when DASH is initialised
  // (collective over the team), else by initialize() later (local now).
  explicit Coevent(Team& team = Team::All()) : team_(&team) {
    if (dash::is_initialized()) initialize(team);
  }
  Coevent(const Coevent&) = delete;
  Coevent& operator=(const Coevent&) = delete;

  // Makes the counters (all 0) unless they exist already. Collective over the team.
  void initialize(Team& team = Team::All()) {
    if (counters_.size() != 0) {
      if (team != *team_)
        throw exception::InvalidArgument(
            "dash::Coevent::initialize: the coevent has its counters on another team");
      return;
    }
    team_ = &team;
    counters_.allocate(team.size(), BLOCKED, team);
    for (Atomic<int>* c = counters_.lbegin(); c != counters_.lend(); ++c) *c = 0;
    counters_.barrier();
  }

  // The event counter of image `unit`. Local.
  reference operator()(int unit) {
    check_initialized("dash::Coevent::operator()");
    if (unit < 0 || unit >= size())
      throw exception::OutOfRange("dash::Coevent::operator(): image " + std::to_string(unit) +
                                  " is not one of its " + std::to_string(size()) + " images");
    return reference(counters_[unit], *team_);
  }
  reference operator()(team_unit_t unit) { return (*this)(static_cast<int>(unit.id)); }

  // Waits until `count` events were posted to the calling image and not yet taken, then takes
  // them. Polls the own counter (one atomic read each), then one atomic subtract.
  void wait(int count = 1) {
    check_initialized("dash::Coevent::wait");
    if (count < 0)
      throw exception::InvalidArgument("dash::Coevent::wait: count " + std::to_string(count) +
                                       " is negative");
    if (count == 0) return;
    const auto own = counters_[team_->myid().id];
    for (unsigned polls = 0; own.load() < count; ++polls)
      if (polls > 16) std::this_thread::yield();  // a unit sharing the core may be the poster
    own.sub(count);
  }
  // The events posted to the calling image and not yet taken. One-sided (one atomic read).
  int test() {
    check_initialized("dash::Coevent::test");
    return counters_[team_->myid().id].load();
  }

  // The images' counters in image order. Local.
  iterator begin() {
    check_initialized("dash::Coevent::begin");
    return iterator(&counters_, 0);
  }
  iterator end() {
    check_initialized("dash::Coevent::end");
    return iterator(&counters_, size());
  }
  // The number of images. Local.
  size_type size() const { return static_cast<size_type>(counters_.size()); }
  // The team of the images. Local.
  Team& team() const { return *team_; }

 private:
  void check_initialized(const char* call) const {
    if (counters_.size() == 0)
      throw exception::NotInitialized(std::string(call) +
                                      ": the coevent has no counters yet (initialize after "
                                      "dash::init)");
  }

  Team* team_;
  counters_type counters_;
};

}  // namespace dash

#endif  // DASH__COEVENT_H_
