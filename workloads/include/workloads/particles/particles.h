// Shared workload (workloads/particles/particles.h): the kernel of examples/particles, also
// measured by bench/blocks/particles.cc. Particle tracing over the unit cube cut into
// blocks, moved between blocks either by rounds of exchange() or by one
// iexchange(): the synthetic experiment of the IExchange paper (Morozov et
// al., LDAV 2021), small enough for one machine.
//
// What is computed:
//   domain     [0, 1)^3, cut by dash::bp::RegularDecomposer<3> into
//              blocks_per_unit x units blocks (x_divisions of them along x
//              when given), dealt to the units contiguously (unit u holds a
//              run of gids; gids are row-major with z fastest, so a unit
//              holds whole x-layers of the block grid when the blocks of a
//              layer divide blocks_per_unit) or round-robin; each linked to
//              the blocks sharing one of its faces.
//   flow       a steady ABC-like field with a mean flow along +x:
//                v = (1 + A (sin 2 pi z + cos 2 pi y),
//                         A (sin 2 pi x + cos 2 pi z),
//                         A (sin 2 pi y + cos 2 pi x)),  A = 0.3
//              so vx >= 0.4 and particles also drift across y and z faces.
//   seeds      an S x S x S lattice, point (i, j, k) at
//                volume:  ((i + 1/2) / S, (j + 1/2) / S, (k + 1/2) / S),
//                         over the whole domain;
//                inflow:  ((i + 1/2) / S * D, (j + 1/2) / S, (k + 1/2) / S),
//                         D = kInflowDepth: a thin slab at the inflow face
//                         x = 0, so the particles travel as a front through
//                         every x-layer of blocks;
//              id (i S + j) S + k; each block seeds the points inside it
//              (so the particles do not depend on the decomposition).
//   tracing    classic RK4 with a fixed step h. A particle is traced by the
//              block containing its position; it retires when it leaves the
//              domain or has taken max_steps steps. A particle that steps
//              into another block is enqueued to the face neighbour on the
//              way there (one block per hop, dimension by dimension).
//   imbalance  blocks on the diagonal of the block grid (those the segment
//              (t, t, t), t in [0, 1), passes through) compute every step
//              slow_ratio times; the result is the same.
//   result     retired particles and checksum = sum mod 2^64 of
//              hash(id, steps, bits of x, y, z) over the final states: the
//              same for either protocol, any block, unit or thread count,
//              assignment or x-divisions (not for the other seeding).
//
// Why inflow: with volume seeding every unit has work in every round, about
// the same share each round, so the rounds of exchange cost little beyond
// the busiest unit's total and no protocol can gain much. With inflow
// seeding the work is a front moving along +x, and a round of exchange
// cannot end before the front's slowest block has finished it:
//   contiguous   the front sits mostly on one unit per round, so exchange
//                keeps about one core busy (with one block per x-layer,
//                --x-divisions = block count, exactly one); iexchange with
//                chunk > 0 sends leavers while the block is still busy, so
//                the units downstream work on the front at the same time
//                (a pipeline). With chunk 0 a block sends nothing before
//                all its particles have left it, and a unit whose blocks
//                form a chain passes the front on only at its end.
//   round-robin  every unit holds part of each x-layer, so all units work
//                in every round, and a round lasts as long as the unit with
//                the front's slow block. With a core per unit that is the
//                critical path iexchange removes; with fewer cores than
//                units the rounds are mostly bound by total / cores anyway.
// The bounds (below) say how much any protocol could gain for each case.
//
// Protocols (pseudocode):
//   exchange:  repeat { foreach block: dequeue arrivals, advect all, enqueue
//                       leavers;
//                       if allreduce(any block enqueued) == 0: stop;
//                       exchange() }
//   iexchange: iexchange(block: dequeue arrivals, advect up to `chunk`
//                        particles (all if 0), enqueue leavers;
//                        return nothing left to advect)
//
// Bounds: which unit computes a step does not depend on the protocol, so
// neither does a unit's advection CPU time. No protocol finishes before
// max(busiest unit, total / cores); exchange, whose rounds do not overlap,
// not before the sum over rounds of that bound per round. Their quotient is
// the most iexchange can gain (Result::bound_any, bound_exchange).
#ifndef WORKLOADS__PARTICLES__PARTICLES_H_
#define WORKLOADS__PARTICLES__PARTICLES_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <dash/bp/SaveLoad.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace particles {

// Cells per axis of the integer domain given to the decomposer; a position
// x lies in cell floor(x * kCellsPerAxis) (exact: a power of two).
constexpr long kCellsPerAxis = 1L << 20;
// Width along x of the slab the inflow seeding fills (see the top of this
// file): within the first x-layer of blocks for up to 64 x-divisions.
constexpr double kInflowDepth = 1.0 / 64;
// Amplitude of the field's swirl (see the top of this file).
constexpr double kSwirl = 0.3;
constexpr double kTwoPi = 6.283185307179586;

// One particle's state: what moves between blocks.
struct Particle {
  std::int64_t id;
  double x[3];
  std::int32_t steps;
  std::int32_t unused = 0;  // padding, kept zero
};

// Where the particles start (see the top of this file).
enum class Seeding { volume, inflow };

inline const char* name(Seeding s) { return s == Seeding::volume ? "volume" : "inflow"; }

inline const char* name(dash::bp::Assignment a) {
  return a == dash::bp::Assignment::contiguous ? "contiguous" : "round-robin";
}

// The run's parameters (the same on every unit).
struct Config {
  int seeds = 48;           // lattice points per axis: seeds^3 particles
  int max_steps = 2000;     // a particle retires after this many steps
  double step_size = 0.01;  // h of RK4
  int slow_ratio = 10;      // cost of a step in a diagonal block, in steps
  int chunk = 0;            // iexchange: particles per callback (0: all)
  Seeding seeding = Seeding::volume;
  dash::bp::Assignment assignment = dash::bp::Assignment::contiguous;
  int x_divisions = 0;  // blocks along x, dividing the block count (0: the
                        // decomposer chooses)
};

enum class Protocol { exchange, iexchange };

inline const char* name(Protocol p) { return p == Protocol::exchange ? "exchange" : "iexchange"; }

// The whole run, reduced over all units.
struct Result {
  double seconds = 0;          // wall time of the protocol, slowest unit
  std::int64_t retired = 0;    // particles retired
  std::uint64_t checksum = 0;  // see the top of this file
  std::int64_t steps = 0;      // RK4 steps taken (each counted once)
  std::int64_t handoffs = 0;   // particles enqueued to another block
  int rounds = 0;              // exchange: foreach + exchange rounds
  bool saved = false;          // stopped after the checkpoint's rounds, blocks saved
  // CPU seconds spent advecting (callbacks), and what they imply for the
  // wall time on `cores` cores when every unit keeps its blocks:
  double cpu_total = 0;         // all units
  double cpu_busiest_unit = 0;  // the unit that advected longest
  int cores = 1;                // online cores of unit 0's node
  double bound_any = 0;         // max(busiest unit, total / cores): no
                                // protocol finishes sooner
  double bound_exchange = 0;    // exchange: the sum over rounds of
                                // max(busiest unit, round total / cores)
  double cpu_other = 0;         // CPU seconds of all units besides
                                // advecting: messages, waiting (if it spins)
};

// The field at p.
inline void velocity(const double p[3], double v[3]) {
  const double sx = std::sin(kTwoPi * p[0]), cx = std::cos(kTwoPi * p[0]);
  const double sy = std::sin(kTwoPi * p[1]), cy = std::cos(kTwoPi * p[1]);
  const double sz = std::sin(kTwoPi * p[2]), cz = std::cos(kTwoPi * p[2]);
  v[0] = 1.0 + kSwirl * (sz + cy);
  v[1] = kSwirl * (sx + cz);
  v[2] = kSwirl * (sy + cx);
}

// One classic RK4 step of size h from in to out.
inline void rk4_step(const double in[3], double h, double out[3]) {
  double k1[3], k2[3], k3[3], k4[3], p[3];
  velocity(in, k1);
  for (int d = 0; d < 3; ++d) p[d] = in[d] + 0.5 * h * k1[d];
  velocity(p, k2);
  for (int d = 0; d < 3; ++d) p[d] = in[d] + 0.5 * h * k2[d];
  velocity(p, k3);
  for (int d = 0; d < 3; ++d) p[d] = in[d] + h * k3[d];
  velocity(p, k4);
  for (int d = 0; d < 3; ++d)
    out[d] = in[d] + h / 6.0 * (k1[d] + 2.0 * k2[d] + 2.0 * k3[d] + k4[d]);
}

// Advances q by one step, computed `repeats` times (the same result each
// time; the compiler may not fold the repetitions).
inline void step(Particle& q, double h, int repeats) {
  double in[3], out[3];
  for (int r = 0; r < repeats; ++r) {
    std::memcpy(in, q.x, sizeof in);
    asm volatile("" : : "g"(in) : "memory");  // in may have changed
    rk4_step(in, h, out);
    asm volatile("" : : "g"(out) : "memory");  // out is used
  }
  std::memcpy(q.x, out, sizeof out);
  ++q.steps;
}

// A 64-bit mix (the splitmix64 finaliser).
inline std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A particle's contribution to the checksum.
inline std::uint64_t particle_hash(const Particle& q) {
  std::uint64_t h = mix(std::uint64_t(q.id) * 0x9e3779b97f4a7c15ull + std::uint64_t(q.steps));
  for (double c : q.x) {
    std::uint64_t bits;
    std::memcpy(&bits, &c, sizeof bits);
    h = mix(h ^ bits);
  }
  return h;
}

// CPU seconds of the calling thread.
inline double thread_cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// CPU seconds of the calling process (all its threads).
inline double process_cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// A block of the domain: its place, the particles it has to advect, and
// what it has counted.
struct Block {
  int gid = 0;
  std::array<int, 3> coords{};
  bool slow = false;           // on the diagonal
  std::vector<Particle> work;  // particles to advect
  std::uint64_t checksum = 0;  // of the particles retired here
  std::int64_t retired = 0;
  std::int64_t steps = 0;
  std::int64_t handoffs = 0;        // particles enqueued to a neighbour
  std::int64_t round_handoffs = 0;  // exchange: in the current round
  double cpu_seconds = 0;           // advecting (all rounds)
  double round_cpu_seconds = 0;     // exchange: in the current round
};

}  // namespace particles

// Blocks can be evicted under a memory-block limit (--mem-blocks, DASH_OOC_MEM_BLOCKS).
template <>
struct dash::bp::Serialization<particles::Block> {
  static void save(MemoryBuffer& buf, const particles::Block& b) {
    dash::bp::save(
        buf, std::make_tuple(b.gid, b.coords, b.slow, b.work, b.checksum, b.retired, b.steps,
                             b.handoffs, b.round_handoffs, b.cpu_seconds, b.round_cpu_seconds));
  }
  static void load(MemoryBuffer& buf, particles::Block& b) {
    auto members = std::tie(b.gid, b.coords, b.slow, b.work, b.checksum, b.retired, b.steps,
                            b.handoffs, b.round_handoffs, b.cpu_seconds, b.round_cpu_seconds);
    dash::bp::load(buf, members);
  }
};

namespace particles {

// The blocks of the calling unit in a dash::bp::Master, and the two ways of
// tracing their particles.
class Tracer {
 public:
  using Master = dash::bp::Master<Block>;

  // Builds the decomposition and this unit's blocks (without particles).
  // Collective over `team` only in that every unit must build the same.
  // Throws dash::exception::InvalidArgument for a bad configuration, also
  // when config.x_divisions does not divide the block count.
  // With add_blocks false the master stays empty, for a restart (restart()).
  Tracer(int blocks_per_unit, const Config& config, dash::Team& team = dash::Team::All(),
         bool add_blocks = true)
      : config_(checked(config)),
        team_(&team),
        decomposer_(dash::bp::Box<3>{{0, 0, 0}, {kCellsPerAxis, kCellsPerAxis, kCellsPerAxis}},
                    blocks_per_unit * int(team.size()), {}, {config.x_divisions, 0, 0}),
        master_(blocks_per_unit * int(team.size()), config.assignment, team) {
    const int nblocks = decomposer_.nblocks();
    const int me = int(team.myid().id);
    if (!add_blocks) return;
    for (int gid : dash::bp::local_gids(me, nblocks, int(team.size()), config.assignment)) {
      auto b = std::make_unique<Block>();
      b->gid = gid;
      b->coords = decomposer_.coords(gid);
      b->slow = on_diagonal(decomposer_.bounds(gid));
      master_.add(gid, std::move(b), decomposer_.neighbors(gid));
    }
  }

  Master& master() { return master_; }
  const dash::bp::RegularDecomposer<3>& decomposer() const { return decomposer_; }
  const Config& config() const { return config_; }
  // Runs the blocks' callbacks on n threads. Local.
  void threads(int n) { master_.threads(n); }
  // run() with the exchange protocol stops after `rounds` exchange rounds
  // (or at the end, if it comes first) and saves every block with its
  // queues to `path` (dash::bp::save). Local.
  void checkpoint(int rounds, std::string path) {
    stop_after_ = rounds;
    save_path_ = std::move(path);
  }
  // Loads the blocks saved at `path` (the tracer was built without blocks);
  // run() then starts from them instead of seeding. Collective; a failure
  // throws on every unit (dash::bp::load).
  void restart(const std::string& path) {
    dash::bp::load(master_, path);
    restarted_ = true;
  }

  // Gives every block of this unit its seeds and zeroes its counters. Local.
  void seed() {
    const int s = config_.seeds;
    for (std::size_t i = 0; i < master_.size(); ++i) {
      Block& b = master_.block(i);
      b.work.clear();
      b.checksum = 0;
      b.retired = b.steps = b.handoffs = b.round_handoffs = 0;
      b.cpu_seconds = b.round_cpu_seconds = 0;
      // Lattice point i lies at (i + 1/2) / s * extent[d] along axis d.
      const double extent[3] = {config_.seeding == Seeding::inflow ? kInflowDepth : 1.0, 1.0, 1.0};
      // Only the lattice rows that can fall into the block are visited.
      const dash::bp::Box<3> box = decomposer_.bounds(b.gid);
      std::array<int, 3> lo, hi;
      for (int d = 0; d < 3; ++d) {
        const double rows_per_cell = s / (extent[d] * double(kCellsPerAxis));
        lo[d] = int(std::max(0.0, std::min(double(s), double(box.min[d]) * rows_per_cell - 1)));
        hi[d] = int(std::max(0.0, std::min(double(s), double(box.max[d]) * rows_per_cell + 1)));
      }
      for (int i0 = lo[0]; i0 < hi[0]; ++i0)
        for (int i1 = lo[1]; i1 < hi[1]; ++i1)
          for (int i2 = lo[2]; i2 < hi[2]; ++i2) {
            Particle q{};
            q.id = (std::int64_t(i0) * s + i1) * s + i2;
            q.x[0] = (i0 + 0.5) / s * extent[0];
            q.x[1] = (i1 + 0.5) / s * extent[1];
            q.x[2] = (i2 + 0.5) / s * extent[2];
            if (block_of(q.x) == b.gid) b.work.push_back(q);
          }
    }
  }

  // Traces every particle by rounds of foreach and exchange(); returns the
  // number of rounds. Collective.
  int run_exchange() {
    round_cpu_.clear();
    for (;;) {
      master_.foreach ([this](Block& b, dash::bp::Proxy& p) {
        const double start = thread_cpu_seconds();
        b.round_handoffs = 0;
        receive(b, p);
        advect(b, p, b.work.size());
        b.round_cpu_seconds = thread_cpu_seconds() - start;
        b.cpu_seconds += b.round_cpu_seconds;
      });
      int enqueued = 0, any_enqueued = 0;
      double cpu = 0;
      for (std::size_t i = 0; i < master_.size(); ++i) {
        if (master_.block(i).round_handoffs > 0) enqueued = 1;
        cpu += master_.block(i).round_cpu_seconds;
      }
      round_cpu_.push_back(cpu);
      any_enqueued = team_->allreduce(enqueued, dash::max<int>());
      if (any_enqueued == 0) {
        if (stop_after_ > 0) save();  // finished before the checkpoint: save the end
        return int(round_cpu_.size());
      }
      master_.exchange();
      if (stop_after_ > 0 && int(round_cpu_.size()) == stop_after_) {
        save();
        return int(round_cpu_.size());
      }
    }
  }

  // Saves every block with its queues to the checkpoint's path. Collective.
  void save() {
    dash::bp::save(master_, save_path_);
    saved_ = true;
  }

  // Traces every particle with one iexchange(). Collective.
  void run_iexchange() {
    round_cpu_.clear();
    const std::size_t chunk = config_.chunk > 0 ? std::size_t(config_.chunk) : ~std::size_t(0);
    master_.iexchange([this, chunk](Block& b, dash::bp::Proxy& p) {
      const double start = thread_cpu_seconds();
      receive(b, p);
      advect(b, p, chunk);
      b.cpu_seconds += thread_cpu_seconds() - start;
      return b.work.empty();
    });
  }

  // Seeds, then traces with `protocol` between two barriers, and reduces the
  // counts over all units. Collective.
  Result run(Protocol protocol) {
    if (!restarted_) seed();
    team_->barrier();
    Result r;
    const double cpu_start = process_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    if (protocol == Protocol::exchange) {
      r.rounds = run_exchange();
    } else {
      run_iexchange();
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    reduce(r, process_cpu_seconds() - cpu_start);
    r.saved = saved_;
    return r;
  }

  // Fills r's counts from every unit's blocks, r.seconds with the slowest
  // unit's and r.cpu_other from process_cpu, the calling unit's CPU
  // seconds during the run (0: not measured). Collective.
  void reduce(Result& r, double process_cpu = 0) {
    std::int64_t counts[3] = {0, 0, 0};
    std::uint64_t checksum = 0, checksum_sum = 0;
    double cpu = 0;
    for (std::size_t i = 0; i < master_.size(); ++i) {
      const Block& b = master_.block(i);
      counts[0] += b.retired;
      counts[1] += b.steps;
      counts[2] += b.handoffs;
      checksum += b.checksum;
      cpu += b.cpu_seconds;
    }
    const std::vector<std::int64_t> count_sums =
        team_->allreduce(std::vector<std::int64_t>(counts, counts + 3), dash::plus<std::int64_t>());
    checksum_sum = team_->allreduce(checksum, dash::plus<std::uint64_t>());
    const std::vector<double> max_all =
        team_->allreduce(std::vector<double>{r.seconds, cpu}, dash::max<double>());
    const std::vector<double> sum_all = team_->allreduce(
        std::vector<double>{cpu, process_cpu > 0 ? process_cpu - cpu : 0}, dash::plus<double>());
    r.cpu_total = sum_all[0];
    r.cpu_other = sum_all[1];
    r.retired = count_sums[0];
    r.steps = count_sums[1];
    r.handoffs = count_sums[2];
    r.checksum = checksum_sum;
    r.seconds = max_all[0];
    r.cpu_busiest_unit = max_all[1];
    r.cores = int(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
    team_->bcast(r.cores);
    r.bound_any = std::max(r.cpu_busiest_unit, r.cpu_total / r.cores);
    // Exchange: rounds do not overlap, so each costs at least its busiest
    // unit's time and its total over the cores.
    const std::size_t rounds = round_cpu_.size();  // the same on every unit
    r.bound_exchange = 0;
    if (rounds == 0) return;
    const std::vector<double> round_max = team_->allreduce(round_cpu_, dash::max<double>());
    const std::vector<double> round_sum = team_->allreduce(round_cpu_, dash::plus<double>());
    for (std::size_t i = 0; i < rounds; ++i)
      r.bound_exchange += std::max(round_max[i], round_sum[i] / r.cores);
  }

  // The block containing position x, or -1 outside the domain. Local.
  int block_of(const double x[3]) const {
    std::array<int, 3> c;
    for (int d = 0; d < 3; ++d) {
      if (!(x[d] >= 0.0 && x[d] < 1.0)) return -1;
      const long cell = long(std::floor(x[d] * double(kCellsPerAxis)));
      const int parts = decomposer_.divisions()[d];
      // First guess, then the decomposer's own cuts decide.
      int i = int(cell * parts / kCellsPerAxis);
      while (i + 1 < parts && cut(d, i + 1) <= cell) ++i;
      while (i > 0 && cut(d, i) > cell) --i;
      c[d] = i;
    }
    return decomposer_.gid(c);
  }

 private:
  // config, or an exception naming what is wrong with it.
  static const Config& checked(const Config& config) {
    if (config.seeds < 1 || config.max_steps < 0 || !(config.step_size > 0) ||
        config.slow_ratio < 1 || config.chunk < 0 || config.x_divisions < 0)
      throw dash::exception::InvalidArgument("particles::Tracer: bad configuration");
    return config;
  }

  // Where block row i of dimension d starts, in cells (the decomposer's
  // rule).
  long cut(int d, int i) const { return long(i) * kCellsPerAxis / decomposer_.divisions()[d]; }

  // Whether the segment (t, t, t), t in [0, 1), passes through box.
  static bool on_diagonal(const dash::bp::Box<3>& box) {
    long lo = 0, hi = kCellsPerAxis;
    for (int d = 0; d < 3; ++d) {
      lo = std::max(lo, box.min[d]);
      hi = std::min(hi, box.max[d]);
    }
    return lo < hi;
  }

  // Moves every particle queued for b into b.work.
  static void receive(Block& b, dash::bp::Proxy& p) {
    for (int from : p.incoming_from())
      while (p.incoming(from) > 0) {
        Particle q;
        p.dequeue(from, q);
        b.work.push_back(q);
      }
  }

  // The face neighbour of b on the way to block `target`.
  int next_hop(const Block& b, int target) const {
    std::array<int, 3> c = b.coords;
    const std::array<int, 3> t = decomposer_.coords(target);
    for (int d = 0; d < 3; ++d)
      if (t[d] != c[d]) {
        c[d] += t[d] > c[d] ? 1 : -1;
        break;
      }
    return decomposer_.gid(c);
  }

  // Advects up to `limit` particles of b.work (taken from the back), each
  // until it retires or leaves b; leavers are enqueued to the next block on
  // their way.
  void advect(Block& b, dash::bp::Proxy& p, std::size_t limit) {
    const int repeats = b.slow ? config_.slow_ratio : 1;
    for (std::size_t n = 0; n < limit && !b.work.empty(); ++n) {
      Particle q = b.work.back();
      b.work.pop_back();
      for (;;) {
        const int at = block_of(q.x);
        if (at < 0 || q.steps >= config_.max_steps) {
          b.checksum += particle_hash(q);
          ++b.retired;
          break;
        }
        if (at != b.gid) {
          p.enqueue(next_hop(b, at), q);
          ++b.handoffs;
          ++b.round_handoffs;
          break;
        }
        step(q, config_.step_size, repeats);
        ++b.steps;
      }
    }
  }

  Config config_;
  dash::Team* team_;
  std::vector<double> round_cpu_;  // exchange: this unit's CPU seconds per round
  int stop_after_ = 0;             // checkpoint(): rounds before saving (0: none)
  std::string save_path_;
  bool restarted_ = false;  // restart() loaded the blocks
  bool saved_ = false;
  dash::bp::RegularDecomposer<3> decomposer_;
  Master master_;
};

}  // namespace particles

#endif  // WORKLOADS__PARTICLES__PARTICLES_H_
