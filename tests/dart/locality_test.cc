// Unit locality (dart_locality.h): every unit's record (host, node, hwloc NUMA domain / socket /
// core), the domain tree of DART_TEAM_ALL and of sub-teams (partition at every level, tags,
// order), bad input, and dart_team_locality_split. Run plain, under virtual nodes (vnode1,
// vnode2: node ids follow DART_VIRTUAL_NODE_SIZE), without hwloc locality (hwloc_fail:
// DART_TEST_HWLOC_FAIL=1; hwloc_synthetic: hwloc describes another machine), where
// numa/socket/core are unknown, and, with OpenMPI, bound to cores (bound).
#include <dart/dart.h>
#include <hwloc.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dart_test_util.h"
#include "mpi_test.h"

namespace {

using dash_test::ExpectedNode;
using dash_test::TeamUnits;

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

// True when DART has no hwloc locality: forced off (DART_TEST_HWLOC_FAIL=1), or hwloc shows a
// synthetic machine (variant hwloc_synthetic), which DART must refuse as not this machine.
bool HwlocForcedOff() {
  const char* v = std::getenv("DART_TEST_HWLOC_FAIL");
  return (v != nullptr && std::strcmp(v, "1") == 0) || std::getenv("HWLOC_SYNTHETIC") != nullptr;
}

int TeamSize(dart_team_t team) {
  size_t size = 0;
  EXPECT_EQ(dart_team_size(team, &size), DART_OK);
  return static_cast<int>(size);
}

int TeamMe(dart_team_t team) {
  dart_team_unit_t me{-1};
  EXPECT_EQ(dart_team_myid(team, &me), DART_OK);
  return me.id;
}

dart_unit_locality_t UnitLoc(dart_team_t team, int unit) {
  dart_unit_locality_t loc;
  std::memset(&loc, 0x55, sizeof loc);
  EXPECT_EQ(dart_unit_locality(team, DART_TEAM_UNIT_ID(unit), &loc), DART_OK);
  return loc;
}

struct Domain {
  dart_domain_locality_t info;
  std::vector<int> units;  // team-relative, ascending
};

std::vector<int> DomainUnits(dart_team_t team, const dart_domain_locality_t& d) {
  std::vector<dart_team_unit_t> units(d.num_units);
  EXPECT_EQ(dart_domain_units(team, d.tag, units.size(), units.data()), DART_OK);
  std::vector<int> ids;
  for (const auto& u : units) ids.push_back(u.id);
  return ids;
}

std::vector<Domain> DomainsAt(dart_team_t team, dart_locality_scope_t scope) {
  size_t count = 0;
  EXPECT_EQ(dart_domain_scope_count(team, scope, &count), DART_OK);
  std::vector<Domain> out(count);
  for (size_t i = 0; i < count; ++i) {
    EXPECT_EQ(dart_domain_scope_locality(team, scope, i, &out[i].info), DART_OK);
    out[i].units = DomainUnits(team, out[i].info);
  }
  return out;
}

const dart_locality_scope_t kScopes[] = {DART_LOCALITY_SCOPE_GLOBAL, DART_LOCALITY_SCOPE_NODE,
                                         DART_LOCALITY_SCOPE_NUMA, DART_LOCALITY_SCOPE_CORE,
                                         DART_LOCALITY_SCOPE_UNIT};

// Value of a unit's record that a domain at scope is indexed by.
int ScopeIndexOf(const dart_unit_locality_t& loc, dart_locality_scope_t scope) {
  switch (scope) {
    case DART_LOCALITY_SCOPE_GLOBAL:
      return 0;
    case DART_LOCALITY_SCOPE_NODE:
      return loc.node;
    case DART_LOCALITY_SCOPE_NUMA:
      return loc.numa;
    case DART_LOCALITY_SCOPE_CORE:
      return loc.core;
    default:
      return loc.team_unit.id;
  }
}

// The parent tag of a non-root tag.
std::string ParentTag(const std::string& tag) {
  std::string parent = tag.substr(0, tag.rfind('.'));
  return parent.empty() ? "." : parent;
}

// Checks the whole domain tree of a team against the unit records.
void ExpectTreeMatchesRecords(dart_team_t team) {
  const int n = TeamSize(team);
  std::vector<dart_unit_locality_t> locs;
  for (int u = 0; u < n; ++u) locs.push_back(UnitLoc(team, u));
  std::map<std::string, Domain> by_tag;
  for (dart_locality_scope_t scope : kScopes) {
    SCOPED_TRACE("scope " + std::to_string(scope));
    std::vector<Domain> level = DomainsAt(team, scope);
    ASSERT_FALSE(level.empty());
    // Every unit of the team in exactly one domain of the level.
    std::vector<int> seen(n, 0);
    std::set<int> distinct;  // scope indices of the team's units
    for (const auto& u : locs) distinct.insert(ScopeIndexOf(u, scope) + 0);
    for (size_t i = 0; i < level.size(); ++i) {
      const Domain& d = level[i];
      SCOPED_TRACE(std::string("domain ") + d.info.tag);
      EXPECT_EQ(d.info.scope, scope);
      EXPECT_EQ(d.info.level, int(scope));
      EXPECT_EQ(d.info.num_units, d.units.size());
      EXPECT_FALSE(d.units.empty());
      EXPECT_TRUE(std::is_sorted(d.units.begin(), d.units.end()));
      for (int u : d.units) {
        ASSERT_TRUE(u >= 0 && u < n);
        ++seen[u];
        EXPECT_EQ(ScopeIndexOf(locs[u], scope), d.info.index) << "unit " << u;
        if (scope != DART_LOCALITY_SCOPE_GLOBAL) {
          EXPECT_STREQ(locs[u].host, d.info.host);
        }
      }
      if (scope == DART_LOCALITY_SCOPE_GLOBAL) {
        EXPECT_STREQ(d.info.tag, ".");
        EXPECT_STREQ(d.info.host, "");
        EXPECT_EQ(d.info.index, 0);
        EXPECT_EQ(int(d.units.size()), n);
      } else {
        // The parent holds this domain's units, and tags count up from 0 among siblings.
        std::string tag = d.info.tag;
        auto parent = by_tag.find(ParentTag(tag));
        ASSERT_NE(parent, by_tag.end()) << tag;
        EXPECT_EQ(ParentTag(tag) == "."
                      ? "." + std::to_string(d.info.relative_index)
                      : ParentTag(tag) + "." + std::to_string(d.info.relative_index),
                  tag);
        for (int u : d.units) {
          EXPECT_TRUE(
              std::binary_search(parent->second.units.begin(), parent->second.units.end(), u));
        }
        EXPECT_LT(size_t(d.info.relative_index), parent->second.info.num_domains);
        // Siblings in ascending index order.
        if (i > 0 && ParentTag(level[i - 1].info.tag) == ParentTag(tag)) {
          EXPECT_LT(level[i - 1].info.index, d.info.index);
          EXPECT_EQ(level[i - 1].info.relative_index + 1, d.info.relative_index);
        } else {
          EXPECT_EQ(d.info.relative_index, 0);
        }
      }
      if (scope == DART_LOCALITY_SCOPE_UNIT) {
        EXPECT_EQ(d.units.size(), 1u);
        EXPECT_EQ(d.info.num_domains, 0u);
      }
      // The tag resolves to the same domain.
      dart_domain_locality_t again;
      EXPECT_EQ(dart_domain_team_locality(team, d.info.tag, &again), DART_OK);
      EXPECT_EQ(std::memcmp(&again, &d.info, sizeof again), 0);
      by_tag[d.info.tag] = d;
    }
    for (int u = 0; u < n; ++u) EXPECT_EQ(seen[u], 1) << "unit " << u;
    // Within each parent, one domain per distinct index: for the node level that is the
    // number of distinct nodes of the team.
    if (scope <= DART_LOCALITY_SCOPE_NODE) {
      EXPECT_EQ(level.size(), distinct.size());
    }
  }
  // Children counts: a domain's num_domains equals the domains whose parent it is.
  std::map<std::string, size_t> children;
  for (const auto& entry : by_tag) {
    if (entry.first != ".") ++children[ParentTag(entry.first)];
  }
  for (const auto& entry : by_tag) {
    EXPECT_EQ(entry.second.info.num_domains, children[entry.first]) << entry.first;
  }
}

// A digest of a team's tree (tags, indices, units), equal on every member if the tree is.
unsigned long long TreeDigest(dart_team_t team) {
  unsigned long long h = 1469598103934665603ull;
  auto mix = [&h](long long v) { h = (h ^ static_cast<unsigned long long>(v)) * 1099511628211ull; };
  for (dart_locality_scope_t scope : kScopes) {
    for (const auto& d : DomainsAt(team, scope)) {
      for (const char* c = d.info.tag; *c; ++c) mix(*c);
      mix(d.info.index);
      for (int u : d.units) mix(u);
    }
  }
  return h;
}

// Checks that every member of the team passed the same value (DART collectives, so the check
// holds whatever the mapping of unit ids to MPI ranks).
void ExpectSameOnAllMembers(dart_team_t team, unsigned long long value) {
  unsigned long long lo = 0, hi = 0;
  ASSERT_EQ(dart_allreduce(&value, &lo, 1, DART_TYPE_ULONGLONG, DART_OP_MIN, team), DART_OK);
  ASSERT_EQ(dart_allreduce(&value, &hi, 1, DART_TYPE_ULONGLONG, DART_OP_MAX, team), DART_OK);
  EXPECT_EQ(lo, hi);
}

TEST(Locality, UnitRecordsAreConsistent) {
  char my_host[256] = {0};
  ASSERT_EQ(gethostname(my_host, sizeof my_host - 1), 0);
  // Units of my DART node, through dart_team_split_node.
  dart_team_t node_team = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_split_node(DART_TEAM_ALL, &node_team), DART_OK);
  std::vector<int> node_members = TeamUnits(node_team);
  const int my_node = UnitLoc(DART_TEAM_ALL, Me()).node;
  for (int u = 0; u < N(); ++u) {
    SCOPED_TRACE("unit " + std::to_string(u));
    dart_unit_locality_t loc = UnitLoc(DART_TEAM_ALL, u);
    EXPECT_EQ(loc.unit.id, u);
    EXPECT_EQ(loc.team_unit.id, u);
    EXPECT_GT(std::strlen(loc.host), 0u);
    EXPECT_LT(std::strlen(loc.host), size_t(DART_LOCALITY_HOST_MAX_SIZE));
    EXPECT_EQ(std::strcmp(loc.host, my_host) == 0,
              dash_test::ExpectedRealNode(u) == dash_test::ExpectedRealNode(Me()))
        << loc.host << " vs my " << my_host;
    EXPECT_EQ(loc.real_node, dash_test::ExpectedRealNode(u));
    EXPECT_EQ(loc.node, ExpectedNode(u));
    bool in_my_node_team =
        std::find(node_members.begin(), node_members.end(), u) != node_members.end();
    EXPECT_EQ(loc.node == my_node, in_my_node_team);
    if (HwlocForcedOff()) {
      EXPECT_EQ(loc.numa, -1);
      EXPECT_EQ(loc.socket, -1);
      EXPECT_EQ(loc.core, -1);
      EXPECT_EQ(loc.cpu, -1);
      EXPECT_EQ(loc.num_cores, -1);
      EXPECT_EQ(loc.num_numa, -1);
      EXPECT_EQ(loc.node_cores, -1);
    } else {
      EXPECT_GE(loc.node_cores, 1);
      EXPECT_GE(loc.core, 0);
      EXPECT_LT(loc.core, loc.node_cores);
      EXPECT_GE(loc.numa, 0);
      EXPECT_GE(loc.socket, 0);
      EXPECT_GE(loc.cpu, 0);
      EXPECT_GE(loc.num_cores, 1);
      EXPECT_LE(loc.num_cores, loc.node_cores);
      EXPECT_GE(loc.num_numa, 1);
    }
  }
  EXPECT_EQ(dart_team_destroy(&node_team), DART_OK);
}

// The record's core, socket and NUMA domain are those holding its cpu in hwloc's view, and its
// core count is the cores met by this unit's affinity mask; a unit bound to one core reports
// that core (sched_getcpu must be on it).
TEST(Locality, HardwareIndicesMatchHwloc) {
  dart_unit_locality_t loc = UnitLoc(DART_TEAM_ALL, Me());
  if (HwlocForcedOff()) {
    EXPECT_EQ(loc.core, -1);
    return;
  }
  hwloc_topology_t topo;
  ASSERT_EQ(hwloc_topology_init(&topo), 0);
  ASSERT_EQ(hwloc_topology_load(topo), 0);
  EXPECT_EQ(loc.node_cores, hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE));
  hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo, unsigned(loc.cpu));
  ASSERT_NE(pu, nullptr) << "cpu " << loc.cpu;
  hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
  ASSERT_NE(core, nullptr);
  EXPECT_EQ(loc.core, int(core->logical_index));
  hwloc_obj_t package = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, pu);
  if (package != nullptr) {
    EXPECT_EQ(loc.socket, int(package->logical_index));
  }
  hwloc_obj_t numa = nullptr;
  while ((numa = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, numa)) != nullptr) {
    if (hwloc_bitmap_isset(numa->cpuset, unsigned(loc.cpu))) break;
  }
  ASSERT_NE(numa, nullptr);
  EXPECT_EQ(loc.numa, int(numa->logical_index));
  // Cores and NUMA domains met by the affinity mask (the unit does not change its binding).
  cpu_set_t mask;
  ASSERT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
  std::set<unsigned> cores, numas;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &mask)) continue;
    hwloc_obj_t p = hwloc_get_pu_obj_by_os_index(topo, unsigned(c));
    if (p == nullptr) continue;
    hwloc_obj_t k = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, p);
    if (k != nullptr) cores.insert(k->logical_index);
    hwloc_obj_t m = nullptr;
    while ((m = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, m)) != nullptr) {
      if (hwloc_bitmap_isset(m->cpuset, unsigned(c))) numas.insert(m->logical_index);
    }
  }
  EXPECT_EQ(loc.num_cores, int(cores.size()));
  EXPECT_EQ(loc.num_numa, int(numas.size()));
  EXPECT_TRUE(cores.count(unsigned(loc.core))) << "the unit ran outside its binding";
  if (cores.size() == 1) {
    // Bound to one core: where it runs now is where it ran at start-up.
    int now = sched_getcpu();
    ASSERT_GE(now, 0);
    hwloc_obj_t now_pu = hwloc_get_pu_obj_by_os_index(topo, unsigned(now));
    ASSERT_NE(now_pu, nullptr);
    EXPECT_EQ(int(hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, now_pu)->logical_index),
              loc.core);
  }
  hwloc_topology_destroy(topo);
}

TEST(Locality, BoundVariantBindsEveryUnitToOneCore) {
  const char* policy = std::getenv("OMPI_MCA_hwloc_base_binding_policy");
  if (policy == nullptr || std::strncmp(policy, "core", 4) != 0 || HwlocForcedOff()) {
    GTEST_SKIP() << "not the bound variant";
  }
  dart_unit_locality_t loc = UnitLoc(DART_TEAM_ALL, Me());
  EXPECT_EQ(loc.num_cores, 1);
  EXPECT_EQ(loc.num_numa, 1);
}

TEST(Locality, TreeOfTeamAllPartitionsUnits) {
  ExpectTreeMatchesRecords(DART_TEAM_ALL);
  ExpectSameOnAllMembers(DART_TEAM_ALL, TreeDigest(DART_TEAM_ALL));
  size_t nodes = 0;
  ASSERT_EQ(dart_domain_scope_count(DART_TEAM_ALL, DART_LOCALITY_SCOPE_NODE, &nodes), DART_OK);
  std::set<int> expected_nodes;
  for (int u = 0; u < N(); ++u) expected_nodes.insert(ExpectedNode(u));
  EXPECT_EQ(nodes, expected_nodes.size());
  size_t units = 0;
  ASSERT_EQ(dart_domain_scope_count(DART_TEAM_ALL, DART_LOCALITY_SCOPE_UNIT, &units), DART_OK);
  EXPECT_EQ(units, size_t(N()));
  // Node ".i" is node i here (nodes are numbered densely from 0 and ordered by id).
  for (size_t i = 0; i < nodes; ++i) {
    dart_domain_locality_t d;
    std::string tag = "." + std::to_string(i);
    ASSERT_EQ(dart_domain_team_locality(DART_TEAM_ALL, tag.c_str(), &d), DART_OK);
    EXPECT_EQ(d.index, int(i));
    EXPECT_EQ(d.scope, DART_LOCALITY_SCOPE_NODE);
  }
  if (HwlocForcedOff()) {
    // One unknown NUMA domain and one unknown core per node.
    for (const auto& d : DomainsAt(DART_TEAM_ALL, DART_LOCALITY_SCOPE_NODE)) {
      EXPECT_EQ(d.info.num_domains, 1u);
    }
    for (const auto& d : DomainsAt(DART_TEAM_ALL, DART_LOCALITY_SCOPE_NUMA)) {
      EXPECT_EQ(d.info.index, -1);
      EXPECT_EQ(d.info.num_domains, 1u);
    }
    for (const auto& d : DomainsAt(DART_TEAM_ALL, DART_LOCALITY_SCOPE_CORE)) {
      EXPECT_EQ(d.info.index, -1);
    }
  }
}

TEST(Locality, SubTeamsHaveTheirOwnTrees) {
  // Halves, odd units (units in reverse key order), and per-node teams.
  dart_team_t half = DART_TEAM_NULL, odd = DART_TEAM_NULL, node = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_split(DART_TEAM_ALL, Me() * 2 / N(), Me(), &half), DART_OK);
  ASSERT_EQ(dart_team_split(DART_TEAM_ALL, Me() % 2 == 1 ? 0 : -1, N() - Me(), &odd), DART_OK);
  ASSERT_EQ(dart_team_split_node(DART_TEAM_ALL, &node), DART_OK);
  for (dart_team_t team : {half, odd, node}) {
    if (team == DART_TEAM_NULL) continue;
    SCOPED_TRACE("team " + std::to_string(team));
    std::vector<int> members = TeamUnits(team);
    for (int u = 0; u < int(members.size()); ++u) {
      dart_unit_locality_t in_team = UnitLoc(team, u);
      dart_unit_locality_t in_all = UnitLoc(DART_TEAM_ALL, members[u]);
      EXPECT_EQ(in_team.unit.id, members[u]);
      EXPECT_EQ(in_team.team_unit.id, u);
      in_team.team_unit = in_all.team_unit;
      EXPECT_EQ(std::memcmp(&in_team, &in_all, sizeof in_all), 0);
    }
    ExpectTreeMatchesRecords(team);
    ExpectSameOnAllMembers(team, TreeDigest(team));
    dart_domain_locality_t root;
    ASSERT_EQ(dart_domain_team_locality(team, ".", &root), DART_OK);
    EXPECT_EQ(root.num_units, members.size());
  }
  EXPECT_EQ(dart_team_destroy(&half), DART_OK);
  if (odd != DART_TEAM_NULL) {
    EXPECT_EQ(dart_team_destroy(&odd), DART_OK);
  }
  EXPECT_EQ(dart_team_destroy(&node), DART_OK);
}

TEST(Locality, TeamIdReuseRebuildsTree) {
  // Team A = units of the first half; destroyed; team B (all units) likely takes A's id.
  dart_team_t a = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_split(DART_TEAM_ALL, Me() < (N() + 1) / 2 ? 0 : 1, Me(), &a), DART_OK);
  dart_domain_locality_t root;
  ASSERT_EQ(dart_domain_team_locality(a, ".", &root), DART_OK);  // builds A's tree
  EXPECT_EQ(root.num_units, size_t(TeamSize(a)));
  dart_team_t a_id = a;
  EXPECT_EQ(dart_team_destroy(&a), DART_OK);
  dart_team_t b = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_clone(DART_TEAM_ALL, &b), DART_OK);
  EXPECT_EQ(b, a_id) << "DART gives a new team the lowest free id: the test needs the reuse";
  EXPECT_EQ(dart_domain_team_locality(b, ".", &root), DART_OK);
  EXPECT_EQ(root.num_units, size_t(N()));
  ExpectTreeMatchesRecords(b);
  size_t units = 0;
  EXPECT_EQ(dart_domain_scope_count(b, DART_LOCALITY_SCOPE_UNIT, &units), DART_OK);
  EXPECT_EQ(units, size_t(N()));
  EXPECT_EQ(dart_team_destroy(&b), DART_OK);
}

TEST(Locality, TagsResolveAndBadTagsAreRejected) {
  dart_domain_locality_t d;
  for (const char* tag :
       {"", "0", "..", ".0.", ".a", ".-1", ".01", " .0", ".0 ", ".0..0", ".+1", "./", ".0x1"}) {
    EXPECT_EQ(dart_domain_team_locality(DART_TEAM_ALL, tag, &d), DART_ERR_INVAL)
        << "tag '" << tag << "'";
    dart_team_unit_t u[4];
    EXPECT_EQ(dart_domain_units(DART_TEAM_ALL, tag, 4, u), DART_ERR_INVAL) << tag;
  }
  EXPECT_EQ(dart_domain_team_locality(DART_TEAM_ALL, nullptr, &d), DART_ERR_INVAL);
  size_t nodes = 0;
  ASSERT_EQ(dart_domain_scope_count(DART_TEAM_ALL, DART_LOCALITY_SCOPE_NODE, &nodes), DART_OK);
  std::string past_last = "." + std::to_string(nodes);
  for (const std::string& tag :
       {past_last, std::string(".99999999999999999999"), std::string(".0.0.0.0.0"),
        std::string(".0.0.0.1000"), std::string(".0.7")}) {
    EXPECT_EQ(dart_domain_team_locality(DART_TEAM_ALL, tag.c_str(), &d), DART_ERR_NOTFOUND) << tag;
  }
  // Every unit leaf is four levels down and named by its path.
  for (int u = 0; u < N(); ++u) {
    dart_unit_locality_t loc = UnitLoc(DART_TEAM_ALL, u);
    bool found = false;
    for (const auto& leaf : DomainsAt(DART_TEAM_ALL, DART_LOCALITY_SCOPE_UNIT)) {
      if (leaf.info.index != u) continue;
      found = true;
      EXPECT_EQ(leaf.units, std::vector<int>{u});
      EXPECT_EQ(std::count(leaf.info.tag, leaf.info.tag + std::strlen(leaf.info.tag), '.'), 4);
      // Walk up: the core, NUMA domain and node holding the leaf have the unit's indices.
      std::string tag = ParentTag(leaf.info.tag);
      for (int want : {loc.core, loc.numa, loc.node}) {
        ASSERT_EQ(dart_domain_team_locality(DART_TEAM_ALL, tag.c_str(), &d), DART_OK);
        EXPECT_EQ(d.index, want) << tag;
        tag = ParentTag(tag);
      }
    }
    EXPECT_TRUE(found) << "unit " << u;
  }
}

TEST(Locality, BadInputIsAnErrorNotACrash) {
  dart_unit_locality_t loc;
  dart_domain_locality_t d;
  size_t count = 0;
  dart_team_unit_t units[8];
  dart_team_t out = DART_TEAM_NULL;
  const dart_team_t bad_teams[] = {DART_TEAM_NULL, dart_team_t(1234), dart_team_t(-7)};
  for (dart_team_t team : bad_teams) {
    EXPECT_EQ(dart_unit_locality(team, DART_TEAM_UNIT_ID(0), &loc), DART_ERR_INVAL);
    EXPECT_EQ(dart_domain_team_locality(team, ".", &d), DART_ERR_INVAL);
    EXPECT_EQ(dart_domain_scope_count(team, DART_LOCALITY_SCOPE_NODE, &count), DART_ERR_INVAL);
    EXPECT_EQ(dart_domain_scope_locality(team, DART_LOCALITY_SCOPE_NODE, 0, &d), DART_ERR_INVAL);
    EXPECT_EQ(dart_domain_units(team, ".", 8, units), DART_ERR_INVAL);
    EXPECT_EQ(dart_team_locality_split(team, DART_LOCALITY_SCOPE_NODE, 1, &out), DART_ERR_INVAL);
  }
  for (int unit : {-1, N(), N() + 5, INT_MIN}) {
    EXPECT_EQ(dart_unit_locality(DART_TEAM_ALL, DART_TEAM_UNIT_ID(unit), &loc), DART_ERR_INVAL)
        << unit;
  }
  EXPECT_EQ(dart_unit_locality(DART_TEAM_ALL, DART_TEAM_UNIT_ID(0), nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_team_locality(DART_TEAM_ALL, ".", nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_scope_count(DART_TEAM_ALL, DART_LOCALITY_SCOPE_NODE, nullptr),
            DART_ERR_INVAL);
  for (int scope : {-1, 5, 100}) {
    auto s = static_cast<dart_locality_scope_t>(scope);
    EXPECT_EQ(dart_domain_scope_count(DART_TEAM_ALL, s, &count), DART_ERR_INVAL);
    EXPECT_EQ(dart_domain_scope_locality(DART_TEAM_ALL, s, 0, &d), DART_ERR_INVAL);
    EXPECT_EQ(dart_team_locality_split(DART_TEAM_ALL, s, 1, &out), DART_ERR_INVAL);
  }
  ASSERT_EQ(dart_domain_scope_count(DART_TEAM_ALL, DART_LOCALITY_SCOPE_CORE, &count), DART_OK);
  EXPECT_EQ(dart_domain_scope_locality(DART_TEAM_ALL, DART_LOCALITY_SCOPE_CORE, count, &d),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_scope_locality(DART_TEAM_ALL, DART_LOCALITY_SCOPE_CORE, 0, nullptr),
            DART_ERR_INVAL);
  // Too little room for the units of the root.
  EXPECT_EQ(dart_domain_units(DART_TEAM_ALL, ".", size_t(N() - 1), units), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_units(DART_TEAM_ALL, ".", 8, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_team_locality_split(DART_TEAM_ALL, DART_LOCALITY_SCOPE_NODE, 0, &out),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_team_locality_split(DART_TEAM_ALL, DART_LOCALITY_SCOPE_NODE, 1, nullptr),
            DART_ERR_INVAL);
  EXPECT_EQ(out, DART_TEAM_NULL);
}

// Expected members (global ids, team order) of my part when `team` is split at scope into
// num_parts: domain d of D goes to part d * min(num_parts, D) / D.
std::vector<int> ExpectedPart(dart_team_t team, dart_locality_scope_t scope, size_t num_parts,
                              size_t* parts_made) {
  std::vector<Domain> domains = DomainsAt(team, scope);
  const size_t D = domains.size(), P = std::min(num_parts, D);
  *parts_made = P;
  std::vector<size_t> part_of_unit(TeamSize(team));
  for (size_t d = 0; d < D; ++d) {
    for (int u : domains[d].units) part_of_unit[u] = d * P / D;
  }
  std::vector<int> members = TeamUnits(team), expected;
  size_t mine = part_of_unit[TeamMe(team)];
  for (size_t u = 0; u < members.size(); ++u) {
    if (part_of_unit[u] == mine) expected.push_back(members[u]);
  }
  return expected;
}

// Number of distinct sub-teams among the members of parent: members that are unit 0 of theirs.
int CountSubTeams(dart_team_t parent, dart_team_t sub) {
  int leader = TeamMe(sub) == 0 ? 1 : 0, leaders = 0;
  EXPECT_EQ(dart_allreduce(&leader, &leaders, 1, DART_TYPE_INT, DART_OP_SUM, parent), DART_OK);
  return leaders;
}

void ExpectLocalitySplitWorks(dart_team_t team) {
  for (dart_locality_scope_t scope : kScopes) {
    for (size_t parts : {1, 2, 3, 4, 7}) {
      SCOPED_TRACE("scope " + std::to_string(scope) + ", " + std::to_string(parts) + " parts");
      size_t parts_made = 0;
      std::vector<int> expected = ExpectedPart(team, scope, parts, &parts_made);
      dart_team_t sub = DART_TEAM_NULL;
      ASSERT_EQ(dart_team_locality_split(team, scope, parts, &sub), DART_OK);
      ASSERT_NE(sub, DART_TEAM_NULL);
      EXPECT_EQ(TeamUnits(sub), expected);
      EXPECT_EQ(CountSubTeams(team, sub), int(parts_made));
      dart_team_t parent = DART_TEAM_NULL;
      EXPECT_EQ(dart_team_get_parent(sub, &parent), DART_OK);
      EXPECT_EQ(parent, team);
      // With a part per domain (or more), a part is one domain: all share its index.
      size_t domains = 0;
      EXPECT_EQ(dart_domain_scope_count(team, scope, &domains), DART_OK);
      if (parts >= domains && scope == DART_LOCALITY_SCOPE_NODE) {
        int node = UnitLoc(sub, 0).node;
        for (int u = 0; u < TeamSize(sub); ++u) EXPECT_EQ(UnitLoc(sub, u).node, node);
        dart_domain_locality_t root;
        EXPECT_EQ(dart_domain_scope_count(sub, DART_LOCALITY_SCOPE_NODE, &domains), DART_OK);
        EXPECT_EQ(domains, 1u);
        EXPECT_EQ(dart_domain_team_locality(sub, ".0", &root), DART_OK);
        EXPECT_EQ(root.index, node);
      }
      EXPECT_EQ(dart_team_destroy(&sub), DART_OK);
    }
  }
}

TEST(Locality, SplitKeepsDomainsTogetherAndBalancesThem) {
  ExpectLocalitySplitWorks(DART_TEAM_ALL);
  // On a sub-team (the last units, in reverse order).
  dart_team_t tail = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_split(DART_TEAM_ALL, Me() >= N() / 3 ? 0 : -1, N() - Me(), &tail), DART_OK);
  if (tail != DART_TEAM_NULL) {
    ExpectLocalitySplitWorks(tail);
    EXPECT_EQ(dart_team_destroy(&tail), DART_OK);
  }
}

TEST(Locality, SplitByNodeMatchesSplitNode) {
  dart_team_t by_locality = DART_TEAM_NULL, by_node = DART_TEAM_NULL;
  ASSERT_EQ(
      dart_team_locality_split(DART_TEAM_ALL, DART_LOCALITY_SCOPE_NODE, size_t(N()), &by_locality),
      DART_OK);
  ASSERT_EQ(dart_team_split_node(DART_TEAM_ALL, &by_node), DART_OK);
  EXPECT_EQ(TeamUnits(by_locality), TeamUnits(by_node));
  EXPECT_EQ(dart_team_destroy(&by_locality), DART_OK);
  EXPECT_EQ(dart_team_destroy(&by_node), DART_OK);
}

}  // namespace
