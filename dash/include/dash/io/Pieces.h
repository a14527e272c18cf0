// dash::io::write_pieces and dash::io::read_pieces: each unit's list of
// (file offset, bytes) to one plain file and back, by two-phase aggregation
// (the way HACC-IO writes its particles; dash::io::save is built on the
// same engine, see dash/io/Save.h for how the rounds run and the flags).
//
//   std::vector<dash::io::Piece> mine = {{offset, bytes_ptr, nbytes}, ...};
//   dash::io::write_pieces("/scratch/out.bin", mine);        // collective
//   dash::io::read_pieces("/scratch/out.bin", mine);         // collective
//
// The file is exactly the pieces: its size is the largest end of any
// unit's piece; bytes no unit gives are zero. Pieces of one unit must not
// overlap (InvalidArgument); pieces of different units must not either (not
// checked: the file then holds one of them). A write goes to
// "<path>.tmp.<pid>.<host>.<16 hex digits>" and is renamed to path when
// complete and synced, so a
// failure leaves an earlier file intact. There are no checksums in a plain
// file (dash::io::save's files have them). With subfiling (IoSettings::
// subfiling, DASH_IO_SUBFILING) the bytes go to parts beside path and path
// holds their table (docs/io.md: "Subfiling"); read_pieces reads either kind.
// With the burst buffer (IoSettings::burst_buffer, DASH_IO_BURST_BUFFER) a
// write returns once the data sits in node-local files and drains to path
// in the background until drain(); reads before that come from the
// node-local copy (docs/io.md: "Burst buffer").
//
// | call         | cost                                                      |
// |--------------|-----------------------------------------------------------|
// | write_pieces | collective: four allreduces (one checks no other team has |
// |              | a drain pending for path), then rounds of one-sided puts  |
// |              | into the aggregators' buffers and a barrier each          |
// | read_pieces  | collective: an allreduce and a broadcast, then rounds of  |
// |              | one-sided gets                                            |
// | drain        | collective: waits for the background copies, a barrier   |
// |              | and a rename per pending write                            |
#ifndef DASH__IO__PIECES_H_
#define DASH__IO__PIECES_H_

#include <dash/Team.h>

#include <cstdint>
#include <string>
#include <vector>

namespace dash {
namespace io {

// Consecutive bytes of the calling unit and where they lie in the file (or
// in a container file's data).
struct Piece {
  std::uint64_t offset = 0;
  char* data = nullptr;
  std::uint64_t bytes = 0;
};

// How the aggregation runs: 0 (or "") takes the flag's value, else the
// default.
struct IoSettings {
  int aggregators = 0;             // DASH_IO_AGGREGATORS; default one per node
  std::uint64_t buffer_bytes = 0;  // DASH_IO_BUFFER_SIZE; default 4 MiB
  std::string tier;                // DASH_IO_AGGR_TIER: dram, hbm, shm, disk or auto
  bool explain = false;            // unit 0 prints the cost model's tables (DASH_IO_EXPLAIN)
  bool persistent = false;         // buffers on a persistent tier only (DASH_IO_PERSISTENCY)
  int subfiling = 0;               // DASH_IO_SUBFILING: one file per this many nodes; 0: one file
  bool burst_buffer = false;       // writes land on node-local storage first (DASH_IO_BURST_BUFFER)
  std::string aggregation;         // DASH_IO_AGGREGATION: on, off or auto (default)
};

// How a call ran: the memory tier of its aggregation buffers, how many
// aggregators and which, the chunk (bytes per round and aggregator), the
// files. A write without aggregation reports tier "none" and 0 aggregators.
struct IoReport {
  std::string tier;
  int aggregators = 0;
  std::uint64_t chunk_bytes = 0;
  int subfiles = 1;  // files the data went to or came from (1: a single shared file)
  std::vector<int> aggregator_units;  // the team unit of each file domain's aggregator
  bool staged = false;  // written to, or read from, the node-local copy of a burst-buffer write
};

// The flags' settings, overridden by the non-zero fields of `given`;
// throws InvalidArgument naming a malformed flag. Local.
IoSettings resolve_settings(const IoSettings& given);

// How many units aggregate with these settings on this team (the flags
// and defaults filling in zeros). Local.
int aggregator_count(Team& team, const IoSettings& settings = {});

// Writes every unit's pieces to the plain file at path, replacing it when
// complete. Errors throw on every unit (RuntimeError naming the path and
// the cause). Collective over team.
IoReport write_pieces(const std::string& path, std::vector<Piece> pieces, Team& team = Team::All(),
                      const IoSettings& settings = {});

// Reads every unit's pieces from the plain file at path; a piece beyond the
// file's end is InvalidArgument on every unit. Collective over team.
IoReport read_pieces(const std::string& path, std::vector<Piece> pieces, Team& team = Team::All(),
                     const IoSettings& settings = {});

// Removes the file at path (of write_pieces or dash::io::save) and, if it
// is a subfile table, its parts, and what saves of path killed on this host
// left (temporaries, parts); a path that is not there is no error.
// RuntimeError naming the path if something cannot be removed;
// InvalidArgument if a burst-buffer write of path has not drained yet (call
// drain first). Local (call it on one unit).
void remove(const std::string& path);

// Completes the team's burst-buffer writes (docs/io.md: "Burst buffer"): waits
// until every unit has copied its node-local files into the target, puts
// each file at its path (the atomic rename) and removes the node-local
// copies. Errors throw on every unit; the failed file's node-local copy is
// then kept (its names go to stderr) and the earlier file at the path stays.
// Also runs when the team is freed, at dash::finalize and before another
// write of the same path. Collective over team.
void drain(Team& team = Team::All());

}  // namespace io
}  // namespace dash

#endif  // DASH__IO__PIECES_H_
