// The block file of dash::bp::save and dash::bp::load
// (dash/io/internal/BlockFile.h): a container file written in rounds by the
// two-phase engine (TwoPhase.h); read record by record.
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/io/internal/BlockFile.h>
#include <dash/io/internal/ContainerFile.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "Checksum.h"
#include "io/BurstBuffer.h"
#include "io/ContainerFormat.h"
#include "io/LegacyBlockFile.h"
#include "io/TwoPhase.h"

namespace dash {
namespace io {
namespace internal {

namespace {

// The index at the start of the data: the count, a BlockRecord per block, the checksum of those.
std::uint64_t index_bytes(std::uint64_t nblocks) { return 8 + sizeof(BlockRecord) * nblocks + 8; }
static_assert(sizeof(BlockRecord) == 32, "an index entry is 32 bytes");

// The smallest chunk of a file written in several rounds: each round but the last is padded to
// a whole chunk, so the chunk is at most the smallest of those rounds (and at least this).
constexpr std::uint64_t kSmallestChunk = 4096;

std::uint64_t align_up(std::uint64_t n, std::uint64_t to) { return (n + to - 1) / to * to; }

int team_size(dart_team_t team) {
  std::size_t n = 0;
  check_io(dart_team_size(team, &n), "dart_team_size");
  return int(n);
}

// Whether the file at path starts as a file of the earlier format does (unit 0 looks; the
// answer on every unit). Anything unreadable is not: the container reader then says why.
bool earlier_format(const std::string& path, dart_team_t team, const char* who) {
  int legacy = 0;
  if (team_myid(team) == 0) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      struct stat st;
      char magic[8];
      legacy = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && pread(fd, magic, 8, 0) == 8 &&
               std::memcmp(magic, kLegacyBlockMagic, 8) == 0;
      (void)::close(fd);  // read only: nothing to lose
    }
  }
  check_io(dart_bcast(&legacy, 1, DART_TYPE_INT, dart_team_unit_t{0}, team),
           std::string(who) + ": dart_bcast");
  return legacy != 0;
}

}  // namespace

std::uint64_t record_checksum(const char* data, std::size_t n) {
  return dash::internal::checksum64(data, n);
}

std::vector<std::size_t> batch_cuts(const std::vector<std::uint64_t>& sizes,
                                    std::size_t round_bytes) {
  std::vector<std::size_t> cuts{0};
  std::uint64_t in_batch = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i > cuts.back() && in_batch >= round_bytes) {
      cuts.push_back(i);
      in_batch = 0;
    }
    in_batch += sizes[i];
  }
  if (!sizes.empty()) cuts.push_back(sizes.size());
  return cuts;
}

// ---------------------------------------------------------------------------
// Writing.

struct BlockFileWriter::State {
  Team* team;
  dart_team_t t;
  const char* who;
  int me = 0, units = 0, nblocks = 0, rounds = 1;
  IoSettings settings;
  std::vector<std::size_t> cuts;                  // the calling unit's batches
  std::vector<std::uint64_t> sizes, record_sums;  // its records
  std::vector<std::uint64_t> mine;                // its bytes per round
  std::vector<std::uint64_t> at;                  // where its bytes of round r start in the data
  std::vector<std::uint64_t> base;                // where round r starts in the data
  std::uint64_t data_bytes = 0, chunk = 1, nchunks = 0;
  std::vector<char> index;          // unit 0: the index, written in round 0
  std::vector<std::uint64_t> sums;  // per chunk, from the aggregator that wrote it
  std::unique_ptr<TargetFile> file;
};

BlockFileWriter::BlockFileWriter(const std::string& path, Team& team, int nblocks,
                                 const std::vector<std::uint64_t>& gids,
                                 const std::vector<std::uint64_t>& sizes,
                                 const std::vector<std::uint64_t>& sums,
                                 std::vector<std::size_t> cuts, const char* who)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.team = &team;
  s.t = team.dart_id();
  s.who = who;
  s.me = team_myid(s.t);
  s.units = team_size(s.t);
  s.nblocks = nblocks;
  s.cuts = std::move(cuts);
  s.sizes = sizes;
  s.record_sums = sums;
  const std::string w(who);
  dash::internal::Failure failure;
  captured(failure, [&] { s.settings = resolve_settings({}); });
  dash::internal::agree(failure, s.t, who);
  s.settings.burst_buffer = false;  // block files are written in place (SaveBlocks.h)

  // Rounds, and every unit's bytes per round.
  int batches = int(s.cuts.size()) - 1;
  check_io(dart_allreduce(&batches, &s.rounds, 1, DART_TYPE_INT, DART_OP_MAX, s.t),
           w + ": dart_allreduce");
  s.rounds = std::max(1, s.rounds);
  const std::size_t R = std::size_t(s.rounds);
  s.mine.assign(R, 0);
  for (std::size_t b = 0; b + 1 < s.cuts.size(); ++b)
    for (std::size_t i = s.cuts[b]; i < s.cuts[b + 1]; ++i) s.mine[b] += sizes[i];
  std::vector<std::uint64_t> all(R * std::size_t(s.units), 0);
  check_io(dart_allgather(s.mine.data(), all.data(), R, DART_TYPE_ULONGLONG, s.t),
           w + ": dart_allgather");
  auto bytes_of = [&](int u, std::size_t r) { return all[std::size_t(u) * R + r]; };

  // Where the rounds lie: the index first; every round but the last padded to whole chunks.
  const std::uint64_t index = index_bytes(std::uint64_t(nblocks));
  std::vector<std::uint64_t> region(R, 0);
  for (std::size_t r = 0; r < R; ++r) {
    region[r] = r == 0 ? index : 0;
    for (int u = 0; u < s.units; ++u) region[r] += bytes_of(u, r);
  }
  std::uint64_t chunk = s.settings.buffer_bytes;
  for (std::size_t r = 0; r + 1 < R; ++r) chunk = std::min(chunk, region[r]);
  if (R > 1) chunk = std::max(chunk, kSmallestChunk);
  s.base.assign(R, 0);
  s.at.assign(R, 0);
  for (std::size_t r = 0; r < R; ++r) {
    if (r > 0) s.base[r] = align_up(s.base[r - 1] + region[r - 1], chunk);
    s.at[r] = s.base[r] + (r == 0 ? index : 0);
    for (int u = 0; u < s.me; ++u) s.at[r] += bytes_of(u, r);
  }
  s.data_bytes = s.base[R - 1] + region[R - 1];
  s.chunk = std::max<std::uint64_t>(1, std::min(chunk, s.data_bytes));
  s.nchunks = (s.data_bytes + s.chunk - 1) / s.chunk;

  // The index on unit 0; every block held by exactly one unit, or nothing is written.
  std::vector<std::uint64_t> entries(4 * std::size_t(nblocks), 0), summed(entries.size(), 0);
  std::vector<int> held(std::size_t(nblocks), 0), held_all(held.size(), 0);
  for (std::size_t b = 0; b + 1 < s.cuts.size(); ++b) {
    std::uint64_t offset = s.at[b];
    for (std::size_t i = s.cuts[b]; i < s.cuts[b + 1]; ++i) {
      const std::size_t g = std::size_t(gids[i]);
      if (g >= std::size_t(nblocks)) continue;  // the master's add() refuses such gids
      std::uint64_t* e = &entries[4 * g];
      e[0] = g, e[1] = offset, e[2] = sizes[i], e[3] = sums[i];
      held[g] += 1;
      offset += sizes[i];
    }
  }
  if (nblocks > 0) {
    check_io(dart_reduce(entries.data(), summed.data(), entries.size(), DART_TYPE_ULONGLONG,
                         DART_OP_SUM, dart_team_unit_t{0}, s.t),
             w + ": dart_reduce");
    check_io(
        dart_allreduce(held.data(), held_all.data(), held.size(), DART_TYPE_INT, DART_OP_SUM, s.t),
        w + ": dart_allreduce");
  }
  for (int g = 0; g < nblocks; ++g)
    if (held_all[std::size_t(g)] != 1)
      throw exception::InvalidArgument(w + ": block " + std::to_string(g) + " is held by " +
                                       std::to_string(held_all[std::size_t(g)]) +
                                       " units, not one: every block must be added before a save");
  if (s.me == 0) {
    s.index.resize(std::size_t(index));
    const std::uint64_t n = std::uint64_t(nblocks);
    std::memcpy(s.index.data(), &n, 8);
    if (!summed.empty()) std::memcpy(s.index.data() + 8, summed.data(), 8 * summed.size());
    const std::uint64_t sum = record_checksum(s.index.data(), s.index.size() - 8);
    std::memcpy(s.index.data() + s.index.size() - 8, &sum, 8);
  }

  // The file, under its temporary name (subfiling by the domains of a plan of the whole data).
  const std::uint64_t size = kContainerHeaderBytes + s.data_bytes + 8 * s.nchunks + 8;
  const Plan whole = make_plan(s.t, s.data_bytes, s.chunk, s.settings.aggregators);
  const int subfiles = subfile_count(s.t, whole, s.settings.subfiling);
  s.file = std::make_unique<TargetFile>(
      path, s.t, whole, kContainerHeaderBytes, size,
      subfile_bounds(whole, subfiles, kContainerHeaderBytes, size), false, who);
  s.sums.assign(std::size_t(s.nchunks), 0);
}

BlockFileWriter::~BlockFileWriter() = default;

int BlockFileWriter::rounds() const { return state_->rounds; }

std::pair<std::size_t, std::size_t> BlockFileWriter::records_of(int r) const {
  const std::vector<std::size_t>& cuts = state_->cuts;
  if (std::size_t(r) + 1 >= cuts.size()) return {cuts.back(), cuts.back()};
  return {cuts[std::size_t(r)], cuts[std::size_t(r) + 1]};
}

void BlockFileWriter::write_round(int r, const char* bytes, std::size_t n,
                                  dash::internal::Failure& failure) {
  State& s = *state_;
  const std::size_t R = std::size_t(r);
  // A batch after the first is serialised a second time: it must give the bytes the index has.
  bool same = n == s.mine[R];
  if (same && R > 0 && R + 1 < s.cuts.size()) {
    const char* at = bytes;
    for (std::size_t i = s.cuts[R]; i < s.cuts[R + 1] && same; at += s.sizes[i], ++i)
      same = record_checksum(at, std::size_t(s.sizes[i])) == s.record_sums[i];
  }
  if (!failure.any() && !same)
    captured(failure, [&] {
      throw exception::InvalidArgument(
          std::string(s.who) + ": the blocks of round " + std::to_string(r) +
          " serialised to other bytes than a moment before (Serialization<T>::save must give "
          "the same bytes each time)");
    });
  dash::internal::agree(failure, s.t, s.who);
  std::vector<Run> runs;
  if (R == 0 && s.me == 0) runs.push_back(Run{0, s.index.data(), s.index.size(), 0, 1});
  if (n > 0) runs.push_back(Run{s.at[R] - s.base[R], const_cast<char*>(bytes), n, 0, 1});
  const std::uint64_t end = R + 1 < s.base.size() ? s.base[R + 1] : s.data_bytes;
  const std::uint64_t range = end - s.base[R];
  const bool direct = writes_directly(s.t, runs, s.chunk, s.settings, s.who);
  const Plan plan = direct ? direct_plan(s.t, range, s.chunk)
                           : plan_io(*s.team, runs, range, s.chunk, s.settings, s.who);
  std::vector<std::uint64_t> sums(std::size_t(plan.nchunks), 0);
  dash::internal::Failure written;
  const std::uint64_t offset = kContainerHeaderBytes + s.base[R];
  if (direct)
    direct_writes(*s.team, plan, s.file->data(), s.file->name(), offset, runs, &sums, written,
                  s.who);
  else
    write_rounds(*s.team, plan, s.file->data(), s.file->name(), offset, runs, true, &sums, written,
                 s.who);
  const std::size_t first = std::size_t(s.base[R] / s.chunk);
  for (std::size_t c = 0; c < sums.size(); ++c) s.sums[first + c] += sums[c];
  dash::internal::agree(written, s.t, s.who);
}

void BlockFileWriter::commit() {
  State& s = *state_;
  const std::string w(s.who);
  std::vector<std::uint64_t> all(s.sums.size(), 0);
  if (!s.sums.empty())
    check_io(dart_reduce(s.sums.data(), all.data(), s.sums.size(), DART_TYPE_ULONGLONG, DART_OP_SUM,
                         dart_team_unit_t{0}, s.t),
             w + ": dart_reduce");
  std::vector<char> head, tail;
  if (s.me == 0) {
    FileLayout layout;
    layout.type_name = kBlockFileType;
    layout.element_size = 1;
    layout.extents = {s.data_bytes};
    layout.pattern = "dash::bp::save: " + std::to_string(s.nblocks) + " blocks";
    head = container_head(layout, s.data_bytes, s.chunk, s.nchunks, std::uint64_t(s.units));
    tail = container_tail(std::move(all));
  }
  dash::internal::Failure failure;
  s.file->commit(failure, head, tail, kContainerHeaderBytes + s.data_bytes);
}

// ---------------------------------------------------------------------------
// Reading.

struct BlockFileReader::State {
  dart_team_t t;
  const char* who;
  std::string path;
  std::vector<BlockRecord> index;        // a file of this format, read from
  PartedFile file;                       // its file or parts
  std::unique_ptr<LegacyBlockFile> old;  // or one of the earlier format
};

BlockFileReader::BlockFileReader(const std::string& path, Team& team, int nblocks, const char* who)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.t = team.dart_id();
  s.who = who;
  s.path = path;
  const std::string w(who);
  if (earlier_format(path, s.t, who)) {
    s.old = std::make_unique<LegacyBlockFile>(path, s.t, nblocks, who);
    return;
  }
  // The header, and the index: unit 0 reads it and checks its checksum, every unit gets it (the
  // same bytes: the same verdict everywhere).
  FileLayout layout;
  std::vector<FilePart> parts;
  layout = open_container(path, s.t, parts, who);
  if (layout.type_name != kBlockFileType)
    dash::internal::throw_runtime_error(w + ": '" + path + "' holds " + layout.type_name +
                                        " elements (a file of dash::io::save), not blocks");
  s.file.reset(std::move(parts), O_RDONLY);
  const std::uint64_t data_bytes = layout.data_bytes();
  std::vector<char> head;
  dash::internal::Failure failure;
  if (team_myid(s.t) == 0)
    captured(failure, [&] {
      std::uint64_t count = 0;
      std::string error =
          data_bytes < 8 ? "the data are shorter than a block count"
                         : s.file.read(reinterpret_cast<char*>(&count), 8, kContainerHeaderBytes);
      if (error.empty() &&
          (count > data_bytes / sizeof(BlockRecord) || index_bytes(count) > data_bytes))
        error = "the block count is damaged";
      if (error.empty()) {
        head.resize(std::size_t(index_bytes(count)));
        error = s.file.read(head.data(), head.size(), kContainerHeaderBytes);
      }
      if (error.empty()) {
        std::uint64_t sum = 0;
        std::memcpy(&sum, head.data() + head.size() - 8, 8);
        if (sum != record_checksum(head.data(), head.size() - 8))
          error = "it is damaged (checksum)";
      }
      if (!error.empty())
        dash::internal::throw_runtime_error(w + ": '" + path + "': its index: " + error);
    });
  dash::internal::agree(failure, s.t, who);
  std::uint64_t bytes = head.size();
  check_io(dart_bcast(&bytes, 1, DART_TYPE_ULONGLONG, dart_team_unit_t{0}, s.t),
           w + ": dart_bcast");
  head.resize(std::size_t(bytes));
  check_io(dart_bcast(head.data(), head.size(), DART_TYPE_BYTE, dart_team_unit_t{0}, s.t),
           w + ": dart_bcast");
  std::uint64_t count = 0;
  std::memcpy(&count, head.data(), 8);
  if (count != std::uint64_t(nblocks))
    throw exception::InvalidArgument(w + ": '" + path + "' holds " + std::to_string(count) +
                                     " blocks, the master " + std::to_string(nblocks));
  const std::uint64_t wanted = head.size();
  s.index.resize(std::size_t(nblocks));
  if (!s.index.empty())
    std::memcpy(s.index.data(), head.data() + 8, s.index.size() * sizeof(BlockRecord));
  for (std::size_t g = 0; g < s.index.size(); ++g) {
    const BlockRecord& r = s.index[g];
    if (r.gid != g || r.offset < wanted || r.offset > data_bytes || r.bytes > data_bytes - r.offset)
      dash::internal::throw_runtime_error(w + ": '" + path + "': its index is damaged (block " +
                                          std::to_string(g) + ")");
    s.index[g].offset += kContainerHeaderBytes;  // where it lies in the file
  }
}

BlockFileReader::~BlockFileReader() = default;

std::vector<std::size_t> BlockFileReader::batches(const std::vector<int>& gids,
                                                  std::size_t round_bytes, int& rounds) {
  State& s = *state_;
  std::vector<std::uint64_t> sizes;
  sizes.reserve(gids.size());
  for (int g : gids)
    sizes.push_back(s.old ? s.old->record(g).bytes : s.index.at(std::size_t(g)).bytes);
  std::vector<std::size_t> cuts = batch_cuts(sizes, round_bytes);
  const int mine = int(cuts.size()) - 1;
  check_io(dart_allreduce(&mine, &rounds, 1, DART_TYPE_INT, DART_OP_MAX, s.t),
           std::string(s.who) + ": dart_allreduce");
  return cuts;
}

void BlockFileReader::read(const std::vector<int>& gids,
                           std::vector<dash::bp::MemoryBuffer>& into) {
  State& s = *state_;
  const std::string w(s.who);
  if (into.size() < gids.size()) into.resize(gids.size());
  dash::internal::Failure failure;
  for (std::size_t k = 0; k < gids.size() && !failure.any(); ++k)
    captured(failure, [&] {
      if (s.old) return s.old->read(gids[k], into[k]);
      const BlockRecord& r = s.index.at(std::size_t(gids[k]));
      into[k].clear();
      dash::bp::Bytes& bytes = into[k].bytes();
      bytes.resize(std::size_t(r.bytes));
      const std::string error = s.file.read(bytes.data(), r.bytes, r.offset);
      if (!error.empty())
        dash::internal::throw_runtime_error(w + ": '" + s.path + "': reading block " +
                                            std::to_string(gids[k]) + ": " + error);
      if (record_checksum(bytes.data(), bytes.size()) != r.checksum)
        dash::internal::throw_runtime_error(w + ": '" + s.path + "': block " +
                                            std::to_string(gids[k]) + " is damaged (checksum)");
    });
  dash::internal::agree(failure, s.t, s.who);
}

}  // namespace internal
}  // namespace io
}  // namespace dash
