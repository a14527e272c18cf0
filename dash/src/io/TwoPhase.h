// The two-phase engine behind dash::io (not public): who aggregates which
// chunks, the aggregation buffers, a file written under a temporary name,
// and the rounds that move pieces through the buffers to and from a file.
#ifndef DASH__SRC__IO__TWO_PHASE_H_
#define DASH__SRC__IO__TWO_PHASE_H_

#include <dart/dart_types.h>
#include <dash/Team.h>
#include <dash/internal/Failure.h>
#include <dash/io/Pieces.h>
#include <dash/io/internal/ContainerFile.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/PartedFile.h"

namespace dash {
namespace io {
namespace internal {

// The data's chunks and the units that aggregate them: aggregator i moves
// chunks [first[i], first[i + 1]), chunk r of its domain in round r.
struct Plan {
  std::uint64_t data_bytes = 0, chunk = 0, nchunks = 0;
  std::vector<int> aggregators;      // team unit ids, ascending
  std::vector<std::uint64_t> first;  // size aggregators + 1
  int mine = -1;                     // the calling unit's index in aggregators, or -1
  std::string tier = "dram";         // where the aggregation buffers live
  std::uint64_t rounds() const;
  std::uint64_t chunk_end(std::uint64_t c) const;
};

// What a call reports: the plan's tier and aggregators, and the file's parts.
IoReport report_of(const Plan& plan, std::size_t parts);

// `wanted` aggregators (0: the first unit of every node), spread evenly over
// the team's units; chunks of `chunk` bytes dealt in contiguous domains.
// Local (the same on every unit).
Plan make_plan(dart_team_t team, std::uint64_t data_bytes, std::uint64_t chunk, int wanted);

// The plan by the cost model (dash/io/CostModel.h): the aggregator count
// from the settings (default one per node), the file cut into that many
// domains of whole chunks; each domain's aggregator the unit of least
// modelled cost among those with bytes in it (not taken by an earlier
// domain), on the settings' tier or, for auto, the tier whose slowest
// aggregator is fastest (a later one of dram, hbm, shm, disk only if 10 % faster). Unit 0 evaluates
// with its node's tier figures and broadcasts; with settings.explain it prints the tables. runs:
// the calling unit's. Collective: an allgather of bytes per domain, a broadcast, and the agreement
// on failure.
Plan plan_io(Team& team, const std::vector<Run>& runs, std::uint64_t data_bytes,
             std::uint64_t chunk, const IoSettings& settings, const char* who);

// Drops empty runs, sorts by offset; InvalidArgument if one ends beyond
// data_bytes or two single pieces overlap. Local.
void sort_and_check(std::vector<Run>& runs, std::uint64_t data_bytes, const char* who);

// A new file at path, of `size` logical bytes, written under a temporary
// name: one file "<path>.tmp.<pid of unit 0>.<host>.<hex>" (bounds empty), or with
// subfiling parts holding [bounds[k], bounds[k + 1]) (PartedFile.h) and a
// subfile table at that temporary name unit 0 writes at commit. Unit 0 creates
// the single file; parts are created by their first writer. commit() puts
// the file (the table) at path and then removes the parts of the file it
// replaced; until then (or if commit fails) unit 0 removes everything
// written when the object goes.
class NewFile {
 public:
  // Collective: a broadcast and the agreement on any failure (throws on
  // every unit).
  NewFile(const std::string& path, dart_team_t team, std::uint64_t size,
          const std::vector<std::uint64_t>& bounds, const char* who);
  ~NewFile();
  NewFile(const NewFile&) = delete;
  NewFile& operator=(const NewFile&) = delete;
  PartedFile& data() { return data_; }
  const std::string& temporary() const { return temporary_; }
  // A number fresh for this write, the same on every unit (names its parts).
  std::uint64_t generation() const { return generation_; }
  std::size_t parts() const { return data_.parts().size(); }
  // Every unit syncs what it wrote; unit 0 writes `head` at 0 and `tail`
  // at tail_at, syncs, (with parts: writes the table), renames the file to
  // path, syncs the directory and removes the replaced file's parts.
  // Collective; agrees on `failure` first and throws everywhere.
  void commit(dash::internal::Failure& failure, const std::vector<char>& head,
              const std::vector<char>& tail, std::uint64_t tail_at);

 private:
  std::string path_, temporary_;
  std::uint64_t generation_ = 0;
  dart_team_t team_;
  const char* who_;
  int me_ = 0;
  bool committed_ = false, parted_ = false;
  PartedFile data_;
};

// Where the parts of a new file start, for `subfiles` parts (1: none): the
// logical offsets data_offset + (first chunk of a group of the plan's
// domains) * chunk, then `size`. Local.
std::vector<std::uint64_t> subfile_bounds(const Plan& plan, int subfiles, std::uint64_t data_offset,
                                          std::uint64_t size);

// How many parts settings.subfiling asks for on this team: one per
// `subfiling` nodes (0: one file), at most one per aggregator. Local.
int subfile_count(dart_team_t team, const Plan& plan, int subfiling);

// The write rounds: every unit's (sorted) runs into the aggregators'
// buffers, each aggregator writing its chunks at data_offset + chunk
// offset of file (a helper thread, while the next round fills the other
// buffer). zero_gaps: bytes no piece gives are written as zeros. sums (if
// not null, nchunks long) gets each chunk's checksum from its aggregator
// (0 elsewhere). Errors go into failure (not agreed). Collective.
void write_rounds(Team& team, const Plan& plan, PartedFile& file, const std::string& path,
                  std::uint64_t data_offset, const std::vector<Run>& runs, bool zero_gaps,
                  std::vector<std::uint64_t>* sums, dash::internal::Failure& failure,
                  const char* who);

// Whether a write goes without aggregation (IoSettings::aggregation): "off"
// always; "auto" when the aggregators, tier, persistency, subfiling and
// burst buffer are all left to their defaults, no two units share a node
// and every unit's pieces are single contiguous runs of at least a chunk
// each (each unit would aggregate only its own bytes: the rounds' barriers
// buy nothing). InvalidArgument (on every unit) for "off" with subfiling or
// the burst buffer. Collective: an allreduce (auto).
bool writes_directly(dart_team_t team, const std::vector<Run>& runs, std::uint64_t chunk,
                     const IoSettings& settings, const char* who);

// The plan of a write without aggregation: the chunks (for checksums), no
// aggregators, tier "none". Local.
Plan direct_plan(dart_team_t team, std::uint64_t data_bytes, std::uint64_t chunk);

// A write without aggregation: every unit writes its own runs at
// data_offset + offset of file (pwrite per piece); unit 0 then gives every
// part its full size (bytes nobody wrote read as zeros). sums (if not null,
// nchunks long): a chunk inside one unit's single run is summed from that
// unit's memory, any other chunk is read back from the file by unit
// (chunk % units), so each sum comes from one unit (0 elsewhere). Errors go
// into failure (not agreed). Collective: barriers and, with sums, an
// allreduce of nchunks ints.
void direct_writes(Team& team, const Plan& plan, PartedFile& file, const std::string& path,
                   std::uint64_t data_offset, const std::vector<Run>& runs,
                   std::vector<std::uint64_t>* sums, dash::internal::Failure& failure,
                   const char* who);

// The read rounds: aggregators read a chunk ahead (and check it against
// sums, if given), every unit gets its runs. Errors go into failure (not
// agreed). Collective.
void read_rounds(Team& team, const Plan& plan, PartedFile& file, const std::string& path,
                 std::uint64_t data_offset, const std::vector<Run>& runs,
                 const std::vector<std::uint64_t>* sums, dash::internal::Failure& failure,
                 const char* who);

// Helpers of the file formats.
std::uint64_t io_checksum(const void* data, std::size_t n);
std::string write_all(int fd, const char* data, std::uint64_t n, std::uint64_t offset);
std::string read_all(int fd, char* data, std::uint64_t n, std::uint64_t offset);
using dash::internal::errno_text;
int team_myid(dart_team_t team);
void check_io(dart_ret_t ret, const std::string& what);
// Closes the descriptor it refers to (if open) when it goes.
struct FdCloser {
  int& fd;
  ~FdCloser();
};

// Runs f, keeping its exception in failure.
template <class F>
void captured(dash::internal::Failure& failure, F&& f) {
  try {
    f();
  } catch (...) {
    failure.capture();
  }
}

}  // namespace internal
}  // namespace io
}  // namespace dash

#endif  // DASH__SRC__IO__TWO_PHASE_H_
