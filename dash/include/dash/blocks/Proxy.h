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
// | incoming / link      | local                                         |
#ifndef DASH__BLOCKS__PROXY_H_
#define DASH__BLOCKS__PROXY_H_

#include <dash/Exception.h>
#include <dash/blocks/Serialization.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace dash {
namespace bp {

// A block's view of its queues: what it sends to and receives from other
// blocks (by gid), and its links.
class Proxy {
 public:
  Proxy(int gid, const std::vector<int>* link) : gid_(gid), link_(link) {}

  int gid() const { return gid_; }
  // The blocks this block is linked to.
  const std::vector<int>& link() const { return *link_; }
  // Appends value to the queue to block `to`. Local.
  template <class T>
  void enqueue(int to, const T& value) {
    save(outgoing_[to], value);
  }
  // Reads the next value of the queue from block `from`; throws
  // dash::exception::InvalidArgument if the queue has nothing left. Local.
  template <class T>
  void dequeue(int from, T& value) {
    auto it = incoming_.find(from);
    if (it == incoming_.end())
      throw exception::InvalidArgument("dash::bp::Proxy::dequeue: block " + std::to_string(gid_) +
                                       " has no queue from block " + std::to_string(from));
    load(it->second, value);
  }
  // Bytes left in the queue from block `from` (0 if none). Local.
  std::size_t incoming(int from) const {
    auto it = incoming_.find(from);
    return it == incoming_.end() ? 0 : it->second.remaining();
  }
  // The blocks with a non-empty incoming queue, in increasing gid. Local.
  std::vector<int> incoming_from() const {
    std::vector<int> out;
    for (const auto& [from, buf] : incoming_)
      if (buf.remaining() > 0) out.push_back(from);
    return out;
  }
  // Outgoing queues, by target gid (for Master::exchange).
  std::map<int, MemoryBuffer>& outgoing() { return outgoing_; }
  // Incoming queues, by source gid (for Master::exchange).
  std::map<int, MemoryBuffer>& incoming_queues() { return incoming_; }

 private:
  int gid_;
  const std::vector<int>* link_;
  std::map<int, MemoryBuffer> outgoing_;
  std::map<int, MemoryBuffer> incoming_;
};

}  // namespace bp
}  // namespace dash

#endif  // DASH__BLOCKS__PROXY_H_
