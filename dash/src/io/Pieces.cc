// dash::io::write_pieces and dash::io::read_pieces (dash/io/Pieces.h), the
// settings of dash::io calls, and what dash::io asks of dash::init and
// dash::finalize (dash/internal/LayerHooks.h).
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/internal/Flags.h>
#include <dash/internal/LayerHooks.h>
#include <dash/io/Pieces.h>
#include <dash/io/Tiers.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "SafeFile.h"
#include "io/BurstBuffer.h"
#include "io/TwoPhase.h"

namespace dash {
namespace io {

namespace {

using dash::internal::Flag;
using dash::internal::read_flag_bool;
using dash::internal::read_flag_choice;
using dash::internal::read_flag_number;
namespace words = dash::internal::flag_words;

// dash::init: a tier file is read now, so that garbage in it stops the start (one per node,
// %n, is read on first use: the node is not known yet). Local.
void check_tier_file(const char* call) {
  const char* text = dash::internal::read_flag_text(Flag::io_tiers, call);
  if (text == nullptr || std::string(text).find("%n") != std::string::npos) return;
  try {
    node_tiers();
  } catch (const std::exception& e) {
    const std::string what = e.what();
    throw exception::InvalidArgument(
        std::string(call) + ": " +
        (what.rfind("DASH_IO_TIERS: ", 0) == 0 ? "" : "DASH_IO_TIERS: ") + what);
  }
}

// dash::finalize: burst-buffer writes drained (collective over all units).
void drain_at_finalize() noexcept {
  if (is_initialized()) internal::drain_staged_at_end(DART_TEAM_ALL);
}

// A burst-buffer write that could not reach its path fails the program (on every unit: the
// drain agrees); its node-local copy stays (printed by the drain).
std::string failed_drain() {
  const std::string failed = internal::take_failed_drain();
  if (failed.empty()) return failed;
  return failed + " (the file is not at its path; its node-local copy is kept)";
}

[[maybe_unused]] const bool registered = dash::internal::register_layer(
    {"dash::io", check_tier_file, drain_at_finalize, internal::drain_staged_at_end, failed_drain});

}  // namespace

namespace internal {

std::vector<Run> runs_of(const std::vector<Piece>& pieces) {
  std::vector<Run> runs;
  runs.reserve(pieces.size());
  for (const Piece& p : pieces) runs.push_back(Run{p.offset, p.data, p.bytes, 0, 1});
  return runs;
}

}  // namespace internal

IoSettings resolve_settings(const IoSettings& given) {
  const char* const who = "dash::io";
  IoSettings s;
  s.aggregators =
      given.aggregators > 0 ? given.aggregators : int(read_flag_number(Flag::io_aggregators, who));
  s.buffer_bytes =
      given.buffer_bytes > 0 ? given.buffer_bytes : read_flag_number(Flag::io_buffer_size, who);
  s.tier =
      given.tier.empty() ? words::kIoTier[read_flag_choice(Flag::io_aggr_tier, who)] : given.tier;
  s.explain = given.explain || read_flag_bool(Flag::io_explain, who);
  s.persistent = given.persistent || read_flag_bool(Flag::io_persistency, who);
  s.subfiling =
      given.subfiling > 0 ? given.subfiling : int(read_flag_number(Flag::io_subfiling, who));
  s.burst_buffer = given.burst_buffer || read_flag_bool(Flag::io_burst_buffer, who);
  s.aggregation = given.aggregation.empty()
                      ? words::kIoAggregation[read_flag_choice(Flag::io_aggregation, who)]
                      : given.aggregation;
  if (std::find(std::begin(words::kIoAggregation), std::end(words::kIoAggregation),
                s.aggregation) == std::end(words::kIoAggregation))
    throw exception::InvalidArgument("dash::io: aggregation '" + s.aggregation +
                                     "' (expected on, off or auto)");
  if (std::find(std::begin(words::kIoTier), std::end(words::kIoTier), s.tier) ==
      std::end(words::kIoTier))
    throw exception::InvalidArgument("dash::io: tier '" + s.tier +
                                     "' (expected dram, hbm, shm, disk or auto)");
  if (given.aggregators < 0 || given.subfiling < 0 ||
      s.buffer_bytes > dash::internal::flag_spec(Flag::io_buffer_size).max)
    throw exception::InvalidArgument(
        "dash::io: aggregators and subfiling must be at least 0 and buffers at most 1 GiB");
  return s;
}

int aggregator_count(Team& team, const IoSettings& settings) {
  const IoSettings s = resolve_settings(settings);
  return int(internal::make_plan(team.dart_id(), 1, 1, s.aggregators).aggregators.size());
}

IoReport write_pieces(const std::string& path, std::vector<Piece> pieces, Team& team,
                      const IoSettings& settings) {
  const char* who = "dash::io::write_pieces";
  const std::string w(who);
  const IoSettings s = resolve_settings(settings);
  const dart_team_t t = team.dart_id();
  std::uint64_t mine[2] = {0, 0}, all[2] = {0, 0};  // largest end, bytes
  for (const Piece& p : pieces) {
    mine[0] = std::max(mine[0], p.offset + p.bytes);
    mine[1] += p.bytes;
  }
  internal::check_io(dart_allreduce(&mine[0], &all[0], 1, DART_TYPE_ULONGLONG, DART_OP_MAX, t),
                     w + ": dart_allreduce");
  internal::check_io(dart_allreduce(&mine[1], &all[1], 1, DART_TYPE_ULONGLONG, DART_OP_SUM, t),
                     w + ": dart_allreduce");
  const std::uint64_t file_bytes = all[0];
  std::vector<internal::Run> runs = internal::runs_of(pieces);
  dash::internal::Failure failure;
  internal::captured(failure, [&] { internal::sort_and_check(runs, file_bytes, who); });
  dash::internal::agree(failure, t, who);
  const std::uint64_t chunk = std::max<std::uint64_t>(1, std::min(s.buffer_bytes, file_bytes));
  const bool direct = internal::writes_directly(t, runs, chunk, s, who);
  const internal::Plan plan = direct ? internal::direct_plan(t, file_bytes, chunk)
                                     : internal::plan_io(team, runs, file_bytes, chunk, s, who);
  const int subfiles = internal::subfile_count(t, plan, s.subfiling);
  internal::TargetFile file(path, t, plan, 0, file_bytes,
                            internal::subfile_bounds(plan, subfiles, 0, file_bytes), s.burst_buffer,
                            who);
  // Pieces that do not cover the file leave gaps, written as zeros.
  if (direct)
    internal::direct_writes(team, plan, file.data(), file.name(), 0, runs, nullptr, failure, who);
  else
    internal::write_rounds(team, plan, file.data(), file.name(), 0, runs, all[1] != file_bytes,
                           nullptr, failure, who);
  file.commit(failure, {}, {}, 0);
  return file.report(plan);
}

void remove(const std::string& path) {
  if (internal::drain_pending(path))
    throw exception::InvalidArgument("dash::io::remove: '" + path +
                                     "' has a burst-buffer write that has not drained (call "
                                     "dash::io::drain first)");
  const std::vector<internal::FilePart> parts = internal::table_parts(path);
  if (std::remove(path.c_str()) != 0 && errno != ENOENT)
    throw exception::RuntimeError("dash::io::remove: cannot remove '" + path +
                                  "': " + internal::errno_text(errno));
  for (const internal::FilePart& p : parts)
    if (std::remove(p.path.c_str()) != 0 && errno != ENOENT)
      throw exception::RuntimeError("dash::io::remove: cannot remove '" + p.path +
                                    "': " + internal::errno_text(errno));
  dash::internal::remove_stale_temporaries(path);
  dash::internal::remove_stale_parts(path, {});
}

IoReport read_pieces(const std::string& path, std::vector<Piece> pieces, Team& team,
                     const IoSettings& settings) {
  const char* who = "dash::io::read_pieces";
  const std::string w(who);
  const IoSettings s = resolve_settings(settings);
  const dart_team_t t = team.dart_id();
  internal::check_no_foreign_drain(path, t, who);
  // A burst-buffer write that has not drained is read from its node-local
  // copy, by its writer's aggregators.
  const internal::StagedCopy* staged = internal::staged_copy(path, t);
  std::vector<internal::FilePart> parts =
      staged ? staged->parts : internal::describe_file(path, t, who);
  const std::uint64_t file_bytes = staged ? staged->size : parts.back().offset + parts.back().bytes;
  dash::internal::Failure failure;
  std::vector<internal::Run> runs = internal::runs_of(pieces);
  internal::captured(failure, [&] { internal::sort_and_check(runs, file_bytes, who); });
  const std::uint64_t chunk = std::max<std::uint64_t>(1, std::min(s.buffer_bytes, file_bytes));
  dash::internal::agree(failure, t, who);
  const internal::Plan plan =
      staged ? staged->plan : internal::plan_io(team, runs, file_bytes, chunk, s, who);
  const std::size_t nparts = parts.size();
  internal::PartedFile file(std::move(parts), O_RDONLY);
  const internal::StagedRead reading(staged);  // the unit's drain of it pauses meanwhile
  internal::read_rounds(team, plan, file, path, 0, runs, nullptr, failure, who);
  dash::internal::agree(failure, t, who);
  IoReport report = internal::report_of(plan, nparts);
  report.staged = staged != nullptr;
  return report;
}

}  // namespace io
}  // namespace dash
