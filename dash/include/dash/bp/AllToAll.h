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
// filled. Between the two calls, the queues travel as records (target,
// source, bytes) through the rounds of RegularSwapPartners over the gids:
// round r hands each record to the member of the block's group whose digit
// r (mixed radix of the group sizes, lowest first) is the target's, so
// after the last round every record is at its target. Out of core (a
// memory-block limit), the record arrays become the reduction's queues and
// go to storage as they do (Reduce.h); the blocks are loaded for the two
// calls of f only, those still in memory from the pass before first.
// Failures as in reduce: thrown on every unit.
//
// | call              | cost                                                     |
// |-------------------|----------------------------------------------------------|
// | all_to_all        | collective over master.team(); log_k(nblocks) rounds of  |
// |                   | reduce, each record copied once per round (one array per |
// |                   | group member, sent by enqueue_view)                      |
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

// A block's view of all_to_all: its queues to every block (sending call)
// or from every block that sent to it (receiving call).
class AllToAllProxy {
 public:
  AllToAllProxy(int gid, int nblocks, bool sending)
      : gid_(gid), nblocks_(nblocks), sending_(sending) {}
  int gid() const { return gid_; }
  int nblocks() const { return nblocks_; }
  // True in the first call (enqueue), false in the last one (dequeue). Local.
  bool sending() const { return sending_; }

  // Appends value to the queue to block `to`; InvalidArgument if `to` is
  // outside [0, nblocks) or this is the receiving call. Local; one copy.
  template <class T>
  void enqueue(int to, const T& value) {
    save(out_queue(to), value);
  }
  // Appends n elements at data as a std::vector<T> would be. Local; one copy.
  template <class T>
  void enqueue(int to, const T* data, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "enqueue(to, data, n) needs trivially copyable T");
    MemoryBuffer& q = out_queue(to);
    internal::save_count(q, n);
    q.write(data, n * sizeof(T));
  }
  // The same without copying the elements into the queue: they are copied
  // once, into the first round's record, right after the sending call
  // returns (enqueue copies twice). The memory must stay valid and
  // unchanged until then: the call must not free it (e.g. clear the items
  // in the receiving call instead). More enqueued to `to` afterwards copies
  // the elements into the queue first. InvalidArgument as enqueue, or if
  // n * sizeof(T) overflows. Local; no copy.
  template <class T>
  void enqueue_view(int to, const T* data, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>, "enqueue_view needs trivially copyable T");
    if (n > ~std::size_t(0) / 2 / sizeof(T))
      throw exception::InvalidArgument(
          "dash::bp::AllToAllProxy::enqueue_view: " + std::to_string(n) + " elements of " +
          std::to_string(sizeof(T)) + " bytes overflow the queue");
    internal::save_count(out_queue(to), n);
    if (n > 0) views_[to] = View{reinterpret_cast<const char*>(data), n * sizeof(T)};
  }

  // The blocks that enqueued to this one, in increasing gid. Local.
  std::vector<int> incoming_from() const {
    std::vector<int> from;
    from.reserve(queues_.size());
    for (const auto& [gid, q] : queues_)
      if (q.remaining() > 0) from.push_back(gid);
    return from;
  }
  // Bytes left in the queue from `from` (0 if none). Local.
  std::size_t incoming(int from) const {
    auto it = queues_.find(from);
    return sending_ || it == queues_.end() ? 0 : it->second.remaining();
  }
  // Reads the next value of the queue from `from`; InvalidArgument if it
  // has none left (or this is the sending call). Local; one copy.
  template <class T>
  void dequeue(int from, T& value) {
    auto it = queues_.find(from);
    if (sending_ || it == queues_.end())
      throw exception::InvalidArgument(
          "dash::bp::AllToAllProxy::dequeue: block " + std::to_string(gid_) +
          (sending_ ? " is sending (dequeue in the receiving call)"
                    : " has no queue from block " + std::to_string(from)));
    load(it->second, value);
  }
  // Reads the next std::vector<T> of the queue from `from` in place: the
  // elements stay in the queue (valid until the receiving call returns; a
  // copy into this proxy's scratch memory, valid until its next
  // dequeue_view, when the bytes are misaligned for T). Errors as dequeue.
  // Local; no copy.
  template <class T>
  QueueView<T> dequeue_view(int from) {
    static_assert(std::is_trivially_copyable_v<T>, "dequeue_view needs trivially copyable T");
    static_assert(alignof(T) <= alignof(std::max_align_t), "dequeue_view: T is over-aligned");
    auto it = queues_.find(from);
    if (sending_ || it == queues_.end())
      throw exception::InvalidArgument(
          "dash::bp::AllToAllProxy::dequeue_view: block " + std::to_string(gid_) +
          (sending_ ? " is sending (dequeue in the receiving call)"
                    : " has no queue from block " + std::to_string(from)));
    return internal::load_view<T>(it->second, scratch_);
  }

 private:
  template <class B, class G>
  friend void all_to_all(Master<B>&, G&&, int);

  MemoryBuffer& out_queue(int to) {
    if (!sending_ || to < 0 || to >= nblocks_)
      throw exception::InvalidArgument(
          "dash::bp::AllToAllProxy::enqueue: block " + std::to_string(gid_) +
          (sending_ ? " enqueued to gid " + std::to_string(to) + ", outside [0, " +
                          std::to_string(nblocks_) + ")"
                    : " is receiving (enqueue in the sending call)"));
    MemoryBuffer& q = queues_[to];
    if (!views_.empty()) {  // an earlier view to `to` goes into the queue first
      auto v = views_.find(to);
      if (v != views_.end()) {
        q.write(v->second.data, v->second.bytes);
        views_.erase(v);
      }
    }
    return q;
  }
  // The bytes of an enqueue_view array that follow a queue's own.
  struct View {
    const char* data = nullptr;
    std::size_t bytes = 0;
  };
  View view_of(int to) const {
    auto v = views_.find(to);
    return v == views_.end() ? View{} : v->second;
  }

  int gid_, nblocks_;
  bool sending_;
  // Sending: the queues to each target; receiving: those from each source.
  std::map<int, MemoryBuffer> queues_;
  std::map<int, View> views_;              // sending: arrays not copied into their queue
  std::vector<std::max_align_t> scratch_;  // dequeue_view of misaligned bytes
};

namespace detail {

// A record travelling through all_to_all's rounds, in a byte array:
// [int32 target][int32 source][uint64 n][n bytes].
struct AllToAllRecord {
  std::int32_t target, source;
  std::uint64_t bytes;
};

// Appends a record to `to`: n bytes at `bytes`, then tail_n at `tail`.
// Local; one copy of the bytes.
inline void append_record(MemoryBuffer& to, int target, int source, const char* bytes,
                          std::size_t n, const char* tail = nullptr, std::size_t tail_n = 0) {
  const AllToAllRecord head{target, source, n + tail_n};
  to.write(&head, sizeof head);
  to.write(bytes, n);
  to.write(tail, tail_n);
}

// Calls f(head, bytes) on every record of a byte array. Local.
template <class F>
void for_each_record(const char* at, std::size_t n, F&& f) {
  std::size_t pos = 0;
  while (pos + sizeof(AllToAllRecord) <= n) {
    AllToAllRecord head;
    std::memcpy(&head, at + pos, sizeof head);
    pos += sizeof head;
    if (head.bytes > n - pos)
      throw exception::RuntimeError("dash::bp::all_to_all: a record overruns its message");
    f(head, at + pos);
    pos += std::size_t(head.bytes);
  }
}

// The index in `group` (a round's out_link, in increasing gid) of the member a record
// for `target` goes to: the one whose digit of the round is the target's
// (`step`: the product of the group sizes of the rounds before). Local.
inline std::size_t all_to_all_next(const std::vector<int>& group, std::uint64_t step, int target) {
  return std::size_t(std::uint64_t(target) / step % group.size());
}

}  // namespace detail

// Calls f(block, AllToAllProxy&) on every block of the master twice, first
// sending, then receiving what every block sent to it, moving the queues
// in k-ary swap rounds (k >= 2, else InvalidArgument on every unit).
// Collective over master.team(); every unit must call it.
//
// Each round a block sends every member of its group one byte array of
// records (enqueue_view: no pack or unpack copy, read in place), built in
// memory kept for the block until its next call, when the round's exchange
// is over.
template <class Block, class F>
void all_to_all(Master<Block>& master, F&& f, int k) {
  const int nb = master.nblocks();
  RegularDecomposer<1> dec({{0}, {nb}}, nb);
  RegularSwapPartners<1> partners(dec, k);
  const int rounds = partners.rounds();
  std::vector<std::uint64_t> step(std::size_t(rounds) + 1, 1);
  for (int r = 0; r < rounds; ++r)
    step[std::size_t(r) + 1] = step[std::size_t(r)] * std::uint64_t(partners.size(r));
  // Per block of this unit: the arrays it sends this round, one per member.
  std::map<int, std::vector<MemoryBuffer>> sending;
  // A call of round r: the block's records (of f at round 0, received from the group
  // otherwise) go to the group member on their way, or at the last call to `received`.
  auto pass_on = [&](ReduceProxy& rp, AllToAllProxy* sent, AllToAllProxy* received) {
    const int r = rp.round();
    std::vector<MemoryBuffer>& out = sending[rp.gid()];  // sent last round: reusable
    out.resize(rp.out_link().size());
    for (MemoryBuffer& m : out) m.clear();
    // A record whose bytes are n at `bytes`, then tail_n at `tail` (an
    // enqueue_view array of the sending call).
    auto pass = [&](int target, int source, const char* bytes, std::size_t n,
                    const char* tail = nullptr, std::size_t tail_n = 0) {
      if (r < rounds) {
        const std::size_t j = detail::all_to_all_next(rp.out_link(), step[std::size_t(r)], target);
        detail::append_record(out[j], target, source, bytes, n, tail, tail_n);
      } else if (target == rp.gid()) {
        MemoryBuffer& q = received->queues_[source];
        q.write(bytes, n);
        q.write(tail, tail_n);
      } else {
        throw exception::RuntimeError("dash::bp::all_to_all: a record for block " +
                                      std::to_string(target) + " reached block " +
                                      std::to_string(rp.gid()));
      }
    };
    if (sent)
      for (auto& [to, q] : sent->queues_)
        if (q.size() > 0) {
          const AllToAllProxy::View view = sent->view_of(to);
          pass(to, rp.gid(), q.data(), q.size(), view.data, view.bytes);
        }
    for (int from : rp.in_link())
      if (rp.incoming(from) > 0) {
        const QueueView<char> array = rp.dequeue_view<char>(from);
        detail::for_each_record(array.data(), array.size(),
                                [&](const detail::AllToAllRecord& head, const char* at) {
                                  pass(head.target, head.source, at, std::size_t(head.bytes));
                                });
      }
    if (r == rounds) {
      sending.erase(rp.gid());
      return;
    }
    for (std::size_t j = 0; j < out.size(); ++j)
      rp.enqueue_view(rp.out_link()[j], out[j].data(), out[j].size());
  };
  // The first call sends and the last receives; the calls between only pass records on,
  // and out of core do not load the blocks.
  auto call = [&](Block& b, ReduceProxy& rp) {
    const int r = rp.round();
    AllToAllProxy sent(rp.gid(), nb, true), received(rp.gid(), nb, false);
    if (r == 0) f(b, sent);
    pass_on(rp, r == 0 ? &sent : nullptr, r == rounds ? &received : nullptr);
    if (r == rounds) f(b, received);
  };
  auto route = [&](ReduceProxy& rp) { pass_on(rp, nullptr, nullptr); };
  reduce(master, partners, call, route, [rounds](int r) { return r == 0 || r == rounds; });
}

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__ALL_TO_ALL_H_
