// dash::util::UnitLocality: where one unit of a team runs, as DASH's class of that name, over
// DART's records (dart_unit_locality, dart_unit_placement).
//
//   dash::util::UnitLocality here;                      // the calling unit, in Team::All()
//   here.host(), here.num_cores(), here.hwinfo().core_id, here.node_domain().domain_tag()
//
// The object keeps its own copy of DART's unit record: hwinfo() of a non-const object may be
// changed (DASH's tests describe other hardware that way, and TeamLocality's measures read
// the changed values), DART's record stays as it is. Everything is local.
#ifndef DASH__UTIL__UNIT_LOCALITY_H_
#define DASH__UTIL__UNIT_LOCALITY_H_

#include <dart/dart_locality.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/util/Config.h>
#include <dash/util/Locality.h>
#include <dash/util/LocalityDomain.h>
#include <unistd.h>

#include <algorithm>
#include <string>

namespace dash {
namespace util {

class UnitLocality {
 public:
  // Team unit `unit` of `team`. Throws InvalidArgument for a unit not in the team. Local.
  UnitLocality(Team& team, team_unit_t unit) : team_(&team), loc_(Locality(team).unit(unit)) {
    dart_unit_locality_t* record = nullptr;
    dash::internal::check_dart(dart_unit_locality(team.dart_id(), unit, &record),
                               "dash::util::UnitLocality");
    record_ = *record;
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
  // The tag of the unit's domain, its core's ".node.0.numa.core" (as DASH's).
  std::string domain_tag() const { return record_.domain_tag; }
  // The unit's hardware (caches, threads per core, ...; -1 unknown): this object's copy of
  // DART's record; a non-const object's may be changed (see above).
  const dart_hwinfo_t& hwinfo() const { return record_.hwinfo; }
  dart_hwinfo_t& hwinfo() { return record_.hwinfo; }
  // DART's record of the unit's domain in the team's tree, its CORE domain (owned by DART, valid
  // while the team lives): domain().parent is its NUMA domain, and so on up; the UNIT domain
  // holding only this unit is among domain().children.
  const dart_domain_locality_t& domain() const {
    return Locality(*team_).record(record_.domain_tag);
  }
  // The domain above the unit's (its NUMA domain).
  LocalityDomain parent() const { return LocalityDomain(*team_, domain().parent->domain_tag); }
  // The domain above the unit's of `scope` (Node, Module, NUMA, Core); throws InvalidArgument if
  // there is none.
  LocalityDomain parent_in_scope(Locality::Scope scope) const {
    for (const dart_domain_locality_t* d = &domain(); d != nullptr; d = d->parent)
      if (d->scope == static_cast<dart_locality_scope_t>(scope))
        return LocalityDomain(*team_, d->domain_tag);
    throw exception::InvalidArgument(std::string("dash::util::UnitLocality::parent_in_scope: no ") +
                                     locality_scope_name(scope) + " domain above " +
                                     record_.domain_tag);
  }
  int node_id() const { return loc_.node; }
  int numa_id() const { return loc_.numa; }
  int core_id() const { return loc_.core; }
  int cpu_id() const { return loc_.cpu; }
  // Cores and NUMA domains its binding allows; cores of its node (-1: unknown).
  int num_cores() const { return loc_.num_cores; }
  int num_numa() const { return loc_.num_numa; }
  int node_cores() const { return loc_.node_cores; }
  // Hardware threads per core over the unit's cores, fewest and most (hwinfo(); 1 where
  // unknown); num_threads() is max_threads() if DASH_MAX_SMT is set, else min_threads(), as in
  // DASH. Local.
  int min_threads() const { return std::max(1, record_.hwinfo.min_threads); }
  int max_threads() const { return std::max(1, record_.hwinfo.max_threads); }
  int num_threads() const {
    return Config::get<bool>("DASH_MAX_SMT") ? max_threads() : min_threads();
  }
  // Clock rates and bandwidth (hwinfo()): DART does not measure them, -1 unless set.
  // cpu_mhz() is DASH's name for max_cpu_mhz().
  int min_cpu_mhz() const { return record_.hwinfo.min_cpu_mhz; }
  int max_cpu_mhz() const { return record_.hwinfo.max_cpu_mhz; }
  int cpu_mhz() const { return record_.hwinfo.max_cpu_mhz; }
  int max_shmem_mbps() const { return record_.hwinfo.max_shmem_mbps; }
  // Line size in bytes of the cache of `level` (0: L1 data, 1: L2, 2: L3) of the unit's core as
  // hwloc saw it (else the calling unit's machine, as sysconf tells), at least 64 (DASH's
  // floor). Local.
  int cache_line_size(int level) const {
    long bytes = level >= 0 && level < DART_LOCALITY_MAX_CACHE_LEVELS
                     ? record_.hwinfo.cache_line_sizes[level]
                     : -1;
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
  dart_unit_locality_t record_;  // a copy of DART's
};

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__UNIT_LOCALITY_H_
