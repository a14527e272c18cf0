// ooc_reduce_diy: the work of examples/ooc-reduce written against DIY's API, as
// the baseline of scripts/bench_diy.sh (DIY is not a dependency of the
// library: the script builds this file against a DIY source tree given to it).
//
// Same options as ooc-reduce (--op merge|swap|alltoall, --blocks-per-unit,
// --items, --item-bytes, --mem-blocks, --threads, --k, --seed, --verbose),
// plus --queues-in-memory (DIY keeps every message queue in memory; its
// default moves queues over 4 KiB to disk with the blocks). Same data, same
// partners (contiguous groups), same checksum; unit 0 prints, last,
//   time_s=<s> checksum=<hex>
// and with --verbose the peak resident memory of each unit.
#include <sys/resource.h>
#include <unistd.h>
#include <workloads/ooc-reduce/Work.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <diy/assigner.hpp>
#include <diy/decomposition.hpp>
#include <diy/master.hpp>
#include <diy/partners/merge.hpp>
#include <diy/partners/swap.hpp>
#include <diy/reduce-operations.hpp>
#include <diy/reduce.hpp>
#include <limits>
#include <string>
#include <vector>

#include "command_line.h"

namespace {

using examples::ooc_reduce::add_bytes;
using examples::ooc_reduce::alltoall_term;
using examples::ooc_reduce::item_hash;
using examples::ooc_reduce::part;
using examples::ooc_reduce::seeded_bytes;

enum class Op { merge, swap, alltoall };

struct Options {
  Op op = Op::merge;
  int blocks_per_unit = 8;
  std::size_t items = 1024, item_bytes = 64;
  int mem_blocks = -1;  // -1: all (DIY's convention)
  int threads = 1, k = 2;
  std::uint64_t seed = 1;
  bool verbose = false, queues_in_memory = false;
};

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto is = [&](const char* name) { return diy_bench::is_option(a, name); };
    if (a == "--verbose") {
      o.verbose = true;
    } else if (a == "--queues-in-memory") {
      o.queues_in_memory = true;
    } else if (is("--op")) {
      const std::string v = diy_bench::option_value("ooc_reduce_diy", argc, argv, i, "--op");
      o.op = v == "merge" ? Op::merge : v == "swap" ? Op::swap : Op::alltoall;
      if (v != "merge" && v != "swap" && v != "alltoall") {
        std::fprintf(stderr, "ooc_reduce_diy: --op: merge, swap or alltoall\n");
        std::exit(2);
      }
    } else if (is("--blocks-per-unit")) {
      o.blocks_per_unit =
          std::atoi(diy_bench::option_value("ooc_reduce_diy", argc, argv, i, "--blocks-per-unit"));
    } else if (is("--items")) {
      o.items = std::strtoull(diy_bench::option_value("ooc_reduce_diy", argc, argv, i, "--items"),
                              nullptr, 10);
    } else if (is("--item-bytes")) {
      o.item_bytes = std::strtoull(
          diy_bench::option_value("ooc_reduce_diy", argc, argv, i, "--item-bytes"), nullptr, 10);
    } else if (is("--mem-blocks")) {
      o.mem_blocks =
          std::atoi(diy_bench::option_value("ooc_reduce_diy", argc, argv, i, "--mem-blocks"));
    } else if (is("--threads")) {
      o.threads = std::atoi(diy_bench::option_value("ooc_reduce_diy", argc, argv, i, "--threads"));
    } else if (is("--k")) {
      o.k = std::atoi(diy_bench::option_value("ooc_reduce_diy", argc, argv, i, "--k"));
    } else if (is("--seed")) {
      o.seed = std::strtoull(diy_bench::option_value("ooc_reduce_diy", argc, argv, i, "--seed"),
                             nullptr, 10);
    } else {
      std::fprintf(stderr, "ooc_reduce_diy: unknown option '%s'\n", argv[i]);
      std::exit(2);
    }
  }
  if (o.blocks_per_unit < 1 || o.items < 1 || o.item_bytes < 1 || o.k < 2 || o.threads < 1) {
    std::fprintf(stderr, "ooc_reduce_diy: bad option value\n");
    std::exit(2);
  }
  return o;
}

// One block, as ooc-reduce's: its items, [begin, end) its result, ids for alltoall.
struct Block {
  int gid = 0;
  std::vector<std::uint8_t> bytes;
  std::uint64_t begin = 0, end = 0;
  std::vector<std::uint64_t> ids;

  static void* create() { return new Block; }
  static void destroy(void* b) { delete static_cast<Block*>(b); }
  static void save(const void* p, diy::BinaryBuffer& bb) {
    const Block& b = *static_cast<const Block*>(p);
    diy::save(bb, b.gid);
    diy::save(bb, b.bytes);
    diy::save(bb, b.begin);
    diy::save(bb, b.end);
    diy::save(bb, b.ids);
  }
  static void load(void* p, diy::BinaryBuffer& bb) {
    Block& b = *static_cast<Block*>(p);
    diy::load(bb, b.gid);
    diy::load(bb, b.bytes);
    diy::load(bb, b.begin);
    diy::load(bb, b.end);
    diy::load(bb, b.ids);
  }
};

// The unit's peak resident memory in MiB (getrusage).
double peak_mib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;
}

}  // namespace

int main(int argc, char** argv) {
  diy::mpi::environment env(argc, argv);
  diy::mpi::communicator world;
  const Options o = parse_args(argc, argv);
  const int units = world.size(), nb = o.blocks_per_unit * units;
  const std::size_t N = o.items, S = o.item_bytes;

  const char* dir = std::getenv("DASH_OOC_DIR");
  diy::FileStorage storage(std::string(dir ? dir : "/tmp") + "/ooc_reduce_diy.XXXXXX");
  diy::Master master(world, o.threads, o.mem_blocks, &Block::create, &Block::destroy, &storage,
                     &Block::save, &Block::load,
                     o.queues_in_memory
                         ? new diy::Master::QueueSizePolicy(std::numeric_limits<size_t>::max())
                         : new diy::Master::QueueSizePolicy(4096));
  diy::ContiguousAssigner assigner(units, nb);
  std::vector<int> gids;
  assigner.local_gids(world.rank(), gids);
  for (int gid : gids) {
    auto* b = new Block;
    b->gid = gid;
    b->end = N;
    b->bytes = seeded_bytes(o.seed, gid, N * S);
    if (o.op == Op::alltoall)
      for (std::size_t i = 0; i < N; ++i) b->ids.push_back(std::uint64_t(gid) * N + i);
    master.add(gid, b, new diy::Link);
  }
  diy::RegularDecomposer<diy::DiscreteBounds> dec(1, diy::interval(0, nb - 1), nb);
  const std::uint64_t seed = o.seed;
  auto destination = [seed, nb](std::uint64_t id) {
    return examples::ooc_reduce::destination(id, seed, nb);
  };

  world.barrier();
  const auto start = std::chrono::steady_clock::now();
  if (o.op == Op::merge) {
    diy::RegularMergePartners partners(dec, o.k, true);
    diy::reduce(master, assigner, partners,
                [&](Block* b, const diy::ReduceProxy& rp, const diy::RegularMergePartners&) {
                  for (int i = 0; i < rp.in_link().size(); ++i) {
                    const int from = rp.in_link().target(i).gid;
                    if (from == rp.gid()) continue;
                    const diy::MemoryBuffer& in = rp.incoming(from);
                    add_bytes(b->bytes.data(),
                              reinterpret_cast<const std::uint8_t*>(in.buffer.data()),
                              std::min(in.buffer.size(), b->bytes.size()));
                  }
                  for (int i = 0; i < rp.out_link().size(); ++i)
                    if (rp.out_link().target(i).gid != rp.gid())
                      rp.enqueue(rp.out_link().target(i), b->bytes.data(), b->bytes.size());
                });
  } else if (o.op == Op::swap) {
    diy::RegularSwapPartners partners(dec, o.k, true);
    diy::reduce(master, assigner, partners,
                [&](Block* b, const diy::ReduceProxy& rp, const diy::RegularSwapPartners&) {
                  const int in_n = rp.in_link().size();
                  if (in_n > 0) {
                    int pos = 0;
                    while (rp.in_link().target(pos).gid != rp.gid()) ++pos;
                    std::tie(b->begin, b->end) =
                        part(b->begin, b->end, std::size_t(pos), std::size_t(in_n));
                    for (int i = 0; i < in_n; ++i) {
                      const int from = rp.in_link().target(i).gid;
                      if (from == rp.gid()) continue;
                      const diy::MemoryBuffer& in = rp.incoming(from);
                      add_bytes(b->bytes.data() + b->begin * S,
                                reinterpret_cast<const std::uint8_t*>(in.buffer.data()),
                                std::min<std::size_t>(in.buffer.size(), (b->end - b->begin) * S));
                    }
                  }
                  const int out_n = rp.out_link().size();
                  for (int j = 0; j < out_n; ++j) {
                    if (rp.out_link().target(j).gid == rp.gid()) continue;
                    const auto lo_hi = part(b->begin, b->end, std::size_t(j), std::size_t(out_n));
                    rp.enqueue(rp.out_link().target(j), b->bytes.data() + lo_hi.first * S,
                               (lo_hi.second - lo_hi.first) * S);
                  }
                });
  } else {
    diy::all_to_all(
        master, assigner,
        [&](Block* b, const diy::ReduceProxy& rp) {
          if (rp.in_link().size() == 0) {
            for (std::size_t i = 0; i < b->ids.size(); ++i) {
              const diy::BlockID to = rp.out_link().target(int(destination(b->ids[i])));
              rp.enqueue(to, b->ids[i]);
              rp.enqueue(to, b->bytes.data() + i * S, S);
            }
            b->ids = {};
            b->bytes = {};
            return;
          }
          for (int i = 0; i < rp.in_link().size(); ++i) {
            diy::MemoryBuffer& in = rp.incoming(rp.in_link().target(i).gid);
            const std::size_t n = in.buffer.size() / (sizeof(std::uint64_t) + S);
            for (std::size_t j = 0; j < n; ++j) {
              std::uint64_t id = 0;
              diy::load(in, id);
              b->ids.push_back(id);
              const std::size_t at = b->bytes.size();
              b->bytes.resize(at + S);
              diy::load(in, b->bytes.data() + at, S);
            }
          }
        },
        o.k);
  }
  world.barrier();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::uint64_t local = 0;
  bool misplaced = false;
  master.foreach ([&](Block* b, const diy::Master::ProxyWithLink&) {
    if (o.op == Op::alltoall) {
      for (std::size_t i = 0; i < b->ids.size(); ++i) {
        if (destination(b->ids[i]) != std::uint64_t(b->gid)) misplaced = true;
        local += alltoall_term(b->ids[i], b->bytes.data() + i * S, S, b->gid);
      }
      return;
    }
    if (o.op == Op::merge && b->gid != 0) return;
    for (std::uint64_t i = b->begin; i < b->end; ++i)
      local += item_hash(i, b->bytes.data() + i * S, S);
  });
  std::uint64_t checksum = 0;
  diy::mpi::all_reduce(world, local, checksum, std::plus<std::uint64_t>());
  const double peak = peak_mib();
  std::vector<double> peaks;
  diy::mpi::gather(world, peak, peaks, 0);
  if (misplaced) {
    std::fprintf(stderr, "ooc_reduce_diy: an item ended away from its destination block\n");
    return 1;
  }
  if (world.rank() == 0) {
    if (o.verbose)
      for (int u = 0; u < units; ++u)
        std::printf("ooc_reduce_diy: unit %d peak resident memory %.1f MiB\n", u, peaks[u]);
    std::printf("time_s=%.6f checksum=%016" PRIx64 "\n", seconds, checksum);
  }
  return 0;
}
