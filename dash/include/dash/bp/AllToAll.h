// dash::bp::all_to_all: every block sends to any blocks, in k-ary rounds
// of a swap reduction (DIY2's all-to-all), so each unit talks to at most
// k - 1 partners per round instead of every unit at once.
//
//   dash::bp::all_to_all(master, [](Cell& c, dash::bp::AllToAllProxy& ap) {
//     if (ap.sending()) {                       // first call: send
//       for (const Item& item : c.items) ap.enqueue(owner_of(item), item);
//       c.items.clear();
//       return;
//     }
//     for (int from : ap.incoming_from())       // last call: receive
//       while (ap.incoming(from) > 0) {
//         Item item;
//         ap.dequeue(from, item);
//         c.items.push_back(item);
//       }
//   }, 4);
//
// f(block, proxy) runs twice on every block: once sending (enqueue to any
// gid in [0, nblocks)), once receiving, after the rounds: incoming_from()
// lists the blocks that enqueued to this one (in increasing gid, itself
// included if it did), and each queue reads back in the order it was
// filled. Between the two calls, the queues travel as records (Wire.h: source,
// target, bytes) through the rounds of RegularSwapPartners over the gids:
// round r hands each record to the member of the block's group whose digit
// r (mixed radix of the group sizes, lowest first) is the target's, so
// after the last round every record is at its target. Out of core (a
// memory-block limit), the record arrays become the reduction's queues and
// go to storage as they do (Reduce.h: those to another unit are sent right
// after the call instead); the blocks are loaded for the two calls of f
// only, those still in memory from the pass before first, and the groups
// are of at least min(nblocks, 8) blocks, more for blocks of MiBs (fewer
// rounds through storage; see all_to_all_out_of_core_group).
// Failures as in reduce: thrown on every unit.
//
// | call              | cost                                                     |
// |-------------------|----------------------------------------------------------|
// | all_to_all        | collective over master.team(); one allreduce, then       |
// |                   | log_k(nblocks) rounds of reduce (out of core k >= 8),    |
// |                   | each record copied once per round (one array per group   |
// |                   | member, sent without a further copy)                     |
// | enqueue / dequeue | local; one copy of the value's bytes                     |
// | enqueue_view,     | local; no copy (the array is copied once into the first  |
// | dequeue_view      | round's record; read in place)                           |
#ifndef DASH__BP__ALL_TO_ALL_H_
#define DASH__BP__ALL_TO_ALL_H_

#include <dash/Exception.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <dash/bp/Reduce.h>
#include <dash/bp/ReducePartners.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/internal/ByteMemory.h>
#include <dash/bp/internal/QueueFront.h>
#include <dash/bp/internal/Wire.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

template <class Block, class F>
void all_to_all(Master<Block>& master, F&& f, int k = 2);

namespace internal {

// The memory of the block calls' queues in one all_to_all, handed from one call to the next
// (a buffer that held a queue to one block holds the next call's queue to another): no fresh
// pages per call. Holds what the calls gave back and later calls did not take again: about
// one sending call's and one receiving call's queues (reduce calls the blocks one at a time),
// which saved time against fresh memory per call (figures:
// bench/results/design_measurements.md#all_to_all-the-queue-pool-keeps-about-two-calls-queues).
// Local.
class AllToAllQueuePool {
 public:
  // A kept buffer (empty, its capacity kept), or an empty one.
  Bytes take() {
    if (spare_.empty()) return Bytes();
    Bytes b = std::move(spare_.back());
    spare_.pop_back();
    return b;
  }
  // Keeps the buffer's memory for a later take.
  void give(Bytes&& b) {
    if (b.capacity() == 0) return;
    b.clear();
    spare_.push_back(std::move(b));
  }

 private:
  std::vector<Bytes> spare_;
};

}  // namespace internal

// A block's view of all_to_all: its queues to every block (sending call)
// or from every block that sent to it (receiving call).
class AllToAllProxy : public internal::QueueFront<AllToAllProxy> {
 public:
  AllToAllProxy(int gid, int nblocks, bool sending)
      : gid_(gid), nblocks_(nblocks), sending_(sending) {}
  AllToAllProxy(const AllToAllProxy&) = delete;  // one per block call (it points into itself)
  AllToAllProxy& operator=(const AllToAllProxy&) = delete;
  int gid() const { return gid_; }
  int nblocks() const { return nblocks_; }
  // True in the first call (enqueue), false in the last one (dequeue). Local.
  bool sending() const { return sending_; }

  // enqueue(to, value), enqueue(to, data, n): append to the queue to block
  // `to`; InvalidArgument if `to` is outside [0, nblocks) or this is the
  // receiving call (internal/QueueFront.h). Local; one copy.
  //
  // enqueue_view(to, data, n): the same without copying the elements into
  // the queue: they are copied once, into the first round's record, right
  // after the sending call returns (enqueue copies twice). The memory must
  // stay valid and unchanged until then: the call must not free it (e.g.
  // clear the items in the receiving call instead). More enqueued to `to`
  // afterwards copies the elements into the queue first. Local; no copy.
  //
  // dequeue(from, value), dequeue_view<T>(from): read the next value of the
  // queue from `from` (the view in place, valid until the receiving call
  // returns; a copy into this proxy's scratch memory, valid until its next
  // dequeue_view, when misaligned for T); InvalidArgument if it has none
  // left, or in the sending call. incoming(from): bytes left in the queue
  // from `from` (0 if none). Local.

  // The blocks that enqueued to this one, in increasing gid. Local.
  std::vector<int> incoming_from() const {
    std::vector<int> from;
    from.reserve(in_.size());
    for (const auto& [gid, q] : in_)
      if (q.remaining() > 0) from.push_back(gid);
    return from;
  }

 private:
  template <class B, class G>
  friend void all_to_all(Master<B>&, G&&, int);
  friend class internal::QueueFront<AllToAllProxy>;
  static constexpr const char* kName = "dash::bp::AllToAllProxy";
  static constexpr bool kKeepViewCopies = false;

  // The queue to `to` (an earlier array to `to` copied in first).
  internal::OutQueue& out_queue(int to, const char* call) {
    if (to == last_to_) {  // the same target as the call before (a record's fields, say)
      materialize(*last_);
      return *last_;
    }
    if (!sending_ || to < 0 || to >= nblocks_)
      throw exception::InvalidArgument(
          std::string(kName) + "::" + call + ": block " + std::to_string(gid_) +
          (sending_ ? " enqueued to gid " + std::to_string(to) + ", outside [0, " +
                          std::to_string(nblocks_) + ")"
                    : " is receiving (enqueue in the sending call)"));
    auto [at, fresh] = out_.try_emplace(to);
    if (fresh && pool_ != nullptr) at->second.bytes.bytes() = pool_->take();
    materialize(at->second);
    last_to_ = to;
    last_ = &at->second;  // a map's elements stay where they are
    return at->second;
  }
  MemoryBuffer* find_in(int from) const {
    auto it = in_.find(from);
    return sending_ || it == in_.end() ? nullptr : const_cast<MemoryBuffer*>(&it->second);
  }
  [[noreturn]] void no_queue(int from, const char* call) const {
    throw exception::InvalidArgument(
        std::string(kName) + "::" + call + ": block " + std::to_string(gid_) +
        (sending_ ? " is sending (dequeue in the receiving call)"
                  : " has no queue from block " + std::to_string(from)));
  }
  // The queue from block `from` (made, with memory of the pool, if new).
  MemoryBuffer& received_queue(int from) {
    auto [at, fresh] = in_.try_emplace(from);
    if (fresh && pool_ != nullptr) at->second.bytes() = pool_->take();
    return at->second;
  }
  // Gives the queues' memory to the pool (after their bytes were passed on or read).
  void recycle_queues() {
    if (pool_ == nullptr) return;
    for (auto& [gid, q] : out_) pool_->give(std::move(q.bytes.bytes()));
    for (auto& [gid, q] : in_) pool_->give(std::move(q.bytes()));
  }

  int gid_, nblocks_;
  bool sending_;
  internal::AllToAllQueuePool* pool_ = nullptr;  // where queues take memory from, if set
  std::map<int, internal::OutQueue> out_;        // sending: the queues to each target
  int last_to_ = -1;                             // the target out_queue found last, and its queue
  internal::OutQueue* last_ = nullptr;
  std::map<int, MemoryBuffer> in_;  // receiving: those from each source
};

namespace internal {

// all_to_all's group size out of core, at least: every round takes every record through
// storage, so fewer rounds move fewer bytes, but each call of a round sends one array per group
// member, and arrays below the library's mapping size (internal::kMapBytes, 128 KiB) come from
// malloc, whose heap keeps their memory. So the groups are as large as keeps a block's
// records, in arrays of at least that size, for the largest block stored on any unit (a power
// of two), at least 8 and at most all blocks: chosen because one round was faster and no
// larger for 4 MiB blocks, while for 1 MiB blocks it was faster but held more memory
// (figures: bench/results/design_measurements.md#all_to_all-group-size-out-of-core).
inline constexpr int kAllToAllOutOfCoreGroup = 8;
inline int all_to_all_out_of_core_group(int nblocks, std::uint64_t largest_block_bytes) {
  std::uint64_t k = kAllToAllOutOfCoreGroup;
  while (k < std::uint64_t(nblocks) && 2 * k * kMapBytes <= largest_block_bytes) k *= 2;
  return int(std::min<std::uint64_t>(k, std::uint64_t(nblocks)));
}

// The index in `group` (a round's out_link, in increasing gid) of the member a record
// for `target` goes to: the one whose digit of the round is the target's
// (`step`: the product of the group sizes of the rounds before). Local.
inline std::size_t all_to_all_next(const std::vector<int>& group, std::uint64_t step, int target) {
  return std::size_t(std::uint64_t(target) / step % group.size());
}

}  // namespace internal

// Calls f(block, AllToAllProxy&) on every block of the master twice, first
// sending, then receiving what every block sent to it, moving the queues
// in k-ary swap rounds (k >= 2, else InvalidArgument on every unit); under a
// memory-block limit on any unit in groups of at least min(nblocks, 8), more
// for blocks of MiBs (every round moves every record through storage).
// Collective over master.team(); every unit must call it (one allreduce of
// two integers, then the rounds).
//
// Each round a block sends every member of its group that has records one
// byte array of them, sized before it is filled and read in place: to a
// block of another unit in memory by enqueue_view (no pack or unpack copy;
// the array kept for the block until its next call, when the round's
// exchange is over), else the buffer itself (enqueue_buffer: delivered on
// this unit or written to storage without a copy). The block calls' queues
// reuse one another's memory.
template <class Block, class F>
void all_to_all(Master<Block>& master, F&& f, int k) {
  const int nb = master.nblocks();
  internal::checked_group_limit(k, "dash::bp::all_to_all");
  // Out of core (a memory-block limit on any unit): fewer, larger groups.
  unsigned long long mine[2] = {master.limit() > 0 ? 1ull : 0ull, master.largest_stored_block()},
                     all[2] = {0, 0};
  dash::check_dart(
      dart_allreduce(mine, all, 2, DART_TYPE_ULONGLONG, DART_OP_MAX, master.message_team()),
      "dart_allreduce");
  if (all[0] != 0) k = std::max(k, internal::all_to_all_out_of_core_group(nb, all[1]));
  RegularDecomposer<1> dec({{0}, {nb}}, nb);
  RegularSwapPartners<1> partners(dec, k);
  const int rounds = partners.rounds();
  std::vector<std::uint64_t> step(std::size_t(rounds) + 1, 1);
  for (int r = 0; r < rounds; ++r)
    step[std::size_t(r) + 1] = step[std::size_t(r)] * std::uint64_t(partners.size(r));
  const int me = int(master.team().myid().id);
  const bool limited = master.limit() > 0;
  internal::AllToAllQueuePool pool;  // the block calls' queue memory, reused call to call
  // Per block of this unit: the arrays it sent this round by enqueue_view (to blocks of
  // other units, in memory), kept until its next call, when the round's exchange is over.
  std::map<int, std::vector<MemoryBuffer>> viewed;
  // A call of round r: the block's records (of f at round 0, received from the group
  // otherwise) go to the group member on their way, or at the last call to `received`.
  auto pass_on = [&](ReduceProxy& rp, AllToAllProxy* sent, AllToAllProxy* received) {
    const int r = rp.round();
    const std::vector<int>& group = rp.out_link();
    std::vector<QueueView<char>> arrays;  // the records received
    for (int from : rp.in_link())
      if (rp.incoming(from) > 0) arrays.push_back(rp.dequeue_view<char>(from));
    // g(target, source, bytes, n, tail, tail_n) on every record: n bytes at `bytes`, then
    // tail_n at `tail` (an enqueue_view array of the sending call).
    auto for_each_record = [&](auto&& g) {
      if (sent)
        for (auto& [to, q] : sent->out_)
          if (q.bytes.size() > 0)
            g(to, rp.gid(), q.bytes.data(), q.bytes.size(), q.view, q.view_bytes);
      for (const QueueView<char>& a : arrays)
        internal::wire::for_each_record(
            a.data(), a.size(), [&](const internal::wire::Header& h, const char* at) {
              g(int(h.to), int(h.from), at, std::size_t(h.n), nullptr, std::size_t(0));
            });
    };
    if (r == rounds) {
      viewed.erase(rp.gid());
      for_each_record([&](int target, int source, const char* bytes, std::size_t n,
                          const char* tail, std::size_t tail_n) {
        if (target != rp.gid())
          throw exception::RuntimeError("dash::bp::all_to_all: a record for block " +
                                        std::to_string(target) + " reached block " +
                                        std::to_string(rp.gid()));
        MemoryBuffer& q = received->received_queue(source);
        q.write(bytes, n);
        q.write(tail, tail_n);
      });
      return;
    }
    // One array per member, sized first: [uint64 count][records], as a std::vector<char>.
    const std::uint64_t below = step[std::size_t(r)];
    std::vector<std::size_t> need(group.size(), sizeof(std::uint64_t));
    for_each_record(
        [&](int target, int, const char*, std::size_t n, const char*, std::size_t tail_n) {
          need[internal::all_to_all_next(group, below, target)] +=
              internal::wire::kHeaderBytes + n + tail_n;
        });
    std::vector<MemoryBuffer> out(group.size());
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (need[j] == sizeof(std::uint64_t)) continue;  // nothing for this member
      out[j].bytes().reserve(need[j]);
      out[j].write_value(std::uint64_t(need[j] - sizeof(std::uint64_t)));
    }
    for_each_record([&](int target, int source, const char* bytes, std::size_t n, const char* tail,
                        std::size_t tail_n) {
      internal::wire::pack_queue(out[internal::all_to_all_next(group, below, target)], source,
                                 target, {bytes, n, tail, tail_n});
    });
    // To this unit, or under a limit (queues may go to storage): the buffer itself, no copy;
    // to another unit's block in memory: a view, sent from here without a copy.
    std::vector<MemoryBuffer>& kept = viewed[rp.gid()];  // sent last round: done with
    kept.clear();
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (out[j].size() == 0) continue;
      if (limited || master.owner(group[j]) == me) {
        rp.enqueue_buffer(group[j], std::move(out[j]));
      } else {
        kept.push_back(std::move(out[j]));
        const MemoryBuffer& a = kept.back();
        rp.enqueue_view(group[j], a.data() + sizeof(std::uint64_t),
                        a.size() - sizeof(std::uint64_t));
      }
    }
  };
  // The first call sends and the last receives; the calls between only pass records on,
  // and out of core do not load the blocks.
  auto call = [&](Block& b, ReduceProxy& rp) {
    const int r = rp.round();
    AllToAllProxy sent(rp.gid(), nb, true), received(rp.gid(), nb, false);
    sent.pool_ = received.pool_ = &pool;
    if (r == 0) f(b, sent);
    pass_on(rp, r == 0 ? &sent : nullptr, r == rounds ? &received : nullptr);
    sent.recycle_queues();
    if (r == rounds) {
      f(b, received);
      received.recycle_queues();
    }
  };
  auto route = [&](ReduceProxy& rp) { pass_on(rp, nullptr, nullptr); };
  reduce(master, partners, call, route, [rounds](int r) { return r == 0 || r == rounds; });
}

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__ALL_TO_ALL_H_
