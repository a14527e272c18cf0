// dash::bp::internal::IExchange: the transport and termination of
// Master::iexchange() (not public); Master runs the blocks, this moves what
// they enqueue and decides when every unit is done.
//
// How it works. After each block call, route(i) hands the block's outgoing
// queues to their targets: in memory for blocks of this unit, else appended
// (Wire.h records) to one buffer per destination unit; post() turns the
// buffers filled since the last post into messages, sent in synchronous
// mode (tags 30001 and 30004 on alternate calls of the team, so a unit that
// has finished may send for the next call while another still polls for
// this one). progress() starts due sends, retires completed ones and
// receives what has come. Both route and post visit only the destinations a
// call's queues go to: per block call the work follows the neighbours, not
// the team size (the per-unit slot table is made once per master).
// Termination is the IExchange state machine of Termination.h: a unit idle
// (every block done, nothing in flight) enters a non-blocking barrier, then
// a non-blocking OR of "dirty" bits; all clean ends the call.
//
// Failures: once a block call throws (or enqueues outside [0, nblocks), or
// foreach held a failure), the unit stops calling blocks, drops its queues
// and sends a notice to every other unit, which stops too; termination runs
// as usual with a failure bit, and finish() throws on every unit (its own
// exception where it happened, RemoteFailure elsewhere).
//
// | call                  | cost                                           |
// |-----------------------|------------------------------------------------|
// | begin                 | local; O(units) the first time per team size   |
// | route, post           | local; O(queues of the call)                   |
// | progress              | local: MPI tests and probes                    |
// | step                  | local, or starts/tests a non-blocking          |
// |                       | barrier or allreduce                           |
#ifndef DASH__BP__INTERNAL__IEXCHANGE_H_
#define DASH__BP__INTERNAL__IEXCHANGE_H_

#include <dart/dart.h>
#include <dash/bp/Termination.h>
#include <dash/bp/internal/BlockQueues.h>
#include <dash/bp/internal/Polling.h>
#include <dash/internal/Failure.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace dash {
namespace bp {
namespace internal {

class IExchange {
 public:
  // What the last call did: block calls, messages sent to other units and
  // their bytes, and the per-unit buffers it looked at to send them.
  struct Stats {
    std::size_t block_calls = 0, messages = 0, bytes = 0, buffers_visited = 0;
  };

  // Starts a call over q's blocks (each runs at least once); `held`: a
  // failure held from foreach (reported by this call). Local.
  void begin(BlockQueues& q, std::exception_ptr held);
  // Whether block calls have stopped (after a failure). Local.
  bool stopped() const { return stopped_; }
  // Counts n block calls. Local.
  void count_calls(std::size_t n) { stats_.block_calls += n; }
  // Keeps the exception being handled as this unit's failure. Local.
  void capture(std::string context) { failure_.capture(std::move(context)); }
  void capture() { failure_.capture(); }
  // Hands the queues entry i filled to their targets (InvalidArgument for a
  // gid outside [0, nblocks)). Local.
  void route(std::size_t i);
  // The buffers filled since the last post become messages (sent now, or
  // after a test delay). Local.
  void post();
  // Starts due sends, retires completed ones, receives what has come.
  // Returns whether anything happened. Local.
  bool progress();
  // After the first failure this unit knows of: no more block calls, every
  // block done, queues dropped, and (its own failure) a notice to every
  // other unit. Local.
  void stop();
  // When memory is short (a memory-block limit the blocks exceed), polls
  // until the bytes in messages being sent are within the send window.
  // Local.
  void wait_for_window();
  // One turn of the loop after the block calls: progress, then a step of
  // termination; `moved`: blocks ran. Returns true once every unit is done.
  // Local, or starts/tests a non-blocking collective.
  bool step(bool moved);
  // Ends the call: throws the failure this unit knows of. Local.
  void finish();

  Stats last() const { return stats_; }
  std::size_t peak_sending_bytes() const { return peak_sending_bytes_; }

 private:
  // A packed message to another unit, until its send completes.
  struct Outbound {
    int unit;
    Bytes bytes;
    dart_handle_t handle = DART_HANDLE_NULL;
    std::chrono::steady_clock::time_point release;  // test delays only
  };
  // The buffer of queues bound for one unit.
  struct Pack {
    int unit;
    MemoryBuffer buf;
  };
  MemoryBuffer& pack_for(int unit);
  void take(const char* data, std::size_t total);
  std::size_t send_window() const;

  BlockQueues* q_ = nullptr;
  int tag_ = 0;
  long delay_max_us_ = 0;
  std::mt19937_64 random_;
  std::vector<Outbound> outbound_;   // packed, sending or held back
  std::size_t outbound_bytes_ = 0;   // their bytes
  std::vector<Pack> packs_;          // per destination unit met so far
  std::vector<int> pack_of_unit_;    // team unit -> index in packs_ (-1: none yet)
  std::vector<std::size_t> filled_;  // packs written since the last post
  Bytes received_;
  // The termination machine, its collectives and the idle wait of a call
  // (behind a pointer, made once: the master moves, these do not).
  struct Call {
    Termination termination;
    std::optional<TeamCollectives> collectives;
    std::optional<IdleWait> idle;
  };
  std::unique_ptr<Call> call_;
  dash::internal::Failure failure_;
  bool stopped_ = false;
  Stats stats_;
  std::size_t peak_sending_bytes_ = 0;
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__IEXCHANGE_H_
