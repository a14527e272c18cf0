// dash::bp::save and dash::bp::load against MPI-IO of the same bytes:
//   BM_save/<blocks per unit>/<KiB per block>  dash::bp::save of a master
//       whose blocks hold that many bytes (one file in $TMPDIR, written
//       as <file>.tmp, synced, renamed)
//     mpi_write_all  MPI_File_open, MPI_File_write_at_all of the unit's
//                    bytes at its offset (one contiguous buffer),
//                    MPI_File_sync, MPI_File_close: overwrites the file
//     mpi_write_all_replace  the same into a new file renamed over the old
//                    one (what an atomic replace costs the file system)
//   BM_load/<blocks per unit>/<KiB per block>  dash::bp::load into an empty
//       master (made untimed before each pass)
//     mpi_read_all   MPI_File_open, MPI_File_read_at_all of the unit's
//                    bytes, MPI_File_close
// The files stay in the page cache between passes on this machine (both
// sides alike). Counters: ns per byte of each side, ratio_vs_<side> (median
// of dash / MPI) and GB/s of dash.
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/Master.h>
#include <dash/bp/SaveLoad.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "../support/paired.h"

namespace {

struct Payload {
  std::vector<std::uint64_t> words;
};

}  // namespace

template <>
struct dash::bp::Serialization<Payload> {
  static void save(MemoryBuffer& buf, const Payload& p) { dash::bp::save(buf, p.words); }
  static void load(MemoryBuffer& buf, Payload& p) { dash::bp::load(buf, p.words); }
};

namespace {

std::string BenchDir() {
  const char* t = std::getenv("TMPDIR");
  return t != nullptr && t[0] != '\0' ? t : "/tmp";
}

struct SaveCase {
  int units = 1, me = 0, per_unit = 1;
  std::size_t words = 0;  // per block
  std::string dash_file, mpi_file;
  std::unique_ptr<dash::bp::Master<Payload>> master, loaded;
  std::vector<std::uint64_t> flat;  // the unit's bytes for MPI
};

std::unique_ptr<SaveCase> MakeCase(int per_unit, std::size_t kib) {
  auto c = std::make_unique<SaveCase>();
  c->units = int(dash::size());
  c->me = int(dash::myid().id);
  c->per_unit = per_unit;
  c->words = kib * 1024 / 8;
  std::string tag = std::to_string(per_unit) + "-" + std::to_string(kib);
  int pid = int(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  tag += "-" + std::to_string(pid);
  c->dash_file = BenchDir() + "/bench-save-dash-" + tag;
  c->mpi_file = BenchDir() + "/bench-save-mpi-" + tag;
  const int nb = per_unit * c->units;
  c->master = std::make_unique<dash::bp::Master<Payload>>(nb);
  for (int gid : dash::bp::local_gids(c->me, nb, c->units, dash::bp::Assignment::contiguous)) {
    auto p = std::make_unique<Payload>();
    p->words.resize(c->words);
    for (std::size_t i = 0; i < c->words; ++i) p->words[i] = std::uint64_t(gid) * 131 + i;
    c->master->add(gid, std::move(p), {});
  }
  c->flat.assign(c->words * std::size_t(per_unit), 7);
  return c;
}

void MpiWrite(SaveCase& c) {
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, c.mpi_file.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                MPI_INFO_NULL, &fh);
  const MPI_Offset bytes = MPI_Offset(c.flat.size() * 8);
  MPI_File_write_at_all(fh, bytes * c.me, c.flat.data(), int(bytes), MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_File_close(&fh);
}

// The same into "<file>.tmp", then renamed over the file (as save replaces
// a checkpoint): the file system's cost of a new file and of freeing the old.
void MpiWriteReplace(SaveCase& c) {
  const std::string tmp = c.mpi_file + ".tmp";
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, tmp.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  const MPI_Offset bytes = MPI_Offset(c.flat.size() * 8);
  MPI_File_write_at_all(fh, bytes * c.me, c.flat.data(), int(bytes), MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_File_close(&fh);
  if (c.me == 0) std::rename(tmp.c_str(), c.mpi_file.c_str());
  MPI_Barrier(MPI_COMM_WORLD);
}

void MpiRead(SaveCase& c) {
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, c.mpi_file.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  const MPI_Offset bytes = MPI_Offset(c.flat.size() * 8);
  MPI_File_read_at_all(fh, bytes * c.me, c.flat.data(), int(bytes), MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
}

void Cleanup(SaveCase& c) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (c.me == 0) {
    std::remove(c.dash_file.c_str());
    std::remove(c.mpi_file.c_str());
    std::remove((c.mpi_file + ".tmp").c_str());
  }
}

// Bytes per ns are GB/s.
void SetRates(benchmark::State& state) {
  const double ns = state.counters["ns_per_byte"];
  if (ns > 0) state.counters["GBps_per_unit"] = 1.0 / ns;
}

void BM_save(benchmark::State& state) {
  auto c = MakeCase(int(state.range(0)), std::size_t(state.range(1)));
  const double bytes = double(c->words * 8) * c->per_unit;
  bench::run_paired(state, bytes, "byte",
                    bench::Side{"dash", [&] { dash::bp::save(*c->master, c->dash_file); }},
                    {bench::Side{"mpi_write_all", [&] { MpiWrite(*c); }},
                     bench::Side{"mpi_write_all_replace", [&] { MpiWriteReplace(*c); }}},
                    [] { MPI_Barrier(MPI_COMM_WORLD); });
  SetRates(state);
  state.SetLabel("dash::bp::save vs MPI_File_write_at_all + sync of the same bytes, " +
                 std::to_string(c->per_unit) + " blocks of " + std::to_string(state.range(1)) +
                 " KiB per unit");
  Cleanup(*c);
}

void BM_load(benchmark::State& state) {
  auto c = MakeCase(int(state.range(0)), std::size_t(state.range(1)));
  const int nb = c->per_unit * c->units;
  dash::bp::save(*c->master, c->dash_file);
  MpiWrite(*c);
  const double bytes = double(c->words * 8) * c->per_unit;
  bench::run_paired(
      state, bytes, "byte",
      bench::Side{"dash", [&] { dash::bp::load(*c->loaded, c->dash_file); },
                  [&] { c->loaded = std::make_unique<dash::bp::Master<Payload>>(nb); }},
      {bench::Side{"mpi_read_all", [&] { MpiRead(*c); }}}, [] { MPI_Barrier(MPI_COMM_WORLD); });
  SetRates(state);
  bool same = c->loaded->size() == c->master->size();
  for (std::size_t i = 0; same && i < c->loaded->size(); ++i)
    same = c->loaded->block(i).words == c->master->block(i).words;
  if (!same) state.SkipWithError("dash::bp::load gave other blocks than were saved");
  state.SetLabel("dash::bp::load vs MPI_File_read_at_all of the same bytes, " +
                 std::to_string(c->per_unit) + " blocks of " + std::to_string(state.range(1)) +
                 " KiB per unit");
  Cleanup(*c);
}

BENCHMARK(BM_save)
    ->ArgNames({"blocks_per_unit", "kib"})
    ->ArgsProduct({{4, 64}, {64, 1024}})
    ->Iterations(8)
    ->UseManualTime();
BENCHMARK(BM_load)
    ->ArgNames({"blocks_per_unit", "kib"})
    ->ArgsProduct({{4, 64}, {64, 1024}})
    ->Iterations(8)
    ->UseManualTime();

}  // namespace
