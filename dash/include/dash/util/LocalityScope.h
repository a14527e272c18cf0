// dash::util::LocalityScope (also dash::util::Locality::Scope): the levels of
// a team's locality hierarchy, outermost first. Its own header so that
// Team.h can name it without the rest of Locality.h.
#ifndef DASH__UTIL__LOCALITY_SCOPE_H_
#define DASH__UTIL__LOCALITY_SCOPE_H_

#include <dart/dart_locality.h>

namespace dash {
namespace util {

// | scope  | one domain per                  |
// |--------|---------------------------------|
// | Global | team                            |
// | Node   | (real or emulated) node         |
// | NUMA   | NUMA domain of a node           |
// | Core   | core of a NUMA domain           |
// | Unit   | unit                            |
enum class LocalityScope : int {
  Global = DART_LOCALITY_SCOPE_GLOBAL,
  Node = DART_LOCALITY_SCOPE_NODE,
  NUMA = DART_LOCALITY_SCOPE_NUMA,
  Core = DART_LOCALITY_SCOPE_CORE,
  Unit = DART_LOCALITY_SCOPE_UNIT,
};

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__LOCALITY_SCOPE_H_
