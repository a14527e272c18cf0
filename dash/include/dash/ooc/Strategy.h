// dash::ooc::Strategy: how out-of-core local arrays exchange data, the
// seed's communication strategies, chosen per call:
//
//   collective  out-of-core communication: the data is read from the files,
//               exchanged, and stored before (or after) the computation, in
//               a pass of its own
//   producer    the owner sends while its slab is in memory for the
//               computation; the receiver keeps what came in memory or in
//               its file until its own slab comes
//   demand      a slab asks for what it needs when it is in memory; the
//               owner serves it from memory or from its file
//
// dash::ooc::sweep (Ghosts.h) offers all three for halos,
// dash::ooc::transpose (Transpose.h) the first two.
#ifndef DASH__OOC__STRATEGY_H_
#define DASH__OOC__STRATEGY_H_

#include <dash/Exception.h>

#include <string>

namespace dash {
namespace ooc {

// How out-of-core local arrays exchange data (the collective, producer-driven
// and demand-driven methods of Bordawekar & Choudhary, "Communication
// Strategies for Out-of-core Programs", ICS 1995): for a halo sweep (dash::ooc::sweep) and a
// transpose (dash::ooc::transpose).
enum class Strategy { collective, producer, demand };
// The name the halo sweep has always used.
using Ghosts = Strategy;

// The strategy named `name` ("collective", "producer", "demand");
// InvalidArgument listing the names otherwise. Local.
inline Strategy strategy_from_name(const std::string& name) {
  if (name == "collective") return Strategy::collective;
  if (name == "producer") return Strategy::producer;
  if (name == "demand") return Strategy::demand;
  throw exception::InvalidArgument("dash::ooc: strategy '" + name +
                                   "' (collective, producer or demand)");
}
// The same, under the halo sweep's name. Local.
inline Ghosts ghosts_from_name(const std::string& name) { return strategy_from_name(name); }

}  // namespace ooc
}  // namespace dash

#endif  // DASH__OOC__STRATEGY_H_
