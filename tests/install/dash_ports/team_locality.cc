// Teams and locality the way DASH programs query them: dash::util::TeamLocality split by node,
// UnitLocality of every unit, Team::split with num_siblings, Team::free.
#include <algorithm>
#include <set>

#include "check.h"

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  dash::Team& all = dash::Team::All();
  dash::util::TeamLocality tloc(all);
  CHECK(tloc.domain().units().size() == all.size());
  tloc.split(dash::util::Locality::Scope::Node);
  std::set<int> seen;
  for (const dash::util::LocalityDomain& node : tloc.domains()) {
    CHECK(node.scope() == dash::util::Locality::Scope::Node);
    for (dash::global_unit_t u : node.units()) {
      dash::util::UnitLocality uloc(u);
      CHECK(uloc.host() == node.host());
      CHECK(uloc.node_domain().domain_tag() == node.domain_tag());
      seen.insert(u.id);
    }
  }
  CHECK(seen.size() == all.size());
  CHECK(tloc.split(dash::util::Locality::Scope::Unit, 2).domains().size() ==
        std::min<std::size_t>(2, all.size()));
  dash::Team& halves = all.split(2);
  CHECK(halves.num_siblings() == std::min<std::size_t>(2, all.size()));
  {
    dash::Array<int> in_half(2 * halves.size(), halves);
    in_half.barrier();
    halves.free();  // freed once in_half goes
    CHECK(!halves.is_null());
  }
  CHECK(halves.is_null());
  all.barrier();
  report_ok("team_locality");
  dash::finalize();
}
