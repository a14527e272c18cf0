// Bodies of dash::UnorderedMap (dash/map/UnorderedMap.h has the interface).
//
// A commit, on every unit:
//   header[u] = (my elements owned by u, keys I ask u to erase)     for u != me
//   alltoall(header)              -- now every unit is in the commit: nobody
//                                    reads the old parts any more
//   alltoallv(elements), alltoallv(erase keys)
//   part' = my elements owned by me, minus the keys others asked me to erase,
//           then the received elements (unit order) whose key part' lacks
//   new pool block of |part'| + nlbuf elements <- part'     (may fail; if the pool is
//                                    full, the chunks grown since the last commit go to
//                                    the heap and it is tried again; if it fails again
//                                    they come back)
//   allgather(block, |part'|, failed?)   -- all install, or all throw
#ifndef DASH__MAP__INTERNAL__UNORDERED_MAP_INL_H_
#define DASH__MAP__INTERNAL__UNORDERED_MAP_INL_H_

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace dash {
namespace internal {

// Hash functors of DASH take the team (to learn its size); others are
// default-constructed.
template <class Hash>
Hash make_map_hash(Team& team) {
  if constexpr (std::is_constructible_v<Hash, Team&>) {
    return Hash(team);
  } else {
    return Hash();
  }
}

// How a unit failed to build its part, for the others' RemoteFailure.
enum MapFailure : std::uint64_t { kMapOk = 0, kMapOutOfMemory = 1, kMapInvalid = 2, kMapOther = 3 };

inline std::uint64_t map_failure_kind(std::exception_ptr failure) {
  if (!failure) return kMapOk;
  try {
    std::rethrow_exception(failure);
  } catch (const exception::OutOfMemory&) {
    return kMapOutOfMemory;
  } catch (const exception::InvalidArgument&) {
    return kMapInvalid;
  } catch (...) {
    return kMapOther;
  }
}

// The T whose bytes start at p (p need not be aligned for T).
template <class T>
T load_bytes(const unsigned char* p) {
  alignas(T) unsigned char buffer[sizeof(T)];
  std::memcpy(buffer, p, sizeof(T));
  return *std::launder(reinterpret_cast<const T*>(buffer));
}

inline const char* map_failure_text(std::uint64_t kind) {
  switch (kind) {
    case kMapOutOfMemory:
      return "its allocation pool cannot hold its part (raise DART_LOCAL_POOL_SIZE)";
    case kMapInvalid:
      return "invalid argument";
    default:
      return "runtime error";
  }
}

}  // namespace internal

#define DASH_MAP_TEMPLATE template <class Key, class Mapped, class Hash, class Pred>
#define DASH_MAP UnorderedMap<Key, Mapped, Hash, Pred>

DASH_MAP_TEMPLATE
DASH_MAP::UnorderedMap(size_type nelem, size_type nlbuf, Team& team)
    : team_(&team),
      bucket_size_(nlbuf),
      uncaught_at_construction_(std::uncaught_exceptions()),
      hash_(internal::make_map_hash<Hash>(team)) {
  if (team.size() == 0) throw exception::InvalidArgument("dash::UnorderedMap: the team is empty");
  myid_ = team.myid();
  const size_type units = team.size();
  parts_.assign(units, PartInfo{DART_GPTR_NULL, 0, 0, 0});
  committed_begin_.assign(units + 1, 0);
  std::vector<Chunk> chunks;
  std::exception_ptr failure;
  try {
    if (nlbuf == 0) {
      throw exception::InvalidArgument("dash::UnorderedMap: the bucket size nlbuf must be >= 1");
    }
    chunks.push_back(
        allocate_chunk(std::max<size_type>(nelem / units + (nelem % units != 0), nlbuf)));
  } catch (...) {
    failure = std::current_exception();
  }
  publish(std::move(chunks), 0, failure, KeyIndex());
  team.retain_container();
}

DASH_MAP_TEMPLATE
DASH_MAP::~UnorderedMap() {
  if (has_stamp_) internal::release_memory_stamp(stamp_);
  const bool collective =
      dash::is_initialized() && std::uncaught_exceptions() <= uncaught_at_construction_;
  if (collective) {
    // No unit reads the parts after this barrier. A destructor cannot throw: a failing
    // barrier has been logged by DART, and the blocks go at dart_exit at the latest.
    (void)dart_barrier(team_->dart_id());
    free_chunks(chunks_);
  }  // else the pool went with dart_exit, or the other units may be anywhere
  team_->release_container(collective);
}

DASH_MAP_TEMPLATE
typename DASH_MAP::Chunk DASH_MAP::allocate_chunk(size_type capacity) const {
  if (capacity > std::numeric_limits<std::size_t>::max() / sizeof(value_type)) {
    throw exception::InvalidArgument("dash::UnorderedMap: " + std::to_string(capacity) +
                                     " elements overflow the address space");
  }
  dart_gptr_t gptr = DART_GPTR_NULL;
  internal::check_dart(dart_memalloc(capacity * sizeof(value_type), DART_TYPE_BYTE, &gptr),
                       "dash::UnorderedMap: dart_memalloc");
  void* addr = nullptr;
  internal::check_dart(dart_gptr_getaddr(gptr, &addr), "dash::UnorderedMap: dart_gptr_getaddr");
  return Chunk{gptr, static_cast<value_type*>(addr), capacity};
}

DASH_MAP_TEMPLATE
void DASH_MAP::free_chunks(std::vector<Chunk>& chunks) const {
  // dart_memfree cannot fail for blocks the map allocated itself.
  for (const Chunk& chunk : chunks) (void)dart_memfree(chunk.gptr);
  chunks.clear();
}

DASH_MAP_TEMPLATE
void DASH_MAP::publish(std::vector<Chunk> new_chunks, size_type count, std::exception_ptr failure,
                       KeyIndex new_index) {
  size_type capacity = 0;
  for (const Chunk& chunk : new_chunks) capacity += chunk.capacity;
  const PartInfo mine{new_chunks.empty() ? DART_GPTR_NULL : new_chunks[0].gptr, count, capacity,
                      internal::map_failure_kind(failure)};
  std::vector<PartInfo> all = team_->allgather(mine);
  for (std::size_t u = 0; u < all.size(); ++u) {
    if (all[u].failed == internal::kMapOk) continue;
    free_chunks(new_chunks);
    if (failure) std::rethrow_exception(failure);
    throw exception::RemoteFailure("dash::UnorderedMap", static_cast<int>(u),
                                   internal::map_failure_text(all[u].failed));
  }
  free_chunks(chunks_);
  chunks_ = std::move(new_chunks);
  lsize_ = count;
  erased_.assign(count, false);
  local_index_ = std::move(new_index);
  parts_ = std::move(all);
  const std::size_t units = parts_.size();
  shared_base_.assign(units, nullptr);
  committed_begin_.assign(units + 1, 0);
  committed_capacity_ = 0;
  for (std::size_t u = 0; u < units; ++u) {
    committed_begin_[u + 1] = committed_begin_[u] + parts_[u].count;
    committed_capacity_ += parts_[u].capacity;
    void* addr = nullptr;
    if (!DART_GPTR_ISNULL(parts_[u].gptr)) {
      internal::check_dart(dart_gptr_getaddr_shared(parts_[u].gptr, &addr),
                           "dash::UnorderedMap: dart_gptr_getaddr_shared");
    }
    shared_base_[u] = static_cast<value_type*>(addr);
  }
  committed_total_ = committed_begin_[units];
  remote_index_.clear();
  remote_index_.resize(units);
  erase_requests_.assign(units, {});
  erase_requested_.clear();
  if (has_stamp_) internal::release_memory_stamp(stamp_);
  stamp_ = internal::acquire_memory_stamp();
  has_stamp_ = true;
}

DASH_MAP_TEMPLATE
void DASH_MAP::commit() {
  const std::size_t units = team_->size();
  const int me = myid_.id;
  // Where each element of my part goes (-1: erased here).
  std::vector<int> dest(lsize_);
  std::vector<std::size_t> send_count(units, 0), erase_count(units, 0);
  for (size_type i = 0; i < lsize_; ++i) {
    dest[i] = erased_[i] ? -1 : owner_of(local_slot(static_cast<index_type>(i))->first).id;
    if (dest[i] >= 0 && dest[i] != me) ++send_count[dest[i]];
  }
  std::vector<std::uint64_t> header(2 * units), received_header(2 * units);
  for (std::size_t u = 0; u < units; ++u) {
    header[2 * u] = send_count[u];
    header[2 * u + 1] = erase_requests_[u].size();
  }
  internal::check_dart(dart_alltoall(header.data(), received_header.data(),
                                     2 * sizeof(std::uint64_t), DART_TYPE_BYTE, team_->dart_id()),
                       "dash::UnorderedMap::commit: dart_alltoall");
  // Byte counts and offsets of the two exchanges.
  const std::size_t vsize = sizeof(value_type), ksize = sizeof(Key);
  std::vector<std::size_t> send_bytes(units), send_displ(units), recv_bytes(units),
      recv_displ(units), key_bytes(units), key_displ(units), rkey_bytes(units), rkey_displ(units);
  std::size_t send_total = 0, recv_total = 0, key_total = 0, rkey_total = 0;
  for (std::size_t u = 0; u < units; ++u) {
    send_displ[u] = send_total, send_bytes[u] = header[2 * u] * vsize, send_total += send_bytes[u];
    recv_displ[u] = recv_total, recv_bytes[u] = received_header[2 * u] * vsize,
    recv_total += recv_bytes[u];
    key_displ[u] = key_total, key_bytes[u] = header[2 * u + 1] * ksize, key_total += key_bytes[u];
    rkey_displ[u] = rkey_total, rkey_bytes[u] = received_header[2 * u + 1] * ksize,
    rkey_total += rkey_bytes[u];
  }
  std::vector<unsigned char> send(send_total), recv(recv_total), keys(key_total), rkeys(rkey_total);
  std::vector<std::size_t> fill(send_displ);
  for (size_type i = 0; i < lsize_; ++i) {
    if (dest[i] < 0 || dest[i] == me) continue;
    std::memcpy(&send[fill[dest[i]]], local_slot(static_cast<index_type>(i)), vsize);
    fill[dest[i]] += vsize;
  }
  for (std::size_t u = 0; u < units; ++u) {
    if (!erase_requests_[u].empty())
      std::memcpy(&keys[key_displ[u]], erase_requests_[u].data(), key_bytes[u]);
  }
  internal::check_dart(
      dart_alltoallv(send.data(), send_bytes.data(), send_displ.data(), DART_TYPE_BYTE, recv.data(),
                     recv_bytes.data(), recv_displ.data(), team_->dart_id()),
      "dash::UnorderedMap::commit: dart_alltoallv (elements)");
  internal::check_dart(
      dart_alltoallv(keys.data(), key_bytes.data(), key_displ.data(), DART_TYPE_BYTE, rkeys.data(),
                     rkey_bytes.data(), rkey_displ.data(), team_->dart_id()),
      "dash::UnorderedMap::commit: dart_alltoallv (erased keys)");
  // The new part: my own elements not erased, then the received ones.
  KeyIndex erase_set;
  for (std::size_t k = 0; k < rkey_total / ksize; ++k) {
    erase_set.add(internal::load_bytes<Key>(&rkeys[k * ksize]), 0);
  }
  KeyIndex new_index;
  std::vector<const unsigned char*> sources;
  std::vector<size_type> local_of;  // local index of each of my own sources
  for (size_type i = 0; i < lsize_; ++i) {
    if (dest[i] != me) continue;
    const value_type* v = local_slot(static_cast<index_type>(i));
    if (erase_set.find(v->first) || !new_index.add(v->first, sources.size())) continue;
    sources.push_back(reinterpret_cast<const unsigned char*>(v));
    local_of.push_back(i);
  }
  const std::size_t own = sources.size();
  for (std::size_t offset = 0; offset < recv_total; offset += vsize) {
    const Key key = internal::load_bytes<Key>(&recv[offset]);  // first is at offset 0 of the pair
    if (new_index.add(key, sources.size())) sources.push_back(&recv[offset]);
  }
  std::vector<Chunk> chunks;
  std::exception_ptr failure;
  std::vector<unsigned char> staged;
  std::vector<std::vector<unsigned char>> backup;
  try {
    try {
      chunks.push_back(allocate_chunk(sources.size() + bucket_size_));
    } catch (const exception::OutOfMemory&) {
      if (chunks_.size() < 2) throw;
      free_growth_chunks(sources, local_of, own, staged, backup);
      chunks.push_back(allocate_chunk(sources.size() + bucket_size_));
    }
    for (std::size_t i = 0; i < sources.size(); ++i)
      std::memcpy(static_cast<void*>(chunks[0].base + i), sources[i], vsize);
  } catch (...) {
    failure = std::current_exception();
  }
  if (failure && !backup.empty()) {
    try {
      restore_growth_chunks(backup);
    } catch (const std::exception& e) {  // the pool just held these sizes: cannot happen
      std::fprintf(stderr, "dash::UnorderedMap::commit: cannot restore its part: %s\n", e.what());
      std::abort();  // throwing here would leave the other units in the commit
    }
  }
  publish(std::move(chunks), sources.size(), failure, std::move(new_index));
}

DASH_MAP_TEMPLATE
void DASH_MAP::free_growth_chunks(std::vector<const unsigned char*>& sources,
                                  const std::vector<size_type>& local_of, std::size_t own,
                                  std::vector<unsigned char>& staged,
                                  std::vector<std::vector<unsigned char>>& backup) {
  const std::size_t vsize = sizeof(value_type);
  const size_type first = chunks_[0].capacity;
  std::size_t moving = 0;
  for (std::size_t s = 0; s < own; ++s) moving += local_of[s] >= first;
  staged.resize(moving * vsize);
  std::size_t at = 0;
  for (std::size_t s = 0; s < own; ++s) {
    if (local_of[s] < first) continue;
    std::memcpy(&staged[at], sources[s], vsize);
    sources[s] = &staged[at];
    at += vsize;
  }
  std::vector<Chunk> growth(chunks_.begin() + 1, chunks_.end());
  backup.clear();
  for (const Chunk& chunk : growth) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(chunk.base);
    backup.emplace_back(bytes, bytes + chunk.capacity * vsize);
  }
  chunks_.resize(1);
  free_chunks(growth);
}

DASH_MAP_TEMPLATE
void DASH_MAP::restore_growth_chunks(std::vector<std::vector<unsigned char>>& backup) {
  // The pool gave these sizes out a moment ago and nothing was allocated since (the new part's
  // allocation failed), so they fit again.
  for (const std::vector<unsigned char>& bytes : backup) {
    Chunk chunk = allocate_chunk(bytes.size() / sizeof(value_type));
    std::memcpy(static_cast<void*>(chunk.base), bytes.data(), bytes.size());
    chunks_.push_back(chunk);
  }
  backup.clear();
  if (has_stamp_) internal::release_memory_stamp(stamp_);  // references into them go stale
  stamp_ = internal::acquire_memory_stamp();
  has_stamp_ = true;
}

DASH_MAP_TEMPLATE
team_unit_t DASH_MAP::owner_of(const key_type& key) const {
  const auto result = hash_(key);
  const long long units = static_cast<long long>(team_->size());
  long long unit;
  if constexpr (std::is_integral_v<std::decay_t<decltype(result)>>) {
    if constexpr (std::is_signed_v<std::decay_t<decltype(result)>>) {
      unit = (static_cast<long long>(result) % units + units) % units;
    } else {
      unit = static_cast<long long>(static_cast<unsigned long long>(result) %
                                    static_cast<unsigned long long>(units));
    }
  } else {
    unit = static_cast<dart_unit_t>(result);  // a team_unit_t
  }
  if (unit < 0 || unit >= units) {
    throw exception::InvalidArgument("dash::UnorderedMap: the hash function gave unit " +
                                     std::to_string(unit) + " for a key; the team has " +
                                     std::to_string(units) + " units");
  }
  return team_unit_t(static_cast<dart_unit_t>(unit));
}

DASH_MAP_TEMPLATE
const typename DASH_MAP::KeyIndex& DASH_MAP::remote_index(team_unit_t unit) const {
  std::unique_ptr<KeyIndex>& slot = remote_index_[unit.id];
  if (slot) return *slot;
  auto index = std::make_unique<KeyIndex>();
  const PartInfo& part = parts_[unit.id];
  if (part.count > 0) {
    std::vector<unsigned char> bytes(part.count * sizeof(value_type));
    internal::check_dart(
        dart_get_blocking(bytes.data(), part.gptr, bytes.size(), DART_TYPE_BYTE, DART_TYPE_BYTE),
        "dash::UnorderedMap: dart_get_blocking (keys of a part)");
    index->reserve(part.count);
    for (size_type i = 0; i < part.count; ++i) {
      index->add(internal::load_bytes<Key>(&bytes[i * sizeof(value_type)]), i);
    }
  }
  slot = std::move(index);
  return *slot;
}

DASH_MAP_TEMPLATE
typename DASH_MAP::Located DASH_MAP::locate_key(const key_type& key) const {
  if (const std::uint64_t* i = local_index_.find(key)) return Located{true, myid_, *i};
  if constexpr (std::is_same_v<Hash, HashLocal<Key>>) {
    for (std::size_t u = 0; u < parts_.size(); ++u) {
      if (static_cast<int>(u) == myid_.id || parts_[u].count == 0) continue;
      const team_unit_t unit(static_cast<dart_unit_t>(u));
      if (const std::uint64_t* i = remote_index(unit).find(key)) return Located{true, unit, *i};
    }
  } else {
    const team_unit_t owner = owner_of(key);
    if (owner != myid_ && parts_[owner.id].count > 0) {
      if (const std::uint64_t* i = remote_index(owner).find(key)) return Located{true, owner, *i};
    }
  }
  return Located{};
}

DASH_MAP_TEMPLATE
UnorderedMapLocalPos DASH_MAP::locate(index_type pos) const {
  // The last unit whose part begins at or before pos.
  std::size_t lo = 0, hi = parts_.size();
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (part_begin(team_unit_t(static_cast<dart_unit_t>(mid))) <= pos)
      lo = mid;
    else
      hi = mid;
  }
  const team_unit_t unit(static_cast<dart_unit_t>(lo));
  return UnorderedMapLocalPos{unit, pos - part_begin(unit)};
}

DASH_MAP_TEMPLATE
typename DASH_MAP::value_type* DASH_MAP::local_slot(index_type index) const {
  const size_type i = static_cast<size_type>(index);
  const size_type first = chunks_[0].capacity;
  if (i < first) return chunks_[0].base + i;
  const size_type rest = i - first;
  return chunks_[1 + rest / bucket_size_].base + rest % bucket_size_;
}

DASH_MAP_TEMPLATE
dart_gptr_t DASH_MAP::local_gptr(size_type index) const {
  const size_type first = chunks_[0].capacity;
  const Chunk& chunk = index < first ? chunks_[0] : chunks_[1 + (index - first) / bucket_size_];
  const size_type offset = index < first ? index : (index - first) % bucket_size_;
  dart_gptr_t gptr = chunk.gptr;
  gptr.addr_or_offs.offset += offset * sizeof(value_type);
  return gptr;
}

DASH_MAP_TEMPLATE
template <class Element>
GlobRef<Element> DASH_MAP::element_ref(team_unit_t unit, index_type index) const {
  if (unit == myid_) {
    return GlobRef<Element>(local_gptr(static_cast<size_type>(index)), local_slot(index), stamp_);
  }
  dart_gptr_t gptr = parts_[unit.id].gptr;
  gptr.addr_or_offs.offset += static_cast<std::uint64_t>(index) * sizeof(value_type);
  value_type* base = shared_base_[unit.id];
  return GlobRef<Element>(gptr, base ? base + index : nullptr, stamp_);
}

DASH_MAP_TEMPLATE
typename DASH_MAP::size_type DASH_MAP::append_local(const value_type& value) {
  if (lsize_ == local_capacity()) chunks_.push_back(allocate_chunk(bucket_size_));
  value_type* slot = local_slot(static_cast<index_type>(lsize_));
  ::new (static_cast<void*>(slot)) value_type(value);
  local_index_.add(value.first, lsize_);
  erased_.push_back(false);
  return lsize_++;
}

DASH_MAP_TEMPLATE
std::pair<typename DASH_MAP::iterator, bool> DASH_MAP::insert(const value_type& value) {
  owner_of(value.first);  // a key whose hash names no unit is refused here, not at the commit
  const Located found = locate_key(value.first);
  if (found.found) {
    return {iterator(this, part_begin(found.unit) + static_cast<index_type>(found.index)), false};
  }
  const size_type index = append_local(value);
  return {iterator(this, part_begin(myid_) + static_cast<index_type>(index)), true};
}

DASH_MAP_TEMPLATE
typename DASH_MAP::iterator DASH_MAP::find(const key_type& key) {
  const Located found = locate_key(key);
  if (!found.found) return end();
  return iterator(this, part_begin(found.unit) + static_cast<index_type>(found.index));
}

DASH_MAP_TEMPLATE
typename DASH_MAP::const_iterator DASH_MAP::find(const key_type& key) const {
  const Located found = locate_key(key);
  if (!found.found) return end();
  return const_iterator(this, part_begin(found.unit) + static_cast<index_type>(found.index));
}

DASH_MAP_TEMPLATE
typename DASH_MAP::mapped_type_reference DASH_MAP::operator[](const key_type& key) {
  const iterator it = insert(value_type(key, mapped_type())).first;
  const UnorderedMapLocalPos at = locate(it.pos());
  return element_ref<value_type>(at.unit, at.index).member(&value_type::second);
}

DASH_MAP_TEMPLATE
typename DASH_MAP::mapped_type_reference DASH_MAP::at(const key_type& key) {
  const Located found = locate_key(key);
  if (!found.found)
    throw exception::InvalidArgument("dash::UnorderedMap::at: no element of the key");
  return element_ref<value_type>(found.unit, static_cast<index_type>(found.index))
      .member(&value_type::second);
}

DASH_MAP_TEMPLATE
typename DASH_MAP::const_mapped_type_reference DASH_MAP::at(const key_type& key) const {
  const Located found = locate_key(key);
  if (!found.found)
    throw exception::InvalidArgument("dash::UnorderedMap::at: no element of the key");
  return element_ref<const value_type>(found.unit, static_cast<index_type>(found.index))
      .member(&value_type::second);
}

DASH_MAP_TEMPLATE
typename DASH_MAP::size_type DASH_MAP::erase(const key_type& key) {
  const Located found = locate_key(key);
  if (!found.found) return 0;
  if (found.unit == myid_) {
    if (erased_[found.index]) return 0;
    erased_[found.index] = true;
    return 1;
  }
  if (!erase_requested_.add(key, 0)) return 0;
  erase_requests_[found.unit.id].push_back(key);
  return 1;
}

DASH_MAP_TEMPLATE
typename DASH_MAP::iterator DASH_MAP::erase(const_iterator pos) {
  if (pos.map() != this || pos.pos() < 0 || pos.pos() >= static_cast<index_type>(size())) {
    throw exception::InvalidArgument(
        "dash::UnorderedMap::erase: the iterator is not an element of this map");
  }
  const value_type value = *pos;
  erase(value.first);
  return iterator(this, pos.pos() + 1);
}

DASH_MAP_TEMPLATE
typename DASH_MAP::local_iterator DASH_MAP::local_find(const key_type& key) {
  const std::uint64_t* i = local_index_.find(key);
  return i ? local_iterator(this, static_cast<index_type>(*i)) : lend();
}

DASH_MAP_TEMPLATE
typename DASH_MAP::const_local_iterator DASH_MAP::local_find(const key_type& key) const {
  const std::uint64_t* i = local_index_.find(key);
  return i ? const_local_iterator(this, static_cast<index_type>(*i)) : lend();
}

DASH_MAP_TEMPLATE
std::pair<typename DASH_MAP::local_iterator, bool> DASH_MAP::local_insert(const value_type& value) {
  owner_of(value.first);  // a key whose hash names no unit is refused here, not at the commit
  if (const std::uint64_t* i = local_index_.find(value.first)) {
    return {local_iterator(this, static_cast<index_type>(*i)), false};
  }
  return {local_iterator(this, static_cast<index_type>(append_local(value))), true};
}

DASH_MAP_TEMPLATE
typename DASH_MAP::size_type DASH_MAP::local_erase(const key_type& key) {
  const std::uint64_t* i = local_index_.find(key);
  if (!i || erased_[*i]) return 0;
  erased_[*i] = true;
  return 1;
}

#undef DASH_MAP
#undef DASH_MAP_TEMPLATE

}  // namespace dash

#endif  // DASH__MAP__INTERNAL__UNORDERED_MAP_INL_H_
