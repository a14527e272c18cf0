// Aggregation buffers on a memory tier (not public; dash/io/Tiers.h says
// what the tiers are).
#ifndef DASH__SRC__IO__TIER_MEMORY_H_
#define DASH__SRC__IO__TIER_MEMORY_H_

#include <dart/dart_types.h>
#include <dash/Team.h>
#include <dash/io/Tiers.h>

#include <cstdint>

namespace dash {
namespace io {
namespace internal {

// The tier `name` for aggregation buffers: as the tier file describes it,
// or (without one) with its directory checked but not probed;
// InvalidArgument if it cannot be used here. Local.
Tier buffer_tier(const std::string& name);

// DASH_IO_TIERS's value with %h replaced by the host name, %n by the
// calling unit's (real or emulated) node index (DART must be running) and
// %% by %; InvalidArgument for another %. Local.
std::string tier_file_path(const std::string& raw);

// `bytes` per unit on `tier`, a team segment: dram the team's kept buffers
// (a Team::extension, kept between calls) up to kCachedTierBytes, a segment of its own
// beyond; shm and disk a file the unit maps (its name removed at once)
// registered as a segment. Collective; a failure on one unit throws on
// every unit.
class TierMemory {
 public:
  static constexpr std::uint64_t kCachedTierBytes = std::uint64_t(64) << 20;
  TierMemory(Team& team, const Tier& tier, std::uint64_t bytes, const char* who);
  // Collective (frees what is not kept).
  ~TierMemory();
  TierMemory(const TierMemory&) = delete;
  TierMemory& operator=(const TierMemory&) = delete;
  dart_gptr_t gptr() const { return gptr_; }
  char* local() const { return local_; }

 private:
  dart_gptr_t gptr_ = DART_GPTR_NULL;
  char* local_ = nullptr;
  char* mapped_ = nullptr;
  std::uint64_t bytes_ = 0;
  bool registered_ = false, owned_ = false, hbm_ = false;  // hbm_: mapped_ came from memkind
};

}  // namespace internal
}  // namespace io
}  // namespace dash

#endif  // DASH__SRC__IO__TIER_MEMORY_H_
