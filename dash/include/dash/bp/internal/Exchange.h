// dash::bp::internal::Exchange: the transport of Master::exchange() (not
// public): every outgoing queue of the calling unit's blocks to its target
// block's incoming queue, bulk-synchronously.
//
// How it works. Queues for blocks of this unit are delivered in memory. For
// another unit, every queue gets a {from, to, nbytes} header (Wire.h) in one
// packed buffer per destination unit; a queue of 32 KiB or more goes as a
// message of its own (tag 30003), from the sender's queue straight into the
// receiver's, announced in the packed buffer by a negative size that also
// carries its address residue (both MPIs copy several times slower when
// source and destination differ in it; Wire.h). Only the units a unit sends to are visited, so
// packing follows the neighbours, not the team size. Then:
//   dense (at most DASH_BP_EXCHANGE_SPARSE_UNITS units, default 8): one
//     alltoall of sizes (a failure mark or a has-parts bit riding on them),
//     one alltoallv of the packed buffers;
//   sparse (NBX, more units): each packed buffer to its unit alone in
//     synchronous mode (tag 30005); a unit receives what comes until a
//     non-blocking barrier, entered once its own sends were matched,
//     completes; one 2-int allreduce then agrees on failures and on parts.
// Out of core, outgoing queues that went to the store (BlockQueues) are
// announced with a part mark and travel afterwards, one message each, two
// loaded at a time (exchange_parts), closed by one int allreduce.
//
// Failures: a failure held from foreach, an enqueue outside [0, nblocks),
// or one while packing makes the unit send a failure mark (dense) or nothing
// (sparse); every unit learns of it from the sizes or the closing allreduce,
// every queue is emptied, and every unit throws (its own exception where it
// happened, RemoteFailure naming the lowest failing unit elsewhere). A
// failure receiving on the dense path, after its last collective, is held
// for the next collective call (`held`).
//
// | call | cost                                                          |
// |------|---------------------------------------------------------------|
// | run  | collective over the team: see above                           |
#ifndef DASH__BP__INTERNAL__EXCHANGE_H_
#define DASH__BP__INTERNAL__EXCHANGE_H_

#include <dart/dart.h>
#include <dash/bp/internal/BlockQueues.h>
#include <dash/bp/internal/Wire.h>
#include <dash/internal/Failure.h>
#include <dash/internal/Flags.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <vector>

namespace dash {
namespace bp {
namespace internal {

class Exchange {
 public:
  // What the last run sent to other units: messages (one packed message per
  // destination unit, plus each queue sent on its own) and their bytes.
  struct Stats {
    std::size_t messages = 0, bytes = 0;
  };
  // exchange() is NBX on more units than this, dense collectives on fewer
  // (DASH_BP_EXCHANGE_SPARSE_UNITS's default).
  static constexpr std::size_t kSparseAboveUnits = std::size_t(
      dash::internal::flag_spec(dash::internal::Flag::bp_exchange_sparse_units).fallback);

  void set_sparse_above_units(std::size_t n) { sparse_above_units_ = n; }

  // Delivers every outgoing queue of q to its target's incoming queue (the
  // incoming queues of the previous round are dropped first). `held`: a
  // failure held from foreach on entry (reported here), a failure after the
  // last collective on return (for the next collective call). Collective.
  void run(BlockQueues& q, std::exception_ptr& held);
  Stats last() const { return last_; }

 private:
  // A queue sent on its own, until the send completes.
  struct Direct {
    int unit;
    const char* data;
    std::size_t bytes;
  };
  // A unit this one sends a packed message to: its bytes and where they
  // start in the send buffer (offset; fill while packing).
  struct Destination {
    int unit;
    std::size_t bytes, offset, fill;
  };
  // A queue part another unit announced, received by exchange_parts.
  struct ExpectedPart {
    int unit, from, to;
    std::size_t nbytes;
  };

  void pack_queues(dash::internal::Failure& failure);
  void sparse(dash::internal::Failure& failure, bool my_parts, std::exception_ptr& held);
  void dense(dash::internal::Failure& failure, bool my_parts, std::exception_ptr& held);
  void unpack(const char* data, std::size_t total, int source_unit);
  bool receive_packed(dash::internal::Failure& failure);
  void drain_directs(const char* data, std::size_t nbytes, int from);
  void receive_direct(int from, int to, std::size_t n, std::size_t residue, int source_unit);
  void exchange_parts();
  void receive_part(const ExpectedPart& part, dart_message_t& message, std::size_t nbytes,
                    std::vector<char>& scratch, dash::internal::Failure& failure);
  Destination& destination(int unit);
  // Runs f, a local step after the last collective; a failure is held.
  template <class F>
  void hold_failures_of(F&& f, std::exception_ptr& held) {
    try {
      f();
    } catch (...) {
      if (!held) held = std::current_exception();
    }
  }

  BlockQueues* q_ = nullptr;  // during run
  // The units this round sends to, in the order first met, and for each
  // unit its index there (-1: none; only the entries used are reset).
  std::vector<Destination> destinations_;
  std::vector<int> slot_of_unit_;
  std::vector<std::size_t> send_counts_, send_offsets_;  // dense
  std::vector<std::size_t> recv_counts_, recv_offsets_;  // dense
  Bytes send_, recv_;
  std::vector<Direct> direct_;
  std::vector<dart_handle_t> sends_;          // packed messages and directs in flight
  std::size_t directs_received_ = 0;          // of the packed message being unpacked
  std::vector<ExpectedPart> expected_parts_;  // announced by unpack
  Stats last_;
  std::size_t sparse_above_units_ = kSparseAboveUnits;
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__EXCHANGE_H_
