// ooc-reduce: a k-ary merge or swap reduction of random data over many
// blocks per unit, in memory or with only --mem-blocks blocks per unit in
// memory (the others spilled to the unit's spill directory, DASH_OOC_DIR):
// the same program, the same result.
//
// Run (--help lists the options):
//   mpirun -n 4 build/openmpi/examples/ooc-reduce --op swap --blocks-per-unit 8
//        --items 4096 --item-bytes 64 --mem-blocks 1
// Unit 0 prints, last,
//   time_s=<s> bytes_read=<n> bytes_written=<n> checksum=<hex>
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/AllToAll.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <dash/bp/Reduce.h>
#include <dash/bp/ReducePartners.h>
#include <sys/resource.h>
#include <workloads/Mix.h>
#include <workloads/ooc-reduce/Work.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../common/Args.h"
#include "../common/Errors.h"
#include "../common/Report.h"

namespace {

using examples::ooc_reduce::add_bytes;
using examples::ooc_reduce::alltoall_term;
using examples::ooc_reduce::item_hash;
using examples::ooc_reduce::part;
using examples::ooc_reduce::seeded_bytes;

const char* const kProgram = "ooc-reduce";

const char* const kUsage =
    "usage: ooc-reduce [options]\n"
    "Reduces random data held in B x units blocks of N items of S bytes each: the\n"
    "item-wise sum (bytes added modulo 256) of every block's items, by a k-ary\n"
    "merge (all to block 0) or swap (reduce-scatter: each block ends with a slice);\n"
    "or sends every item to a block chosen by its hash (alltoall: dash::bp::all_to_all,\n"
    "k-ary rounds of swap partners); with at most M blocks per unit in memory (the others in the\n"
    "unit's spill directory, DASH_OOC_DIR).\n"
    "\n"
    "  --op OP               merge, swap or alltoall (default: merge)\n"
    "  --blocks-per-unit B   blocks per unit (default: 8)\n"
    "  --items N             items per block (default: 1024)\n"
    "  --item-bytes S        bytes per item (default: 64)\n"
    "  --mem-blocks M        blocks per unit kept in memory, 1 .. B (default: B: all)\n"
    "  --threads T           threads running the blocks of a unit (default: 1)\n"
    "  --k K                 group size of the reduction rounds, >= 2 (default: 2)\n"
    "  --seed X              seed of the data (default: 1)\n"
    "  --verbose             also print each unit's peak resident memory\n"
    "  --help                print this text\n"
    "\n"
    "Options also take the form --option=VALUE. Unit 0 prints the run and, last,\n"
    "'time_s=<s> bytes_read=<n> bytes_written=<n> checksum=<hex>': the reduction's\n"
    "time, the bytes all units read from and wrote to their spill directories, and\n"
    "a checksum of the reduced items (a sum over items of a hash of the item's\n"
    "index and bytes; alltoall: and of the block holding it), which depends only on\n"
    "the total block count, N, S, the seed and, for alltoall, the op: the same for\n"
    "every M, T, K and split of the blocks over units.\n";

enum class Op { merge, swap, alltoall };

struct Options {
  Op op = Op::merge;
  int blocks_per_unit = 8;
  std::size_t items = 1024, item_bytes = 64;
  std::size_t mem_blocks = 0;  // 0: all
  int threads = 1, k = 2;
  std::uint64_t seed = 1;
  bool verbose = false, help = false;
};

using examples::UsageError;

Options parse_args(int argc, char** argv) {
  Options o;
  bool mem_given = false;
  examples::for_each_option(argc, argv, [&](examples::Option& opt) {
    const std::string& arg = opt.name();
    if (arg == "--help") {
      opt.flag();
      o.help = true;
    } else if (arg == "--verbose") {
      opt.flag();
      o.verbose = true;
    } else if (arg == "--op") {
      const std::string v = opt.value();
      if (v == "merge")
        o.op = Op::merge;
      else if (v == "swap")
        o.op = Op::swap;
      else if (v == "alltoall")
        o.op = Op::alltoall;
      else
        throw UsageError("--op: expected merge, swap or alltoall, got '" + v + "'");
    } else if (arg == "--blocks-per-unit") {
      o.blocks_per_unit = int(examples::parse_integer(arg, opt.value(), 1, 1 << 16));
    } else if (arg == "--items") {
      o.items = std::size_t(examples::parse_integer(arg, opt.value(), 1, 1ll << 30));
    } else if (arg == "--item-bytes") {
      o.item_bytes = std::size_t(examples::parse_integer(arg, opt.value(), 1, 1 << 20));
    } else if (arg == "--mem-blocks") {
      o.mem_blocks = std::size_t(examples::parse_integer(arg, opt.value(), 1, 1 << 16));
      mem_given = true;
    } else if (arg == "--threads") {
      o.threads = int(examples::parse_integer(arg, opt.value(), 1, 256));
    } else if (arg == "--k") {
      o.k = int(examples::parse_integer(arg, opt.value(), 2, 1 << 16));
    } else if (arg == "--seed") {
      o.seed = std::uint64_t(examples::parse_integer(arg, opt.value(), 0, 1ll << 62));
    } else {
      throw UsageError("unknown option '" + opt.argument() + "' (try --help)");
    }
  });
  if (o.items * o.item_bytes > (std::size_t(1) << 31))
    throw UsageError("--items x --item-bytes: " + std::to_string(o.items * o.item_bytes) +
                     " bytes per block exceed 2 GiB");
  if (mem_given && o.mem_blocks > std::size_t(o.blocks_per_unit))
    throw UsageError("--mem-blocks: " + std::to_string(o.mem_blocks) +
                     " exceeds --blocks-per-unit " + std::to_string(o.blocks_per_unit));
  return o;
}

// One block: its items, of which [begin, end) are its result (swap: a slice).
// alltoall: the global index of each item it holds (ids).
struct Block {
  int gid = 0;
  std::vector<std::uint8_t> bytes;   // items x item_bytes
  std::uint64_t begin = 0, end = 0;  // items
  std::vector<std::uint64_t> ids;
};

}  // namespace

template <>
struct dash::bp::Serialization<Block> {
  static void save(MemoryBuffer& buf, const Block& b) {
    dash::bp::save(buf, b.gid);
    dash::bp::save(buf, b.bytes);
    dash::bp::save(buf, b.begin);
    dash::bp::save(buf, b.end);
    dash::bp::save(buf, b.ids);
  }
  static void load(MemoryBuffer& buf, Block& b) {
    dash::bp::load(buf, b.gid);
    dash::bp::load(buf, b.bytes);
    dash::bp::load(buf, b.begin);
    dash::bp::load(buf, b.end);
    dash::bp::load(buf, b.ids);
  }
};

namespace {

int run(const Options& o) {
  const int me = int(dash::myid().id), units = int(dash::size());
  const int nb = o.blocks_per_unit * units;
  const std::size_t S = o.item_bytes, N = o.items;
  dash::bp::Master<Block> master(nb, dash::bp::Assignment::contiguous);
  master.threads(o.threads);
  if (o.mem_blocks > 0) master.limit(o.mem_blocks);
  for (int gid : dash::bp::local_gids(me, nb, units, dash::bp::Assignment::contiguous)) {
    auto b = std::make_unique<Block>();
    b->gid = gid;
    b->end = N;
    b->bytes = seeded_bytes(o.seed, gid, N * S);
    if (o.op == Op::alltoall)
      for (std::size_t i = 0; i < N; ++i) b->ids.push_back(std::uint64_t(gid) * N + i);
    master.add(gid, std::move(b), {});
  }
  dash::bp::RegularDecomposer<1> dec({{0}, {nb}}, nb);
  // alltoall: the block item `id` goes to.
  const std::uint64_t seed = o.seed;
  auto destination = [seed, nb](std::uint64_t id) {
    return examples::ooc_reduce::destination(id, seed, nb);
  };

  dash::barrier();
  const auto start = std::chrono::steady_clock::now();
  if (o.op == Op::merge) {
    dash::bp::RegularMergePartners<1> partners(dec, o.k);
    dash::bp::reduce(master, partners, [&](Block& b, dash::bp::ReduceProxy& rp) {
      for (int from : rp.in_link()) {
        if (from == rp.gid()) continue;
        const auto v = rp.dequeue_view<std::uint8_t>(from);
        add_bytes(b.bytes.data(), v.data(), std::min<std::size_t>(v.size(), b.bytes.size()));
      }
      for (int to : rp.out_link())
        if (to != rp.gid()) rp.enqueue_view(to, b.bytes.data(), b.bytes.size());
    });
  } else if (o.op == Op::alltoall) {
    // Each item (its index, then its bytes) goes to its destination block.
    dash::bp::all_to_all(
        master,
        [&](Block& b, dash::bp::AllToAllProxy& ap) {
          if (ap.sending()) {
            for (std::size_t i = 0; i < b.ids.size(); ++i) {
              const int to = int(destination(b.ids[i]));
              ap.enqueue(to, b.ids[i]);
              ap.enqueue(to, b.bytes.data() + i * S, S);
            }
            b.ids = {};  // the items travel; their memory is freed
            b.bytes = {};
            return;
          }
          std::vector<std::uint8_t> item;
          for (int from : ap.incoming_from())
            while (ap.incoming(from) > 0) {
              std::uint64_t id = 0;
              ap.dequeue(from, id);
              ap.dequeue(from, item);
              b.ids.push_back(id);
              b.bytes.insert(b.bytes.end(), item.begin(), item.end());
            }
        },
        o.k);
  } else {
    dash::bp::RegularSwapPartners<1> partners(dec, o.k);
    dash::bp::reduce(master, partners, [&](Block& b, dash::bp::ReduceProxy& rp) {
      const auto& in = rp.in_link();
      if (!in.empty()) {
        const std::size_t pos = std::size_t(std::find(in.begin(), in.end(), rp.gid()) - in.begin());
        std::tie(b.begin, b.end) = part(b.begin, b.end, pos, in.size());
        for (int from : in) {
          if (from == rp.gid()) continue;
          const auto v = rp.dequeue_view<std::uint8_t>(from);
          add_bytes(b.bytes.data() + b.begin * S, v.data(),
                    std::min<std::size_t>(v.size(), (b.end - b.begin) * S));
        }
      }
      const auto& out = rp.out_link();
      for (std::size_t j = 0; j < out.size(); ++j) {
        if (out[j] == rp.gid()) continue;
        const auto [lo, hi] = part(b.begin, b.end, j, out.size());
        rp.enqueue_view(out[j], b.bytes.data() + lo * S, (hi - lo) * S);
      }
    });
  }
  dash::barrier();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // The checksum over the reduced items: merge's block 0 holds all, swap's
  // blocks one slice each.
  std::atomic<std::uint64_t> local{0};  // foreach runs blocks on --threads threads
  master.foreach ([&](Block& b, dash::bp::Proxy&) {
    if (o.op == Op::alltoall) {
      std::uint64_t sum = 0;
      for (std::size_t i = 0; i < b.ids.size(); ++i) {
        if (destination(b.ids[i]) != std::uint64_t(b.gid))
          throw dash::exception::RuntimeError("alltoall: item " + std::to_string(b.ids[i]) +
                                              " ended at block " + std::to_string(b.gid) +
                                              ", not at its destination " +
                                              std::to_string(destination(b.ids[i])));
        sum += alltoall_term(b.ids[i], b.bytes.data() + i * S, S, b.gid);
      }
      local += sum;
      return;
    }
    if (o.op == Op::merge && b.gid != 0) return;
    std::uint64_t sum = 0;
    for (std::uint64_t i = b.begin; i < b.end; ++i) sum += item_hash(i, b.bytes.data() + i * S, S);
    local += sum;
  });
  const std::uint64_t checksum = examples::sum_over_units(local, kProgram);
  const dash::bp::SpillCounters moved = master.spill_counters();
  const std::uint64_t bytes_read = examples::sum_over_units(moved.bytes_read, kProgram);
  const std::uint64_t bytes_written = examples::sum_over_units(moved.bytes_written, kProgram);

  examples::print_peak_memory(kProgram, o.verbose, master.resident_blocks(), master.size(),
                              "blocks");
  if (me == 0) {
    std::printf(
        "%s: %s, k = %d, %d blocks (%d per unit) on %d units, %zu items of %zu bytes "
        "per block, %s in memory, %d thread(s)\n",
        kProgram,
        o.op == Op::merge  ? "merge"
        : o.op == Op::swap ? "swap"
                           : "alltoall",
        o.k, nb, o.blocks_per_unit, units, N, S,
        o.mem_blocks > 0 ? (std::to_string(o.mem_blocks) + " block(s) per unit").c_str()
                         : "all blocks",
        o.threads);
    std::printf("time_s=%.6f bytes_read=%" PRIu64 " bytes_written=%" PRIu64 " checksum=%016" PRIx64
                "\n",
                seconds, bytes_read, bytes_written, checksum);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return examples::run_with_options(kProgram, kUsage, &argc, &argv, parse_args, run);
}
