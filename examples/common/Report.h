// What the examples report besides their result: sums over units and each
// unit's peak resident memory.
#ifndef EXAMPLES__COMMON__REPORT_H_
#define EXAMPLES__COMMON__REPORT_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <sys/resource.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace examples {

// x summed over all units; every unit gets the sum. Collective.
inline std::uint64_t sum_over_units(std::uint64_t x, const char*) {
  return dash::Team::All().allreduce(x, dash::plus<std::uint64_t>());
}

// The calling process's peak resident memory in KiB (getrusage). Local.
inline long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// Unit 0 prints a line per unit, "<program>: unit <u>: peak resident memory
// <k> KiB, <in_memory> of <total> <what> in memory<suffix>". Collective
// (every unit calls it; nothing happens unless verbose, alike on every unit).
inline void print_peak_memory(const char* program, bool verbose, std::uint64_t in_memory,
                              std::uint64_t total, const char* what, const char* suffix = "") {
  if (!verbose) return;
  const int me = int(dash::myid().id), units = int(dash::size());
  std::vector<std::uint64_t> mine(3 * std::size_t(units), 0), all(mine.size(), 0);
  mine[3 * std::size_t(me)] = std::uint64_t(peak_rss_kib());
  mine[3 * std::size_t(me) + 1] = in_memory;
  mine[3 * std::size_t(me) + 2] = total;
  all = dash::Team::All().allreduce(mine, dash::plus<std::uint64_t>());
  if (me != 0) return;
  for (int u = 0; u < units; ++u)
    std::printf("%s: unit %d: peak resident memory %" PRIu64 " KiB, %" PRIu64 " of %" PRIu64
                " %s in memory%s\n",
                program, u, all[3 * std::size_t(u)], all[3 * std::size_t(u) + 1],
                all[3 * std::size_t(u) + 2], what, suffix);
}

}  // namespace examples

#endif  // EXAMPLES__COMMON__REPORT_H_
