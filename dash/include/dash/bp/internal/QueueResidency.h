// dash::bp::internal::QueueResidency: what a master's queues need to know of
// its blocks' residency (not public). Residency<Block> implements it, so the
// queue code (BlockQueues, the transports) knows no block type.
//
// | call | cost                   |
// |------|------------------------|
// | all  | local; a virtual call  |
#ifndef DASH__BP__INTERNAL__QUEUE_RESIDENCY_H_
#define DASH__BP__INTERNAL__QUEUE_RESIDENCY_H_

#include <dash/bp/SpillStore.h>

#include <cstddef>

namespace dash {
namespace bp {
namespace internal {

class QueueResidency {
 public:
  // Whether a memory-block limit is set, and its size.
  virtual bool limited() const = 0;
  virtual std::size_t limit() const = 0;
  // Blocks, and whether block i is in memory.
  virtual std::size_t size() const = 0;
  virtual bool resident(std::size_t i) const = 0;
  // The bytes of the largest block stored so far (0: none).
  virtual std::size_t largest_stored() const = 0;
  // The store of bytes that go with evicted blocks (queues).
  virtual SpillStore& extra_store() = 0;

 protected:
  ~QueueResidency() = default;
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__QUEUE_RESIDENCY_H_
