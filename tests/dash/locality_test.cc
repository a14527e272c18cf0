// dash::util::Locality (unit records, domain counts, iteration over domains, children) and
// dash::Team::locality_split(scope, parts) by node and NUMA domain, on Team::All() and on
// sub-teams. Run plain, under virtual nodes (vnode1, vnode2) and with hwloc forced off
// (hwloc_fail). DASH's TeamLocality, LocalityDomain and UnitLocality over the same hierarchy
// (and UnitLocality's default, threads, cache lines; a domain's cores).
#include <dart/dart.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/util/Config.h>
#include <dash/util/Locality.h>
#include <dash/util/LocalityJSONPrinter.h>
#include <dash/util/TeamLocality.h>
#include <dash/util/UnitLocality.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dart_test_util.h"
#include "mpi_test.h"

namespace {

using dash::util::Locality;
using dash_test::ExpectedNode;
using dash_test::myid;
using dash_test::nunits;

bool HwlocForcedOff() {
  const char* v = std::getenv("DART_TEST_HWLOC_FAIL");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

std::vector<int> Globals(const dash::Team& team) {
  std::vector<int> ids;
  for (std::size_t i = 0; i < team.size(); ++i)
    ids.push_back(int(team.global_id(dash::team_unit_t(int(i)))));
  return ids;
}

// Sum of value over the team's units.
int SumOver(const dash::Team& team, int value) {
  int sum = 0;
  EXPECT_EQ(dart_allreduce(&value, &sum, 1, DART_TYPE_INT, DART_OP_SUM, team.dart_id()), DART_OK);
  return sum;
}

TEST(Locality, UnitRecordsOfTeamAll) {
  Locality loc;
  char host[256] = {0};
  ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
  for (int u = 0; u < nunits(); ++u) {
    Locality::UnitLocality r = loc.unit(dash::team_unit_t(u));
    EXPECT_EQ(int(r.unit), u);
    EXPECT_EQ(int(r.global_unit), u);
    EXPECT_EQ(r.host == host, dash_test::ExpectedRealNode(u) == dash_test::ExpectedRealNode(myid()))
        << r.host << " vs my " << host;
    EXPECT_EQ(r.node, ExpectedNode(u));
    EXPECT_EQ(r.real_node, dash_test::ExpectedRealNode(u));
    if (HwlocForcedOff()) {
      EXPECT_EQ(r.numa, -1);
      EXPECT_EQ(r.socket, -1);
      EXPECT_EQ(r.core, -1);
      EXPECT_EQ(r.num_cores, -1);
    } else {
      EXPECT_GE(r.numa, 0);
      EXPECT_GE(r.socket, 0);
      EXPECT_GE(r.core, 0);
      EXPECT_LT(r.core, r.node_cores);
      EXPECT_GE(r.num_cores, 1);
    }
  }
  std::set<int> nodes;
  for (int u = 0; u < nunits(); ++u) nodes.insert(ExpectedNode(u));
  EXPECT_EQ(loc.num_nodes(), nodes.size());
  EXPECT_GE(loc.num_numa(), loc.num_nodes());
  EXPECT_EQ(loc.num_domains(Locality::Scope::Global), 1u);
  EXPECT_EQ(loc.num_domains(Locality::Scope::Unit), std::size_t(nunits()));
}

// Walks the tree from the root by children() and compares with domains(scope) level by level.
void ExpectIterationCoversTeam(const dash::Team& team) {
  Locality loc(team);
  std::vector<Locality::Domain> level{loc.domain(".")};
  EXPECT_EQ(level[0].units.size(), team.size());
  for (auto scope : {Locality::Scope::Global, Locality::Scope::Node, Locality::Scope::Module,
                     Locality::Scope::NUMA, Locality::Scope::Core, Locality::Scope::Unit}) {
    std::vector<Locality::Domain> listed = loc.domains(scope);
    ASSERT_EQ(listed.size(), level.size());
    std::vector<int> seen(team.size(), 0);
    for (std::size_t i = 0; i < listed.size(); ++i) {
      EXPECT_EQ(listed[i].tag, level[i].tag);
      EXPECT_EQ(listed[i].units, level[i].units);
      EXPECT_EQ(listed[i].scope, scope);
      for (auto u : listed[i].units) {
        ++seen[u.id];
        auto r = loc.unit(u);
        switch (scope) {
          case Locality::Scope::Node:
            EXPECT_EQ(r.node, listed[i].index);
            break;
          case Locality::Scope::NUMA:
            EXPECT_EQ(r.numa, listed[i].index);
            break;
          case Locality::Scope::Core:
            EXPECT_EQ(r.core, listed[i].index);
            break;
          case Locality::Scope::Unit:
            EXPECT_EQ(int(u), listed[i].index);
            break;
          default:
            break;
        }
      }
    }
    for (int s : seen) EXPECT_EQ(s, 1);
    std::vector<Locality::Domain> next;
    for (const auto& d : level) {
      for (auto& c : loc.children(d)) next.push_back(c);
    }
    level = next;
  }
  EXPECT_TRUE(level.empty());  // units have no children
}

TEST(Locality, DomainsAndChildrenPartitionTheTeam) {
  ExpectIterationCoversTeam(dash::Team::All());
  dash::Team& half = dash::Team::All().split(2);
  ExpectIterationCoversTeam(half);
  Locality sub(half);
  for (std::size_t i = 0; i < half.size(); ++i) {
    auto in_sub = sub.unit(dash::team_unit_t(int(i)));
    auto in_all =
        Locality().unit(dash::team_unit_t(int(half.global_id(dash::team_unit_t(int(i))))));
    EXPECT_EQ(int(in_sub.unit), int(i));
    EXPECT_EQ(int(in_sub.global_unit), int(in_all.global_unit));
    EXPECT_EQ(in_sub.node, in_all.node);
    EXPECT_EQ(in_sub.core, in_all.core);
  }
  dash::Team::All().free_subteams();
}

TEST(Locality, BadInputThrows) {
  Locality loc;
  EXPECT_THROW(loc.domain(".x"), dash::exception::InvalidArgument);
  EXPECT_THROW(loc.domain(""), dash::exception::InvalidArgument);
  EXPECT_THROW(loc.domain("." + std::to_string(loc.num_nodes())), dash::exception::InvalidArgument);
  EXPECT_THROW(loc.unit(dash::team_unit_t(nunits())), dash::exception::InvalidArgument);
  EXPECT_THROW(loc.unit(dash::team_unit_t(-1)), dash::exception::InvalidArgument);
  EXPECT_THROW(Locality(dash::Team::Null()), dash::exception::InvalidArgument);
  try {
    loc.domain(".7.7");
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("dash::util::Locality::domain(\".7.7\")"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(dash::Team::Null().locality_split(Locality::Scope::Node, 2),
               dash::exception::InvalidArgument);
}

// locality_split(scope, k): every part holds whole domains; min(k, domains) parts; with k at
// least the number of domains every part is one domain.
void ExpectSplitWorks(dash::Team& team, Locality::Scope scope) {
  const std::size_t domains = Locality(team).num_domains(scope);
  for (unsigned k : {0u, 1u, 2u, 3u, 4u, 7u}) {
    SCOPED_TRACE("scope " + std::to_string(int(scope)) + ", num_split " + std::to_string(k));
    dash::Team& part = team.locality_split(scope, k);
    EXPECT_EQ(&part.parent(), &team);
    EXPECT_EQ(part.position(), team.position() + 1);
    const std::size_t want_parts = std::min<std::size_t>(std::max(k, 1u), domains);
    EXPECT_EQ(SumOver(team, part.myid().id == 0 ? 1 : 0), int(want_parts));
    // Whole domains: a unit's part-mates include every unit of its domain.
    Locality in_team(team);
    std::vector<int> members = Globals(part);
    for (const auto& d : in_team.domains(scope)) {
      std::size_t inside = 0;
      for (auto u : d.units) {
        int g = int(team.global_id(u));
        inside += std::count(members.begin(), members.end(), g);
      }
      EXPECT_TRUE(inside == 0 || inside == d.units.size()) << "domain " << d.tag << " cut";
    }
    // Parts hold floor or ceil of domains / parts domains.
    std::size_t my_domains = Locality(part).num_domains(scope);
    EXPECT_GE(my_domains, domains / want_parts);
    EXPECT_LE(my_domains, (domains + want_parts - 1) / want_parts);
    if (k >= domains) {
      EXPECT_EQ(my_domains, 1u);
      if (scope == Locality::Scope::Node) {
        Locality pl(part);
        for (std::size_t i = 0; i < part.size(); ++i)
          EXPECT_EQ(pl.unit(dash::team_unit_t(int(i))).node, pl.unit(dash::team_unit_t(0)).node);
      }
    }
    part.barrier();
  }
  team.free_subteams();
}

TEST(Locality, LocalitySplitByNode) { ExpectSplitWorks(dash::Team::All(), Locality::Scope::Node); }

TEST(Locality, LocalitySplitByNuma) { ExpectSplitWorks(dash::Team::All(), Locality::Scope::NUMA); }

TEST(Locality, LocalitySplitOfSubTeam) {
  dash::Team& half = dash::Team::All().split(2);
  ExpectSplitWorks(half, Locality::Scope::Node);
  ExpectSplitWorks(half, Locality::Scope::NUMA);
  dash::Team::All().free_subteams();
}

TEST(Locality, LocalitySplitByNodeGivesNodeTeams) {
  // One part per node: the same teams as the one-per-node split.
  dash::Team& by_node = dash::Team::All().locality_split(Locality::Scope::Node, unsigned(nunits()));
  dash::Team& classic = dash::Team::All().locality_split(dash::LocalityScope::Node);
  EXPECT_EQ(Globals(by_node), Globals(classic));
  std::vector<int> expected;
  for (int u = 0; u < nunits(); ++u)
    if (ExpectedNode(u) == ExpectedNode(myid())) expected.push_back(u);
  EXPECT_EQ(Globals(by_node), expected);
  dash::Team::All().free_subteams();
}

// DASH's classes over the same hierarchy: TeamLocality split by every scope (one domain each,
// and grouped into two parts), select; LocalityDomain subdomains by index, iteration and find;
// UnitLocality of every unit; bad input throws.
TEST(Locality, DashTeamLocalityUnitLocalityAndDomains) {
  dash::Team& all = dash::Team::All();
  Locality loc(all);
  dash::util::TeamLocality tloc(all);
  EXPECT_EQ(tloc.domain().domain_tag(), ".");
  EXPECT_EQ(tloc.domain().num_units(), all.size());
  for (auto scope : {Locality::Scope::Node, Locality::Scope::NUMA, Locality::Scope::Core,
                     Locality::Scope::Unit}) {
    SCOPED_TRACE(int(scope));
    const auto want = loc.domains(scope);
    tloc.split(scope);
    ASSERT_EQ(tloc.domains().size(), want.size());
    std::vector<dash::team_unit_t> flat;
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(tloc.domains()[i].domain_tag(), want[i].tag);
      EXPECT_TRUE(tloc.domains()[i].team_units() == want[i].units);
      EXPECT_EQ(tloc.domains()[i].scope(), scope);
      flat.insert(flat.end(), want[i].units.begin(), want[i].units.end());
    }
    tloc.split(scope, 2);
    EXPECT_EQ(tloc.domains().size(), std::min<std::size_t>(2, want.size()));
    EXPECT_TRUE(tloc.units() == flat);
  }
  dash::util::LocalityDomain root(all);
  const auto kids = loc.children(loc.domain("."));
  ASSERT_EQ(root.size(), kids.size());
  std::size_t i = 0;
  for (const dash::util::LocalityDomain& d : root) {
    EXPECT_EQ(d.domain_tag(), kids[i].tag);
    EXPECT_EQ(root.at(i).domain_tag(), kids[i].tag);
    ++i;
  }
  EXPECT_EQ(i, kids.size());
  EXPECT_TRUE(root.find(kids[0].tag).team_units() == kids[0].units);
  EXPECT_EQ(root.scope_domains(Locality::Scope::Unit).size(), all.size());
  EXPECT_THROW(root.at(root.size()), dash::exception::InvalidArgument);
  EXPECT_THROW(root.at(0).find(".999"), dash::exception::InvalidArgument);
  tloc.select(kids[0].tag);
  EXPECT_EQ(tloc.domain().domain_tag(), kids[0].tag);
  EXPECT_THROW(tloc.select("."), dash::exception::InvalidArgument);
  EXPECT_THROW(tloc.split(Locality::Scope::Node, -1), dash::exception::InvalidArgument);
  for (dash::team_unit_t u(0); u < int(all.size()); ++u) {
    dash::util::UnitLocality ul(all, u);
    const auto rec = loc.unit(u);
    EXPECT_EQ(ul.host(), rec.host);
    EXPECT_EQ(ul.node_id(), rec.node);
    EXPECT_EQ(ul.num_cores(), rec.num_cores);
    // The unit's domain is its core's (DASH's): it holds u, and a UNIT domain of u alone.
    const auto unit_domain = loc.domain(ul.domain_tag());
    EXPECT_EQ(unit_domain.scope, Locality::Scope::Core);
    EXPECT_TRUE(std::find(unit_domain.units.begin(), unit_domain.units.end(), u) !=
                unit_domain.units.end());
    int own_leaves = 0;
    for (const auto& child : loc.children(unit_domain)) {
      EXPECT_EQ(child.scope, Locality::Scope::Unit);
      own_leaves += child.units == std::vector<dash::team_unit_t>{u};
    }
    EXPECT_EQ(own_leaves, 1);
    const auto node = ul.node_domain();
    EXPECT_TRUE(std::find(node.units().begin(), node.units().end(), u) != node.units().end());
  }
  dash::util::UnitLocality mine(dash::myid());
  EXPECT_EQ(mine.unit_id().id, myid());
}

// DASH's further UnitLocality queries: the default one is the calling unit's, the threads per
// core (DASH_MAX_SMT chooses), cache line sizes (at least 64 bytes), and a domain's cores.
TEST(Locality, DashUnitLocalityDefaultThreadsCachesAndCores) {
  dash::util::UnitLocality here;
  EXPECT_EQ(here.unit_id().id, myid());
  EXPECT_EQ(here.domain_tag(), dash::util::UnitLocality(dash::myid()).domain_tag());
  EXPECT_EQ(here.min_threads(), 1);
  EXPECT_GE(here.max_threads(), 1);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (here.node_cores() > 0) {
    EXPECT_LE(here.max_threads() * here.node_cores(), cpus);
  }
  dash::util::Config::set("DASH_MAX_SMT", 1);
  EXPECT_EQ(here.num_threads(), here.max_threads());
  dash::util::Config::set("DASH_MAX_SMT", 0);
  EXPECT_EQ(here.num_threads(), 1);
  for (int level : {0, 1, 2, 7, -1}) {
    const int bytes = here.cache_line_size(level);
    EXPECT_GE(bytes, 64) << "level " << level;
    EXPECT_EQ(bytes & (bytes - 1), 0) << "level " << level;  // a power of two
  }
  // A node's cores as its units report them; a core domain is one core.
  const auto node = here.node_domain();
  if (here.node_cores() > 0) {
    EXPECT_EQ(node.num_cores(), here.node_cores());
  }
  EXPECT_GE(node.num_cores(), 1);
  const auto cores = node.scope_domains(Locality::Scope::Core);
  if (!cores.empty()) {
    EXPECT_EQ(cores.front().num_cores(), 1);
  }
  int sum = 0;
  for (const auto& n :
       dash::util::LocalityDomain(dash::Team::All()).scope_domains(Locality::Scope::Node))
    sum += n.num_cores();
  EXPECT_EQ(dash::util::LocalityDomain(dash::Team::All()).num_cores(), sum);
}

// DASH's shapes on the C++ side: UnitLocality's DART records (domain() and its parents,
// hwinfo()), Locality's static counts, the JSON printer (every domain's tag and units), scope
// names, and locality_split with DART's scope type.
TEST(Locality, DashRecordsPrinterAndStatics) {
  dash::Team& all = dash::Team::All();
  for (int u = 0; u < nunits(); ++u) {
    dash::util::UnitLocality ul{dash::global_unit_t(u)};
    const dart_domain_locality_t& core = ul.domain();
    EXPECT_EQ(core.scope, DART_LOCALITY_SCOPE_CORE);
    EXPECT_GT(core.level, 2);
    EXPECT_EQ(std::string(core.domain_tag), ul.domain_tag());
    ASSERT_GE(core.num_units, 1);
    EXPECT_TRUE(std::any_of(core.unit_ids, core.unit_ids + core.num_units,
                            [u](dart_global_unit_t g) { return g.id == u; }));
    int own_leaves = 0;
    for (int c = 0; c < core.num_domains; ++c) {
      EXPECT_EQ(core.children[c]->scope, DART_LOCALITY_SCOPE_UNIT);
      own_leaves += core.children[c]->num_units == 1 && core.children[c]->unit_ids[0].id == u;
    }
    EXPECT_EQ(own_leaves, 1);
    ASSERT_NE(core.parent, nullptr);
    EXPECT_EQ(core.parent->scope, DART_LOCALITY_SCOPE_NUMA);
    EXPECT_EQ(ul.parent().domain_tag(), std::string(core.parent->domain_tag));
    EXPECT_EQ(ul.node_domain().scope(), Locality::Scope::Node);
    EXPECT_EQ(ul.parent_in_scope(Locality::Scope::NUMA).domain_tag(),
              std::string(core.parent->domain_tag));
    EXPECT_EQ(ul.parent_in_scope(Locality::Scope::Core).domain_tag(), ul.domain_tag());
    EXPECT_EQ(ul.hwinfo().core_id, ul.core_id());
    EXPECT_EQ(ul.hwinfo().numa_id, ul.numa_id());
    EXPECT_STREQ(ul.hwinfo().host, ul.host().c_str());
    EXPECT_GE(ul.min_threads(), 1);
    EXPECT_LE(ul.min_threads(), ul.max_threads());
  }
  EXPECT_THROW(dash::util::UnitLocality().parent_in_scope(Locality::Scope::Group),
               dash::exception::InvalidArgument);
  Locality loc(all);
  EXPECT_EQ(Locality::NumNodes(), int(loc.num_nodes()));
  EXPECT_EQ(Locality::NumNUMANodes(), int(loc.num_numa()));
  EXPECT_EQ(Locality::NumUnits(), nunits());
  EXPECT_EQ(Locality::NumCores(), loc.root().num_cores);
  EXPECT_EQ(dash::util::LocalityDomain(all).num_cores(), loc.root().num_cores);
  // The printer: every domain's tag, and its units as a JSON list.
  const std::string text = (dash::util::LocalityJSONPrinter() << loc.root()).str();
  for (auto scope : {Locality::Scope::Global, Locality::Scope::Node, Locality::Scope::Module,
                     Locality::Scope::NUMA, Locality::Scope::Core, Locality::Scope::Unit}) {
    for (const auto& d : loc.domains(scope)) {
      EXPECT_NE(text.find("\"tag\": \"" + d.tag + "\""), std::string::npos) << d.tag;
    }
  }
  std::string all_units = "\"units\": [";
  for (int u = 0; u < nunits(); ++u) all_units += (u ? ", " : "") + std::to_string(u);
  EXPECT_NE(text.find(all_units + "]"), std::string::npos) << text;
  std::ostringstream os;
  os << loc.root();
  EXPECT_EQ(os.str(), text);
  dart_unit_locality_t* mine = nullptr;
  ASSERT_EQ(dart_unit_locality(DART_TEAM_ALL, DART_TEAM_UNIT_ID(myid()), &mine), DART_OK);
  const std::string unit_text = (dash::util::LocalityJSONPrinter() << *mine).str();
  EXPECT_NE(unit_text.find(std::string("\"domain_tag\": \"") + mine->domain_tag + "\""),
            std::string::npos);
  EXPECT_NE(unit_text.find("\"core_id\": " + std::to_string(mine->hwinfo.core_id)),
            std::string::npos);
  // Scope names, for both scope types.
  std::ostringstream names;
  names << DART_LOCALITY_SCOPE_NODE << " " << Locality::Scope::NUMA << " "
        << DART_LOCALITY_SCOPE_MODULE;
  EXPECT_EQ(names.str(), "node numa module");
  // locality_split with DART's scope: the same parts as with ours.
  dash::Team& by_dart = all.locality_split(DART_LOCALITY_SCOPE_NODE, 2);
  dash::Team& by_ours = all.locality_split(Locality::Scope::Node, 2);
  EXPECT_EQ(Globals(by_dart), Globals(by_ours));
}

}  // namespace
