// dash::GlobStaticMem<T>: the global memory of a container: the same number
// of elements on every unit of a team, allocated and freed collectively. It
// keeps, per unit, the load/store address of that unit's part when the
// calling unit can reach it that way (itself, units of the same node with
// the shared-window fast path on), so element access needs no runtime call.
//
// Where the units' parts come from:
//
// | local_space      | memory                          | other units reach a part by  |
// |------------------|---------------------------------|------------------------------|
// | nullptr (default)| DART's team allocation (one     | load/store on the node, else |
// |                  | shared window per team)         | one-sided get/put            |
// | a memory space   | each unit's part from that      | one-sided get/put (the owner |
// |                  | memory resource (e.g. HBM),     | by load/store); atomics are  |
// |                  | registered with DART            | not offered there (DART)     |
#ifndef DASH__MEMORY__GLOB_STATIC_MEM_H_
#define DASH__MEMORY__GLOB_STATIC_MEM_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/internal/Failure.h>
#include <dash/internal/MemoryStamp.h>
#include <dash/memory/GlobPtr.h>
#include <dash/memory/GlobRef.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <memory_resource>
#include <string>
#include <vector>

namespace dash {

// GlobStaticMem<T>: the typed memory of containers (below). GlobStaticMem<Space>
// for a local memory space Space (HostSpace, HBWSpace, ...): DASH's global
// memory resource, in internal/GlobStaticMemOfSpace.h.
template <class T, class = void>
class GlobStaticMem {
 public:
  using value_type = T;
  using index_type = default_index_t;

  // Allocates local_capacity elements on every unit of team. Collective.
  // args_check (e.g. a hash of the container's extents and distribution) must
  // be the same on every unit, like local_capacity; if not, every unit throws
  // dash::exception::InvalidArgument naming `who` and describing this unit's
  // arguments with args_text (checked in the allocation's own agreement, no
  // extra communication). Every failure of the allocation is thrown on every
  // unit.
  //
  // With a local_space (see the table above) each unit's part comes from
  // that memory resource and is registered with DART; the same checks
  // apply, and a unit whose resource cannot give the memory makes every
  // unit throw (its own exception there, RemoteFailure elsewhere).
  GlobStaticMem(std::size_t local_capacity, Team& team, std::uint64_t args_check = 0,
                const char* who = "dash::GlobStaticMem", const std::string& args_text = "",
                std::pmr::memory_resource* local_space = nullptr)
      : team_(&team),
        local_capacity_(local_capacity),
        uncaught_at_construction_(std::uncaught_exceptions()),
        local_space_(local_space) {
    const bool overflow = local_capacity > std::numeric_limits<std::size_t>::max() / sizeof(T);
    // An overflowing size still enters the allocation (as SIZE_MAX bytes), so
    // that every unit learns of it.
    const std::size_t bytes =
        overflow ? std::numeric_limits<std::size_t>::max() : local_capacity * sizeof(T);
    dart_ret_t ret = local_space == nullptr
                         ? dart_team_memalloc_aligned_checked(team.dart_id(), bytes, DART_TYPE_BYTE,
                                                              args_check, &base_)
                         : register_local_part(bytes, overflow, args_check, who);
    if (ret == DART_ERR_INVAL) {
      throw exception::InvalidArgument(
          std::string(who) +
          ": the collective allocation failed on every unit: the units passed different sizes, "
          "distributions or other collective arguments, or an invalid size (this unit: " +
          (args_text.empty() ? std::to_string(local_capacity) + " elements per unit" : args_text) +
          ")");
    }
    internal::check_dart(ret, (std::string(who) + ": dart_team_memalloc_aligned").c_str());
    std::size_t n = team.size();
    units_.resize(n);
    for (std::size_t u = 0; u < n; ++u) {
      dart_gptr_t g = base_;
      g.unitid = static_cast<int>(u);
      void* addr = nullptr;
      internal::check_dart(dart_gptr_getaddr_shared(g, &addr),
                           "dash::GlobStaticMem: dart_gptr_getaddr_shared");
      units_[u] = UnitPart{g, static_cast<T*>(addr)};
    }
    lbegin_ = units_[team.myid().id].shared_base;
    stamp_ = internal::acquire_memory_stamp();
    team.retain_container();
  }
  GlobStaticMem(const GlobStaticMem&) = delete;
  GlobStaticMem& operator=(const GlobStaticMem&) = delete;
  // Frees the memory. Collective; does nothing after dash::finalize. While an
  // exception thrown after the construction unwinds the stack
  // (std::uncaught_exceptions() grew), the other units may be anywhere, so no
  // collective starts: the memory stays allocated until dart_exit
  // (dash::finalize) frees all that is left (deferred release, see docs/failures.md).
  // A sub-team whose destruction free_subteams() deferred for this memory is
  // destroyed with it (collective as well).
  ~GlobStaticMem() {
    internal::release_memory_stamp(stamp_);  // references and iterators turn stale
    const bool collective =
        dash::is_initialized() && std::uncaught_exceptions() <= uncaught_at_construction_;
    if (collective) dart_team_memfree(base_);  // else deferred to dart_exit
    // Registered memory must outlive its window: kept if the window stays.
    if (collective && local_space_ != nullptr && local_part_ != nullptr)
      local_space_->deallocate(local_part_, local_capacity_ * sizeof(T), local_part_alignment);
    team_->release_container(collective);
  }

  // Global pointer to element `offset` of unit's part. Local, no runtime call.
  dart_gptr_t dart_gptr_at(team_unit_t unit, index_type offset) const {
    dart_gptr_t g;
    std::memcpy(&g, &units_[unit.id].gptr, sizeof g);  // whole words: no bit-field merge
    g.addr_or_offs.offset += static_cast<std::uint64_t>(offset) * sizeof(T);
    return g;
  }
  // The same as a GlobPtr that moves through this memory space. Local.
  GlobPtr<T> at(team_unit_t unit, index_type offset) const {
    return GlobPtr<T>(dart_gptr_at(unit, offset), static_cast<default_index_t>(local_capacity_),
                      static_cast<int>(units_.size()));
  }
  // Reference to element `offset` of unit's part. Local, no runtime call.
  template <class R = T>
  GlobRef<R> ref(team_unit_t unit, index_type offset) const {
    T* base = units_[unit.id].shared_base;
    return GlobRef<R>(dart_gptr_at(unit, offset), base ? base + offset : nullptr, stamp_);
  }
  // Liveness stamp handed to references and iterators. Local.
  internal::MemoryStamp stamp() const { return stamp_; }
  // Load/store address of unit's part, or nullptr. Local.
  T* shared_base(team_unit_t unit) const { return units_[unit.id].shared_base; }
  // The calling unit's part.
  T* lbegin() const { return lbegin_; }
  std::size_t local_capacity() const { return local_capacity_; }
  dart_gptr_t dart_gptr() const { return base_; }
  Team& team() const { return *team_; }

  // Completes all one-sided writes the calling unit issued to this memory.
  // Local (waits for the targets' acknowledgement).
  void flush() const { internal::check_dart(dart_flush_all(base_), "dash::GlobStaticMem::flush"); }
  // The memory resource the units' parts come from; nullptr for DART's team
  // allocation. Local.
  std::pmr::memory_resource* local_space() const { return local_space_; }

 private:
  static constexpr std::size_t local_part_alignment = alignof(T) > alignof(std::max_align_t)
                                                          ? alignof(T)
                                                          : alignof(std::max_align_t);

  // Takes the calling unit's part from local_space_ and registers it with
  // DART (dart_team_memregister). Collective: the units first agree that
  // every allocation succeeded and every args_check is the same, so that a
  // failure on one unit is thrown on all (none waits in the registration).
  dart_ret_t register_local_part(std::size_t bytes, bool overflow, std::uint64_t args_check,
                                 const char* who) {
    internal::Failure failure;
    try {
      if (overflow)
        throw exception::InvalidArgument(std::string(who) + ": " + std::to_string(local_capacity_) +
                                         " elements of " + std::to_string(sizeof(T)) +
                                         " bytes overflow size_t");
      if (bytes > 0) local_part_ = local_space_->allocate(bytes, local_part_alignment);
    } catch (...) {
      failure.capture(std::string(who) + ": allocating the unit's part from its memory space");
    }
    // Every unit passed the same args_check iff its maximum equals its
    // minimum, which is ~max(~check): both maxima in one allreduce.
    unsigned long long mine[2] = {args_check, ~static_cast<unsigned long long>(args_check)};
    unsigned long long all[2] = {0, 0};
    internal::check_dart(
        dart_allreduce(mine, all, 2, DART_TYPE_ULONGLONG, DART_OP_MAX, team_->dart_id()),
        (std::string(who) + ": dart_allreduce").c_str());
    if (all[0] != ~all[1] && !failure.own()) {
      try {
        throw exception::InvalidArgument(std::string(who) +
                                         ": the units passed different sizes, distributions or "
                                         "other collective arguments");
      } catch (...) {
        failure.capture();
      }
    }
    try {
      internal::agree(failure, team_->dart_id(), who);
    } catch (...) {
      if (local_part_ != nullptr)
        local_space_->deallocate(local_part_, bytes, local_part_alignment);
      local_part_ = nullptr;
      throw;
    }
    dart_ret_t ret =
        dart_team_memregister(team_->dart_id(), bytes, DART_TYPE_BYTE, local_part_, &base_);
    if (ret != DART_OK && local_part_ != nullptr) {
      local_space_->deallocate(local_part_, bytes, local_part_alignment);
      local_part_ = nullptr;
    }
    return ret;
  }

  Team* team_;
  std::size_t local_capacity_;
  int uncaught_at_construction_;
  dart_gptr_t base_ = DART_GPTR_NULL;
  // Per unit of the team: the global pointer to its part and its load/store
  // address (nullptr if not reachable by load/store), side by side.
  struct UnitPart {
    dart_gptr_t gptr;
    T* shared_base;
  };
  std::vector<UnitPart> units_;
  T* lbegin_ = nullptr;
  internal::MemoryStamp stamp_;
  std::pmr::memory_resource* local_space_ = nullptr;
  void* local_part_ = nullptr;  // the calling unit's part, if from local_space_
};

namespace internal {

// The liveness stamp of mem, or for no memory a stamp that is never live.
// Local; mem must exist (the stamp is how later users learn that it is gone).
template <class T>
MemoryStamp stamp_of(const GlobStaticMem<T>* mem) {
  if (mem != nullptr) return mem->stamp();
  MemoryStamp none;
  none.value = 1;  // the always-live slot holds 0
  return none;
}

}  // namespace internal
}  // namespace dash

#include <dash/memory/internal/GlobStaticMemOfSpace.h>

#endif  // DASH__MEMORY__GLOB_STATIC_MEM_H_
