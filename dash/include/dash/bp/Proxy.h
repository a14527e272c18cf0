// dash::bp::Proxy: a block's view of its message queues, handed to the
// callbacks of Master::foreach and Master::iexchange.
//
// enqueue(to, value) appends to the queue to block `to`; dequeue(from, value)
// reads the next value of the queue from block `from`, in the order the
// values were enqueued. Values are anything dash::bp serialises
// (Serialization.h). A proxy belongs to one block; the callbacks of
// different blocks may run on different threads at the same time, each with
// its own proxy.
//
// | call                 | cost                                          |
// |----------------------|-----------------------------------------------|
// | enqueue / dequeue    | local: a memcpy of the value's bytes          |
// | enqueue_view         | local: no copy (see there for when one)       |
// | dequeue_view         | local: no copy (one if misaligned for T)      |
// | incoming / link      | local                                         |
#ifndef DASH__BP__PROXY_H_
#define DASH__BP__PROXY_H_

#include <dash/Exception.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/internal/QueueFront.h>

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

// A block's view of its queues: what it sends to and receives from other
// blocks (by gid), and its links. Queue buffers are kept from round to round
// (emptied, not freed), so steady rounds allocate nothing; the queue of the
// last gid used is remembered, and in a decomposition of up to kSmallTable
// blocks, or in one of up to kDenseBlocks blocks once a block sends to
// kTableFrom blocks or more, a table by gid finds any queue in O(1).
class Proxy : public internal::QueueFront<Proxy> {
 public:
  // Decompositions up to kSmallTable blocks get the O(1) table at once, up
  // to kDenseBlocks a block's once it has kTableFrom outgoing queues: a
  // table per block of every block would be local blocks x blocks pointers
  // (1.1 MiB of a unit's, 4 units x 192 out-of-core slabs that send to two
  // neighbours each).
  static constexpr int kSmallTable = 64;
  static constexpr int kDenseBlocks = 4096;
  static constexpr std::size_t kTableFrom = 16;

  Proxy(int gid, const std::vector<int>* link, int nblocks = 0)
      : gid_(gid), link_(link), nblocks_(nblocks) {}
  Proxy(const Proxy&) = delete;
  Proxy& operator=(const Proxy&) = delete;

  int gid() const { return gid_; }
  // The blocks this block is linked to.
  const std::vector<int>& link() const { return *link_; }
  // enqueue(to, value), enqueue(to, data, n): append to the queue to block
  // `to` (internal/QueueFront.h). Local; one copy of the bytes.
  //
  // enqueue_view(to, data, n): sends the n elements at data to block `to`
  // as one std::vector<T> (read it with dequeue as one, or with
  // dequeue_view<T>) without copying them into the queue. exchange() sends
  // them from this memory: from 32 KiB to another unit as a message of their
  // own (no copy), else packed with the rest (one copy); iexchange() packs
  // them when the callback returns (one copy, where enqueue makes two). The
  // memory must stay valid and unchanged until then: the next exchange(), or
  // the callback's return in iexchange(). The elements are copied into the
  // queue instead (once, at the time given) when more is enqueued to `to`
  // afterwards, when the block's call returns under a memory-block limit
  // (the block may leave memory), and by Master::limit, write_back and
  // dash::bp::save. Local; no copy.
  //
  // dequeue(from, value): reads the next value of the queue from block
  // `from`; InvalidArgument if it has nothing left. dequeue_view<T>(from):
  // the next std::vector<T> in place, valid until the callback returns (one
  // copy into this proxy's scratch memory, valid until its next
  // dequeue_view, when the bytes are misaligned for T). incoming(from):
  // bytes left in the queue from `from` (0 if none). Local.

  // The blocks with a non-empty incoming queue, in increasing gid. Local.
  std::vector<int> incoming_from() const {
    std::vector<int> out;
    for (const auto& [from, buf] : incoming_)
      if (buf.remaining() > 0) out.push_back(from);
    return out;
  }
  // Bytes left in all incoming queues. Local.
  std::size_t incoming_bytes() const {
    std::size_t n = 0;
    for (const auto& [from, buf] : incoming_) n += buf.remaining();
    return n;
  }
  // Whether any incoming queue has something left. Local.
  bool has_incoming() const {
    for (const auto& [from, buf] : incoming_)
      if (buf.remaining() > 0) return true;
    return false;
  }

  // Tells the master that this call of an iexchange callback left the
  // block's data as it was (it only read it, or answered from it): out of
  // core, the block then goes back to storage without being written, if
  // nothing else changed it since it was loaded. For this call only; other
  // calls ignore it. Local.
  void block_unchanged() { unchanged_ = true; }

  // ---- for Master and the reductions --------------------------------------

  // Whether the call just made said block_unchanged(); resets it. Local.
  bool take_unchanged() { return std::exchange(unchanged_, false); }

  // The queue to block `to` (created empty if new; an enqueue_view array
  // still outside it is copied in first). Local.
  MemoryBuffer& outgoing_queue(int to) { return out_queue(to, "enqueue").bytes; }
  // Calls f(to, queue) on every non-empty outgoing queue (internal::OutQueue:
  // its bytes, then its enqueue_view array's), in increasing gid. Local.
  template <class F>
  void for_each_outgoing(F&& f) {
    for (auto& [to, queue] : outgoing_)
      if (queue.bytes.size() > 0) f(to, queue);
  }
  // The same, emptying each queue after f (keeping its memory). Local.
  template <class F>
  void drain_outgoing(F&& f) {
    for (auto& [to, queue] : outgoing_) {
      if (queue.bytes.size() == 0) continue;
      f(to, queue);
      clear_queue(queue);
    }
  }
  // Empties every outgoing queue (keeping its memory). Local.
  void clear_outgoing() {
    for (auto& [to, queue] : outgoing_) clear_queue(queue);
  }
  // Copies every enqueue_view array into its queue (its memory may go
  // away: the block leaves memory). Local; one copy of each array.
  void materialize_views() {
    if (views_ == 0) return;
    for (auto& [to, queue] : outgoing_) materialize(queue);
  }
  // Whether any enqueue_view array is outside its queue. Local.
  bool has_views() const { return views_ > 0; }
  // Whether any outgoing queue holds something. Local.
  bool has_outgoing() const {
    for (const auto& [to, queue] : outgoing_)
      if (queue.bytes.size() > 0) return true;
    return false;
  }
  // The queue from block `from` (created empty if new). Local.
  MemoryBuffer& incoming_queue(int from) {
    if (MemoryBuffer* in = find_in(from)) return *in;
    MemoryBuffer* in = &incoming_[from];
    last_in_gid_ = from;
    last_in_ = in;
    return *in;
  }
  // Empties every incoming queue (keeping their memory). Local.
  void clear_incoming() {
    for (auto& [from, buf] : incoming_) buf.clear();
  }
  // Bytes of memory the queues hold (their capacity, used or not, and the
  // table by gid if the block has one). Local, O(queues).
  std::size_t queue_memory() const {
    std::size_t n = out_table_.capacity() * sizeof(OutQueue*);
    for (const auto& [to, queue] : outgoing_) n += queue.bytes.capacity();
    for (const auto& [from, buf] : incoming_) n += buf.capacity();
    return n;
  }
  // Frees the memory of every empty queue, incoming and outgoing (kept
  // otherwise for the next round), and the table by gid (made again at the
  // next enqueue): an evicted block's queues leave memory with it, and its
  // next message allocates again. Local, O(queues).
  void free_empty_queues() {
    for (auto& [to, queue] : outgoing_)
      if (queue.bytes.size() == 0 && queue.bytes.capacity() > 0) queue.bytes = MemoryBuffer();
    for (auto& [from, buf] : incoming_)
      if (buf.remaining() == 0 && buf.capacity() > 0) buf = MemoryBuffer();
    std::vector<OutQueue*>().swap(out_table_);
  }
  // Appends what is left in every incoming queue to `out` (as pairs of the
  // source gid and the bytes) and empties the queues, freeing their memory:
  // an evicted block's queues go to storage with it. Local.
  void move_incoming_to(MemoryBuffer& out) {
    for (auto& [from, buf] : incoming_) {
      if (buf.remaining() == 0) continue;
      save(out, from);
      internal::save_count(out, buf.remaining());
      out.write(buf.data() + buf.position(), buf.remaining());
      buf = MemoryBuffer();
    }
  }
  // Puts queues saved by move_incoming_to back, in front of anything that
  // arrived since. Local.
  void restore_incoming(MemoryBuffer& in) {
    while (in.remaining() > 0) {
      int from = 0;
      load(in, from);
      const std::size_t n = internal::load_count(in, 1);
      MemoryBuffer& queue = incoming_queue(from);
      MemoryBuffer merged;
      merged.write(in.read_in_place(n), n);
      merged.write(queue.data() + queue.position(), queue.remaining());
      queue = std::move(merged);
    }
  }

  // Appends the unread bytes of every queue, incoming then outgoing
  // (enqueue_view arrays included), to `out` (for dash::bp::save: the
  // queues are not changed). Local.
  void save_queues(MemoryBuffer& out) const {
    for (const auto& [gid, buf] : incoming_) save_queue(out, gid, buf, nullptr, 0);
    save(out, -1);
    for (const auto& [gid, queue] : outgoing_)
      save_queue(out, gid, queue.bytes, queue.view, queue.view_bytes);
    save(out, -1);
  }
  // Appends queues saved by save_queues to this proxy's. Local.
  void load_queues(MemoryBuffer& in) {
    for (bool incoming : {true, false}) {
      for (;;) {
        int gid = 0;
        load(in, gid);
        if (gid < 0) break;
        const std::size_t n = internal::load_count(in, 1);
        MemoryBuffer& queue = incoming ? incoming_queue(gid) : outgoing_queue(gid);
        queue.write(in.read_in_place(n), n);
      }
    }
  }

 private:
  friend class internal::QueueFront<Proxy>;
  using OutQueue = internal::OutQueue;
  static constexpr const char* kName = "dash::bp::Proxy";
  static constexpr bool kKeepViewCopies = false;

  bool unchanged_ = false;  // block_unchanged() in the current call

  // The queue to `to` for appending: an array still outside it is copied in.
  OutQueue& out_queue(int to, const char*) {
    // The table first: with random targets the last-used check would
    // mispredict on almost every call.
    OutQueue* queue = nullptr;
    if (std::size_t(to) < out_table_.size() && out_table_[std::size_t(to)] != nullptr)
      queue = out_table_[std::size_t(to)];
    else if (last_out_ != nullptr && to == last_out_gid_)
      queue = last_out_;
    else
      queue = &new_out_queue(to);
    if (queue->view_bytes > 0) materialize(*queue);
    return *queue;
  }
  // out_queue() past the table: finds or creates the queue, enters it in
  // the table (small decompositions, blocks with many queues) or the
  // last-used cache.
  OutQueue& new_out_queue(int to) {
    OutQueue* queue = &outgoing_[to];
    if (to >= 0 && to < nblocks_ &&
        (nblocks_ <= kSmallTable || (nblocks_ <= kDenseBlocks && outgoing_.size() >= kTableFrom))) {
      if (out_table_.empty()) {
        out_table_.assign(std::size_t(nblocks_), nullptr);
        for (auto& [gid, q] : outgoing_)
          if (gid >= 0 && gid < nblocks_) out_table_[std::size_t(gid)] = &q;
      }
      out_table_[std::size_t(to)] = queue;
    } else {
      last_out_gid_ = to;
      last_out_ = queue;
    }
    return *queue;
  }
  [[noreturn]] void no_queue(int from, const char* call) const {
    throw exception::InvalidArgument(std::string(kName) + "::" + call + ": block " +
                                     std::to_string(gid_) + " has no queue from block " +
                                     std::to_string(from));
  }
  static void save_queue(MemoryBuffer& out, int gid, const MemoryBuffer& buf, const char* view,
                         std::size_t view_bytes) {
    if (buf.remaining() == 0) return;
    save(out, gid);
    internal::save_count(out, buf.remaining() + view_bytes);
    out.write(buf.data() + buf.position(), buf.remaining());
    out.write(view, view_bytes);
  }

  MemoryBuffer* find_in(int from) const {
    if (last_in_ != nullptr && from == last_in_gid_) return last_in_;
    auto it = incoming_.find(from);
    if (it == incoming_.end()) return nullptr;
    last_in_gid_ = from;
    last_in_ = const_cast<MemoryBuffer*>(&it->second);
    return last_in_;
  }

  int gid_;
  const std::vector<int>* link_;
  int nblocks_;
  // std::map: nodes never move, so the cached pointers stay valid (queues
  // are emptied, never erased).
  std::map<int, OutQueue> outgoing_;
  std::map<int, MemoryBuffer> incoming_;
  std::vector<OutQueue*> out_table_;
  int last_out_gid_ = -1;
  OutQueue* last_out_ = nullptr;
  mutable int last_in_gid_ = -1;
  mutable MemoryBuffer* last_in_ = nullptr;
};

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__PROXY_H_
