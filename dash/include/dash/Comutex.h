// dash::Comutex: one dash::Mutex per image of a team, in the coarray style (DASH's Comutex):
// comx(u) is the mutex that guards image u's data.
//
//   dash::Coarray<int> counts;
//   dash::Comutex      comx;                  // collective: one lock per image
//   {
//     std::lock_guard<dash::Mutex> hold(comx(u));
//     counts(u) = counts(u) + 1;              // no other unit updates image u meanwhile
//   }
//
// Every unit keeps team.size() DART locks, so a Comutex suits small teams (as DASH's does).
//
// | call                                   | cost                                          |
// |----------------------------------------|-----------------------------------------------|
// | Comutex(team) after dash::init,        | collective over the team: team.size() locks   |
// | initialize(team)                       | made one after the other                      |
// | Comutex(team) before dash::init        | local (initialize later)                      |
// | destructor                             | collective over the team (frees the locks)    |
// | comx(u), begin, end, size, team        | local                                         |
// | comx(u).lock(), try_lock(), unlock()   | one-sided (see dash/Mutex.h)                  |
//
// comx(u) throws dash::exception::OutOfRange unless u is an image of the team, and
// dash::exception::NotInitialized before initialize(); initialize() with another team than the
// one the Comutex has throws dash::exception::InvalidArgument.
#ifndef DASH__COMUTEX_H_
#define DASH__COMUTEX_H_

#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Mutex.h>
#include <dash/Team.h>
#include <dash/Types.h>

#include <cstddef>
#include <string>
#include <vector>

namespace dash {

class Comutex {
  using storage_type = std::vector<Mutex>;

 public:
  using iterator = storage_type::iterator;
  using const_iterator = storage_type::const_iterator;
  using reference = Mutex&;
  using size_type = storage_type::size_type;

  // The mutexes of the images of `team`: made at once when DASH is initialised (collective over
  // the team), else by initialize() later (local now).
  explicit Comutex(Team& team = Team::All()) : team_(&team) {
    if (dash::is_initialized()) initialize(team);
  }
  Comutex(const Comutex&) = delete;
  Comutex& operator=(const Comutex&) = delete;
  Comutex(Comutex&&) noexcept = default;
  Comutex& operator=(Comutex&&) noexcept = default;

  // Makes one mutex per image of `team` unless they exist already. Collective over the team.
  void initialize(Team& team = Team::All()) {
    if (!mutexes_.empty()) {
      if (team != *team_)
        throw exception::InvalidArgument(
            "dash::Comutex::initialize: the comutex has its mutexes on another team");
      return;
    }
    team_ = &team;
    storage_type made;
    made.reserve(team.size());
    for (std::size_t image = 0; image < team.size(); ++image) made.emplace_back(team);
    mutexes_ = std::move(made);
  }

  // The mutex of image `unit`. Local.
  reference operator()(int unit) {
    if (mutexes_.empty())
      throw exception::NotInitialized(
          "dash::Comutex::operator(): the comutex has no mutexes yet (initialize after "
          "dash::init)");
    if (unit < 0 || static_cast<size_type>(unit) >= mutexes_.size())
      throw exception::OutOfRange("dash::Comutex::operator(): image " + std::to_string(unit) +
                                  " is not one of its " + std::to_string(mutexes_.size()) +
                                  " images");
    return mutexes_[static_cast<size_type>(unit)];
  }
  reference operator()(team_unit_t unit) { return (*this)(static_cast<int>(unit.id)); }

  // The mutexes in image order. Local.
  iterator begin() noexcept { return mutexes_.begin(); }
  iterator end() noexcept { return mutexes_.end(); }
  const_iterator begin() const noexcept { return mutexes_.begin(); }
  const_iterator end() const noexcept { return mutexes_.end(); }
  // The number of images (0 before initialize). Local.
  size_type size() const noexcept { return mutexes_.size(); }
  // The team whose images the mutexes guard. Local.
  Team& team() const { return *team_; }

 private:
  Team* team_;
  storage_type mutexes_;
};

}  // namespace dash

#endif  // DASH__COMUTEX_H_
