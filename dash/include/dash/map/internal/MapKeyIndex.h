// Key -> index of a map part: a hash table when std::hash<Key> exists, else
// a list searched in order (keys whose type has no std::hash). Local.
#ifndef DASH__MAP__INTERNAL__MAP_KEY_INDEX_H_
#define DASH__MAP__INTERNAL__MAP_KEY_INDEX_H_

#include <cstdint>
#include <functional>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dash {
namespace internal {

template <class Key, class Pred, class = void>
class MapKeyIndex {
 public:
  // Index of key, or nullptr. O(n).
  const std::uint64_t* find(const Key& key) const {
    for (const auto& entry : entries_)
      if (equal_(entry.first, key)) return &entry.second;
    return nullptr;
  }
  // Adds key unless present; true if added.
  bool add(const Key& key, std::uint64_t index) {
    if (find(key)) return false;
    entries_.emplace_back(key, index);
    return true;
  }
  void clear() { entries_.clear(); }
  void reserve(std::size_t n) { entries_.reserve(n); }

 private:
  std::vector<std::pair<Key, std::uint64_t>> entries_;
  Pred equal_;
};

template <class Key, class Pred>
class MapKeyIndex<Key, Pred, std::void_t<decltype(std::hash<Key>{}(std::declval<const Key&>()))>> {
 public:
  // Index of key, or nullptr. O(1) expected.
  const std::uint64_t* find(const Key& key) const {
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }
  // Adds key unless present; true if added.
  bool add(const Key& key, std::uint64_t index) { return map_.emplace(key, index).second; }
  void clear() { map_.clear(); }
  void reserve(std::size_t n) { map_.reserve(n); }

 private:
  std::unordered_map<Key, std::uint64_t, std::hash<Key>, Pred> map_;
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__MAP__INTERNAL__MAP_KEY_INDEX_H_
