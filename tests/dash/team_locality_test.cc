// DASH's TeamLocality and LocalityDomain calls over a private copy of a team's tree: domain() as
// a reference, global_units, unit_locality (by team and global id, its hwinfo changeable per
// TeamLocality), group of one domain, of every unit and of repeated tags, groups, split_groups,
// split(scope, n) into parts, select/exclude by tags, iteration by reference, copies that do not
// share changes, printing a group; bad tags and units throw InvalidArgument. Every unit checks
// its own copy (the trees are the same on every unit).
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/util/Locality.h>
#include <dash/util/LocalityDomain.h>
#include <dash/util/TeamLocality.h>
#include <dash/util/UnitLocality.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::util::Locality;
using dash::util::LocalityDomain;
using dash::util::TeamLocality;
using dash_test::nunits;

std::vector<dash::global_unit_t> AllUnits() {
  std::vector<dash::global_unit_t> out;
  for (int u = 0; u < nunits(); ++u) out.emplace_back(u);
  return out;
}

// The UNIT domain tags of global units `units`, as DART's tree names them: the child of each
// unit's domain (its core's) that holds it alone.
std::vector<std::string> UnitTags(const std::vector<dash::global_unit_t>& units) {
  std::vector<std::string> tags;
  for (auto u : units) {
    const dart_domain_locality_t& core = dash::util::UnitLocality(u).domain();
    for (int c = 0; c < core.num_domains; ++c)
      if (core.children[c]->num_units == 1 && core.children[c]->unit_ids[0].id == u.id)
        tags.push_back(core.children[c]->domain_tag);
  }
  EXPECT_EQ(tags.size(), units.size()) << "a unit without its UNIT domain";
  return tags;
}

std::vector<dash::global_unit_t> Sorted(std::vector<dash::global_unit_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Checks the tree below d: num_domains and children agree, every child's units lie in d's.
void CheckIntegrity(const LocalityDomain& d) {
  const dart_domain_locality_t& rec = d.dart_type();
  EXPECT_EQ(rec.num_domains == 0, rec.children == nullptr) << d.domain_tag();
  EXPECT_EQ(std::size_t(rec.num_domains), d.size());
  std::size_t i = 0;
  for (auto& sub : d) {
    EXPECT_EQ(&sub, &d.at(i)) << "iteration gives the cached subdomain";
    EXPECT_EQ(&sub.dart_type(), rec.children[i]);
    for (auto u : sub.units())
      EXPECT_NE(std::find(d.units().begin(), d.units().end(), u), d.units().end());
    CheckIntegrity(sub);
    ++i;
  }
  EXPECT_EQ(i, d.size());
}

TEST(TeamLocality, DomainIsOneObjectWithTheTeamsUnits) {
  TeamLocality tloc(dash::Team::All());
  LocalityDomain& domain = tloc.domain();
  EXPECT_EQ(&domain, &tloc.domain());
  EXPECT_EQ(domain.domain_tag(), ".");
  EXPECT_EQ(tloc.global_units(), AllUnits());
  EXPECT_EQ(domain.units(), AllUnits());
  EXPECT_TRUE(tloc.parts().empty());
  EXPECT_TRUE(tloc.groups().empty());
  EXPECT_EQ(domain.leader_unit(), dash::global_unit_t(0));
  CheckIntegrity(domain);
  // The copy's records match DART's tree, but are not DART's.
  Locality loc(dash::Team::All());
  EXPECT_NE(&domain.dart_type(), &loc.root());
  EXPECT_EQ(domain.dart_type().num_units, loc.root().num_units);
  EXPECT_EQ(domain.num_cores(), loc.root().num_cores);
  // Iterators: random access, const from mutable.
  EXPECT_EQ(domain.end() - domain.begin(), std::ptrdiff_t(domain.size()));
  LocalityDomain::const_iterator first = domain.begin();
  EXPECT_EQ(&*first, &domain.at(0));
  EXPECT_EQ(&domain.begin()[0], &domain.at(0));
  EXPECT_EQ(first->domain_tag(), loc.children(loc.domain("."))[0].tag);
  // Unit domains by scope: one per unit, holding that unit.
  const auto unit_domains = domain.scope_domains(Locality::Scope::Unit);
  ASSERT_EQ(unit_domains.size(), std::size_t(nunits()));
  std::set<int> seen;
  for (const auto& d : unit_domains) {
    ASSERT_EQ(d.units().size(), 1u);
    seen.insert(d.units()[0].id);
  }
  EXPECT_EQ(seen.size(), std::size_t(nunits()));
  EXPECT_TRUE(domain.scope_domains(Locality::Scope::Group).empty());
}

TEST(TeamLocality, UnitLocalityByTeamAndGlobalIdIsChangeablePerObject) {
  dash::Team& all = dash::Team::All();
  TeamLocality tloc(all);
  for (int u = 0; u < nunits(); ++u) {
    dash::util::UnitLocality fresh(all, dash::team_unit_t(u));
    auto& mine = tloc.unit_locality(dash::team_unit_t(u));
    EXPECT_EQ(&mine, &tloc.unit_locality(dash::global_unit_t(u)));
    EXPECT_EQ(mine.unit_id().id, u);
    EXPECT_EQ(mine.domain_tag(), fresh.domain_tag());
    EXPECT_EQ(mine.hwinfo().core_id, fresh.hwinfo().core_id);
    EXPECT_EQ(mine.hwinfo().numa_id, fresh.hwinfo().numa_id);
    mine.hwinfo().max_cpu_mhz = 1000 + u;
    mine.hwinfo().min_threads = 3;
  }
  const TeamLocality& view = tloc;
  for (int u = 0; u < nunits(); ++u) {
    const auto& mine = view.unit_locality(dash::team_unit_t(u));
    EXPECT_EQ(mine.cpu_mhz(), 1000 + u);
    EXPECT_EQ(mine.min_threads(), 3);
    // DART's record and other objects keep theirs.
    dart_unit_locality_t* record = nullptr;
    ASSERT_EQ(dart_unit_locality(all.dart_id(), dart_team_unit_t{u}, &record), DART_OK);
    EXPECT_EQ(record->hwinfo.max_cpu_mhz, -1);
    EXPECT_EQ(TeamLocality(all).unit_locality(dash::team_unit_t(u)).cpu_mhz(), -1);
  }
  // A copy carries the changes; a change of the copy stays there.
  TeamLocality copy = tloc;
  copy.unit_locality(dash::team_unit_t(0)).hwinfo().max_cpu_mhz = 7;
  EXPECT_EQ(tloc.unit_locality(dash::team_unit_t(0)).cpu_mhz(), 1000);
  EXPECT_THROW(tloc.unit_locality(dash::team_unit_t(-1)), dash::exception::InvalidArgument);
  EXPECT_THROW(tloc.unit_locality(dash::team_unit_t(nunits())), dash::exception::InvalidArgument);
  EXPECT_THROW(view.unit_locality(dash::global_unit_t(nunits())), dash::exception::InvalidArgument);
}

TEST(TeamLocality, SubTeamHasItsMembersOnly) {
  dash::Team& all = dash::Team::All();
  dash::Team& halves = all.split(2);
  {
    TeamLocality tloc(halves);
    std::vector<dash::global_unit_t> members;
    for (std::size_t i = 0; i < halves.size(); ++i)
      members.push_back(halves.global_id(dash::team_unit_t(int(i))));
    EXPECT_EQ(tloc.global_units(), Sorted(members));
    for (auto g : members) {
      EXPECT_EQ(tloc.unit_locality(g).unit_id(), halves.relative_id(g));
      EXPECT_EQ(tloc.unit_locality(g).domain_tag().front(), '.');
    }
    for (int g = 0; g < nunits(); ++g)
      if (std::find(members.begin(), members.end(), dash::global_unit_t(g)) == members.end())
        EXPECT_THROW(tloc.unit_locality(dash::global_unit_t(g)), dash::exception::InvalidArgument);
    std::vector<dash::team_unit_t> team_ids = tloc.domain().team_units();
    ASSERT_EQ(team_ids.size(), halves.size());
    for (std::size_t i = 0; i < team_ids.size(); ++i) EXPECT_EQ(team_ids[i].id, int(i));
  }
  all.free_subteams();
}

TEST(TeamLocality, GroupOfOneDomainOfEveryUnitAndOfRepeatedTags) {
  dash::Team& all = dash::Team::All();
  const auto tags = UnitTags(AllUnits());
  for (int u = 0; u < nunits(); ++u) {
    TeamLocality tloc(all);
    LocalityDomain& group = tloc.group({tags[std::size_t(u)]});
    EXPECT_TRUE(group.is_group());
    EXPECT_EQ(group.scope(), Locality::Scope::Group);
    EXPECT_EQ(group.units(), std::vector<dash::global_unit_t>{dash::global_unit_t(u)});
    EXPECT_EQ(group.scope_domains(Locality::Scope::Unit).size(), 1u);
    ASSERT_EQ(tloc.groups().size(), 1u);
    EXPECT_EQ(tloc.groups()[0]->domain_tag(), group.domain_tag());
    EXPECT_EQ(&*tloc.groups()[0], &group);
    EXPECT_EQ(tloc.global_units(), AllUnits()) << "grouping keeps the domain's units";
    CheckIntegrity(tloc.domain());
    // DART's tree and other objects stay as they were.
    EXPECT_EQ(Locality(all).domain(tags[std::size_t(u)]).scope, Locality::Scope::Unit);
    EXPECT_TRUE(TeamLocality(all).groups().empty());
  }
  TeamLocality every(all);
  EXPECT_EQ(Sorted(every.group(tags).units()), AllUnits());
  TeamLocality twice(all);
  EXPECT_EQ(twice.group({tags[0], tags[0]}).units(),
            std::vector<dash::global_unit_t>{dash::global_unit_t(0)});
  // Printing shows the group.
  std::ostringstream out;
  out << twice.domain();
  EXPECT_NE(out.str().find("(group, "), std::string::npos) << out.str();
}

TEST(TeamLocality, GroupsAndSplitGroupsMakeOnePartPerGroup) {
  TeamLocality tloc(dash::Team::All());
  const auto tags = UnitTags(AllUnits());
  std::vector<std::vector<dash::global_unit_t>> want;
  // Unit 0 alone, then (at 2+ units) the others together.
  want.push_back({dash::global_unit_t(0)});
  tloc.group({tags[0]});
  if (nunits() > 1) {
    const auto all = AllUnits();
    want.emplace_back(all.begin() + 1, all.end());
    tloc.group(std::vector<std::string>(tags.begin() + 1, tags.end()));
  }
  const auto groups = tloc.groups();
  ASSERT_EQ(groups.size(), want.size());
  for (std::size_t g = 0; g < groups.size(); ++g) EXPECT_EQ(groups[g]->units(), want[g]);
  if (groups.size() == 2) EXPECT_NE(groups[0]->domain_tag(), groups[1]->domain_tag());
  tloc.split_groups();
  ASSERT_EQ(tloc.parts().size(), want.size());
  for (std::size_t g = 0; g < want.size(); ++g) {
    EXPECT_EQ(tloc.parts()[g].units(), want[g]);
    EXPECT_EQ(tloc.parts()[g].domain_tag(), ".");
    EXPECT_EQ(tloc.parts()[g].scope_domains(Locality::Scope::Group).size(), 1u);
  }
}

TEST(TeamLocality, BadGroupTagsThrowAndChangeNothing) {
  TeamLocality tloc(dash::Team::All());
  const auto tags = UnitTags(AllUnits());
  const std::string node =
      dash::util::UnitLocality(dash::global_unit_t(0)).node_domain().domain_tag();  // holds tags[0]
  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{{}, {".99"}, {"x"}, {"."}, {node, tags[0]}}) {
    EXPECT_THROW(tloc.group(bad), dash::exception::InvalidArgument) << bad.size();
  }
  EXPECT_TRUE(tloc.groups().empty());
  EXPECT_TRUE(tloc.domain().scope_domains(Locality::Scope::Group).empty());
  EXPECT_EQ(tloc.global_units(), AllUnits());
  EXPECT_THROW(tloc.select(std::vector<std::string>{".99"}), dash::exception::InvalidArgument);
  EXPECT_THROW(tloc.exclude(std::vector<std::string>{}), dash::exception::InvalidArgument);
  EXPECT_THROW(LocalityDomain().group({tags[0]}), dash::exception::InvalidArgument);
  EXPECT_THROW(LocalityDomain().dart_type(), dash::exception::InvalidArgument);
  EXPECT_THROW(LocalityDomain().leader_unit(), dash::exception::InvalidArgument);
}

TEST(TeamLocality, SplitMakesCopiesKeepingOneRunEach) {
  dash::Team& all = dash::Team::All();
  const std::size_t cores = Locality(all).domains(Locality::Scope::Core).size();
  for (int n : {0, 1, 2, 3, nunits()}) {
    SCOPED_TRACE(n);
    TeamLocality tloc(all);
    tloc.split(Locality::Scope::Core, n);
    const std::size_t parts = n == 0 ? cores : std::min<std::size_t>(std::size_t(n), cores);
    ASSERT_EQ(tloc.parts().size(), parts);
    std::vector<dash::global_unit_t> covered;
    std::size_t fewest = cores, most = 0;
    for (auto& part : tloc.parts()) {
      EXPECT_EQ(part.domain_tag(), ".");
      const std::size_t run = part.scope_domains(Locality::Scope::Core).size();
      fewest = std::min(fewest, run);
      most = std::max(most, run);
      covered.insert(covered.end(), part.units().begin(), part.units().end());
      CheckIntegrity(part);
    }
    EXPECT_LE(most - fewest, 1u);
    EXPECT_EQ(Sorted(covered), AllUnits()) << "the parts cover the units once";
    EXPECT_EQ(tloc.global_units(), AllUnits()) << "the domain stays whole";
  }
  EXPECT_EQ(TeamLocality(all, Locality::Scope::Node).parts().size(), Locality(all).num_nodes());
  TeamLocality tloc(all);
  EXPECT_THROW(tloc.split(Locality::Scope::Package), dash::exception::InvalidArgument);
  EXPECT_THROW(tloc.split(Locality::Scope::Unit, -1), dash::exception::InvalidArgument);
}

TEST(TeamLocality, SelectAndExcludeByTagsAndCopiesDoNotShareChanges) {
  dash::Team& all = dash::Team::All();
  const auto tags = UnitTags(AllUnits());
  TeamLocality tloc(all);
  tloc.split(Locality::Scope::Unit);
  tloc.select(std::vector<std::string>{tags.back()});
  EXPECT_EQ(tloc.global_units(),
            std::vector<dash::global_unit_t>{dash::global_unit_t(nunits() - 1)});
  // Parts holding the domain follow.
  EXPECT_EQ(tloc.parts().back().units(), tloc.global_units());
  CheckIntegrity(tloc.domain());
  if (nunits() > 1) {
    TeamLocality rest(all);
    rest.exclude({tags[0]});
    auto want = AllUnits();
    want.erase(want.begin());
    EXPECT_EQ(rest.global_units(), want);
    CheckIntegrity(rest.domain());
  }
  TeamLocality original(all);
  LocalityDomain copy = original.domain();
  copy.group({tags[0]});
  EXPECT_EQ(copy.groups().size(), 1u);
  EXPECT_TRUE(original.groups().empty());
  EXPECT_EQ(original.domain().scope_domains(Locality::Scope::Group).size(), 0u);
  EXPECT_EQ(copy.units(), original.domain().units());
  EXPECT_NE(copy, LocalityDomain());
}

}  // namespace
