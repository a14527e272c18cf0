// dash::UnorderedMap<Key, Mapped, Hash, Pred>: a distributed map whose
// elements live with the unit the Hash functor names for their key.
//
// What the map is:
// - Every unit has a part: the elements it owns plus those it inserted since
//   the last commit for other owners. A part grows one bucket at a time
//   (`nlbuf` elements, the constructor's argument) in the unit's own dynamic
//   global memory (dash::memalloc's pool, DART_LOCAL_POOL_SIZE), so an insert
//   never waits for another unit.
// - commit() (DASH's barrier()) is collective: each element moves to the unit
//   that owns its key, erasures take effect, and every unit learns every
//   part's size. Then all units see the same elements, in unit order. The
//   new part is built before the old one goes (a commit that fails leaves
//   every part's elements as they were); where the pool cannot hold both, the
//   chunks a part grew by since the last commit go to the heap first, so the
//   pool needs the new part beside the old part's first chunk only.
// - Between commits a unit sees the other parts as of the last commit and its
//   own part as it is now. Elements another unit inserted since are not seen.
// - Keys are unique per owner: insert() finds an existing key (in the calling
//   unit's part or the owner's committed part) and keeps it. When several
//   units insert one key between two commits, the commit keeps the owner's
//   element, else the one from the lowest unit.
// - erase() takes effect at the next commit; until then the element is seen.
//   At a commit erasures apply before the inserts made since the last one.
// - References (GlobRef) to elements stay valid until the next commit, where
//   the parts are compacted (a local reference used after it throws
//   dash::exception::InvalidArgument). Iterators are positions: an insert
//   shifts the positions after the calling unit's part.
//
// | call                               | cost                                   |
// |------------------------------------|----------------------------------------|
// | constructor, destructor, commit()  | collective: commit is one alltoall, two|
// | / barrier()                        | alltoallv and one allgather            |
// | insert, find, count, [], at, erase | local for keys the calling unit owns   |
// |                                    | or holds; for another owner's key the  |
// |                                    | first lookup after a commit reads that |
// |                                    | owner's keys once (one get), then local|
// | *it, element reads / writes        | load/store on the node, else one get / |
// |                                    | put (GlobRef)                          |
// | size, lsize, begin, end, local     | local                                  |
//
// With dash::HashLocal (the default Hash) every unit owns what it inserts, and
// lookups search every unit's part.
#ifndef DASH__MAP__UNORDERED_MAP_H_
#define DASH__MAP__UNORDERED_MAP_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/internal/MemoryStamp.h>
#include <dash/map/HashPolicy.h>
#include <dash/map/UnorderedMapIter.h>
#include <dash/map/internal/MapKeyIndex.h>
#include <dash/memory/GlobRef.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {

template <class Key, class Mapped, class Hash = HashLocal<Key>, class Pred = std::equal_to<Key>>
class UnorderedMap {
  static_assert(is_container_compatible_v<Key> && is_container_compatible_v<Mapped>,
                "dash::UnorderedMap: Key and Mapped must be trivially copyable (elements move "
                "between units as bytes)");

 public:
  using key_type = Key;
  using mapped_type = Mapped;
  using hasher = Hash;
  using key_equal = Pred;
  using value_type = std::pair<const Key, Mapped>;
  using size_type = default_size_t;
  using index_type = default_index_t;
  using difference_type = default_index_t;
  using reference = GlobRef<value_type>;
  using const_reference = GlobRef<const value_type>;
  using mapped_type_reference = GlobRef<Mapped>;
  using const_mapped_type_reference = GlobRef<const Mapped>;
  using iterator = UnorderedMapGlobIter<UnorderedMap, false>;
  using const_iterator = UnorderedMapGlobIter<UnorderedMap, true>;
  using local_iterator = UnorderedMapLocalIter<UnorderedMap, false>;
  using const_local_iterator = UnorderedMapLocalIter<UnorderedMap, true>;
  using local_pointer = local_iterator;
  using const_local_pointer = const_local_iterator;
  using local_type = UnorderedMapLocalRef<UnorderedMap>;

  // A map over team with room for nelem elements in all (at least nlbuf per
  // unit); its parts grow by nlbuf elements (DASH's default: 4 KiB of
  // elements). Collective. Throws dash::exception::InvalidArgument for nlbuf
  // 0 or an empty team, OutOfMemory (on every unit) if a unit's pool cannot
  // hold its part.
  explicit UnorderedMap(size_type nelem = 0, Team& team = Team::All())
      : UnorderedMap(nelem, default_bucket_size(), team) {}
  UnorderedMap(size_type nelem, size_type nlbuf, Team& team = Team::All());
  UnorderedMap(const UnorderedMap&) = delete;
  UnorderedMap& operator=(const UnorderedMap&) = delete;
  // Frees the parts. Collective (a barrier, so that no unit still reads
  // them); does nothing after dash::finalize or while an exception unwinds.
  ~UnorderedMap();

  // The calling unit's part. Local.
  local_type local{this};

  // ---- commit ------------------------------------------------------------
  // Moves every element to its owner, applies erasures, publishes the parts'
  // sizes. Collective. Throws on every unit if one unit's pool is full.
  void commit();
  // DASH's name for commit(). Collective.
  void barrier() { commit(); }

  // ---- size (all local) -----------------------------------------------------
  // Elements the calling unit sees: the others' parts at the last commit and
  // its own part now.
  size_type size() const { return committed_total_ - parts_[myid_.id].count + lsize_; }
  bool empty() const { return size() == 0; }
  // Elements in the calling unit's part.
  size_type lsize() const { return lsize_; }
  // Elements the calling unit's part holds before it grows.
  size_type lcapacity() const { return local_capacity(); }
  // Elements all parts hold before they grow: the others' at the last commit
  // and the calling unit's now (DASH's global capacity). Local.
  size_type capacity() const {
    return committed_capacity_ - parts_[myid_.id].capacity + local_capacity();
  }
  size_type max_size() const { return std::numeric_limits<index_type>::max(); }
  Team& team() const { return *team_; }
  hasher hash_function() const { return hash_; }
  key_equal key_eq() const { return equal_; }

  // ---- iterators (all local) ------------------------------------------------
  iterator begin() { return iterator(this, 0); }
  iterator end() { return iterator(this, static_cast<index_type>(size())); }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, static_cast<index_type>(size())); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  local_iterator lbegin() { return local_iterator(this, 0); }
  local_iterator lend() { return local_iterator(this, static_cast<index_type>(lsize_)); }
  const_local_iterator lbegin() const { return const_local_iterator(this, 0); }
  const_local_iterator lend() const {
    return const_local_iterator(this, static_cast<index_type>(lsize_));
  }

  // ---- lookup and change (costs in the table above) ---------------------------
  // Inserts value unless its key is seen; returns the element of the key and
  // whether it was inserted. Throws InvalidArgument if Hash names no unit of
  // the team, OutOfMemory if the calling unit's pool is full.
  std::pair<iterator, bool> insert(const value_type& value);
  // insert(value), hint ignored.
  iterator insert(const_iterator, const value_type& value) { return insert(value).first; }
  template <class InputIt>
  void insert(InputIt first, InputIt last) {
    for (; first != last; ++first) insert(*first);
  }
  // The element of key, else end().
  iterator find(const key_type& key);
  const_iterator find(const key_type& key) const;
  // 1 if the key is seen, else 0.
  size_type count(const key_type& key) const { return locate_key(key).found ? 1 : 0; }
  // Reference to the mapped value of key, inserted (value-initialised) if
  // the key is not seen.
  mapped_type_reference operator[](const key_type& key);
  // Reference to the mapped value of key; throws InvalidArgument if it is
  // not seen.
  mapped_type_reference at(const key_type& key);
  const_mapped_type_reference at(const key_type& key) const;
  // Erases the element of key at the next commit; returns 1 if the key is
  // seen and not already erased, else 0.
  size_type erase(const key_type& key);
  // Erases the element at pos at the next commit; returns the next position.
  iterator erase(const_iterator pos);
  // The unit owning key (DASH's bucket). Local.
  size_type bucket(const key_type& key) const { return owner_of(key).id; }
  // Elements unit `unit` holds as the calling unit sees it. Local.
  size_type bucket_size(size_type unit) const { return part_size(team_unit_t(unit)); }

  // ---- used by the iterators (local) -------------------------------------------
  // Unit and index in its part of the element at position pos. O(log units).
  UnorderedMapLocalPos locate(index_type pos) const;
  // GlobRef (of value_type or const value_type) to element index of unit's part.
  template <class Element>
  GlobRef<Element> element_ref(team_unit_t unit, index_type index) const;
  // Native address of element index of the calling unit's part. O(1).
  value_type* local_slot(index_type index) const;
  // The calling unit's element of key, else lend().
  local_iterator local_find(const key_type& key);
  const_local_iterator local_find(const key_type& key) const;
  // Insert into / erase from the calling unit's part only (map.local).
  std::pair<local_iterator, bool> local_insert(const value_type& value);
  size_type local_erase(const key_type& key);

 private:
  // A piece of the calling unit's part: pool memory.
  struct Chunk {
    dart_gptr_t gptr;
    value_type* base;
    size_type capacity;
  };
  // What every unit learns of a part at a commit.
  struct PartInfo {
    dart_gptr_t gptr;
    size_type count;
    size_type capacity;
    std::uint64_t failed;  // nonzero: this unit could not build its part
  };
  struct Located {
    bool found = false;
    team_unit_t unit;
    size_type index = 0;
  };
  using KeyIndex = internal::MapKeyIndex<Key, Pred>;

  static size_type default_bucket_size() {
    return sizeof(value_type) >= 4096 ? 1 : 4096 / sizeof(value_type);
  }
  team_unit_t owner_of(const key_type& key) const;
  Located locate_key(const key_type& key) const;
  const KeyIndex& remote_index(team_unit_t unit) const;
  size_type part_size(team_unit_t unit) const {
    return unit == myid_ ? lsize_ : parts_[unit.id].count;
  }
  index_type part_begin(team_unit_t unit) const {
    index_type begin = static_cast<index_type>(committed_begin_[unit.id]);
    if (unit.id > myid_.id) begin += static_cast<index_type>(lsize_ - parts_[myid_.id].count);
    return begin;
  }
  size_type local_capacity() const {
    return chunks_.empty() ? 0 : chunks_[0].capacity + (chunks_.size() - 1) * bucket_size_;
  }
  dart_gptr_t local_gptr(size_type index) const;
  size_type append_local(const value_type& value);
  Chunk allocate_chunk(size_type capacity) const;
  void free_chunks(std::vector<Chunk>& chunks) const;
  // At a commit whose new part does not fit beside the old one: frees the chunks after the
  // first (no other unit knows them), their bytes kept in `backup`; the own elements
  // `sources` takes from them (local indices `local_of`, the first `own` sources) are copied
  // to `staged` and the sources pointed there. Local.
  void free_growth_chunks(std::vector<const unsigned char*>& sources,
                          const std::vector<size_type>& local_of, std::size_t own,
                          std::vector<unsigned char>& staged,
                          std::vector<std::vector<unsigned char>>& backup);
  // Puts back the chunks free_growth_chunks freed (same sizes, new addresses: references
  // into them go stale). Local.
  void restore_growth_chunks(std::vector<std::vector<unsigned char>>& backup);
  // Publishes the calling unit's new part (or its failure) and installs
  // every unit's. Collective.
  void publish(std::vector<Chunk> new_chunks, size_type count, std::exception_ptr failure,
               KeyIndex new_index);

  Team* team_;
  team_unit_t myid_;
  size_type bucket_size_;
  int uncaught_at_construction_;
  mutable hasher hash_;  // DASH allows hash functors whose operator() is not const
  key_equal equal_;
  std::vector<Chunk> chunks_;  // chunk 0, then buckets of bucket_size_ elements
  size_type lsize_ = 0;
  std::vector<bool> erased_;  // per local index: erase at the next commit
  KeyIndex local_index_;      // key -> local index
  std::vector<PartInfo> parts_;
  std::vector<value_type*> shared_base_;    // per unit: load/store address of its part, or null
  std::vector<size_type> committed_begin_;  // prefix sums of parts_[u].count
  size_type committed_total_ = 0;
  size_type committed_capacity_ = 0;                             // sum of parts_[u].capacity
  mutable std::vector<std::unique_ptr<KeyIndex>> remote_index_;  // per unit, built on demand
  std::vector<std::vector<Key>> erase_requests_;                 // per owner
  KeyIndex erase_requested_;
  internal::MemoryStamp stamp_;  // renewed at each commit
  bool has_stamp_ = false;
};

}  // namespace dash

#include <dash/map/internal/UnorderedMap-inl.h>

#endif  // DASH__MAP__UNORDERED_MAP_H_
