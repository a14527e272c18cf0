// io-bench: collective file I/O of per-unit data of different sizes, through
// dash::io's two-phase aggregation or MPI-IO, in the layouts of the
// MA-TAPIOCA and HACC-IO studies.
//
// Run (--help lists the options):
//   mpirun -n 4 build/openmpi/examples/io-bench --layout random
//        --bytes-per-unit 16M --mode workflow --via dash
// Unit 0 prints, last,
//   bandwidth_GBps=<x> tier=<chosen> aggregators=<a> checksum=<hex>
#include <dash/Exception.h>
#include <dash/io/Pieces.h>
#include <dash/io/Tiers.h>
#ifdef DASH_EXAMPLE_HAVE_HDF5
#include <dash/io/Hdf5.h>
#endif
#include <mpi.h>
#include <unistd.h>
#include <workloads/Mix.h>
#include <workloads/MpiBytes.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../common/Args.h"
#include "../common/Errors.h"
#include "../common/Progress.h"

namespace {

const char* const kProgram = "io-bench";

const char* const kUsage =
    "usage: io-bench [options]\n"
    "Writes and reads one shared file of every unit's bytes: each unit's share in one\n"
    "piece (layouts equal, random, normal) or, for hacc, particles of nine 4-byte\n"
    "variables stored as nine arrays (each unit a piece in each), through dash::io's\n"
    "two-phase aggregation (dash::io::write_pieces / read_pieces) or MPI-IO\n"
    "(MPI_File_write_at_all / read_at_all, one call per piece).\n"
    "\n"
    "  --layout L           equal, random (sizes uniform in [N/2, 3N/2]), normal (sizes\n"
    "                       normal around N, sd N/4, cut to [N/8, 2N]) or hacc (default: equal)\n"
    "  --bytes-per-unit N   bytes per unit, e.g. 64M (default: 16M)\n"
    "  --mode M             write, read (the file a write with the same layout, N,\n"
    "                       units and seed left) or workflow (write, then read back;\n"
    "                       via dash through the burst buffer: the write lands in\n"
    "                       node-local files, DASH_IO_NODE_DIR, the read comes from\n"
    "                       them, and the file drains to <dir> in the background,\n"
    "                       timed apart) (default: workflow)\n"
    "  --via V              dash, mpiio or hdf5 (parallel HDF5: a 1-D byte dataset /data\n"
    "                       in <dir>/io-bench-<layout>.h5) (default: dash)\n"
    "  --aggregators A      aggregators (dash: DASH_IO_AGGREGATORS, default one per\n"
    "                       node; mpiio: the cb_nodes hint, default MPI's choice: 0)\n"
    "  --tier T             where dash::io's aggregation buffers live: dram, hbm (high-\n"
    "                       bandwidth memory through memkind), shm (a RAM file system),\n"
    "                       disk (node-local storage, DASH_IO_NODE_DIR) or auto (default;\n"
    "                       DASH_IO_TIERS describes the tiers). With neither --tier nor\n"
    "                       --aggregators, a write whose units each give pieces of at\n"
    "                       least a chunk goes without aggregation: each unit writes\n"
    "                       its own (tier=none aggregators=0; DASH_IO_AGGREGATION=on\n"
    "                       aggregates anyway)\n"
    "  --dir PATH           directory of the file (default: $TMPDIR, else /tmp)\n"
    "  --seed X             seed of the sizes (default: 1)\n"
    "  --keep               leave the file (a write leaves it anyway for a later read)\n"
    "  --explain            print the cost model's table (tier x candidate aggregator,\n"
    "                       per file domain) before each dash::io call moves data\n"
    "  --progress           show the phase (write, read, drain) and its time on stderr\n"
    "                       (without it: only where stderr is a terminal, which a\n"
    "                       launcher's is not)\n"
    "  --help               print this text\n"
    "\n"
    "Options also take the form --option=VALUE. The file is <dir>/io-bench-<layout>.bin.\n"
    "Unit 0 prints the run and, last, 'bandwidth_GBps=<x> tier=<chosen>\n"
    "aggregators=<a> checksum=<hex>': all units' bytes over the time of the slowest unit\n"
    "(tier: dash::io's choice; with --via mpiio or hdf5 the library's own buffering,\n"
    "tier=mpiio or tier=hdf5, and aggregators= the cb_nodes MPI reports for the file,\n"
    "0 where it reports none, as OpenMPI's OMPIO)\n"
    "(workflow: twice the bytes, write and read), and a checksum of the file's bytes as\n"
    "they are in memory after the mode (the same for a write and a read of that file,\n"
    "and for every via, unit count and aggregator count). A read that finds other bytes\n"
    "than were written ends with exit status 1.\n";

enum class Layout { equal, random, normal, hacc };
enum class Mode { write, read, workflow };
enum class Via { dash, mpiio, hdf5 };

struct Options {
  bool help = false, keep = false, explain = false, progress = false;
  Layout layout = Layout::equal;
  std::size_t bytes = std::size_t(16) << 20;
  Mode mode = Mode::workflow;
  Via via = Via::dash;
  int aggregators = 0;
  std::string dir;
  std::string tier = "auto";
  std::uint64_t seed = 1;
};

const char* const kLayouts[] = {"equal", "random", "normal", "hacc"};
const char* const kModes[] = {"write", "read", "workflow"};
const char* const kVias[] = {"dash", "mpiio", "hdf5"};

template <std::size_t N>
int choose(const std::string& option, const std::string& value, const char* const (&words)[N]) {
  for (std::size_t i = 0; i < N; ++i)
    if (value == words[i]) return int(i);
  std::string list;
  for (std::size_t i = 0; i < N; ++i)
    list += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + words[i];
  throw examples::UsageError(option + ": expected " + list + ", got '" + value + "'");
}

Options parse_args(int argc, char** argv) {
  Options o;
  const char* tmp = std::getenv("TMPDIR");
  o.dir = tmp && *tmp ? tmp : "/tmp";
  examples::for_each_option(argc, argv, [&](examples::Option& opt) {
    const std::string& name = opt.name();
    if (name == "--help" || name == "-h") {
      opt.flag();
      o.help = true;
    } else if (name == "--keep") {
      opt.flag();
      o.keep = true;
    } else if (name == "--progress") {
      opt.flag();
      o.progress = true;
    } else if (name == "--explain") {
      opt.flag();
      o.explain = true;
    } else if (name == "--layout") {
      o.layout = Layout(choose(name, opt.value(), kLayouts));
    } else if (name == "--bytes-per-unit") {
      o.bytes = examples::parse_bytes(name, opt.value(), 36, std::size_t(1) << 34);
    } else if (name == "--mode") {
      o.mode = Mode(choose(name, opt.value(), kModes));
    } else if (name == "--via") {
      o.via = Via(choose(name, opt.value(), kVias));
#ifndef DASH_EXAMPLE_HAVE_HDF5
      if (o.via == Via::hdf5)
        throw examples::UsageError(
            "--via hdf5: this build has no parallel HDF5 (install "
            "libhdf5-openmpi-dev or libhdf5-mpich-dev and rebuild)");
#endif
    } else if (name == "--aggregators") {
      o.aggregators = int(examples::parse_integer(name, opt.value(), 1, 1 << 24));
    } else if (name == "--tier") {
      const char* const tiers[] = {"dram", "hbm", "shm", "disk", "auto"};
      o.tier = tiers[choose(name, opt.value(), tiers)];
    } else if (name == "--dir") {
      o.dir = opt.value();
      if (o.dir.empty()) throw examples::UsageError("--dir: expected a directory");
    } else if (name == "--seed") {
      o.seed = std::uint64_t(examples::parse_integer(name, opt.value(), 0, 1LL << 62));
    } else if (name.rfind("-", 0) == 0) {
      throw examples::UsageError("unknown option '" + name + "' (try --help)");
    } else {
      throw examples::UsageError("unexpected argument '" + name + "' (try --help)");
    }
  });
  return o;
}

// Every unit's bytes (all units draw the same sizes from --seed).
std::vector<std::uint64_t> unit_sizes(const Options& o, int units) {
  std::mt19937_64 rng(o.seed);
  std::uniform_real_distribution<double> uniform(0.5, 1.5);
  std::normal_distribution<double> normal(1.0, 0.25);
  std::vector<std::uint64_t> sizes;
  const double n = double(o.bytes);
  for (int u = 0; u < units; ++u) {
    double s = n;
    if (o.layout == Layout::random) s = n * uniform(rng);
    if (o.layout == Layout::normal) s = n * std::clamp(normal(rng), 0.125, 2.0);
    const std::uint64_t quantum = o.layout == Layout::hacc ? 36 : 4;  // whole particles, words
    sizes.push_back(std::uint64_t(s) / quantum * quantum);
  }
  return sizes;
}

// The 4-byte word the file holds at byte `at` (a multiple of 4).
std::uint32_t word_at(std::uint64_t at, std::uint64_t seed) {
  return std::uint32_t(examples::mix64(at * 0x9e3779b97f4a7c15ull + seed));
}

// The calling unit's pieces: where its bytes lie in the file, and its memory.
struct Share {
  std::vector<char> memory;
  std::vector<dash::io::Piece> pieces;
  std::uint64_t total = 0;  // bytes of all units
};

Share share_of(const Options& o, int me, int units) {
  const std::vector<std::uint64_t> sizes = unit_sizes(o, units);
  std::uint64_t before = 0;
  Share s;
  for (int u = 0; u < units; ++u) {
    if (u < me) before += sizes[std::size_t(u)];
    s.total += sizes[std::size_t(u)];
  }
  const std::uint64_t own = sizes[std::size_t(me)];
  s.memory.assign(own, 0);
  if (o.layout == Layout::hacc) {  // nine arrays of 4-byte variables, units in order
    const std::uint64_t var = own / 9;
    for (std::uint64_t v = 0; v < 9; ++v)
      s.pieces.push_back({v * (s.total / 9) + before / 9, s.memory.data() + v * var, var});
  } else {
    s.pieces.push_back({before, s.memory.data(), own});
  }
  return s;
}

// Fills the pieces with the file's words.
void fill(Share& s, std::uint64_t seed) {
  for (const dash::io::Piece& p : s.pieces)
    for (std::uint64_t i = 0; i < p.bytes; i += 4) {
      const std::uint32_t w = word_at(p.offset + i, seed);
      std::memcpy(p.data + i, &w, 4);
    }
}

// A checksum of the calling unit's pieces (summed over units below): a hash
// of each word and where it lies; and how many words differ from the file's.
std::uint64_t checksum(const Share& s, std::uint64_t seed, std::uint64_t* wrong) {
  std::uint64_t sum = 0;
  for (const dash::io::Piece& p : s.pieces)
    for (std::uint64_t i = 0; i < p.bytes; i += 4) {
      std::uint32_t w;
      std::memcpy(&w, p.data + i, 4);
      sum += examples::mix64(w ^ ((p.offset + i) << 32));
      *wrong += w != word_at(p.offset + i, seed);
    }
  return sum;
}

// An MPI-IO call's failure: a failed operation, not a usage error (it may hit one unit only,
// so the run ends by abort_run, not by a collective dash::finalize that would wait for ever).
void check(int rc, const std::string& what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int n = 0;
  if (MPI_Error_string(rc, text, &n) != MPI_SUCCESS) n = 0;
  throw dash::exception::RuntimeError(what + ": " +
                                      (n > 0 ? std::string(text, std::size_t(n)) : "MPI error"));
}

// The aggregator count MPI reports for an open file (ROMIO's cb_nodes hint), 0 if none.
int reported_cb_nodes(MPI_File f) {
  MPI_Info info;
  if (MPI_File_get_info(f, &info) != MPI_SUCCESS) return 0;
  char value[32] = "";
  int found = 0;
  MPI_Info_get(info, "cb_nodes", int(sizeof value) - 1, value, &found);
  MPI_Info_free(&info);
  return found ? std::atoi(value) : 0;
}

// MPI-IO, one collective call per piece (every unit has as many); returns the aggregator
// count MPI reports for the file (0 if none).
int mpiio(const Options& o, const std::string& path, const Share& s, bool write) {
  MPI_Info info = MPI_INFO_NULL;
  if (o.aggregators > 0) {
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_nodes", std::to_string(o.aggregators).c_str());
  }
  MPI_File f;
  const int rc =
      MPI_File_open(MPI_COMM_WORLD, path.c_str(),
                    write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY, info, &f);
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  check(rc, "MPI_File_open '" + path + "'");
  const int cb_nodes = reported_cb_nodes(f);
  for (const dash::io::Piece& p : s.pieces) {
    const MpiBytes bytes(p.bytes);  // one call per piece, beyond 2^31 - 1 bytes too
    if (write)
      check(MPI_File_write_at_all(f, MPI_Offset(p.offset), p.data, bytes.count, bytes.type,
                                  MPI_STATUS_IGNORE),
            "MPI_File_write_at_all");
    else
      check(MPI_File_read_at_all(f, MPI_Offset(p.offset), p.data, bytes.count, bytes.type,
                                 MPI_STATUS_IGNORE),
            "MPI_File_read_at_all");
  }
  if (write) check(MPI_File_sync(f), "MPI_File_sync");
  check(MPI_File_close(&f), "MPI_File_close");
  return cb_nodes;
}

int run(const Options& o) {
  const int me = int(dash::myid().id), units = int(dash::size());
  const std::string path =
      o.dir + "/io-bench-" + kLayouts[int(o.layout)] + (o.via == Via::hdf5 ? ".h5" : ".bin");
  Share s = share_of(o, me, units);
  dash::io::IoSettings settings;
  settings.aggregators = o.aggregators;
  settings.tier = o.tier;
  settings.explain = o.explain;
  // The workflow of Tessier, Vishwanath & Jeannot ("Adding topology and memory
  // awareness in data aggregation algorithms", FGCS 2024): written through a
  // node-local tier, read back from it.
  settings.burst_buffer = o.mode == Mode::workflow;
  // dash: what the last call reports (tier=none aggregators=0 for a write without
  // aggregation); mpiio, hdf5: the library buffers as it does, not a tier dash::io chose.
  std::string tier = kVias[int(o.via)];
  int aggregators =
      o.via == Via::dash ? dash::io::aggregator_count(dash::Team::All(), settings) : 0;
  if (me == 0)
    std::printf("io-bench: %d units, layout %s, %" PRIu64 " bytes in all, mode %s via %s, %s\n",
                units, kLayouts[int(o.layout)], s.total, kModes[int(o.mode)], kVias[int(o.via)],
                path.c_str());
  if (o.mode != Mode::read) fill(s, o.seed);
  // The tiers are probed on first use (tens of ms): before the clock starts.
  if (o.via == Via::dash && o.tier == "auto")
    examples::agreed_or_usage_error("--tier auto", [] { dash::io::node_tiers(); });
  auto move = [&](bool write) {
    if (o.via == Via::hdf5) {
#ifdef DASH_EXAMPLE_HAVE_HDF5
      examples::agreed_or_usage_error(write ? "write" : "read", [&] {
        if (write && me == 0) dash::io::remove(path);  // a new file, as dash::io writes
        MPI_Barrier(MPI_COMM_WORLD);
        if (write)
          dash::io::hdf5::write_pieces(path, "/data", s.pieces, s.total);
        else
          dash::io::hdf5::read_pieces(path, "/data", s.pieces);
      });
#endif
    } else if (o.via == Via::dash) {
      examples::agreed_or_usage_error(write ? "write" : "read", [&] {
        const dash::io::IoReport r =
            write ? dash::io::write_pieces(path, s.pieces, dash::Team::All(), settings)
                  : dash::io::read_pieces(path, s.pieces, dash::Team::All(), settings);
        tier = r.tier;
        aggregators = r.aggregators;
      });
    } else {
      if (write && me == 0) dash::io::remove(path);  // a new file, as dash::io writes
      MPI_Barrier(MPI_COMM_WORLD);
      aggregators = mpiio(o, path, s, write);
    }
  };
  examples::Progress progress(kProgram, o.progress);
  const std::string amount = std::to_string(s.total) + " bytes";
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  if (o.mode != Mode::read) {
    progress.phase("writing " + amount);
    move(true);
  }
  if (o.mode != Mode::write) {
    std::fill(s.memory.begin(), s.memory.end(), char(0));
    progress.phase("reading " + amount);
    move(false);
  }
  progress.done();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double slowest = 0;
  MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (o.via == Via::dash && o.mode == Mode::workflow) {  // the background copy to <dir>
    const auto drain_start = std::chrono::steady_clock::now();
    progress.phase("draining the node-local files to " + path);
    examples::agreed_or_usage_error("drain", [] { dash::io::drain(); });
    progress.done();
    const double drain_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - drain_start).count();
    if (me == 0)
      std::printf(
          "io-bench: write and read through node-local files %.3f s; the drain to %s "
          "then took %.3f s more\n",
          slowest, path.c_str(), drain_s);
  }
  std::uint64_t wrong = 0, sum = checksum(s, o.seed, &wrong), all_wrong = 0, all_sum = 0;
  MPI_Allreduce(&sum, &all_sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&wrong, &all_wrong, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (o.mode == Mode::workflow && !o.keep && me == 0) dash::io::remove(path);  // with its parts
  const double bytes = double(s.total) * (o.mode == Mode::workflow ? 2 : 1);
  if (me == 0) {
    if (all_wrong > 0)
      std::printf("io-bench: %" PRIu64 " words differ from what was written\n", all_wrong);
    std::printf("bandwidth_GBps=%.3f tier=%s aggregators=%d checksum=%016" PRIx64 "\n",
                bytes / slowest * 1e-9, tier.c_str(), aggregators, all_sum);
  }
  return all_wrong > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  return examples::run_with_options(kProgram, kUsage, &argc, &argv, parse_args, run);
}
