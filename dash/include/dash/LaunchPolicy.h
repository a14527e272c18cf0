// dash::launch: how an operation that offers a choice runs -- now (sync) or
// alongside the caller (async) -- as DASH's HDF5 streams take it.
#ifndef DASH__LAUNCH_POLICY_H_
#define DASH__LAUNCH_POLICY_H_

#include <cstdint>

namespace dash {

enum class launch : std::uint16_t {
  sync = 0x1,   // the operation completes before the call returns
  async = 0x2,  // the operation may go on after the call returns; wait with its flush()
};

}  // namespace dash

#endif  // DASH__LAUNCH_POLICY_H_
