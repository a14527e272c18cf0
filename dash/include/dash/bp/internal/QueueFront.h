// dash::bp::internal::QueueFront: what a block's callback does with its queues
// (enqueue, enqueue_view, dequeue, dequeue_view, incoming), written once for
// the three proxies: Proxy (exchange, iexchange), ReduceProxy (reduce) and
// AllToAllProxy (all_to_all). Not public; the proxies' headers document the
// calls.
//
// One queue layout for all: an outgoing queue (OutQueue) is serialised bytes
// followed by at most one enqueue_view array still in the caller's memory
// (its element count is in the bytes, as a std::vector's); an incoming queue
// is a MemoryBuffer, read front to back. The transports send the array from
// the caller's memory and receive it into the incoming queue at the sender's
// address residue (Wire.h), so dequeue_view reads it in place.
//
// A proxy (Derived) provides, privately (QueueFront is its friend):
//   kName                          "dash::bp::Proxy" etc., for errors
//   kKeepViewCopies                true: misaligned dequeue_view copies stay
//                                  valid until clear_view_copies(), false:
//                                  until the next dequeue_view
//   OutQueue& out_queue(to, call)  the queue to `to` to append to; throws
//                                  InvalidArgument where `to` is not a
//                                  target; an array still outside it is
//                                  copied in first (or refused)
//   void before_view(q, to)        checks before enqueue_view (may throw)
//   MemoryBuffer* find_in(from)    the queue from `from`, or nullptr
//   [[noreturn]] no_queue(from, call)   throws: no queue from `from`
//
// | call                 | cost                                        |
// |----------------------|---------------------------------------------|
// | enqueue / dequeue    | local: one copy of the value's bytes        |
// | enqueue_view         | local: no copy                              |
// | dequeue_view         | local: no copy (one if misaligned for T)    |
#ifndef DASH__BP__INTERNAL__QUEUE_FRONT_H_
#define DASH__BP__INTERNAL__QUEUE_FRONT_H_

#include <dash/Exception.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/internal/Wire.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {
namespace bp {
namespace internal {

// An outgoing queue: its bytes, then those of an enqueue_view array not
// copied in (view_bytes > 0).
struct OutQueue {
  MemoryBuffer bytes;
  const char* view = nullptr;
  std::size_t view_bytes = 0;
};

// The parts of `queue` as the packer takes them (Wire.h). Local.
inline wire::QueueParts parts_of(const OutQueue& queue) {
  return {queue.bytes.data(), queue.bytes.size(), queue.view, queue.view_bytes};
}

// The largest enqueue_view array: its size, times Wire.h's residues, must
// stay below Wire.h's part mark (2^60).
constexpr std::size_t kMaxViewBytes = std::size_t(1) << 53;

template <class Derived>
class QueueFront {
 public:
  // Appends value to the queue to block `to`. Local; one copy of its bytes.
  template <class T>
  void enqueue(int to, const T& value) {
    save(self().out_queue(to, "enqueue").bytes, value);
  }
  // Appends the n elements at data as a std::vector<T> would be (dequeue it
  // as one, or with dequeue_view<T>). Local; one copy of the bytes.
  template <class T>
  void enqueue(int to, const T* data, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "enqueue(to, data, n) needs trivially copyable T");
    MemoryBuffer& queue = self().out_queue(to, "enqueue").bytes;
    internal::save_count(queue, n);
    queue.write(data, n * sizeof(T));
  }
  // The same without copying the elements into the queue (the proxy's
  // header says until when the memory must stay as it is). InvalidArgument
  // past 2^53 bytes. Local; no copy.
  template <class T>
  void enqueue_view(int to, const T* data, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>, "enqueue_view needs trivially copyable T");
    if (n > kMaxViewBytes / sizeof(T))
      throw exception::InvalidArgument(
          std::string(Derived::kName) + "::enqueue_view: " + std::to_string(n) + " elements of " +
          std::to_string(sizeof(T)) + " bytes exceed one queue (2^53 bytes)");
    OutQueue& queue = self().out_queue(to, "enqueue_view");
    self().before_view(queue, to);
    internal::save_count(queue.bytes, n);
    if (n == 0) return;
    queue.view = reinterpret_cast<const char*>(data);
    queue.view_bytes = n * sizeof(T);
    ++views_;
  }
  // Reads the next value of the queue from block `from`; InvalidArgument if
  // there is no such queue or nothing of the value left in it. Local.
  template <class T>
  void dequeue(int from, T& value) {
    load(in_queue(from, "dequeue"), value);
  }
  // Reads the next std::vector<T> of the queue from `from` in place (valid
  // until the callback returns; when misaligned for T, a copy, valid as
  // kKeepViewCopies says). Errors as dequeue. Local; no copy.
  template <class T>
  QueueView<T> dequeue_view(int from) {
    MemoryBuffer& in = in_queue(from, "dequeue_view");
    if (!Derived::kKeepViewCopies && !view_copies_.empty())
      return internal::load_view<T>(in, view_copies_.back());
    view_copies_.emplace_back();
    return internal::load_view<T>(in, view_copies_.back());
  }
  // Bytes left in the queue from block `from` (0 if none). Local.
  std::size_t incoming(int from) const {
    const MemoryBuffer* in = self().find_in(from);
    return in == nullptr ? 0 : in->remaining();
  }

 protected:
  // Default of the hook.
  void before_view(OutQueue&, int) {}

  // Copies queue's enqueue_view array into its bytes. Local; one copy.
  void materialize(OutQueue& queue) {
    if (queue.view_bytes == 0) return;
    queue.bytes.write(queue.view, queue.view_bytes);
    forget_view(queue);
  }
  // Drops queue's array (sent, or the queue emptied). Local.
  void forget_view(OutQueue& queue) {
    if (queue.view_bytes == 0) return;
    queue.view = nullptr;
    queue.view_bytes = 0;
    --views_;
  }
  // Empties queue (keeping its memory). Local.
  void clear_queue(OutQueue& queue) {
    queue.bytes.clear();
    forget_view(queue);
  }
  // Frees the copies misaligned dequeue_view made. Local.
  void clear_view_copies() { view_copies_.clear(); }

  std::size_t views_ = 0;  // enqueue_view arrays outside their queues

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  const Derived& self() const { return static_cast<const Derived&>(*this); }
  MemoryBuffer& in_queue(int from, const char* call) {
    MemoryBuffer* in = self().find_in(from);
    if (in == nullptr) self().no_queue(from, call);
    return *in;
  }

  std::vector<std::vector<std::max_align_t>> view_copies_;  // misaligned dequeue_view
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__QUEUE_FRONT_H_
