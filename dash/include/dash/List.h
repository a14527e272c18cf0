// dash::List<T>: DASH's distributed list. Every unit keeps a list of its
// own (list.local) in nodes of a GlobHeapMem: it appends alone, taking a
// bucket of nlbuf nodes more whenever its capacity is used up, and
// barrier() publishes all units' lists and sizes to each other.
//
// | call                                  | cost                              |
// |---------------------------------------|-----------------------------------|
// | constructors                          | collective (GlobHeapMem + commit) |
// | local.push_back, local.pop_back, ...  | local                             |
// | size, lsize, capacity, lcapacity      | local: the others' parts as of    |
// |                                       | the last barrier, the calling     |
// |                                       | unit's now                        |
// | barrier()                             | collective: the memory's commit   |
// |                                       | and one allgather of the sizes    |
// | destructor                            | collective                        |
//
// What DASH's List declares but leaves empty (global push_back, front,
// erase, insert, global iteration) is not offered here.
#ifndef DASH__LIST_H_
#define DASH__LIST_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/list/LocalListRef.h>
#include <dash/list/internal/ListTypes.h>
#include <dash/memory/GlobHeapMem.h>
#include <dash/memory/HostSpace.h>

#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

namespace dash {

template <class ElementType, class LocalMemorySpace = HostSpace>
class List {
  friend class LocalListRef<ElementType, LocalMemorySpace>;

 public:
  using value_type = ElementType;
  using index_type = default_index_t;
  using size_type = default_size_t;
  using difference_type = index_type;
  using node_type = internal::ListNode<ElementType>;
  using glob_mem_type = GlobHeapMem<node_type, LocalMemorySpace>;
  using local_type = LocalListRef<ElementType, LocalMemorySpace>;
  using local_iterator = typename glob_mem_type::local_pointer;
  using const_local_iterator = typename glob_mem_type::const_local_pointer;
  using local_reference = value_type&;
  using const_local_reference = const value_type&;

  // A list with room for nelem elements over the units of `team` (at least
  // the local buffer size per unit), each unit taking nlbuf nodes more when
  // it runs out (default: 4096 bytes of nodes). Collective.
  explicit List(size_type nelem = 0, Team& team = Team::All())
      : List(nelem, default_buffer_size(), team) {}
  List(size_type nelem, size_type nlbuf, Team& team = Team::All())
      : local(this), team_(&team), local_buffer_size_(nlbuf) {
    if (nlbuf == 0)
      throw exception::InvalidArgument("dash::List: the local buffer size must not be 0");
    allocate(nelem);
  }
  List(const List&) = delete;
  List& operator=(const List&) = delete;
  // Frees the memory. Collective.
  ~List() = default;

  // Elements: the other units' as of the last barrier, the calling unit's
  // now. Local.
  size_type size() const noexcept { return remote_size_ + lsize_; }
  size_type lsize() const noexcept { return lsize_; }
  bool empty() const noexcept { return size() == 0; }
  size_type max_size() const noexcept { return std::numeric_limits<index_type>::max(); }
  // Nodes allocated: over all units (the others' as of the last barrier) /
  // on the calling unit. Local.
  size_type capacity() const noexcept { return mem_ ? mem_->size() : 0; }
  size_type lcapacity() const noexcept { return mem_ ? mem_->local_size() : 0; }
  Team& team() const noexcept { return *team_; }

  // The calling unit's nodes. Local.
  local_iterator lbegin() { return memory("dash::List::lbegin").lbegin(); }
  local_iterator lend() {
    return memory("dash::List::lend").lbegin() + static_cast<index_type>(lsize_);
  }

  // Publishes every unit's list and size to all. Collective.
  void barrier() {
    glob_mem_type& mem = memory("dash::List::barrier");
    mem.commit();
    unsigned long long mine = lsize_;
    std::vector<unsigned long long> all(team_->size());
    internal::check_dart(
        dart_allgather(&mine, all.data(), 1, DART_TYPE_ULONGLONG, team_->dart_id()),
        "dash::List::barrier: dart_allgather");
    remote_size_ = 0;
    for (std::size_t u = 0; u < all.size(); ++u)
      if (static_cast<int>(u) != team_->myid().id) remote_size_ += all[u];
  }

  // The list's global memory. Local.
  const glob_mem_type& globmem() const { return memory("dash::List::globmem"); }

  // The calling unit's list.
  local_type local;

 private:
  static size_type default_buffer_size() {
    return sizeof(node_type) >= 4096 ? 1 : 4096 / sizeof(node_type);
  }
  void allocate(size_type nelem) {
    const size_type units = team_->size();
    if (nelem < units * local_buffer_size_) nelem = units * local_buffer_size_;
    mem_ = std::make_unique<glob_mem_type>((nelem + units - 1) / units, *team_);
  }
  glob_mem_type& memory(const char* who) const {
    if (!mem_) throw exception::InvalidArgument(std::string(who) + ": the list has no memory");
    return *mem_;
  }

  Team* team_;
  size_type local_buffer_size_;
  std::unique_ptr<glob_mem_type> mem_;
  size_type lsize_ = 0;
  size_type remote_size_ = 0;
};

}  // namespace dash

#endif  // DASH__LIST_H_
