// dash::Array<T>: a 1-D global array distributed over the units of a team by
// a pattern (BLOCKED by default). Global access through iterators and
// operator[] (GlobRef: load/store on the same node, one-sided get/put
// elsewhere); the calling unit's part through lbegin()/lend() or `local` as
// native pointers.
//
// | call                                  | cost                       |
// |---------------------------------------|----------------------------|
// | constructors with a size, allocate()  | collective over the team   |
// | destructor, deallocate()              | collective over the team   |
// | begin(), end(), lbegin(), lend()      | local                      |
// | operator[], at(): read / write        | load/store or one get/put  |
// | barrier()                             | collective over the team   |
// | flush()                               | waits for own writes       |
//
// Bounds checks: at() always throws dash::exception::OutOfRange for an index
// outside [0, size()). operator[], local[i], async[i] and iterator
// dereference do too when the program defines DASH_CHECK_BOUNDS before
// including dash headers (the CMake option DASH_CHECK_BOUNDS, on in Debug and
// sanitizer builds, does so for this project's tests, examples and
// benchmarks); without it they check nothing and cost nothing more. The check
// is local: only the unit that made the access throws. What is checked for
// every container and view: dash/internal/BoundsCheck.h.
//
// Memory space (the fourth template argument, DASH's LocalMemSpaceT): where
// each unit's part lives. dash::HostSpace (the default) takes it from DART's
// team allocation, which units of a node reach by load/store. Any other
// local memory space (dash/memory/MemorySpaceBase.h) gives each unit's part
// from its default instance, registered with DART: the owner reaches it by
// load/store, every other unit by one-sided get/put, and atomics on its
// elements are refused. dash::HBWSpace does so where there is high-bandwidth
// memory (HBWSpace::check_hbw_available()); where there is none its arrays
// are ordinary HostSpace arrays (as DASH's fall back to host memory).
#ifndef DASH__ARRAY_H_
#define DASH__ARRAY_H_

#include <dash/Pattern.h>
#include <dash/Team.h>
#include <dash/array/AsyncArrayRef.h>
#include <dash/array/LocalArrayRef.h>
#include <dash/internal/BoundsCheck.h>
#include <dash/internal/Failure.h>
#include <dash/internal/PatternMemory.h>
#include <dash/iterator/GlobIter.h>
#include <dash/memory/GlobStaticMem.h>
#include <dash/memory/DefaultMemorySpace.h>
#include <dash/view/GlobView.h>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>

namespace dash {

template <class T, class IndexType = default_index_t,
          class PatternT = BlockPattern<1, ROW_MAJOR, IndexType>, class LocalMemSpaceT = HostSpace>
class Array {
  static_assert(is_container_compatible_v<T>,
                "dash::Array<T>: T must be trivially copyable (elements move between units "
                "as bytes)");
  static_assert(PatternT::ndim() == 1,
                "dash::Array needs a 1-D pattern; use dash::Matrix / dash::NArray for N-D");
  // IndexType is the array's own index type (operator[], index_type); the pattern maps with its
  // own, as in DASH, where Array<T, int, CSRPattern<1>> is common.
  static_assert(std::is_integral_v<IndexType> && std::is_signed_v<IndexType>,
                "dash::Array: IndexType must be a signed integer type");
  static_assert(is_local_memory_space<LocalMemSpaceT>::value,
                "dash::Array: LocalMemSpaceT must be a local memory space (dash::HostSpace, "
                "dash::HBWSpace, or a std::pmr::memory_resource declaring "
                "memory_space_domain_category memory_domain_local; see "
                "dash/memory/MemorySpaceBase.h)");

 public:
  using value_type = T;
  using index_type = IndexType;
  using size_type = std::make_unsigned_t<IndexType>;
  using difference_type = IndexType;
  using pattern_type = PatternT;
  using iterator = GlobIter<T, PatternT>;
  using const_iterator = GlobIter<const T, PatternT>;
  using reference = GlobRef<T>;
  using const_reference = GlobRef<const T>;
  using pointer = GlobPtr<T>;
  using memory_type = GlobStaticMem<T>;  // DASH: the memory space of the elements
  using local_memory_space_type = LocalMemSpaceT;
  using local_pointer = T*;
  using local_type = LocalArrayRef<T, Array>;
  using async_type = AsyncArrayRef<T, Array>;

  // An array without memory (size 0) on `team`; see allocate(). Local.
  explicit Array(Team& team = Team::All()) : local(this), async(this), team_(&team) {}
  // n elements distributed by `dist` (a Distribution or DistributionSpec<1>).
  // Collective over team.
  Array(size_type n, const DistributionSpec<1>& dist, Team& team = Team::All())
      : local(this), async(this), team_(&team) {
    allocate(PatternT(n, dist, team));
  }
  explicit Array(size_type n, Team& team = Team::All()) : Array(n, BLOCKED, team) {}
  // n elements BLOCKED, each unit's part set to `local_values`, which must
  // hold exactly as many values as the unit owns (DASH's form). Collective
  // over team; throws dash::exception::InvalidArgument on every unit if a
  // unit's list has another length.
  Array(size_type n, std::initializer_list<T> local_values, Team& team = Team::All())
      : local(this), async(this), team_(&team) {
    allocate(n, local_values, team);
  }
  // Elements laid out by `pattern`. Collective over the pattern's team.
  explicit Array(const PatternT& pattern) : local(this), async(this), team_(&pattern.team()) {
    allocate(pattern);
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  Array(Array&& other) noexcept
      : local(this), async(this), team_(other.team_), storage_(std::move(other.storage_)) {}
  Array& operator=(Array&& other) noexcept {
    if (this != &other) {
      storage_ = std::move(other.storage_);
      team_ = other.team_;
    }
    return *this;
  }
  // Frees the memory. Collective over the team.
  ~Array() = default;

  // (Re)allocates for `pattern`; frees the previous memory first.
  // Collective over the pattern's team.
  // Returns true, as DASH's does (failures throw).
  bool allocate(const PatternT& pattern) {
    storage_.reset();
    storage_ = internal::PatternMemory<T, PatternT>(pattern, "dash::Array", local_parts_space());
    team_ = &pattern.team();
    return true;
  }
  // n elements distributed by `dist` over the array's team / over `team`.
  bool allocate(size_type n, const DistributionSpec<1>& dist = BLOCKED) {
    return allocate(PatternT(n, dist, *team_));
  }
  bool allocate(size_type n, const DistributionSpec<1>& dist, Team& team) {
    return allocate(PatternT(n, dist, team));
  }
  // n elements BLOCKED over `team`, each unit's part set to `local_values`
  // (see the constructor). Collective over team.
  bool allocate(size_type n, std::initializer_list<T> local_values, Team& team = Team::All()) {
    PatternT pattern(n, BLOCKED, team);
    internal::Failure failure;
    if (local_values.size() != pattern.local_size()) {
      try {
        throw exception::InvalidArgument(
            "dash::Array::allocate: " + std::to_string(local_values.size()) +
            " local values for the " + std::to_string(pattern.local_size()) +
            " elements the unit owns");
      } catch (...) {
        failure.capture();
      }
    }
    internal::agree(failure, team.dart_id(), "dash::Array::allocate");
    allocate(pattern);
    std::copy(local_values.begin(), local_values.end(), lbegin());
    team.barrier();
    return true;
  }
  // Frees the memory; the array has size 0 afterwards. Collective.
  void deallocate() { storage_.reset(); }

  iterator begin() { return iterator(storage_.mem_ptr(), storage_.pattern_ptr(), 0); }
  iterator end() {
    return iterator(storage_.mem_ptr(), storage_.pattern_ptr(), static_cast<index_type>(size()));
  }
  const_iterator begin() const {
    return const_iterator(storage_.mem_ptr(), storage_.pattern_ptr(), 0);
  }
  const_iterator end() const {
    return const_iterator(storage_.mem_ptr(), storage_.pattern_ptr(),
                          static_cast<index_type>(size()));
  }
  // The whole array as a view (see dash::sub, dash::local). Local.
  GlobView<T, PatternT> view() {
    return GlobView<T, PatternT>(storage_.mem_ptr(), storage_.pattern_ptr(), whole());
  }
  GlobView<const T, PatternT> view() const {
    return GlobView<const T, PatternT>(storage_.mem_ptr(), storage_.pattern_ptr(), whole());
  }
  // The calling unit's elements as native pointers.
  T* lbegin() const { return storage_.lbegin(); }
  T* lend() const { return storage_.lend(); }

  // Reference to global element i. Checked only under DASH_CHECK_BOUNDS
  // (then throws dash::exception::OutOfRange if i is not in [0, size())).
  // Local.
  reference operator[](index_type i) {
    if constexpr (internal::bounds_checked)
      internal::check_index("dash::Array::operator[]", i, size());
    return element(i);
  }
  const_reference operator[](index_type i) const {
    if constexpr (internal::bounds_checked)
      internal::check_index("dash::Array::operator[]", i, size());
    auto l = storage_.pattern_ptr()->local(i);
    return storage_.mem_ptr()->template ref<const T>(l.unit, l.index);
  }
  // Like operator[]; throws dash::exception::OutOfRange (a std::out_of_range)
  // if i is not in [0, size()), with or without DASH_CHECK_BOUNDS.
  reference at(index_type i) {
    internal::check_index("dash::Array::at", i, size());
    return element(i);
  }
  const_reference at(index_type i) const {
    internal::check_index("dash::Array::at", i, size());
    auto l = storage_.pattern_ptr()->local(i);
    return storage_.mem_ptr()->template ref<const T>(l.unit, l.index);
  }

  size_type size() const { return storage_.size(); }
  bool empty() const { return size() == 0; }
  // Elements of the calling unit.
  size_type lsize() const { return storage_.lsize(); }
  // Elements every unit has allocated.
  size_type lcapacity() const {
    return storage_.allocated() ? storage_.pattern_ptr()->local_capacity() : 0;
  }
  // Throws dash::exception::InvalidArgument if nothing is allocated.
  const PatternT& pattern() const { return storage_.pattern("dash::Array::pattern"); }
  Team& team() const { return *team_; }
  const GlobStaticMem<T>& globmem() const { return *storage_.mem_ptr(); }

  // Waits for all units of the team. Collective.
  void barrier() const { team_->barrier(); }
  // Completes the calling unit's one-sided writes to this array. Local.
  void flush() const { storage_.flush(); }

  // The calling unit's part (native pointers).
  local_type local;
  // The elements as asynchronous references: async[i] = v, async.flush().
  async_type async;

 private:
  friend async_type;

  // The memory resource of the units' parts: nullptr (DART's team
  // allocation) for HostSpace and for HBWSpace without HBM. Local.
  static std::pmr::memory_resource* local_parts_space() {
    return internal::parts_resource(internal::default_local_space<LocalMemSpaceT>(),
                                    "dash::Array<..., dash::HBWSpace>");
  }
  ViewSpec<1, typename PatternT::index_type> whole() const {
    using viewspec = ViewSpec<1, typename PatternT::index_type>;
    return storage_.allocated() ? viewspec(pattern().sizespec()) : viewspec();
  }
  // Element i, not checked. Local.
  reference element(index_type i) {
    auto l = storage_.pattern_ptr()->local(i);
    return storage_.mem_ptr()->ref(l.unit, l.index);
  }

  Team* team_;
  internal::PatternMemory<T, PatternT> storage_;
};

}  // namespace dash

#endif  // DASH__ARRAY_H_
