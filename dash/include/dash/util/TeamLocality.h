// DASH's locality classes over dash::util::Locality:
//
//   dash::util::TeamLocality tloc(dash::Team::All());
//   tloc.split(dash::util::Locality::Scope::Node);          // one domain per node
//   for (const dash::util::LocalityDomain& node : tloc.domains())
//     for (dash::team_unit_t u : node.units()) {
//       dash::util::UnitLocality uloc(dash::Team::All(), u);
//       ... uloc.host(), uloc.num_cores(), uloc.domain_tag() ...
//     }
//
// LocalityDomain: one domain of a team's hierarchy (tag, scope, level,
// units, its subdomains by index and by iteration), or a group of domains
// made by TeamLocality::split(scope, parts). UnitLocality: where one unit
// runs. TeamLocality: a team's domains at a scope, under a selected domain,
// optionally grouped into a number of parts. Everything is local; the
// first query of a team builds its hierarchy (see Locality.h).
#ifndef DASH__UTIL__TEAM_LOCALITY_H_
#define DASH__UTIL__TEAM_LOCALITY_H_

#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/util/Config.h>
#include <dash/util/Locality.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace dash {
namespace util {

class LocalityDomain {
 public:
  using Scope = Locality::Scope;

  // Iterates the subdomains (by value).
  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = LocalityDomain;
    using difference_type = std::ptrdiff_t;
    using pointer = const LocalityDomain*;
    using reference = LocalityDomain;

    iterator() = default;
    iterator(const LocalityDomain* domain, std::size_t i) : domain_(domain), i_(i) {}
    LocalityDomain operator*() const { return domain_->at(i_); }
    LocalityDomain operator[](difference_type k) const { return domain_->at(i_ + std::size_t(k)); }
    iterator& operator++() { return ++i_, *this; }
    iterator operator++(int) { return iterator(domain_, i_++); }
    iterator& operator--() { return --i_, *this; }
    iterator& operator+=(difference_type k) { return i_ += std::size_t(k), *this; }
    iterator operator+(difference_type k) const { return iterator(domain_, i_ + std::size_t(k)); }
    difference_type operator-(const iterator& o) const {
      return difference_type(i_) - difference_type(o.i_);
    }
    bool operator==(const iterator& o) const { return domain_ == o.domain_ && i_ == o.i_; }
    bool operator!=(const iterator& o) const { return !(*this == o); }

   private:
    const LocalityDomain* domain_ = nullptr;
    std::size_t i_ = 0;
  };

  // No domain (size 0, no units).
  LocalityDomain() = default;
  // The domain of `team` named `tag` (".", ".0", ".0.1", ...). Throws
  // dash::exception::InvalidArgument for a tag naming no domain.
  LocalityDomain(Team& team, const std::string& tag = ".")
      : team_(&team), domain_(Locality(team).domain(tag)) {}
  // A group of domains of `team` (what TeamLocality::split makes): its tag
  // is the first member's, its units theirs, its subdomains the members.
  LocalityDomain(Team& team, std::vector<LocalityDomain> members) : team_(&team) {
    if (members.empty())
      throw exception::InvalidArgument("dash::util::LocalityDomain: a group of no domains");
    domain_ = members.front().domain_;
    domain_.units.clear();
    for (const auto& m : members)
      domain_.units.insert(domain_.units.end(), m.domain_.units.begin(), m.domain_.units.end());
    domain_.num_children = members.size();
    group_ = std::move(members);
  }

  Team& team() const { return *team_; }
  const std::string& domain_tag() const { return domain_.tag; }
  Scope scope() const { return domain_.scope; }
  int level() const { return domain_.level; }
  int relative_index() const { return domain_.relative_index; }
  // Node, NUMA or core index of the domain, the team unit id for Unit; -1
  // if unknown.
  int index() const { return domain_.index; }
  const std::string& host() const { return domain_.host; }
  // The team units inside, ascending.
  const std::vector<team_unit_t>& units() const { return domain_.units; }
  std::size_t num_units() const { return domain_.units.size(); }
  // True if this is a group made by TeamLocality::split.
  bool is_group() const { return !group_.empty(); }
  // Cores in the domain (dart_domain_locality_t::num_cores, see dart_locality.h): of a node
  // (or the team), the usable cores of its nodes; of a module or NUMA domain, its cores holding
  // units of the team; of a core 1; of a unit, the cores its binding allows (-1 unknown); of a
  // group, its members' sum. Local.
  int num_cores() const {
    if (!is_group()) return Locality(*team_).record(domain_.tag).num_cores;
    int cores = 0;
    for (const LocalityDomain& member : group_) cores += std::max(0, member.num_cores());
    return cores;
  }
  // DART's record of the domain (owned by DART, valid while the team lives); throws
  // InvalidArgument for a group. Local.
  const dart_domain_locality_t& dart_type() const {
    if (is_group())
      throw exception::InvalidArgument("dash::util::LocalityDomain::dart_type: " + domain_.tag +
                                       " is a group of this library's TeamLocality::split");
    return Locality(*team_).record(domain_.tag);
  }

  // Subdomains: how many, the i-th, all of them by iteration.
  std::size_t size() const { return domain_.num_children; }
  LocalityDomain at(std::size_t i) const {
    if (i >= size())
      throw exception::InvalidArgument("dash::util::LocalityDomain::at: subdomain " +
                                       std::to_string(i) + " of " + std::to_string(size()) +
                                       " in " + domain_.tag);
    if (is_group()) return group_[i];
    return LocalityDomain(*team_,
                          (domain_.tag == "." ? "" : domain_.tag) + "." + std::to_string(i));
  }
  iterator begin() const { return iterator(this, 0); }
  iterator end() const { return iterator(this, size()); }

  // The domains of `scope` inside this one, in tag order (this one if it
  // is of that scope).
  std::vector<LocalityDomain> scope_domains(Scope scope) const {
    std::vector<LocalityDomain> out;
    collect(scope, out);
    return out;
  }
  // The descendant (or this domain) named `tag`. Throws
  // dash::exception::InvalidArgument if it is not inside this one.
  LocalityDomain find(const std::string& tag) const {
    if (!inside(tag, domain_.tag))
      throw exception::InvalidArgument("dash::util::LocalityDomain::find: " + tag +
                                       " is not inside " + domain_.tag);
    return LocalityDomain(*team_, tag);
  }

  friend bool operator==(const LocalityDomain& a, const LocalityDomain& b) {
    return a.team_ == b.team_ && a.domain_.tag == b.domain_.tag &&
           a.domain_.units == b.domain_.units;
  }
  friend bool operator!=(const LocalityDomain& a, const LocalityDomain& b) { return !(a == b); }

  // True if `tag` names `parent` or a domain inside it.
  static bool inside(const std::string& tag, const std::string& parent) {
    if (parent == ".") return !tag.empty() && tag[0] == '.';
    return tag == parent ||
           (tag.size() > parent.size() && tag.compare(0, parent.size(), parent) == 0 &&
            tag[parent.size()] == '.');
  }

 private:
  void collect(Scope scope, std::vector<LocalityDomain>& out) const {
    if (domain_.scope == scope && !is_group()) {
      out.push_back(*this);
      return;
    }
    for (std::size_t i = 0; i < size(); ++i) at(i).collect(scope, out);
  }

  Team* team_ = &Team::Null();
  Locality::Domain domain_;
  std::vector<LocalityDomain> group_;  // the members of a group
};

// Where one unit of a team runs: DART's records of it (dart_unit_locality, dart_unit_placement).
class UnitLocality {
 public:
  // Team unit `unit` of `team`.
  UnitLocality(Team& team, team_unit_t unit) : team_(&team), loc_(Locality(team).unit(unit)) {
    dash::internal::check_dart(dart_unit_locality(team.dart_id(), unit, &record_),
                               "dash::util::UnitLocality");
    hwinfo_ = record_->hwinfo;
  }
  // Global unit `unit`, in Team::All().
  explicit UnitLocality(global_unit_t unit) : UnitLocality(Team::All(), team_unit_t(unit.id)) {}
  // The calling unit, in Team::All() (DASH's default).
  UnitLocality() : UnitLocality(Team::All(), Team::All().myid()) {}

  Team& team() const { return *team_; }
  team_unit_t unit_id() const { return loc_.unit; }
  global_unit_t global_unit_id() const { return loc_.global_unit; }
  const std::string& host() const { return loc_.host; }
  // DASH's other name for host().
  std::string hostname() const { return loc_.host; }
  // The unit's domain tag ".node.0.numa.core.unit".
  std::string domain_tag() const { return record_->domain_tag; }
  // DART's record of the unit's hardware (caches, threads per core, ...; -1 unknown), as this
  // object's copy: what is written through hwinfo() (DASH programs set num_numa, num_cores to
  // model a machine) stays in it (the thread, clock and cache-line queries below read it), never
  // in DART's record. Local.
  const dart_hwinfo_t& hwinfo() const { return hwinfo_; }
  dart_hwinfo_t& hwinfo() { return hwinfo_; }
  // DART's record of the unit's UNIT domain in the team's tree (owned by DART, valid while the
  // team lives): domain().parent is its core's domain, and so on up.
  const dart_domain_locality_t& domain() const {
    return Locality(*team_).record(record_->domain_tag);
  }
  // The domain above the unit's (its core).
  LocalityDomain parent() const { return LocalityDomain(*team_, domain().parent->domain_tag); }
  // The domain above the unit's of `scope` (Node, Module, NUMA, Core); throws InvalidArgument if
  // there is none.
  LocalityDomain parent_in_scope(Locality::Scope scope) const {
    for (const dart_domain_locality_t* d = &domain(); d != nullptr; d = d->parent)
      if (d->scope == static_cast<dart_locality_scope_t>(scope))
        return LocalityDomain(*team_, d->domain_tag);
    throw exception::InvalidArgument(std::string("dash::util::UnitLocality::parent_in_scope: no ") +
                                     locality_scope_name(scope) + " domain above " +
                                     record_->domain_tag);
  }
  int node_id() const { return loc_.node; }
  int numa_id() const { return loc_.numa; }
  int core_id() const { return loc_.core; }
  int cpu_id() const { return loc_.cpu; }
  // Cores and NUMA domains its binding allows; cores of its node (-1: unknown).
  int num_cores() const { return loc_.num_cores; }
  int num_numa() const { return loc_.num_numa; }
  int node_cores() const { return loc_.node_cores; }
  // Hardware threads per core over the unit's cores, fewest and most (hwloc; 1 where unknown);
  // num_threads() is max_threads() if DASH_MAX_SMT is set, else min_threads(), as in DASH.
  // Local.
  int min_threads() const { return std::max(1, hwinfo_.min_threads); }
  int max_threads() const { return std::max(1, hwinfo_.max_threads); }
  int num_threads() const {
    return Config::get<bool>("DASH_MAX_SMT") ? max_threads() : min_threads();
  }
  // Clock rates and bandwidth are not measured: -1.
  int min_cpu_mhz() const { return hwinfo_.min_cpu_mhz; }
  int max_cpu_mhz() const { return hwinfo_.max_cpu_mhz; }
  int max_shmem_mbps() const { return hwinfo_.max_shmem_mbps; }
  // Line size in bytes of the cache of `level` (0: L1 data, 1: L2, 2: L3) of the unit's core as
  // hwloc saw it (else the calling unit's machine, as sysconf tells), at least 64 (DASH's
  // floor). Local.
  int cache_line_size(int level) const {
    long bytes =
        level >= 0 && level < DART_LOCALITY_MAX_CACHE_LEVELS ? hwinfo_.cache_line_sizes[level] : -1;
    if (bytes <= 0 && level >= 0 && level < 3) {
      const int names[3] = {_SC_LEVEL1_DCACHE_LINESIZE, _SC_LEVEL2_CACHE_LINESIZE,
                            _SC_LEVEL3_CACHE_LINESIZE};
      bytes = sysconf(names[level]);
    }
    return bytes > 64 ? int(bytes) : 64;
  }
  // The (real or emulated) node domain the unit belongs to.
  LocalityDomain node_domain() const { return parent_in_scope(Locality::Scope::Node); }

 private:
  Team* team_;
  Locality::UnitLocality loc_;
  dart_unit_locality_t* record_ = nullptr;  // DART's
  dart_hwinfo_t hwinfo_{};                  // this object's copy of record_->hwinfo
};

// Writes d and the domains inside it, indented by depth (operator<< below). Local.
inline void print_locality_domain(std::ostream& os, const LocalityDomain& d, int depth) {
  os << std::string(2 * std::size_t(depth), ' ') << d.domain_tag() << " ("
     << locality_scope_name(d.scope());
  if (!d.host().empty()) os << ", host " << d.host();
  os << ", units";
  for (team_unit_t u : d.units()) os << " " << u.id;
  os << ")\n";
  if (d.scope() != LocalityScope::Unit)
    for (const LocalityDomain& sub : d) print_locality_domain(os, sub, depth + 1);
}

// Writes the domain and every domain inside it, one line each, indented by depth:
// "<tag> (<scope>[, host <host>], units <ids>)". Local.
inline std::ostream& operator<<(std::ostream& os, const LocalityDomain& domain) {
  print_locality_domain(os, domain, 0);
  return os;
}

// A team's locality domains: the selected domain (the whole team at
// first), or after split(scope [, parts]) its domains at that scope, dealt
// in contiguous runs into `parts` groups whose numbers of domains differ by
// at most one.
class TeamLocality {
 public:
  using Scope = Locality::Scope;

  explicit TeamLocality(Team& team, Scope scope = Scope::Global, const std::string& tag = ".")
      : team_(&team), tag_(tag) {
    domains_ = {LocalityDomain(team, tag)};
    if (scope != Scope::Global) split(scope);
  }

  Team& team() const { return *team_; }
  // The selected domain.
  LocalityDomain domain() const { return LocalityDomain(*team_, tag_); }
  // Narrows to the domain named `tag` (inside the selected one; throws
  // dash::exception::InvalidArgument otherwise) and forgets a split.
  TeamLocality& select(const std::string& tag) {
    if (!LocalityDomain::inside(tag, tag_))
      throw exception::InvalidArgument("dash::util::TeamLocality::select: " + tag +
                                       " is not inside " + tag_);
    tag_ = tag;
    domains_ = {LocalityDomain(*team_, tag_)};
    return *this;
  }
  // The selected domain's domains at `scope`, grouped into `parts` (0: one
  // per domain; more parts than domains: one per domain). Throws
  // dash::exception::InvalidArgument for a negative count.
  TeamLocality& split(Scope scope, int parts = 0) {
    if (parts < 0)
      throw exception::InvalidArgument("dash::util::TeamLocality::split: " + std::to_string(parts) +
                                       " parts");
    auto all = LocalityDomain(*team_, tag_).scope_domains(scope);
    domains_.clear();
    const std::size_t n = all.size();
    const std::size_t p = parts == 0 || std::size_t(parts) >= n ? n : std::size_t(parts);
    if (p == n) {
      domains_ = std::move(all);
      return *this;
    }
    for (std::size_t g = 0; g < p; ++g) {
      const std::size_t first = g * n / p, last = (g + 1) * n / p;
      domains_.emplace_back(
          *team_, std::vector<LocalityDomain>(all.begin() + long(first), all.begin() + long(last)));
    }
    return *this;
  }
  // The current domains (or groups).
  const std::vector<LocalityDomain>& domains() const { return domains_; }
  // Their team units, in domain order.
  std::vector<team_unit_t> units() const {
    std::vector<team_unit_t> out;
    for (const auto& d : domains_) out.insert(out.end(), d.units().begin(), d.units().end());
    return out;
  }
  std::size_t num_nodes() const { return Locality(*team_).num_nodes(); }

 private:
  Team* team_;
  std::string tag_;
  std::vector<LocalityDomain> domains_;
};

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__TEAM_LOCALITY_H_
