// copy_nd: throughput of dash::copy of N-D ranges of a dash::Matrix / dash::NArray<double, 2>
// into a local buffer, against the same bytes moved contiguously by plain memcpy and raw MPI,
// measured in the same benchmark, interleaved (bench::run_paired: each pass timed on its own,
// the order rotating every iteration, medians), with cold caches. Counters as in copy.cc:
//   bytes_per_second               the dash copy
//   ns_per_copy, <base>_ns_per_copy  median pass time
//   ratio_vs_<base>                median of time(dash) / time(baseline): 1.00 = as fast
//
//   BM_copy_nd_rows/<bytes>
//       a canonical range m.begin() + a .. + n of a row-distributed NArray (BLOCKED x NONE,
//       rows of 1024 doubles), starting 17 elements into a row of unit 1's part and ending
//       inside a row: three rectangles, all unit 1's. Baselines: memcpy of the same bytes
//       between local buffers (memcpy) and MPI_Get + MPI_Win_flush of the same bytes from
//       unit 1's part of an MPI_Win_allocate window (mpi_get).
//   BM_copy_nd_tiles/<side>
//       the side x side view at the origin of a 1024 x 1024 Matrix (TilePattern, TILE(64) x
//       TILE(64), the tile rows dealt to the 2 units in turn), copied row-major into a local
//       buffer: half of the tiles are the calling unit's, half unit 1's, each a 64 x 64 tile
//       scattered into rows of the buffer. Baselines: memcpy of all the bytes (memcpy), and
//       the raw MPI equivalent of the same data movement, contiguous: MPI_Get + flush of
//       unit 1's half plus memcpy of the own half (mpi_get_half+memcpy); and the same
//       tile-to-rows re-layout by hand from a local tiled buffer, one memcpy per tile row
//       (relayout). side = 1024 is the
//       seed paper's local matrix copy shape (1024^2 doubles, 64^2 tiles).
//
// Which path unit 1's part takes depends on the environment, as in copy.cc: same node by
// default (load/store, memcpy inside DART); DART_VIRTUAL_NODE_SIZE=1 or DART_SHARED_WINDOWS=0
// make it one-sided RMA (context key "remote_path"). Needs 2 units (skipped otherwise).
#include <benchmark/benchmark.h>
#include <libdash.h>
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/paired.h"
#include "support/runner.h"

namespace {

using bench::Side;
using RowMatrix = dash::NArray<double, 2>;
using TileMatrix = dash::Matrix<double, 2>;
using index_t = RowMatrix::index_type;

constexpr index_t kCols = 1024;                              // doubles per row
constexpr index_t kRowsPerUnit = 2048;                       // 16 MiB per unit
constexpr std::size_t kMaxRowBytes = std::size_t(8) << 20;   // largest row range
constexpr index_t kTileSide = 1024;                          // the tile matrix: 1024^2
constexpr std::size_t kWindowBytes = std::size_t(16) << 20;  // per unit
constexpr std::size_t kFlushBytes = std::size_t(8) << 20;    // > L2
constexpr const char* kDefaultMinTime = "0.05";              // seconds

struct Fixture {
  std::size_t units = 1;
  std::unique_ptr<RowMatrix> rows;
  std::unique_ptr<TileMatrix> tiles;
  MPI_Win win = MPI_WIN_NULL;  // kWindowBytes per unit
  std::vector<double> src, dst, flush;
  bool remote_load_store = false;
};
Fixture fx;

void flush_caches() {
  double s = 0;
  for (std::size_t i = 0; i < fx.flush.size(); i += 8) s += fx.flush[i];
  benchmark::DoNotOptimize(s);
  benchmark::ClobberMemory();
}

void check_mpi(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string(what) + " failed");
}

std::string remote_path() {
  return fx.remote_load_store ? "same node: load/store (memcpy in DART)" : "one-sided RMA";
}

bool skip_without_two_units(benchmark::State& state) {
  if (fx.units >= 2) return false;
  state.SkipWithError("skipped: needs 2 units (copies elements of unit 1)");
  for (auto _ : state) {
  }
  return true;
}

// MPI_Get + MPI_Win_flush of `bytes` from byte `disp` of unit 1's part of the window.
void get_from_unit1(double* dst, std::size_t disp, std::size_t bytes) {
  check_mpi(MPI_Get(dst, int(bytes), MPI_BYTE, 1, MPI_Aint(disp), int(bytes), MPI_BYTE, fx.win),
            "MPI_Get");
  check_mpi(MPI_Win_flush(1, fx.win), "MPI_Win_flush");
}

void BM_copy_nd_rows(benchmark::State& state) {
  if (skip_without_two_units(state)) return;
  const std::size_t bytes = std::size_t(state.range(0));
  const index_t n = index_t(bytes / sizeof(double));
  RowMatrix& m = *fx.rows;
  const RowMatrix::iterator first = m.begin() + (kRowsPerUnit * kCols + 17);
  double* dst = fx.dst.data();
  const double* src = fx.src.data();
  auto dash_pass = [&] {
    dash::copy(first, first + n, dst);
    benchmark::ClobberMemory();
  };
  // The baselines read the same number of bytes at the same alignment (17 doubles in).
  auto memcpy_pass = [&] {
    std::memcpy(dst, src + 17, bytes);
    benchmark::ClobberMemory();
  };
  auto mpi_pass = [&] {
    get_from_unit1(dst, 17 * sizeof(double), bytes);
    benchmark::ClobberMemory();
  };
  state.SetLabel(
      "dash::copy of a row range of a row-distributed NArray (rows of 1024 doubles, "
      "starting and ending inside rows, unit 1's elements: " +
      remote_path() +
      ") to a local buffer; vs memcpy of the same bytes (memcpy) and MPI_Get + "
      "MPI_Win_flush on an MPI_Win_allocate window (mpi_get)");
  bench::run_paired(state, 1, "copy", {"dash", dash_pass},
                    {{"memcpy", memcpy_pass}, {"mpi_get", mpi_pass}}, flush_caches);
  state.SetBytesProcessed(state.iterations() * bytes);
}

void BM_copy_nd_tiles(benchmark::State& state) {
  if (skip_without_two_units(state)) return;
  const index_t side = index_t(state.range(0));
  const std::size_t bytes = std::size_t(side * side) * sizeof(double);
  auto view = fx.tiles->view().sub<0>(0, std::size_t(side)).sub<1>(0, std::size_t(side));
  double* dst = fx.dst.data();
  const double* src = fx.src.data();
  auto dash_pass = [&] {
    dash::copy(view.begin(), view.end(), dst);
    benchmark::ClobberMemory();
  };
  auto memcpy_pass = [&] {
    std::memcpy(dst, src, bytes);
    benchmark::ClobberMemory();
  };
  auto mpi_pass = [&] {
    get_from_unit1(dst, 0, bytes / 2);
    std::memcpy(dst + side * side / 2, src, bytes / 2);
    benchmark::ClobberMemory();
  };
  // The same tile-to-rows re-layout by hand from a local tiled buffer: each 64 x 64 tile
  // (contiguous) into 64 rows of the row-major buffer, one memcpy of 512 B per tile row.
  auto relayout_pass = [&] {
    const index_t tiles = side / 64;
    for (index_t ti = 0; ti < tiles; ++ti) {
      for (index_t tj = 0; tj < tiles; ++tj) {
        const double* tile = src + (ti * tiles + tj) * 64 * 64;
        for (index_t r = 0; r < 64; ++r)
          std::memcpy(dst + (ti * 64 + r) * side + tj * 64, tile + r * 64, 64 * sizeof(double));
      }
    }
    benchmark::ClobberMemory();
  };
  state.SetLabel("dash::copy of the " + std::to_string(side) + "^2 view at the origin of a " +
                 "1024^2 Matrix (TILE(64) x TILE(64), tile rows dealt to 2 units; unit 1's " +
                 "tiles: " + remote_path() +
                 ") to a row-major local buffer; vs memcpy of the same bytes (memcpy), "
                 "MPI_Get + flush of unit 1's half plus memcpy of the own half, contiguous "
                 "(mpi_get_half+memcpy), and the same tile-to-rows re-layout by hand from a "
                 "local tiled buffer, one memcpy per tile row (relayout)");
  bench::run_paired(
      state, 1, "copy", {"dash", dash_pass},
      {{"memcpy", memcpy_pass}, {"mpi_get_half+memcpy", mpi_pass}, {"relayout", relayout_pass}},
      flush_caches);
  state.SetBytesProcessed(state.iterations() * bytes);
}

BENCHMARK(BM_copy_nd_rows)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->ArgName("bytes")
    ->RangeMultiplier(4)
    ->Range(std::size_t(64) << 10, kMaxRowBytes);
BENCHMARK(BM_copy_nd_tiles)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->ArgName("side")
    ->Arg(128)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024);

// Collective: the matrices (each unit writes its own elements: first touch by the owner), the
// baseline window, unit 0's buffers.
void setup(bool measuring) {
  fx.rows = std::make_unique<RowMatrix>(dash::SizeSpec<2>(fx.units * kRowsPerUnit, kCols),
                                        dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE));
  std::fill(fx.rows->lbegin(), fx.rows->lend(), 1.0);
  fx.tiles = std::make_unique<TileMatrix>(kTileSide, kTileSide, dash::TILE(64), dash::TILE(64));
  std::fill(fx.tiles->lbegin(), fx.tiles->lend(), 2.0);
  void* base = nullptr;
  MPI_Win_allocate(MPI_Aint(kWindowBytes), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &fx.win);
  std::memset(base, 0, kWindowBytes);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, fx.win);
  fx.remote_load_store =
      fx.units > 1 && fx.rows->globmem().shared_base(dash::team_unit_t(1)) != nullptr;
  if (!measuring) return;
  fx.src.assign(kWindowBytes / sizeof(double), 1.0);
  fx.dst.assign(kWindowBytes / sizeof(double), 0.0);
  fx.flush.assign(kFlushBytes / sizeof(double), 1.0);
}

void teardown() {
  MPI_Win_unlock_all(fx.win);
  MPI_Win_free(&fx.win);
  fx.tiles.reset();
  fx.rows.reset();
}

}  // namespace

int main(int argc, char** argv) {
  return bench::guarded_main("copy_nd", [&] {
    dash::init(&argc, &argv);
    const int me = dash::myid().id;
    fx.units = dash::size();
    setup(me == 0);
    dash::barrier();
    if (me == 0 && fx.units < 2)
      std::fprintf(stderr, "copy_nd: 1 unit, skipping (the benchmarks need 2 units)\n");
    bench::RunOptions options;
    options.context = {bench::env_context("DART_SHARED_WINDOWS", "1 (default)"),
                       bench::env_context("DART_VIRTUAL_NODE_SIZE", "0 (default)"),
                       {"remote_path", fx.units > 1 ? remote_path() : "none (1 unit)"}};
    options.default_min_time = kDefaultMinTime;
    bench::run_on_unit_zero(argc, argv, me, int(fx.units), options);
    teardown();
    dash::finalize();
  });
}
