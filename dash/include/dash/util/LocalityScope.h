// dash::util::LocalityScope (also dash::util::Locality::Scope): kinds of locality domain, with
// DASH's names and DART's values (dart_locality_scope_t). Its own header so that Team.h can
// name it without the rest of Locality.h.
//
// | scope                    | in a team's tree (dart_locality.h)                 |
// |--------------------------|----------------------------------------------------|
// | Global                   | the team, level 0                                  |
// | Node                     | a (real or emulated) node, level 1                 |
// | Module                   | the node's one module, level 2                     |
// | NUMA                     | a NUMA domain of the module, level 3               |
// | Core                     | a core of the NUMA domain, level 4                 |
// | Unit                     | a unit, level 5                                    |
// | Group                    | made by dart_domain_group / LocalityDomain::group  |
// | Undefined, Network,      | not in team trees (Package: in dart_hwinfo_t's     |
// | Package, Uncore, Cache,  | scopes)                                            |
// | CPU                      |                                                    |
#ifndef DASH__UTIL__LOCALITY_SCOPE_H_
#define DASH__UTIL__LOCALITY_SCOPE_H_

#include <dart/dart_locality.h>

#include <ostream>

namespace dash {
namespace util {

enum class LocalityScope : int {
  Undefined = DART_LOCALITY_SCOPE_UNDEFINED,
  Global = DART_LOCALITY_SCOPE_GLOBAL,
  Group = DART_LOCALITY_SCOPE_GROUP,
  Network = DART_LOCALITY_SCOPE_NETWORK,
  Node = DART_LOCALITY_SCOPE_NODE,
  Module = DART_LOCALITY_SCOPE_MODULE,
  NUMA = DART_LOCALITY_SCOPE_NUMA,
  Unit = DART_LOCALITY_SCOPE_UNIT,
  Package = DART_LOCALITY_SCOPE_PACKAGE,
  Uncore = DART_LOCALITY_SCOPE_UNCORE,
  Cache = DART_LOCALITY_SCOPE_CACHE,
  Core = DART_LOCALITY_SCOPE_CORE,
  CPU = DART_LOCALITY_SCOPE_CPU,
};

// The name of a scope as printed: "global", "node", "numa", ... ("?" for a value that is not a
// scope). Local.
inline const char* locality_scope_name(LocalityScope scope) {
  switch (scope) {
    case LocalityScope::Undefined:
      return "undefined";
    case LocalityScope::Global:
      return "global";
    case LocalityScope::Group:
      return "group";
    case LocalityScope::Network:
      return "network";
    case LocalityScope::Node:
      return "node";
    case LocalityScope::Module:
      return "module";
    case LocalityScope::NUMA:
      return "numa";
    case LocalityScope::Unit:
      return "unit";
    case LocalityScope::Package:
      return "package";
    case LocalityScope::Uncore:
      return "uncore";
    case LocalityScope::Cache:
      return "cache";
    case LocalityScope::Core:
      return "core";
    case LocalityScope::CPU:
      return "cpu";
  }
  return "?";
}

// Writes the scope's name. Local.
inline std::ostream& operator<<(std::ostream& os, LocalityScope scope) {
  return os << locality_scope_name(scope);
}

}  // namespace util
}  // namespace dash

// Writes the name of a DART scope, as DASH does for `std::cout << DART_LOCALITY_SCOPE_NODE`.
inline std::ostream& operator<<(std::ostream& os, dart_locality_scope_t scope) {
  return os << dash::util::locality_scope_name(static_cast<dash::util::LocalityScope>(scope));
}

#endif  // DASH__UTIL__LOCALITY_SCOPE_H_
