// dash::EpochSynchronizedAllocator<T, LMemSpace>: DASH's global allocator
// in which every unit takes its local memory alone (allocate_local, from a
// local memory space through a std::pmr polymorphic allocator) and the team
// makes it global together (attach: DART registers each unit's memory; the
// returned dart_gptr_t names unit 0's part, as DASH's). allocate = both in
// one call, deallocate = detach and free.
//
// | call                               | cost                                   |
// |------------------------------------|----------------------------------------|
// | allocate_local / deallocate_local  | local                                  |
// | attach / detach                    | collective over the team: one          |
// |                                    | allreduce to agree on the arguments,   |
// |                                    | then DART's registration               |
// | allocate / deallocate              | collective (as attach / detach)        |
// | destructor                         | collective if segments are attached:   |
// |                                    | detaches them in the order attached    |
//
// Every unit attaches the same number of elements (DART registers the same
// size on every unit; DASH's also takes different sizes). Arguments a unit
// does not know (a pointer it did not allocate here, another length) make
// every unit throw: its own dash::exception::InvalidArgument there,
// RemoteFailure on the others. Copies share the team and memory space, not
// the segments; a moved-from allocator holds none.
#ifndef DASH__ALLOCATOR__EPOCH_SYNCHRONIZED_ALLOCATOR_H_
#define DASH__ALLOCATOR__EPOCH_SYNCHRONIZED_ALLOCATOR_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/allocator/AllocationPolicy.h>
#include <dash/allocator/AllocatorBase.h>
#include <dash/allocator/AllocatorTraits.h>
#include <dash/internal/Failure.h>
#include <dash/memory/MemorySpace.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <memory_resource>
#include <string>
#include <utility>
#include <vector>

namespace dash {

template <class ElementType, class LMemSpace = HostSpace,
          global_allocation_policy AllocationPolicy = global_allocation_policy::epoch_synchronized,
          template <class> class LocalAlloc = allocator::DefaultAllocator>
class EpochSynchronizedAllocator {
  static_assert(memory_space_traits<LMemSpace>::is_local::value,
                "dash::EpochSynchronizedAllocator: the memory space must be local");
  static_assert(AllocationPolicy == global_allocation_policy::epoch_synchronized,
                "dash::EpochSynchronizedAllocator: only global_allocation_policy::"
                "epoch_synchronized is offered");

  template <class, class, global_allocation_policy, template <class> class>
  friend class EpochSynchronizedAllocator;

  using local_traits = std::allocator_traits<LocalAlloc<ElementType>>;

 public:
  using local_allocator_type = LocalAlloc<ElementType>;
  using value_type = ElementType;
  using size_type = default_size_t;
  using difference_type = default_index_t;
  using pointer = dart_gptr_t;
  using const_pointer = const dart_gptr_t;
  using void_pointer = dart_gptr_t;
  using const_void_pointer = const dart_gptr_t;
  using local_pointer = typename local_traits::pointer;
  using const_local_pointer = typename local_traits::const_pointer;
  using local_void_pointer = typename local_traits::void_pointer;
  using const_local_void_pointer = typename local_traits::const_void_pointer;
  using allocation_policy = std::integral_constant<global_allocation_policy, AllocationPolicy>;
  template <class U>
  using rebind = EpochSynchronizedAllocator<U, LMemSpace, AllocationPolicy, LocalAlloc>;

  // An allocator for `team` taking local memory from `space`, or if nullptr
  // from the process-wide default space of LMemSpace's kind (HostSpace for
  // host memory). Local.
  explicit EpochSynchronizedAllocator(const Team& team, LMemSpace* space = nullptr) noexcept
      : team_(&team), space_(space_or_default(space)) {}
  // The same team and memory space, no segments. Local.
  EpochSynchronizedAllocator(const EpochSynchronizedAllocator& other) noexcept
      : team_(other.team_), space_(other.space_) {}
  template <class U>
  EpochSynchronizedAllocator(const rebind<U>& other) noexcept
      : team_(other.team_), space_(other.space_) {}
  // Takes other's segments. Local.
  EpochSynchronizedAllocator(EpochSynchronizedAllocator&& other) noexcept
      : team_(other.team_),
        space_(other.space_),
        segments_(std::move(other.segments_)),
        attach_count_(other.attach_count_) {
    other.segments_.clear();
  }
  EpochSynchronizedAllocator& operator=(const EpochSynchronizedAllocator& other) = delete;
  EpochSynchronizedAllocator& operator=(EpochSynchronizedAllocator&& other) = delete;
  // Detaches (collective, in the order attached) and frees what is left.
  // While an exception unwinds the stack the units may be anywhere: then
  // nothing collective starts and attached memory stays until dash::finalize.
  ~EpochSynchronizedAllocator() {
    std::vector<Segment*> attached;
    for (Segment& s : segments_)
      if (!DART_GPTR_ISNULL(s.gptr)) attached.push_back(&s);
    std::sort(attached.begin(), attached.end(),
              [](const Segment* a, const Segment* b) { return a->order < b->order; });
    const bool collective =
        dash::is_initialized() && std::uncaught_exceptions() <= uncaught_at_construction_;
    for (Segment* s : attached) {
      if (!collective) break;  // memory under live windows stays
      dart_team_memderegister(s->gptr);
      s->gptr = DART_GPTR_NULL;
    }
    local_allocator_type local = get_local_allocator();
    for (Segment& s : segments_)
      if (DART_GPTR_ISNULL(s.gptr)) local_traits::deallocate(local, s.lptr, s.length);
  }

  void swap(EpochSynchronizedAllocator& other) noexcept {
    std::swap(team_, other.team_);
    std::swap(segments_, other.segments_);
    std::swap(attach_count_, other.attach_count_);
    std::swap(space_, other.space_);
  }

  size_type max_size() const noexcept { return size_type(-1) / sizeof(ElementType); }
  // The local allocator over the allocator's memory space. Local.
  local_allocator_type get_local_allocator() const noexcept { return local_allocator_type(space_); }
  const Team& team() const noexcept { return *team_; }

  // n elements of the calling unit's memory space, not yet global. Local;
  // throws what the memory space throws (std::bad_alloc).
  local_pointer allocate_local(size_type n) {
    local_allocator_type local = get_local_allocator();
    local_pointer p = local_traits::allocate(local, n);
    segments_.push_back(Segment{p, n, DART_GPTR_NULL, 0});
    return p;
  }
  // Frees memory from allocate_local that is not attached. Local; throws
  // dash::exception::InvalidArgument for another pointer or length, or
  // memory still attached.
  void deallocate_local(local_pointer p, size_type n) {
    auto it = find_local(p);
    std::string why = check_local(it, p, n, "dash::EpochSynchronizedAllocator::deallocate_local");
    if (why.empty() && !DART_GPTR_ISNULL(it->gptr))
      why =
          "dash::EpochSynchronizedAllocator::deallocate_local: the memory is attached; "
          "detach it first";
    if (!why.empty()) throw exception::InvalidArgument(why);
    local_allocator_type local = get_local_allocator();
    local_traits::deallocate(local, it->lptr, it->length);
    segments_.erase(it);
  }

  // Makes the calling unit's n elements at p (from allocate_local) global
  // memory of the team and returns the pointer to unit 0's part. Collective;
  // every unit passes the same n.
  pointer attach(local_pointer p, size_type n) {
    const char* who = "dash::EpochSynchronizedAllocator::attach";
    auto it = find_local(p);
    std::string why = check_local(it, p, n, who);
    if (why.empty() && !DART_GPTR_ISNULL(it->gptr))
      why = std::string(who) + ": the memory is attached already";
    agree_arguments(why, who);
    dart_gptr_t g = DART_GPTR_NULL;
    dart_ret_t ret =
        dart_team_memregister(team_->dart_id(), n * sizeof(ElementType), DART_TYPE_BYTE,
                              static_cast<void*>(std::addressof(*it->lptr)), &g);
    if (ret == DART_ERR_INVAL)
      throw exception::InvalidArgument(std::string(who) +
                                       ": the units attach different numbers of elements (this "
                                       "unit: " +
                                       std::to_string(n) + "); DART registers one size");
    internal::check_dart(ret, (std::string(who) + ": dart_team_memregister").c_str());
    it->gptr = g;
    it->order = ++attach_count_;
    return g;
  }
  // Ends the attachment of the segment gptr names; the local memory stays
  // (deallocate_local frees it). A null pointer on every unit does nothing.
  // Collective.
  void detach(pointer gptr, size_type n) {
    auto it = find_attached(gptr, n, "dash::EpochSynchronizedAllocator::detach");
    if (it == segments_.end()) return;  // null everywhere
    internal::check_dart(dart_team_memderegister(it->gptr),
                         "dash::EpochSynchronizedAllocator::detach: dart_team_memderegister");
    it->gptr = DART_GPTR_NULL;
  }

  // allocate_local(n) and attach: n elements on every unit, global.
  // Collective.
  pointer allocate(size_type n) {
    const char* who = "dash::EpochSynchronizedAllocator::allocate";
    local_pointer p = nullptr;
    internal::Failure failure;
    try {
      p = allocate_local(n);
    } catch (...) {
      failure.capture(who);
    }
    // A unit whose memory space failed throws here; the others learn of it
    // in attach's agreement (one allreduce each, matched).
    if (failure.own()) internal::agree(failure, team_->dart_id(), who);
    try {
      return attach(p, n);
    } catch (...) {
      deallocate_local(p, n);
      throw;
    }
  }
  // detach and free memory from allocate. A null pointer on every unit
  // does nothing. Collective.
  void deallocate(pointer gptr, size_type n) {
    auto it = find_attached(gptr, n, "dash::EpochSynchronizedAllocator::deallocate");
    if (it == segments_.end()) return;
    internal::check_dart(dart_team_memderegister(it->gptr),
                         "dash::EpochSynchronizedAllocator::deallocate: dart_team_memderegister");
    local_allocator_type local = get_local_allocator();
    local_traits::deallocate(local, it->lptr, it->length);
    segments_.erase(it);
  }

  // Equal if they take memory for the same team from the same space (then
  // each could free the other's local memory).
  template <class U>
  bool operator==(const rebind<U>& other) const noexcept {
    return team_ == other.team_ && space_->is_equal(*other.space_);
  }
  template <class U>
  bool operator!=(const rebind<U>& other) const noexcept {
    return !(*this == other);
  }

 private:
  struct Segment {
    local_pointer lptr;
    size_type length;
    dart_gptr_t gptr;     // DART_GPTR_NULL if not attached
    std::uint64_t order;  // when it was attached (all units attach in one order)
  };
  using segment_iterator = typename std::vector<Segment>::iterator;

  static std::pmr::memory_resource* space_or_default(LMemSpace* space) noexcept {
    if (space != nullptr) return space;
    return get_default_memory_space<
        memory_domain_local, typename memory_space_traits<LMemSpace>::memory_space_type_category>();
  }
  segment_iterator find_local(local_pointer p) {
    return std::find_if(segments_.begin(), segments_.end(),
                        [p](const Segment& s) { return s.lptr == p; });
  }
  // "" if it names p's segment of n elements, else what is wrong.
  std::string check_local(segment_iterator it, local_pointer p, size_type n, const char* who) {
    if (it == segments_.end() || p == nullptr)
      return std::string(who) + ": the pointer is not from this allocator's allocate_local";
    if (it->length != n)
      return std::string(who) + ": " + std::to_string(n) + " elements given, the segment has " +
             std::to_string(it->length);
    return "";
  }
  // The attached segment gptr names (segment and team; unit and offset are
  // ignored), or end() if gptr is null on every unit. Collective: the units
  // agree that their arguments are good.
  segment_iterator find_attached(pointer gptr, size_type n, const char* who) {
    const bool null = DART_GPTR_ISNULL(gptr);
    auto it = std::find_if(segments_.begin(), segments_.end(), [&gptr](const Segment& s) {
      return !DART_GPTR_ISNULL(s.gptr) && s.gptr.segid == gptr.segid &&
             s.gptr.teamid == gptr.teamid;
    });
    std::string why;
    if (!null && it == segments_.end())
      why = std::string(who) + ": the pointer names no segment attached by this allocator";
    else if (!null && it->length != n)
      why = std::string(who) + ": " + std::to_string(n) + " elements given, the segment has " +
            std::to_string(it->length);
    // Null on some units only is a mismatch too.
    int mine[2] = {null ? 1 : 0, null ? 0 : 1}, all[2] = {0, 0};
    internal::check_dart(dart_allreduce(mine, all, 2, DART_TYPE_INT, DART_OP_MAX, team_->dart_id()),
                         (std::string(who) + ": dart_allreduce").c_str());
    if (why.empty() && all[0] == 1 && all[1] == 1)
      why = std::string(who) + ": some units passed a null pointer, others did not";
    agree_arguments(why, who);
    return null ? segments_.end() : it;
  }
  // Every unit throws if `why` is set on any (InvalidArgument here,
  // RemoteFailure elsewhere). Collective (one allreduce).
  void agree_arguments(const std::string& why, const char* who) {
    internal::Failure failure;
    if (!why.empty()) {
      try {
        throw exception::InvalidArgument(why);
      } catch (...) {
        failure.capture();
      }
    }
    internal::agree(failure, team_->dart_id(), who);
  }

  const Team* team_;
  std::pmr::memory_resource* space_;
  std::vector<Segment> segments_;
  std::uint64_t attach_count_ = 0;
  int uncaught_at_construction_ = std::uncaught_exceptions();
};

}  // namespace dash

#endif  // DASH__ALLOCATOR__EPOCH_SYNCHRONIZED_ALLOCATOR_H_
