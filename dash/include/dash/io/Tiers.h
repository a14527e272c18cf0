// dash::io's memory tiers: where an aggregator's buffers can live and what
// each costs (MA-TAPIOCA's memory abstraction).
//
//   dram  the team's DART segment (shared memory on the node)
//   hbm   high-bandwidth memory (MCDRAM, HBM) through memkind, loaded at
//         run time (libmemkind.so.0): present where memkind finds it
//         (MEMKIND_HBW_NODES can name the NUMA nodes to take as HBM)
//   shm   a file in a RAM file system (/dev/shm) the aggregator maps
//   disk  a file on node-local storage (DASH_IO_NODE_DIR, else $TMPDIR, else
//         /tmp) the aggregator maps; persistent
// hbm, shm and disk buffers are exposed to the other units through an MPI window
// over the mapping (dart_team_memregister): they reach it by RMA.
//
// Each tier has a latency, a bandwidth, a capacity and a persistency, taken
// from the file DASH_IO_TIERS names (%h in it the host name, %n the node
// index, so each node may have its own) or, without it, measured once per
// process by a short probe (writes of 16 MiB into each tier, a synced 4 KiB
// write for disk's latency; capacity from the memory and file system
// statistics). The file has one line per tier (blank lines and # comments
// allowed):
//
//   # name  latency  bandwidth  capacity  persistent  [directory]
//   dram    100ns    8GB/s      16G       no
//   shm     200ns    6GB/s      12G       no          /dev/shm
//   disk    40us     0.5GB/s    200G      yes         /local/scratch
//
// latency in ns, us, ms or s; bandwidth in KB/s, MB/s or GB/s (powers of
// 1000); capacity bytes with K, M, G or T (powers of 1024); persistent yes
// or no; a directory for shm and disk (default as above), none for dram and
// hbm. A tier the file
// leaves out is not used. A malformed file is InvalidArgument naming
// "<file>:<line>" and what is wrong.
//
// | call       | cost                                              |
// |------------|---------------------------------------------------|
// | node_tiers | local; the first call reads the file or probes    |
// | node_tier  | local                                             |
#ifndef DASH__IO__TIERS_H_
#define DASH__IO__TIERS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace dash {
namespace io {

// One memory tier of the calling unit's node.
struct Tier {
  std::string name;            // dram, hbm, shm or disk
  double latency_s = 0;        // one small write into it
  double bandwidth_Bps = 0;    // writing into it
  std::uint64_t capacity = 0;  // bytes free on the node
  bool persistent = false;     // its data outlive the job
  std::string directory;       // shm, disk: where its files go
  std::string source;          // "probe" or "<file>:<line>"
};

// The tiers of the calling unit's node that can be used (DASH_IO_TIERS's
// file, else probed once). Local.
const std::vector<Tier>& node_tiers();

// The tier named `name`; InvalidArgument naming the usable ones if there is
// none. Local.
const Tier& node_tier(const std::string& name);

// Parses a tier file's text (for tests and tools); `origin` names it in
// errors ("<origin>:<line>: ..."). Local.
std::vector<Tier> parse_tiers(const std::string& text, const std::string& origin);

}  // namespace io
}  // namespace dash

#endif  // DASH__IO__TIERS_H_
