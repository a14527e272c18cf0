// Shared workload (workloads/cray_allocation.h), used by tests/dart (dart_mapping) and
// bench/stencil and bench/io (their model-only cases). Data for the unit mapping: a deterministic
// random generator and sparse node allocations on a Cray XC40-like machine, written as a
// DART_TOPOLOGY_FILE text.
#ifndef WORKLOADS__CRAY_ALLOCATION_H_
#define WORKLOADS__CRAY_ALLOCATION_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace dash_test {

// Deterministic across platforms (std distributions are not).
struct SplitMix64 {
  std::uint64_t state;
  explicit SplitMix64(std::uint64_t seed) : state(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int Below(int n) { return static_cast<int>(Next() % static_cast<std::uint64_t>(n)); }
  template <typename T>
  void Shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[Below(static_cast<int>(i))]);
  }
};

// Machine: 20 cabinets c0-0 .. c9-1, each 3 chassis x 16 blades x 4 nodes (3840 nodes, nid =
// ((cabinet * 3 + chassis) * 16 + blade) * 4 + node). Allocation: the free nodes of a busy
// machine come in runs (left over by finished jobs): runs of 1..24 consecutive nids at random
// places until 384 nodes are taken, i.e. a sparse allocation with partial blades and chassis
// spread over most cabinets. Ranks: 24 per node, node by node (SMP placement, the Cray
// default). Node order: `scrambled` = a random permutation (the pessimistic case: a batch
// system that hands out nodes in no order), otherwise nid order (what ALPS and Slurm usually
// hand out).
inline std::string CrayAllocation(SplitMix64& rng, int nnodes, bool scrambled) {
  const int cabinets = 20, per_cabinet = 3 * 16 * 4;
  std::vector<char> taken(cabinets * per_cabinet, 0);
  std::vector<int> nids;
  while (static_cast<int>(nids.size()) < nnodes) {
    const int start = rng.Below(cabinets * per_cabinet), length = 1 + rng.Below(24);
    for (int nid = start; nid < start + length && nid < cabinets * per_cabinet &&
                          static_cast<int>(nids.size()) < nnodes;
         ++nid) {
      if (!taken[nid]) {
        taken[nid] = 1;
        nids.push_back(nid);
      }
    }
  }
  std::sort(nids.begin(), nids.end());
  if (scrambled) rng.Shuffle(nids);
  std::ostringstream text;
  text << "# " << nnodes << " nodes of a Cray XC40-like machine\n";
  for (int nid : nids) {
    const int cabinet = nid / per_cabinet, chassis = nid / 64 % 3, blade = nid / 4 % 16;
    text << "node c" << cabinet / 2 << "-" << cabinet % 2 << "c" << chassis << "s" << blade << "n"
         << nid % 4 << "\n";
  }
  return text.str();
}

}  // namespace dash_test

#endif  // WORKLOADS__CRAY_ALLOCATION_H_
