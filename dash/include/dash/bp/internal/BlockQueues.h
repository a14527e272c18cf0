// dash::bp::internal::BlockQueues: the block registry of a Master and its
// blocks' message queues (not public). Knows no block type: the transports
// (Exchange.h, IExchange.h) and the collectives over blocks move queues
// through it, Master<Block> runs the blocks.
//
//   registry   one Entry per block of the calling unit, in the order added:
//              gid, links, Proxy (its queues), iexchange's done/fresh marks;
//              gid -> entry index; owner(gid) -> team unit
//   delivery   deliver(from, to, ...) appends to block to's incoming queue
//              (an empty one swaps buffers: no copy)
//   residency  under a memory-block limit (QueueResidency: what it needs of
//              Residency<Block>), queues of blocks not in memory of at least
//              DASH_OOC_QUEUE_INLINE bytes wait in the store (SpilledQueues)
//              and come back when their block runs
//
// | call                               | cost                               |
// |------------------------------------|------------------------------------|
// | add, entry, entry_of, owner        | local, O(1) (owner: the rule's)    |
// | deliver                            | local: a swap or one copy          |
// | spill_*, restore_queues            | local; a put or take per part      |
// | check_targets, clear_*, drop_*     | local, O(queues)                   |
#ifndef DASH__BP__INTERNAL__BLOCK_QUEUES_H_
#define DASH__BP__INTERNAL__BLOCK_QUEUES_H_

#include <dash/Team.h>
#include <dash/bp/Proxy.h>
#include <dash/bp/SpillStore.h>
#include <dash/bp/internal/MessageTeam.h>
#include <dash/bp/internal/QueueResidency.h>
#include <dash/bp/internal/SpilledQueues.h>
#include <dash/internal/Failure.h>
#include <dash/internal/Flags.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace dash {
namespace bp {
namespace internal {

class BlockQueues {
 public:
  using owner_function = std::function<int(int gid)>;

  struct Entry {
    int gid;
    std::vector<int> link;
    std::unique_ptr<Proxy> proxy;
    bool done = false;   // iexchange: the last call returned true
    bool fresh = false;  // iexchange: messages arrived since the last call
  };

  // The queues of `team`'s blocks [0, nblocks), gid on unit owner(gid);
  // `residency` must outlive this object. Local.
  BlockQueues(Team& team, int nblocks, owner_function owner, QueueResidency& residency);
  BlockQueues(BlockQueues&&) = default;
  BlockQueues& operator=(BlockQueues&&) = default;

  // Adds block gid (of this unit) with its links; InvalidArgument for a gid
  // outside [0, nblocks), of another unit, or added before. Returns its
  // proxy. Local.
  Proxy& add(int gid, std::vector<int> link);
  // Replaces the links of entry i; InvalidArgument for a gid outside
  // [0, nblocks). Local.
  void set_link(std::size_t i, std::vector<int> link);

  int nblocks() const { return nblocks_; }
  std::size_t size() const { return entries_.size(); }
  Entry& entry(std::size_t i) { return *entries_[i]; }
  const Entry& entry(std::size_t i) const { return *entries_[i]; }
  int owner(int gid) const { return owner_(gid); }
  Team& team() const { return *team_; }
  int me() const { return me_; }
  // The entry index of block gid of this unit; InvalidArgument naming
  // `call` if it is not here. Local.
  std::size_t index_of(int gid, const char* call) const;
  // Whether block gid is one of this unit's. Local.
  bool holds(int gid) const { return index_.count(gid) != 0; }
  // The communicator of every message of the transports (message_team).
  dart_team_t message_team() const { return internal::message_team(*team_); }

  // Appends queue `buf` (from block `from`) to block `to`'s incoming queue;
  // an empty target queue swaps buffers with it (no copy; `buf` keeps the
  // target's old memory). Marks the target fresh. InvalidArgument naming
  // `call` if block to is not here. Local.
  void deliver(int from, int to, MemoryBuffer& buf, const char* call);
  // The same for n bytes at data (copied). Local.
  void deliver(int from, int to, const char* data, std::size_t n, const char* call);
  // Delivers and, when memory is short, sends the target's incoming queues
  // to the store if its block is not in memory. Local.
  void deliver_and_spill(int from, int to, const char* data, std::size_t n, const char* call);

  // Captures, as this unit's failure, the first enqueue to a gid outside
  // [0, nblocks) ("dash::bp::Master::<call>: ..."). Local.
  void check_targets(dash::internal::Failure& failure, const char* call);
  // Empties every queue (after a failure: nothing of the failed round
  // reaches a later one), those in storage too. Local.
  void drop_queues();
  // Empties every incoming queue, those in storage too. Local.
  void clear_incoming();
  // Empties every outgoing queue in memory. Local.
  void clear_outgoing();
  // Copies every enqueue_view array into its queue. Local.
  void materialize_views();

  // Whether this unit's blocks exceed its memory-block limit. Local.
  bool memory_short() const {
    return residency_->limited() && residency_->size() > residency_->limit();
  }
  // DASH_OOC_QUEUE_INLINE: queues below this stay in memory.
  std::size_t inline_bytes() const { return inline_bytes_; }
  void set_inline_bytes(std::size_t n) { inline_bytes_ = n; }
  // The queue parts in the store.
  SpilledQueues& spilled() { return spilled_; }
  QueueResidency& residency() { return *residency_; }

  // Under a limit: entry i's incoming queues go to the store if its block
  // is not in memory (and they hold at least inline_bytes()). Local.
  void spill_incoming(std::size_t i);
  // The same for every entry (after an exchange). Local.
  void spill_all_incoming();
  // Brings entry i's incoming queues back from the store. Local.
  void restore_queues(std::size_t i);
  // Forgets every incoming queue in the store. Local.
  void drop_spilled_incoming();
  // After entry i's foreach call: its views are copied in (the block may
  // leave memory) and, when memory is short, its outgoing queues of at least
  // inline_bytes() go to the store, for exchange() to send one at a time.
  // Local.
  void spill_outgoing(std::size_t i);
  // exchange(): the rest of every outgoing queue some of which is in the
  // store joins it there, so the whole queue travels in order. Local.
  void complete_outgoing_parts();
  // iexchange under a limit: the entries in memory first, then the evicted
  // ones by bytes waiting in their queues (most first). Local.
  void order_runnable(std::vector<std::size_t>& runnable);

 private:
  Team* team_;
  int nblocks_;
  int me_;
  owner_function owner_;
  QueueResidency* residency_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::unordered_map<int, std::size_t> index_;
  SpilledQueues spilled_;
  std::size_t inline_bytes_ =  // DASH_OOC_QUEUE_INLINE's default
      std::size_t(dash::internal::flag_spec(dash::internal::Flag::ooc_queue_inline).fallback);
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__BLOCK_QUEUES_H_
