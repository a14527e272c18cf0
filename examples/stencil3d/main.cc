// stencil3d: the communication kernel of a 3-D stencil code. Units sit on the balanced
// 3-D grid of all units (periodic); in every exchange each unit writes a message into each
// of its six face neighbours with a blocking DART put, then all units meet in a barrier.
// The kernel runs twice: with the units in MPI_COMM_WORLD rank order ("none", what the
// program would get without remapping) and with the unit ids in force (DART_UNIT_MAPPING),
// for message sizes from --min-bytes to --max-bytes. It prints the latency of one exchange
// per size (the slowest unit's mean), the improvement factor, the modelled time of both
// layouts, and the stencil links by the closest machine level their units share.
//
// Run on one machine with emulated nodes and a topology file describing a sparse
// multi-node allocation (scripts/run.sh does this):
//   DART_VIRTUAL_NODE_SIZE=2 DART_TOPOLOGY_FILE=examples/stencil3d/sparse-allocation.txt
//   DART_UNIT_MAPPING=hierarchical mpirun -n 8 build/openmpi/examples/stencil3d
// Unit 0 prints, last,
//   node_crossings=<N> modelled_us=<T>
// N: stencil neighbour pairs whose units sit on different (real or emulated) nodes under the
// mapping in force; T: the modelled time of one exchange of --max-bytes messages under it.
#include <dart/dart.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/pattern/TeamSpec.h>
#include <workloads/stencil3d/kernel.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "../common/Args.h"
#include "../common/Errors.h"

using namespace stencil3d;

namespace {

const char* const kUsage =
    "usage: stencil3d [options]\n"
    "The communication kernel of a 3-D stencil code on the balanced periodic grid of\n"
    "all units: every unit puts a message to each of its six face neighbours (blocking\n"
    "DART put), then a barrier. Runs once with the units in MPI rank order (none) and\n"
    "once with the ids DART_UNIT_MAPPING gave them (mapped), and compares.\n"
    "\n"
    "  --min-bytes N   smallest message (default: 1)\n"
    "  --max-bytes N   largest message (default: 2M); sizes grow by 4 from the\n"
    "                  smallest, the largest is always included\n"
    "  --reps R        exchanges timed per size (default: about 8 MiB of puts per unit\n"
    "                  and size, between 5 and 200)\n"
    "  --help          print this text\n"
    "\n"
    "Sizes take K and M suffixes (1024-based). Unit 0 prints the table and, last,\n"
    "'node_crossings=<N> modelled_us=<T>' for the mapping in force.\n";

struct Options {
  std::size_t min_bytes = 1;
  std::size_t max_bytes = std::size_t(2) << 20;
  long reps = 0;  // 0: by size
  bool help = false;
};

Options parse_args(int argc, char** argv) {
  Options o;
  constexpr std::size_t kLargest = std::size_t(256) << 20;
  examples::for_each_option(argc, argv, [&](examples::Option& opt) {
    if (opt.name() == "--help") {
      opt.flag();
      o.help = true;
    } else if (opt.name() == "--min-bytes") {
      o.min_bytes = examples::parse_bytes(opt.name(), opt.value(), 1, kLargest);
    } else if (opt.name() == "--max-bytes") {
      o.max_bytes = examples::parse_bytes(opt.name(), opt.value(), 1, kLargest);
    } else if (opt.name() == "--reps") {
      o.reps = long(examples::parse_integer(opt.name(), opt.value(), 1, 1000000));
    } else {
      throw examples::UsageError("unknown option '" + opt.name() + "'");
    }
  });
  if (o.min_bytes > o.max_bytes)
    throw examples::UsageError("--min-bytes " + std::to_string(o.min_bytes) +
                               " is larger than --max-bytes " + std::to_string(o.max_bytes));
  return o;
}

int run(const Options& o) {
  dart_global_unit_t me{};
  std::size_t size = 0;
  check(dart_myid(&me), "dart_myid");
  check(dart_size(&size), "dart_size");
  const int n = int(size);
  const bool root = me.id == 0;
  dart_unit_mapping_info_t info{};
  check(dart_unit_mapping_info(&info), "dart_unit_mapping_info");
  // The grid of a container's balanced TeamSpec: dart_balanced_dims, the grid
  // DART_UNIT_MAPPING optimises (one balanced grid for the runtime, containers and blocks).
  dash::TeamSpec<3> grid(dash::Team::All());
  grid.balance_extents();
  const std::array<int, 3> dims = {int(grid.extent(0)), int(grid.extent(1)), int(grid.extent(2))};

  // none: position p holds the unit whose MPI rank is p; mapped: the ids in force.
  const Layout none = rank_order_layout(n), mapped = id_layout(n);

  std::vector<std::size_t> sizes;
  for (std::size_t b = o.min_bytes; b < o.max_bytes; b *= 4) sizes.push_back(b);
  sizes.push_back(o.max_bytes);

  dart_gptr_t buffer;
  check(dart_team_memalloc_aligned(DART_TEAM_ALL, 6 * o.max_bytes, DART_TYPE_BYTE, &buffer),
        "dart_team_memalloc_aligned");
  std::vector<char> message(o.max_bytes);
  for (std::size_t i = 0; i < message.size(); ++i) message[i] = payload_byte(me.id, i);
  const std::array<std::array<int, 6>, 2> to = {neighbours(none, dims, me.id),
                                                neighbours(mapped, dims, me.id)};

  if (root) {
    std::printf("stencil3d: %d units on %d node(s), grid %dx%dx%d (periodic, 6 neighbours)\n", n,
                info.nodes, dims[0], dims[1], dims[2]);
    std::printf("mapping: %s (%s), machine levels:", dart_unit_mapping_name(info.mode),
                info.renumbered ? "units renumbered" : "ids = MPI ranks");
    for (int l = 0; l < info.nlevels; ++l)
      std::printf(" %s %.2fus/%.1fGB/s", info.level_names[l], info.cost[l].latency_us,
                  info.cost[l].bandwidth_GBps);
    std::printf("\n%10s %12s %12s %8s %14s %14s %8s\n", "bytes", "none_us", "mapped_us", "factor",
                "model_none_us", "model_mapped_us", "model");
  }
  dart_unit_mapping_cost_t cost_none{}, cost_mapped{};
  for (std::size_t bytes : sizes) {
    const long reps =
        o.reps > 0 ? o.reps : std::clamp<long>(long((8u << 20) / (6 * bytes)), 5, 200);
    const std::array<double, 2> t = time_exchanges(to, buffer, o.max_bytes, message, bytes, reps);
    const double t_none = t[0], t_mapped = t[1];
    check(dart_unit_mapping_cost(none.unit_at.data(), 3, dims.data(), DART_STENCIL_FACES, 1, bytes,
                                 &cost_none),
          "dart_unit_mapping_cost");
    check(dart_unit_mapping_cost(mapped.unit_at.data(), 3, dims.data(), DART_STENCIL_FACES, 1,
                                 bytes, &cost_mapped),
          "dart_unit_mapping_cost");
    if (root)
      std::printf("%10zu %12.2f %12.2f %8.2f %14.2f %14.2f %8.2f\n", bytes, t_none, t_mapped,
                  t_none / t_mapped, cost_none.modelled_us, cost_mapped.modelled_us,
                  cost_none.modelled_us / cost_mapped.modelled_us);
  }
  // The payload of the timed puts: one more exchange of the largest messages in the mapped
  // layout, then every unit compares its six slots with what its neighbours put.
  exchange(to[1], buffer, o.max_bytes, message, o.max_bytes);
  const std::uint64_t wrong = dash::Team::All().allreduce(
      std::uint64_t(wrong_payload_bytes(to[1], buffer, me.id, o.max_bytes, o.max_bytes)),
      dash::plus<std::uint64_t>());
  check(dart_team_memfree(buffer), "dart_team_memfree");
  if (wrong != 0) {
    if (root)
      std::fprintf(stderr, "stencil3d: error: %llu bytes of the received messages are wrong\n",
                   (unsigned long long)wrong);
    return 1;
  }
  if (root)
    std::printf("payload: the 6 messages of %zu bytes of every unit arrived intact\n", o.max_bytes);
  if (root) {
    std::printf("stencil links by the closest level their units share (7-point, periodic)\n");
    std::printf("%16s %10s %10s\n", "level", "none", "mapped");
    for (int l = 0; l < cost_mapped.nlevels; ++l)
      std::printf("%16s %10lld %10lld\n", info.level_names[l], (long long)cost_none.links[l],
                  (long long)cost_mapped.links[l]);
    std::printf("%16s %10lld %10lld\n", "node crossings", (long long)cost_none.node_crossings,
                (long long)cost_mapped.node_crossings);
    std::printf("node_crossings=%lld modelled_us=%.3f\n", (long long)cost_mapped.node_crossings,
                cost_mapped.modelled_us);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return examples::run_with_options("stencil3d", kUsage, &argc, &argv, parse_args, run);
}
