// dash::util::TeamLocality: a team's locality domains, as DASH's class of that name, over
// LocalityDomain (LocalityDomain.h) and UnitLocality (UnitLocality.h).
//
//   dash::util::TeamLocality tloc(dash::Team::All());
//   tloc.domain()                               // the team's domain ".", a private copy
//   tloc.global_units()                         // its units (global ids)
//   tloc.unit_locality(u).hwinfo()              // unit u's hardware, changeable per tloc
//   tloc.split(dash::util::Locality::Scope::Node, 2);
//   for (auto& part : tloc.parts()) ...         // DASH's parts: copies keeping one run each
//   for (auto& d : tloc.domains()) ...          // ours: the domains (or GROUP domains) of the
//                                               // split themselves
//   tloc.group({tag_a, tag_b}).units()          // a GROUP domain of two domains
//
// | call                                        | cost                                      |
// |---------------------------------------------|-------------------------------------------|
// | TeamLocality(team [, scope [, tag]])        | local, O(n) for n units (a tree copy)     |
// | domain, global_units, parts, groups         | local, O(1) (groups: O(groups x depth))   |
// | unit_locality(u)                            | local, O(1) (first call per unit: a copy  |
// |                                             | of DART's record)                         |
// | split, split_groups, group, select, exclude | local, O(parts x n)                       |
#ifndef DASH__UTIL__TEAM_LOCALITY_H_
#define DASH__UTIL__TEAM_LOCALITY_H_

#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/util/Config.h>
#include <dash/util/Locality.h>
#include <dash/util/LocalityDomain.h>
#include <dash/util/UnitLocality.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dash {
namespace util {

class TeamLocality {
 public:
  using Scope = Locality::Scope;

  // The domain of `team` named `tag` (the whole team by default), split at `scope` unless that
  // is Global. Throws InvalidArgument for a tag naming no domain. Local.
  explicit TeamLocality(Team& team, Scope scope = Scope::Global, const std::string& tag = ".");
  // The given domain of `team` (a copy). Local.
  TeamLocality(Team& team, const LocalityDomain& domain);

  Team& team() const { return *team_; }
  // The team's domain (a private copy: group, select and exclude change it, not DART's tree).
  LocalityDomain& domain() { return domain_; }
  const LocalityDomain& domain() const { return domain_; }
  // The global ids of the units of domain(), ascending. Local.
  const std::vector<global_unit_t>& global_units() const { return domain_.units(); }
  // Where unit `unit` of the team runs (by team id, or by global id of a member): this
  // object's copy, made on first use; its hwinfo() may be changed through a non-const
  // TeamLocality, and measures reading this TeamLocality see the change. Throws
  // InvalidArgument for a unit outside the team. Local.
  UnitLocality& unit_locality(team_unit_t unit);
  const UnitLocality& unit_locality(team_unit_t unit) const;
  UnitLocality& unit_locality(global_unit_t unit) {
    return unit_locality(team_->relative_id(unit));
  }
  const UnitLocality& unit_locality(global_unit_t unit) const {
    return unit_locality(team_->relative_id(unit));
  }

  // Narrows to the domain named `tag` (inside the current one; throws
  // dash::exception::InvalidArgument otherwise) and forgets a split and groups. Local.
  TeamLocality& select(const std::string& tag);
  // DASH's filters of domain(): keep only (select) or remove (exclude) the named domains; see
  // LocalityDomain. Local.
  TeamLocality& select(const std::vector<std::string>& tags) {
    domain_.select(tags);
    return *this;
  }
  TeamLocality& exclude(const std::vector<std::string>& tags) {
    domain_.exclude(tags);
    return *this;
  }
  // Splits domain() at `scope` into `parts` parts (0: one per domain; more parts than
  // domains: one per domain): parts() as LocalityDomain::split, and domains() the domains at
  // `scope` themselves, or for fewer parts one GROUP domain per part. Throws
  // dash::exception::InvalidArgument for a negative count or a scope without domains. Local.
  TeamLocality& split(Scope scope, int parts = 0);
  // Groups the named domains of domain() into a new GROUP domain and returns it (see
  // LocalityDomain::group). Local.
  LocalityDomain& group(const std::vector<std::string>& tags) { return domain_.group(tags); }
  // The groups of domain(), oldest first. Local.
  std::vector<LocalityDomain::iterator> groups() { return domain_.groups(); }
  std::vector<LocalityDomain::const_iterator> groups() const { return domain_.groups(); }
  // parts() becomes one part per group (see LocalityDomain::split_groups). Local.
  TeamLocality& split_groups() {
    domain_.split_groups();
    return *this;
  }
  // The parts of the last split or split_groups (none before). Local.
  std::vector<LocalityDomain>& parts() { return domain_.parts(); }
  const std::vector<LocalityDomain>& parts() const { return domain_.parts(); }

  // The current domains: domain() itself, or after split its domains at the scope (or one
  // GROUP domain per part). Local.
  const std::vector<LocalityDomain>& domains() const { return domains_; }
  // Their team units, domain by domain in tree order. Local.
  std::vector<team_unit_t> units() const;
  // Number of (real or emulated) nodes of the team. Local.
  std::size_t num_nodes() const { return Locality(*team_).num_nodes(); }
  // Cores of domain() (LocalityDomain::num_cores). Local.
  int num_cores() const { return domain_.num_cores(); }

 private:
  Team* team_;
  LocalityDomain domain_;
  Scope split_scope_ = Scope::Global;
  std::vector<LocalityDomain> domains_;
  mutable std::vector<std::optional<UnitLocality>> unit_localities_;  // made on first use
};

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__TEAM_LOCALITY_H_
