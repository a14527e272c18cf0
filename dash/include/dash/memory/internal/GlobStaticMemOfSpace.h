// dash::GlobStaticMem<Space> for a local memory space Space (DASH's global
// memory resource): allocate(nbytes) gives every unit of the team nbytes,
// collectively, and returns a GlobPtr<void> to unit 0's part that moves
// through all units' parts in team order (a contiguous memory space);
// deallocate frees them, collectively. A resource can hold several
// allocations; it frees those it still holds when it is destroyed.
//
// | Space                        | each unit's part                            |
// |------------------------------|---------------------------------------------|
// | HostSpace                    | DART's team allocation (load/store on the   |
// |                              | node)                                       |
// | HBWSpace (HBM found)         | from HBWSpace, registered with DART         |
// | HBWSpace (no HBM)            | as HostSpace (HBWSpace.h)                   |
// | another local space          | from that space, registered with DART       |
//
// | call                          | cost                                       |
// |-------------------------------|--------------------------------------------|
// | constructors, capacity, team  | local                                      |
// | allocate(nbytes, alignment)   | collective (the team allocation)           |
// | deallocate(p, nbytes)         | collective: one allreduce, then the free   |
// | destructor                    | collective if it holds allocations         |
//
// Every unit passes the same nbytes and alignment (DART's segments have one
// size; DASH's also takes a size per unit); units that differ throw
// dash::exception::InvalidArgument on every unit. Moving a resource moves
// its allocations along; a pointer is freed by whichever resource of its
// team holds it (as DASH's, whose resources are swapped under the pointers
// in its tests).
#ifndef DASH__MEMORY__INTERNAL__GLOB_STATIC_MEM_OF_SPACE_H_
#define DASH__MEMORY__INTERNAL__GLOB_STATIC_MEM_OF_SPACE_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/internal/Failure.h>
#include <dash/memory/DefaultMemorySpace.h>
#include <dash/memory/GlobPtr.h>
#include <dash/memory/MemorySpaceBase.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <memory_resource>
#include <string>
#include <type_traits>
#include <utility>

namespace dash {

namespace internal {

// An allocation of a GlobStaticMem<Space>: its memory and the resource
// object that holds it.
struct StaticSegment {
  std::unique_ptr<GlobStaticMem<std::byte>> memory;
  const void* holder = nullptr;
  std::size_t bytes = 0;  // per unit
};
// The allocations of all GlobStaticMem<Space> of the process by (team,
// segment id): the same order on every unit. Not thread-safe (allocations
// are collective calls of the main thread).
inline std::map<std::pair<int, int>, StaticSegment>& static_segments() {
  static std::map<std::pair<int, int>, StaticSegment> segments;
  return segments;
}
inline std::pair<int, int> static_segment_key(const dart_gptr_t& g) { return {g.teamid, g.segid}; }

}  // namespace internal

template <class Space>
class GlobStaticMem<Space, std::enable_if_t<is_local_memory_space<Space>::value>>
    : public MemorySpace<memory_domain_global,
                         typename memory_space_traits<Space>::memory_space_type_category> {
 public:
  using memory_space_domain_category = memory_domain_global;
  using memory_space_type_category =
      typename memory_space_traits<Space>::memory_space_type_category;
  using size_type = default_size_t;
  using index_type = default_index_t;
  using difference_type = index_type;
  using memory_space_allocation_policy = allocation_static;
  using memory_space_synchronization_policy = synchronization_collective;
  using memory_space_layout_tag = memory_space_contiguous;
  using allocator_type = std::pmr::polymorphic_allocator<std::byte>;
  using void_pointer = GlobPtr<void>;
  using const_void_pointer = GlobPtr<const void>;
  using local_void_pointer = void*;
  using const_local_void_pointer = const void*;

  // The largest alignment allocate() offers (bytes).
  static constexpr std::size_t max_alignment = 64;

  // A resource without a team: allocate() throws. Local.
  GlobStaticMem() = default;
  // A resource for `team` over Space's default instance / over `space`.
  // Takes no memory yet. Local.
  explicit GlobStaticMem(const Team& team) : GlobStaticMem(nullptr, team) {}
  GlobStaticMem(Space* space, const Team& team)
      : team_(&team), space_(space != nullptr ? space : internal::default_local_space<Space>()) {}
  GlobStaticMem(const GlobStaticMem&) = delete;
  GlobStaticMem& operator=(const GlobStaticMem&) = delete;
  // Takes other's allocations. Local.
  GlobStaticMem(GlobStaticMem&& other) noexcept : team_(other.team_), space_(other.space_) {
    take_allocations_of(other);
  }
  // Takes other's team, space and allocations; keeps its own allocations
  // too. Local.
  GlobStaticMem& operator=(GlobStaticMem&& other) noexcept {
    if (this != &other) {
      team_ = other.team_;
      space_ = other.space_;
      take_allocations_of(other);
    }
    return *this;
  }
  // Frees the allocations it holds, in the order made. Collective if it
  // holds any (see GlobStaticMem<T> for what happens during unwinding).
  ~GlobStaticMem() override {
    auto& segments = internal::static_segments();
    for (auto it = segments.begin(); it != segments.end();) {
      if (it->second.holder == this)
        it = segments.erase(it);
      else
        ++it;
    }
  }

  // nbytes on every unit of the team, aligned to `alignment` (at most
  // max_alignment); returns the pointer to unit 0's part. Collective; throws
  // dash::exception::InvalidArgument on every unit if the units' nbytes or
  // alignments differ, and what the allocation throws (GlobStaticMem<T>).
  void_pointer allocate(size_type nbytes, size_type alignment = alignof(std::max_align_t)) {
    const char* who = "dash::GlobStaticMem::allocate";
    if (team_ == nullptr)
      throw exception::InvalidArgument(std::string(who) + ": the memory space has no team");
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > max_alignment)
      throw exception::InvalidArgument(
          std::string(who) + ": alignment " + std::to_string(alignment) +
          " is not a power of two of at most " + std::to_string(max_alignment));
    auto memory = std::make_unique<GlobStaticMem<std::byte>>(
        static_cast<std::size_t>(nbytes), const_cast<Team&>(*team_),
        (static_cast<std::uint64_t>(nbytes) << 8) ^ alignment ^ 0x5bd1e995u, who,
        std::to_string(nbytes) + " bytes per unit, alignment " + std::to_string(alignment),
        internal::parts_resource(space_, "dash::GlobStaticMem<dash::HBWSpace>"));
    const dart_gptr_t begin = memory->dart_gptr();
    internal::StaticSegment& segment =
        internal::static_segments()[internal::static_segment_key(begin)];
    segment.memory = std::move(memory);
    segment.holder = this;
    segment.bytes = static_cast<std::size_t>(nbytes);
    return void_pointer(begin, static_cast<default_index_t>(nbytes),
                        static_cast<int>(team_->size()));
  }
  // Frees the allocation p points into (any unit, any offset), made by a
  // resource of this team. A null pointer does nothing (without
  // communication: pass it on every unit or on none). Collective; throws
  // dash::exception::InvalidArgument on every unit if a unit's p is not a
  // live allocation of this team or nbytes is not its size.
  void deallocate(void_pointer p, size_type nbytes,
                  size_type alignment = alignof(std::max_align_t)) {
    (void)alignment;
    const char* who = "dash::GlobStaticMem::deallocate";
    if (!p) return;
    const dart_gptr_t g = p.dart_gptr();
    auto& segments = internal::static_segments();
    auto it = segments.find(internal::static_segment_key(g));
    internal::Failure failure;
    try {
      if (team_ == nullptr || it == segments.end() || g.teamid != team_->dart_id())
        throw exception::InvalidArgument(std::string(who) +
                                         ": the pointer is not a live allocation of a "
                                         "GlobStaticMem of this team (freed before?)");
      if (it->second.bytes != nbytes)
        throw exception::InvalidArgument(std::string(who) + ": " + std::to_string(nbytes) +
                                         " bytes given, the allocation has " +
                                         std::to_string(it->second.bytes));
    } catch (...) {
      failure.capture();
    }
    internal::agree(failure, team_ != nullptr ? team_->dart_id() : DART_TEAM_ALL, who);
    segments.erase(it);  // frees the memory: collective
  }

  // Bytes of the allocations it holds, over all units / on `unit`. Local.
  size_type capacity() const noexcept {
    return team_ == nullptr ? 0 : capacity(team_unit_t{0}) * team_->size();
  }
  size_type capacity(team_unit_t unit) const noexcept {
    (void)unit;  // every unit holds the same bytes
    size_type bytes = 0;
    for (const auto& entry : internal::static_segments())
      if (entry.second.holder == this) bytes += entry.second.bytes;
    return bytes;
  }

  const Team& team() const noexcept { return *team_; }
  // Waits for every unit of the team. Collective.
  void barrier() const { team_->barrier(); }
  // A local allocator over the resource's local memory space. Local.
  allocator_type get_allocator() const { return allocator_type(space_); }
  // Completes the calling unit's writes to p's allocation (on every unit,
  // or on `unit`). Local (waits for the targets).
  void flush(void_pointer p, team_unit_t unit = team_unit_t{-1}) const {
    internal::check_dart(
        unit.id < 0 ? dart_flush_all(at_unit(p, unit)) : dart_flush(at_unit(p, unit)),
        "dash::GlobStaticMem::flush");
  }
  // Completes them locally (buffers reusable). Local.
  void flush_local(void_pointer p, team_unit_t unit = team_unit_t{-1}) const {
    internal::check_dart(
        unit.id < 0 ? dart_flush_local_all(at_unit(p, unit)) : dart_flush_local(at_unit(p, unit)),
        "dash::GlobStaticMem::flush_local");
  }

 private:
  static dart_gptr_t at_unit(const void_pointer& p, team_unit_t unit) {
    dart_gptr_t g = p.dart_gptr();
    if (unit.id >= 0) g.unitid = unit.id;
    return g;
  }
  void take_allocations_of(const GlobStaticMem& other) noexcept {
    for (auto& entry : internal::static_segments())
      if (entry.second.holder == &other) entry.second.holder = this;
  }

  const Team* team_ = nullptr;
  Space* space_ = nullptr;
};

}  // namespace dash

#endif  // DASH__MEMORY__INTERNAL__GLOB_STATIC_MEM_OF_SPACE_H_
