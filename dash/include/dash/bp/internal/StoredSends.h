// dash::bp::internal::StoredSends (not public): queues in a SpillStore sent to
// other units, each as a message of its own, by exchange() (stored parts)
// and by the reductions' rounds (stored queues): loaded in turn, at most
// kWindow loaded and in flight at once, the next one prefetched, so a unit
// holds about two of them in memory however many it sends.
//
// | call  | cost                                                      |
// |-------|-----------------------------------------------------------|
// | add   | local                                                     |
// | step  | local: tests the sends, loads and starts (dart_isend) more |
#ifndef DASH__BP__INTERNAL__STORED_SENDS_H_
#define DASH__BP__INTERNAL__STORED_SENDS_H_

#include <dart/dart.h>
#include <dash/bp/SpillStore.h>
#include <dash/bp/internal/Polling.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace dash {
namespace bp {
namespace internal {

class StoredSends {
 public:
  // A stored queue of nbytes under `key`, from block `from` to block `to`
  // of unit `dest`.
  struct Queue {
    std::uint64_t key;
    std::size_t nbytes;
    int from, to, dest;
  };
  static constexpr std::size_t kWindow = 2;

  StoredSends(SpillStore& store, int tag, dart_team_t team)
      : store_(store), tag_(tag), team_(team) {}

  void add(const Queue& queue) { queues_.push_back(queue); }
  // Whether every queue was sent and every send completed. Local.
  bool done() const { return next_ == queues_.size() && flight_.empty(); }

  // Frees the loaded queues whose sends completed, then loads and sends the
  // next ones. A queue that cannot be loaded (or of another size than
  // announced) goes as 0 bytes, the receiver's sign of a failure, and
  // failed(queue, what) is told (inside the handler of the exception); once
  // dropping(), queues are erased, not loaded, and go as 0 bytes. Returns
  // whether anything happened. Local.
  template <class Dropping, class Failed>
  bool step(Dropping&& dropping, Failed&& failed) {
    bool progress = flight_.retire([&](Bytes&& bytes) { store_.recycle(std::move(bytes)); });
    while (flight_.size() < kWindow && next_ < queues_.size()) {
      const Queue& q = queues_[next_++];
      if (next_ < queues_.size()) store_.prefetch(queues_[next_].key);
      Bytes bytes;
      try {
        if (dropping()) {
          store_.erase(q.key);
        } else {
          bytes = store_.take(q.key);
          if (bytes.size() != q.nbytes)
            throw exception::RuntimeError("its store gave back " + std::to_string(bytes.size()) +
                                          " bytes, not " + std::to_string(q.nbytes));
        }
      } catch (const std::exception& e) {
        bytes = Bytes();
        failed(q, std::string(e.what()));
      }
      flight_.send(std::move(bytes), q.dest, tag_, team_);
      progress = true;
    }
    return progress;
  }

 private:
  SpillStore& store_;
  int tag_;
  dart_team_t team_;
  std::vector<Queue> queues_;
  std::size_t next_ = 0;
  SendsInFlight flight_;
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__STORED_SENDS_H_
