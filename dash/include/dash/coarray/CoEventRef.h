// dash::coarray::CoEventRef: the event counter of one image of a dash::Coevent (what events(u)
// and *it give): post() signals an event to that image, test() reads how many it holds.
//
// | call              | cost                                                    |
// |-------------------|---------------------------------------------------------|
// | post()            | one-sided: one atomic add at the image, complete there   |
// | test()            | one-sided: one atomic read at the image                  |
// | team(), ==, !=    | local                                                   |
#ifndef DASH__COARRAY__CO_EVENT_REF_H_
#define DASH__COARRAY__CO_EVENT_REF_H_

#include <dash/Atomic.h>
#include <dash/Team.h>
#include <dash/memory/GlobRef.h>

namespace dash {
namespace coarray {

class CoEventRef {
 public:
  // The event counter at `counter` of an image of `team`. Local.
  explicit CoEventRef(GlobRef<Atomic<int>> counter, Team& team = Team::All())
      : counter_(counter), team_(&team) {}

  // Signals one event to the image; returns once it is counted there. One-sided.
  void post() const { counter_.add(1); }
  // The events posted to the image and not yet taken by its wait(). One-sided.
  int test() const { return counter_.load(); }

  // The team of the Coevent. Local.
  Team& team() const { return *team_; }
  // The global pointer to the image's counter. Local.
  dart_gptr_t dart_gptr() const { return counter_.dart_gptr(); }

  // Equal if both name the same counter. Local.
  friend bool operator==(const CoEventRef& a, const CoEventRef& b) {
    return a.dart_gptr() == b.dart_gptr() && *a.team_ == *b.team_;
  }
  friend bool operator!=(const CoEventRef& a, const CoEventRef& b) { return !(a == b); }

 private:
  GlobRef<Atomic<int>> counter_;
  Team* team_;
};

}  // namespace coarray
}  // namespace dash

#endif  // DASH__COARRAY__CO_EVENT_REF_H_
