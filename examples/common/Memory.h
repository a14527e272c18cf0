// What a run may use: the physical memory of the run's nodes, and the check an example makes up
// front (alike on every unit) so that a run too large for the machine is refused at once instead
// of growing until one unit runs out of memory midway.
//   examples::check_fits("--blocks 16777216", "16777216 blocks", bytes_needed);
#ifndef DASH_EXAMPLES_COMMON_MEMORY_H_
#define DASH_EXAMPLES_COMMON_MEMORY_H_

#include <dart/dart.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "Args.h"

namespace examples {

// Physical memory of the run's nodes, in bytes, the same on every unit: each unit adds its
// node's memory divided by the units on that node. Collective (one allreduce).
inline double memory_of_nodes() {
  const double node_bytes = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
  const int units = int(dash::size());
  dart_unit_placement_t mine{}, other{};
  dash::check_dart(dart_unit_placement(DART_TEAM_ALL, DART_TEAM_UNIT_ID(dash::myid().id), &mine),
                   "dart_unit_placement");
  int on_my_node = 0;
  for (int u = 0; u < units; ++u) {
    dash::check_dart(dart_unit_placement(DART_TEAM_ALL, DART_TEAM_UNIT_ID(u), &other),
                     "dart_unit_placement");
    on_my_node += other.real_node == mine.real_node;
  }
  const double share = node_bytes / std::max(1, on_my_node);
  return dash::Team::All().allreduce(share, dash::plus<double>());
}

// Throws UsageError "<option>: <what> need about X GiB at the peak, more than the Y GiB of
// memory of the run's node(s)" if `needed` bytes (over all units) exceed memory_of_nodes().
// Collective.
inline void check_fits(const std::string& option, const std::string& what, double needed) {
  const double memory = memory_of_nodes();
  if (needed <= memory) return;
  char text[300];
  std::snprintf(text, sizeof text,
                "%s: %s need about %.1f GiB at the peak, more than the %.1f GiB of memory of the "
                "run's node(s)",
                option.c_str(), what.c_str(), needed / double(1 << 30), memory / double(1 << 30));
  throw UsageError(text);
}

}  // namespace examples

#endif  // DASH_EXAMPLES_COMMON_MEMORY_H_
