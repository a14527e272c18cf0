// dash::bp::internal::ReduceRun: one run of dash::bp::reduce on the calling
// unit (not public; Reduce.h says what a reduction does and costs). This
// file holds the rounds: who is active, the calls of the blocks (loaded one
// at a time under a memory-block limit), early queues and storage out of
// core, failures carried to the end; internal/ReduceMessages.h holds the
// messages between units.
#ifndef DASH__BP__INTERNAL__REDUCE_RUN_H_
#define DASH__BP__INTERNAL__REDUCE_RUN_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/bp/Master.h>
#include <dash/bp/ReducePartners.h>
#include <dash/bp/ReduceProxy.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/internal/DirectArrays.h>
#include <dash/bp/internal/Polling.h>
#include <dash/bp/internal/StoredSends.h>
#include <dash/bp/internal/Wire.h>
#include <dash/internal/Failure.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

namespace internal {

// One run of a reduction on the calling unit; see reduce() above.
template <class Block, class Partners>
class ReduceRun {
 public:
  static constexpr int kTag = 30002;

  ReduceRun(Master<Block>& master, const Partners& partners)
      : master_(master),
        partners_(partners),
        team_(master.message_team()),
        me_(int(master.team().myid().id)),
        units_(int(master.team().size())),
        arrays_(team_) {}
  // Erases the queues of this run still in the master's store (after an
  // exception; a finished run left none). Local.
  ~ReduceRun() {
    for (Slot& slot : slots_) {
      for (InQueue& q : slot.proxy.in_) erase_spilled(q);
      for (InQueue& q : slot.next_queues) erase_spilled(q);
      for (OutQueue& q : slot.proxy.out_) erase_spilled(q);
    }
  }

  template <class F, class Route, class UsesBlock>
  void run(F& f, Route& route, UsesBlock& uses_block) {
    if (partners_.nblocks() != master_.nblocks())
      throw exception::InvalidArgument("dash::bp::reduce: the partners cover " +
                                       std::to_string(partners_.nblocks()) +
                                       " blocks, the master " + std::to_string(master_.nblocks()));
    set_up();
    if (std::exception_ptr held = master_.take_held()) {
      failure_.capture(held, "unit " + std::to_string(me_) + ", foreach before the reduction");
      fail(kRuntimeError, failure_.own_message());
    }
    const int rounds = partners_.rounds();
    for (int r = 0;; ++r) {
      if (r < rounds) prepare_next(r);
      if (uses_block(r))
        call(r, f);
      else
        call_without_blocks(r, route);
      drop_unread();
      if (r == rounds) break;
      exchange(r);
    }
    dash::internal::agree(failure_, team_, "dash::bp::reduce");
    if (failed())  // heard of a failure that no unit owns: cannot happen
      throw exception::RuntimeError("dash::bp::reduce: " + error_text_);
  }

 private:
  enum : std::int64_t { kNoError = 0, kInvalidArgument = 1, kRuntimeError = 2 };
  static constexpr std::size_t kNotAdded = ~std::size_t(0);
  using InQueue = ReduceProxy::InQueue;
  using OutQueue = ReduceProxy::OutQueue;

  // Messages from one unit to another in one round: first the packed one,
  // records (Wire.h) that start with {kRoundMark, round, -early queues} and
  // then hold either a failure notice {kFailureNotice, kind, n} and its text,
  // or the queues: in the message, or announced there and sent after it in
  // record order: enqueue_view arrays and queues of wire::kDirectBytes or
  // more in pieces (DirectArrays, received when read); stored queues, with a
  // part mark, after all others, each a message of its own.
  // Out of core, an outgoing queue to another unit goes straight there after its block's call
  // (an early queue) instead of to storage and back: its bytes then a record header
  // {from, to, round} (Wire.h; at the end, so the queue's buffer is the message), a
  // synchronous send with a tag of its round, kEarlyTag + round (a unit may be rounds ahead
  // of one it has no queues with; with kEarlyTags rounds or more, queues are spilled instead);
  // a call first waits until the early queues of the calls before are matched but for its own
  // size (send_early). The receiver takes them between its block calls and in the exchange
  // (for a block not in memory: to storage), so each crosses the storage once.
  static constexpr int kEarlyTag = 30006;
  static constexpr int kEarlyTags = 2048;  // tags up to 32053 (MPI promises 32767)
  // One block of the calling unit (every gid it owns, added or not).
  struct Slot {
    int gid;
    std::size_t index;  // the master's entry; kNotAdded: not added (an error)
    bool active = false, next_active = false;
    ReduceProxy proxy;
    std::vector<int> next_in;  // in_link of the next call
    std::vector<InQueue> next_queues;
    std::vector<char> arrived;
  };
  struct Piece {
    int from, to;
    OutQueue queue;
  };
  // A message after a packed one: an enqueue_view array or a large queue
  // (sent from its memory) or a spilled queue (loaded from the store in its
  // turn).
  struct Follow {
    int dest;
    const char* data;  // the bytes in memory
    std::size_t nbytes;
    bool spilled;
    std::uint64_t key;  // the spilled queue's
  };
  // A stored queue announced in a packed message, to come as a message of its own.
  struct Expected {
    int from, to;
    std::size_t nbytes;
  };
  // A queue's part announced in a packed message, to come in pieces (DirectArrays).
  struct Direct {
    int unit;
    std::size_t nbytes, residue;
  };
  // What this unit still expects from one unit in a round: the packed
  // message, then the stored queues it announces.
  struct Source {
    int unit = -1;
    bool packed = false;
    std::vector<Expected> follow;
    std::size_t next = 0;
    std::int64_t early = 0;  // early queues its packed message announced
    // Whether everything it sent this round is in (`early_received` of its early queues).
    bool done(std::int64_t early_received) const {
      return packed && next == follow.size() && early == early_received;
    }
  };
  // The store key of the queue (from -> to) of call `round` under a
  // memory-block limit: the top bit, the call's parity, and the two gids
  // (31 bits each). Queues of the call before with the same gids are gone
  // by then; the master's own keys are below 2^41.
  static std::uint64_t queue_key(int round, int from, int to) {
    return (std::uint64_t(1) << 63) | (std::uint64_t(round & 1) << 62) |
           (std::uint64_t(std::uint32_t(from)) << 31) | std::uint64_t(std::uint32_t(to));
  }
  SpillStore& queue_store() { return master_.residency_->extra_store(); }
  // Whether this unit's blocks exceed its memory-block limit: then queues
  // of at least DASH_OOC_QUEUE_INLINE bytes go to the store. Local.
  bool memory_short() const {
    const auto& r = *master_.residency_;
    return r.limited() && r.size() > r.limit();
  }
  template <class Queue>
  void erase_spilled(Queue& q) noexcept {
    if (!q.spilled) return;
    q.spilled = false;
    try {
      queue_store().erase(q.key);
    } catch (...) {  // erase removes a file: nothing to report
    }
  }

  bool failed() const { return error_kind_ != kNoError; }
  // Records an error this unit heard of (or its own): the calls stop and
  // the later rounds carry it on. Local.
  void fail(std::int64_t kind, std::string text) {
    if (failed()) return;
    error_kind_ = kind;
    error_text_ = std::move(text);
  }
  // An error the reduction found on this unit: this unit's own failure.
  void fail_own(std::int64_t kind, const std::string& text) {
    const std::string what = "dash::bp::reduce: " + text;
    if (kind == kInvalidArgument)
      failure_.capture(std::make_exception_ptr(exception::InvalidArgument(what)));
    else
      failure_.capture(std::make_exception_ptr(exception::RuntimeError(what)));
    fail(kind, text);
  }
  std::string where(int gid, int round) const {
    return "block " + std::to_string(gid) + " in round " + std::to_string(round);
  }
  static std::string inconsistent() { return " (do all units use the same partners and owners?)"; }

  void set_up() {
    std::vector<std::pair<int, std::size_t>> added(master_.size());
    for (std::size_t i = 0; i < master_.size(); ++i) added[i] = {master_.gid(i), i};
    std::sort(added.begin(), added.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (int gid = 0; gid < master_.nblocks(); ++gid) {
      const int owner = master_.owner(gid);
      if (owner < 0 || owner >= units_)  // found on every unit alike: no one waits
        throw exception::InvalidArgument("dash::bp::reduce: owner(" + std::to_string(gid) +
                                         ") = " + std::to_string(owner) + ", not a unit of " +
                                         std::to_string(units_));
      if (owner != me_) continue;
      auto it = std::lower_bound(added.begin(), added.end(), gid,
                                 [](const auto& a, int g) { return a.first < g; });
      Slot slot;
      slot.gid = gid;
      slot.index = it != added.end() && it->first == gid ? it->second : kNotAdded;
      if (slot.index == kNotAdded)
        fail_own(kInvalidArgument, "block " + std::to_string(gid) + " belongs to unit " +
                                       std::to_string(me_) + " but was not added to its master");
      slot.active = partners_.active(0, gid);
      ReduceProxy& p = slot.proxy;
      p.gid_ = gid;
      p.arrays_ = &arrays_;
      p.round_ = 0;
      partners_.incoming(0, gid, p.in_link_);
      partners_.outgoing(0, gid, p.out_link_);
      p.in_.resize(p.in_link_.size());
      p.out_.resize(p.out_link_.size());
      slots_.push_back(std::move(slot));
    }
  }

  Slot* find_slot(int gid) {
    auto it = std::lower_bound(slots_.begin(), slots_.end(), gid,
                               [](const Slot& s, int g) { return s.gid < g; });
    return it != slots_.end() && it->gid == gid ? &*it : nullptr;
  }

  // Calls f on the active blocks, unless this unit has failed. Under a
  // memory-block limit the blocks are loaded one at a time (the next active
  // one prefetched), and a block's enqueue_view arrays are copied into their
  // queues before another block may evict it.
  template <class F>
  void call(int round, F& f) {
    auto& residency = *master_.residency_;
    // The active slots; under a limit those whose blocks are in memory first
    // (left there by the previous call, or by the pass before the
    // reduction), so they are not evicted and loaded again.
    std::vector<std::size_t>& order = order_;
    order.clear();
    for (std::size_t k = 0; k < slots_.size(); ++k)
      if (slots_[k].active) order.push_back(k);
    if (residency.limited())
      std::stable_partition(order.begin(), order.end(),
                            [&](std::size_t k) { return residency.resident(slots_[k].index); });
    for (std::size_t at = 0; at < order.size(); ++at) {
      Slot& slot = slots_[order[at]];
      if (failed()) continue;
      try {
        Block& block = residency.acquire(slot.index);
        struct Release {
          internal::Residency<Block>& r;
          std::size_t i;
          ~Release() { r.release(i); }
        } release{residency, slot.index};
        if (residency.limited()) {
          restore_queues(slot);
          if (at + 1 < order.size()) {
            const Slot& next = slots_[order[at + 1]];
            residency.prefetch(next.index);
            for (const InQueue& q : next.proxy.in_)
              if (q.spilled) queue_store().prefetch(q.key);
          }
        }
        f(block, slot.proxy);
        after_call(round, slot);
      } catch (...) {
        failed_call(round, slot);
      }
      receive_early(round);
    }
  }

  // Calls route(proxy) for the active blocks (not touching them), unless
  // this unit has failed; the queues' memory as in call().
  template <class Route>
  void call_without_blocks(int round, Route& route) {
    for (Slot& slot : slots_) {
      if (!slot.active || failed()) continue;
      try {
        if (master_.residency_->limited()) restore_queues(slot);
        route(slot.proxy);
        after_call(round, slot);
      } catch (...) {
        failed_call(round, slot);
      }
      receive_early(round);
    }
  }

  // Keeps the exception being handled as this unit's failure in the call of
  // slot's block in `round` (InvalidArgument stays one on every unit). Call
  // inside a catch block.
  void failed_call(int round, const Slot& slot) {
    failure_.capture(where(slot.gid, round));
    try {
      throw;
    } catch (const exception::InvalidArgument&) {
      fail(kInvalidArgument, failure_.own_message());
    } catch (...) {
      fail(kRuntimeError, failure_.own_message());
    }
  }

  // After a call: what it read is done with (dequeue_view's elements were
  // valid until it returned): its memory goes now, not after the round, so
  // a round holds the queues of one block at a time; under a limit its
  // enqueue_view arrays are copied into their queues (another block may
  // evict this one) and, when memory is short, its big queues go to storage.
  void after_call(int round, Slot& slot) {
    for (InQueue& q : slot.proxy.in_) {
      arrays_.drop(q);
      q = InQueue();
    }
    slot.proxy.clear_view_copies();
    if (master_.residency_->limited()) slot.proxy.copy_views();
    if (memory_short()) {
      if (round < partners_.rounds() && partners_.rounds() < kEarlyTags) send_early(round, slot);
      spill_outgoing(round, slot);
    }
  }

  // When memory is short: the block's outgoing queues of at least DASH_OOC_QUEUE_INLINE bytes
  // to other units go there now (synchronous sends), once at most as many bytes as they hold
  // are still in flight: the early queues of the calls before must have been matched but for
  // that much (taking this unit's own early queues meanwhile, so two units waiting for each
  // other both go on). So about two calls' queues are in flight at most. Local (starts sends;
  // may wait for other units' next poll).
  void send_early(int round, Slot& slot) {
    if (failed()) return;
    ReduceProxy& p = slot.proxy;
    auto eligible = [&](std::size_t j) {
      const OutQueue& q = p.out_[j];
      const std::size_t n = q.bytes.size();
      return q.view_bytes == 0 && n > 0 && n >= master_.queues_.inline_bytes() &&
             master_.owner(p.out_link_[j]) != me_;
    };
    std::size_t bytes = 0;
    for (std::size_t j = 0; j < p.out_.size(); ++j)
      if (eligible(j)) bytes += p.out_[j].bytes.size();
    if (bytes == 0) return;
    auto retire = [&] {
      return early_flight_.retire([&](Bytes&& b) { early_bytes_ -= b.size(); });
    };
    retire();
    if (early_bytes_ > bytes) {
      IdleWait idle("dash::bp::reduce", team_);
      for (;;) {
        bool progress = retire();
        if (early_bytes_ <= bytes) break;
        progress |= receive_early(round);
        idle.after_poll(progress);
      }
    }
    for (std::size_t j = 0; j < p.out_.size(); ++j) {
      if (!eligible(j)) continue;
      OutQueue& q = p.out_[j];
      const int to = p.out_link_[j];
      const int dest = master_.owner(to);
      wire::write_header(q.bytes, slot.gid, to, round);
      early_bytes_ += q.bytes.size();
      early_flight_.send(std::move(q.bytes.bytes()), dest, kEarlyTag + round, team_, true);
      q.bytes = MemoryBuffer();
      q.early = true;
      ++early_sent_[dest];
    }
  }

  // After the calls of a round: the queue parts no call read are received and dropped (their
  // senders wait for that). Local.
  void drop_unread() {
    try {
      arrays_.drop_all();
    } catch (const std::exception& e) {
      fail_own(kRuntimeError, e.what());
    }
  }

  // Receives the early queues of `round` that are there (from any unit) and delivers them.
  // Returns whether there were any. Local.
  bool receive_early(int round) {
    bool any = false;
    for (;;) {
      std::int32_t found = 0;
      dart_message_t message;
      dart_team_unit_t from;
      std::size_t nbytes = 0;
      dash::check_dart(dart_improbe(kEarlyTag + round, DART_UNDEFINED_TEAM_UNIT_ID, team_, &found,
                                    &message, &from, &nbytes),
                       "dart_improbe");
      if (!found) return any;
      any = true;
      InQueue in;
      in.bytes.bytes().resize(nbytes);
      dash::check_dart(dart_mrecv(in.bytes.bytes().data(), nbytes, &message), "dart_mrecv");
      ++early_received_[int(from.id)];
      wire::Header t{-1, -1, -1};
      if (nbytes >= wire::kHeaderBytes) t = wire::read_header(in.bytes.data() + nbytes - sizeof t);
      if (t.n != round || t.from < 0 || t.to < 0) {
        fail_own(kRuntimeError, "a malformed early queue from unit " + std::to_string(from.id));
        continue;
      }
      in.bytes.bytes().resize(nbytes - sizeof t);
      deliver(round, int(t.from), int(t.to), std::move(in));
    }
  }

  // Under a memory-block limit: the block's spilled incoming queues come
  // back before its call. Local (reads the store).
  void restore_queues(Slot& slot) {
    for (InQueue& q : slot.proxy.in_) {
      if (!q.spilled) continue;
      q.bytes = MemoryBuffer();
      q.bytes.bytes() = queue_store().take(q.key);
      q.spilled = false;
    }
  }
  // When memory is short (memory_short): the block's outgoing queues of at
  // least DASH_OOC_QUEUE_INLINE bytes go to the store after its call, to be
  // sent a few at a time. Local.
  void spill_outgoing(int round, Slot& slot) {
    ReduceProxy& p = slot.proxy;
    for (std::size_t j = 0; j < p.out_.size(); ++j) {
      OutQueue& q = p.out_[j];
      const std::size_t n = q.bytes.size();
      if (q.view_bytes > 0 || n == 0 || n < master_.queues_.inline_bytes()) continue;
      q.key = queue_key(round, slot.gid, p.out_link_[j]);
      queue_store().put(q.key, std::move(q.bytes.bytes()));
      q.bytes = MemoryBuffer();
      q.spilled = true;
      q.spilled_bytes = n;
    }
  }
  // When memory is short (memory_short): an incoming queue of at least
  // DASH_OOC_QUEUE_INLINE bytes for a block not in memory goes to the
  // store until the block's call. Local.
  void spill_incoming(const Slot& slot, int round, int from, InQueue& q) {
    if (!memory_short() || q.spilled || master_.residency_->resident(slot.index)) return;
    const std::size_t n = q.bytes.size();
    if (n == 0 || n < master_.queues_.inline_bytes()) return;
    q.key = queue_key(round, from, slot.gid);
    queue_store().put(q.key, std::move(q.bytes.bytes()));
    q.bytes = MemoryBuffer();
    q.spilled = true;
  }

  // Before call `round` (< rounds): where the queues of the call go, the in_links of call
  // round + 1, so that early queues can be delivered while the calls go on. Local.
  void prepare_next(int round) {
    for (Slot& slot : slots_) {
      slot.next_active = partners_.active(round + 1, slot.gid);
      partners_.incoming(round + 1, slot.gid, slot.next_in);
      if (!slot.next_active) slot.next_in.clear();
      slot.next_queues.clear();
      slot.next_queues.resize(slot.next_in.size());
      slot.arrived.assign(slot.next_in.size(), 0);
    }
    early_sent_.clear();
    early_received_.clear();
  }

  // Moves the queues of call `round` to the in-queues of call round + 1:
  //   links of the next call (in_link: where queues must come from)
  //   local queues: moved (arrays copied, spilled ones stay in the store);
  //     remote ones: per unit, one packed message (isend), then the pieces
  //     of every array and large queue (DirectArrays::send, from its memory)
  //     and per spilled queue a message (StoredSends: loaded and sent two
  //     at a time)
  //   until every expected message is in: for each unit owning a block of
  //     a next in_link, improbe + mrecv its packed message, then the stored
  //     queues it announces; unpack, deliver (arrays and large queues are
  //     announced to arrays_, received when read; under a limit, at once, and
  //     queues of blocks not in memory go to the store); meanwhile the
  //     sends go on, so no unit waits for another that waits for it
  //   wait for this unit's sends, receiving other units' pieces meanwhile
  //   check that every expected queue arrived
  //   the next call's links and queues become the proxies'
  void exchange(int round);

  // Receives the next stored queue a packed one announced and delivers it. A message of 0 bytes
  // where more were announced: the sender failed (it says so itself at the end). Local.
  void receive_follow(int round, Source& source, dart_message_t& message, std::size_t nbytes);

  void send(const char* data, std::size_t nbytes, int dest, std::vector<dart_handle_t>& sends);

  // An outgoing queue as its target on this unit reads it (arrays copied:
  // the caller's memory may change before the target's call; a spilled
  // queue stays in the store under its key).
  static InQueue local_copy(OutQueue&& out);

  // Puts queue (from -> to) where call round + 1 of `to` reads it (under a
  // memory-block limit, in the store if `to` is not in memory); `direct`: a part of it still
  // to come (received when read; under a limit, now).
  void deliver(int round, int from, int to, InQueue&& queue, const Direct* direct = nullptr);

  // The packed message carrying `pieces` (or this unit's error) to unit
  // `dest`; the queues to send after it are appended to `follows` in record
  // order.
  MemoryBuffer pack(int round, int dest, std::vector<Piece>& pieces, std::vector<Follow>& follows);

  // Hands the queues in a packed message from unit `source` to their
  // blocks; those it announces go to `follow`, in record order.
  void unpack(int round, int source, const MemoryBuffer& message, std::vector<Expected>& follow,
              std::int64_t& early);

  Master<Block>& master_;
  const Partners& partners_;
  dart_team_t team_;
  int me_, units_;
  std::vector<Slot> slots_;             // in increasing gid
  std::vector<std::size_t> order_;      // call(): the slots of a call, in the order they run
  MemoryBuffer packed_in_;              // exchange(): a packed message received
  std::int64_t error_kind_ = kNoError;  // what the rounds carry on
  std::string error_text_;
  SendsInFlight early_flight_;                  // early queues not yet matched
  std::size_t early_bytes_ = 0;                 // their bytes
  std::map<int, std::int64_t> early_sent_;      // this round, by destination unit
  std::map<int, std::int64_t> early_received_;  // this round, by source unit
  dash::internal::Failure failure_;             // this unit's own failure
  DirectArrays arrays_;                         // queue parts received when read
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#include <dash/bp/internal/ReduceMessages.h>  // the messages' members

#endif  // DASH__BP__INTERNAL__REDUCE_RUN_H_
