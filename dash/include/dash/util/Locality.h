// dash::util::Locality: where the units of a team run, and the team's
// locality hierarchy, on top of dart_locality.h.
//
// A team's units form a tree of domains: the team (tag "."), its nodes
// (".n", real or emulated, see DART_VIRTUAL_NODE_SIZE), one module per node
// (".n.0", DASH's level), its NUMA domains (".n.0.m"), their cores
// (".n.0.m.c") and the units on each core (".n.0.m.c.u"). Every level
// partitions the team's units; children are ordered by their hardware
// index, so tags are the same on every unit. Hardware indices are -1
// ("unknown") when hwloc gave no answer on a unit (then its NUMA domain and
// core are one unknown domain per parent). The DART records behind it:
// dart_domain_team_locality, dart_unit_locality (DASH's shapes) and
// dart_unit_placement.
//
// | call                                      | cost                            |
// |-------------------------------------------|---------------------------------|
// | Locality(team)                            | local, O(1)                     |
// | unit(u)                                   | local, O(1)                     |
// | num_domains(scope), num_nodes(), num_numa | local (first query of a team:   |
// | NumNodes(), NumNUMANodes(), NumCores(),   |                                 |
// | NumUnits() (of Team::All(), DASH's)       |                                 |
// | domain(tag), domains(scope), children(d)  |  O(n log n) to build its tree)  |
//
// Splitting a team by locality: dash::Team::locality_split(scope, parts).
#ifndef DASH__UTIL__LOCALITY_H_
#define DASH__UTIL__LOCALITY_H_

#include <dart/dart_locality.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/util/LocalityScope.h>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

namespace dash {
namespace util {

class Locality {
 public:
  using Scope = LocalityScope;

  // Where one unit runs; -1 means unknown.
  struct UnitLocality {
    team_unit_t unit;           // id in the queried team
    global_unit_t global_unit;  // id in Team::All()
    std::string host;
    int node = -1;        // DART node (real or emulated)
    int real_node = -1;   // real node (shared-memory domain)
    int numa = -1;        // NUMA domain on the real node
    int socket = -1;      // socket (package) on the real node
    int core = -1;        // core on the real node, in [0, node_cores)
    int cpu = -1;         // OS index of the hardware thread it ran on at start-up
    int num_cores = -1;   // cores its binding allows
    int num_numa = -1;    // NUMA domains its binding allows
    int node_cores = -1;  // usable cores of the real node
  };

  // One domain of the hierarchy (a copy of DART's record, units as team ids).
  struct Domain {
    std::string tag;  // ".0.1"
    Scope scope = Scope::Global;
    int level = 0;           // depth, 0 for the team
    int relative_index = 0;  // position among the parent's children
    int index = 0;     // node / NUMA / core index, team unit id for Unit; -1 unknown; 0 otherwise
    std::string host;  // "" for the team
    std::vector<team_unit_t> units;  // ascending
    std::size_t num_children = 0;
  };

  // Locality of `team`'s units (Team::All() by default). Local.
  explicit Locality(const Team& team = Team::All()) : team_(team.dart_id()) {
    if (team.is_null()) throw exception::InvalidArgument("dash::util::Locality: the team is Null");
  }

  // DART id of the team. Local.
  dart_team_t dart_team() const { return team_; }

  // Where team unit u runs. Local.
  UnitLocality unit(team_unit_t u) const {
    dart_unit_placement_t loc;
    dash::internal::check_dart(dart_unit_placement(team_, u, &loc), "dash::util::Locality::unit");
    UnitLocality out;
    out.unit = team_unit_t(loc.team_unit);
    out.global_unit = global_unit_t(loc.unit);
    out.host = loc.host;
    out.node = loc.node;
    out.real_node = loc.real_node;
    out.numa = loc.numa;
    out.socket = loc.socket;
    out.core = loc.core;
    out.cpu = loc.cpu;
    out.num_cores = loc.num_cores;
    out.num_numa = loc.num_numa;
    out.node_cores = loc.node_cores;
    return out;
  }

  // Number of the team's domains at `scope`. Local.
  std::size_t num_domains(Scope scope) const {
    std::size_t n = 0;
    dash::internal::check_dart(dart_domain_scope_count(team_, to_dart(scope), &n),
                         "dash::util::Locality::num_domains");
    return n;
  }

  // Number of (real or emulated) nodes the team spans. Local.
  std::size_t num_nodes() const { return num_domains(Scope::Node); }

  // DASH's static queries, over Team::All(). Local.
  // Number of (real or emulated) nodes.
  static int NumNodes() { return int(Locality(Team::All()).num_nodes()); }
  // Number of NUMA domains (unknown ones count once per node).
  static int NumNUMANodes() { return int(Locality(Team::All()).num_numa()); }
  // Number of cores: the usable cores of every node (dart_domain_locality_t::num_cores of ".").
  static int NumCores() { return Locality(Team::All()).root().num_cores; }
  // Number of units.
  static int NumUnits() { return int(Locality(Team::All()).num_domains(Scope::Unit)); }

  // Number of NUMA domains the team spans (unknown ones count once per node). Local.
  std::size_t num_numa() const { return num_domains(Scope::NUMA); }

  // DART's record of the team's root domain (owned by DART; valid while the team lives). Local.
  const dart_domain_locality_t& root() const { return record("."); }

  // DART's record of the domain named by `tag` (owned by DART). Throws
  // InvalidArgument for a malformed tag or one naming no domain. Local.
  const dart_domain_locality_t& record(const std::string& tag) const {
    dart_domain_locality_t* d = nullptr;
    const std::string call = "dash::util::Locality::domain(\"" + tag + "\")";
    dash::internal::check_dart(dart_domain_team_locality(team_, tag.c_str(), &d), call.c_str());
    return *d;
  }

  // The domain named by `tag` (".", ".0", ".0.1", ...). Throws InvalidArgument
  // for a malformed tag or one naming no domain. Local.
  Domain domain(const std::string& tag) const {
    return convert(record(tag), "dash::util::Locality::domain(\"" + tag + "\")");
  }

  // The team's domains at `scope`, in tag order (none for a scope the tree does not use). Local.
  std::vector<Domain> domains(Scope scope) const {
    std::vector<Domain> out;
    int n = 0;
    dart_domain_locality_t** found = nullptr;
    const dart_ret_t ret = dart_domain_scope_domains(&root(), to_dart(scope), &n, &found);
    if (ret == DART_ERR_NOTFOUND) return out;
    dash::internal::check_dart(ret, "dash::util::Locality::domains");
    try {
      for (int i = 0; i < n; ++i)
        out.push_back(convert(*found[i], "dash::util::Locality::domains"));
    } catch (...) {
      std::free(found);
      throw;
    }
    std::free(found);
    return out;
  }

  // The children of `parent`, in tag order (none for a unit). Local.
  std::vector<Domain> children(const Domain& parent) const {
    std::vector<Domain> out;
    out.reserve(parent.num_children);
    for (std::size_t i = 0; i < parent.num_children; ++i) {
      out.push_back(domain((parent.tag == "." ? "" : parent.tag) + "." + std::to_string(i)));
    }
    return out;
  }

 private:
  static dart_locality_scope_t to_dart(Scope scope) {
    return static_cast<dart_locality_scope_t>(scope);
  }

  Domain convert(const dart_domain_locality_t& d, const std::string& call) const {
    Domain out;
    out.tag = d.domain_tag;
    out.scope = static_cast<Scope>(d.scope);
    out.level = d.level;
    out.relative_index = d.relative_index;
    out.host = d.host;
    out.num_children = std::size_t(d.num_domains);
    std::vector<dart_team_unit_t> units(std::size_t(d.num_units));
    dash::internal::check_dart(dart_domain_units(team_, d.domain_tag, units.size(), units.data()),
                         call.c_str());
    out.units.assign(units.begin(), units.end());
    // The hardware index, from the placement of its first unit.
    const UnitLocality first = out.units.empty() ? UnitLocality() : unit(out.units.front());
    switch (out.scope) {
      case Scope::Node:
        out.index = first.node;
        break;
      case Scope::NUMA:
        out.index = first.numa;
        break;
      case Scope::Core:
        out.index = first.core;
        break;
      case Scope::Unit:
        out.index = first.unit.id;
        break;
      default:
        out.index = 0;
    }
    return out;
  }

  dart_team_t team_;
};

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__LOCALITY_H_
