// Iterators and the local view of dash::UnorderedMap.
//
// A global iterator is a position in the elements the calling unit sees, in
// unit order (unit 0's part first); it dereferences to a dash::GlobRef of the
// element (load/store on the node, else one-sided). A local iterator walks
// the calling unit's own part and dereferences to a native reference. Both are
// valid until the next insert into the calling unit's part (positions of later
// units shift) or the next commit.
#ifndef DASH__MAP__UNORDERED_MAP_ITER_H_
#define DASH__MAP__UNORDERED_MAP_ITER_H_

#include <dash/Exception.h>
#include <dash/Types.h>
#include <dash/memory/GlobRef.h>

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace dash {

// Where an element lives: its unit and its index in that unit's part.
struct UnorderedMapLocalPos {
  team_unit_t unit;
  default_index_t index;
};

namespace internal {

// What both iterators of a map are: the map and a position, stepped and
// compared alike (It: the iterator, constructible from the two). Local.
template <class It, class MapPtr>
class UnorderedMapPosition {
 public:
  using difference_type = default_index_t;

  UnorderedMapPosition() = default;
  UnorderedMapPosition(MapPtr map, difference_type pos) : map_(map), pos_(pos) {}

  // The position (the global iterator: among the elements the calling unit
  // sees; the local one: in the calling unit's part).
  difference_type pos() const { return pos_; }
  MapPtr map() const { return map_; }

  It& operator++() { return ++pos_, self(); }
  It& operator--() { return --pos_, self(); }
  It operator++(int) { return It(map_, pos_++); }
  It operator--(int) { return It(map_, pos_--); }
  friend difference_type operator-(const It& a, const It& b) { return a.pos() - b.pos(); }
  friend bool operator==(const It& a, const It& b) {
    return a.pos() == b.pos() && a.map() == b.map();
  }
  friend bool operator!=(const It& a, const It& b) { return !(a == b); }

 protected:
  It& self() { return static_cast<It&>(*this); }
  MapPtr map_ = nullptr;
  difference_type pos_ = 0;
};

}  // namespace internal

template <class Map, bool Const>
class UnorderedMapGlobIter
    : public internal::UnorderedMapPosition<UnorderedMapGlobIter<Map, Const>,
                                            std::conditional_t<Const, const Map*, Map*>> {
  using map_ptr = std::conditional_t<Const, const Map*, Map*>;
  using base = internal::UnorderedMapPosition<UnorderedMapGlobIter, map_ptr>;
  using element =
      std::conditional_t<Const, const typename Map::value_type, typename Map::value_type>;
  using base::map_;
  using base::pos_;

 public:
  using iterator_category = std::bidirectional_iterator_tag;
  using value_type = typename Map::value_type;
  using difference_type = default_index_t;
  using reference = GlobRef<element>;
  using pointer = void;

  UnorderedMapGlobIter() = default;
  UnorderedMapGlobIter(map_ptr map, difference_type pos) : base(map, pos) {}
  // A const iterator from a mutable one. Local.
  template <bool C = Const, class = std::enable_if_t<C>>
  UnorderedMapGlobIter(const UnorderedMapGlobIter<Map, false>& other)
      : base(other.map(), other.pos()) {}

  // The element: a GlobRef (O(log units) to find its unit). Local.
  reference operator*() const {
    const UnorderedMapLocalPos at = map_->locate(pos_);
    return map_->template element_ref<element>(at.unit, at.index);
  }
  // Unit and index in that unit's part of the element. Local.
  UnorderedMapLocalPos lpos() const { return map_->locate(pos_); }
  // Global pointer to the element. Local.
  dart_gptr_t dart_gptr() const { return (**this).dart_gptr(); }
  // Native pointer if the element is in the calling unit's part, else nullptr. Local.
  element* local() const {
    const UnorderedMapLocalPos at = map_->locate(pos_);
    return at.unit == map_->team().myid() ? map_->local_slot(at.index) : nullptr;
  }
  bool is_local() const { return local() != nullptr; }

  UnorderedMapGlobIter& operator+=(difference_type n) { return pos_ += n, *this; }
  UnorderedMapGlobIter& operator-=(difference_type n) { return pos_ -= n, *this; }
  friend UnorderedMapGlobIter operator+(UnorderedMapGlobIter it, difference_type n) {
    return it += n;
  }
  friend UnorderedMapGlobIter operator-(UnorderedMapGlobIter it, difference_type n) {
    return it -= n;
  }
  friend bool operator<(const UnorderedMapGlobIter& a, const UnorderedMapGlobIter& b) {
    return a.pos() < b.pos();
  }
};

template <class Map, bool Const>
class UnorderedMapLocalIter
    : public internal::UnorderedMapPosition<UnorderedMapLocalIter<Map, Const>,
                                            std::conditional_t<Const, const Map*, Map*>> {
  using map_ptr = std::conditional_t<Const, const Map*, Map*>;
  using base = internal::UnorderedMapPosition<UnorderedMapLocalIter, map_ptr>;
  using element =
      std::conditional_t<Const, const typename Map::value_type, typename Map::value_type>;
  using base::map_;
  using base::pos_;

 public:
  using iterator_category = std::bidirectional_iterator_tag;
  using value_type = typename Map::value_type;
  using difference_type = default_index_t;
  using reference = element&;
  using pointer = element*;

  UnorderedMapLocalIter() = default;
  UnorderedMapLocalIter(map_ptr map, difference_type index) : base(map, index) {}
  template <bool C = Const, class = std::enable_if_t<C>>
  UnorderedMapLocalIter(const UnorderedMapLocalIter<Map, false>& other)
      : base(other.map(), other.pos()) {}

  // The element in the calling unit's memory. Local, O(1).
  reference operator*() const { return *map_->local_slot(pos_); }
  pointer operator->() const { return map_->local_slot(pos_); }
};

// map.local: the calling unit's part of the map (DASH's UnorderedMapLocalRef).
// Every call is local.
template <class Map>
class UnorderedMapLocalRef {
 public:
  using iterator = typename Map::local_iterator;
  using const_iterator = typename Map::const_local_iterator;
  using size_type = typename Map::size_type;
  using key_type = typename Map::key_type;
  using mapped_type = typename Map::mapped_type;
  using value_type = typename Map::value_type;

  explicit UnorderedMapLocalRef(Map* map) : map_(map) {}

  iterator begin() { return map_->lbegin(); }
  iterator end() { return map_->lend(); }
  const_iterator begin() const { return map_->lbegin(); }
  const_iterator end() const { return map_->lend(); }
  // Elements in the calling unit's part (those it inserted since the last
  // commit included).
  size_type size() const { return map_->lsize(); }
  // Elements the calling unit's part holds before it grows. Local.
  size_type capacity() const { return map_->lcapacity(); }
  bool empty() const { return size() == 0; }
  // The element of `key` in the calling unit's part, else end(). Local.
  iterator find(const key_type& key) { return map_->local_find(key); }
  const_iterator find(const key_type& key) const { return map_->local_find(key); }
  size_type count(const key_type& key) const { return find(key) != end() ? 1 : 0; }
  // Inserts value into the calling unit's part unless its key is there; other
  // parts are not looked at (if the key's owner has it, the commit keeps the
  // owner's). Returns the element of the key and whether it was inserted.
  std::pair<iterator, bool> insert(const value_type& value) { return map_->local_insert(value); }
  // The mapped value of key in the calling unit's part, inserted
  // (value-initialised) if it is not there.
  mapped_type& operator[](const key_type& key) {
    return insert(value_type(key, mapped_type())).first->second;
  }
  // The mapped value of key in the calling unit's part; throws
  // dash::exception::InvalidArgument if it is not there.
  mapped_type& at(const key_type& key) { return checked(find(key))->second; }
  const mapped_type& at(const key_type& key) const { return checked(find(key))->second; }
  // Erases key's element of the calling unit's part at the next commit;
  // returns 1 if it is there and not already erased, else 0.
  size_type erase(const key_type& key) { return map_->local_erase(key); }

 private:
  template <class It>
  It checked(It it) const {
    if (it == It(map_, static_cast<default_index_t>(map_->lsize()))) {
      throw exception::InvalidArgument(
          "dash::UnorderedMap::local.at: no element of the key in the calling unit's part");
    }
    return it;
  }

  Map* map_;
};

}  // namespace dash

#endif  // DASH__MAP__UNORDERED_MAP_ITER_H_
