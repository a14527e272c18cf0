// dash::bp::detail::Residency: which blocks of a Master are in memory.
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
//   prefetch(i): if block i is in the store, start reading it (the bytes of
//                one block wait in memory beyond the limit)
//   release(i):  not in use any more (stays in memory until evicted)
//
// Blocks need a default constructor and dash::bp serialisation (trivially
// copyable or a Serialization specialisation) to be evicted.
//
// | call              | cost                                                |
// |-------------------|-----------------------------------------------------|
// | acquire (resident)| local, O(1)                                         |
// | acquire (evicted) | local: one eviction (serialise + write behind) and  |
// |                   | one load (read, verify, deserialise)                |
// | prefetch, release | local, O(1)                                         |
#ifndef DASH__BLOCKS__RESIDENCY_H_
#define DASH__BLOCKS__RESIDENCY_H_

#include <dash/Exception.h>
#include <dash/blocks/Serialization.h>
#include <dash/blocks/SpillStore.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

// Whether a Master<Block> can evict blocks: Block is default constructible
// and serialisable. Compile time.
template <class Block>
inline constexpr bool is_spillable_v =
    std::is_default_constructible_v<Block>&& is_serialisable_v<Block>;

namespace detail {

template <class Block>
class Residency {
 public:
  static constexpr std::size_t kUnlimited = 0;

  // Adds a block (in memory); returns its index. Local.
  std::size_t add(int gid, std::unique_ptr<Block> block) {
    slots_.push_back(Slot{gid, std::move(block)});
    slots_.back().last_use = ++clock_;
    ++resident_;
    return slots_.size() - 1;
  }
  std::size_t size() const { return slots_.size(); }

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
      shrink(limit_);
    } else {
      for (std::size_t i = 0; i < slots_.size(); ++i)
        if (!slots_[i].block) load(i);
    }
  }
  std::size_t limit() const { return limit_; }
  bool limited() const { return limit_ != kUnlimited; }
  bool resident(std::size_t i) const { return slots_[i].block != nullptr; }
  std::size_t resident_count() const { return resident_; }

  // Block i in memory and in use until release(i). Local; may evict one
  // block and load block i.
  Block& acquire(std::size_t i) {
    Slot& s = slots_[i];
    if (!s.block) load(i);
    ++s.in_use;
    s.last_use = ++clock_;
    return *s.block;
  }
  // Block i without a limit (every block is in memory). Local, thread-safe
  // for different i.
  Block& resident_block(std::size_t i) { return *slots_[i].block; }
  // Block i in memory (loaded if evicted), not marked in use: for callers
  // without a limit, or that use it before the next acquire. Local.
  Block& use(std::size_t i) {
    Slot& s = slots_[i];
    if (!s.block) load(i);
    s.last_use = ++clock_;
    return *s.block;
  }
  // Block i is no longer in use. Local.
  void release(std::size_t i) {
    if (slots_[i].in_use > 0) --slots_[i].in_use;
  }
  // Starts reading block i if it is evicted and not yet being read. Local.
  void prefetch(std::size_t i) {
    Slot& s = slots_[i];
    if (s.block || s.prefetched || !store_) return;
    store_->prefetch(key(s.gid));
    s.prefetched = true;
  }
  // The store of this master's evicted blocks, for other bytes that go
  // with them (keys from kExtraKeys on). Local; made on first use.
  SpillStore& store() {
    if (!store_) store_ = make_spill_store("master" + std::to_string(next_store_id()));
    return *store_;
  }
  static constexpr std::uint64_t kExtraKeys = std::uint64_t(1) << 40;
  // Bytes this master's blocks moved to and from storage. Local.
  SpillCounters counters() const { return store_ ? store_->counters() : SpillCounters{}; }

 private:
  struct Slot {
    int gid;
    std::unique_ptr<Block> block;  // nullptr: in the store
    std::uint64_t last_use = 0;
    int in_use = 0;
    bool prefetched = false;
  };

  static std::uint64_t key(int gid) { return std::uint64_t(gid); }

  // Evicts least recently used blocks not in use until at most `keep` are
  // in memory (or all in memory are in use).
  void shrink(std::size_t keep) {
    while (resident_ > keep) {
      std::size_t victim = slots_.size();
      for (std::size_t j = 0; j < slots_.size(); ++j) {
        const Slot& c = slots_[j];
        if (c.block && c.in_use == 0 &&
            (victim == slots_.size() || c.last_use < slots_[victim].last_use))
          victim = j;
      }
      if (victim == slots_.size()) return;
      evict(victim);
    }
  }

  void evict(std::size_t i) {
    if constexpr (is_spillable_v<Block>) {
      Slot& s = slots_[i];
      MemoryBuffer buf;
      save(buf, *s.block);
      store().put(key(s.gid), std::move(buf.bytes()));
      s.block.reset();
      --resident_;
    }
  }

  void load(std::size_t i) {
    if constexpr (is_spillable_v<Block>) {
      if (limited()) shrink(limit_ - 1);  // room for block i (blocks in use stay)
      Slot& s = slots_[i];
      MemoryBuffer buf;
      buf.bytes() = store().take(key(s.gid));
      s.prefetched = false;
      auto block = std::make_unique<Block>();
      dash::bp::load(buf, *block);
      store().recycle(std::move(buf.bytes()));
      s.block = std::move(block);
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
  std::uint64_t clock_ = 0;
  std::unique_ptr<SpillStore> store_;
};

}  // namespace detail
}  // namespace bp
}  // namespace dash

#endif  // DASH__BLOCKS__RESIDENCY_H_
