// dash::bp::reduce: k-ary global reductions over the blocks of a Master, in
// rounds given by a partner structure (ReducePartners.h): merge (all to
// block 0), swap (reduce-scatter), broadcast and all-reduce.
//
//   dash::bp::RegularMergePartners<2> partners(decomposer, 4);
//   dash::bp::reduce(master, partners, [](Image& img, dash::bp::ReduceProxy& rp) {
//     for (int from : rp.in_link()) {               // what they sent last round
//       if (from == rp.gid()) continue;             // our own pixels are in img
//       auto pixels = rp.dequeue_view<float>(from);   // read in place, no copy
//       for (std::size_t i = 0; i < pixels.size(); ++i) img.pixels[i] += pixels[i];
//     }
//     for (int to : rp.out_link())                  // this round's group root
//       if (to != rp.gid()) rp.enqueue(to, img.pixels);  // or enqueue_view: no copy
//   });
//
// The function runs for the blocks active in each call r = 0 .. rounds(),
// in increasing gid; call r sees in_link() (the blocks whose queues of call
// r - 1 it may dequeue) and out_link() (the blocks it may enqueue to; the
// queues move when the call's blocks are done). The last call only
// receives. Links include the block itself where it is a group member (a
// merge root receives from every member, itself included; in a swap every
// member sends one piece to every member, itself included). A block may
// enqueue to itself (the queue never leaves memory, but is serialised like
// any other) or keep its own data and skip itself. Queues a call does not
// read are dropped after it.
//
// Transport, between calls: queues between blocks of the same unit move in
// memory. For other units, all queues for one unit travel in one message
// (dart_isend, tag 30002 on the master's private communicator), and each unit receives
// exactly the messages its blocks' in_links announce (dart_mprobe from each
// source unit, then dart_mrecv): no collective, no alltoall. Every out_link
// queue is sent, even if nothing was enqueued, so what arrives always
// matches what is expected. The one exception is for big payloads:
// an enqueue_view array follows that message as a message of its own, sent
// straight from the caller's memory and announced in the first, and the
// receiver reads it in place (dequeue_view) from a buffer of a small
// process-wide stock kept between rounds and reductions (fresh memory of
// many MiB would page-fault on every 4 KiB). A message whose only queue was
// enqueued by value is neither packed nor unpacked by a copy (the queue's
// buffer becomes the message, the received message becomes the queue).
// Queues and messages of 64 KiB and more take their memory from the same
// stock and give it back when dropped (detail/BufferStock.h), so the copying
// enqueue/dequeue path maps no fresh memory after the first round either.
// A unit receives by polling its sources (dart_improbe) while its sends go
// on, so no unit waits for one that waits for it.
//
// Out of core: when a unit's blocks exceed its memory-block limit, each
// outgoing queue of at least DASH_OOC_QUEUE_INLINE bytes (enqueue_view
// arrays are copied in first) to another unit is sent right after its
// block's call, as a message of its own that the receiver takes between its
// own calls (a call first waits until the queues of the calls before it
// were taken but for its own size: about two calls' queues in flight);
// a queue to a block of the same unit goes to the master's store after the
// call. Each such queue so crosses the storage once. A received queue
// of that size for a block not in memory goes to the store until the
// block's call (prefetched with the block). A call's incoming queues are
// freed when it returns. So a round holds the queues of about one block at
// a time, not the round's traffic: measured with ooc-reduce at one block
// in memory, a unit's peak stays the same for 16 and 64 blocks per unit.
//
// Failures. An exception from the function (or from a proxy call in it, e.g.
// a dequeue from a block not in in_link), or a failure held by the master
// from foreach, stops the calls on that unit, and the rounds run to their
// end carrying the error, so no unit waits forever and the units that hear
// of it skip their calls too. One all-reduce of an int at the end tells
// every unit whether any unit failed (the only cost on the success path);
// then every unit throws: the failing unit its own exception, the others
// dash::exception::RemoteFailure naming the (lowest) failing unit and its
// message ("block <gid> in round <r>: <what>").
//
// | call                 | cost                                                    |
// |----------------------|---------------------------------------------------------|
// | reduce               | collective over master.team(); per round one message    |
// |                      | to and from each unit holding a partner (+ one per      |
// |                      | enqueue_view array); owner() of every gid at the start; |
// |                      | one all-reduce of an int at the end                     |
// | enqueue / dequeue    | local; the value's bytes copied once                    |
// | enqueue_view         | local; no copy (one if the target is on this unit)      |
// | dequeue_view         | local; no copy (one if misaligned for T)                |
// | in_link / out_link   | local                                                   |
#ifndef DASH__BP__REDUCE_H_
#define DASH__BP__REDUCE_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/bp/Master.h>
#include <dash/bp/Polling.h>
#include <dash/bp/ReducePartners.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/detail/BufferStock.h>
#include <dash/internal/Failure.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

namespace detail {

template <class Block, class Partners>
class ReduceRun;

// Memory for a received array, from the process-wide stock of large buffers
// (detail/BufferStock.h) when it holds one big enough, and back there when
// released: a fresh allocation of many MiB costs a page fault per 4 KiB,
// each zero-filled by the kernel, which is more than the copy into it.
class ArrayBuffer {
 public:
  // Residues of data() it can give (see the constructor).
  static constexpr std::size_t kResidues = 64;

  ArrayBuffer() = default;
  // At least n bytes, not initialised, starting at an address congruent to
  // `residue` modulo kResidues (a message received at the residue of the
  // memory it was sent from is copied fast: README, "MPI defects"). Local.
  explicit ArrayBuffer(std::size_t n, std::size_t residue = 0) {
    take(n + kResidues - 1);
    const std::size_t shift = (residue - reinterpret_cast<std::uintptr_t>(base_)) & (kResidues - 1);
    data_ = base_ + shift;
  }
  ArrayBuffer(ArrayBuffer&& o) noexcept
      : base_(std::exchange(o.base_, nullptr)), data_(o.data_), capacity_(o.capacity_) {}
  ArrayBuffer& operator=(ArrayBuffer&& o) noexcept {
    if (this != &o) {
      release();
      base_ = std::exchange(o.base_, nullptr);
      data_ = o.data_;
      capacity_ = o.capacity_;
    }
    return *this;
  }
  ~ArrayBuffer() { release(); }
  char* data() const { return data_; }

 private:
  // At least n bytes at base_: a kept buffer or a new one.
  void take(std::size_t n) {
    BufferStock::Buffer kept = BufferStock::take(n);
    if (kept.data != nullptr) {
      base_ = kept.data;
      capacity_ = kept.capacity;
      return;
    }
    base_ = allocate_bytes(n, capacity_);
  }
  void release() {
    data_ = nullptr;
    BufferStock::give(std::exchange(base_, nullptr), capacity_);
  }

  char* base_ = nullptr;  // the allocation
  char* data_ = nullptr;  // the bytes, up to kResidues - 1 past base_
  std::size_t capacity_ = 0;
};

}  // namespace detail

// A block's view of one call of a reduction: its links and queues.
class ReduceProxy {
 public:
  // Bytes reserved past a large queue for the message trailer, so the
  // queue's buffer can become the message without growing.
  static constexpr std::size_t kTrailerBytes = 1024;

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

  // Appends value to the queue to block `to` (which must be in out_link,
  // else InvalidArgument). Local; one copy of value's bytes.
  template <class T>
  void enqueue(int to, const T& value) {
    MemoryBuffer& queue = bytes_queue(to, "enqueue");
    if constexpr (std::is_trivially_copyable_v<T>) {
      reserve(queue, sizeof(T));
    } else if constexpr (is_vector_of_trivial<T>::value) {
      reserve(queue, sizeof(std::uint64_t) + value.size() * sizeof(typename T::value_type));
    }
    save(queue, value);
  }
  // Appends n elements at data as a std::vector<T> would be (dequeue it as a
  // std::vector<T> or with dequeue_view<T>). Local; one copy of the bytes.
  template <class T>
  void enqueue(int to, const T* data, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "enqueue(to, data, n) needs trivially copyable T");
    MemoryBuffer& queue = bytes_queue(to, "enqueue");
    reserve(queue, sizeof(std::uint64_t) + n * sizeof(T));
    internal::save_count(queue, n);
    queue.write(data, n * sizeof(T));
  }
  // Sends n elements at data without copying them (for big payloads): they
  // travel as a message of their own, straight from the caller's memory,
  // which must stay valid and unchanged until this round's exchange is
  // over (the next call of the function on this unit, or the end of
  // reduce). The receiver reads them as one std::vector<T> (dequeue_view<T>
  // in place, or dequeue). The queue to `to` then holds nothing else in
  // this call (InvalidArgument otherwise). Local; no copy (one if `to` is on
  // the calling unit).
  template <class T>
  void enqueue_view(int to, const T* data, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>, "enqueue_view needs trivially copyable T");
    OutQueue& queue = out_[out_index(to, "enqueue_view")];
    if (queue.is_view || queue.bytes.size() > 0)
      throw exception::InvalidArgument(
          "dash::bp::ReduceProxy::enqueue_view: block " + std::to_string(gid_) + " in round " +
          std::to_string(round_) + " already enqueued to block " + std::to_string(to) +
          "; a queue with an enqueue_view array holds nothing else");
    if (n > (std::size_t(1) << 60) / sizeof(T))
      throw exception::InvalidArgument("dash::bp::ReduceProxy::enqueue_view: " + std::to_string(n) +
                                       " elements exceed one message (2^60 bytes)");
    queue.is_view = true;
    queue.view = reinterpret_cast<const char*>(data);
    queue.view_bytes = n * sizeof(T);
    queue.view_elements = n;
  }
  // The queue to block `to` (in out_link, else InvalidArgument) becomes the bytes of `queue`,
  // as if they had been enqueued (read back with dequeue or dequeue_view of what they hold);
  // the queue must be empty (InvalidArgument otherwise). For bytes built elsewhere: delivered
  // on this unit and, under a memory-block limit, written to the store without a copy (a
  // buffer with 1 KiB of spare capacity also becomes the message to another unit as it is).
  // Local.
  void enqueue_buffer(int to, MemoryBuffer&& queue) {
    OutQueue& q = out_[out_index(to, "enqueue_buffer")];
    if (q.is_view || q.bytes.size() > 0)
      throw exception::InvalidArgument("dash::bp::ReduceProxy::enqueue_buffer: block " +
                                       std::to_string(gid_) + " in round " +
                                       std::to_string(round_) + " already enqueued to block " +
                                       std::to_string(to) + "; the queue must be empty");
    q.bytes = std::move(queue);
    q.bytes.rewind();
  }
  // Reads the next value of the queue from block `from`; InvalidArgument if
  // `from` is not in in_link or its queue has no such value left. Local.
  template <class T>
  void dequeue(int from, T& value) {
    InQueue& queue = in_queue(from, "dequeue");
    if constexpr (is_vector_of_trivial<T>::value) {
      using E = typename T::value_type;
      if (queue.has_array && queue.array_bytes == queue.array_elements * sizeof(E)) {
        value.resize(queue.array_elements);
        if (queue.array_bytes > 0) std::memcpy(value.data(), queue.array.data(), queue.array_bytes);
        queue.has_array = false;
        return;
      }
    }
    if (queue.has_array) materialize(queue);
    load(queue.bytes, value);
  }
  // Reads the next std::vector<T> of the queue from `from` in place: the
  // elements stay in the receive buffer (valid until the function returns).
  // Errors as dequeue. Local; no copy unless the bytes are misaligned for T.
  template <class T>
  QueueView<T> dequeue_view(int from) {
    static_assert(std::is_trivially_copyable_v<T>, "dequeue_view needs trivially copyable T");
    static_assert(alignof(T) <= alignof(std::max_align_t), "dequeue_view: T is over-aligned");
    InQueue& queue = in_queue(from, "dequeue_view");
    if (queue.has_array) {
      if (queue.array_bytes != queue.array_elements * sizeof(T))
        throw exception::InvalidArgument(
            "dash::bp::ReduceProxy::dequeue_view: the array from block " + std::to_string(from) +
            " has " + std::to_string(queue.array_elements) + " elements of " +
            std::to_string(queue.array_bytes) +
            " bytes in all, not of sizeof(T) = " + std::to_string(sizeof(T)));
      queue.has_array = false;  // read; the bytes stay until the function returns
      const char* at = queue.array.data();
      if (reinterpret_cast<std::uintptr_t>(at) % alignof(T) == 0)
        return QueueView<T>(reinterpret_cast<const T*>(at), queue.array_elements);
      // Received at the sender's address residue, which was not aligned for T.
      scratch_.emplace_back((queue.array_bytes + sizeof(std::max_align_t) - 1) /
                            sizeof(std::max_align_t));
      if (queue.array_bytes > 0) std::memcpy(scratch_.back().data(), at, queue.array_bytes);
      return QueueView<T>(reinterpret_cast<const T*>(scratch_.back().data()), queue.array_elements);
    }
    const std::size_t n = internal::load_count(queue.bytes, sizeof(T));
    const char* at = queue.bytes.read_in_place(n * sizeof(T));
    if (reinterpret_cast<std::uintptr_t>(at) % alignof(T) == 0)
      return QueueView<T>(reinterpret_cast<const T*>(at), n);
    scratch_.emplace_back((n * sizeof(T) + sizeof(std::max_align_t) - 1) /
                          sizeof(std::max_align_t));
    std::memcpy(scratch_.back().data(), at, n * sizeof(T));
    return QueueView<T>(reinterpret_cast<const T*>(scratch_.back().data()), n);
  }
  // Bytes left in the queue from `from` (0 if `from` is not in in_link). Local.
  std::size_t incoming(int from) const {
    const std::size_t i = index_of(in_link_, from);
    if (i == npos) return 0;
    const InQueue& q = in_[i];
    return q.has_array ? sizeof(std::uint64_t) + q.array_bytes : q.bytes.remaining();
  }

 private:
  template <class Block, class Partners>
  friend class detail::ReduceRun;

  // An outgoing queue: serialised bytes, or one array of the caller's; or,
  // under a memory-block limit, bytes moved to the master's store after the
  // call (spilled: `spilled_bytes` under the queue's store key) or already
  // sent to their unit (early).
  struct OutQueue {
    MemoryBuffer bytes;
    bool is_view = false;
    const char* view = nullptr;
    std::size_t view_bytes = 0, view_elements = 0;
    bool early = false;
    bool spilled = false;
    std::size_t spilled_bytes = 0;
    std::uint64_t key = 0;
  };
  // An incoming queue: serialised bytes, or one received array (read once,
  // as a std::vector of array_elements elements); or, under a memory-block
  // limit, bytes in the master's store under `key` until the block's call.
  struct InQueue {
    MemoryBuffer bytes;
    bool has_array = false;
    detail::ArrayBuffer array;
    std::size_t array_bytes = 0, array_elements = 0;
    bool spilled = false;
    std::uint64_t key = 0;
  };

  template <class T>
  struct is_vector_of_trivial : std::false_type {};
  template <class T, class A>
  struct is_vector_of_trivial<std::vector<T, A>> : std::is_trivially_copyable<T> {};
  template <class A>
  struct is_vector_of_trivial<std::vector<bool, A>> : std::false_type {};

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
  // Room for `bytes` more (and the trailer), growing geometrically. Local.
  static void reserve(MemoryBuffer& queue, std::size_t bytes) {
    Bytes& b = queue.bytes();
    const std::size_t need = b.size() + bytes + kTrailerBytes;
    if (b.capacity() < need) b.reserve(std::max(need, 2 * b.capacity()));
  }
  // Copies every enqueue_view array into its queue, serialised as the
  // std::vector it is received as (the caller's memory may go away before
  // the exchange: a block evicted under a memory-block limit). Local.
  void copy_views() {
    for (OutQueue& q : out_) {
      if (!q.is_view) continue;
      reserve(q.bytes, sizeof(std::uint64_t) + q.view_bytes);
      internal::save_count(q.bytes, q.view_elements);
      q.bytes.write(q.view, q.view_bytes);
      q.is_view = false;
      q.view = nullptr;
    }
  }
  // A received array as the bytes of a std::vector (for dequeue of any type).
  static void materialize(InQueue& queue) {
    queue.bytes.clear();
    internal::save_count(queue.bytes, queue.array_elements);
    queue.bytes.write(queue.array.data(), queue.array_bytes);
    queue.has_array = false;
  }
  std::size_t out_index(int to, const char* call) const {
    const std::size_t i = index_of(out_link_, to);
    if (i == npos)
      throw exception::InvalidArgument(
          std::string("dash::bp::ReduceProxy::") + call + ": block " + std::to_string(gid_) +
          " in round " + std::to_string(round_) + " enqueued to block " + std::to_string(to) +
          ", which is not in its out_link " + link_string(out_link_));
    return i;
  }
  MemoryBuffer& bytes_queue(int to, const char* call) {
    OutQueue& queue = out_[out_index(to, call)];
    if (queue.is_view)
      throw exception::InvalidArgument(
          std::string("dash::bp::ReduceProxy::") + call + ": block " + std::to_string(gid_) +
          " in round " + std::to_string(round_) + " enqueued to block " + std::to_string(to) +
          " after an enqueue_view array, which must be alone in its queue");
    return queue.bytes;
  }
  InQueue& in_queue(int from, const char* call) {
    const std::size_t i = index_of(in_link_, from);
    if (i == npos)
      throw exception::InvalidArgument(
          std::string("dash::bp::ReduceProxy::") + call + ": block " + std::to_string(gid_) +
          " in round " + std::to_string(round_) + " dequeued from block " + std::to_string(from) +
          ", which is not in its in_link " + link_string(in_link_));
    return in_[i];
  }

  int gid_ = -1;
  int round_ = 0;
  std::vector<int> in_link_, out_link_;
  std::vector<InQueue> in_;                             // parallel to in_link_
  std::vector<OutQueue> out_;                           // parallel to out_link_
  std::vector<std::vector<std::max_align_t>> scratch_;  // misaligned dequeue_view copies
};

// Runs a reduction over master's blocks: for calls r = 0 .. partners.rounds()
// it calls f(block, proxy) on the blocks active in call r (in increasing
// gid; under a memory-block limit those in memory first) and then moves the call's queues to the
// next call's blocks (see the top of this file). Partners: a structure of ReducePartners.h, or any
// type with rounds(), nblocks(), active(round, gid), incoming(round, gid, std::vector<int>&) and
// outgoing(round, gid, std::vector<int>&) whose links are in increasing gid and agree (b in a's
// out_link of call r exactly when a is in b's in_link of call r + 1). InvalidArgument if partners
// and master differ in their number of blocks. Collective over master.team(): every unit calls it,
// with the same partners and owners.
template <class Block, class Partners, class F>
void reduce(Master<Block>& master, const Partners& partners, F&& f) {
  master.run_delayed_calls();
  detail::ReduceRun<Block, Partners> run(master, partners);
  auto no_route = [](ReduceProxy&) {};
  auto every_round = [](int) { return true; };
  run.run(f, no_route, every_round);
}

// The same for reductions whose calls in some rounds only pass queues on:
// in call r, when uses_block(r) is false, route(proxy) runs instead of
// f(block, proxy) and the block is not touched (under a memory-block limit
// not loaded, nor written). uses_block must give the same answer on every
// unit. Collective, as above.
template <class Block, class Partners, class F, class Route, class UsesBlock>
void reduce(Master<Block>& master, const Partners& partners, F&& f, Route&& route,
            UsesBlock&& uses_block) {
  master.run_delayed_calls();
  detail::ReduceRun<Block, Partners> run(master, partners);
  run.run(f, route, uses_block);
}

// ---- implementation ------------------------------------------------------

namespace detail {

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
        units_(int(master.team().size())) {}
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
  //   [queue 0][queue 1] ... [Entry x n][Footer]     or, failed:
  //   [error text][Footer with nqueues = 0]
  // then one message per enqueue_view array (Entry offset kArray) and per
  // queue the sender spilled (offset kSpilled), in table order. The packed
  // queue 0 starts at offset 0 and is the largest.
  // An array's `elements` holds its element count times
  // ArrayBuffer::kResidues plus the residue of the sender's address (it is
  // received at the same residue).
  struct Entry {
    std::int64_t from, to, offset, nbytes, elements;
  };
  static constexpr std::int64_t kArray = -1, kSpilled = -2;
  // `early`: the queues sent early to the receiving unit this round (not in the table).
  struct Footer {
    std::int64_t round, nqueues, error_kind, error_bytes, early;
  };
  // Out of core, an outgoing queue to another unit goes straight there after its block's call
  // (an early queue) instead of to storage and back: its bytes then an EarlyTrailer, a
  // synchronous send with a tag of its round, kEarlyTag + round (a unit may be rounds ahead
  // of one it has no queues with; with kEarlyTags rounds or more, queues are spilled instead);
  // a call first waits until the early queues of the calls before are matched but for its own
  // size (send_early). The receiver takes them between its block calls and in the exchange
  // (for a block not in memory: to storage), so each crosses the storage once.
  static constexpr int kEarlyTag = 30006;
  static constexpr int kEarlyTags = 2048;  // tags up to 32053 (MPI promises 32767)
  struct EarlyTrailer {
    std::int64_t round, from, to;
  };
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
  // A message after a packed one: an enqueue_view array (sent from the
  // caller's memory) or a spilled queue (loaded from the store in its turn).
  struct Follow {
    int dest;
    const char* data;  // the array
    std::size_t nbytes;
    bool spilled;
    std::uint64_t key;  // the spilled queue's
  };
  // What this unit still expects from one unit in a round: the packed
  // message, then the messages its table announces.
  struct Source {
    int unit = -1;
    bool packed = false;
    std::vector<Entry> follow;
    std::size_t next = 0;
    std::int64_t early = 0;  // early queues its packed message announced
    // Whether everything it sent this round is in (`early_received` of its early queues).
    bool done(std::int64_t early_received) const {
      return packed && next == follow.size() && early == early_received;
    }
  };
  // Spilled queues loaded and in flight at once, per unit.
  static constexpr std::size_t kWindow = 2;
  // The store key of the queue (from -> to) of call `round` under a
  // memory-block limit: the top bit, the call's parity, and the two gids
  // (31 bits each). Queues of the call before with the same gids are gone
  // by then; the master's own keys are below 2^41.
  static std::uint64_t queue_key(int round, int from, int to) {
    return (std::uint64_t(1) << 63) | (std::uint64_t(round & 1) << 62) |
           (std::uint64_t(std::uint32_t(from)) << 31) | std::uint64_t(std::uint32_t(to));
  }
  SpillStore& queue_store() { return master_.residency_.extra_store(); }
  // Whether this unit's blocks exceed its memory-block limit: then queues
  // of at least DASH_OOC_QUEUE_INLINE bytes go to the store. Local.
  bool memory_short() const {
    const auto& r = master_.residency_;
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
    auto& residency = master_.residency_;
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
          detail::Residency<Block>& r;
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
        if (master_.residency_.limited()) restore_queues(slot);
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
    for (InQueue& q : slot.proxy.in_) q = InQueue();
    slot.proxy.scratch_.clear();
    if (master_.residency_.limited()) slot.proxy.copy_views();
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
      return !q.is_view && n > 0 && n >= master_.queue_inline_bytes_ &&
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
      const EarlyTrailer trailer{round, slot.gid, to};
      q.bytes.write(&trailer, sizeof trailer);
      early_bytes_ += q.bytes.size();
      early_flight_.send(std::move(q.bytes.bytes()), dest, kEarlyTag + round, team_, true);
      q.bytes = MemoryBuffer();
      q.early = true;
      ++early_sent_[dest];
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
      EarlyTrailer t{-1, -1, -1};
      if (nbytes >= sizeof t) std::memcpy(&t, in.bytes.data() + nbytes - sizeof t, sizeof t);
      if (t.round != round || t.from < 0 || t.to < 0) {
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
      if (q.is_view || n == 0 || n < master_.queue_inline_bytes_) continue;
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
    if (!memory_short() || q.spilled || q.has_array || master_.residency_.resident(slot.index))
      return;
    const std::size_t n = q.bytes.size();
    if (n == 0 || n < master_.queue_inline_bytes_) return;
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
  //     remote ones: per unit, one packed message (isend), then one message
  //     per array (isend) and per spilled queue (loaded and sent kWindow at
  //     a time)
  //   until every expected message is in: for each unit owning a block of
  //     a next in_link, improbe + mrecv its packed message, then the
  //     messages its table announces; unpack, deliver (under a limit,
  //     queues of blocks not in memory go to the store); meanwhile the
  //     sends go on, so no unit waits for another that waits for it
  //   check that every expected queue arrived
  //   the next call's links and queues become the proxies'
  void exchange(int round) {
    std::map<int, std::vector<Piece>> pieces;  // by destination unit
    for (Slot& slot : slots_) {
      if (!slot.active) continue;
      ReduceProxy& p = slot.proxy;
      for (std::size_t j = 0; j < p.out_link_.size(); ++j) {
        const int to = p.out_link_[j];
        const int dest = master_.owner(to);  // checked in set_up
        OutQueue queue = std::move(p.out_[j]);
        p.out_[j].spilled = false;  // the key went with the queue
        if (queue.early) continue;  // on its way (the packed message counts it)
        if (failed()) {
          erase_spilled(queue);
          queue = OutQueue();
        }
        if (dest == me_)
          deliver(round, slot.gid, to, local_copy(std::move(queue)));
        else
          pieces[dest].push_back(Piece{slot.gid, to, std::move(queue)});
      }
    }
    for (const auto& [dest, n] : early_sent_) pieces[dest];  // a packed message counts them
    std::vector<MemoryBuffer> packed;
    std::vector<Follow> follows;  // in destination order, then table order
    std::vector<dart_handle_t> sends;
    packed.reserve(pieces.size());
    for (auto& [dest, list] : pieces) {
      try {
        packed.push_back(pack(round, dest, list, follows));
      } catch (const std::exception& e) {  // too big, out of memory: send the error instead
        const bool invalid = dynamic_cast<const exception::InvalidArgument*>(&e) != nullptr;
        fail_own(invalid ? kInvalidArgument : kRuntimeError,
                 "unit " + std::to_string(me_) + " could not pack round " + std::to_string(round) +
                     ": " + e.what());
        while (!follows.empty() && follows.back().dest == dest) {
          if (follows.back().spilled) queue_store().erase(follows.back().key);
          follows.pop_back();
        }
        packed.push_back(pack(round, dest, list, follows));
      }
      send(packed.back().data(), packed.back().size(), dest, sends);
    }
    // Arrays are in memory: sent at once. Spilled queues wait for their turn.
    std::vector<Follow> spilled;
    for (const Follow& f : follows) {
      if (f.spilled)
        spilled.push_back(f);
      else
        send(f.data, f.nbytes, f.dest, sends);
    }
    follows.clear();
    std::vector<Source> sources;
    {
      std::vector<int> units;
      for (const Slot& slot : slots_)
        for (int from : slot.next_in) {
          const int unit = master_.owner(from);
          if (unit != me_) units.push_back(unit);
        }
      std::sort(units.begin(), units.end());
      units.erase(std::unique(units.begin(), units.end()), units.end());
      sources.resize(units.size());
      for (std::size_t k = 0; k < units.size(); ++k) sources[k].unit = units[k];
    }
    std::size_t next_spilled = 0;
    SendsInFlight flight;
    IdleWait idle("dash::bp::reduce", team_);
    for (;;) {
      bool progress = send_spilled(round, spilled, next_spilled, flight);
      progress |= early_flight_.retire([&](Bytes&& b) { early_bytes_ -= b.size(); });
      progress |= receive_early(round);
      bool receiving = false;
      for (Source& source : sources) {
        const auto got = early_received_.find(source.unit);
        if (source.done(got == early_received_.end() ? 0 : got->second)) continue;
        receiving = true;
        // Its packed message and those it announced are in: only early queues to come.
        if (source.packed && source.next == source.follow.size()) continue;
        std::int32_t found = 0;
        dart_message_t message;
        dart_team_unit_t from;
        std::size_t nbytes = 0;
        dash::check_dart(dart_improbe(kTag, DART_TEAM_UNIT_ID(source.unit), team_, &found, &message,
                                      &from, &nbytes),
                         "dart_improbe");
        if (!found) continue;
        progress = true;
        if (!source.packed) {
          MemoryBuffer received;
          received.bytes().resize(nbytes);
          dash::check_dart(dart_mrecv(received.bytes().data(), nbytes, &message), "dart_mrecv");
          source.packed = true;
          unpack(round, source.unit, std::move(received), source.follow, source.early);
        } else {
          receive_follow(round, source, message, nbytes);
        }
      }
      if (!receiving && next_spilled == spilled.size() && flight.empty() && early_flight_.empty())
        break;
      idle.after_poll(progress);
    }
    dash::check_dart(dart_waitall(sends.data(), sends.size()), "dart_waitall");
    packed.clear();
    for (Slot& slot : slots_) {
      for (std::size_t i = 0; i < slot.next_in.size() && !failed(); ++i)
        if (!slot.arrived[i])
          fail_own(kRuntimeError, "block " + std::to_string(slot.gid) + " (unit " +
                                      std::to_string(me_) + ") received no queue from block " +
                                      std::to_string(slot.next_in[i]) + " for round " +
                                      std::to_string(round + 1) + inconsistent());
      ReduceProxy& p = slot.proxy;
      p.round_ = round + 1;
      p.in_link_.swap(slot.next_in);
      p.in_.swap(slot.next_queues);
      // The finished call's queues: buffers go back, spilled ones it did
      // not read leave the store.
      for (InQueue& q : slot.next_queues) erase_spilled(q);
      slot.next_queues.clear();
      slot.active = slot.next_active;
      if (slot.active)
        partners_.outgoing(round + 1, slot.gid, p.out_link_);
      else
        p.out_link_.clear();
      p.out_.clear();
      p.out_.resize(p.out_link_.size());
      p.scratch_.clear();
    }
  }

  // Sends spilled queues: frees those whose send completed, then loads and
  // starts the next ones, at most kWindow in flight (the one after them
  // prefetched). A queue that cannot be loaded is sent empty and fails this
  // unit (the receiver knows the announced size). Returns whether anything
  // happened. Local.
  bool send_spilled(int round, const std::vector<Follow>& spilled, std::size_t& next,
                    SendsInFlight& flight) {
    bool progress = flight.retire([&](Bytes&& bytes) { queue_store().recycle(std::move(bytes)); });
    while (flight.size() < kWindow && next < spilled.size()) {
      const Follow& f = spilled[next++];
      if (next < spilled.size()) queue_store().prefetch(spilled[next].key);
      Bytes loaded;  // a queue that cannot be loaded goes as 0 bytes
      if (!failed()) {
        try {
          loaded = queue_store().take(f.key);
          if (loaded.size() != f.nbytes)
            throw exception::RuntimeError("its store gave back " + std::to_string(loaded.size()) +
                                          " bytes, not " + std::to_string(f.nbytes));
        } catch (const std::exception& e) {
          fail_own(kRuntimeError, "unit " + std::to_string(me_) +
                                      " could not load a queue of round " + std::to_string(round) +
                                      " for unit " + std::to_string(f.dest) + ": " + e.what());
          loaded = Bytes();
        }
      } else {
        try {
          queue_store().erase(f.key);
        } catch (...) {
        }
      }
      flight.send(std::move(loaded), f.dest, kTag, team_);
      progress = true;
    }
    return progress;
  }

  // Receives the next message a packed one announced (an array, or a
  // spilled queue) and delivers it. A message of 0 bytes where more were
  // announced: the sender failed (it says so itself at the end). Local.
  void receive_follow(int round, Source& source, dart_message_t& message, std::size_t nbytes) {
    const Entry e = source.follow[source.next++];
    InQueue in;
    char* to = nullptr;
    if (e.offset == kArray) {
      in.has_array = true;
      in.array = ArrayBuffer(nbytes, std::size_t(e.elements) % ArrayBuffer::kResidues);
      in.array_bytes = nbytes;
      in.array_elements = std::size_t(e.elements) / ArrayBuffer::kResidues;
      to = in.array.data();
    } else {
      in.bytes.bytes().resize(nbytes);
      to = in.bytes.bytes().data();
    }
    dash::check_dart(dart_mrecv(to, nbytes, &message), "dart_mrecv");
    if (std::int64_t(nbytes) != e.nbytes) {
      if (nbytes == 0)
        fail(kRuntimeError, "unit " + std::to_string(source.unit) +
                                " could not send its queue from block " + std::to_string(e.from) +
                                " to block " + std::to_string(e.to) + " of round " +
                                std::to_string(round));
      else
        fail_own(kRuntimeError, "a malformed message from unit " + std::to_string(source.unit));
      return;
    }
    deliver(round, int(e.from), int(e.to), std::move(in));
  }

  void send(const char* data, std::size_t nbytes, int dest, std::vector<dart_handle_t>& sends) {
    dart_handle_t handle = DART_HANDLE_NULL;
    dash::check_dart(dart_isend(data, nbytes, kTag, DART_TEAM_UNIT_ID(dest), team_, &handle),
                     "dart_isend");
    sends.push_back(handle);
  }

  // An outgoing queue as its target on this unit reads it (arrays copied:
  // the caller's memory may change before the target's call; a spilled
  // queue stays in the store under its key).
  static InQueue local_copy(OutQueue&& out) {
    InQueue in;
    if (out.spilled) {
      in.spilled = true;
      in.key = out.key;
      out.spilled = false;
    } else if (out.is_view) {
      in.has_array = true;
      in.array = ArrayBuffer(out.view_bytes,
                             reinterpret_cast<std::uintptr_t>(out.view) % ArrayBuffer::kResidues);
      if (out.view_bytes > 0) std::memcpy(in.array.data(), out.view, out.view_bytes);
      in.array_bytes = out.view_bytes;
      in.array_elements = out.view_elements;
    } else {
      in.bytes = std::move(out.bytes);
    }
    return in;
  }

  // Puts queue (from -> to) where call round + 1 of `to` reads it (under a
  // memory-block limit, in the store if `to` is not in memory).
  void deliver(int round, int from, int to, InQueue&& queue) {
    if (failed()) {
      erase_spilled(queue);
      return;
    }
    Slot* slot = find_slot(to);
    const std::size_t i = slot != nullptr && slot->next_active
                              ? ReduceProxy::index_of(slot->next_in, from)
                              : ReduceProxy::npos;
    if (i == ReduceProxy::npos || slot->arrived[i]) {
      erase_spilled(queue);
      fail_own(kRuntimeError, "a queue from block " + std::to_string(from) + " to block " +
                                  std::to_string(to) + " reached unit " + std::to_string(me_) +
                                  " after round " + std::to_string(round) + ", which expects none" +
                                  inconsistent());
      return;
    }
    slot->next_queues[i] = std::move(queue);
    slot->arrived[i] = 1;
    if (slot->index != kNotAdded) {
      try {
        spill_incoming(*slot, round, from, slot->next_queues[i]);
      } catch (const std::exception& e) {
        fail_own(kRuntimeError, "unit " + std::to_string(me_) +
                                    " could not store a queue of round " + std::to_string(round) +
                                    ": " + e.what());
      }
    }
  }

  // The packed message carrying `pieces` (or this unit's error) to unit
  // `dest`; the arrays and spilled queues to send after it are appended to
  // `follows` in table order.
  MemoryBuffer pack(int round, int dest, std::vector<Piece>& pieces, std::vector<Follow>& follows) {
    MemoryBuffer message;
    auto early = early_sent_.find(dest);
    Footer footer{round, 0, error_kind_, 0, early == early_sent_.end() ? 0 : early->second};
    if (failed()) {
      for (Piece& p : pieces) erase_spilled(p.queue);
      message.write(error_text_.data(), error_text_.size());
      footer.error_bytes = std::int64_t(error_text_.size());
      message.write(&footer, sizeof(footer));
      return message;
    }
    // Byte queues first, the largest at the front; then arrays and spilled
    // queues, which travel as messages of their own.
    auto in_message = [](const Piece& p) { return !p.queue.is_view && !p.queue.spilled; };
    std::stable_partition(pieces.begin(), pieces.end(), in_message);
    std::size_t nbytes_queues = 0, largest = 0;
    std::size_t total = pieces.size() * sizeof(Entry) + sizeof(Footer);
    while (nbytes_queues < pieces.size() && in_message(pieces[nbytes_queues])) {
      const std::size_t size = pieces[nbytes_queues].queue.bytes.size();
      total += size;
      if (size > pieces[largest].queue.bytes.size()) largest = nbytes_queues;
      ++nbytes_queues;
    }
    std::vector<Entry> entries(pieces.size());
    std::size_t first = 0;
    if (nbytes_queues > 0) {
      std::swap(pieces[0], pieces[largest]);
      // The largest queue's buffer becomes the message if it has the room.
      MemoryBuffer& q0 = pieces[0].queue.bytes;
      if (q0.bytes().capacity() >= total) {
        entries[0] = Entry{pieces[0].from, pieces[0].to, 0, std::int64_t(q0.size()), 0};
        message = std::move(q0);
        first = 1;
      }
    }
    if (first == 0) message.bytes().reserve(total);
    for (std::size_t i = first; i < pieces.size(); ++i) {
      OutQueue& q = pieces[i].queue;
      if (q.is_view) {
        const std::size_t residue =
            reinterpret_cast<std::uintptr_t>(q.view) % detail::ArrayBuffer::kResidues;
        entries[i] =
            Entry{pieces[i].from, pieces[i].to, kArray, std::int64_t(q.view_bytes),
                  std::int64_t(q.view_elements * detail::ArrayBuffer::kResidues + residue)};
        follows.push_back(Follow{dest, q.view, q.view_bytes, false, 0});
      } else if (q.spilled) {
        entries[i] =
            Entry{pieces[i].from, pieces[i].to, kSpilled, std::int64_t(q.spilled_bytes), 0};
        follows.push_back(Follow{dest, nullptr, q.spilled_bytes, true, q.key});
        q.spilled = false;  // the key went with the Follow
      } else {
        entries[i] = Entry{pieces[i].from, pieces[i].to, std::int64_t(message.size()),
                           std::int64_t(q.bytes.size()), 0};
        message.write(q.bytes.data(), q.bytes.size());
      }
    }
    message.write(entries.data(), entries.size() * sizeof(Entry));
    footer.nqueues = std::int64_t(pieces.size());
    message.write(&footer, sizeof(footer));
    return message;
  }

  // Hands the byte queues of a packed message from unit `source` to their
  // blocks; the entries of the messages that follow it (arrays, spilled
  // queues) go to `follow`, in table order.
  void unpack(int round, int source, MemoryBuffer&& message, std::vector<Entry>& follow,
              std::int64_t& early) {
    const std::size_t size = message.size();
    const std::string malformed = "a malformed message from unit " + std::to_string(source);
    Footer footer;
    if (size < sizeof(Footer))
      return fail_own(kRuntimeError, "a message of " + std::to_string(size) + " bytes from unit " +
                                         std::to_string(source) + " is too short");
    std::memcpy(&footer, message.data() + size - sizeof(Footer), sizeof(Footer));
    if (footer.round != round)
      return fail_own(kRuntimeError,
                      "unit " + std::to_string(me_) + " received a message of round " +
                          std::to_string(footer.round) + " from unit " + std::to_string(source) +
                          " in round " + std::to_string(round) + inconsistent());
    early = std::max<std::int64_t>(footer.early, 0);
    if (footer.error_kind != kNoError) {
      const std::size_t n =
          std::min<std::size_t>(std::size_t(footer.error_bytes), size - sizeof(Footer));
      return fail(footer.error_kind, std::string(message.data(), n));
    }
    const std::size_t table = std::size_t(footer.nqueues) * sizeof(Entry);
    if (footer.nqueues < 0 || table > size - sizeof(Footer))
      return fail_own(kRuntimeError, malformed);
    std::vector<Entry> entries(std::size_t(footer.nqueues));
    if (table > 0)  // none: a unit that sent only early queues
      std::memcpy(entries.data(), message.data() + size - sizeof(Footer) - table, table);
    const std::size_t data_end = size - sizeof(Footer) - table;
    // The messages that follow are received whatever else happens, so that
    // none is left for a later round.
    for (const Entry& e : entries)
      if (e.offset == kArray || e.offset == kSpilled) follow.push_back(e);
    for (const Entry& e : entries)
      if (e.offset >= 0 ? e.nbytes < 0 || std::size_t(e.offset + e.nbytes) > data_end
                        : e.offset != kArray && e.offset != kSpilled)
        return fail_own(kRuntimeError, malformed);
    // Byte queues: copied out, except queue 0 at offset 0, whose bytes the
    // message buffer keeps (cut to size in place).
    bool keep_first = false;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const Entry& e = entries[i];
      if (e.offset < 0) continue;
      if (i == 0 && e.offset == 0) {
        keep_first = true;
        continue;
      }
      InQueue in;
      in.bytes.write(message.data() + e.offset, std::size_t(e.nbytes));
      deliver(round, int(e.from), int(e.to), std::move(in));
    }
    if (keep_first) {
      InQueue in;
      message.bytes().resize(std::size_t(entries[0].nbytes));
      in.bytes = std::move(message);
      deliver(round, int(entries[0].from), int(entries[0].to), std::move(in));
    }
  }

  Master<Block>& master_;
  const Partners& partners_;
  dart_team_t team_;
  int me_, units_;
  std::vector<Slot> slots_;             // in increasing gid
  std::vector<std::size_t> order_;      // call(): the slots of a call, in the order they run
  std::int64_t error_kind_ = kNoError;  // what the rounds carry on
  std::string error_text_;
  SendsInFlight early_flight_;                  // early queues not yet matched
  std::size_t early_bytes_ = 0;                 // their bytes
  std::map<int, std::int64_t> early_sent_;      // this round, by destination unit
  std::map<int, std::int64_t> early_received_;  // this round, by source unit
  dash::internal::Failure failure_;             // this unit's own failure
};

}  // namespace detail

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__REDUCE_H_
