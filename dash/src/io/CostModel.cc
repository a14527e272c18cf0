// dash::io's cost model (dash/io/CostModel.h).
#include <dash/io/CostModel.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace dash {
namespace io {

CostTable evaluate(const ModelInput& input) {
  CostTable table;
  std::uint64_t total = 0;
  for (std::uint64_t w : input.bytes) total += w;
  for (const Candidate& c : input.candidates) {
    for (const Tier& t : c.tiers) {
      CostRow row;
      row.unit = c.unit;
      row.tier = t.name;
      if (t.capacity < input.buffer_bytes)
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
      row.total_s = row.aggregation_s + row.transfer_s;
      if (row.excluded.empty() &&
          (table.best < 0 || row.total_s < table.rows[std::size_t(table.best)].total_s))
        table.best = int(table.rows.size());
      table.rows.push_back(row);
    }
  }
  return table;
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
