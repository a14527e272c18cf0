// dash::bp::internal::Exchange (Exchange.h): the transport of Master::exchange().
#include <dash/Exception.h>
#include <dash/bp/internal/Exchange.h>
#include <dash/bp/internal/Polling.h>
#include <dash/bp/internal/StoredSends.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <utility>

namespace dash {
namespace bp {
namespace internal {

namespace {
constexpr int kExchangeTag = 30003;  // queues (and stored parts) sent on their own
constexpr int kPackedTag = 30005;    // sparse: a unit's packed queues
constexpr const char* kCall = "dash::bp::Master::exchange";
constexpr std::size_t kDirect = wire::kDirectBytes;  // parts from this size go on their own

// Matches the next queue unit `from` sent on its own on `comm` (waits for
// it); returns its bytes.
std::size_t probe_direct(int from, dart_team_t comm, dart_message_t& message) {
  dart_team_unit_t sender;
  std::size_t nbytes = 0;
  dash::check_dart(
      dart_mprobe(kExchangeTag, DART_TEAM_UNIT_ID(from), comm, &message, &sender, &nbytes),
      "dart_mprobe");
  return nbytes;
}

}  // namespace

Exchange::Destination& Exchange::destination(int unit) {
  int& slot = slot_of_unit_[std::size_t(unit)];
  if (slot < 0) {
    slot = int(destinations_.size());
    destinations_.push_back(Destination{unit, 0, 0, 0});
  }
  return destinations_[std::size_t(slot)];
}

void Exchange::run(BlockQueues& q, std::exception_ptr& held) {
  q_ = &q;
  last_ = Stats{};
  const std::size_t units = q.team().size();
  dash::internal::Failure failure;
  failure.capture(std::exchange(held, nullptr));
  if (!failure.any()) q.check_targets(failure, "exchange");
  q.clear_incoming();
  if (!failure.any()) {
    try {
      q.complete_outgoing_parts();
    } catch (...) {
      failure.capture("unit " + std::to_string(q.me()) + ", storing its outgoing queues");
    }
  }
  const bool my_parts = !q.spilled().outgoing().empty();
  pack_queues(failure);
  if (units == 1) {
    if (failure.any()) q.drop_queues();
    failure.raise(kCall);
    q.clear_outgoing();
    if (my_parts) exchange_parts();
    q.spill_all_incoming();
    return;
  }
  if (units > sparse_above_units_)
    sparse(failure, my_parts, held);
  else
    dense(failure, my_parts, held);
}

// Bytes per destination unit: a header per queue, followed by its bytes
// unless the queue goes as a message of its own; queues in the store (memory
// short) get a part-mark header each, their bytes follow in exchange_parts.
// Only the units this one sends to are visited. A failure here (memory, a
// queue to a block this unit does not hold) is captured.
void Exchange::pack_queues(dash::internal::Failure& failure) {
  BlockQueues& q = *q_;
  const int me = q.me();
  try {
    const std::size_t units = q.team().size();
    if (slot_of_unit_.size() != units) slot_of_unit_.assign(units, -1);
    for (const Destination& d : destinations_) slot_of_unit_[std::size_t(d.unit)] = -1;
    destinations_.clear();
    if (!failure.any()) {
      for (const auto& part : q.spilled().outgoing()) {
        const int dest = q.owner(part.to);
        if (dest != me) destination(dest).bytes += wire::kHeaderBytes;
      }
      for (std::size_t i = 0; i < q.size(); ++i)
        q.entry(i).proxy->for_each_outgoing([&](int to, OutQueue& queue) {
          const int dest = q.owner(to);
          if (dest != me) destination(dest).bytes += wire::packed_size(parts_of(queue), kDirect);
        });
    }
    std::size_t send_total = 0;
    for (Destination& d : destinations_) {
      d.offset = d.fill = send_total;
      send_total += d.bytes;
    }
    send_.resize(send_total + 1);  // data() valid when nothing is sent
    direct_.clear();
    if (failure.any()) return;
    for (const auto& part : q.spilled().outgoing()) {
      const int dest = q.owner(part.to);
      if (dest == me) continue;
      Destination& d = destination(dest);
      wire::write_header(send_.data() + d.fill, part.from, part.to,
                         -wire::kPartMark - std::int64_t(part.nbytes));
      d.fill += wire::kHeaderBytes;
    }
    // A queue's bytes, then its enqueue_view array's (if any): packed, or
    // from wire::kDirectBytes announced and sent on its own, straight from
    // its memory.
    for (std::size_t i = 0; i < q.size(); ++i) {
      BlockQueues::Entry& e = q.entry(i);
      e.proxy->for_each_outgoing([&](int to, OutQueue& queue) {
        const int dest = q.owner(to);
        if (dest == me) {
          q.deliver(e.gid, to, queue.bytes, "exchange");
          if (queue.view_bytes > 0) q.deliver(e.gid, to, queue.view, queue.view_bytes, "exchange");
          return;
        }
        Destination& d = destination(dest);
        char* at = send_.data() + d.fill;
        d.fill = std::size_t(wire::pack_queue(at, e.gid, to, parts_of(queue), kDirect,
                                              [&](const char* data, std::size_t n) {
                                                direct_.push_back(Direct{dest, data, n});
                                              }) -
                             send_.data());
      });
    }
  } catch (...) {
    failure.capture("unit " + std::to_string(me) + ", packing its queues");
    direct_.clear();
  }
}

// NBX: a packed message to each unit that has queues from this one, the
// large queues after it as messages of their own, all in synchronous mode;
// incoming messages are received as they come. Once every send of this
// unit was matched, the unit enters a non-blocking barrier; when it
// completes, every message of every unit has been received. One allreduce
// then agrees on failures and on queue parts in the store. A failing unit
// sends nothing and drops what it receives.
void Exchange::sparse(dash::internal::Failure& failure, bool my_parts, std::exception_ptr& held) {
  BlockQueues& q = *q_;
  const int me = q.me();
  const dart_team_t comm = q.message_team();
  if (failure.any()) direct_.clear();
  sends_.clear();
  sends_.reserve(destinations_.size() + direct_.size());
  if (!failure.any()) {
    for (const Destination& d : destinations_) {
      if (d.bytes == 0) continue;
      sends_.push_back(DART_HANDLE_NULL);
      dash::check_dart(dart_issend(send_.data() + d.offset, d.bytes, kPackedTag,
                                   DART_TEAM_UNIT_ID(d.unit), comm, &sends_.back()),
                       "dart_issend");
    }
    for (const Direct& d : direct_) {
      sends_.push_back(DART_HANDLE_NULL);
      dash::check_dart(dart_issend(d.data, d.bytes, kExchangeTag, DART_TEAM_UNIT_ID(d.unit), comm,
                                   &sends_.back()),
                       "dart_issend");
    }
  }
  last_ = Stats{sends_.size(), 0};
  if (!sends_.empty()) {
    for (const Destination& d : destinations_) last_.bytes += d.bytes;
    for (const Direct& d : direct_) last_.bytes += d.bytes;
  }
  dart_handle_t barrier = DART_HANDLE_NULL;
  bool in_barrier = false;
  IdleWait idle(kCall, comm);
  for (;;) {
    bool progress = receive_packed(failure);
    std::int32_t done = 0;
    if (!in_barrier) {
      dash::check_dart(dart_testall(sends_.data(), sends_.size(), &done), "dart_testall");
      if (done) {
        dash::check_dart(dart_ibarrier(comm, &barrier), "dart_ibarrier");
        in_barrier = progress = true;
      }
    } else {
      dash::check_dart(dart_test(&barrier, &done), "dart_test");
      if (done) break;
    }
    idle.after_poll(progress);
  }
  sends_.clear();
  direct_.clear();
  // [0]: the lowest failing unit (INT_MAX: none); [1]: 0 if any unit has parts.
  const int mine[2] = {failure.own() ? me : INT_MAX, my_parts ? 0 : 1};
  int agreed[2] = {INT_MAX, 1};
  dash::check_dart(dart_allreduce(mine, agreed, 2, DART_TYPE_INT, DART_OP_MIN, comm),
                   "dart_allreduce");
  if (agreed[0] != INT_MAX) {
    const std::string message = dash::internal::broadcast_failure_message(
        failure.own() ? failure.own_message() : std::string(), agreed[0], comm, kCall);
    q.drop_queues();
    expected_parts_.clear();
    if (failure.own()) std::rethrow_exception(failure.own_exception());
    throw exception::RemoteFailure(kCall, agreed[0], message);
  }
  q.clear_outgoing();
  if (agreed[1] == 0) exchange_parts();
  hold_failures_of([&] { q.spill_all_incoming(); }, held);
}

// One alltoall of sizes (a failure mark or the has-parts bit riding on
// them), one alltoallv of the packed queues (queues sent on their own follow
// the sizes). On few units two dense collectives cost less than synchronous
// sends, a barrier and an allreduce (BM_sparse_protocol).
void Exchange::dense(dash::internal::Failure& failure, bool my_parts, std::exception_ptr& held) {
  BlockQueues& q = *q_;
  const std::size_t units = q.team().size();
  const int me = q.me();
  const dart_team_t comm = q.message_team();
  constexpr std::size_t kFailed = ~std::size_t(0);
  constexpr std::size_t kHasParts = std::size_t(1) << 62;
  send_counts_.assign(units, 0);
  send_offsets_.assign(units, 0);
  for (const Destination& d : destinations_) {
    send_counts_[std::size_t(d.unit)] = d.bytes;
    send_offsets_[std::size_t(d.unit)] = d.offset;
  }
  recv_counts_.assign(units, 0);
  recv_offsets_.resize(units);
  if (failure.any())
    std::fill(send_counts_.begin(), send_counts_.end(), kFailed);
  else if (my_parts)
    for (std::size_t& c : send_counts_) c |= kHasParts;
  dash::check_dart(dart_alltoall(send_counts_.data(), recv_counts_.data(), sizeof(std::size_t),
                                 DART_TYPE_BYTE, comm),
                   "dart_alltoall");
  bool any_parts = my_parts;
  for (std::size_t u = 0; u < units; ++u) {
    if (recv_counts_[u] == kFailed) continue;
    any_parts = any_parts || (recv_counts_[u] & kHasParts) != 0;
    recv_counts_[u] &= ~kHasParts;
    send_counts_[u] &= ~kHasParts;
  }
  // A failure mark from any unit (this one included): every unit learns the
  // lowest failing unit's message and throws.
  for (std::size_t u = 0; u < units; ++u) {
    if (recv_counts_[u] != kFailed) continue;
    const std::string message = dash::internal::broadcast_failure_message(
        failure.own() ? failure.own_message() : std::string(), int(u), comm, kCall);
    direct_.clear();
    q.drop_queues();
    if (failure.own()) std::rethrow_exception(failure.own_exception());
    throw exception::RemoteFailure(kCall, int(u), message);
  }
  last_ = Stats{direct_.size(), 0};
  for (const Destination& d : destinations_) {
    last_.messages += d.bytes > 0;
    last_.bytes += d.bytes;
  }
  sends_.clear();
  sends_.reserve(direct_.size());
  for (const Direct& d : direct_) {
    last_.bytes += d.bytes;
    sends_.push_back(DART_HANDLE_NULL);
    dash::check_dart(
        dart_isend(d.data, d.bytes, kExchangeTag, DART_TEAM_UNIT_ID(d.unit), comm, &sends_.back()),
        "dart_isend");
  }
  std::size_t total = 0;
  for (std::size_t u = 0; u < units; ++u) {
    recv_offsets_[u] = total;
    total += recv_counts_[u];
  }
  if (recv_.size() < total + 1) recv_.resize(total + 1);
  dash::check_dart(
      dart_alltoallv(send_.data(), send_counts_.data(), send_offsets_.data(), DART_TYPE_BYTE,
                     recv_.data(), recv_counts_.data(), recv_offsets_.data(), comm),
      "dart_alltoallv");
  // Unpack in unit order: each (source, target) queue comes from one unit,
  // and a unit's own messages arrive in the order of its headers. After a
  // failure the queues sent on their own are still received (their senders
  // wait for that), into scratch memory.
  for (std::size_t u = 0; u < units; ++u) {
    const char* data = recv_.data() + recv_offsets_[u];
    directs_received_ = 0;
    if (!failure.any()) {
      try {
        unpack(data, recv_counts_[u], int(u));
        continue;
      } catch (...) {
        failure.capture("unit " + std::to_string(me) + ", receiving the queues of unit " +
                        std::to_string(u));
      }
    }
    drain_directs(data, recv_counts_[u], int(u));
  }
  dash::check_dart(dart_waitall(sends_.data(), sends_.size()), "dart_waitall");
  sends_.clear();
  direct_.clear();
  q.clear_outgoing();
  if (any_parts) exchange_parts();
  if (failure.own()) {
    // After the last collective: held like a failure of foreach (foreach
    // does nothing meanwhile) and reported by the next collective call,
    // which an agreement here would cost every exchange, a large part of a
    // small exchange's time (figures:
    // bench/results/design_measurements.md#exchange-a-receive-failure-is-held-not-agreed).
    q.drop_queues();
    held = failure.own_exception();
    return;
  }
  hold_failures_of([&] { q.spill_all_incoming(); }, held);
}

// Unpacks a message of records (Wire.h); a queue sent on its own is received
// here, straight into the target's incoming queue; a part mark is noted for
// exchange_parts.
void Exchange::unpack(const char* data, std::size_t total, int source_unit) {
  wire::for_each_record(data, total, [&](const wire::Header& h, const char* bytes) {
    if (h.n <= -wire::kPartMark)
      expected_parts_.push_back(
          ExpectedPart{source_unit, int(h.from), int(h.to), std::size_t(-h.n - wire::kPartMark)});
    else if (h.n < 0)
      receive_direct(int(h.from), int(h.to), std::size_t(-h.n) / wire::kResidues,
                     std::size_t(-h.n) % wire::kResidues, source_unit);
    else
      q_->deliver(int(h.from), int(h.to), bytes, std::size_t(h.n), "exchange");
  });
}

// Receives into scratch memory the queues that the packed message at data
// (nbytes, from unit `from`) announces as sent on their own, past the
// directs_received_ of them already received: after a failure, so that their
// senders do not wait for ever.
void Exchange::drain_directs(const char* data, std::size_t nbytes, int from) {
  std::size_t announced = 0;
  try {
    wire::for_each_record(data, nbytes, [&](const wire::Header& h, const char*) {
      if (h.n < 0 && h.n > -wire::kPartMark) ++announced;
    });
  } catch (const exception::RuntimeError&) {  // cut short: the directs before the cut
  }
  std::vector<char> scratch;
  for (std::size_t k = directs_received_; k < announced; ++k) {
    dart_message_t message;
    const std::size_t n = probe_direct(from, q_->message_team(), message);
    scratch.resize(n + 1);
    dash::check_dart(dart_mrecv(scratch.data(), n, &message), "dart_mrecv");
  }
}

// Receives one packed message if one is there and unpacks it. If unpacking
// fails (or this unit failed before), its queues are dropped, but the queues
// it announces as sent on their own are still received. Returns whether a
// message came.
bool Exchange::receive_packed(dash::internal::Failure& failure) {
  std::int32_t found = 0;
  dart_message_t message;
  dart_team_unit_t from;
  std::size_t nbytes = 0;
  dash::check_dart(dart_improbe(kPackedTag, DART_UNDEFINED_TEAM_UNIT_ID, q_->message_team(), &found,
                                &message, &from, &nbytes),
                   "dart_improbe");
  if (!found) return false;
  if (recv_.size() < nbytes + 1) recv_.resize(nbytes + 1);
  dash::check_dart(dart_mrecv(recv_.data(), nbytes, &message), "dart_mrecv");
  directs_received_ = 0;
  if (!failure.any()) {
    try {
      unpack(recv_.data(), nbytes, from.id);
      return true;
    } catch (...) {
      failure.capture("unit " + std::to_string(q_->me()) + ", receiving the queues of unit " +
                      std::to_string(from.id));
    }
  }
  drain_directs(recv_.data(), nbytes, from.id);
  return true;
}

// A queue sent on its own, received at an address with the sender's residue.
void Exchange::receive_direct(int from, int to, std::size_t n, std::size_t residue,
                              int source_unit) {
  BlockQueues::Entry& target = q_->entry(q_->index_of(to, "exchange"));
  MemoryBuffer& in = target.proxy->incoming_queue(from);
  if (in.remaining() == 0) in.clear();
  dart_message_t message;
  const std::size_t nbytes = probe_direct(source_unit, q_->message_team(), message);
  if (nbytes != n) {
    std::vector<char> scratch(nbytes + 1);  // received all the same: the sender waits
    dash::check_dart(dart_mrecv(scratch.data(), nbytes, &message), "dart_mrecv");
    ++directs_received_;
    throw exception::RuntimeError(std::string(kCall) + ": unit " + std::to_string(source_unit) +
                                  " announced " + std::to_string(n) + " bytes for block " +
                                  std::to_string(to) + " and sent " + std::to_string(nbytes));
  }
  ++directs_received_;
  dash::check_dart(dart_mrecv(in.extend_at_residue(n, residue, wire::kResidues), n, &message),
                   "dart_mrecv");
  target.fresh = true;
}

// When a unit's queues went to the store (memory short): the parts for this
// unit's blocks are delivered from the store; the others are sent one
// message each, loaded kPartWindow at a time (the next one prefetched),
// while the parts announced to this unit are received by polling their
// senders (so no unit waits for one that waits for it); a received part for
// a block not in memory goes to the store. Ends with one int allreduce: a
// part that could not be loaded or stored throws on every unit (and empties
// every queue). Collective.
void Exchange::exchange_parts() {
  BlockQueues& q = *q_;
  const int me = q.me();
  SpillStore& store = q.residency().extra_store();
  dash::internal::Failure failure;
  StoredSends remote(store, kExchangeTag, q.message_team());
  for (const auto& part : q.spilled().outgoing()) {
    if (q.owner(part.to) != me) {
      remote.add(StoredSends::Queue{part.key, part.nbytes, part.from, part.to, q.owner(part.to)});
      continue;
    }
    try {
      Bytes bytes = store.take(part.key);
      q.deliver(part.from, part.to, bytes.data(), bytes.size(), "exchange");
      q.spill_incoming(q.index_of(part.to, "exchange"));
      store.recycle(std::move(bytes));
    } catch (...) {
      failure.capture("unit " + std::to_string(me) + ", a queue from block " +
                      std::to_string(part.from) + " to block " + std::to_string(part.to));
    }
  }
  q.spilled().clear_outgoing();
  // Per source unit, the parts it announced, in its order.
  std::vector<ExpectedPart> expected = std::move(expected_parts_);
  expected_parts_.clear();
  std::stable_sort(expected.begin(), expected.end(),
                   [](const ExpectedPart& a, const ExpectedPart& b) { return a.unit < b.unit; });
  std::vector<char> scratch;
  IdleWait idle(kCall, q.message_team());
  while (!remote.done() || !expected.empty()) {
    bool progress = remote.step(
        [&] { return failure.own(); },
        [&](const StoredSends::Queue& part, const std::string&) {
          failure.capture("unit " + std::to_string(me) + ", a queue from block " +
                          std::to_string(part.from) + " to block " + std::to_string(part.to));
        });
    // The first part still expected from each source, if it is there.
    for (std::size_t k = 0; k < expected.size();) {
      if (k > 0 && expected[k - 1].unit == expected[k].unit) {
        ++k;
        continue;
      }
      const ExpectedPart part = expected[k];
      std::int32_t found = 0;
      dart_message_t message;
      dart_team_unit_t sender;
      std::size_t nbytes = 0;
      dash::check_dart(dart_improbe(kExchangeTag, DART_TEAM_UNIT_ID(part.unit), q.message_team(),
                                    &found, &message, &sender, &nbytes),
                       "dart_improbe");
      if (!found) {
        ++k;
        continue;
      }
      progress = true;
      expected.erase(expected.begin() + std::ptrdiff_t(k));
      receive_part(part, message, nbytes, scratch, failure);
    }
    idle.after_poll(progress);
  }
  try {
    dash::internal::agree(failure, q.message_team(), kCall);
  } catch (...) {
    q.drop_queues();
    throw;
  }
}

// Receives one announced part (matched by improbe) into its target's
// incoming queue, then stores that queue if the block is not in memory. A
// part of 0 bytes where more were announced: its sender failed (it reports
// that itself).
void Exchange::receive_part(const ExpectedPart& part, dart_message_t& message, std::size_t nbytes,
                            std::vector<char>& scratch, dash::internal::Failure& failure) {
  BlockQueues& q = *q_;
  const bool here = q.holds(part.to);
  if (nbytes != part.nbytes || !here || failure.any()) {
    scratch.resize(std::max<std::size_t>(nbytes, 1));
    dash::check_dart(dart_mrecv(scratch.data(), nbytes, &message), "dart_mrecv");
    if (failure.any()) return;
    if (nbytes == 0)
      failure.remote(part.unit,
                     "unit " + std::to_string(part.unit) + " could not send its queue from block " +
                         std::to_string(part.from) + " to block " + std::to_string(part.to));
    else if (!here)
      failure.capture(std::make_exception_ptr(exception::InvalidArgument(
          std::string(kCall) + ": block " + std::to_string(part.to) + " is not on unit " +
          std::to_string(q.me()) + " (a queue from block " + std::to_string(part.from) +
          " of unit " + std::to_string(part.unit) + ")")));
    else
      failure.capture(std::make_exception_ptr(exception::RuntimeError(
          std::string(kCall) + ": unit " + std::to_string(part.unit) + " announced " +
          std::to_string(part.nbytes) + " bytes from block " + std::to_string(part.from) +
          " to block " + std::to_string(part.to) + " and sent " + std::to_string(nbytes))));
    return;
  }
  const std::size_t i = q.index_of(part.to, "exchange");
  BlockQueues::Entry& target = q.entry(i);
  MemoryBuffer& in = target.proxy->incoming_queue(part.from);
  if (in.remaining() == 0) in.clear();
  dash::check_dart(dart_mrecv(in.bytes().extend(nbytes), nbytes, &message), "dart_mrecv");
  target.fresh = true;
  try {
    q.spill_incoming(i);
  } catch (...) {
    failure.capture("unit " + std::to_string(q.me()) + ", storing the queues of block " +
                    std::to_string(part.to));
  }
}

}  // namespace internal
}  // namespace bp
}  // namespace dash
