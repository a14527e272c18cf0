// dash::bp::ReduceProxy: a block's view of one call of a reduction
// (dash::bp::reduce, Reduce.h, which says how the queues travel): the links
// of the call and the queues to and from them. Received arrays live in
// memory of a process-wide stock (detail/BufferStock.h), not fresh pages.
//
// | call                 | cost                                                    |
// |----------------------|---------------------------------------------------------|
// | enqueue / dequeue    | local; the value's bytes copied once                    |
// | enqueue_view         | local; no copy (one if the target is on this unit)      |
// | dequeue_view         | local; no copy (one if misaligned for T)                |
// | in_link / out_link   | local                                                   |
#ifndef DASH__BP__REDUCE_PROXY_H_
#define DASH__BP__REDUCE_PROXY_H_

#include <dash/Exception.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/detail/BufferStock.h>
#include <dash/bp/detail/ByteMemory.h>

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

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__REDUCE_PROXY_H_
