// The two-phase engine of dash::io (TwoPhase.h).
#include "io/TwoPhase.h"

#include <dart/dart.h>
#include <dart/dart_locality.h>
#include <dart/dart_unit_mapping.h>
#include <dash/Exception.h>
#include <dash/internal/Flags.h>
#include <dash/io/CostModel.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <future>
#include <thread>
#include <utility>

#include "Checksum.h"
#include "SafeFile.h"
#include "io/TierMemory.h"

namespace dash {
namespace io {
namespace internal {

namespace {

int unit_count(dart_team_t team) {
  std::size_t n = 0;
  check_io(dart_team_size(team, &n), "dart_team_size");
  return int(n);
}

// The (real or emulated) node of every unit of team. Local, O(units).
std::vector<int> unit_nodes(dart_team_t team) {
  std::vector<int> node(static_cast<std::size_t>(unit_count(team)));
  for (std::size_t u = 0; u < node.size(); ++u) {
    dart_unit_placement_t loc;
    check_io(dart_unit_placement(team, dart_team_unit_t{int(u)}, &loc), "dart_unit_placement");
    node[u] = loc.node;
  }
  return node;
}

// DASH_IO_TEST_FAIL_WRITE=n: the n-th chunk write of each aggregator in a
// call fails as if the disk were full (test only).
std::uint64_t test_fail_write() {
  return dash::internal::read_flag_number(dash::internal::Flag::io_test_fail_write, "dash::io");
}

// Two aggregation buffers of `chunk` bytes per unit on a memory tier.
struct Buffers {
  TierMemory memory;
  dart_gptr_t gptr;
  char* local;
  std::uint64_t chunk;
  Buffers(Team& team, const std::string& tier, std::uint64_t chunk_bytes, const char* who)
      : memory(team, buffer_tier(tier), 2 * chunk_bytes, who),
        gptr(memory.gptr()),
        local(memory.local()),
        chunk(chunk_bytes) {}
  // Byte `offset` of buffer `which` (0 or 1) of team unit `unit`.
  dart_gptr_t at(int unit, int which, std::uint64_t offset) const {
    dart_gptr_t g = gptr;
    dart_gptr_setunit(&g, dart_team_unit_t{unit});
    dart_gptr_incaddr(&g, std::int64_t(std::uint64_t(which) * chunk + offset));
    return g;
  }
};

// One part of a run inside a chunk: `count` pieces of `len` bytes at
// offset `at` of the chunk, `stride` apart, from or into data (contiguous).
struct Part {
  char* data;
  std::uint64_t len, at, stride, count;
};

// Walks the calling unit's runs (sorted by offset) chunk by chunk of one
// aggregator's domain (chunks in order): the runs that began keep their
// place, a piece cut by a chunk's end goes on in the next chunk.
class RunSweep {
 public:
  RunSweep(const std::vector<Run>& runs, std::uint64_t from) : runs_(&runs) {
    // Runs that began before the domain and reach into it start at their
    // first piece that ends after `from`.
    for (; next_ < runs.size() && runs[next_].offset < from; ++next_) {
      const Run& r = runs[next_];
      if (r.end() <= from) continue;
      std::uint64_t k = 0;
      if (r.count > 1 && from > r.offset + r.len) k = (from - r.offset - r.len) / r.stride + 1;
      while (k < r.count && r.offset + k * r.stride + r.len <= from) ++k;
      if (k < r.count) active_.push_back({next_, k});
    }
  }
  // f(Part) for the pieces (and parts of pieces) in [begin, end).
  template <class F>
  void each_in(std::uint64_t begin, std::uint64_t end, F&& f) {
    const std::vector<Run>& runs = *runs_;
    for (; next_ < runs.size() && runs[next_].offset < end; ++next_) active_.push_back({next_, 0});
    std::size_t kept = 0;
    for (Active a : active_) {
      const Run& r = runs[a.run];
      while (a.k < r.count) {
        const std::uint64_t off = r.offset + a.k * r.stride;
        if (off >= end) break;
        if (off < begin || off + r.len > end) {  // a piece cut by the chunk's start or end
          const std::uint64_t from = std::max(off, begin), to = std::min(off + r.len, end);
          f(Part{r.data + a.k * r.len + (from - off), to - from, from - begin, 0, 1});
          if (off + r.len > end) break;  // its rest comes with the next chunk
          ++a.k;
          continue;
        }
        // Whole pieces a.k .. k_end - 1 lie in [begin, end).
        std::uint64_t k_end = r.count;
        if (r.count > 1) k_end = std::min(r.count, (end - r.offset - r.len) / r.stride + 1);
        f(Part{r.data + a.k * r.len, r.len, off - begin, r.stride, k_end - a.k});
        a.k = k_end;
      }
      if (a.k < r.count) active_[kept++] = a;
    }
    active_.resize(kept);
  }

 private:
  struct Active {
    std::size_t run;
    std::uint64_t k;  // next piece
  };
  const std::vector<Run>* runs_;
  std::size_t next_ = 0;
  std::vector<Active> active_;
};

// Moves parts to (put) or from (get) aggregators' buffers: a part of one
// piece with one contiguous call, of several pieces with one strided call
// (its strided type made once per stride and length, and freed with the
// mover, after the round's flush).
class Mover {
 public:
  Mover(bool put, std::string who) : put_(put), who_(std::move(who)) {}
  ~Mover() {
    for (Strided& t : types_) dart_type_destroy(&t.type);
  }
  Mover(const Mover&) = delete;
  Mover& operator=(const Mover&) = delete;

  // Moves part p of the chunk in the buffer at `base`.
  void move(dart_gptr_t base, const Part& p) {
    dart_gptr_t g = base;
    dart_gptr_incaddr(&g, std::int64_t(p.at));
    if (p.count == 1) return call(g, p.data, p.len, DART_TYPE_BYTE);
    const dart_datatype_t remote = strided(p.stride, p.len);
    if (remote != DART_TYPE_UNDEFINED) return call(g, p.data, p.count * p.len, remote);
    for (std::uint64_t k = 0; k < p.count; ++k) {  // too many kinds of stride: one call each
      dart_gptr_t gk = base;
      dart_gptr_incaddr(&gk, std::int64_t(p.at + k * p.stride));
      call(gk, p.data + k * p.len, p.len, DART_TYPE_BYTE);
    }
  }

 private:
  struct Strided {
    std::uint64_t stride, len;
    dart_datatype_t type;
  };
  static constexpr std::size_t kMaxTypes = 16;

  dart_datatype_t strided(std::uint64_t stride, std::uint64_t len) {
    for (const Strided& t : types_)
      if (t.stride == stride && t.len == len) return t.type;
    if (types_.size() == kMaxTypes) return DART_TYPE_UNDEFINED;
    dart_datatype_t type;
    check_io(dart_type_create_strided(DART_TYPE_BYTE, std::size_t(stride), std::size_t(len), &type),
             who_ + ": dart_type_create_strided");
    types_.push_back({stride, len, type});
    return type;
  }
  void call(dart_gptr_t g, char* data, std::uint64_t n, dart_datatype_t remote) {
    if (put_)
      check_io(dart_put(g, data, std::size_t(n), DART_TYPE_BYTE, remote), who_ + ": dart_put");
    else
      check_io(dart_get(data, g, std::size_t(n), remote, DART_TYPE_BYTE), who_ + ": dart_get");
  }

  bool put_;
  std::string who_;
  std::vector<Strided> types_;
};

std::vector<RunSweep> sweeps_of(const Plan& plan, const std::vector<Run>& runs) {
  std::vector<RunSweep> sweeps;
  for (std::size_t i = 0; i < plan.aggregators.size(); ++i)
    sweeps.emplace_back(runs, plan.first[i] * plan.chunk);
  return sweeps;
}

// f(aggregator index, chunk) for the chunks round r moves.
template <class F>
void each_chunk_of_round(const Plan& plan, std::uint64_t r, F&& f) {
  for (std::size_t i = 0; i < plan.aggregators.size(); ++i)
    if (plan.first[i] + r < plan.first[i + 1]) f(i, plan.first[i] + r);
}

// Takes the result of a helper thread's chunk I/O into failure.
void collect(std::future<std::string>& io, dash::internal::Failure& failure) {
  if (!io.valid()) return;
  const std::string error = io.get();
  if (!error.empty()) captured(failure, [&] { dash::internal::throw_runtime_error(error); });
}

}  // namespace

std::uint64_t io_checksum(const void* data, std::size_t n) {
  return dash::internal::checksum64(static_cast<const char*>(data), n);
}

FdCloser::~FdCloser() {
  if (fd >= 0) close(fd);
}

void check_io(dart_ret_t ret, const std::string& what) {
  if (ret != DART_OK) dash::check_dart(ret, what.c_str());
}

int team_myid(dart_team_t team) {
  dart_team_unit_t me;
  check_io(dart_team_myid(team, &me), "dart_team_myid");
  return me.id;
}

std::string write_all(int fd, const char* data, std::uint64_t n, std::uint64_t offset) {
  while (n > 0) {
    const ssize_t w =
        pwrite(fd, data, std::size_t(std::min<std::uint64_t>(n, 1u << 30)), off_t(offset));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return w < 0 ? errno_text(errno) : "no progress";
    data += w, n -= std::uint64_t(w), offset += std::uint64_t(w);
  }
  return {};
}

std::string read_all(int fd, char* data, std::uint64_t n, std::uint64_t offset) {
  while (n > 0) {
    const ssize_t r =
        pread(fd, data, std::size_t(std::min<std::uint64_t>(n, 1u << 30)), off_t(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return errno_text(errno);
    if (r == 0) return "the file ends early (truncated)";
    data += r, n -= std::uint64_t(r), offset += std::uint64_t(r);
  }
  return {};
}

IoReport report_of(const Plan& plan, std::size_t parts) {
  IoReport r;
  r.tier = plan.tier;
  r.aggregators = int(plan.aggregators.size());
  r.chunk_bytes = plan.chunk;
  r.subfiles = int(parts);
  r.aggregator_units = plan.aggregators;
  return r;
}

std::uint64_t Plan::rounds() const {
  std::uint64_t r = 0;
  for (std::size_t i = 0; i + 1 < first.size(); ++i) r = std::max(r, first[i + 1] - first[i]);
  return r;
}

std::uint64_t Plan::chunk_end(std::uint64_t c) const {
  return std::min(data_bytes, (c + 1) * chunk);
}

Plan make_plan(dart_team_t team, std::uint64_t data_bytes, std::uint64_t chunk, int wanted) {
  Plan p;
  p.data_bytes = data_bytes;
  p.chunk = chunk;
  p.nchunks = data_bytes == 0 ? 0 : (data_bytes + chunk - 1) / chunk;
  const int units = unit_count(team);
  if (wanted <= 0) {  // the first unit of every node
    const std::vector<int> node = unit_nodes(team);
    std::vector<char> seen;
    for (int u = 0; u < units; ++u) {
      const std::size_t n = std::size_t(node[std::size_t(u)]);
      if (n >= seen.size()) seen.resize(n + 1, 0);
      if (seen[n]) continue;
      seen[n] = 1;
      p.aggregators.push_back(u);
    }
  } else {
    const int a = std::min(wanted, units);
    for (int i = 0; i < a; ++i) p.aggregators.push_back(int(std::int64_t(i) * units / a));
  }
  const std::uint64_t a = p.aggregators.size();
  for (std::uint64_t i = 0; i <= a; ++i) p.first.push_back(p.nchunks * i / a);
  const int me = team_myid(team);
  for (std::size_t i = 0; i < p.aggregators.size(); ++i)
    if (p.aggregators[i] == me) p.mine = int(i);
  return p;
}

namespace {

// Bytes of run r below file offset x. Local, O(1).
std::uint64_t run_bytes_below(const Run& r, std::uint64_t x) {
  if (x <= r.offset) return 0;
  const std::uint64_t q = x - r.offset;
  if (r.count == 1) return std::min(q, r.len);
  const std::uint64_t full = std::min(r.count, q / r.stride);
  const std::uint64_t rest = full < r.count ? std::min(q - full * r.stride, r.len) : 0;
  return full * r.len + rest;
}

const char* const kTierNames[] = {"dram", "hbm", "shm", "disk"};
constexpr std::size_t kNames = 4;

// A forced tier's figures for the model: only what the buffers need (no
// probe: the network alone places the aggregators).
Tier forced_tier(const std::string& wanted) {
  Tier t = buffer_tier(wanted);
  if (t.bandwidth_Bps <= 0) t.bandwidth_Bps = 1e30, t.capacity = ~std::uint64_t(0);
  return t;
}

// A tier's figures on the way to unit 0 (present 0: the node lacks it).
struct TierRecord {
  double present, latency_s, bandwidth_Bps, capacity, persistent;
};

// The tiers of every unit's node, for the model: each node's first unit
// reads its node's tiers (the tier file or the probe: once per node, not
// per unit) and unit 0 gathers them. On unit 0 result[k][u] is tier
// kTierNames[k] of unit u's node (bandwidth 0 if that node lacks it); empty
// elsewhere. Collective: a gather, and the agreement on a bad tier file.
std::vector<std::vector<Tier>> gather_node_tiers(dart_team_t t, int units, int me,
                                                 const char* who) {
  const std::vector<int> node = unit_nodes(t);
  std::vector<int> first_of_node;
  for (int u = 0; u < units; ++u) {
    const std::size_t n = std::size_t(node[std::size_t(u)]);
    if (n >= first_of_node.size()) first_of_node.resize(n + 1, -1);
    if (first_of_node[n] < 0) first_of_node[n] = u;
  }
  TierRecord mine[kNames] = {};
  dash::internal::Failure failure;
  if (first_of_node[std::size_t(node[std::size_t(me)])] == me)
    captured(failure, [&] {
      for (const Tier& x : node_tiers())
        for (std::size_t k = 0; k < kNames; ++k)
          if (x.name == kTierNames[k])
            mine[k] = {1, x.latency_s, x.bandwidth_Bps, double(x.capacity), x.persistent ? 1. : 0};
    });
  dash::internal::agree(failure, t, who);
  std::vector<TierRecord> all(me == 0 ? kNames * std::size_t(units) : 0);
  check_io(dart_gather(mine, all.data(), 5 * kNames, DART_TYPE_DOUBLE, dart_team_unit_t{0}, t),
           std::string(who) + ": dart_gather");
  std::vector<std::vector<Tier>> out;
  if (me != 0) return out;
  out.assign(kNames, std::vector<Tier>(std::size_t(units)));
  for (int u = 0; u < units; ++u) {
    const int leader = first_of_node[std::size_t(node[std::size_t(u)])];
    for (std::size_t k = 0; k < kNames; ++k) {
      const TierRecord& r = all[std::size_t(leader) * kNames + k];
      Tier& x = out[k][std::size_t(u)];
      x.name = kTierNames[k];
      if (r.present == 0) continue;
      x.latency_s = r.latency_s;
      x.bandwidth_Bps = r.bandwidth_Bps;
      x.capacity = std::uint64_t(r.capacity);
      x.persistent = r.persistent != 0;
    }
  }
  return out;
}

// The path from an aggregator to the file: the disk tier's figures (the
// file system under the node directory), else 1 ms and 1 GB/s.
Link target_link(const std::vector<Tier>& tiers) {
  for (const Tier& t : tiers)
    if (t.name == "disk" && t.bandwidth_Bps > 0) return {t.latency_s, t.bandwidth_Bps};
  return {1e-3, 1e9};
}

}  // namespace

Plan plan_io(Team& team, const std::vector<Run>& runs, std::uint64_t data_bytes,
             std::uint64_t chunk, const IoSettings& settings, const char* who) {
  const dart_team_t t = team.dart_id();
  Plan p = make_plan(t, data_bytes, chunk, settings.aggregators);
  const int units = int(team.size()), me = team_myid(t);
  const std::size_t a = p.aggregators.size();
  // Every unit's bytes in every file domain (p.first), gathered.
  std::vector<std::uint64_t> mine(a, 0), all(me == 0 ? a * std::size_t(units) : 0, 0);
  for (const Run& r : runs)
    for (std::size_t i = 0; i < a; ++i) {
      const std::uint64_t lo = p.first[i] * chunk,
                          hi = std::min(p.first[i + 1] * chunk, data_bytes);
      if (hi > lo) mine[i] += run_bytes_below(r, hi) - run_bytes_below(r, lo);
    }
  if (a > 0)
    check_io(dart_gather(mine.data(), all.data(), a, DART_TYPE_ULONGLONG, dart_team_unit_t{0}, t),
             std::string(who) + ": dart_gather");
  // Unit 0 evaluates (with every node's tiers, or the forced one) and tells the others.
  const bool automatic = settings.tier == "auto";
  const std::vector<std::vector<Tier>> node_figures =
      automatic ? gather_node_tiers(t, units, me, who) : std::vector<std::vector<Tier>>{};
  std::vector<int> choice(a + 1, -1);  // aggregator per domain, then the tier's index
  dash::internal::Failure failure;
  if (me == 0)
    captured(failure, [&] {
      // Per tier name: unit 0's figures and (auto) every unit's.
      std::vector<Tier> tiers;
      std::vector<std::vector<Tier>> per_unit(kNames);
      std::string report;
      for (std::size_t k = 0; k < kNames; ++k) {
        if (!automatic) {
          if (settings.tier == kTierNames[k]) tiers.push_back(forced_tier(settings.tier));
          continue;
        }
        const std::vector<Tier>& figures = node_figures[k];
        const auto lacking = std::find_if(figures.begin(), figures.end(),
                                          [](const Tier& x) { return x.bandwidth_Bps <= 0; });
        if (lacking != figures.end()) {  // every unit holds buffers: every node needs the tier
          report += std::string("tier ") + kTierNames[k] + ": not on the node of unit " +
                    std::to_string(lacking - figures.begin()) + "\n";
          continue;
        }
        tiers.push_back(figures[0]);
        per_unit[k] = figures;
      }
      std::vector<int> global(static_cast<std::size_t>(units));
      for (int u = 0; u < units; ++u) {
        dart_global_unit_t g;
        check_io(dart_team_unit_l2g(t, dart_team_unit_t{u}, &g), "dart_team_unit_l2g");
        global[std::size_t(u)] = g.id;
      }
      PlacementInput in;
      in.units = units;
      in.domains.resize(a);
      for (std::size_t i = 0; i < a; ++i)
        for (int u = 0; u < units; ++u)
          if (const std::uint64_t w = all[std::size_t(u) * a + i]) in.domains[i].push_back({u, w});
      in.target = target_link(tiers);
      in.buffer_bytes = 2 * chunk;
      in.chunk_bytes = chunk;
      in.persistent = settings.persistent;
      in.explain = settings.explain;
      in.network = [&](int x, int y) {
        int rung = 0;
        dart_link_cost_t c{0, 0};
        dart_unit_link_cost(dart_global_unit_t{global[std::size_t(x)]},
                            dart_global_unit_t{global[std::size_t(y)]}, &rung, &c);
        return Link{c.latency_us * 1e-6, c.bandwidth_GBps * 1e9};
      };
      // Per tier a placement; the tier whose slowest aggregator is fastest wins.
      double best_time = -1;
      for (const Tier& tier : tiers) {
        in.tier = tier;
        const std::size_t k =
            std::size_t(std::find(std::begin(kTierNames), std::end(kTierNames), tier.name) -
                        std::begin(kTierNames));
        in.tier_per_unit = per_unit[k];
        const Placement placed = place_aggregators(in);
        report +=
            "tier " + tier.name +
            (placed.possible ? ": slowest aggregator " + std::to_string(placed.slowest_s) + " s\n"
                             : ": cannot be used\n") +
            placed.text;
        // A later tier must be clearly better (10 %): probe noise must not flip the choice.
        if (placed.possible && (best_time < 0 || placed.slowest_s < 0.9 * best_time)) {
          best_time = placed.slowest_s;
          for (std::size_t i = 0; i < a; ++i) choice[i] = placed.units[i];
          choice[a] = int(k);
        }
      }
      if (settings.explain)
        std::printf("%s: cost model (%zu aggregators, chunks of %llu bytes):\n%s", who, a,
                    (unsigned long long)chunk, report.c_str());
      if (choice[a] < 0)
        throw exception::InvalidArgument(
            std::string(who) + ": no memory tier " +
            (settings.persistent ? "that is persistent (DASH_IO_PERSISTENCY) and " : "") +
            "holds the aggregation buffers (" + std::to_string(2 * chunk) + " bytes; tiers " +
            (automatic ? std::string("of the nodes") : "'" + settings.tier + "'") + ")");
    });
  dash::internal::agree(failure, t, who);
  if (!choice.empty())
    check_io(dart_bcast(choice.data(), choice.size(), DART_TYPE_INT, dart_team_unit_t{0}, t),
             std::string(who) + ": dart_bcast");
  for (std::size_t i = 0; i < a; ++i) p.aggregators[i] = choice[i];
  p.mine = -1;
  for (std::size_t i = 0; i < a; ++i)
    if (p.aggregators[i] == me) p.mine = int(i);
  p.tier = a > 0 ? kTierNames[choice[a]] : "dram";
  captured(failure, [&] { buffer_tier(p.tier); });  // every unit needs it
  dash::internal::agree(failure, t, who);
  return p;
}

void sort_and_check(std::vector<Run>& runs, std::uint64_t data_bytes, const char* who) {
  runs.erase(std::remove_if(runs.begin(), runs.end(),
                            [](const Run& r) { return r.len == 0 || r.count == 0; }),
             runs.end());
  std::sort(runs.begin(), runs.end(),
            [](const Run& a, const Run& b) { return a.offset < b.offset; });
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& r = runs[i];
    if (r.offset > data_bytes || r.end() > data_bytes || (r.count > 1 && r.stride < r.len))
      throw exception::InvalidArgument(std::string(who) + ": a piece ends beyond the data (" +
                                       std::to_string(r.end()) + " > " +
                                       std::to_string(data_bytes) + " bytes)");
    // Pieces of single runs (what write_pieces and read_pieces get) must not
    // overlap; runs of several pieces come from patterns, which never do.
    if (i > 0 && runs[i - 1].count == 1 && r.count == 1 && runs[i - 1].end() > r.offset)
      throw exception::InvalidArgument(std::string(who) + ": two pieces overlap at byte " +
                                       std::to_string(r.offset));
  }
}

NewFile::NewFile(const std::string& path, dart_team_t team, std::uint64_t size,
                 const std::vector<std::uint64_t>& bounds, const char* who)
    : path_(path), team_(team), who_(who) {
  me_ = team_myid(team);
  // Unit 0 checks the target and makes the temporary (a name nobody can guess or plant); a
  // random generation names the parts.
  dash::internal::Failure failure;
  std::uint64_t generation = 0;
  if (me_ == 0)
    captured(failure, [&] {
      std::string why = dash::internal::check_save_target(path);
      if (!why.empty()) throw exception::InvalidArgument(std::string(who) + ": " + why);
      generation = dash::internal::random_bits();
      temporary_ = dash::internal::create_temporary(path, why);
      if (temporary_.empty()) dash::internal::throw_runtime_error(std::string(who) + ": " + why);
      if (bounds.size() > 2) {  // parts of saves killed on the way go, those of the file stay
        std::vector<std::string> keep;
        for (const FilePart& p : table_parts(path))
          keep.push_back(dash::internal::file_name(p.path));
        dash::internal::remove_stale_parts(path, keep);
      }
    });
  dash::internal::agree(failure, team, who);
  std::uint64_t sizes[2] = {generation, temporary_.size()};
  check_io(dart_bcast(sizes, 2, DART_TYPE_ULONGLONG, dart_team_unit_t{0}, team),
           std::string(who) + ": dart_bcast");
  temporary_.resize(std::size_t(sizes[1]));
  check_io(dart_bcast(&temporary_[0], temporary_.size(), DART_TYPE_BYTE, dart_team_unit_t{0}, team),
           std::string(who) + ": dart_bcast");
  generation_ = sizes[0];
  parted_ = bounds.size() > 2;
  if (parted_)
    data_.reset(new_parts(dash::internal::parts_stem(temporary_, path), bounds),
                O_WRONLY | O_CREAT);
  else
    data_.reset({FilePart{0, size, temporary_}}, O_WRONLY);
}

NewFile::~NewFile() {
  data_.close_all();
  if (me_ != 0 || committed_) return;
  std::remove(temporary_.c_str());
  if (parted_)
    for (const FilePart& p : data_.parts()) std::remove(p.path.c_str());
}

void NewFile::commit(dash::internal::Failure& failure, const std::vector<char>& head,
                     const std::vector<char>& tail, std::uint64_t tail_at) {
  const std::string w(who_);
  if (me_ != 0 && !failure.any())
    captured(failure, [&] {
      const std::string error = data_.sync();
      if (!error.empty()) dash::internal::throw_runtime_error(w + ": " + error);
    });
  dash::internal::agree(failure, team_, who_);
  if (me_ == 0)
    captured(failure, [&] {
      std::string error = data_.write(head.data(), head.size(), 0);
      if (error.empty()) error = data_.write(tail.data(), tail.size(), tail_at);
      if (error.empty()) error = data_.sync();
      data_.close_all();
      if (!error.empty())
        dash::internal::throw_runtime_error(w + ": writing '" + temporary_ + "' failed: " + error);
      if (parted_) {  // the table, under the temporary name
        const std::string table = subfile_table(data_.parts());
        int fd = open(temporary_.c_str(), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
        FdCloser closer{fd};
        error = fd < 0 ? errno_text(errno) : write_all(fd, table.data(), table.size(), 0);
        if (error.empty() && fsync(fd) != 0) error = errno_text(errno);
        if (!error.empty())
          dash::internal::throw_runtime_error(w + ": writing '" + temporary_ +
                                              "' failed: " + error);
      }
      const std::vector<FilePart> old = table_parts(path_);
      error = dash::internal::commit_temporary(temporary_, path_);
      if (!error.empty()) dash::internal::throw_runtime_error(w + ": " + error);
      committed_ = true;
      for (const FilePart& p : old) std::remove(p.path.c_str());
    });
  dash::internal::agree(failure, team_, who_);
}

std::vector<std::uint64_t> subfile_bounds(const Plan& plan, int subfiles, std::uint64_t data_offset,
                                          std::uint64_t size) {
  std::vector<std::uint64_t> bounds = {0};
  const std::uint64_t a = plan.aggregators.size();
  for (std::uint64_t s = 1; s < std::uint64_t(std::max(subfiles, 1)) && a > 0; ++s) {
    const std::uint64_t at = data_offset + plan.first[std::size_t(s * a / subfiles)] * plan.chunk;
    if (at > bounds.back() && at < size) bounds.push_back(at);
  }
  bounds.push_back(size);
  return bounds;
}

int subfile_count(dart_team_t team, const Plan& plan, int subfiling) {
  if (subfiling <= 0 || plan.nchunks == 0) return 1;
  std::vector<int> nodes = unit_nodes(team);
  std::sort(nodes.begin(), nodes.end());
  const int n = int(std::unique(nodes.begin(), nodes.end()) - nodes.begin());
  return std::max(1, std::min((n + subfiling - 1) / subfiling, int(plan.aggregators.size())));
}

namespace {

// A barrier that waits for other units' writes: it sleeps between polls, since a unit that
// spins there (MPICH, or DART_WAIT=spin) takes a core from the kernel work of the units still
// writing; writes take milliseconds, so the sleeps cost nothing. Collective.
void io_barrier(dart_team_t team, const std::string& who) {
  dart_handle_t barrier = DART_HANDLE_NULL;
  check_io(dart_ibarrier(team, &barrier), who + ": dart_ibarrier");
  for (;;) {
    std::int32_t done = 0;
    check_io(dart_test(&barrier, &done), who + ": dart_test");
    if (done) return;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

}  // namespace

void write_rounds(Team& t, const Plan& plan, PartedFile& file, const std::string& path,
                  std::uint64_t data_offset, const std::vector<Run>& runs, bool zero_gaps,
                  std::vector<std::uint64_t>* sums, dash::internal::Failure& failure,
                  const char* who) {
  if (plan.nchunks == 0) return;
  const dart_team_t team = t.dart_id();
  const std::string w(who);
  const std::uint64_t fail_at = test_fail_write(), chunk = plan.chunk;
  Buffers buffers(t, plan.tier, chunk, who);
  std::vector<RunSweep> sweeps = sweeps_of(plan, runs);
  std::future<std::string> writing;
  std::uint64_t writes = 0;
  const std::uint64_t rounds = plan.rounds();
  if (zero_gaps) {  // both buffers start zero; each is cleared again once written
    std::memset(buffers.local, 0, std::size_t(2 * chunk));
    check_io(dart_barrier(team), w + ": dart_barrier");
  }
  std::vector<Part> own;  // the aggregator's own parts of its chunk (reused)
  own.reserve(16);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    const int which = int(r % 2);
    const char* direct = nullptr;  // the own chunk when it is one piece of the caller's memory
    captured(failure, [&] {
      Mover mover(true, w);
      each_chunk_of_round(plan, r, [&](std::size_t i, std::uint64_t c) {
        const dart_gptr_t base = buffers.at(plan.aggregators[i], which, 0);
        if (int(i) != plan.mine) {
          sweeps[i].each_in(c * chunk, plan.chunk_end(c),
                            [&](const Part& p) { mover.move(base, p); });
          return;
        }
        // A chunk all of which is one piece of the aggregator's own memory (so
        // nobody else has bytes in it) is written from there: no copy into the buffer.
        own.clear();
        sweeps[i].each_in(c * chunk, plan.chunk_end(c), [&](const Part& p) { own.push_back(p); });
        if (own.size() == 1 && own[0].count == 1 && own[0].at == 0 &&
            own[0].len == plan.chunk_end(c) - c * chunk)
          direct = own[0].data;
        else
          for (const Part& p : own) mover.move(base, p);
      });
      check_io(dart_flush_all(buffers.gptr), w + ": dart_flush_all");
    });
    collect(writing, failure);  // the other buffer is free for round r + 1 after the barrier
    io_barrier(team, w);
    if (plan.mine < 0 || failure.any()) continue;
    const std::uint64_t c = plan.first[std::size_t(plan.mine)] + r;
    if (c >= plan.first[std::size_t(plan.mine) + 1]) continue;
    const char* data = direct ? direct : buffers.local + std::uint64_t(which) * chunk;
    const std::uint64_t n = plan.chunk_end(c) - c * chunk;
    const bool inject = fail_at > 0 && ++writes == fail_at;
    writing = std::async(std::launch::async, [&, data, n, c, inject, direct] {
      if (sums) (*sums)[std::size_t(c)] = io_checksum(data, std::size_t(n));
      const std::uint64_t at = data_offset + c * chunk;
      std::string error =
          inject ? errno_text(ENOSPC) + " (DASH_IO_TEST_FAIL_WRITE)" : file.write(data, n, at);
      if (zero_gaps && !direct) std::memset(const_cast<char*>(data), 0, std::size_t(n));
      return error.empty() ? error
                           : w + ": writing '" + path + "' at byte " + std::to_string(at) +
                                 " failed: " + error;
    });
  }
  collect(writing, failure);
  io_barrier(team, w);  // nobody uses the buffers any more
}

bool writes_directly(dart_team_t team, const std::vector<Run>& runs, std::uint64_t chunk,
                     const IoSettings& settings, const char* who) {
  if (settings.aggregation == "on") return false;
  if (settings.aggregation == "off") {
    dash::internal::Failure failure;
    if (settings.subfiling > 0 || settings.burst_buffer)
      captured(failure, [&] {
        throw exception::InvalidArgument(
            std::string(who) +
            ": writes without aggregation (DASH_IO_AGGREGATION=off) go to one file "
            "directly: not with subfiling or the burst buffer");
      });
    dash::internal::agree(failure, team, who);
    return true;
  }
  if (settings.aggregators > 0 || settings.tier != "auto" || settings.persistent ||
      settings.subfiling > 0 || settings.burst_buffer)
    return false;
  // Whether units share a node does not matter: two units of one node writing their own
  // pieces beat one aggregator writing both (measured: bench/results/collective_io.md).
  int mine = 1, all = 0;  // every run of this unit one piece of at least a chunk
  for (const Run& r : runs)
    if (r.count != 1 || r.len < chunk) mine = 0;
  check_io(dart_allreduce(&mine, &all, 1, DART_TYPE_INT, DART_OP_MIN, team),
           std::string(who) + ": dart_allreduce");
  if (all == 1 && settings.explain && team_myid(team) == 0)
    std::printf(
        "%s: no aggregation: every unit's pieces are contiguous runs of at least a chunk "
        "(%llu bytes), each unit writes its own (DASH_IO_AGGREGATION=on aggregates)\n",
        who, (unsigned long long)chunk);
  return all == 1;
}

Plan direct_plan(dart_team_t team, std::uint64_t data_bytes, std::uint64_t chunk) {
  Plan p = make_plan(team, data_bytes, chunk, 1);
  p.aggregators.clear();
  p.first = {0};
  p.mine = -1;
  p.tier = "none";
  return p;
}

void direct_writes(Team& t, const Plan& plan, PartedFile& file, const std::string& path,
                   std::uint64_t data_offset, const std::vector<Run>& runs,
                   std::vector<std::uint64_t>* sums, dash::internal::Failure& failure,
                   const char* who) {
  const dart_team_t team = t.dart_id();
  const std::string w(who);
  const std::uint64_t fail_at = test_fail_write(), chunk = plan.chunk;
  std::uint64_t writes = 0;
  std::vector<int> contained(sums ? std::size_t(plan.nchunks) : 0, 0);
  captured(failure, [&] {
    for (const Run& r : runs)
      for (std::uint64_t k = 0; k < r.count; ++k) {
        const std::uint64_t at = data_offset + r.offset + k * r.stride;
        const std::string error = fail_at > 0 && ++writes == fail_at
                                      ? errno_text(ENOSPC) + " (DASH_IO_TEST_FAIL_WRITE)"
                                      : file.write(r.data + k * r.len, r.len, at);
        if (!error.empty())
          dash::internal::throw_runtime_error(w + ": writing '" + path + "' at byte " +
                                              std::to_string(at) + " failed: " + error);
      }
    if (!sums) return;
    for (const Run& r : runs) {  // the chunks inside one single run: from memory
      if (r.count != 1) continue;
      for (std::uint64_t c = (r.offset + chunk - 1) / chunk;
           c < plan.nchunks && plan.chunk_end(c) <= r.offset + r.len; ++c) {
        (*sums)[std::size_t(c)] = io_checksum(r.data + (c * chunk - r.offset),
                                              std::size_t(plan.chunk_end(c) - c * chunk));
        contained[std::size_t(c)] = 1;
      }
    }
  });
  // Each unit syncs its own writes while the others still write (the commit's sync then
  // finds nothing left to do), then waits for them without spinning.
  if (!failure.own())
    captured(failure, [&] {
      const std::string error = file.sync();
      if (!error.empty()) dash::internal::throw_runtime_error(w + ": " + error);
    });
  io_barrier(team, w);  // every piece written and synced
  const int me = team_myid(team);
  if (me == 0)
    captured(failure, [&] {
      const std::string error = file.extend_all();
      if (!error.empty()) dash::internal::throw_runtime_error(w + ": '" + path + "': " + error);
    });
  if (!sums) return;
  std::vector<int> any(contained.size(), 0);
  if (!contained.empty())
    check_io(dart_allreduce(contained.data(), any.data(), contained.size(), DART_TYPE_INT,
                            DART_OP_MAX, team),
             w + ": dart_allreduce");
  check_io(dart_barrier(team), w + ": dart_barrier");  // the parts at full size
  // The other chunks (across units' pieces or gaps): read back, by unit c % units.
  const int units = unit_count(team);
  PartedFile back(file.parts(), O_RDONLY);
  std::vector<char> buffer;
  captured(failure, [&] {
    for (std::uint64_t c = std::uint64_t(me); c < plan.nchunks; c += std::uint64_t(units)) {
      if (any[std::size_t(c)]) continue;
      const std::uint64_t n = plan.chunk_end(c) - c * chunk;
      buffer.resize(std::size_t(n));
      const std::string error = back.read(buffer.data(), n, data_offset + c * chunk);
      if (!error.empty())
        dash::internal::throw_runtime_error(w + ": reading back '" + path + "': " + error);
      (*sums)[std::size_t(c)] = io_checksum(buffer.data(), buffer.size());
    }
  });
}

void read_rounds(Team& t, const Plan& plan, PartedFile& file, const std::string& path,
                 std::uint64_t data_offset, const std::vector<Run>& runs,
                 const std::vector<std::uint64_t>* sums, dash::internal::Failure& failure,
                 const char* who) {
  if (plan.nchunks == 0) return;
  const dart_team_t team = t.dart_id();
  const std::string w(who);
  const std::uint64_t chunk = plan.chunk;
  // The chunks some unit reads from (a run marks every chunk from its first to its last byte):
  // the others are neither read nor checked, so a read of a few records costs their chunks.
  std::vector<unsigned char> wanted(std::size_t(plan.nchunks), 0), needed(wanted.size(), 0);
  for (const Run& r : runs)
    if (r.len > 0)
      for (std::uint64_t c = r.offset / chunk; c <= (r.end() - 1) / chunk && c < plan.nchunks; ++c)
        wanted[std::size_t(c)] = 1;
  check_io(dart_allreduce(wanted.data(), needed.data(), wanted.size(), DART_TYPE_BYTE, DART_OP_BOR,
                          team),
           w + ": dart_allreduce");
  Buffers buffers(t, plan.tier, chunk, who);
  std::vector<RunSweep> sweeps = sweeps_of(plan, runs);
  const std::uint64_t rounds = plan.rounds();
  // An aggregator reads its chunk of round r into buffer r % 2 and checks it.
  auto start_read = [&](std::uint64_t r) -> std::future<std::string> {
    if (plan.mine < 0) return {};
    const std::uint64_t c = plan.first[std::size_t(plan.mine)] + r;
    if (c >= plan.first[std::size_t(plan.mine) + 1] || !needed[std::size_t(c)]) return {};
    char* data = buffers.local + (r % 2) * chunk;
    const std::uint64_t n = plan.chunk_end(c) - c * chunk;
    return std::async(std::launch::async, [&, data, n, c] {
      const std::uint64_t at = data_offset + c * chunk;
      std::string error = file.read(data, n, at);
      if (error.empty() && sums && io_checksum(data, std::size_t(n)) != (*sums)[std::size_t(c)])
        error = "checksum mismatch (the file was changed or damaged)";
      return error.empty() ? error
                           : w + ": '" + path + "', bytes " + std::to_string(at) + " to " +
                                 std::to_string(at + n) + ": " + error;
    });
  };
  std::future<std::string> reading = start_read(0);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    collect(reading, failure);
    check_io(dart_barrier(team), w + ": dart_barrier");
    if (r + 1 < rounds) reading = start_read(r + 1);
    const int which = int(r % 2);
    captured(failure, [&] {
      Mover mover(false, w);
      each_chunk_of_round(plan, r, [&](std::size_t i, std::uint64_t c) {
        const dart_gptr_t base = buffers.at(plan.aggregators[i], which, 0);
        sweeps[i].each_in(c * chunk, plan.chunk_end(c),
                          [&](const Part& p) { mover.move(base, p); });
      });
      check_io(dart_flush_all(buffers.gptr), w + ": dart_flush_all");
    });
  }
  collect(reading, failure);
  check_io(dart_barrier(team), w + ": dart_barrier");  // every get done before the buffers go
}

}  // namespace internal
}  // namespace io
}  // namespace dash
