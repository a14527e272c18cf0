// How a global allocator makes memory global (DASH's names). Local.
#ifndef DASH__ALLOCATOR__ALLOCATION_POLICY_H_
#define DASH__ALLOCATOR__ALLOCATION_POLICY_H_

#include <cstdint>

namespace dash {

// | policy             | meaning                                                       |
// |--------------------|---------------------------------------------------------------|
// | collective         | all units of the team allocate together                      |
// | non_collective     | a unit allocates alone, others reach it without taking part   |
// | epoch_synchronized | units allocate local memory alone and attach it to global     |
// |                    | memory together (EpochSynchronizedAllocator)                  |
enum class global_allocation_policy : std::uint8_t {
  collective,
  non_collective,
  epoch_synchronized,
};

}  // namespace dash

#endif  // DASH__ALLOCATOR__ALLOCATION_POLICY_H_
