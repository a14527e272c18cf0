// dash::bp::ReduceProxy: a block's view of one call of a reduction
// (dash::bp::reduce, Reduce.h, which says how the queues travel): the links
// of the call and the queues to and from them (internal/QueueFront.h).
//
// | call                 | cost                                                    |
// |----------------------|---------------------------------------------------------|
// | enqueue / dequeue    | local; the value's bytes copied once                    |
// | enqueue_view         | local; no copy (one if the target is on this unit)      |
// | dequeue_view         | local; no copy (one if misaligned for T)                |
// | dequeue_combine      | local; combines as the pieces arrive (no copy)          |
// | in_link / out_link   | local                                                   |
#ifndef DASH__BP__REDUCE_PROXY_H_
#define DASH__BP__REDUCE_PROXY_H_

#include <dash/Exception.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/internal/DirectArrays.h>
#include <dash/bp/internal/QueueFront.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

namespace internal {
template <class Block, class Partners>
class ReduceRun;
}  // namespace internal

// A block's view of one call of a reduction: its links and queues.
class ReduceProxy : public internal::QueueFront<ReduceProxy> {
 public:
  // The block's gid. Local.
  int gid() const { return gid_; }
  // The call: 0 .. partners.rounds(). Local.
  int round() const { return round_; }
  // The blocks whose queues of the previous call this block may dequeue, in
  // increasing gid (itself included where it is a member). Local.
  const std::vector<int>& in_link() const { return in_link_; }
  // The blocks this block may enqueue to in this call, in increasing gid
  // (itself included where it is a member). Local.
  const std::vector<int>& out_link() const { return out_link_; }

  // enqueue(to, value), enqueue(to, data, n): append to the queue to block
  // `to`, which must be in out_link (InvalidArgument otherwise; see
  // internal/QueueFront.h). Local; one copy of the bytes.
  //
  // enqueue_view(to, data, n): sends n elements at data without copying
  // them (for big payloads): from 32 KiB they travel as a message of their
  // own, straight from the caller's memory (smaller ones are copied into the
  // packed message), which must stay valid and unchanged until this
  // round's exchange is over (the next call of the function on this unit, or
  // the end of reduce). The receiver reads them as one std::vector<T>
  // (dequeue_view<T> in place, or dequeue). The queue to `to` then holds
  // nothing else in this call (InvalidArgument otherwise). Local; no copy
  // (one if `to` is on the calling unit).
  //
  // dequeue(from, value), dequeue_view<T>(from): read the next value of the
  // queue from block `from` (the view in place, valid until the function
  // returns; a copy if misaligned for T); InvalidArgument if `from` is not
  // in in_link or its queue has no such value left. incoming(from): bytes
  // left in the queue from `from` (0 if `from` is not in in_link). Local.

  // Combines the next std::vector<T> of the queue from `from` (sent with enqueue_view or
  // enqueue(to, data, n)) into out, element by element: out[i] = op(out[i], x[i]) for its n
  // elements (InvalidArgument if it holds another count, nothing combined). An array that came
  // as a message of its own (32 KiB and more) is received in pieces of 256 KiB, each combined
  // while in cache; a smaller one is read in place. Local; waits for the sender's pieces.
  template <class T, class Op>
  void dequeue_combine(int from, T* out, std::size_t n, Op op) {
    static_assert(std::is_trivially_copyable_v<T>, "dequeue_combine needs trivially copyable T");
    const std::size_t i = index_of(in_link_, from);
    if (i == npos) no_queue(from, "dequeue_combine");
    InQueue& q = in_[i];
    if (q.direct == 0 || q.bytes.remaining() != sizeof(std::uint64_t)) {
      if (q.bytes.remaining() >= sizeof(std::uint64_t)) {  // the count first: a wrong one
        std::uint64_t count = 0;                           // leaves the array to read
        std::memcpy(&count, q.bytes.data() + q.bytes.position(), sizeof count);
        check_count(count, n);
      }
      const QueueView<T> x = dequeue_view<T>(from);
      check_count(x.size(), n);
      for (std::size_t k = 0; k < n; ++k) out[k] = op(out[k], x[k]);
      return;
    }
    std::uint64_t count = 0;
    std::memcpy(&count, q.bytes.data() + q.bytes.position(), sizeof count);
    if (count > q.direct / sizeof(T) || q.direct != count * sizeof(T))
      throw exception::InvalidArgument(std::string(kName) + "::dequeue_combine: " + where() +
                                       ": the queue from block " + std::to_string(from) +
                                       " does not hold one array of " + std::to_string(n) +
                                       " elements of " + std::to_string(sizeof(T)) + " bytes");
    check_count(count, n);
    q.bytes.read(&count, sizeof count);
    // Elements may straddle pieces: their bytes wait in `carry`.
    alignas(T) char carry[sizeof(T)];
    std::size_t carried = 0, k = 0;
    arrays_->stream(q, [&](const char* p, std::size_t nbytes) {
      if (carried > 0) {
        const std::size_t m = std::min(sizeof(T) - carried, nbytes);
        std::memcpy(carry + carried, p, m);
        carried += m, p += m, nbytes -= m;
        if (carried < sizeof(T)) return;
        T x;
        std::memcpy(&x, carry, sizeof x);
        out[k] = op(out[k], x), ++k, carried = 0;
      }
      const std::size_t whole = nbytes / sizeof(T);
      T* o = out + k;
      if (reinterpret_cast<std::uintptr_t>(p) % alignof(T) == 0) {
        const T* x = reinterpret_cast<const T*>(p);
        for (std::size_t j = 0; j < whole; ++j) o[j] = op(o[j], x[j]);
      } else {
        for (std::size_t j = 0; j < whole; ++j) {
          T x;
          std::memcpy(&x, p + j * sizeof(T), sizeof x);
          o[j] = op(o[j], x);
        }
      }
      k += whole;
      carried = nbytes - whole * sizeof(T);
      std::memcpy(carry, p + whole * sizeof(T), carried);
    });
  }

  // The queue to block `to` (in out_link, else InvalidArgument) becomes the bytes of `queue`,
  // as if they had been enqueued (read back with dequeue or dequeue_view of what they hold);
  // the queue must be empty (InvalidArgument otherwise). For bytes built elsewhere: delivered
  // on this unit and, under a memory-block limit, written to the store without a copy (from
  // 32 KiB also sent to another unit from its own memory). Local.
  void enqueue_buffer(int to, MemoryBuffer&& queue) {
    OutQueue& q = out_[out_index(to, "enqueue_buffer")];
    if (q.viewed || q.bytes.size() > 0)
      throw exception::InvalidArgument(std::string(kName) + "::enqueue_buffer: " + where() +
                                       " already enqueued to block " + std::to_string(to) +
                                       "; the queue must be empty");
    q.bytes = std::move(queue);
    q.bytes.rewind();
  }

 private:
  template <class Block, class Partners>
  friend class internal::ReduceRun;

  friend class internal::QueueFront<ReduceProxy>;
  static constexpr const char* kName = "dash::bp::ReduceProxy";
  static constexpr bool kKeepViewCopies = true;

  // An outgoing queue (internal::OutQueue: its bytes, then an enqueue_view
  // array, alone in the queue: `viewed`); or, under a memory-block limit,
  // bytes moved to the master's store after the call (spilled:
  // `spilled_bytes` under the queue's store key) or already sent to their
  // unit (early).
  struct OutQueue : internal::OutQueue {
    bool viewed = false;
    bool early = false;
    bool spilled = false;
    std::size_t spilled_bytes = 0;
    std::uint64_t key = 0;
  };
  using InQueue = internal::InQueue;

  static constexpr std::size_t npos = ~std::size_t(0);

  static std::size_t index_of(const std::vector<int>& link, int gid) {
    auto it = std::lower_bound(link.begin(), link.end(), gid);
    return it != link.end() && *it == gid ? std::size_t(it - link.begin()) : npos;
  }
  static std::string link_string(const std::vector<int>& link) {
    std::string s = "{";
    for (std::size_t i = 0; i < link.size(); ++i) s += (i ? ", " : "") + std::to_string(link[i]);
    return s + "}";
  }
  // Copies every enqueue_view array into its queue (the caller's memory may
  // go away before the exchange: a block evicted under a memory-block
  // limit). Local.
  void copy_views() {
    if (views_ == 0) return;
    for (OutQueue& q : out_) materialize(q);
  }
  std::size_t out_index(int to, const char* call) const {
    const std::size_t i = index_of(out_link_, to);
    if (i == npos)
      throw exception::InvalidArgument(std::string(kName) + "::" + call + ": " + where() +
                                       " enqueued to block " + std::to_string(to) +
                                       ", which is not in its out_link " + link_string(out_link_));
    return i;
  }
  // The queue to `to`, which has no enqueue_view array. Local.
  OutQueue& out_queue(int to, const char* call) {
    OutQueue& queue = out_[out_index(to, call)];
    if (queue.viewed)
      throw exception::InvalidArgument(std::string(kName) + "::" + call + ": " + where() +
                                       " enqueued to block " + std::to_string(to) +
                                       " after an enqueue_view array, which must be alone in "
                                       "its queue");
    return queue;
  }
  void before_view(internal::OutQueue& queue, int to) {
    if (queue.bytes.size() > 0)
      throw exception::InvalidArgument(std::string(kName) + "::enqueue_view: " + where() +
                                       " already enqueued to block " + std::to_string(to) +
                                       "; a queue with an enqueue_view array holds nothing else");
    static_cast<OutQueue&>(queue).viewed = true;
  }
  // The queue from `from`, its part sent on its own received first. Local (waits for it).
  MemoryBuffer* find_in(int from) const {
    const std::size_t i = index_of(in_link_, from);
    if (i == npos) return nullptr;
    InQueue& q = const_cast<InQueue&>(in_[i]);
    if (q.direct > 0) arrays_->complete(q);
    return &q.bytes;
  }
  void check_count(std::size_t count, std::size_t n) const {
    if (count != n)
      throw exception::InvalidArgument(std::string(kName) + "::dequeue_combine: " + where() +
                                       ": the array holds " + std::to_string(count) +
                                       " elements, not " + std::to_string(n));
  }
  [[noreturn]] void no_queue(int from, const char* call) const {
    throw exception::InvalidArgument(std::string(kName) + "::" + call + ": " + where() +
                                     " dequeued from block " + std::to_string(from) +
                                     ", which is not in its in_link " + link_string(in_link_));
  }
  std::string where() const {
    return "block " + std::to_string(gid_) + " in round " + std::to_string(round_);
  }

  int gid_ = -1;
  int round_ = 0;
  std::vector<int> in_link_, out_link_;
  std::vector<InQueue> in_;                   // parallel to in_link_
  std::vector<OutQueue> out_;                 // parallel to out_link_
  internal::DirectArrays* arrays_ = nullptr;  // where parts sent on their own are received
};

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__REDUCE_PROXY_H_
