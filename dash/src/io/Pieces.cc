// dash::io::write_pieces and dash::io::read_pieces (dash/io/Pieces.h), and
// the flags of dash::io.
#include <dart/dart.h>
#include <dart/dart_flags.h>
#include <dash/Exception.h>
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

constexpr std::uint64_t kDefaultBuffer = std::uint64_t(4) << 20;
constexpr std::uint64_t kMaxBuffer = std::uint64_t(1) << 30;
constexpr std::uint64_t kMaxAggregators = std::uint64_t(1) << 24;
const char* const kTiers[] = {"dram", "hbm", "shm", "disk", "auto"};
const char* const kAggregation[] = {"on", "off", "auto"};

}  // namespace

namespace detail {

std::vector<Run> runs_of(const std::vector<Piece>& pieces) {
  std::vector<Run> runs;
  runs.reserve(pieces.size());
  for (const Piece& p : pieces) runs.push_back(Run{p.offset, p.data, p.bytes, 0, 1});
  return runs;
}

void check_io_flags(const char* call) {
  char err[DART_FLAG_ERROR_SIZE];
  std::uint64_t value = 0;
  if (dart_flag_integer("DASH_IO_AGGREGATORS", 0, kMaxAggregators, &value, err, sizeof err) !=
          DART_OK ||
      dart_flag_bytes("DASH_IO_BUFFER_SIZE", 4096, kMaxBuffer, &value, err, sizeof err) !=
          DART_OK ||
      dart_flag_integer("DASH_IO_TEST_FAIL_WRITE", 0, std::uint64_t(1) << 40, &value, err,
                        sizeof err) != DART_OK ||
      dart_flag_integer("DASH_IO_SUBFILING", 0, kMaxAggregators, &value, err, sizeof err) !=
          DART_OK)
    throw exception::InvalidArgument(std::string(call) + ": " + err);
  int tier = 0;
  const char* text = nullptr;
  if (dart_flag_choice("DASH_IO_AGGR_TIER", kTiers, 5, &tier, err, sizeof err) != DART_OK ||
      dart_flag_choice("DASH_IO_AGGREGATION", kAggregation, 3, &tier, err, sizeof err) != DART_OK ||
      dart_flag_bool("DASH_IO_EXPLAIN", &tier, err, sizeof err) != DART_OK ||
      dart_flag_bool("DASH_IO_PERSISTENCY", &tier, err, sizeof err) != DART_OK ||
      dart_flag_bool("DASH_IO_BURST_BUFFER", &tier, err, sizeof err) != DART_OK ||
      dart_flag_bool("DASH_IO_TEST_FAIL_DRAIN", &tier, err, sizeof err) != DART_OK ||
      dart_flag_text("DASH_IO_TIERS", 4095, &text, err, sizeof err) != DART_OK ||
      dart_flag_text("DASH_IO_NODE_DIR", 4095, &text, err, sizeof err) != DART_OK)
    throw exception::InvalidArgument(std::string(call) + ": " + err);
  // A tier file is read now, so that garbage in it stops the start (one
  // per node, %n, is read on first use: the node is not known yet).
  if (dart_flag_text("DASH_IO_TIERS", 4095, &text, err, sizeof err) == DART_OK && text != nullptr &&
      std::string(text).find("%n") == std::string::npos) {
    try {
      node_tiers();
    } catch (const std::exception& e) {
      const std::string what = e.what();
      throw exception::InvalidArgument(
          std::string(call) + ": " +
          (what.rfind("DASH_IO_TIERS: ", 0) == 0 ? "" : "DASH_IO_TIERS: ") + what);
    }
  }
}

}  // namespace detail

IoSettings resolve_settings(const IoSettings& given) {
  char err[DART_FLAG_ERROR_SIZE];
  std::uint64_t a = 0, b = kDefaultBuffer, subfiling = 0;
  if (dart_flag_integer("DASH_IO_AGGREGATORS", 0, kMaxAggregators, &a, err, sizeof err) !=
          DART_OK ||
      dart_flag_integer("DASH_IO_SUBFILING", 0, kMaxAggregators, &subfiling, err, sizeof err) !=
          DART_OK ||
      dart_flag_bytes("DASH_IO_BUFFER_SIZE", 4096, kMaxBuffer, &b, err, sizeof err) != DART_OK)
    throw exception::InvalidArgument(err);
  int tier = 4, aggregation = 2;  // auto
  int explain = 0, persistent = 0, burst_buffer = 0;
  if (dart_flag_choice("DASH_IO_AGGR_TIER", kTiers, 5, &tier, err, sizeof err) != DART_OK ||
      dart_flag_choice("DASH_IO_AGGREGATION", kAggregation, 3, &aggregation, err, sizeof err) !=
          DART_OK ||
      dart_flag_bool("DASH_IO_EXPLAIN", &explain, err, sizeof err) != DART_OK ||
      dart_flag_bool("DASH_IO_PERSISTENCY", &persistent, err, sizeof err) != DART_OK ||
      dart_flag_bool("DASH_IO_BURST_BUFFER", &burst_buffer, err, sizeof err) != DART_OK)
    throw exception::InvalidArgument(err);
  IoSettings s;
  s.aggregators = given.aggregators > 0 ? given.aggregators : int(a);
  s.buffer_bytes = given.buffer_bytes > 0 ? given.buffer_bytes : b;
  s.tier = given.tier.empty() ? kTiers[tier] : given.tier;
  s.explain = given.explain || explain != 0;
  s.persistent = given.persistent || persistent != 0;
  s.subfiling = given.subfiling > 0 ? given.subfiling : int(subfiling);
  s.burst_buffer = given.burst_buffer || burst_buffer != 0;
  s.aggregation = given.aggregation.empty() ? kAggregation[aggregation] : given.aggregation;
  if (std::find(std::begin(kAggregation), std::end(kAggregation), s.aggregation) ==
      std::end(kAggregation))
    throw exception::InvalidArgument("dash::io: aggregation '" + s.aggregation +
                                     "' (expected on, off or auto)");
  if (std::find(std::begin(kTiers), std::end(kTiers), s.tier) == std::end(kTiers))
    throw exception::InvalidArgument("dash::io: tier '" + s.tier +
                                     "' (expected dram, hbm, shm, disk or auto)");
  if (given.aggregators < 0 || given.subfiling < 0 || s.buffer_bytes > kMaxBuffer)
    throw exception::InvalidArgument(
        "dash::io: aggregators and subfiling must be at least 0 and buffers at most 1 GiB");
  return s;
}

int aggregator_count(Team& team, const IoSettings& settings) {
  const IoSettings s = resolve_settings(settings);
  return int(detail::make_plan(team.dart_id(), 1, 1, s.aggregators).aggregators.size());
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
  detail::check_io(dart_allreduce(&mine[0], &all[0], 1, DART_TYPE_ULONGLONG, DART_OP_MAX, t),
                   w + ": dart_allreduce");
  detail::check_io(dart_allreduce(&mine[1], &all[1], 1, DART_TYPE_ULONGLONG, DART_OP_SUM, t),
                   w + ": dart_allreduce");
  const std::uint64_t file_bytes = all[0];
  std::vector<detail::Run> runs = detail::runs_of(pieces);
  dash::internal::Failure failure;
  detail::captured(failure, [&] { detail::sort_and_check(runs, file_bytes, who); });
  dash::internal::agree(failure, t, who);
  const std::uint64_t chunk = std::max<std::uint64_t>(1, std::min(s.buffer_bytes, file_bytes));
  const bool direct = detail::writes_directly(t, runs, chunk, s, who);
  const detail::Plan plan = direct ? detail::direct_plan(t, file_bytes, chunk)
                                   : detail::plan_io(team, runs, file_bytes, chunk, s, who);
  const int subfiles = detail::subfile_count(t, plan, s.subfiling);
  detail::TargetFile file(path, t, plan, 0, file_bytes,
                          detail::subfile_bounds(plan, subfiles, 0, file_bytes), s.burst_buffer,
                          who);
  // Pieces that do not cover the file leave gaps, written as zeros.
  if (direct)
    detail::direct_writes(team, plan, file.data(), file.name(), 0, runs, nullptr, failure, who);
  else
    detail::write_rounds(team, plan, file.data(), file.name(), 0, runs, all[1] != file_bytes,
                         nullptr, failure, who);
  file.commit(failure, {}, {}, 0);
  return file.report(plan);
}

void remove(const std::string& path) {
  if (detail::drain_pending(path))
    throw exception::InvalidArgument("dash::io::remove: '" + path +
                                     "' has a burst-buffer write that has not drained (call "
                                     "dash::io::drain first)");
  const std::vector<detail::FilePart> parts = detail::table_parts(path);
  if (std::remove(path.c_str()) != 0 && errno != ENOENT)
    throw exception::RuntimeError("dash::io::remove: cannot remove '" + path +
                                  "': " + detail::errno_text(errno));
  for (const detail::FilePart& p : parts)
    if (std::remove(p.path.c_str()) != 0 && errno != ENOENT)
      throw exception::RuntimeError("dash::io::remove: cannot remove '" + p.path +
                                    "': " + detail::errno_text(errno));
  dash::internal::remove_stale_temporaries(path);
  dash::internal::remove_stale_parts(path, {});
}

IoReport read_pieces(const std::string& path, std::vector<Piece> pieces, Team& team,
                     const IoSettings& settings) {
  const char* who = "dash::io::read_pieces";
  const std::string w(who);
  const IoSettings s = resolve_settings(settings);
  const dart_team_t t = team.dart_id();
  detail::check_no_foreign_drain(path, t, who);
  // A burst-buffer write that has not drained is read from its node-local
  // copy, by its writer's aggregators.
  const detail::StagedCopy* staged = detail::staged_copy(path, t);
  std::vector<detail::FilePart> parts =
      staged ? staged->parts : detail::describe_file(path, t, who);
  const std::uint64_t file_bytes = staged ? staged->size : parts.back().offset + parts.back().bytes;
  dash::internal::Failure failure;
  std::vector<detail::Run> runs = detail::runs_of(pieces);
  detail::captured(failure, [&] { detail::sort_and_check(runs, file_bytes, who); });
  const std::uint64_t chunk = std::max<std::uint64_t>(1, std::min(s.buffer_bytes, file_bytes));
  dash::internal::agree(failure, t, who);
  const detail::Plan plan =
      staged ? staged->plan : detail::plan_io(team, runs, file_bytes, chunk, s, who);
  const std::size_t nparts = parts.size();
  detail::PartedFile file(std::move(parts), O_RDONLY);
  const detail::StagedRead reading(staged);  // the unit's drain of it pauses meanwhile
  detail::read_rounds(team, plan, file, path, 0, runs, nullptr, failure, who);
  dash::internal::agree(failure, t, who);
  IoReport report = detail::report_of(plan, nparts);
  report.staged = staged != nullptr;
  return report;
}

}  // namespace io
}  // namespace dash
