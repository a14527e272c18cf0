// dash::bp::internal::Residency: which blocks of a Master are in memory.
//
// Without a limit every block stays in memory and acquire() is a pointer
// dereference. With a memory-block limit m (Master::limit(m) or the flag
// DASH_OOC_MEM_BLOCKS), at most m blocks of the unit are in memory between
// calls; the others are in a SpillStore (SpillStore.h) as the bytes
// dash::bp::save makes of them:
//
//   acquire(i):  if block i is not in memory:
//                  while m blocks are in memory: evict the least recently
//                    used one that is not in use (save, put, free)
//                  take its bytes from the store (prefetched if asked
//                    before), make a Block, load it
//                mark it in use and most recently used
//                (an evicted block's empty queues free their memory too)
//   prefetch(i): if block i is in the store, start reading it (the bytes of
//                one block wait in memory beyond the limit)
//   release(i):  not in use any more (stays in memory until evicted)
//
// Blocks need a default constructor and dash::bp serialisation (trivially
// copyable or a Serialization specialisation) to be evicted. A block type
// with a payload (has_payload_v: its bulk data as Bytes, e.g. the slabs of
// an out-of-core matrix) is evicted differently: the block object (its
// shell: links, metadata, and whatever release_payload leaves, e.g. a
// slab's halo unless spent) stays in memory and only the payload goes to
// the store. A block that was only read since it was loaded (foreach_read,
// whose callback takes the block by const reference) is dropped, not
// written, while the store still holds the bytes it was loaded from (a
// container's file always does; the spill files keep them through
// SpillStore::read and put_kept unless the store needs the room).
//
// | call              | cost                                                |
// |-------------------|-----------------------------------------------------|
// | acquire (resident)| local, O(1)                                         |
// | acquire (evicted) | local: one eviction (serialise + write behind; none |
// |                   | if unchanged and still stored) and one load (read,  |
// |                   | verify, deserialise)                                |
// | prefetch, release | local, O(1)                                         |
#ifndef DASH__BP__RESIDENCY_H_
#define DASH__BP__RESIDENCY_H_

#include <dash/Exception.h>
#include <dash/bp/Proxy.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/SpillStore.h>
#include <dash/bp/internal/BufferStock.h>
#include <dash/bp/internal/QueueResidency.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

// Whether Block keeps a shell in memory and moves only a payload:
//   bool can_release_payload() const;   // false: this block cannot evict
//   bool payload_resident() const;      // its payload is in memory
//   Bytes release_payload();            // hands it over, frees it
//   void adopt_payload(Bytes bytes);    // takes it back
// Compile time.
template <class Block, class = void>
struct has_payload : std::false_type {};
template <class Block>
struct has_payload<Block, std::void_t<decltype(std::declval<Block&>().release_payload()),
                                      decltype(std::declval<Block&>().adopt_payload(Bytes())),
                                      decltype(std::declval<const Block&>().payload_resident()),
                                      decltype(std::declval<const Block&>().can_release_payload())>>
    : std::true_type {};
template <class Block>
inline constexpr bool has_payload_v = has_payload<Block>::value;

// Whether a Master<Block> can evict blocks: Block has a payload, or is
// default constructible and serialisable. Compile time.
template <class Block>
inline constexpr bool is_spillable_v = has_payload_v<Block> ||
                                       (std::is_default_constructible_v<Block> &&
                                        is_serialisable_v<Block>);

namespace internal {

template <class Block>
class Residency final : public QueueResidency {
 public:
  static constexpr std::size_t kUnlimited = 0;

  Residency() = default;
  Residency(Residency&&) = default;
  Residency& operator=(Residency&&) = default;
  // Writes the changed payloads in memory back to a store that keeps what
  // it holds (a container's file), so the container sees them; a failure is
  // printed (stderr): call write_back() first to have it thrown. Local.
  ~Residency() {
    try {
      write_back();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "dash::bp::Master: writing blocks back at destruction failed: %s\n",
                   e.what());
    }
  }
  // The same now: the changed payloads leave memory for the store, which is
  // then flushed; throws the store's error. Nothing for blocks without a
  // payload or a store that does not keep what it holds. Local.
  void write_back() {
    if constexpr (has_payload_v<Block>) {
      if (!store_ || !store_->keeps_taken()) return;
      for (std::size_t i = 0; i < slots_.size(); ++i)
        if (slots_[i].in_memory && slots_[i].dirty && slots_[i].block->can_release_payload())
          evict(i);
      store_->flush();
    }
  }

  // Adds a block; returns its index. A block with a payload not in memory
  // starts evicted (its payload is in the store). `queues`: the block's
  // proxy, whose empty queues free their memory when the block is evicted
  // (it must outlive this object). Local.
  std::size_t add(int gid, std::unique_ptr<Block> block, Proxy* queues = nullptr) {
    bool in_memory = true;
    if constexpr (has_payload_v<Block>) in_memory = block->payload_resident();
    slots_.push_back(Slot{gid, std::move(block), queues});
    slots_.back().last_use = ++clock_;
    slots_.back().in_memory = in_memory;
    resident_ += in_memory;
    return slots_.size() - 1;
  }
  std::size_t size() const override { return slots_.size(); }

  // Sets the memory-block limit (kUnlimited: none; otherwise at least 1)
  // and evicts blocks down to it, or without a limit loads every evicted
  // block. Local.
  void limit(std::size_t m, const char* call) {
    if constexpr (!is_spillable_v<Block>) {
      if (m != kUnlimited)
        throw exception::InvalidArgument(
            std::string(call) +
            ": this block type cannot be evicted: it needs a default constructor and "
            "dash::bp serialisation (trivially copyable, or a dash::bp::Serialization "
            "specialisation)");
    }
    limit_ = m;
    if (limit_ != kUnlimited) {
      if (!short_of_memory_) short_of_memory_.emplace();  // the buffer stock keeps less
      shrink(limit_);
    } else {
      short_of_memory_.reset();
      // Without a limit, calls reach blocks without acquire: count every
      // block as changed (written back when evicted or at the end).
      for (std::size_t i = 0; i < slots_.size(); ++i) {
        if (!slots_[i].in_memory) load(i);
        slots_[i].dirty = true;
      }
    }
  }
  std::size_t limit() const override { return limit_; }
  bool limited() const override { return limit_ != kUnlimited; }
  bool resident(std::size_t i) const override { return slots_[i].in_memory; }
  std::size_t resident_count() const { return resident_; }
  // The bytes of the largest block evicted so far (0: none yet). Local.
  std::size_t largest_stored() const override { return largest_stored_; }

  // Block i in memory and in use until release(i); `writes`: the caller
  // may change it (false: it only reads). Local; may evict one block and
  // load block i.
  Block& acquire(std::size_t i, bool writes = true) {
    Slot& s = slots_[i];
    if (!s.in_memory) load(i);
    ++s.in_use;
    s.dirty |= writes;
    s.last_use = ++clock_;
    return *s.block;
  }
  // Block i's object without loading its payload (blocks with a payload:
  // halos, links, metadata; other blocks are loaded). Local.
  Block& shell(std::size_t i) {
    if constexpr (has_payload_v<Block>) return *slots_[i].block;
    return use(i);
  }
  // Block i without a limit (every block is in memory). Local, thread-safe
  // for different i.
  Block& resident_block(std::size_t i) { return *slots_[i].block; }
  // Block i in memory (loaded if evicted), not marked in use: for callers
  // without a limit, or that use it before the next acquire. Local.
  Block& use(std::size_t i) {
    Slot& s = slots_[i];
    if (!s.in_memory) load(i);
    s.dirty = true;
    s.last_use = ++clock_;
    return *s.block;
  }
  // Block i changed (it was acquired for reading only). Local; thread-safe
  // for different i.
  void mark_changed(std::size_t i) { slots_[i].dirty = true; }
  // Block i is no longer in use. Local.
  void release(std::size_t i) {
    if (slots_[i].in_use > 0) --slots_[i].in_use;
  }
  // Starts reading block i if it is evicted and not yet being read. Local.
  // At most max(1, limit()) blocks are read ahead at a time: the oldest
  // prefetch not yet loaded is cancelled for a new one (its memory back to
  // the store), so blocks that run in another order than they were
  // prefetched in hold no buffers beyond that.
  void prefetch(std::size_t i) {
    Slot& s = slots_[i];
    if (s.in_memory || s.prefetched || !store_) return;
    const std::size_t most = limited() ? std::max<std::size_t>(1, limit_) : slots_.size();
    while (!read_ahead_.empty() && read_ahead_.size() >= most) {
      Slot& oldest = slots_[read_ahead_.front()];
      read_ahead_.erase(read_ahead_.begin());
      store_->cancel_prefetch(key(oldest.gid));
      oldest.prefetched = false;
    }
    store_->prefetch(key(s.gid));
    s.prefetched = true;
    read_ahead_.push_back(i);
  }
  // Whether read_payload_part works: blocks with a payload and a store
  // that reads parts of what it holds (a container's file). Local.
  bool reads_parts() const {
    if constexpr (has_payload_v<Block>) return store_ && store_->reads_parts();
    return false;
  }
  // Bytes [offset, offset + n) of the payload of block i, which is not in
  // memory, into `out`, from the store without loading the rest
  // (SpillStore::read_part; reads_parts() must be true). Local, waits.
  void read_payload_part(std::size_t i, std::uint64_t offset, std::size_t n, char* out) {
    const Slot& s = slots_[i];
    if (s.in_memory || !store_ || !store_->read_part(key(s.gid), offset, n, out))
      throw exception::InvalidArgument("dash::bp::Master: block " + std::to_string(s.gid) +
                                       (s.in_memory
                                            ? " is in memory: read its payload there"
                                            : ": its store cannot read parts of a payload"));
  }
  // The store of this master's evicted blocks. Local; made on first use.
  SpillStore& store() {
    if (!store_) store_ = make_spill_store("master" + std::to_string(next_store_id()));
    return *store_;
  }
  // Where evicted blocks go from now on (before any block was evicted).
  // Local.
  void set_store(std::shared_ptr<SpillStore> store) {
    for (const Slot& s : slots_)
      if (!s.in_memory)
        throw exception::InvalidArgument(
            "dash::bp::Master::spill_store: blocks were evicted to another store already");
    store_ = std::move(store);
  }
  // The store for other bytes that go with evicted blocks (keys from
  // kExtraKeys on): store(), unless that is a container's file. Local.
  SpillStore& extra_store() override {
    if (!store_ || !store_->keeps_taken()) return store();
    if (!extra_) extra_ = make_spill_store("master" + std::to_string(next_store_id()));
    return *extra_;
  }
  static constexpr std::uint64_t kExtraKeys = std::uint64_t(1) << 40;
  // Bytes this master's blocks (and their queues) moved to and from
  // storage. Local.
  SpillCounters counters() const {
    SpillCounters c = store_ ? store_->counters() : SpillCounters{};
    if (extra_) {
      const SpillCounters e = extra_->counters();
      c.bytes_written += e.bytes_written, c.bytes_read += e.bytes_read;
    }
    return c;
  }

 private:
  struct Slot {
    int gid;
    std::unique_ptr<Block> block;  // nullptr: in the store (blocks with a payload: always set)
    Proxy* queues = nullptr;       // the block's proxy (may be none)
    std::uint64_t last_use = 0;
    int in_use = 0;
    bool prefetched = false;
    bool in_memory = true;        // the block (or its payload) is in memory
    bool dirty = true;            // changed since it was loaded (or never stored)
    bool stored = false;          // the store kept the bytes it was loaded from
    std::size_t saved_bytes = 0;  // its size as bytes when last stored (0: not yet)
  };

  static std::uint64_t key(int gid) { return std::uint64_t(gid); }

  // Evicts least recently used blocks not in use until at most `keep` are
  // in memory (or all in memory are in use).
  void shrink(std::size_t keep) {
    while (resident_ > keep) {
      std::size_t victim = slots_.size();
      for (std::size_t j = 0; j < slots_.size(); ++j) {
        const Slot& c = slots_[j];
        if (c.in_memory && c.in_use == 0 && evictable(c) &&
            (victim == slots_.size() || c.last_use < slots_[victim].last_use))
          victim = j;
      }
      if (victim == slots_.size()) return;
      evict(victim);
    }
  }

  static bool evictable(const Slot& s) {
    if constexpr (has_payload_v<Block>) return s.block->can_release_payload();
    return true;
  }

  // Whether slot s (in memory) is unchanged since it was loaded and the
  // store still holds the bytes it was loaded from
  // (then it is the store's again).
  bool unchanged_in_store(const Slot& s) {
    return !s.dirty && s.stored && store().put_kept(key(s.gid));
  }

  void evict(std::size_t i) {
    if (slots_[i].queues) slots_[i].queues->free_empty_queues();
    if constexpr (has_payload_v<Block>) {
      Slot& s = slots_[i];
      Bytes payload = s.block->release_payload();
      largest_stored_ = std::max(largest_stored_, payload.size());
      if (unchanged_in_store(s))
        store().recycle(std::move(payload));
      else
        store().put(key(s.gid), std::move(payload));
      s.in_memory = false;
      s.dirty = false;
      --resident_;
    } else if constexpr (is_spillable_v<Block>) {
      Slot& s = slots_[i];
      if (unchanged_in_store(s)) {  // the store has these bytes: nothing to write
        s.block.reset();
        s.in_memory = false;
        --resident_;
        return;
      }
      MemoryBuffer buf;
      // The store's recycled memory, sized as the block was saved before (or, saved for the
      // first time or much smaller then, as the largest block saved: blocks that grow, as an
      // all_to_all's receivers do, then do not grow a fresh buffer page by page); the store
      // writes it without a copy.
      const std::size_t guess = std::max(s.saved_bytes, largest_stored_);
      if (guess > 0) {
        buf.bytes() = store().buffer(guess);
        buf.clear();
      }
      save(buf, *s.block);
      s.saved_bytes = buf.size();
      largest_stored_ = std::max(largest_stored_, buf.size());
      store().put(key(s.gid), std::move(buf.bytes()));
      s.block.reset();
      s.in_memory = false;
      --resident_;
    }
  }

  // Block i is no longer read ahead (loaded, or its prefetch cancelled). Local.
  void forget_read_ahead(std::size_t i) {
    slots_[i].prefetched = false;
    for (std::size_t k = 0; k < read_ahead_.size(); ++k)
      if (read_ahead_[k] == i) {
        read_ahead_.erase(read_ahead_.begin() + std::ptrdiff_t(k));
        break;
      }
  }

  void load(std::size_t i) {
    if constexpr (has_payload_v<Block>) {
      if (limited()) shrink(limit_ - 1);
      Slot& s = slots_[i];
      s.block->adopt_payload(store().read(key(s.gid), s.stored));
      forget_read_ahead(i);
      s.in_memory = true;
      s.dirty = false;
      ++resident_;
    } else if constexpr (is_spillable_v<Block>) {
      if (limited()) shrink(limit_ - 1);  // room for block i (blocks in use stay)
      Slot& s = slots_[i];
      MemoryBuffer buf;
      buf.bytes() = store().read(key(s.gid), s.stored);
      s.saved_bytes = buf.size();
      forget_read_ahead(i);
      auto block = std::make_unique<Block>();
      dash::bp::load(buf, *block);
      store().recycle(std::move(buf.bytes()));
      s.block = std::move(block);
      s.in_memory = true;
      s.dirty = false;
      ++resident_;
    }
  }

  static int next_store_id() {
    static std::atomic<int> id{0};
    return id++;
  }

  std::vector<Slot> slots_;
  std::size_t limit_ = kUnlimited;
  std::size_t resident_ = 0;
  std::size_t largest_stored_ = 0;
  std::vector<std::size_t> read_ahead_;  // blocks prefetched and not yet loaded, oldest first
  // Held while limited: the process-wide buffer stock then keeps at most one buffer.
  std::optional<internal::BufferStock::Short> short_of_memory_;
  std::uint64_t clock_ = 0;
  std::shared_ptr<SpillStore> store_;
  std::unique_ptr<SpillStore> extra_;
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__RESIDENCY_H_
