// dash::GlobHeapMem<T>: DASH's dynamic global memory. Every unit of a team
// owns a part that it grows and shrinks alone; a collective commit()
// publishes the units' parts to each other.
//
//   grow(n)    a new bucket of n elements, from DART's local allocation
//              pool (dash::memalloc's: reachable by every unit through its
//              global pointer, no collective needed), seen by the calling
//              unit at once
//   shrink(n)  the last n elements go: buckets not yet published are freed,
//              published ones are cut short; a published bucket that goes
//              entirely stays readable by the others until the commit
//   commit()   every unit hands its bucket list (global pointer and size of
//              each bucket) to all (one allgather of counts, one of
//              buckets); then the buckets given up are freed
//
// Between commits each unit sees its own part as it is now and the others'
// as of the last commit: size() is the others' committed sizes plus its own
// current one. Global positions run through the units in team order
// (GlobHeapPtr); a unit's own elements form one local range over its
// buckets (GlobHeapLocalPtr).
//
// | call                              | cost                                   |
// |-----------------------------------|----------------------------------------|
// | constructor (n per unit)          | collective: grow(n) and commit()       |
// | grow, shrink, resize              | local (DART's pool: no communication)  |
// | commit                            | collective: two allgathers             |
// | size, local_size(unit), at, begin | local                                  |
// | *ptr, ptr[i] (GlobRef)            | load/store on the node where DART      |
// |                                   | allows it, else one-sided get / put    |
// | destructor                        | collective (a barrier, then frees)     |
//
// The buckets come from DART's local pool (DART_LOCAL_POOL_SIZE per unit,
// 64 MiB unless set; a grow the pool cannot hold throws
// dash::exception::OutOfMemory): host memory, so LocalMemorySpace is
// dash::HostSpace. Local and global pointers are valid until the next
// grow, shrink or commit changes the buckets they run through.
#ifndef DASH__MEMORY__GLOB_HEAP_MEM_H_
#define DASH__MEMORY__GLOB_HEAP_MEM_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/allocator/AllocationPolicy.h>
#include <dash/allocator/AllocatorBase.h>
#include <dash/memory/GlobHeapLocalPtr.h>
#include <dash/memory/GlobHeapPtr.h>
#include <dash/memory/HostSpace.h>
// DASH's GlobHeapMem.h brings the unit locality along (through its Team.h); programs use it
// to tell which units share a node, and so which uncommitted changes they may see.
#include <dash/util/UnitLocality.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {

template <class ElementType, class LocalMemorySpace = HostSpace,
          global_allocation_policy AllocationPolicy = global_allocation_policy::epoch_synchronized,
          template <class> class LocalAlloc = allocator::DefaultAllocator>
class GlobHeapMem {
  static_assert(std::is_trivially_copyable_v<ElementType>,
                "dash::GlobHeapMem: elements must be trivially copyable (they move as bytes)");
  static_assert(std::is_same_v<LocalMemorySpace, HostSpace>,
                "dash::GlobHeapMem: buckets come from DART's local allocation pool (host "
                "memory); only dash::HostSpace is offered");
  static_assert(AllocationPolicy == global_allocation_policy::epoch_synchronized,
                "dash::GlobHeapMem: only global_allocation_policy::epoch_synchronized is offered");

 public:
  using value_type = ElementType;
  using size_type = default_size_t;
  using difference_type = default_index_t;
  using index_type = default_index_t;
  using local_memory_space = LocalMemorySpace;
  using pointer = GlobHeapPtr<value_type, GlobHeapMem>;
  using const_pointer = GlobHeapPtr<const value_type, GlobHeapMem>;
  using local_pointer = GlobHeapLocalPtr<value_type, index_type>;
  using const_local_pointer = GlobHeapLocalPtr<const value_type, index_type>;
  using local_reference = value_type&;
  using const_local_reference = const value_type&;
  using bucket_type = internal::HeapBucket<value_type>;
  template <class U>
  using rebind = GlobHeapMem<U, LocalMemorySpace, AllocationPolicy, LocalAlloc>;

  // n_local_elem elements on every unit of `team`, published. Collective.
  explicit GlobHeapMem(size_type n_local_elem = 0, Team& team = Team::All())
      : team_(&team), committed_(team.size()), unit_offsets_(team.size() + 1, 0) {
    grow(n_local_elem);
    commit();
  }
  GlobHeapMem(size_type n_local_elem, LocalMemorySpace* space, Team& team = Team::All())
      : GlobHeapMem(n_local_elem, team) {
    (void)space;  // host memory from DART's pool (see above)
  }
  GlobHeapMem(const GlobHeapMem&) = delete;
  GlobHeapMem& operator=(const GlobHeapMem&) = delete;
  // Frees every bucket after a barrier (no unit reads them any more).
  // Collective; while an exception unwinds the stack nothing collective
  // starts and the buckets stay until dash::finalize.
  ~GlobHeapMem() {
    if (!dash::is_initialized() || std::uncaught_exceptions() > uncaught_at_construction_) return;
    dart_barrier(team_->dart_id());
    for (bucket_type& b : buckets_) dart_memfree(b.gptr);
    for (bucket_type& b : detached_) dart_memfree(b.gptr);
  }

  // Elements of all units: the others' as of the last commit, the calling
  // unit's now. Local.
  size_type size() const noexcept { return remote_size_ + local_size_; }
  // The calling unit's elements now. Local.
  size_type local_size() const noexcept { return local_size_; }
  // unit's elements: as of the last commit, now for the calling unit. Local;
  // throws dash::exception::OutOfRange for a unit outside the team.
  size_type local_size(team_unit_t unit) const {
    check_unit(unit, "dash::GlobHeapMem::local_size");
    if (unit == team_->myid()) return local_size_;
    return committed_[unit.id].empty() ? 0 : committed_[unit.id].back().end;
  }
  Team& team() const noexcept { return *team_; }

  // Adds n elements (one new bucket) at the end of the calling unit's part
  // and returns a local pointer to the first. Local; throws
  // dash::exception::OutOfMemory if DART's pool cannot hold them.
  local_pointer grow(size_type n) {
    const size_type old_size = local_size_;
    if (n == 0) return lend();
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(value_type))
      throw exception::InvalidArgument("dash::GlobHeapMem::grow: " + std::to_string(n) +
                                       " elements overflow size_t");
    bucket_type b;
    const dart_ret_t ret = dart_memalloc(n * sizeof(value_type), DART_TYPE_BYTE, &b.gptr);
    if (ret == DART_ERR_NOMEM)
      throw exception::OutOfMemory("dash::GlobHeapMem::grow: DART's local pool cannot hold " +
                                   std::to_string(n * sizeof(value_type)) +
                                   " bytes more (raise DART_LOCAL_POOL_SIZE)");
    internal::check_dart(ret, "dash::GlobHeapMem::grow: dart_memalloc");
    void* addr = nullptr;
    internal::check_dart(dart_gptr_getaddr(b.gptr, &addr), "dash::GlobHeapMem::grow");
    b.lptr = static_cast<value_type*>(addr);
    b.size = b.allocated = n;
    buckets_.push_back(b);
    local_size_ += n;
    update_unit_offsets();
    return lbegin() + static_cast<index_type>(old_size);
  }
  // Removes the last n elements of the calling unit's part (see above).
  // Local; throws dash::exception::InvalidArgument if it has fewer.
  void shrink(size_type n) {
    if (n > local_size_)
      throw exception::InvalidArgument("dash::GlobHeapMem::shrink: " + std::to_string(n) +
                                       " elements to remove, the unit has " +
                                       std::to_string(local_size_));
    local_size_ -= n;
    while (n > 0) {
      bucket_type& last = buckets_.back();
      if (last.size > n) {
        last.size -= n;
        break;
      }
      n -= last.size;
      if (last.attached)
        detached_.push_back(last);  // the others may read it until the commit
      else
        dart_memfree(last.gptr);
      buckets_.pop_back();
    }
    update_unit_offsets();
  }
  // Grows or shrinks the calling unit's part so that size() becomes
  // n_global (DASH's resize). Local.
  void resize(size_type n_global) {
    const size_type now = size();
    if (n_global > now)
      grow(n_global - now);
    else
      shrink(now - n_global);
  }
  // Publishes every unit's part to all and frees the buckets given up.
  // Collective (two allgathers).
  void commit() {
    struct Published {
      dart_gptr_t gptr;
      std::uint64_t size;
    };
    const std::size_t units = team_->size();
    std::vector<Published> mine;
    mine.reserve(buckets_.size());
    for (const bucket_type& b : buckets_) mine.push_back(Published{b.gptr, b.size});
    unsigned long long my_count = mine.size();
    std::vector<unsigned long long> counts(units);
    internal::check_dart(
        dart_allgather(&my_count, counts.data(), 1, DART_TYPE_ULONGLONG, team_->dart_id()),
        "dash::GlobHeapMem::commit: dart_allgather");
    std::vector<std::size_t> nbytes(units), displs(units);
    std::size_t total = 0;
    for (std::size_t u = 0; u < units; ++u) {
      nbytes[u] = counts[u] * sizeof(Published);
      displs[u] = total;
      total += nbytes[u];
    }
    std::vector<Published> all(total / sizeof(Published));
    internal::check_dart(
        dart_allgatherv(mine.data(), mine.size() * sizeof(Published), DART_TYPE_BYTE, all.data(),
                        nbytes.data(), displs.data(), team_->dart_id()),
        "dash::GlobHeapMem::commit: dart_allgatherv");
    // Every unit has entered the commit: nobody reads the buckets given up.
    for (bucket_type& b : detached_) dart_memfree(b.gptr);
    detached_.clear();
    for (bucket_type& b : buckets_) b.attached = true;
    remote_size_ = 0;
    std::size_t next = 0;
    for (std::size_t u = 0; u < units; ++u) {
      std::vector<CommittedBucket>& table = committed_[u];
      table.clear();
      std::uint64_t end = 0;
      for (unsigned long long i = 0; i < counts[u]; ++i, ++next) {
        end += all[next].size;
        table.push_back(CommittedBucket{all[next].gptr, end});
      }
      if (static_cast<int>(u) != team_->myid().id) remote_size_ += end;
    }
    update_unit_offsets();
  }

  // Global positions: the units' elements in team order. Local.
  pointer begin() noexcept { return pointer(this, 0); }
  const_pointer begin() const noexcept { return const_pointer(this, 0); }
  pointer end() noexcept { return pointer(this, static_cast<index_type>(size())); }
  const_pointer end() const noexcept {
    return const_pointer(this, static_cast<index_type>(size()));
  }
  // Element local_index of unit's part (local_size(unit) gives its end).
  // Local; throws dash::exception::OutOfRange for a unit outside the team.
  template <class IndexT>
  pointer at(team_unit_t unit, IndexT local_index) {
    check_unit(unit, "dash::GlobHeapMem::at");
    return pointer(this, unit, static_cast<index_type>(local_index));
  }
  template <class IndexT>
  const_pointer at(team_unit_t unit, IndexT local_index) const {
    check_unit(unit, "dash::GlobHeapMem::at");
    return const_pointer(this, unit, static_cast<index_type>(local_index));
  }
  // The calling unit's elements. Local.
  local_pointer lbegin() noexcept { return local_pointer(&buckets_, 0, 0, 0); }
  local_pointer lend() noexcept {
    return local_pointer(&buckets_, buckets_.size(), 0, static_cast<index_type>(local_size_));
  }
  const_local_pointer lbegin() const noexcept { return const_local_pointer(&buckets_, 0, 0, 0); }
  const_local_pointer lend() const noexcept {
    return const_local_pointer(&buckets_, buckets_.size(), 0, static_cast<index_type>(local_size_));
  }
  // The calling unit's buckets (in local order). Local.
  const std::vector<bucket_type>& local_buckets() const noexcept { return buckets_; }

  // Writes / reads the element at a global position. One-sided, blocking.
  template <class ValueType = value_type>
  void put_value(const ValueType& value, index_type global_index) {
    *pointer(this, global_index) = value;
  }
  template <class ValueType = value_type>
  void get_value(ValueType* out, index_type global_index) const {
    *out = *const_pointer(this, global_index);
  }
  // Waits for every unit of the team (does not commit). Collective.
  void barrier() const { team_->barrier(); }

  // For GlobHeapPtr: the position of unit's first element; DART's pointer to
  // the element at a global position. Local.
  index_type unit_offset(team_unit_t unit) const {
    check_unit(unit, "dash::GlobHeapMem::at");
    return unit_offsets_[unit.id];
  }
  dart_gptr_t dart_gptr_at_index(index_type index) const {
    if (index < 0 || index >= unit_offsets_.back())
      throw exception::OutOfRange("dash::GlobHeapMem: position " + std::to_string(index) +
                                  " is not in [0, " + std::to_string(unit_offsets_.back()) + ")");
    const auto after = std::upper_bound(unit_offsets_.begin(), unit_offsets_.end(), index);
    const int unit = static_cast<int>(after - unit_offsets_.begin()) - 1;
    const std::uint64_t local = static_cast<std::uint64_t>(index - unit_offsets_[unit]);
    dart_gptr_t g;
    std::uint64_t offset;
    if (unit == team_->myid().id) {
      std::size_t b = 0;
      offset = local;
      while (offset >= buckets_[b].size) offset -= buckets_[b++].size;
      g = buckets_[b].gptr;
    } else {
      const std::vector<CommittedBucket>& table = committed_[unit];
      const auto it =
          std::upper_bound(table.begin(), table.end(), local,
                           [](std::uint64_t i, const CommittedBucket& c) { return i < c.end; });
      const std::uint64_t first = it == table.begin() ? 0 : std::prev(it)->end;
      offset = local - first;
      g = it->gptr;
    }
    internal::check_dart(
        dart_gptr_incaddr(&g, static_cast<std::int64_t>(offset * sizeof(value_type))),
        "dash::GlobHeapMem: dart_gptr_incaddr");
    return g;
  }

 private:
  struct CommittedBucket {
    dart_gptr_t gptr;
    std::uint64_t end;  // elements of the unit up to this bucket's end
  };

  void check_unit(team_unit_t unit, const char* who) const {
    if (unit.id < 0 || static_cast<std::size_t>(unit.id) >= team_->size())
      throw exception::OutOfRange(std::string(who) + ": unit " + std::to_string(unit.id) +
                                  " is not in a team of " + std::to_string(team_->size()));
  }
  void update_unit_offsets() {
    for (std::size_t u = 0; u < committed_.size(); ++u)
      unit_offsets_[u + 1] =
          unit_offsets_[u] + static_cast<index_type>(local_size(team_unit_t{static_cast<int>(u)}));
  }

  Team* team_;
  std::vector<bucket_type> buckets_;   // the calling unit's part, in local order
  std::vector<bucket_type> detached_;  // published buckets given up, freed at the commit
  size_type local_size_ = 0;
  size_type remote_size_ = 0;  // the other units' elements at the last commit
  std::vector<std::vector<CommittedBucket>> committed_;  // per unit, at the last commit
  std::vector<index_type> unit_offsets_;                 // first position of each unit
  int uncaught_at_construction_ = std::uncaught_exceptions();
};

}  // namespace dash

#endif  // DASH__MEMORY__GLOB_HEAP_MEM_H_
