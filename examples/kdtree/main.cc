// kdtree: dash::bp::kdtree of N random points over B blocks (in all, on any
// number of units): afterwards each block holds the points inside its box
// and is linked to the blocks whose boxes meet its own.
//
// Run (--help lists the options):
//   mpirun -n 4 build/openmpi/examples/kdtree --points 1000000 --blocks 64 --dims 3 --wrap --check
// Unit 0 prints, last,
//   time_s=<s> max_points=<n> min_points=<n> links=<total links> checksum=<hex>
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/KdTree.h>
#include <dash/bp/Master.h>
#include <workloads/Mix.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "../common/Args.h"
#include "../common/Errors.h"
#include "../common/Memory.h"
#include "../common/Progress.h"
#include "../common/Report.h"

namespace {

using examples::mix64;

const char* const kProgram = "kdtree";

const char* const kUsage =
    "usage: kdtree [options]\n"
    "Decomposes the unit cube [0, 1]^D into B blocks by a k-d tree of N random\n"
    "points (dash::bp::kdtree): each block ends with the points inside its box,\n"
    "linked to the blocks whose boxes meet its own.\n"
    "\n"
    "  --points N   points in all (default: 1000000)\n"
    "  --blocks B   blocks in all, >= 1 (default: 4 per unit)\n"
    "  --dims D     dimensions: 1, 2, 3 or 4 (default: 3)\n"
    "  --bins H     histogram bins per cut, >= 1 (default: 1024)\n"
    "  --wrap       a periodic domain (blocks meet across its faces)\n"
    "  --check      verify boxes, points and links by brute force (exit 1 if wrong)\n"
    "  --seed X     seed of the points (default: 1)\n"
    "  --progress   show the phase and its time on stderr (without it: only\n"
    "               where stderr is a terminal, which a launcher's is not)\n"
    "  --help       print this text\n"
    "\n"
    "Options also take the form --option=VALUE. Block gid starts with the points\n"
    "[gid N / B, (gid + 1) N / B), whatever the unit count. Unit 0 prints the run\n"
    "and, last, 'time_s=<s> max_points=<n> min_points=<n> links=<l>\n"
    "checksum=<hex>': the decomposition's time, the most and fewest points of a\n"
    "block, the links of all blocks together, and a checksum of each block's\n"
    "sorted point ids with its id, the same for any unit count.\n";

struct Options {
  std::uint64_t points = 1000000;
  int blocks = 0;  // 0: 4 per unit
  int dims = 3;
  int bins = 1024;
  bool wrap = false;
  bool check = false;
  std::uint64_t seed = 1;
  bool help = false, progress = false;
};

using examples::UsageError;

Options parse_args(int argc, char** argv) {
  Options o;
  examples::for_each_option(argc, argv, [&](examples::Option& opt) {
    const std::string& arg = opt.name();
    if (arg == "--help") {
      opt.flag();
      o.help = true;
    } else if (arg == "--progress") {
      opt.flag();
      o.progress = true;
    } else if (arg == "--points") {
      o.points = std::uint64_t(examples::parse_integer(arg, opt.value(), 0, 1ll << 40));
    } else if (arg == "--blocks") {
      o.blocks = int(examples::parse_integer(arg, opt.value(), 1, 1 << 24));
    } else if (arg == "--dims") {
      o.dims = int(examples::parse_integer(arg, opt.value(), 1, 4));
    } else if (arg == "--bins") {
      o.bins = int(examples::parse_integer(arg, opt.value(), 1, 1 << 24));
    } else if (arg == "--wrap") {
      opt.flag();
      o.wrap = true;
    } else if (arg == "--check") {
      opt.flag();
      o.check = true;
    } else if (arg == "--seed") {
      o.seed = std::uint64_t(examples::parse_integer(arg, opt.value(), 0, 1ll << 62));
    } else {
      throw UsageError("unknown option '" + opt.argument() + "'");
    }
  });
  if (o.blocks == 0) o.blocks = 4 * int(dash::size());
  return o;
}

template <int D>
struct Point {
  double x[D];
  std::uint64_t id;
  double operator[](int d) const { return x[d]; }
};

template <int D>
struct Block {
  std::vector<Point<D>> points;
};

// Point i: each coordinate uniform in [0, 1) from the random seed (--seed) and i.
template <int D>
Point<D> make_point(std::uint64_t seed, std::uint64_t i) {
  Point<D> p;
  p.id = i;
  for (int d = 0; d < D; ++d)
    p.x[d] =
        double(mix64(seed * 0x9e3779b97f4a7c15ull + i * 4 + std::uint64_t(d)) >> 11) * 0x1.0p-53;
  return p;
}

// The check of one block by brute force against all boxes: its points in
// its box, its links exactly the boxes that meet its own. Returns what is
// wrong (empty if nothing). Local.
template <int D>
std::string check_block(int gid, const Block<D>& b, const dash::bp::KdTreeBlock<D>& t,
                        const std::vector<dash::bp::ContinuousBox<D>>& boxes,
                        const dash::bp::ContinuousBox<D>& domain, bool wrap) {
  if (t.bounds != boxes[std::size_t(gid)]) return "block " + std::to_string(gid) + ": bounds";
  for (const Point<D>& p : b.points)
    if (!dash::bp::box_holds<D>(t.bounds, domain, p))
      return "block " + std::to_string(gid) + " holds point " + std::to_string(p.id) +
             " outside its box";
  std::vector<int> expected;
  for (int h = 0; h < int(boxes.size()); ++h)
    if (dash::bp::boxes_meet<D>(t.bounds, boxes[std::size_t(h)], domain, wrap, h == gid))
      expected.push_back(h);
  if (expected != t.link) return "block " + std::to_string(gid) + ": links differ from brute force";
  return std::string();
}

template <int D>
int run_dims(const Options& o) {
  const bool root = dash::myid().id == 0;
  const int units = int(dash::size()), me = int(dash::myid().id);
  const int nb = o.blocks;
  dash::bp::Master<Block<D>> master(nb, dash::bp::Assignment::contiguous);
  for (int gid : dash::bp::local_gids(me, nb, units, dash::bp::Assignment::contiguous)) {
    auto b = std::make_unique<Block<D>>();
    const std::uint64_t lo = o.points * std::uint64_t(gid) / std::uint64_t(nb),
                        hi = o.points * std::uint64_t(gid + 1) / std::uint64_t(nb);
    b->points.reserve(std::size_t(hi - lo));
    for (std::uint64_t i = lo; i < hi; ++i) b->points.push_back(make_point<D>(o.seed, i));
    master.add(gid, std::move(b), {});
  }
  dash::bp::ContinuousBox<D> domain;
  for (int d = 0; d < D; ++d) domain.min[d] = 0, domain.max[d] = 1;
  if (root) {
    std::printf("%s: %" PRIu64 " points in %d dimensions over %d blocks on %d units, %d bins%s\n",
                kProgram, o.points, D, nb, units, o.bins, o.wrap ? ", periodic" : "");
    std::fflush(stdout);
  }

  examples::Progress progress(kProgram, o.progress);
  dash::barrier();
  const auto start = std::chrono::steady_clock::now();
  progress.phase("decomposing");
  const dash::bp::KdTree<D> tree =
      dash::bp::kdtree(master, domain, &Block<D>::points, o.bins, o.wrap);
  dash::barrier();
  progress.done();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // Counts, links and the checksum (a sum over blocks: any unit count).
  // Units without blocks count N as their fewest (MPICH's MPI_MIN takes
  // unsigned long long values of 2^63 and more for negative ones).
  std::uint64_t most = 0, fewest = o.points, links = 0;
  std::uint64_t checksum = 0, count = 0;
  for (std::size_t i = 0; i < master.size(); ++i) {
    const int gid = master.gid(i);
    const auto& points = master.block(i).points;
    most = std::max<std::uint64_t>(most, points.size());
    fewest = std::min<std::uint64_t>(fewest, points.size());
    links += tree.at(gid).link.size();
    count += points.size();
    std::vector<std::uint64_t> ids;
    ids.reserve(points.size());
    for (const Point<D>& p : points) ids.push_back(p.id);
    std::sort(ids.begin(), ids.end());
    std::uint64_t h = mix64(std::uint64_t(gid) + 1);
    for (std::uint64_t id : ids) h = mix64(h ^ id);
    checksum += h;
  }
  const std::uint64_t max_points = dash::Team::All().allreduce(most, dash::max<std::uint64_t>());
  const std::uint64_t min_points = dash::Team::All().allreduce(fewest, dash::min<std::uint64_t>());
  links = examples::sum_over_units(links, kProgram);
  checksum = examples::sum_over_units(checksum, kProgram);
  count = examples::sum_over_units(count, kProgram);

  int status = 0;
  if (o.check) {
    progress.phase("checking by brute force");
    // Every box on every unit; each unit checks its blocks, then link
    // symmetry through the link counts of every (block, link) pair.
    std::vector<double> mine(std::size_t(nb) * 2 * D, 0.0), all(mine.size());
    for (const auto& [gid, t] : tree)
      for (int d = 0; d < D; ++d) {
        mine[std::size_t(gid) * 2 * D + std::size_t(d)] = t.bounds.min[d];
        mine[std::size_t(gid) * 2 * D + D + std::size_t(d)] = t.bounds.max[d];
      }
    all = dash::Team::All().allreduce(mine, dash::plus<double>());
    std::vector<dash::bp::ContinuousBox<D>> boxes(static_cast<std::size_t>(nb));
    for (int g = 0; g < nb; ++g)
      for (int d = 0; d < D; ++d) {
        boxes[std::size_t(g)].min[d] = all[std::size_t(g) * 2 * D + std::size_t(d)];
        boxes[std::size_t(g)].max[d] = all[std::size_t(g) * 2 * D + D + std::size_t(d)];
      }
    std::string wrong;
    double volume = 0;
    for (const auto& b : boxes) {
      double v = 1;
      for (int d = 0; d < D; ++d) v *= b.max[d] - b.min[d];
      volume += v;
    }
    if (std::abs(volume - 1.0) > 1e-9)
      wrong = "the boxes' volumes add up to " + std::to_string(volume);
    for (std::size_t i = 0; i < master.size() && wrong.empty(); ++i) {
      const int gid = master.gid(i);
      wrong = check_block<D>(gid, master.block(i), tree.at(gid), boxes, domain, o.wrap);
    }
    // Symmetry: each link i -> j adds a hash of the pair, j -> i subtracts
    // it; the sum over all units is zero when every link has its mirror.
    std::uint64_t mirror = 0;
    for (const auto& [gid, t] : tree)
      for (int to : t.link) {
        const std::uint64_t pair = mix64(std::uint64_t(std::min(gid, to)) * 0x100000000ull +
                                         std::uint64_t(std::max(gid, to)));
        mirror += gid < to ? pair : gid > to ? 0 - pair : 0;
      }
    if (examples::sum_over_units(mirror, kProgram) != 0 && wrong.empty())
      wrong = "links are not symmetric";
    if (wrong.empty() && count != o.points)
      wrong = std::to_string(count) + " points after, " + std::to_string(o.points) + " before";
    const std::uint64_t failures = examples::sum_over_units(wrong.empty() ? 0 : 1, kProgram);
    progress.done();
    if (!wrong.empty())
      std::fprintf(stderr, "%s: unit %d: check failed: %s\n", kProgram, me, wrong.c_str());
    if (failures > 0) {
      status = 1;
      if (root) std::printf("%s: check failed on %" PRIu64 " units\n", kProgram, failures);
    } else if (root) {
      std::printf("%s: check passed (bounds, points, links by brute force)\n", kProgram);
    }
  }
  if (root) {
    std::printf("time_s=%.6f max_points=%" PRIu64 " min_points=%" PRIu64 " links=%" PRIu64
                " checksum=%016" PRIx64 "\n",
                seconds, max_points, min_points, links, checksum);
    std::fflush(stdout);
  }
  return status;
}

// Bytes the run needs at its peak, over all units (measured in 3-D: about 24 KiB per block for
// the tree's rounds, boxes and links; the points about three times: the blocks', the queues',
// the histograms' passes).
double bytes_needed(const Options& o) {
  return 24576.0 * double(o.blocks) + 3.0 * double(o.points) * double(o.dims) * 8.0;
}

int run(const Options& o) {
  // Checked up front, alike on every unit: running out of memory midway would hit one unit.
  examples::check_fits(
      "--blocks " + std::to_string(o.blocks) + " --points " + std::to_string(o.points),
      "these blocks and points", bytes_needed(o));
  switch (o.dims) {
    case 1:
      return run_dims<1>(o);
    case 2:
      return run_dims<2>(o);
    case 3:
      return run_dims<3>(o);
    default:
      return run_dims<4>(o);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return examples::run_with_options(kProgram, kUsage, &argc, &argv, parse_args, run);
}
