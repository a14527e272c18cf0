// Out-of-core storage against the device it runs on, measured in the same
// run (unit 0 only; the store is local):
//   BM_store_spill/<MiB per block>   BlockStore::put of 128 MiB in blocks,
//                                    then flush, with DASH_OOC_DIRECT=1 (the
//                                    device, not the page cache)
//       write_fsync   one sequential write() of the same bytes + fsync
//   BM_store_load/<MiB per block>    the files of those blocks read back:
//                                    prefetch(k + 1), take(k), recycle the
//                                    buffer (as the Master does), O_DIRECT
//       files_direct  the same files read with O_DIRECT pread()s, one after
//                     the other, into two buffers from the store's pool (the
//                     memory the store reads into): the device for these
//                     files and this memory, without the engine
//       files_checked the same, each block's checksum computed after its
//                     read (the work the store does, not overlapped)
//       cold_read     one sequential read() of a file of the same bytes after
//                     fsync + posix_fadvise(DONTNEED) (a cold page cache; in a
//                     virtual machine the host may still cache the disk)
//       direct_read   one O_DIRECT read() of that file into an aligned buffer
//       direct_blocks O_DIRECT pread()s of that file, one block's bytes each,
//                     one after the other (what the device gives for
//                     requests of the block's size)
//   BM_checksum                      the checksum of spill and local array
//                                    files (internal::spill_checksum) over 64 MiB
//       checksum64    the saved files' checksum of the same bytes
//       memcpy        a copy of the same bytes (memory bandwidth)
//   BM_foreach_ooc/<blocks in memory>  foreach over 16 blocks of 8 MiB that
//                                    each cost about as much compute as the
//                                    device needs to move them, at most M in
//                                    memory (16: all), DASH_OOC_DIRECT=1
//       in_core       the same foreach with every block in memory
//   BM_foreach_ooc_payload/<M>       the same with blocks whose doubles are a
//                                    payload (release_payload / adopt_payload):
//                                    evicted and loaded without a copy
//   BM_jacobi_ooc/<strategy>/<S>     two Jacobi sweeps (ooc-jacobi's kernel) of a
//                                    4096 x 2048 matrix of doubles (64 MiB) whose
//                                    local array is a file, slabs of 1/S, one
//                                    in memory, strategy 0 collective, 1
//                                    producer, 2 demand, DASH_OOC_DIRECT=1
//       in_core       the same sweeps on a dash::Matrix in memory
//   BM_copy_ooc/<way>                dash::ooc::copy of a 4096 x 2048 matrix of
//                                    doubles (64 MiB) in a file, slabs of 1/8, with
//                                    a dash::Matrix: 0 of the same pattern
//                                    (local road), 1 of 256 x 256 tiles (view
//                                    road), 2 the tiles into the file
//       file_only     reading every slab once (0, 1) or writing it (2)
//   BM_fft2d_ooc/<strategy>/<S>      the 2-D FFT of ooc-fft2d (row FFTs, transpose,
//                                    row FFTs) of a 2048 x 2048 matrix of complex
//                                    doubles (64 MiB) whose local arrays are
//                                    files, slabs of 1/S, strategy 0
//                                    collective, 1 producer, DASH_OOC_DIRECT=1
//       in_core       the same FFT on dash::Matrix in memory
//       plain_fftw    the same FFT as a plain program: FFTW on std::vector rows,
//                     a tiled transpose (the reference of the in-core path)
// Counters: ns_per_byte (or per block, per sweep, per FFT) of each side, ratio_vs_<baseline>
// (median of subject / baseline), and for foreach the bytes read and written
// per pass and io_bound_ratio = time / max(in-core time, bytes moved at the
// device bandwidth measured by BM_store_spill/BM_store_load's baselines).
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/Team.h>
#include <dash/bp/ContainerBlocks.h>
#include <dash/bp/Master.h>
#include <dash/ooc/BlockStore.h>
#include <dash/ooc/Ghosts.h>
#include <dash/ooc/Matrix.h>
#include <dash/ooc/SpillDirectory.h>
#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>
#include <workloads/ooc-jacobi/Jacobi.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../dash/src/Checksum.h"  // white-box: BM_checksum times the private file checksums
#ifdef DASH_BENCH_HAVE_FFTW3
#include <dash/ooc/Transpose.h>
#include <workloads/ooc-fft2d/RowFft.h>
#endif
#include "support/paired.h"
#include "support/raw_file.h"
#include "support/runner.h"

namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;
constexpr std::size_t kTotalBytes = 128 * kMiB;

dash::bp::Bytes Filled(std::size_t n, std::uint64_t seed) {
  dash::bp::Bytes b;
  b.resize(n);
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    std::memcpy(b.data() + i, &x, 8);
  }
  return b;
}

std::unique_ptr<bench::RawFile> raw;
double device_write_bytes_per_s = 0, device_read_bytes_per_s = 0;

// Whether BM_store_spill and BM_store_load measured the device; if not,
// skips the benchmark with an error saying so.
bool HasDeviceFigures(benchmark::State& state) {
  if (device_write_bytes_per_s > 0 && device_read_bytes_per_s > 0) return true;
  state.SkipWithError("needs the device figures of BM_store_spill and BM_store_load first");
  for (auto _ : state) {
  }
  return false;
}

// The blocks of one size, made once.
std::vector<dash::bp::Bytes> Blocks(std::size_t block_bytes) {
  std::vector<dash::bp::Bytes> blocks;
  for (std::size_t k = 0; k < kTotalBytes / block_bytes; ++k)
    blocks.push_back(Filled(block_bytes, k));
  return blocks;
}

void BM_store_spill(benchmark::State& state) {
  const std::size_t block_bytes = std::size_t(state.range(0)) * kMiB;
  const auto blocks = Blocks(block_bytes);
  dash::ooc::BlockStore store("spill");
  std::vector<dash::bp::Bytes> copies(blocks.size());
  bench::run_paired(state, double(kTotalBytes), "byte",
                    bench::Side{"store",
                                [&] {
                                  for (std::size_t k = 0; k < blocks.size(); ++k)
                                    store.put(k, std::move(copies[k]));
                                  store.flush();
                                },
                                [&] {
                                  for (std::size_t k = 0; k < blocks.size(); ++k) {
                                    store.erase(k);
                                    copies[k] = blocks[k];
                                  }
                                }},
                    {bench::Side{"write_fsync", [&] { raw->write_fsync(); }}});
  device_write_bytes_per_s = 1e9 / state.counters["write_fsync_ns_per_byte"].value;
  state.SetLabel("BlockStore put+flush of 128 MiB in " + std::to_string(state.range(0)) +
                 " MiB blocks (O_DIRECT) vs write()+fsync of 128 MiB; ratio = time(store) / "
                 "time(write_fsync)");
  state.SetBytesProcessed(state.iterations() * std::int64_t(kTotalBytes));
}

// The store's extents of keys [0, n) (each block, padded to whole pages with
// its 32-byte trailer, in the unit's one spill file) read with O_DIRECT
// pread()s, one after the other, into two buffers from the store's own pool
// (the memory its reads land in), then handed back; with `check`, each block's
// checksum after its read, as the store verifies it. The device for these
// extents and this memory without the engine (no thread, no prefetch; the
// checksum not overlapped).
void ReadStoreFiles(dash::ooc::BlockStore& store, std::size_t n, std::size_t block_bytes,
                    bool check) {
  dash::bp::Bytes into[2] = {store.buffer(block_bytes), store.buffer(block_bytes)};
  const std::size_t extent = (block_bytes + 32 + 4095) / 4096 * 4096;
  std::uint64_t sum = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::string path = store.path_of(k);
    const int fd = open(path.c_str(), O_RDONLY | O_DIRECT);
    if (fd < 0) throw std::runtime_error("open " + path + ": " + std::strerror(errno));
    dash::bp::Bytes& b = into[k % 2];
    std::string error;
    if (b.capacity() < extent)
      error = "a pool buffer is smaller than an extent of " + path;
    else if (pread(fd, b.data(), extent, off_t(store.offset_of(k))) != ssize_t(extent))
      error = "read " + path + ": " + std::strerror(errno);
    close(fd);
    if (!error.empty()) throw std::runtime_error(error);
    if (check) sum ^= dash::internal::checksum64(b.data(), block_bytes);
  }
  benchmark::DoNotOptimize(sum);
  for (auto& b : into) store.recycle(std::move(b));
}

// The store's blocks [0, n) loaded as the Master loads them: the next one
// prefetched, this one taken, its buffer handed back for a later read.
void LoadFromStore(dash::ooc::BlockStore& store, std::size_t n) {
  store.prefetch(0);
  for (std::size_t k = 0; k < n; ++k) {
    if (k + 1 < n) store.prefetch(k + 1);
    dash::bp::Bytes loaded = store.take(k);
    benchmark::DoNotOptimize(loaded.data());
    store.recycle(std::move(loaded));
  }
}

void BM_store_load(benchmark::State& state) {
  const std::size_t block_bytes = std::size_t(state.range(0)) * kMiB;
  const auto blocks = Blocks(block_bytes);
  dash::ooc::BlockStore store("load");
  const std::size_t n = blocks.size();
  auto put_all = [&] {
    for (std::size_t k = 0; k < n; ++k) store.put(k, blocks[k]);
    store.flush();
  };
  bench::run_paired(
      state, double(kTotalBytes), "byte",
      bench::Side{"store", [&] { LoadFromStore(store, n); }, put_all},
      {bench::Side{"files_direct", [&] { ReadStoreFiles(store, n, block_bytes, false); }, put_all},
       bench::Side{"files_checked", [&] { ReadStoreFiles(store, n, block_bytes, true); }, put_all},
       bench::Side{"cold_read", [&] { raw->cold_read(); },
                   [&] {
                     raw->write_fsync();
                     raw->drop_cache();
                   }},
       bench::Side{"direct_read", [&] { raw->direct_read(); }},
       bench::Side{"direct_blocks", [&] { raw->direct_read(block_bytes); }}});
  device_read_bytes_per_s = 1e9 / state.counters["cold_read_ns_per_byte"].value;
  state.SetLabel(
      "BlockStore prefetch+take of 128 MiB in " + std::to_string(state.range(0)) +
      " MiB blocks (O_DIRECT) vs O_DIRECT reads of the same files into the same buffers "
      "(without and with the checksum), "
      "read() of a cold 128 MiB file, its O_DIRECT read, and its O_DIRECT read in requests "
      "of one block; "
      "ratio = time(store) / time(baseline)");
  state.SetBytesProcessed(state.iterations() * std::int64_t(kTotalBytes));
}

void BM_checksum(benchmark::State& state) {
  constexpr std::size_t kBytes = 64 * kMiB;
  const dash::bp::Bytes data = Filled(kBytes, 7);
  std::vector<char> copy(kBytes);
  std::uint64_t sum = 0;
  bench::run_paired(state, double(kBytes), "byte",
                    bench::Side{"spill_checksum",
                                [&] {
                                  sum ^= dash::internal::spill_checksum(data.data(), kBytes);
                                  benchmark::DoNotOptimize(sum);
                                }},
                    {bench::Side{"checksum64",
                                 [&] {
                                   sum ^= dash::internal::checksum64(data.data(), kBytes);
                                   benchmark::DoNotOptimize(sum);
                                 }},
                     bench::Side{"memcpy", [&] {
                                   std::memcpy(copy.data(), data.data(), kBytes);
                                   benchmark::DoNotOptimize(copy.data());
                                 }}});
  state.SetLabel(
      "spill_checksum (spill and local array files: CRC32C in three lanes where the CPU has "
      "it) of 64 MiB vs checksum64 (saved files) and memcpy of 64 MiB; ratio = time(spill) / "
      "time(other)");
  state.SetBytesProcessed(state.iterations() * std::int64_t(kBytes));
}

// A block with 8 MiB of doubles and compute that costs about what moving it
// costs: saved and loaded as a std::vector (copied when evicted and loaded).
struct Slab {
  std::vector<double> x;
  double* data() { return x.data(); }
  std::size_t size() const { return x.size(); }
  void fill(std::size_t n, double v) { x.assign(n, v); }
};

// The same doubles as a payload (release_payload / adopt_payload): evicted
// and loaded without a copy, as an out-of-core matrix's slabs are.
struct PayloadSlab {
  dash::bp::Bytes bytes;
  double* data() { return reinterpret_cast<double*>(bytes.data()); }
  std::size_t size() const { return bytes.size() / sizeof(double); }
  void fill(std::size_t n, double v) {
    bytes.resize(n * sizeof(double));
    std::fill(data(), data() + n, v);
  }
  bool can_release_payload() const { return true; }
  bool payload_resident() const { return bytes.size() > 0; }
  dash::bp::Bytes release_payload() { return std::move(bytes); }
  void adopt_payload(dash::bp::Bytes b) { bytes = std::move(b); }
};

}  // namespace

template <>
struct dash::bp::Serialization<Slab> {
  static void save(MemoryBuffer& buf, const Slab& s) { dash::bp::save(buf, s.x); }
  static void load(MemoryBuffer& buf, Slab& s) { dash::bp::load(buf, s.x); }
};

namespace {

constexpr int kSlabs = 16;
constexpr std::size_t kSlabDoubles = kMiB;  // 8 MiB

// Sweeps of x = x * a + b over the slab; enough sweeps to cost about the
// time the device needs to write and read 8 MiB.
int sweeps = 1;

// Not inlined: both sides run this one copy of the loop (inlined into each
// caller, one copy came out twice as slow as the other).
template <class S>
[[gnu::noinline]] void compute(S& s) {
  double* x = s.data();
  const std::size_t n = s.size();
  for (int r = 0; r < sweeps; ++r)
    for (std::size_t i = 0; i < n; ++i) x[i] = x[i] * 0.999999 + 1e-9 * r;
  benchmark::DoNotOptimize(x);
}

template <class S>
std::unique_ptr<dash::bp::Master<S>> MakeSlabs(std::size_t limit) {
  // Every slab on the calling unit (unit 0 measures alone).
  auto master = std::make_unique<dash::bp::Master<S>>(
      kSlabs, [](int) { return int(dash::Team::All().myid().id); }, dash::Team::All());
  master->limit(limit);
  for (int gid = 0; gid < kSlabs; ++gid) {
    auto s = std::make_unique<S>();
    s->fill(kSlabDoubles, 1.0 + gid);
    master->add(gid, std::move(s), {});
  }
  return master;
}

template <class S>
void ForeachOoc(benchmark::State& state, const char* what) {
  const std::size_t limit = std::size_t(state.range(0));
  if (!HasDeviceFigures(state)) return;
  // Sweeps so that one slab computes about as long as it takes to write and read it.
  const double slab_bytes = double(kSlabDoubles * sizeof(double));
  const double io_seconds =
      slab_bytes / device_write_bytes_per_s + slab_bytes / device_read_bytes_per_s;
  {
    S probe;
    probe.fill(kSlabDoubles, 1.0);
    sweeps = 1;
    const auto t0 = bench::Clock::now();
    compute(probe);
    const double one = std::chrono::duration<double>(bench::Clock::now() - t0).count();
    sweeps = std::max(1, int(std::lround(io_seconds / one)));
  }
  auto spilled = MakeSlabs<S>(limit);
  auto in_core = MakeSlabs<S>(0);
  dash::bp::SpillCounters before{}, after{};
  bench::run_paired(
      state, double(kSlabs), "block",
      bench::Side{"ooc", [&] { spilled->foreach ([](S& s, dash::bp::Proxy&) { compute(s); }); },
                  [&] { before = spilled->spill_counters(); }},
      {bench::Side{"in_core",
                   [&] { in_core->foreach ([](S& s, dash::bp::Proxy&) { compute(s); }); }}});
  after = spilled->spill_counters();
  const double read = double(after.bytes_read - before.bytes_read);
  const double written = double(after.bytes_written - before.bytes_written);
  state.counters["bytes_read_per_pass"] = read;
  state.counters["bytes_written_per_pass"] = written;
  const double in_core_s = state.counters["in_core_ns_per_block"].value * kSlabs * 1e-9;
  const double io_s = read / device_read_bytes_per_s + written / device_write_bytes_per_s;
  const double ooc_s = state.counters["ns_per_block"].value * kSlabs * 1e-9;
  state.counters["io_bound_ratio"] = ooc_s / std::max(in_core_s, io_s);
  state.SetLabel(std::string("foreach over 16 blocks of 8 MiB (") + what + "), " +
                 std::to_string(limit) +
                 " in memory (O_DIRECT), compute per block ~ its write+read time, vs all in "
                 "memory; io_bound_ratio = time / max(in-core time, last pass's bytes at the "
                 "device bandwidth)");
}

void BM_foreach_ooc(benchmark::State& state) { ForeachOoc<Slab>(state, "std::vector, copied"); }
void BM_foreach_ooc_payload(benchmark::State& state) {
  ForeachOoc<PayloadSlab>(state, "payload, not copied");
}

// The team of unit 0 alone (unit 0 measures alone).
dash::Team* alone = nullptr;

void BM_jacobi_ooc(benchmark::State& state) {
  using Block = dash::bp::ContainerBlock<double, 2>;
  const dash::ooc::Ghosts strategies[] = {dash::ooc::Ghosts::collective,
                                          dash::ooc::Ghosts::producer, dash::ooc::Ghosts::demand};
  const char* const names[] = {"collective", "producer", "demand"};
  const auto strategy = strategies[state.range(0)];
  const int slabs = int(state.range(1));
  if (!HasDeviceFigures(state)) return;
  constexpr long kRows = 4096, kCols = 2048;
  constexpr int kSweeps = 2;
  const dash::SizeSpec<2> size(kRows, kCols);
  const dash::DistributionSpec<2> dist(dash::BLOCKED, dash::BLOCKED);
  const dash::bp::HaloSpec<2> halo{1, false, {false, false}};
  auto start = [](const std::array<long, 2>& g) { return double((g[0] * 31 + g[1]) % 1000); };
  dash::ooc::Matrix<double, 2> m(size, dist, *alone, slabs);
  m.generate(start);
  m.file()->flush();
  auto master = dash::bp::of(m, halo, 1);
  dash::bp::post_halos(master);  // the halos the producer strategy's first sweep takes
  dash::Matrix<double, 2> in_core(size, dist, *alone);
  auto in_core_master = dash::bp::of(in_core, halo);
  in_core_master.foreach ([&](Block& b, dash::bp::Proxy&) {
    for (long i = 0; i < b.extent(0); ++i)
      for (long j = 0; j < b.extent(1); ++j)
        b(i, j) = start({b.box().min[0] + i, b.box().min[1] + j});
  });
  auto sweep = [](dash::bp::Master<Block>& on, dash::ooc::Ghosts how) {
    for (int k = 0; k < kSweeps; ++k)
      dash::ooc::sweep(on, how, [](Block& b, dash::bp::Proxy&) { examples::jacobi(b); });
  };
  dash::bp::SpillCounters before{};
  bench::run_paired(
      state, double(kSweeps), "sweep",
      bench::Side{"ooc", [&] { sweep(master, strategy); },
                  [&] { before = master.spill_counters(); }},
      {bench::Side{"in_core", [&] { sweep(in_core_master, dash::ooc::Ghosts::collective); }}});
  const dash::bp::SpillCounters after = master.spill_counters();
  const double read = double(after.bytes_read - before.bytes_read) / kSweeps;
  const double written = double(after.bytes_written - before.bytes_written) / kSweeps;
  state.counters["bytes_read_per_sweep"] = read;
  state.counters["bytes_written_per_sweep"] = written;
  const double in_core_s = state.counters["in_core_ns_per_sweep"].value * 1e-9;
  const double io_s = read / device_read_bytes_per_s + written / device_write_bytes_per_s;
  state.counters["io_bound_ratio"] =
      state.counters["ns_per_sweep"].value * 1e-9 / std::max(in_core_s, io_s);
  state.SetLabel(std::string(names[state.range(0)]) + " ghosts, slabs of 1/" +
                 std::to_string(slabs) +
                 " of 64 MiB, 1 in memory (O_DIRECT), vs in memory; io_bound_ratio = time / "
                 "max(in-core time, the sweep's bytes at the device bandwidth)");
}

void BM_copy_ooc(benchmark::State& state) {
  const int way = int(state.range(0));
  constexpr long kRows = 4096, kCols = 2048;
  constexpr int kSlabs = 8;
  const dash::SizeSpec<2> size(kRows, kCols);
  const dash::DistributionSpec<2> by_rows(dash::BLOCKED, dash::NONE);
  const dash::DistributionSpec<2> tiles(dash::TILE(256), dash::TILE(256));
  auto start = [](const std::array<long, 2>& g) { return double((g[0] * 31 + g[1]) % 1000); };
  dash::ooc::Matrix<double, 2> m(size, by_rows, *alone, kSlabs);
  m.generate(start);
  m.file()->flush();
  dash::Matrix<double, 2> in_core(size, way == 0 ? by_rows : tiles, *alone);
  double sink = 0;
  const bool into_file = way == 2;
  bench::run_paired(
      state, double(kRows * kCols * sizeof(double)), "byte",
      bench::Side{"copy",
                  [&] {
                    if (into_file) {
                      dash::ooc::copy(in_core, m);
                      m.file()->flush();
                    } else {
                      dash::ooc::copy(m, in_core);
                    }
                  }},
      {bench::Side{"file_only", [&] {
                     if (into_file) {  // every slab written once
                       m.generate(start);
                       m.file()->flush();
                     } else {  // every slab read once
                       m.for_each([&](const std::array<long, 2>&, double v) { sink += v; });
                     }
                   }}});
  benchmark::DoNotOptimize(sink);
  const char* const what[] = {"file -> dash::Matrix of the same pattern (rows, local)",
                              "file -> dash::Matrix of 256 x 256 tiles (views)",
                              "dash::Matrix of 256 x 256 tiles -> file (views)"};
  state.SetLabel(std::string("dash::ooc::copy ") + what[way] +
                 ", 64 MiB, slabs of 1/8 (O_DIRECT), vs reading (or writing) every slab once; "
                 "ratio = time(copy) / time(file_only)");
}

#ifdef DASH_BENCH_HAVE_FFTW3
// The 2-D FFT as a plain program writes it: FFTW on the rows of `a`, a transpose into `b` in
// 64 x 64 tiles, FFTW on the rows of `b` (the same plan as ooc-fft2d's).
void PlainFft2d(std::vector<std::complex<double>>& a, std::vector<std::complex<double>>& b, long n,
                const examples::RowFft& fft) {
  fft(dash::ooc::Rows<std::complex<double>>{a.data(), 0, n, n});
  constexpr long kTile = 64;
  for (long i0 = 0; i0 < n; i0 += kTile)
    for (long j0 = 0; j0 < n; j0 += kTile)
      for (long i = i0; i < std::min(n, i0 + kTile); ++i)
        for (long j = j0; j < std::min(n, j0 + kTile); ++j)
          b[std::size_t(j * n + i)] = a[std::size_t(i * n + j)];
  fft(dash::ooc::Rows<std::complex<double>>{b.data(), 0, n, n});
}

void BM_fft2d_ooc(benchmark::State& state) {
  using Complex = std::complex<double>;
  const dash::ooc::Strategy strategies[] = {dash::ooc::Strategy::collective,
                                            dash::ooc::Strategy::producer};
  const char* const names[] = {"collective", "producer"};
  const auto strategy = strategies[state.range(0)];
  const int slabs = int(state.range(1));
  if (!HasDeviceFigures(state)) return;
  constexpr long kN = 2048;
  const dash::SizeSpec<2> size(kN, kN);
  const dash::DistributionSpec<2> by_rows(dash::BLOCKED, dash::NONE);
  auto start = [](const std::array<long, 2>& g) {
    return Complex(double((g[0] * 31 + g[1]) % 1000), double((g[0] + 7 * g[1]) % 997));
  };
  const examples::RowFft fft(kN);
  dash::ooc::Matrix<Complex, 2> a(size, by_rows, *alone, slabs), b(size, by_rows, *alone, slabs);
  dash::Matrix<Complex, 2> ia(size, by_rows, *alone), ib(size, by_rows, *alone);
  std::vector<Complex> pa(std::size_t(kN * kN)), pb(std::size_t(kN * kN));
  dash::bp::SpillCounters moved{};  // over the ooc passes
  auto add = [&](const dash::bp::SpillCounters& c, int sign) {
    moved.bytes_read += std::uint64_t(sign) * c.bytes_read;
    moved.bytes_written += std::uint64_t(sign) * c.bytes_written;
  };
  bench::run_paired(state, 1.0, "fft",
                    bench::Side{"ooc",
                                [&] {
                                  add(a.counters(), -1);
                                  add(b.counters(), -1);
                                  add(dash::ooc::transpose(a, b, strategy, fft, fft), 1);
                                  add(a.counters(), 1);
                                  add(b.counters(), 1);
                                },
                                [&] {
                                  a.generate(start);
                                  a.file()->flush();
                                }},
                    {bench::Side{"in_core", [&] { dash::ooc::transpose(ia, ib, fft, fft); },
                                 [&] {
                                   for (long i = 0; i < kN; ++i)
                                     for (long j = 0; j < kN; ++j)
                                       ia.lbegin()[i * kN + j] = start({i, j});
                                 }},
                     bench::Side{"plain_fftw", [&] { PlainFft2d(pa, pb, kN, fft); },
                                 [&] {
                                   for (long i = 0; i < kN; ++i)
                                     for (long j = 0; j < kN; ++j) pa[i * kN + j] = start({i, j});
                                 }}});
  // The three give the same bits (the same plan on the same rows).
  for (long i = 0; i < kN * kN; i += 4099)
    if (pb[std::size_t(i)] != ib.lbegin()[i]) state.SkipWithError("plain FFT != dash::Matrix FFT");
  const double runs = double(state.iterations());
  const double read = double(moved.bytes_read) / runs, written = double(moved.bytes_written) / runs;
  state.counters["bytes_read_per_fft"] = read;
  state.counters["bytes_written_per_fft"] = written;
  const double in_core_s = state.counters["in_core_ns_per_fft"].value * 1e-9;
  const double io_s = read / device_read_bytes_per_s + written / device_write_bytes_per_s;
  const double plain_s = state.counters["plain_fftw_ns_per_fft"].value * 1e-9;
  state.counters["io_bound_ratio"] =
      state.counters["ns_per_fft"].value * 1e-9 / std::max(plain_s, io_s);
  state.counters["in_core_vs_plain_fftw"] = in_core_s / plain_s;
  state.SetLabel(std::string(names[state.range(0)]) + " transpose, slabs of 1/" +
                 std::to_string(slabs) +
                 " of 64 MiB (O_DIRECT), vs in memory; io_bound_ratio = time / max(plain FFTW "
                 "in memory, the FFT's bytes at the device bandwidth)");
}
#endif

BENCHMARK(BM_store_spill)
    ->ArgName("block_mib")
    ->Arg(1)
    ->Arg(4)
    ->Arg(16)
    ->Iterations(3)
    ->UseManualTime();
BENCHMARK(BM_store_load)
    ->ArgName("block_mib")
    ->Arg(1)
    ->Arg(4)
    ->Arg(16)
    ->Iterations(3)
    ->UseManualTime();
BENCHMARK(BM_checksum)->Iterations(5)->UseManualTime();
BENCHMARK(BM_foreach_ooc)
    ->ArgName("limit")
    ->Arg(16)
    ->Arg(8)
    ->Arg(4)
    ->Arg(1)
    ->Iterations(3)
    ->UseManualTime();
BENCHMARK(BM_foreach_ooc_payload)
    ->ArgName("limit")
    ->Arg(16)
    ->Arg(8)
    ->Arg(4)
    ->Arg(1)
    ->Iterations(3)
    ->UseManualTime();
BENCHMARK(BM_jacobi_ooc)
    ->ArgNames({"strategy", "slabs"})
    ->ArgsProduct({{0, 1, 2}, {2, 4, 16}})
    ->Iterations(3)
    ->UseManualTime();
BENCHMARK(BM_copy_ooc)->ArgName("way")->Arg(0)->Arg(1)->Arg(2)->Iterations(3)->UseManualTime();
#ifdef DASH_BENCH_HAVE_FFTW3
BENCHMARK(BM_fft2d_ooc)
    ->ArgNames({"strategy", "slabs"})
    ->ArgsProduct({{0, 1}, {2, 4, 16}})
    ->Iterations(3)
    ->UseManualTime();
#endif

}  // namespace

int main(int argc, char** argv) {
  return bench::guarded_main("ooc", [&] {
    dash::init(&argc, &argv);
    setenv("DASH_OOC_DIRECT", "1", 1);                         // the device, not the page cache
    alone = &dash::Team::All().split(unsigned(dash::size()));  // one unit per team
    const int me = int(dash::myid().id);
    if (me == 0)
      raw = std::make_unique<bench::RawFile>(
          dash::ooc::SpillDirectory::instance().path() + "/raw-baseline", kTotalBytes);
    bench::run_on_unit_zero(argc, argv, me, int(dash::size()),
                            {{{"DASH_OOC_DIRECT", "1"},
                              {"spill_directory", dash::ooc::SpillDirectory::instance().path()}}});
    raw.reset();
    dash::finalize();
  });
}
