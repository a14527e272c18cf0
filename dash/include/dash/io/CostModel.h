// dash::io's cost model (MA-TAPIOCA): which unit aggregates a file domain,
// and on which memory tier its buffers live.
//
// For a candidate aggregator a and a tier t of a's node, with producers p
// giving w_p bytes of the domain:
//
//   Cost_A(a, t) = sum over p with w_p > 0 of
//                    latency(p, a) + latency(t) + w_p / min(bandwidth(p, a), bandwidth(t))
//   Cost_T(a, t) = latency(a, target) + (sum of w_p) / min(bandwidth(t), bandwidth(a, target))
//
// latency/bandwidth(p, a) come from the network (dart_unit_link_cost: the
// rung of the machine ladder the two units share; a unit to itself moves
// at the tier's speed), (a, target) from the target's description. A tier
// is out if its node lacks it (bandwidth 0), it cannot hold the buffers
// (capacity) or is not persistent when persistency is required.
//
// The rounds overlap (two buffers: round r + 1 aggregates while round r is
// written), so with R rounds of chunk bytes (R = domain bytes / chunk,
// rounded up) the total is a two-stage pipeline's:
//
//   total = (Cost_A + Cost_T) / R + (R - 1) / R * max(Cost_A, Cost_T)
//
// (R = 1, or no chunk given: Cost_A + Cost_T; many rounds: the slower
// stage). The smallest total wins; ties go to the earlier candidate, then
// the earlier tier.
//
// | call              | cost                                        |
// |-------------------|---------------------------------------------|
// | evaluate          | local, O(candidates x tiers x producers)    |
// | text              | local                                       |
// | place_aggregators | local, O(domains x producers per domain ^ 2)|
// | cost_of_placement | local, O(domains x producers per domain)    |
#ifndef DASH__IO__COST_MODEL_H_
#define DASH__IO__COST_MODEL_H_

#include <dash/io/Tiers.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace dash {
namespace io {

// Latency and bandwidth of a path.
struct Link {
  double latency_s = 0;
  double bandwidth_Bps = 0;
};

// One unit that could aggregate: its node's tiers and its path to the target.
struct Candidate {
  int unit = 0;
  std::vector<Tier> tiers;
  Link target;
};

// What the model weighs.
struct ModelInput {
  std::vector<std::uint64_t> bytes;  // per producer unit: bytes it gives the aggregator
  std::vector<Candidate> candidates;
  std::function<Link(int producer, int aggregator)> network;  // between two units
  std::uint64_t buffer_bytes = 0;                             // the aggregator's buffers
  bool persistent = false;                                    // the tier must be persistent
  std::uint64_t chunk_bytes = 0;  // bytes per round (0: one round, no overlap)
};

// The modelled time of R = rounds(bytes, chunk) pipelined rounds whose
// stages take `aggregation_s` and `transfer_s` in all. Local.
double pipelined_total(double aggregation_s, double transfer_s, std::uint64_t bytes,
                       std::uint64_t chunk_bytes);

// One (candidate, tier) pair of the table.
struct CostRow {
  int unit = 0;
  std::string tier;
  double aggregation_s = 0, transfer_s = 0, total_s = 0;
  std::string excluded;  // why the pair cannot be chosen ("" if it can)
};

// The table and the winner (best: an index into rows, -1 if every pair is out).
struct CostTable {
  std::vector<CostRow> rows;
  int best = -1;
  // The table as lines of text: unit, tier, Cost_A, Cost_T, total, a mark
  // on the winner and why excluded pairs are out.
  std::string text() const;
};

// Evaluates every candidate on every tier of its node. Local.
CostTable evaluate(const ModelInput& input);

// A file cut into domains, each to get one aggregator on one tier.
struct PlacementInput {
  int units = 0;  // the candidates: units 0 .. units - 1
  // Per domain: the producers giving it bytes (unit, bytes > 0).
  std::vector<std::vector<std::pair<int, std::uint64_t>>> domains;
  Tier tier;  // where the buffers live
  // If not empty: per unit, that tier's figures on the unit's node (they
  // stand for `tier` when the unit is a candidate; bandwidth 0: its node
  // lacks the tier).
  std::vector<Tier> tier_per_unit;
  Link target;                                                // aggregator to the file
  std::function<Link(int producer, int aggregator)> network;  // between two units
  std::uint64_t buffer_bytes = 0;
  std::uint64_t chunk_bytes = 0;  // bytes per round (0: one round, no overlap)
  bool persistent = false;
  bool explain = false;  // keep each domain's table as text
};

// Aggregators of the domains, in domain order.
struct Placement {
  std::vector<int> units;  // per domain its aggregator (-1 where none is possible)
  double slowest_s = 0;    // the largest modelled total over the domains
  bool possible = true;    // false if some domain has no possible aggregator
  std::string text;        // with explain: each domain's cost table
};

// The model's placement: per domain, in order, the candidate of least
// Cost_A + Cost_T among its producers not taken by an earlier domain (if
// none of them can hold the buffers, among every unit not taken).
// InvalidArgument for a producer that is not one of the units. Local,
// O(sum over domains of producers^2), plus O(units x producers) for a
// domain no producer can aggregate.
Placement place_aggregators(const PlacementInput& input);

// The modelled cost of a given placement (e.g. rank order: aggregator i the
// first unit of the i-th group of nodes): per domain its aggregator's
// total; the slowest. InvalidArgument for a producer or aggregator that is
// not one of the units, or not one aggregator per domain. Local, O(sum over
// domains of producers).
Placement cost_of_placement(const PlacementInput& input, const std::vector<int>& units);

}  // namespace io
}  // namespace dash

#endif  // DASH__IO__COST_MODEL_H_
