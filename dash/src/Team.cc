// dash::Team on top of DART teams.
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/internal/LayerHooks.h>

#include <algorithm>
#include <ostream>
#include <string>

namespace dash {

using internal::check_dart;

Team::Team(dart_team_t id, Team* parent, int position)
    : id_(id), parent_(parent), position_(position) {}

Team::~Team() {
  // Sub-teams left at exit belong to a runtime that is gone; DART frees
  // them in dart_exit. Here only the C++ objects go away.
}

Team& Team::All() {
  static Team all(DART_TEAM_ALL, nullptr, 0);
  return all;
}

Team& Team::Null() {
  static Team null(DART_TEAM_NULL, nullptr, -1);
  return null;
}

team_unit_t Team::myid() const {
  dart_team_unit_t id;
  check_dart(dart_team_myid(id_, &id), "dash::Team::myid");
  return team_unit_t(id);
}

global_unit_t Team::GlobalUnitID() { return dash::myid(); }

std::size_t Team::size() const {
  if (is_null()) return 0;
  std::size_t n = 0;
  check_dart(dart_team_size(id_, &n), "dash::Team::size");
  return n;
}

void Team::barrier() const { check_dart(dart_barrier(id_), "dash::Team::barrier"); }

Team& Team::adopt(dart_team_t id) {
  subteams_.push_back(std::unique_ptr<Team>(new Team(id, this, position_ + 1)));
  Team& sub = *subteams_.back();
  // Every sub-team's first unit counts it (collective over this team, as
  // the split was).
  int first = 0, parts = 0;
  if (id != DART_TEAM_NULL) first = sub.myid().id == 0 ? 1 : 0;
  check_dart(dart_allreduce(&first, &parts, 1, DART_TYPE_INT, DART_OP_SUM, id_),
             "dash::Team::split");
  sub.num_siblings_ = std::size_t(parts);
  return sub;
}

Team& Team::split(unsigned parts) {
  std::size_t n = size();
  if (n == 0) throw exception::InvalidArgument("dash::Team::split: the team is Null");
  std::size_t p = std::clamp<std::size_t>(parts, 1, n);
  std::size_t me = static_cast<std::size_t>(myid().id);
  // Unit me goes to part floor(me * p / n): consecutive groups whose sizes
  // differ by at most one.
  int color = static_cast<int>(me * p / n);
  dart_team_t sub = DART_TEAM_NULL;
  check_dart(dart_team_split(id_, color, static_cast<int>(me), &sub), "dash::Team::split");
  return adopt(sub);
}

Team& Team::locality_split(LocalityScope scope) {
  if (is_null()) throw exception::InvalidArgument("dash::Team::locality_split: the team is Null");
  if (scope != LocalityScope::Node)  // as many parts as units: one per domain
    return locality_split(scope, unsigned(std::max<std::size_t>(1, size())));
  dart_team_t sub = DART_TEAM_NULL;
  check_dart(dart_team_split_node(id_, &sub), "dash::Team::locality_split");
  return adopt(sub);
}

Team& Team::parent() const { return parent_ ? *parent_ : Null(); }

global_unit_t Team::global_id(team_unit_t unit) const {
  dart_global_unit_t g;
  check_dart(dart_team_unit_l2g(id_, unit, &g), "dash::Team::global_id");
  return global_unit_t(g);
}

team_unit_t Team::relative_id(global_unit_t unit) const {
  dart_team_unit_t t;
  check_dart(dart_team_unit_g2l(id_, unit, &t), "dash::Team::relative_id");
  if (t.id == DART_UNDEFINED_UNIT_ID)
    throw exception::InvalidArgument("dash::Team::relative_id: global unit " +
                                     std::to_string(unit.id) + " is not a member of the team");
  return team_unit_t(t);
}

void Team::end_extensions() {
  while (!extensions_.empty()) {
    std::unique_ptr<Extension> last = std::move(extensions_.back().second);
    extensions_.pop_back();
    last->end(*this);
  }
}

void Team::destroy_dart_team() {
  if (id_ != DART_TEAM_NULL)  // the layers finish with the team (e.g. burst-buffer writes)
    for (const internal::LayerHooks& layer : internal::registered_layers())
      if (layer.at_team_end != nullptr) layer.at_team_end(id_);
  end_extensions();
  dart_team_t id = id_;
  id_ = DART_TEAM_NULL;
  destroy_pending_ = false;
  if (id != DART_TEAM_NULL) check_dart(dart_team_destroy(&id), "dash::Team::free_subteams");
}

void Team::free_subteams() {
  release_subteams();
  if (id_ == DART_TEAM_ALL) end_extensions();
}

void Team::release_subteams() {
  std::vector<std::unique_ptr<Team>> kept;
  for (auto& sub : subteams_) {
    sub->release_subteams();
    if (sub->containers_ > 0 || !sub->subteams_.empty()) {
      // Containers still use it (or a sub-team of it): destroyed when the last goes.
      sub->destroy_pending_ = sub->id_ != DART_TEAM_NULL;
      kept.push_back(std::move(sub));
      continue;
    }
    sub->destroy_dart_team();
  }
  subteams_ = std::move(kept);
}

void Team::free() {
  if (is_null()) return;
  if (parent_ == nullptr) {  // All(): its sub-teams go, it lives until dash::finalize
    release_subteams();
    return;
  }
  free_subteams();
  if (containers_ > 0 || !subteams_.empty()) {
    destroy_pending_ = true;  // the last container destroys it
    return;
  }
  destroy_dart_team();
}

void Team::release_container(bool may_communicate) {
  if (containers_ > 0) --containers_;
  if (containers_ == 0 && destroy_pending_ && may_communicate && subteams_.empty())
    destroy_dart_team();
}

std::ostream& operator<<(std::ostream& os, const Team& team) {
  if (team.is_null()) return os << "dash::Team(null)";
  return os << "dash::Team(id " << team.dart_id() << ", " << team.size() << " units, depth "
            << team.position() << ")";
}

}  // namespace dash
