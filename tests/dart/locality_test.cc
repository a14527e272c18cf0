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

dart_unit_placement_t UnitLoc(dart_team_t team, int unit) {
  dart_unit_placement_t loc;
  std::memset(static_cast<void*>(&loc), 0x55, sizeof loc);  // poison: every field is set
  EXPECT_EQ(dart_unit_placement(team, DART_TEAM_UNIT_ID(unit), &loc), DART_OK);
  return loc;
}

// The fields of a domain this file checks (a copy: DART's records hold pointers), with the
// hardware index of its kind (node, NUMA domain, core; team unit id of a unit; 0 otherwise).
struct DomainInfo {
  char tag[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE];
  dart_locality_scope_t scope;
  int level, relative_index, index;
  char host[DART_LOCALITY_HOST_MAX_SIZE];
  size_t num_units, num_domains;
};

void Describe(dart_team_t team, const dart_domain_locality_t& d, DomainInfo* out) {
  std::memset(out, 0, sizeof *out);
  std::memcpy(out->tag, d.domain_tag, sizeof out->tag);
  std::memcpy(out->host, d.host, sizeof out->host);
  out->scope = d.scope;
  out->level = d.level;
  out->relative_index = d.relative_index;
  out->num_units = size_t(d.num_units);
  out->num_domains = size_t(d.num_domains);
  std::vector<dart_team_unit_t> units(out->num_units);
  EXPECT_EQ(dart_domain_units(team, d.domain_tag, units.size(), units.data()), DART_OK);
  dart_unit_placement_t first;
  if (!units.empty()) {
    EXPECT_EQ(dart_unit_placement(team, units[0], &first), DART_OK);
  }
  switch (d.scope) {
    case DART_LOCALITY_SCOPE_NODE:
      out->index = first.node;
      break;
    case DART_LOCALITY_SCOPE_NUMA:
      out->index = first.numa;
      break;
    case DART_LOCALITY_SCOPE_CORE:
      out->index = first.core;
      break;
    case DART_LOCALITY_SCOPE_UNIT:
      out->index = units[0].id;
      break;
    default:
      out->index = 0;
  }
}

// dart_domain_team_locality, as a DomainInfo.
dart_ret_t TeamDomain(dart_team_t team, const char* tag, DomainInfo* out) {
  dart_domain_locality_t* d = nullptr;
  dart_ret_t ret = dart_domain_team_locality(team, tag, &d);
  if (ret == DART_OK) Describe(team, *d, out);
  return ret;
}

struct Domain {
  DomainInfo info;
  std::vector<int> units;  // team-relative, ascending
};

std::vector<int> DomainUnits(dart_team_t team, const DomainInfo& d) {
  std::vector<dart_team_unit_t> units(d.num_units);
  EXPECT_EQ(dart_domain_units(team, d.tag, units.size(), units.data()), DART_OK);
  std::vector<int> ids;
  for (const auto& u : units) ids.push_back(u.id);
  return ids;
}

std::vector<Domain> DomainsAt(dart_team_t team, dart_locality_scope_t scope) {
  size_t count = 0;
  EXPECT_EQ(dart_domain_scope_count(team, scope, &count), DART_OK);
  dart_domain_locality_t* root = nullptr;
  EXPECT_EQ(dart_domain_team_locality(team, ".", &root), DART_OK);
  int n = 0;
  dart_domain_locality_t** found = nullptr;
  EXPECT_EQ(dart_domain_scope_domains(root, scope, &n, &found), DART_OK);
  EXPECT_EQ(size_t(n), count);
  std::vector<Domain> out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    Describe(team, *found[i], &out[size_t(i)].info);
    out[size_t(i)].units = DomainUnits(team, out[size_t(i)].info);
  }
  std::free(found);
  return out;
}

// The scopes of a team's tree, from the root down (level = position).
const dart_locality_scope_t kScopes[] = {DART_LOCALITY_SCOPE_GLOBAL, DART_LOCALITY_SCOPE_NODE,
                                         DART_LOCALITY_SCOPE_MODULE, DART_LOCALITY_SCOPE_NUMA,
                                         DART_LOCALITY_SCOPE_CORE,   DART_LOCALITY_SCOPE_UNIT};

int LevelOf(dart_locality_scope_t scope) {
  return int(std::find(std::begin(kScopes), std::end(kScopes), scope) - std::begin(kScopes));
}

// Value of a unit's record that a domain at scope is indexed by.
int ScopeIndexOf(const dart_unit_placement_t& loc, dart_locality_scope_t scope) {
  switch (scope) {
    case DART_LOCALITY_SCOPE_GLOBAL:
    case DART_LOCALITY_SCOPE_MODULE:
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
  std::vector<dart_unit_placement_t> locs;
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
      EXPECT_EQ(d.info.level, LevelOf(scope));
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
        // The root's host: the team's one host, or "" if it spans several.
        bool one_host = true;
        for (const auto& u : locs) one_host = one_host && std::strcmp(u.host, locs[0].host) == 0;
        EXPECT_STREQ(d.info.host, one_host ? locs[0].host : "");
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
      DomainInfo again;
      EXPECT_EQ(TeamDomain(team, d.info.tag, &again), DART_OK);
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
    dart_unit_placement_t loc = UnitLoc(DART_TEAM_ALL, u);
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
  dart_unit_placement_t loc = UnitLoc(DART_TEAM_ALL, Me());
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
  dart_unit_placement_t loc = UnitLoc(DART_TEAM_ALL, Me());
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
    DomainInfo d;
    std::string tag = "." + std::to_string(i);
    ASSERT_EQ(TeamDomain(DART_TEAM_ALL, tag.c_str(), &d), DART_OK);
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
      dart_unit_placement_t in_team = UnitLoc(team, u);
      dart_unit_placement_t in_all = UnitLoc(DART_TEAM_ALL, members[u]);
      EXPECT_EQ(in_team.unit.id, members[u]);
      EXPECT_EQ(in_team.team_unit.id, u);
      in_team.team_unit = in_all.team_unit;
      EXPECT_EQ(std::memcmp(&in_team, &in_all, sizeof in_all), 0);
    }
    ExpectTreeMatchesRecords(team);
    ExpectSameOnAllMembers(team, TreeDigest(team));
    DomainInfo root;
    ASSERT_EQ(TeamDomain(team, ".", &root), DART_OK);
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
  DomainInfo root;
  ASSERT_EQ(TeamDomain(a, ".", &root), DART_OK);  // builds A's tree
  EXPECT_EQ(root.num_units, size_t(TeamSize(a)));
  dart_team_t a_id = a;
  EXPECT_EQ(dart_team_destroy(&a), DART_OK);
  dart_team_t b = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_clone(DART_TEAM_ALL, &b), DART_OK);
  EXPECT_EQ(b, a_id) << "DART gives a new team the lowest free id: the test needs the reuse";
  EXPECT_EQ(TeamDomain(b, ".", &root), DART_OK);
  EXPECT_EQ(root.num_units, size_t(N()));
  ExpectTreeMatchesRecords(b);
  size_t units = 0;
  EXPECT_EQ(dart_domain_scope_count(b, DART_LOCALITY_SCOPE_UNIT, &units), DART_OK);
  EXPECT_EQ(units, size_t(N()));
  EXPECT_EQ(dart_team_destroy(&b), DART_OK);
}

TEST(Locality, TagsResolveAndBadTagsAreRejected) {
  dart_domain_locality_t* record = nullptr;
  DomainInfo d;
  for (const char* tag :
       {"", "0", "..", ".0.", ".a", ".-1", ".01", " .0", ".0 ", ".0..0", ".+1", "./", ".0x1"}) {
    EXPECT_EQ(dart_domain_team_locality(DART_TEAM_ALL, tag, &record), DART_ERR_INVAL)
        << "tag '" << tag << "'";
    dart_team_unit_t u[4];
    EXPECT_EQ(dart_domain_units(DART_TEAM_ALL, tag, 4, u), DART_ERR_INVAL) << tag;
  }
  EXPECT_EQ(dart_domain_team_locality(DART_TEAM_ALL, nullptr, &record), DART_ERR_INVAL);
  size_t nodes = 0;
  ASSERT_EQ(dart_domain_scope_count(DART_TEAM_ALL, DART_LOCALITY_SCOPE_NODE, &nodes), DART_OK);
  std::string past_last = "." + std::to_string(nodes);
  for (const std::string& tag :
       {past_last, std::string(".99999999999999999999"), std::string(".0.0.0.0.0.0"),
        std::string(".0.0.0.1000"), std::string(".0.1"), std::string(".0.0.7")}) {
    EXPECT_EQ(dart_domain_team_locality(DART_TEAM_ALL, tag.c_str(), &record), DART_ERR_NOTFOUND)
        << tag;
  }
  // Every unit leaf is five levels down and named by its path.
  for (int u = 0; u < N(); ++u) {
    dart_unit_placement_t loc = UnitLoc(DART_TEAM_ALL, u);
    bool found = false;
    for (const auto& leaf : DomainsAt(DART_TEAM_ALL, DART_LOCALITY_SCOPE_UNIT)) {
      if (leaf.info.index != u) continue;
      found = true;
      EXPECT_EQ(leaf.units, std::vector<int>{u});
      EXPECT_EQ(std::count(leaf.info.tag, leaf.info.tag + std::strlen(leaf.info.tag), '.'), 5);
      // Walk up: the core, NUMA domain, module (0) and node holding the leaf have the unit's
      // indices.
      std::string tag = ParentTag(leaf.info.tag);
      for (int want : {loc.core, loc.numa, 0, loc.node}) {
        ASSERT_EQ(TeamDomain(DART_TEAM_ALL, tag.c_str(), &d), DART_OK);
        EXPECT_EQ(d.index, want) << tag;
        tag = ParentTag(tag);
      }
    }
    EXPECT_TRUE(found) << "unit " << u;
  }
}

TEST(Locality, BadInputIsAnErrorNotACrash) {
  dart_unit_placement_t loc;
  dart_unit_locality_t* uloc = nullptr;
  dart_domain_locality_t* d = nullptr;
  size_t count = 0;
  dart_team_unit_t units[8];
  dart_team_t out = DART_TEAM_NULL;
  const dart_team_t bad_teams[] = {DART_TEAM_NULL, dart_team_t(1234), dart_team_t(-7)};
  for (dart_team_t team : bad_teams) {
    EXPECT_EQ(dart_unit_placement(team, DART_TEAM_UNIT_ID(0), &loc), DART_ERR_INVAL);
    EXPECT_EQ(dart_domain_team_locality(team, ".", &d), DART_ERR_INVAL);
    EXPECT_EQ(dart_domain_scope_count(team, DART_LOCALITY_SCOPE_NODE, &count), DART_ERR_INVAL);
    EXPECT_EQ(dart_unit_locality(team, DART_TEAM_UNIT_ID(0), &uloc), DART_ERR_INVAL);
    EXPECT_EQ(dart_team_locality_init(team), DART_ERR_INVAL);
    EXPECT_EQ(dart_domain_units(team, ".", 8, units), DART_ERR_INVAL);
    EXPECT_EQ(dart_team_locality_split(team, DART_LOCALITY_SCOPE_NODE, 1, &out), DART_ERR_INVAL);
  }
  for (int unit : {-1, N(), N() + 5, INT_MIN}) {
    EXPECT_EQ(dart_unit_placement(DART_TEAM_ALL, DART_TEAM_UNIT_ID(unit), &loc), DART_ERR_INVAL)
        << unit;
  }
  EXPECT_EQ(dart_unit_placement(DART_TEAM_ALL, DART_TEAM_UNIT_ID(0), nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_unit_locality(DART_TEAM_ALL, DART_TEAM_UNIT_ID(N()), &uloc), DART_ERR_INVAL);
  EXPECT_EQ(dart_unit_locality(DART_TEAM_ALL, DART_TEAM_UNIT_ID(0), nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_team_locality(DART_TEAM_ALL, ".", nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_scope_count(DART_TEAM_ALL, DART_LOCALITY_SCOPE_NODE, nullptr),
            DART_ERR_INVAL);
  // Scopes the trees do not use: no domains, and no split.
  for (int scope : {-1, 1, 5, 500, 600}) {
    auto s = static_cast<dart_locality_scope_t>(scope);
    count = 7;
    EXPECT_EQ(dart_domain_scope_count(DART_TEAM_ALL, s, &count), DART_OK);
    EXPECT_EQ(count, 0u);
    EXPECT_EQ(dart_team_locality_split(DART_TEAM_ALL, s, 1, &out), DART_ERR_INVAL);
  }
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
        DomainInfo root;
        EXPECT_EQ(dart_domain_scope_count(sub, DART_LOCALITY_SCOPE_NODE, &domains), DART_OK);
        EXPECT_EQ(domains, 1u);
        EXPECT_EQ(TeamDomain(sub, ".0", &root), DART_OK);
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

// ---- DASH's shapes: records, links, copies and their operations ----------------------------

dart_domain_locality_t* Root(dart_team_t team) {
  dart_domain_locality_t* root = nullptr;
  EXPECT_EQ(dart_domain_team_locality(team, ".", &root), DART_OK);
  return root;
}

std::vector<int> Ids(const dart_domain_locality_t& d) {
  std::vector<int> ids;
  for (int i = 0; i < d.num_units; ++i) ids.push_back(d.unit_ids[i].id);
  return ids;
}

// Checks the links of a hierarchy below d: parents, levels, relative indices, children's units
// partitioning their parent's (ascending global ids), tags below the parent's.
void ExpectLinksConsistent(const dart_domain_locality_t& d) {
  SCOPED_TRACE(std::string("domain ") + d.domain_tag);
  std::vector<int> ids = Ids(d), from_children;
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  for (int i = 0; i < d.num_domains; ++i) {
    const dart_domain_locality_t& c = *d.children[i];
    EXPECT_EQ(c.parent, &d);
    EXPECT_EQ(c.level, d.level + 1);
    EXPECT_EQ(c.relative_index, i);
    const std::string prefix = std::strcmp(d.domain_tag, ".") == 0 ? "" : d.domain_tag;
    EXPECT_EQ(std::string(c.domain_tag).rfind(prefix + ".", 0), 0u) << c.domain_tag;
    for (int u : Ids(c)) from_children.push_back(u);
    ExpectLinksConsistent(c);
  }
  if (d.num_domains > 0) {
    std::sort(from_children.begin(), from_children.end());
    EXPECT_EQ(from_children, ids);
  }
}

// Structure of a hierarchy as text (tags, scopes, units), for comparing copies.
std::string Shape(const dart_domain_locality_t& d) {
  std::string out = std::string(d.domain_tag) + ":" + std::to_string(int(d.scope)) + "[";
  for (int u : Ids(d)) out += std::to_string(u) + ",";
  out += "](";
  for (int i = 0; i < d.num_domains; ++i) out += Shape(*d.children[i]);
  return out + ")";
}

TEST(Locality, DashRecordsMatchPlacements) {
  const dart_domain_locality_t* root = Root(DART_TEAM_ALL);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->parent, nullptr);
  EXPECT_EQ(root->scope, DART_LOCALITY_SCOPE_GLOBAL);
  EXPECT_EQ(root->team, DART_TEAM_ALL);
  EXPECT_EQ(root->num_units, N());
  std::set<int> nodes;
  for (int u = 0; u < N(); ++u) nodes.insert(ExpectedNode(u));
  EXPECT_EQ(root->num_nodes, int(nodes.size()));
  EXPECT_EQ(root->node_id, nodes.size() == 1 ? *nodes.begin() : -1);
  ExpectLinksConsistent(*root);
  // Global indices count the domains of each scope in tag order.
  for (dart_locality_scope_t scope : kScopes) {
    int n = 0;
    dart_domain_locality_t** found = nullptr;
    ASSERT_EQ(dart_domain_scope_domains(root, scope, &n, &found), DART_OK);
    for (int i = 0; i < n; ++i) EXPECT_EQ(found[i]->global_index, i);
    char** tags = nullptr;
    int m = 0;
    ASSERT_EQ(dart_domain_scope_tags(root, scope, &m, &tags), DART_OK);
    ASSERT_EQ(m, n);
    for (int i = 0; i < m; ++i) {
      EXPECT_STREQ(tags[i], found[i]->domain_tag);
      std::free(tags[i]);
    }
    std::free(tags);
    std::free(found);
  }
  for (int u = 0; u < N(); ++u) {
    SCOPED_TRACE("unit " + std::to_string(u));
    dart_unit_locality_t* loc = nullptr;
    ASSERT_EQ(dart_unit_locality(DART_TEAM_ALL, DART_TEAM_UNIT_ID(u), &loc), DART_OK);
    dart_unit_placement_t place = UnitLoc(DART_TEAM_ALL, u);
    EXPECT_EQ(loc->unit.id, u);
    EXPECT_EQ(loc->team, DART_TEAM_ALL);
    EXPECT_STREQ(loc->hwinfo.host, place.host);
    EXPECT_EQ(loc->hwinfo.numa_id, place.numa);
    EXPECT_EQ(loc->hwinfo.core_id, place.core);
    EXPECT_EQ(loc->hwinfo.cpu_id, place.cpu);
    EXPECT_EQ(loc->hwinfo.num_cores, place.num_cores);
    EXPECT_EQ(loc->hwinfo.num_numa, place.num_numa);
    if (HwlocForcedOff()) {
      EXPECT_EQ(loc->hwinfo.min_threads, -1);
      EXPECT_EQ(loc->hwinfo.cache_sizes[0], -1);
      EXPECT_EQ(loc->hwinfo.num_scopes, 1);  // the node only
    } else {
      EXPECT_GE(loc->hwinfo.min_threads, 1);
      EXPECT_LE(loc->hwinfo.min_threads, loc->hwinfo.max_threads);
      EXPECT_GE(loc->hwinfo.num_sockets, 1);
      EXPECT_EQ(loc->hwinfo.num_scopes, 4);
      EXPECT_EQ(loc->hwinfo.scopes[0].scope, DART_LOCALITY_SCOPE_CORE);
      EXPECT_EQ(loc->hwinfo.scopes[0].index, place.core);
    }
    EXPECT_EQ(loc->hwinfo.scopes[loc->hwinfo.num_scopes - 1].scope, DART_LOCALITY_SCOPE_NODE);
    EXPECT_EQ(loc->hwinfo.scopes[loc->hwinfo.num_scopes - 1].index, place.node);
    // Its tag names its CORE domain (DASH's unit domain), whose parents are its NUMA domain,
    // module, node; the UNIT domain of u alone is one of the core's children.
    dart_domain_locality_t* core = nullptr;
    ASSERT_EQ(dart_domain_team_locality(DART_TEAM_ALL, loc->domain_tag, &core), DART_OK);
    EXPECT_EQ(core->scope, DART_LOCALITY_SCOPE_CORE);
    EXPECT_GT(core->level, 2);
    const dart_domain_locality_t* leaf = nullptr;
    for (int c = 0; c < core->num_domains; ++c)
      if (Ids(*core->children[c]) == std::vector<int>{u}) leaf = core->children[c];
    ASSERT_NE(leaf, nullptr) << "no UNIT domain of unit " << u << " below " << loc->domain_tag;
    EXPECT_EQ(leaf->scope, DART_LOCALITY_SCOPE_UNIT);
    EXPECT_EQ(leaf->num_cores, place.num_cores);
    EXPECT_EQ(core->parent->parent->scope, DART_LOCALITY_SCOPE_MODULE);
    EXPECT_EQ(core->parent->parent->parent->node_id, place.node);
    EXPECT_STREQ(leaf->host, place.host);
  }
}

TEST(Locality, CloneFindDestroyLeaveTheTeamTreeIntact) {
  dart_domain_locality_t* root = Root(DART_TEAM_ALL);
  const std::string before = Shape(*root);
  dart_domain_locality_t* copy = nullptr;
  ASSERT_EQ(dart_domain_clone(root, &copy), DART_OK);
  EXPECT_NE(copy, root);
  EXPECT_EQ(Shape(*copy), before);
  ExpectLinksConsistent(*copy);
  dart_unit_locality_t* loc = nullptr;
  ASSERT_EQ(dart_unit_locality(DART_TEAM_ALL, DART_TEAM_UNIT_ID(Me()), &loc), DART_OK);
  dart_domain_locality_t* mine = nullptr;
  ASSERT_EQ(dart_domain_find(copy, loc->domain_tag, &mine), DART_OK);
  const std::vector<int> core_units = Ids(*mine);
  EXPECT_NE(std::find(core_units.begin(), core_units.end(), Me()), core_units.end());
  const dart_domain_locality_t* top = mine;
  while (top->parent != nullptr) top = top->parent;
  EXPECT_EQ(top, copy);
  // A clone of a subdomain is a root of its own, tags kept.
  dart_domain_locality_t* node_copy = nullptr;
  ASSERT_EQ(dart_domain_clone(root->children[0], &node_copy), DART_OK);
  EXPECT_EQ(node_copy->parent, nullptr);
  EXPECT_STREQ(node_copy->domain_tag, ".0");
  EXPECT_EQ(Shape(*node_copy), Shape(*root->children[0]));
  // assign overwrites a copy.
  ASSERT_EQ(dart_domain_assign(node_copy, copy), DART_OK);
  EXPECT_EQ(Shape(*node_copy), before);
  // DART's own records cannot be destroyed or changed; an inner domain of a copy cannot be
  // destroyed alone.
  const char* tags[] = {"."};
  EXPECT_EQ(dart_domain_destroy(root), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_destroy(root->children[0]), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_select(root, 1, tags), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_assign(root, copy), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_destroy(mine), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_destroy(copy), DART_OK);
  EXPECT_EQ(dart_domain_destroy(node_copy), DART_OK);
  EXPECT_EQ(Shape(*Root(DART_TEAM_ALL)), before);
  ExpectSameOnAllMembers(DART_TEAM_ALL, TreeDigest(DART_TEAM_ALL));
  // create: an empty domain.
  dart_domain_locality_t* empty = nullptr;
  ASSERT_EQ(dart_domain_create(&empty), DART_OK);
  EXPECT_STREQ(empty->domain_tag, ".");
  EXPECT_EQ(empty->num_units, 0);
  EXPECT_EQ(empty->num_domains, 0);
  EXPECT_EQ(dart_domain_destroy(empty), DART_OK);
}

// The UNIT domain tag of team unit u of Team::All(): the child of u's domain (its core) that
// holds u alone.
std::string LeafTag(int u) {
  dart_unit_locality_t* loc = nullptr;
  EXPECT_EQ(dart_unit_locality(DART_TEAM_ALL, DART_TEAM_UNIT_ID(u), &loc), DART_OK);
  dart_domain_locality_t* core = nullptr;
  EXPECT_EQ(dart_domain_team_locality(DART_TEAM_ALL, loc->domain_tag, &core), DART_OK);
  for (int c = 0; c < core->num_domains; ++c)
    if (Ids(*core->children[c]) == std::vector<int>{u}) return core->children[c]->domain_tag;
  ADD_FAILURE() << "no UNIT domain of unit " << u << " below " << loc->domain_tag;
  return loc->domain_tag;
}

// The tag both a and b lie strictly below, deepest: their common leading components, cut
// short of either.
std::string CommonStrictAncestor(const std::string& a, const std::string& b) {
  std::string pa = ParentTag(a), pb = ParentTag(b);
  while (!(pa == pb || (pb.rfind(pa + ".", 0) == 0) || pa == ".")) pa = ParentTag(pa);
  while (!(pa == pb || (pa.rfind(pb + ".", 0) == 0) || pb == ".")) pb = ParentTag(pb);
  return pa.size() < pb.size() ? pa : pb;
}

TEST(Locality, SelectExcludeGroupOnTheRealTree) {
  dart_domain_locality_t* copy = nullptr;
  const std::string first = LeafTag(0), last = LeafTag(N() - 1);
  // select one leaf: only it and its ancestors stay.
  ASSERT_EQ(dart_domain_clone(Root(DART_TEAM_ALL), &copy), DART_OK);
  const char* one[] = {first.c_str()};
  ASSERT_EQ(dart_domain_select(copy, 1, one), DART_OK);
  EXPECT_EQ(Ids(*copy), std::vector<int>{0});
  EXPECT_EQ(copy->num_domains, 1);
  dart_domain_locality_t* found = nullptr;
  EXPECT_EQ(dart_domain_find(copy, first.c_str(), &found), DART_OK);
  EXPECT_EQ(found->level, 5);
  if (N() > 1) {
    EXPECT_EQ(dart_domain_find(copy, last.c_str(), &found), DART_ERR_NOTFOUND);
  }
  ExpectLinksConsistent(*copy);
  EXPECT_EQ(dart_domain_destroy(copy), DART_OK);
  // exclude one leaf: every other unit stays.
  ASSERT_EQ(dart_domain_clone(Root(DART_TEAM_ALL), &copy), DART_OK);
  ASSERT_EQ(dart_domain_exclude(copy, 1, one), DART_OK);
  std::vector<int> rest;
  for (int u = 1; u < N(); ++u) rest.push_back(u);
  EXPECT_EQ(Ids(*copy), rest);
  EXPECT_EQ(dart_domain_find(copy, first.c_str(), &found), DART_ERR_NOTFOUND);
  if (N() > 1) {
    EXPECT_EQ(dart_domain_find(copy, last.c_str(), &found), DART_OK);
    EXPECT_EQ(Ids(*found), std::vector<int>{N() - 1});
  }
  ExpectLinksConsistent(*copy);
  EXPECT_EQ(dart_domain_destroy(copy), DART_OK);
  // group the first and last leaves: a GROUP domain below their deepest common ancestor.
  if (N() > 1) {
    ASSERT_EQ(dart_domain_clone(Root(DART_TEAM_ALL), &copy), DART_OK);
    const char* two[] = {first.c_str(), last.c_str()};
    char tag[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE] = "";
    ASSERT_EQ(dart_domain_group(copy, 2, two, tag), DART_OK);
    const std::string lca = CommonStrictAncestor(first, last);
    EXPECT_EQ(ParentTag(tag), lca);
    dart_domain_locality_t* group = nullptr;
    ASSERT_EQ(dart_domain_find(copy, tag, &group), DART_OK);
    EXPECT_EQ(group->scope, DART_LOCALITY_SCOPE_GROUP);
    EXPECT_EQ(Ids(*group), (std::vector<int>{0, N() - 1}));
    EXPECT_EQ(group->relative_index, group->parent->num_domains - 1);  // appended last
    EXPECT_STREQ(group->parent->domain_tag, lca.c_str());
    EXPECT_EQ(copy->num_units, N());  // nothing lost
    ExpectLinksConsistent(*copy);
    // The grouped leaves are found below the group only.
    int n = 0;
    dart_domain_locality_t** leaves = nullptr;
    ASSERT_EQ(dart_domain_scope_domains(copy, DART_LOCALITY_SCOPE_UNIT, &n, &leaves), DART_OK);
    EXPECT_EQ(n, N());
    for (int i = 0; i < n; ++i) {
      const bool grouped =
          Ids(*leaves[i]) == std::vector<int>{0} || Ids(*leaves[i]) == std::vector<int>{N() - 1};
      EXPECT_EQ(std::string(leaves[i]->domain_tag).rfind(std::string(tag) + ".", 0) == 0, grouped)
          << leaves[i]->domain_tag;
    }
    std::free(leaves);
    EXPECT_EQ(dart_domain_destroy(copy), DART_OK);
  }
}

// With one unit per node (DART_VIRTUAL_NODE_SIZE=1), worked out by hand: nodes ".0" .. ".N-1",
// unit u alone on node ".u".
TEST(Locality, SelectExcludeGroupSplitOnEmulatedNodes) {
  for (int u = 0; u < N(); ++u) {
    if (ExpectedNode(u) != u) GTEST_SKIP() << "not one unit per node";
  }
  if (N() < 3) GTEST_SKIP() << "needs 3 units";
  dart_domain_locality_t* copy = nullptr;
  dart_domain_locality_t* found = nullptr;
  // select {.1}: one child ".1", relative index 0, units {1}.
  ASSERT_EQ(dart_domain_clone(Root(DART_TEAM_ALL), &copy), DART_OK);
  const char* node1[] = {".1"};
  ASSERT_EQ(dart_domain_select(copy, 1, node1), DART_OK);
  ASSERT_EQ(copy->num_domains, 1);
  EXPECT_STREQ(copy->children[0]->domain_tag, ".1");
  EXPECT_EQ(copy->children[0]->relative_index, 0);
  EXPECT_EQ(Ids(*copy), std::vector<int>{1});
  EXPECT_EQ(copy->num_nodes, 1);
  EXPECT_EQ(copy->node_id, 1);
  EXPECT_EQ(dart_domain_find(copy, ".0", &found), DART_ERR_NOTFOUND);
  EXPECT_EQ(dart_domain_destroy(copy), DART_OK);
  // exclude {.0}: children ".1" .. ".N-1", units 1..N-1.
  ASSERT_EQ(dart_domain_clone(Root(DART_TEAM_ALL), &copy), DART_OK);
  const char* node0[] = {".0"};
  ASSERT_EQ(dart_domain_exclude(copy, 1, node0), DART_OK);
  ASSERT_EQ(copy->num_domains, N() - 1);
  EXPECT_STREQ(copy->children[0]->domain_tag, ".1");
  EXPECT_EQ(copy->num_units, N() - 1);
  EXPECT_EQ(copy->num_nodes, N() - 1);
  EXPECT_EQ(dart_domain_destroy(copy), DART_OK);
  // group {.0, .1}: ".2" .. ".N-1" stay, then group ".N" holding ".N.0" (unit 0) and ".N.1"
  // (unit 1); unit 0's leaf becomes ".N.0.0.0.0.0".
  ASSERT_EQ(dart_domain_clone(Root(DART_TEAM_ALL), &copy), DART_OK);
  const char* nodes01[] = {".1", ".0", ".1"};  // out of order, repeated: the same group
  char tag[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE] = "";
  ASSERT_EQ(dart_domain_group(copy, 3, nodes01, tag), DART_OK);
  const std::string g = "." + std::to_string(N());
  EXPECT_EQ(std::string(tag), g);
  ASSERT_EQ(copy->num_domains, N() - 1);
  EXPECT_STREQ(copy->children[0]->domain_tag, ".2");
  const dart_domain_locality_t* group = copy->children[N() - 2];
  EXPECT_EQ(std::string(group->domain_tag), g);
  EXPECT_EQ(group->scope, DART_LOCALITY_SCOPE_GROUP);
  EXPECT_EQ(group->level, 1);
  EXPECT_EQ(group->num_nodes, 2);
  ASSERT_EQ(group->num_domains, 2);
  EXPECT_EQ(std::string(group->children[0]->domain_tag), g + ".0");
  EXPECT_EQ(Ids(*group->children[0]), std::vector<int>{0});
  EXPECT_EQ(Ids(*group->children[1]), std::vector<int>{1});
  ASSERT_EQ(dart_domain_find(copy, (g + ".0.0.0.0.0").c_str(), &found), DART_OK);
  EXPECT_EQ(found->scope, DART_LOCALITY_SCOPE_UNIT);
  EXPECT_EQ(found->level, 6);
  EXPECT_EQ(Ids(*found), std::vector<int>{0});
  EXPECT_EQ(copy->num_units, N());
  ExpectLinksConsistent(*copy);
  EXPECT_EQ(dart_domain_destroy(copy), DART_OK);
  // group the modules {.0.0, .1.0}: copies of nodes .0 and .1 cut down to them go into the
  // group; the emptied originals go.
  ASSERT_EQ(dart_domain_clone(Root(DART_TEAM_ALL), &copy), DART_OK);
  const char* modules[] = {".0.0", ".1.0"};
  ASSERT_EQ(dart_domain_group(copy, 2, modules, tag), DART_OK);
  EXPECT_EQ(std::string(tag), g);
  ASSERT_EQ(dart_domain_find(copy, (g + ".1.0").c_str(), &found), DART_OK);
  EXPECT_EQ(found->scope, DART_LOCALITY_SCOPE_MODULE);
  EXPECT_EQ(found->parent->scope, DART_LOCALITY_SCOPE_NODE);
  EXPECT_EQ(Ids(*found), std::vector<int>{1});
  EXPECT_EQ(dart_domain_find(copy, ".0", &found), DART_ERR_NOTFOUND);
  EXPECT_EQ(copy->num_domains, N() - 1);
  ExpectLinksConsistent(*copy);
  EXPECT_EQ(dart_domain_destroy(copy), DART_OK);
  // split by node into 2: groups of nodes {0 .. N/2-1} and {N/2 .. N-1}.
  dart_domain_locality_t split;
  std::memset(&split, 0, sizeof split);
  ASSERT_EQ(dart_domain_split_scope(Root(DART_TEAM_ALL), DART_LOCALITY_SCOPE_NODE, 2, &split),
            DART_OK);
  ASSERT_EQ(split.num_domains, 2);
  std::vector<int> low, high;
  for (int u = 0; u < N(); ++u) (u < N() / 2 ? low : high).push_back(u);
  EXPECT_EQ(split.children[0]->scope, DART_LOCALITY_SCOPE_GROUP);
  EXPECT_EQ(Ids(*split.children[0]), low);
  EXPECT_EQ(Ids(*split.children[1]), high);
  EXPECT_EQ(split.children[0]->num_domains, N() / 2);
  EXPECT_EQ(split.num_units, N());
  for (int i = 0; i < split.num_domains; ++i) {
    EXPECT_EQ(split.children[i]->parent, &split);
    ExpectLinksConsistent(*split.children[i]);
  }
  dart_domain_locality_t* heap = nullptr;  // free what split made through a heap copy
  ASSERT_EQ(dart_domain_clone(&split, &heap), DART_OK);
  EXPECT_EQ(Shape(*heap), Shape(split));
  for (int i = 0; i < split.num_domains; ++i) {
    split.children[i]->parent = nullptr;
    EXPECT_EQ(dart_domain_destroy(split.children[i]), DART_OK);
  }
  std::free(split.children);
  std::free(split.unit_ids);
  EXPECT_EQ(dart_domain_destroy(heap), DART_OK);
}

TEST(Locality, DashCallsRejectBadInput) {
  dart_domain_locality_t* copy = nullptr;
  ASSERT_EQ(dart_domain_clone(Root(DART_TEAM_ALL), &copy), DART_OK);
  dart_domain_locality_t* found = nullptr;
  char tag[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE];
  const char* bad[] = {".x"};
  const char* missing[] = {".77"};
  const char* root_tag[] = {"."};
  const char* nested[] = {".0", ".0.0"};
  EXPECT_EQ(dart_domain_clone(nullptr, &found), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_clone(copy, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_create(nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_destroy(nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_find(copy, ".x", &found), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_find(copy, nullptr, &found), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_find(nullptr, ".", &found), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_find(copy, ".77", &found), DART_ERR_NOTFOUND);
  EXPECT_EQ(dart_domain_select(copy, 1, bad), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_select(copy, 1, missing), DART_ERR_NOTFOUND);
  EXPECT_EQ(dart_domain_select(copy, 0, missing), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_select(copy, 1, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_exclude(copy, 1, root_tag), DART_ERR_NOTFOUND);
  EXPECT_EQ(dart_domain_exclude(copy, 1, missing), DART_ERR_NOTFOUND);
  EXPECT_EQ(dart_domain_group(copy, 1, root_tag, tag), DART_ERR_NOTFOUND);
  EXPECT_EQ(dart_domain_group(copy, 2, nested, tag), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_group(copy, 1, missing, nullptr), DART_ERR_NOTFOUND);
  EXPECT_EQ(dart_domain_split_scope(copy, DART_LOCALITY_SCOPE_NODE, 0, copy), DART_ERR_INVAL);
  EXPECT_EQ(dart_domain_split_scope(nullptr, DART_LOCALITY_SCOPE_NODE, 1, copy), DART_ERR_INVAL);
  int n = 5;
  dart_domain_locality_t** domains = nullptr;
  EXPECT_EQ(dart_domain_scope_domains(copy, DART_LOCALITY_SCOPE_GROUP, &n, &domains),
            DART_ERR_NOTFOUND);
  EXPECT_EQ(n, 0);
  EXPECT_EQ(domains, nullptr);
  char** tags = nullptr;
  EXPECT_EQ(dart_domain_scope_tags(copy, DART_LOCALITY_SCOPE_CPU, &n, &tags), DART_ERR_NOTFOUND);
  EXPECT_EQ(dart_domain_scope_tags(copy, DART_LOCALITY_SCOPE_NODE, &n, nullptr), DART_ERR_INVAL);
  // Nothing above changed the copy.
  EXPECT_EQ(Shape(*copy), Shape(*Root(DART_TEAM_ALL)));
  // A moved subdomain: the last node moves below the first (its units follow).
  if (copy->num_domains > 1) {
    dart_domain_locality_t* last = copy->children[copy->num_domains - 1];
    std::vector<int> last_units = Ids(*last);
    EXPECT_EQ(dart_domain_move_subdomain(copy->children[0], last, -1), DART_OK);
    EXPECT_EQ(copy->num_units, N());
    ExpectLinksConsistent(*copy);
  }
  EXPECT_EQ(dart_domain_move_subdomain(copy, copy, 0), DART_ERR_INVAL);  // a root
  EXPECT_EQ(dart_domain_destroy(copy), DART_OK);
  // Team finalize drops the tree; the next query builds it again, the same.
  const std::string before = Shape(*Root(DART_TEAM_ALL));
  EXPECT_EQ(dart_team_locality_finalize(DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(dart_team_locality_init(DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(Shape(*Root(DART_TEAM_ALL)), before);
}

}  // namespace
