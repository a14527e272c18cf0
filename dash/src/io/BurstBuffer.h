// dash::io's burst buffer (not public). A write with IoSettings::
// burst_buffer lands in node-local files: each file domain in a file in the
// disk tier's directory of its aggregator's node, the head and tail of a
// container file in unit 0's. The call returns once they are synced; a
// helper thread of each unit then copies its files into the target (a
// NewFile, so the target appears at its path only whole). drain_staged()
// waits for the copies, renames the target into place and removes the
// node-local files. Until then, reads of the path on the same team are
// served from the node-local files, by the writer's aggregators (each reads
// its own: nothing crosses to another node's storage).
//
// Node-local files are named "<dir>/<file name>.bb.<generation>.<k>" (k six
// digits; the generation is the target's, a random number fresh for the write), so a crash
// before the drain leaves them recognisable there. They are never removed but by the drain: a
// copy a killed program left may hold the only whole copy of a save that returned.
#ifndef DASH__SRC__IO__BURST_BUFFER_H_
#define DASH__SRC__IO__BURST_BUFFER_H_

#include <dart/dart_types.h>
#include <dash/internal/Failure.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/PartedFile.h"
#include "io/TwoPhase.h"

namespace dash {
namespace io {
namespace internal {

// A node-local copy of a file: the writer's plan (its aggregators serve
// reads) and the parts, whose path is empty where they lie on another unit.
struct StagedCopy {
  Plan plan;
  std::uint64_t size = 0;
  std::vector<FilePart> parts;
  // Reads of this copy running on the calling unit: its drain waits meanwhile.
  std::shared_ptr<std::atomic<int>> readers = std::make_shared<std::atomic<int>>(0);
};

// Marks a read of a staged copy (if not null) for its lifetime, so that the
// unit's drain of that copy pauses and leaves the disk to the read. Local.
class StagedRead {
 public:
  explicit StagedRead(const StagedCopy* copy) : readers_(copy ? copy->readers : nullptr) {
    if (readers_) readers_->fetch_add(1);
  }
  ~StagedRead() {
    if (readers_) readers_->fetch_sub(1);
  }
  StagedRead(const StagedRead&) = delete;
  StagedRead& operator=(const StagedRead&) = delete;

 private:
  std::shared_ptr<std::atomic<int>> readers_;
};

// One write through the burst buffer while it runs.
class StagedWrite {
 public:
  // Creates the
  // target's temporary file (with parts as `bounds` say, see NewFile) and
  // names the node-local files of the plan's domains (the data at
  // data_offset, `size` bytes in all). Collective: agrees on any failure.
  StagedWrite(const std::string& path, dart_team_t team, const Plan& plan,
              std::uint64_t data_offset, std::uint64_t size,
              const std::vector<std::uint64_t>& bounds, const char* who);
  // Unfinished: removes the calling unit's node-local files (and the target's).
  ~StagedWrite();
  StagedWrite(const StagedWrite&) = delete;
  StagedWrite& operator=(const StagedWrite&) = delete;

  // Where the write rounds write: the node-local files.
  PartedFile& local() { return local_; }
  // Parts the target will have.
  std::size_t target_parts() const { return target_parts_; }
  // Every unit syncs its node-local files; unit 0 writes `head` at 0 and
  // `tail` at tail_at into its own and syncs; on success the copy is
  // registered and this unit's drain starts. Collective; agrees on
  // `failure` first and throws everywhere.
  void finish(dash::internal::Failure& failure, const std::vector<char>& head,
              const std::vector<char>& tail, std::uint64_t tail_at);

 private:
  std::string path_;
  dart_team_t team_;
  const char* who_;
  bool finished_ = false;
  std::unique_ptr<NewFile> target_;  // moves to the pending drains at finish
  std::size_t target_parts_ = 1;
  StagedCopy copy_;
  std::vector<std::size_t> own_;  // the calling unit's parts
  PartedFile local_;
};

// Where a write goes: a NewFile, or with the burst buffer a StagedWrite.
class TargetFile {
 public:
  // Settles an earlier burst-buffer write of path (settle_earlier_write),
  // then makes the NewFile or StagedWrite. Collective.
  TargetFile(const std::string& path, dart_team_t team, const Plan& plan, std::uint64_t data_offset,
             std::uint64_t size, const std::vector<std::uint64_t>& bounds, bool burst_buffer,
             const char* who);
  // Where the write rounds write.
  PartedFile& data();
  // What errors name: the temporary file, or the path's node-local copy.
  const std::string& name() const { return name_; }
  // NewFile::commit or StagedWrite::finish. Collective.
  void commit(dash::internal::Failure& failure, const std::vector<char>& head,
              const std::vector<char>& tail, std::uint64_t tail_at);
  // The call's report.
  IoReport report(const Plan& plan) const;

 private:
  std::unique_ptr<NewFile> direct_;
  std::unique_ptr<StagedWrite> staged_;
  std::string name_;
};

// Before a write of path: InvalidArgument on every unit if a burst-buffer
// write of path on another team has not drained; drains one on this team.
// Collective.
void settle_earlier_write(const std::string& path, dart_team_t team, const char* who);

// The node-local copy of path that a burst-buffer write on team left and
// that has not drained yet, or null. Local.
const StagedCopy* staged_copy(const std::string& path, dart_team_t team);

// Completes team's burst-buffer writes (only that of `path` if not null).
// Throws on every unit if one failed (after going through all). Collective.
void drain_staged(dart_team_t team, const std::string* path, const char* who);

// drain_staged for a team that ends (freed, or at dash::finalize): errors
// go to stderr and are kept for take_failed_drain. Collective.
void drain_staged_at_end(dart_team_t team) noexcept;

// The message of the first drain at a teardown (drain_staged_at_end) that failed since the last
// call, or "" (and forgets it): dash::finalize fails the program with it. Local.
std::string take_failed_drain();

// Whether a burst-buffer write of path waits for its drain in this process
// (on any team). Local.
bool drain_pending(const std::string& path);

// Throws InvalidArgument on every unit of team if path has a pending drain
// on another team (which this team cannot complete). Collective.
void check_no_foreign_drain(const std::string& path, dart_team_t team, const char* who);

}  // namespace internal
}  // namespace io
}  // namespace dash

#endif  // DASH__SRC__IO__BURST_BUFFER_H_
