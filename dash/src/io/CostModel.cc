// dash::io's cost model (dash/io/CostModel.h).
#include <dash/Exception.h>
#include <dash/io/CostModel.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace dash {
namespace io {

double pipelined_total(double aggregation_s, double transfer_s, std::uint64_t bytes,
                       std::uint64_t chunk_bytes) {
  const double rounds =
      chunk_bytes == 0 || bytes == 0 ? 1 : double((bytes + chunk_bytes - 1) / chunk_bytes);
  return (aggregation_s + transfer_s) / rounds +
         (rounds - 1) / rounds * std::max(aggregation_s, transfer_s);
}

CostTable evaluate(const ModelInput& input) {
  CostTable table;
  std::uint64_t total = 0;
  for (std::uint64_t w : input.bytes) total += w;
  for (const Candidate& c : input.candidates) {
    for (const Tier& t : c.tiers) {
      CostRow row;
      row.unit = c.unit;
      row.tier = t.name;
      if (t.bandwidth_Bps <= 0)
        row.excluded = "not on its node";
      else if (t.capacity < input.buffer_bytes)
        row.excluded = "capacity " + std::to_string(t.capacity) + " < " +
                       std::to_string(input.buffer_bytes) + " bytes of buffers";
      else if (input.persistent && !t.persistent)
        row.excluded = "not persistent";
      for (std::size_t p = 0; p < input.bytes.size(); ++p) {
        const double w = double(input.bytes[p]);
        if (w <= 0) continue;
        Link l;
        if (int(p) == c.unit)
          l.bandwidth_Bps = t.bandwidth_Bps;  // a unit's own bytes: a copy into the tier
        else if (input.network)
          l = input.network(int(p), c.unit);
        const double bw =
            std::min(l.bandwidth_Bps > 0 ? l.bandwidth_Bps : t.bandwidth_Bps, t.bandwidth_Bps);
        row.aggregation_s += l.latency_s + t.latency_s + w / bw;
      }
      const double out = std::min(
          t.bandwidth_Bps, c.target.bandwidth_Bps > 0 ? c.target.bandwidth_Bps : t.bandwidth_Bps);
      row.transfer_s = c.target.latency_s + double(total) / out;
      row.total_s = pipelined_total(row.aggregation_s, row.transfer_s, total, input.chunk_bytes);
      if (row.excluded.empty() &&
          (table.best < 0 || row.total_s < table.rows[std::size_t(table.best)].total_s))
        table.best = int(table.rows.size());
      table.rows.push_back(row);
    }
  }
  return table;
}

namespace {

// One domain as a model input over compact indices: its producers first
// (index j is producers[j]), then `extra` units; `real` maps back.
struct DomainModel {
  ModelInput in;
  std::vector<int> real;
};

DomainModel domain_model(const PlacementInput& p, std::size_t d) {
  DomainModel m;
  for (const auto& [unit, bytes] : p.domains[d]) {
    m.real.push_back(unit);
    m.in.bytes.push_back(bytes);
  }
  m.in.buffer_bytes = p.buffer_bytes;
  m.in.chunk_bytes = p.chunk_bytes;
  m.in.persistent = p.persistent;
  return m;
}

// The network between compact indices of m (bound once m sits where it stays).
void bind_network(const PlacementInput& p, DomainModel& m) {
  if (p.network)
    m.in.network = [&p, &m](int a, int b) {
      return p.network(m.real[std::size_t(a)], m.real[std::size_t(b)]);
    };
}

// Index of unit u in m.real, appended (with no bytes) if not there.
int index_of(DomainModel& m, int u) {
  for (std::size_t j = 0; j < m.real.size(); ++j)
    if (m.real[j] == u) return int(j);
  m.real.push_back(u);
  m.in.bytes.push_back(0);
  return int(m.real.size() - 1);
}

// InvalidArgument unless every producer (and aggregator of `placement`, one
// per domain) is one of p's units and tier_per_unit, if given, has one
// entry per unit.
void check_input(const PlacementInput& p, const std::vector<int>* placement) {
  const auto bad = [&](const std::string& what) {
    throw exception::InvalidArgument("dash::io cost model: " + what);
  };
  if (!p.tier_per_unit.empty() && p.tier_per_unit.size() != std::size_t(std::max(p.units, 0)))
    bad("tier_per_unit has " + std::to_string(p.tier_per_unit.size()) + " entries for " +
        std::to_string(p.units) + " units");
  for (std::size_t d = 0; d < p.domains.size(); ++d)
    for (const auto& producer : p.domains[d])
      if (producer.first < 0 || producer.first >= p.units)
        bad("domain " + std::to_string(d) + " has producer " + std::to_string(producer.first) +
            ", not one of the " + std::to_string(p.units) + " units");
  if (placement == nullptr) return;
  if (placement->size() != p.domains.size())
    bad("a placement of " + std::to_string(placement->size()) + " aggregators for " +
        std::to_string(p.domains.size()) + " domains");
  for (int u : *placement)
    if (u < 0 || u >= p.units)
      bad("aggregator " + std::to_string(u) + " is not one of the " + std::to_string(p.units) +
          " units");
}

// The figures of p's tier on unit u's node.
const Tier& tier_of(const PlacementInput& p, int u) {
  return p.tier_per_unit.empty() ? p.tier : p.tier_per_unit[std::size_t(u)];
}

std::string domain_text(const PlacementInput& p, std::size_t d, CostTable table,
                        const std::vector<int>& real) {
  for (CostRow& r : table.rows) r.unit = real[std::size_t(r.unit)];
  std::uint64_t bytes = 0;
  for (const auto& pr : p.domains[d]) bytes += pr.second;
  return "  domain " + std::to_string(d) + " (" + std::to_string(bytes) + " bytes from " +
         std::to_string(p.domains[d].size()) + " units):\n" + table.text();
}

}  // namespace

Placement place_aggregators(const PlacementInput& p) {
  check_input(p, nullptr);
  Placement out;
  std::vector<char> taken(std::size_t(std::max(p.units, 0)), 0);
  for (std::size_t d = 0; d < p.domains.size(); ++d) {
    DomainModel m = domain_model(p, d);
    bind_network(p, m);
    for (std::size_t j = 0; j < m.real.size(); ++j)
      if (!taken[std::size_t(m.real[j])])
        m.in.candidates.push_back({int(j), {tier_of(p, m.real[j])}, p.target});
    CostTable table = evaluate(m.in);
    if (table.best < 0) {  // no producer can aggregate (taken, or no room): any free unit
      const std::size_t producers = m.real.size();
      std::vector<char> producer(taken.size(), 0);
      for (std::size_t j = 0; j < producers; ++j) producer[std::size_t(m.real[j])] = 1;
      for (int u = 0; u < p.units; ++u)
        if (!taken[std::size_t(u)] && !producer[std::size_t(u)]) {
          m.real.push_back(u);
          m.in.bytes.push_back(0);
          m.in.candidates.push_back({int(m.real.size() - 1), {tier_of(p, u)}, p.target});
        }
      table = evaluate(m.in);
    }
    if (p.explain) out.text += domain_text(p, d, table, m.real);
    if (table.best < 0) {
      out.possible = false;
      out.units.push_back(-1);
      continue;
    }
    const CostRow& row = table.rows[std::size_t(table.best)];
    const int unit = m.real[std::size_t(row.unit)];
    taken[std::size_t(unit)] = 1;
    out.units.push_back(unit);
    out.slowest_s = std::max(out.slowest_s, row.total_s);
  }
  return out;
}

Placement cost_of_placement(const PlacementInput& p, const std::vector<int>& units) {
  check_input(p, &units);
  Placement out;
  out.units = units;
  for (std::size_t d = 0; d < p.domains.size(); ++d) {
    DomainModel m = domain_model(p, d);
    bind_network(p, m);
    m.in.candidates.push_back({index_of(m, units[d]), {tier_of(p, units[d])}, p.target});
    const CostTable table = evaluate(m.in);
    if (p.explain) out.text += domain_text(p, d, table, m.real);
    if (table.best < 0)
      out.possible = false;
    else
      out.slowest_s = std::max(out.slowest_s, table.rows[0].total_s);
  }
  return out;
}

std::string CostTable::text() const {
  std::string out = "  unit  tier      Cost_A [s]    Cost_T [s]    total [s]\n";
  char line[256];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CostRow& r = rows[i];
    std::snprintf(line, sizeof line, "  %4d  %-8s  %12.6g  %12.6g  %12.6g  %s\n", r.unit,
                  r.tier.c_str(), r.aggregation_s, r.transfer_s, r.total_s,
                  int(i) == best       ? "<- chosen"
                  : r.excluded.empty() ? ""
                                       : ("out: " + r.excluded).c_str());
    out += line;
  }
  return out;
}

}  // namespace io
}  // namespace dash
