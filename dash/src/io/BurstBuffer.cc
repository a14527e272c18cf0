// dash::io's burst buffer (BurstBuffer.h) and dash::io::drain.
#include "io/BurstBuffer.h"

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/internal/Flags.h>
#include <dash/io/Pieces.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <exception>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "SafeFile.h"
#include "io/TierMemory.h"

namespace dash {
namespace io {
namespace internal {

namespace {

// Bytes a drain moves per read and write.
constexpr std::uint64_t kDrainBlock = std::uint64_t(8) << 20;

// A burst-buffer write waiting for its drain.
struct Pending {
  StagedCopy copy;
  std::vector<std::string> own_files;  // the calling unit's node-local files
  std::unique_ptr<NewFile> target;
  std::future<std::string> drain;  // "" or what went wrong
};

// The pending writes of this process, by team and path (the same order on
// every unit, so drains run collectively in step).
std::map<std::pair<dart_team_t, std::string>, Pending>& pending() {
  static std::map<std::pair<dart_team_t, std::string>, Pending> writes;
  return writes;
}

// DASH_IO_TEST_FAIL_DRAIN=1: a drain's first write into the target fails as
// if the disk were full (test only).
bool test_fail_drain() {
  return dash::internal::read_flag_bool(dash::internal::Flag::io_test_fail_drain, "dash::io");
}

// Copies the unit's node-local files into the target at their offsets and
// syncs it. Runs on a helper thread: POSIX I/O only.
std::string copy_to_target(const std::vector<FilePart>& own, PartedFile& target,
                           const std::string& path, bool fail, const std::atomic<int>& readers) {
  // The drain yields to the computation and its I/O: the lowest CPU priority
  // and the idle I/O class for this thread (Linux; best effort).
  setpriority(PRIO_PROCESS, pid_t(syscall(SYS_gettid)), 19);
#ifdef SYS_ioprio_set
  syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0 /* this thread */, 3 << 13 /* idle */);
#endif
  std::vector<char> block;
  for (const FilePart& p : own) {
    const int fd = open(p.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return "cannot open the node-local copy '" + p.path + "': " + errno_text(errno);
    int held = fd;
    FdCloser closer{held};
    block.resize(std::size_t(std::min(kDrainBlock, p.bytes)));
    for (std::uint64_t at = 0; at < p.bytes; at += kDrainBlock) {
      while (readers.load(std::memory_order_relaxed) > 0)  // a read of the copy goes first
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      const std::uint64_t n = std::min(kDrainBlock, p.bytes - at);
      std::string error = read_all(fd, block.data(), n, at);
      if (!error.empty()) return "reading the node-local copy '" + p.path + "': " + error;
      error = fail ? errno_text(ENOSPC) + " (DASH_IO_TEST_FAIL_DRAIN)"
                   : target.write(block.data(), n, p.offset + at);
      if (!error.empty())
        return "draining into '" + path + "' at byte " + std::to_string(p.offset + at) +
               " failed: " + error;
    }
  }
  const std::string error = target.sync();
  return error.empty() ? error : "draining into '" + path + "': " + error;
}

}  // namespace

StagedWrite::StagedWrite(const std::string& path, dart_team_t team, const Plan& plan,
                         std::uint64_t data_offset, std::uint64_t size,
                         const std::vector<std::uint64_t>& bounds, const char* who)
    : path_(path),
      team_(team),
      who_(who),
      target_(std::make_unique<NewFile>(path, team, size, bounds, who)),
      target_parts_(target_->parts()) {
  const int me = team_myid(team);
  // The parts: the head on unit 0, each file domain on its aggregator, the tail on unit 0.
  std::vector<std::uint64_t> ends = {0};
  std::vector<int> owners;
  auto add = [&](std::uint64_t to, int owner) {
    if (to > ends.back()) ends.push_back(to), owners.push_back(owner);
  };
  add(data_offset, 0);
  for (std::size_t i = 0; i < plan.aggregators.size(); ++i)
    add(data_offset + std::min(plan.first[i + 1] * plan.chunk, plan.data_bytes),
        plan.aggregators[i]);
  add(size, 0);
  dash::internal::Failure failure;
  std::string directory;  // of this unit's node, if it holds a part
  captured(failure, [&] {
    if (std::find(owners.begin(), owners.end(), me) != owners.end())
      directory = buffer_tier("disk").directory;  // checked: writable
  });
  copy_.parts = new_parts(directory + "/" + dash::internal::file_name(path) + ".bb." +
                              dash::internal::hex_digits(target_->generation()),
                          ends);
  for (std::size_t k = 0; k < copy_.parts.size(); ++k)
    if (owners[k] == me)
      own_.push_back(k);
    else
      copy_.parts[k].path.clear();  // on another unit's node
  copy_.plan = plan;
  copy_.size = size;
  local_.reset(copy_.parts, O_WRONLY | O_CREAT | O_TRUNC);
  dash::internal::agree(failure, team, who);
}

StagedWrite::~StagedWrite() {
  local_.close_all();
  if (finished_) return;
  for (std::size_t k : own_) std::remove(copy_.parts[k].path.c_str());
}

void StagedWrite::finish(dash::internal::Failure& failure, const std::vector<char>& head,
                         const std::vector<char>& tail, std::uint64_t tail_at) {
  const std::string w(who_);
  const bool zero = team_myid(team_) == 0;
  captured(failure, [&] {
    std::string error;
    if (zero && !failure.any()) {
      error = local_.write(head.data(), head.size(), 0);
      if (error.empty()) error = local_.write(tail.data(), tail.size(), tail_at);
    }
    if (error.empty() && !failure.any()) error = local_.sync();
    if (!error.empty()) throw exception::RuntimeError(w + ": node-local copy: " + error);
  });
  local_.close_all();
  dash::internal::agree(failure, team_, who_);
  Pending p;
  p.copy = std::move(copy_);
  std::vector<FilePart> own;
  for (std::size_t k : own_) {
    own.push_back(p.copy.parts[k]);
    p.own_files.push_back(p.copy.parts[k].path);
  }
  p.target = std::move(target_);
  PartedFile* target = &p.target->data();
  const std::string path = path_;
  const bool fail = test_fail_drain();
  p.drain = std::async(std::launch::async,
                       [own = std::move(own), target, path, fail, readers = p.copy.readers] {
                         return copy_to_target(own, *target, path, fail, *readers);
                       });
  finished_ = true;
  pending()[{team_, path_}] = std::move(p);
}

const StagedCopy* staged_copy(const std::string& path, dart_team_t team) {
  const auto it = pending().find({team, path});
  return it == pending().end() ? nullptr : &it->second.copy;
}

bool drain_pending(const std::string& path) {
  for (const auto& [key, p] : pending())
    if (key.second == path) return true;
  return false;
}

void check_no_foreign_drain(const std::string& path, dart_team_t team, const char* who) {
  dash::internal::Failure failure;
  captured(failure, [&] {
    for (const auto& [key, p] : pending())
      if (key.second == path && key.first != team)
        throw exception::InvalidArgument(std::string(who) + ": '" + path +
                                         "' has a burst-buffer write on another team that has "
                                         "not drained (call dash::io::drain on that team)");
  });
  dash::internal::agree(failure, team, who);
}

void settle_earlier_write(const std::string& path, dart_team_t team, const char* who) {
  check_no_foreign_drain(path, team, who);
  drain_staged(team, &path, who);
}

TargetFile::TargetFile(const std::string& path, dart_team_t team, const Plan& plan,
                       std::uint64_t data_offset, std::uint64_t size,
                       const std::vector<std::uint64_t>& bounds, bool burst_buffer,
                       const char* who) {
  settle_earlier_write(path, team, who);
  if (burst_buffer)
    staged_ = std::make_unique<StagedWrite>(path, team, plan, data_offset, size, bounds, who);
  else
    direct_ = std::make_unique<NewFile>(path, team, size, bounds, who);
  name_ = staged_ ? path + " (node-local copy)" : direct_->temporary();
}

PartedFile& TargetFile::data() { return staged_ ? staged_->local() : direct_->data(); }

void TargetFile::commit(dash::internal::Failure& failure, const std::vector<char>& head,
                        const std::vector<char>& tail, std::uint64_t tail_at) {
  if (staged_) return staged_->finish(failure, head, tail, tail_at);
  direct_->commit(failure, head, tail, tail_at);
}

IoReport TargetFile::report(const Plan& plan) const {
  IoReport r = report_of(plan, staged_ ? staged_->target_parts() : direct_->parts());
  r.staged = staged_ != nullptr;
  return r;
}

void drain_staged(dart_team_t team, const std::string* path, const char* who) {
  std::exception_ptr first;
  auto& writes = pending();
  for (auto it = writes.lower_bound({team, path ? *path : std::string()});
       it != writes.end() && it->first.first == team;) {
    if (path && it->first.second != *path) break;
    Pending& p = it->second;
    dash::internal::Failure failure;
    if (p.drain.valid()) {
      const std::string error = p.drain.get();
      if (!error.empty())
        captured(failure, [&] { throw exception::RuntimeError(std::string(who) + ": " + error); });
    }
    try {
      p.target->commit(failure, {}, {}, 0);
      for (const std::string& f : p.own_files) std::remove(f.c_str());
    } catch (...) {
      if (!first) first = std::current_exception();
      for (const std::string& f : p.own_files)
        std::fprintf(stderr, "%s: the node-local copy of '%s' stays in '%s'\n", who,
                     it->first.second.c_str(), f.c_str());
    }
    it = writes.erase(it);  // the target's temporary file goes unless committed
  }
  if (first) std::rethrow_exception(first);
}

namespace {
std::mutex failed_drain_mutex;
std::string failed_drain;  // the first drain at a teardown that failed; guarded by the mutex
}  // namespace

void drain_staged_at_end(dart_team_t team) noexcept {
  std::string error;
  try {
    drain_staged(team, nullptr, "dash::io (draining burst-buffer writes)");
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "dash::io: draining burst-buffer writes failed";
  }
  if (error.empty()) return;
  std::fprintf(stderr, "%s\n", error.c_str());
  std::lock_guard<std::mutex> lock(failed_drain_mutex);
  if (failed_drain.empty()) failed_drain = error;
}

std::string take_failed_drain() {
  std::lock_guard<std::mutex> lock(failed_drain_mutex);
  return std::exchange(failed_drain, std::string());
}

}  // namespace internal

void drain(Team& team) { internal::drain_staged(team.dart_id(), nullptr, "dash::io::drain"); }

}  // namespace io
}  // namespace dash
