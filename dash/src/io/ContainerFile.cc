// The container file of dash::io::save and dash::io::load
// (dash/io/internal/ContainerFile.h), on the two-phase engine (TwoPhase.h).
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/internal/Failure.h>
#include <dash/io/internal/ContainerFile.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "io/BurstBuffer.h"
#include "io/ContainerFormat.h"
#include "io/TwoPhase.h"

namespace dash {
namespace io {
namespace internal {

namespace {

constexpr char kMagic[8] = {'D', 'A', 'S', 'H', 'I', 'O', '0', '1'};
constexpr std::uint64_t kVersion = 1;
constexpr std::uint64_t kHeaderBytes = kContainerHeaderBytes;
constexpr std::size_t kTypeNameBytes = 64, kPatternBytes = 256;

// The header as it lies in the file's first 4096 bytes (little-endian
// machines; the magic and version say which layout).
struct Header {
  char magic[8];
  std::uint64_t version, header_bytes, element_size, ndim;
  std::uint64_t extents[kMaxFileDims];
  std::uint64_t data_offset, data_bytes, chunk_bytes, nchunks, units;
  char type_name[kTypeNameBytes];
  char pattern[kPatternBytes];
  std::uint64_t checksum;  // of every byte before it
};
static_assert(sizeof(Header) <= kHeaderBytes, "the header fits its 4096 bytes");

std::uint64_t header_checksum(const Header& h) {
  return io_checksum(&h, offsetof(Header, checksum));
}

void copy_text(char* to, std::size_t room, const std::string& text) {
  std::memset(to, 0, room);
  std::memcpy(to, text.data(), std::min(room - 1, text.size()));
}

// Unit 0 reads and checks the header (and the checksum table); every unit
// gets the header and the verdict (and, if parts is given, the file's
// parts). Throws on every unit if it is wrong.
Header read_header(const std::string& path, dart_team_t team, const char* who,
                   std::vector<std::uint64_t>* sums, std::vector<FilePart>* parts = nullptr) {
  const int me = team_myid(team);
  const std::string w(who);
  check_no_foreign_drain(path, team, who);
  // A burst-buffer write that has not drained: unit 0 holds the head and tail.
  const StagedCopy* staged = staged_copy(path, team);
  std::vector<FilePart> described = staged ? staged->parts : describe_file(path, team, who);
  dash::internal::Failure failure;
  Header h;
  std::memset(&h, 0, sizeof h);
  if (me == 0)
    captured(failure, [&] {
      PartedFile file(described, O_RDONLY);
      const std::uint64_t size = file.size();
      if (size < kHeaderBytes)
        dash::internal::throw_runtime_error(w + ": '" + path +
                                            "' is not a file of dash::io::save (" +
                                            std::to_string(size) + " bytes, no header)");
      const std::string error = file.read(reinterpret_cast<char*>(&h), sizeof h, 0);
      if (!error.empty())
        dash::internal::throw_runtime_error(w + ": reading '" + path + "': " + error);
      if (std::memcmp(h.magic, kMagic, 8) != 0)
        dash::internal::throw_runtime_error(w + ": '" + path +
                                            "' is not a file of dash::io::save (no header)");
      if (h.checksum != header_checksum(h))
        dash::internal::throw_runtime_error(w + ": the header of '" + path +
                                            "' is damaged (checksum)");
      if (h.version != kVersion)
        dash::internal::throw_runtime_error(w + ": '" + path + "' has version " +
                                            std::to_string(h.version) + ", expected " +
                                            std::to_string(kVersion));
      if (h.ndim > std::uint64_t(kMaxFileDims) || h.chunk_bytes == 0 ||
          h.data_offset != kHeaderBytes ||
          h.nchunks != (h.data_bytes + h.chunk_bytes - 1) / h.chunk_bytes)
        dash::internal::throw_runtime_error(w + ": the header of '" + path + "' is inconsistent");
      const std::uint64_t expected = kHeaderBytes + h.data_bytes + 8 * h.nchunks + 8;
      if (size != expected)
        dash::internal::throw_runtime_error(w + ": '" + path +
                                            "' is truncated or extended: " + std::to_string(size) +
                                            " bytes, its header says " + std::to_string(expected));
      if (sums) {
        sums->assign(std::size_t(h.nchunks + 1), 0);
        const std::string e2 = file.read(reinterpret_cast<char*>(sums->data()), 8 * sums->size(),
                                         kHeaderBytes + h.data_bytes);
        if (!e2.empty())
          dash::internal::throw_runtime_error(w + ": reading the checksums of '" + path +
                                              "': " + e2);
        if (io_checksum(sums->data(), 8 * h.nchunks) != sums->back())
          dash::internal::throw_runtime_error(w + ": the checksums of '" + path + "' are damaged");
        sums->pop_back();
      }
    });
  dash::internal::agree(failure, team, who);
  if (parts) *parts = std::move(described);
  check_io(dart_bcast(&h, sizeof h, DART_TYPE_BYTE, dart_team_unit_t{0}, team), w + ": dart_bcast");
  if (sums) {
    sums->resize(std::size_t(h.nchunks));
    if (!sums->empty())
      check_io(
          dart_bcast(sums->data(), sums->size(), DART_TYPE_ULONGLONG, dart_team_unit_t{0}, team),
          w + ": dart_bcast");
  }
  return h;
}

// What the header says of the file's contents. Local.
FileLayout layout_of(const Header& h) {
  FileLayout l;
  l.type_name.assign(h.type_name, strnlen(h.type_name, kTypeNameBytes));
  l.pattern.assign(h.pattern, strnlen(h.pattern, kPatternBytes));
  l.element_size = h.element_size;
  l.extents.assign(h.extents, h.extents + h.ndim);
  l.units = h.units;
  return l;
}

}  // namespace

FileLayout read_container_layout(const std::string& path, dart_team_t team, const char* who) {
  return layout_of(read_header(path, team, who, nullptr));
}

FileLayout open_container(const std::string& path, dart_team_t team, std::vector<FilePart>& parts,
                          const char* who) {
  return layout_of(read_header(path, team, who, nullptr, &parts));
}

std::uint64_t FileLayout::data_bytes() const {
  std::uint64_t n = element_size;
  for (std::uint64_t e : extents) n *= e;
  return n;
}

std::vector<char> container_head(const FileLayout& layout, std::uint64_t data_bytes,
                                 std::uint64_t chunk, std::uint64_t nchunks, std::uint64_t units) {
  Header h;
  std::memset(&h, 0, sizeof h);
  std::memcpy(h.magic, kMagic, 8);
  h.version = kVersion;
  h.header_bytes = kHeaderBytes;
  h.element_size = layout.element_size;
  h.ndim = layout.extents.size();
  for (std::size_t d = 0; d < layout.extents.size(); ++d) h.extents[d] = layout.extents[d];
  h.data_offset = kHeaderBytes;
  h.data_bytes = data_bytes;
  h.chunk_bytes = chunk;
  h.nchunks = nchunks;
  h.units = units;
  copy_text(h.type_name, kTypeNameBytes, layout.type_name);
  copy_text(h.pattern, kPatternBytes, layout.pattern);
  h.checksum = header_checksum(h);
  std::vector<char> head(kHeaderBytes, 0);
  std::memcpy(head.data(), &h, sizeof h);
  return head;
}

std::vector<char> container_tail(std::vector<std::uint64_t> sums) {
  sums.push_back(io_checksum(sums.data(), sums.size() * 8));
  std::vector<char> tail(sums.size() * 8);
  std::memcpy(tail.data(), sums.data(), tail.size());
  return tail;
}

IoReport write_container_file(const std::string& path, Team& t, const FileLayout& layout,
                              std::vector<Run> runs, const IoSettings& settings, const char* who) {
  const dart_team_t team = t.dart_id();
  const std::string w(who);
  if (layout.extents.size() > std::size_t(kMaxFileDims) ||
      layout.type_name.size() >= kTypeNameBytes)
    throw exception::InvalidArgument(w + ": more than 8 dimensions, or a type name of 64 bytes");
  dash::internal::Failure failure;
  const std::uint64_t data_bytes = layout.data_bytes();
  captured(failure, [&] { sort_and_check(runs, data_bytes, who); });
  dash::internal::agree(failure, team, who);
  const std::uint64_t chunk =
      std::max<std::uint64_t>(1, std::min(settings.buffer_bytes, data_bytes));
  const bool direct = writes_directly(team, runs, chunk, settings, who);
  const Plan plan = direct ? direct_plan(team, data_bytes, chunk)
                           : plan_io(t, runs, data_bytes, chunk, settings, who);
  const std::uint64_t size = kHeaderBytes + data_bytes + 8 * plan.nchunks + 8;
  const int subfiles = subfile_count(team, plan, settings.subfiling);
  TargetFile file(path, team, plan, kHeaderBytes, size,
                  subfile_bounds(plan, subfiles, kHeaderBytes, size), settings.burst_buffer, who);
  std::vector<std::uint64_t> sums(std::size_t(plan.nchunks), 0);
  if (direct)
    direct_writes(t, plan, file.data(), file.name(), kHeaderBytes, runs, &sums, failure, who);
  else
    write_rounds(t, plan, file.data(), file.name(), kHeaderBytes, runs, false, &sums, failure, who);
  // The checksums to unit 0, which writes them after the data, and the header.
  std::vector<std::uint64_t> all(sums.size(), 0);
  if (!sums.empty())
    check_io(dart_reduce(sums.data(), all.data(), sums.size(), DART_TYPE_ULONGLONG, DART_OP_SUM,
                         dart_team_unit_t{0}, team),
             w + ": dart_reduce");
  std::vector<char> head, tail;
  if (team_myid(team) == 0) {
    std::size_t units = 0;
    check_io(dart_team_size(team, &units), "dart_team_size");
    head = container_head(layout, data_bytes, chunk, plan.nchunks, units);
    tail = container_tail(std::move(all));
  }
  file.commit(failure, head, tail, kHeaderBytes + data_bytes);
  return file.report(plan);
}

IoReport read_container_file(const std::string& path, Team& t, std::vector<Run> runs,
                             const IoSettings& settings, const char* who) {
  const dart_team_t team = t.dart_id();
  const std::string w(who);
  std::vector<std::uint64_t> sums;
  std::vector<FilePart> parts;
  const Header h = read_header(path, team, who, &sums, &parts);
  dash::internal::Failure failure;
  captured(failure, [&] { sort_and_check(runs, h.data_bytes, who); });
  dash::internal::agree(failure, team, who);
  // A burst-buffer write that has not drained: its aggregators read their node-local files.
  const StagedCopy* staged = staged_copy(path, team);
  const Plan plan =
      staged ? staged->plan : plan_io(t, runs, h.data_bytes, h.chunk_bytes, settings, who);
  const int nparts = int(parts.size());
  PartedFile file(std::move(parts), O_RDONLY);
  const StagedRead reading(staged);  // the unit's drain of it pauses meanwhile
  read_rounds(t, plan, file, path, kHeaderBytes, runs, &sums, failure, who);
  dash::internal::agree(failure, team, who);
  IoReport report = report_of(plan, std::size_t(nparts));
  report.staged = staged != nullptr;
  return report;
}

}  // namespace internal
}  // namespace io
}  // namespace dash
