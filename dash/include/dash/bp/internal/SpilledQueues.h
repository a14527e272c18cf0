// dash::bp::internal::SpilledQueues: the parts of a Master's queues that wait
// in its store under a memory-block limit (not public).
//
//   incoming: after an exchange, the queues of a block not in memory (at
//     least DASH_OOC_QUEUE_INLINE bytes) go to the store as one part; more
//     may follow in the same exchange; when the block runs they come back,
//     oldest in front, ahead of what arrived in memory since
//   outgoing: when the unit's blocks exceed the limit, a block's outgoing
//     queue of at least DASH_OOC_QUEUE_INLINE bytes goes to the store as
//     one part after the block's foreach call; exchange() sends the parts
//     of a (from, to) pair in order, one at a time
//
// Each part has a key of its own (kPartKeys + a counter), so adding one
// never reads or rewrites another.
//
// | call                        | cost                                     |
// |-----------------------------|------------------------------------------|
// | spill_incoming, add_outgoing| local; one put (written behind)          |
// | restore_incoming            | local; one take per part                 |
// | drop_*                      | local; one erase per part                |
#ifndef DASH__BP__INTERNAL__SPILLED_QUEUES_H_
#define DASH__BP__INTERNAL__SPILLED_QUEUES_H_

#include <dash/bp/Proxy.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/SpillStore.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace dash {
namespace bp {
namespace internal {

class SpilledQueues {
 public:
  // Keys of parts: above a block's gid and Residency::kExtraKeys + gid,
  // below the reductions' queue keys (top bit set).
  static constexpr std::uint64_t kPartKeys = std::uint64_t(1) << 41;

  // A part of the outgoing queue (from -> to) in the store.
  struct Part {
    int from, to;
    std::uint64_t key;
    std::size_t nbytes;
  };

  // Moves every incoming queue of entry i (proxy p) to the store as one
  // more part, if they hold at least `threshold` bytes (and any). Local.
  void spill_incoming(SpillStore& store, std::size_t i, Proxy& p, std::size_t threshold) {
    const std::size_t bytes = p.incoming_bytes();
    if (bytes == 0 || bytes < threshold) return;
    MemoryBuffer buf;
    p.move_incoming_to(buf);
    const std::uint64_t key = next_key();
    const std::size_t n = buf.size();
    store.put(key, std::move(buf.bytes()));
    if (incoming_.size() <= i) incoming_.resize(i + 1);
    incoming_[i].emplace_back(key, n);
  }
  // Brings entry i's parts back into proxy p, the newest first (each goes
  // in front of what is in memory), so the oldest ends up in front. Local.
  void restore_incoming(SpillStore& store, std::size_t i, Proxy& p) {
    if (i >= incoming_.size()) return;
    auto& parts = incoming_[i];
    while (!parts.empty()) {
      MemoryBuffer buf;
      buf.bytes() = store.take(parts.back().first);
      parts.pop_back();
      p.restore_incoming(buf);
      store.recycle(std::move(buf.bytes()));
    }
  }
  // Whether entry i (any entry: i = npos) has incoming parts. Local.
  bool has_incoming(std::size_t i) const {
    if (i != npos) return i < incoming_.size() && !incoming_[i].empty();
    for (const auto& parts : incoming_)
      if (!parts.empty()) return true;
    return false;
  }
  static constexpr std::size_t npos = ~std::size_t(0);
  // Bytes of entry i's incoming parts. Local.
  std::size_t incoming_bytes(std::size_t i) const {
    std::size_t n = 0;
    if (i < incoming_.size())
      for (const auto& part : incoming_[i]) n += part.second;
    return n;
  }
  // Forgets every incoming part (a new exchange, or a failure). Local.
  void drop_incoming(SpillStore& store) {
    for (auto& parts : incoming_) {
      for (const auto& part : parts) store.erase(part.first);
      parts.clear();
    }
  }

  // Moves outgoing queue (from -> to) to the store as one more part (it is
  // left empty). Local.
  void add_outgoing(SpillStore& store, int from, int to, MemoryBuffer& queue) {
    const std::uint64_t key = next_key();
    const std::size_t n = queue.size();
    store.put(key, std::move(queue.bytes()));
    queue = MemoryBuffer();
    outgoing_.push_back(Part{from, to, key, n});
  }
  // The outgoing parts, oldest first. Local.
  const std::vector<Part>& outgoing() const { return outgoing_; }
  // Forgets the outgoing parts' list (exchange() took them). Local.
  void clear_outgoing() { outgoing_.clear(); }
  // Drops every outgoing part (a failure). Local.
  void drop_outgoing(SpillStore& store) {
    for (const Part& part : outgoing_) store.erase(part.key);
    outgoing_.clear();
  }

 private:
  std::uint64_t next_key() { return kPartKeys + next_++; }

  std::vector<std::vector<std::pair<std::uint64_t, std::size_t>>> incoming_;  // per entry
  std::vector<Part> outgoing_;
  std::uint64_t next_ = 0;
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__SPILLED_QUEUES_H_
