// blocksort: dash::bp::sort of N records spread over B blocks (in all, on
// any number of units): afterwards block gid holds the gid-th range of the
// records in key order.
//
// Run (--help lists the options):
//   mpirun -n 4 build/openmpi/examples/blocksort --items 1000000 --blocks 16 --item-bytes 32
// Unit 0 prints, last,
//   time_s=<s> sorted=yes checksum=<hex>
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/Master.h>
#include <dash/bp/Sort.h>
#include <workloads/Mix.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../common/Args.h"
#include "../common/Errors.h"
#include "../common/Memory.h"
#include "../common/Report.h"

namespace {

using examples::mix64;

const char* const kProgram = "blocksort";

const char* const kUsage =
    "usage: blocksort [options]\n"
    "Sorts N records of S bytes (a 64-bit random key, then S - 8 bytes that travel\n"
    "with it) held in B blocks in all, spread over the units, with dash::bp::sort:\n"
    "block gid ends with the gid-th range of the records in key order.\n"
    "\n"
    "  --items N        records in all (default: 1000000)\n"
    "  --blocks B       blocks in all, >= 1 (default: 4 per unit)\n"
    "  --item-bytes S   bytes per record: 8, 16, 32, 64, 128 or 256 (default: 8)\n"
    "  --samples K      samples per block for the splitters (default: 32)\n"
    "  --seed X         seed of the keys (default: 1)\n"
    "  --help           print this text\n"
    "\n"
    "Options also take the form --option=VALUE. Block gid starts with the records\n"
    "[gid N / B, (gid + 1) N / B), whatever the unit count. Unit 0 prints the run\n"
    "and, last, 'time_s=<s> sorted=yes checksum=<hex>': the sort's time, whether\n"
    "every block is sorted, follows the one before and all N records are there\n"
    "(else sorted=no and exit status 1), and a checksum of each block's records\n"
    "in order with its id, the same for any unit count.\n";

struct Options {
  std::uint64_t items = 1000000;
  int blocks = 0;  // 0: 4 per unit
  std::size_t item_bytes = 8;
  int samples = 32;
  std::uint64_t seed = 1;
  bool help = false;
};

using examples::UsageError;

Options parse_args(int argc, char** argv) {
  Options o;
  examples::for_each_option(argc, argv, [&](examples::Option& opt) {
    const std::string& arg = opt.name();
    if (arg == "--help") {
      opt.flag();
      o.help = true;
    } else if (arg == "--items") {
      o.items = std::uint64_t(examples::parse_integer(arg, opt.value(), 0, 1ll << 40));
    } else if (arg == "--blocks") {
      o.blocks = int(examples::parse_integer(arg, opt.value(), 1, 1 << 24));
    } else if (arg == "--item-bytes") {
      o.item_bytes = std::size_t(examples::parse_integer(arg, opt.value(), 8, 256));
      const std::size_t s = o.item_bytes;
      if (s != 8 && s != 16 && s != 32 && s != 64 && s != 128 && s != 256)
        throw UsageError("--item-bytes: expected 8, 16, 32, 64, 128 or 256, got " +
                         std::to_string(s));
    } else if (arg == "--samples") {
      o.samples = int(examples::parse_integer(arg, opt.value(), 1, 1 << 20));
    } else if (arg == "--seed") {
      o.seed = std::uint64_t(examples::parse_integer(arg, opt.value(), 0, 1ll << 62));
    } else {
      throw UsageError("unknown option '" + opt.argument() + "'");
    }
  });
  if (o.blocks == 0) o.blocks = 4 * int(dash::size());
  return o;
}

// A record of S bytes: the key, then bytes made from the record's index.
template <std::size_t S>
struct Record {
  std::uint64_t key;
  unsigned char rest[S - 8];
};
template <>
struct Record<8> {
  std::uint64_t key;
};

template <std::size_t S>
Record<S> make_record(std::uint64_t seed, std::uint64_t i) {
  Record<S> r;
  r.key = mix64(seed * 0x9e3779b97f4a7c15ull + i);
  if constexpr (S > 8)
    for (std::size_t j = 0; j < S - 8; ++j) r.rest[j] = (unsigned char)mix64(i * 131 + j);
  return r;
}

template <std::size_t S>
struct Block {
  std::vector<Record<S>> records;
};

// What a block holds, for the checks: its first and last key, its count
// and its checksum. Local.
struct Summary {
  std::uint64_t first = 0, last = 0, count = 0, checksum = 0;
};

template <std::size_t S>
Summary summarise(int gid, const std::vector<Record<S>>& v, bool& sorted) {
  Summary s;
  s.count = v.size();
  std::uint64_t h = mix64(std::uint64_t(gid) + 1);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0 && v[i].key < v[i - 1].key) sorted = false;
    std::uint64_t x = v[i].key;
    if constexpr (S > 8) {
      for (std::size_t j = 0; j < S - 8; j += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, v[i].rest + j, std::min<std::size_t>(8, S - 8 - j));
        x = mix64(x ^ w);
      }
    }
    h = mix64(h ^ x);
  }
  s.checksum = v.empty() ? 0 : h;
  if (!v.empty()) {
    s.first = v.front().key;
    s.last = v.back().key;
  }
  return s;
}

template <std::size_t S>
int run_sized(const Options& o) {
  const bool root = dash::myid().id == 0;
  const int units = int(dash::size()), me = int(dash::myid().id);
  const int nb = o.blocks;
  dash::bp::Master<Block<S>> master(nb, dash::bp::Assignment::contiguous);
  for (int gid : dash::bp::local_gids(me, nb, units, dash::bp::Assignment::contiguous)) {
    auto b = std::make_unique<Block<S>>();
    const std::uint64_t lo = o.items * std::uint64_t(gid) / std::uint64_t(nb),
                        hi = o.items * std::uint64_t(gid + 1) / std::uint64_t(nb);
    b->records.reserve(std::size_t(hi - lo));
    for (std::uint64_t i = lo; i < hi; ++i) b->records.push_back(make_record<S>(o.seed, i));
    master.add(gid, std::move(b), {});
  }
  if (root) {
    std::printf("%s: %" PRIu64 " records of %zu bytes in %d blocks on %d units, %d samples\n",
                kProgram, o.items, S, nb, units, o.samples);
    std::fflush(stdout);
  }

  dash::barrier();
  const auto start = std::chrono::steady_clock::now();
  dash::bp::sort(
      master, &Block<S>::records,
      [](const Record<S>& a, const Record<S>& b) { return a.key < b.key; }, o.samples);
  dash::barrier();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // Every block's summary on every unit (each gid has one owner: sums).
  std::vector<std::uint64_t> mine(4 * std::size_t(nb), 0), all(mine.size());
  bool sorted = true;
  for (std::size_t i = 0; i < master.size(); ++i) {
    const int gid = master.gid(i);
    const Summary s = summarise<S>(gid, master.block(i).records, sorted);
    std::uint64_t* at = &mine[4 * std::size_t(gid)];
    at[0] = s.first, at[1] = s.last, at[2] = s.count, at[3] = s.checksum;
  }
  all = dash::Team::All().allreduce(mine, dash::plus<std::uint64_t>());
  sorted = examples::sum_over_units(sorted ? 0 : 1, kProgram) == 0;
  std::uint64_t total = 0, checksum = 0, previous_last = 0;
  bool any = false;
  for (int gid = 0; gid < nb; ++gid) {
    const std::uint64_t* s = &all[4 * std::size_t(gid)];
    total += s[2];
    checksum += s[3];
    if (s[2] == 0) continue;
    if (any && s[0] < previous_last) sorted = false;  // starts below the block before ends
    previous_last = s[1];
    any = true;
  }
  if (total != o.items) sorted = false;
  if (root) {
    std::printf("time_s=%.6f sorted=%s checksum=%016" PRIx64 "\n", seconds, sorted ? "yes" : "no",
                checksum);
    std::fflush(stdout);
  }
  return sorted ? 0 : 1;
}

// Bytes the run needs at its peak, over all units (measured: about 2 KiB per block for the
// masters and the all_to_all rounds; the records about three times: the blocks', the queues',
// the merge's).
double bytes_needed(const Options& o) {
  return 2048.0 * double(o.blocks) + 3.0 * double(o.items) * double(o.item_bytes);
}

int run(const Options& o) {
  // Checked up front, alike on every unit: running out of memory midway would hit one unit.
  examples::check_fits(
      "--blocks " + std::to_string(o.blocks) + " --items " + std::to_string(o.items),
      "these blocks and records", bytes_needed(o));
  switch (o.item_bytes) {
    case 8:
      return run_sized<8>(o);
    case 16:
      return run_sized<16>(o);
    case 32:
      return run_sized<32>(o);
    case 64:
      return run_sized<64>(o);
    case 128:
      return run_sized<128>(o);
    default:
      return run_sized<256>(o);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return examples::run_with_options(kProgram, kUsage, &argc, &argv, parse_args, run);
}
