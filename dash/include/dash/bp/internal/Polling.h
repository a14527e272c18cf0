// What the polling loops of dash::bp share (not public): byte buffers being
// sent until their sends complete, and the wait of a unit that polled and
// found nothing to do.
//
// | call                   | cost                                           |
// |------------------------|------------------------------------------------|
// | SendsInFlight::send    | one dart_isend; keeps the buffer               |
// | SendsInFlight::retire  | one dart_test_local per send in flight         |
// | IdleWait               | local; yields or sleeps 20 us when DART yields; |
// |                        | a clock read per poll with the watchdog on     |
#ifndef DASH__BP__INTERNAL__POLLING_H_
#define DASH__BP__INTERNAL__POLLING_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/bp/Serialization.h>
#include <sched.h>

#include <chrono>
#include <cstddef>
#include <thread>
#include <utility>
#include <vector>

namespace dash {
namespace bp {
namespace internal {

// Byte buffers being sent, each kept until its send completes.
class SendsInFlight {
 public:
  std::size_t size() const { return flight_.size(); }
  bool empty() const { return flight_.empty(); }
  // Starts sending `bytes` (may be empty) to unit `dest` of `team` with
  // `tag` and keeps them; `synchronous`: the send completes only once the
  // receiver matched it (dart_issend), so what is in flight is bounded at
  // both ends. One-sided start (dart_isend); throws on a DART error.
  void send(Bytes bytes, int dest, int tag, dart_team_t team, bool synchronous = false) {
    static const char nothing = 0;  // a valid address for an empty message
    InFlight out{DART_HANDLE_NULL, std::move(bytes)};
    const char* data = out.bytes.size() > 0 ? out.bytes.data() : &nothing;
    const dart_ret_t ret =
        synchronous
            ? dart_issend(data, out.bytes.size(), tag, DART_TEAM_UNIT_ID(dest), team, &out.handle)
            : dart_isend(data, out.bytes.size(), tag, DART_TEAM_UNIT_ID(dest), team, &out.handle);
    if (ret != DART_OK)
      dash::internal::throw_dart_error(ret, synchronous ? "dart_issend" : "dart_isend");
    flight_.push_back(std::move(out));
  }
  // Hands the buffers whose sends completed to recycle(Bytes&&); returns
  // whether any did. Local.
  template <class Recycle>
  bool retire(Recycle&& recycle) {
    bool any = false;
    for (std::size_t k = 0; k < flight_.size();) {
      std::int32_t done = 0;
      const dart_ret_t ret = dart_test_local(&flight_[k].handle, &done);
      if (ret != DART_OK) dash::internal::throw_dart_error(ret, "dart_test_local");
      if (!done) {
        ++k;
        continue;
      }
      recycle(std::move(flight_[k].bytes));
      flight_.erase(flight_.begin() + std::ptrdiff_t(k));
      any = true;
    }
    return any;
  }

 private:
  struct InFlight {
    dart_handle_t handle;
    Bytes bytes;
  };
  std::vector<InFlight> flight_;
};

// The wait between polls of a loop: none while it makes progress; where
// DART waits by yielding (DART_WAIT, e.g. more units than cores), a yield
// of the core after 4 polls without progress and a sleep of 20 us after 64.
// The watchdog (DART_WATCHDOG) watches the loop as `call` on `team`: a unit
// whose loop makes no progress that long reports it (and aborts the job
// with DART_WATCHDOG_ACTION=abort), as a peer that died or a host that fell
// off the network leaves it polling forever.
class IdleWait {
 public:
  IdleWait(const char* call, dart_team_t team) : yield_(dart_yield_when_idle() != 0) {
    dart_poll_watch_begin(&watch_, call, team);
  }
  // Call once per poll with whether it made progress. Local.
  void after_poll(bool progress) {
    dart_poll_watch(&watch_, progress ? 1 : 0);
    if (progress) {
      polls_ = 0;
    } else if (yield_ && ++polls_ >= 64) {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    } else if (yield_ && polls_ >= 4) {
      sched_yield();
    }
  }

 private:
  bool yield_;
  int polls_ = 0;
  dart_poll_watch_t watch_;
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__POLLING_H_
