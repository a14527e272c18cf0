// dash::bp::internal::ReduceRun's messages between units (not public;
// Reduce.h says how they travel): per round and destination unit one packed
// message of records (Wire.h), then the queues it announces as messages of
// their own (enqueue_view arrays and queues of kDirectBytes or more, sent
// from their memory; stored queues, loaded in turn); received by polling the
// source units, unpacked and delivered. Included by ReduceRun.h.
#ifndef DASH__BP__INTERNAL__REDUCE_MESSAGES_H_
#define DASH__BP__INTERNAL__REDUCE_MESSAGES_H_

#include <dash/bp/internal/ReduceRun.h>

namespace dash {
namespace bp {
namespace internal {

template <class Block, class Partners>
void ReduceRun<Block, Partners>::exchange(int round) {
  std::map<int, std::vector<Piece>> pieces;  // by destination unit
  for (Slot& slot : slots_) {
    if (!slot.active) continue;
    ReduceProxy& p = slot.proxy;
    for (std::size_t j = 0; j < p.out_link_.size(); ++j) {
      const int to = p.out_link_[j];
      const int dest = master_.owner(to);  // checked in set_up
      OutQueue queue = std::move(p.out_[j]);
      p.out_[j].spilled = false;  // the key went with the queue
      if (queue.early) continue;  // on its way (the packed message counts it)
      if (failed()) {
        erase_spilled(queue);
        queue = OutQueue();
      }
      if (dest == me_)
        deliver(round, slot.gid, to, local_copy(std::move(queue)));
      else
        pieces[dest].push_back(Piece{slot.gid, to, std::move(queue)});
    }
  }
  for (const auto& [dest, n] : early_sent_) pieces[dest];  // a packed message counts them
  std::vector<MemoryBuffer> packed;
  std::vector<Follow> follows;  // in destination order, then record order
  std::vector<dart_handle_t> sends;
  packed.reserve(pieces.size());
  for (auto& [dest, list] : pieces) {
    try {
      packed.push_back(pack(round, dest, list, follows));
    } catch (const std::exception& e) {  // too big, out of memory: send the error instead
      const bool invalid = dynamic_cast<const exception::InvalidArgument*>(&e) != nullptr;
      fail_own(invalid ? kInvalidArgument : kRuntimeError,
               "unit " + std::to_string(me_) + " could not pack round " + std::to_string(round) +
                   ": " + e.what());
      while (!follows.empty() && follows.back().dest == dest) {
        if (follows.back().spilled) queue_store().erase(follows.back().key);
        follows.pop_back();
      }
      packed.push_back(pack(round, dest, list, follows));
    }
    send(packed.back().data(), packed.back().size(), dest, sends);
  }
  // Arrays and large queues are in memory: sent at once. Stored queues wait
  // for their turn.
  StoredSends stored(queue_store(), kTag, team_);
  for (const Follow& f : follows) {
    if (f.spilled)
      stored.add(StoredSends::Queue{f.key, f.nbytes, -1, -1, f.dest});
    else
      DirectArrays::send(f.data, f.nbytes, f.dest, team_, sends);
  }
  follows.clear();
  std::vector<Source> sources;
  {
    std::vector<int> units;
    for (const Slot& slot : slots_)
      for (int from : slot.next_in) {
        const int unit = master_.owner(from);
        if (unit != me_) units.push_back(unit);
      }
    std::sort(units.begin(), units.end());
    units.erase(std::unique(units.begin(), units.end()), units.end());
    sources.resize(units.size());
    for (std::size_t k = 0; k < units.size(); ++k) sources[k].unit = units[k];
  }
  IdleWait idle("dash::bp::reduce", team_);
  for (;;) {
    bool progress =
        stored.step([&] { return failed(); },
                    [&](const StoredSends::Queue& q, const std::string& what) {
                      if (!failed())  // erasing after a failure: nothing to report
                        fail_own(kRuntimeError, "unit " + std::to_string(me_) +
                                                    " could not load a queue of round " +
                                                    std::to_string(round) + " for unit " +
                                                    std::to_string(q.dest) + ": " + what);
                    });
    progress |= early_flight_.retire([&](Bytes&& b) { early_bytes_ -= b.size(); });
    progress |= receive_early(round);
    bool receiving = false;
    for (Source& source : sources) {
      const auto got = early_received_.find(source.unit);
      if (source.done(got == early_received_.end() ? 0 : got->second)) continue;
      receiving = true;
      // Its packed message and those it announced are in: only early queues to come.
      if (source.packed && source.next == source.follow.size()) continue;
      std::int32_t found = 0;
      dart_message_t message;
      dart_team_unit_t from;
      std::size_t nbytes = 0;
      dash::check_dart(dart_improbe(kTag, DART_TEAM_UNIT_ID(source.unit), team_, &found, &message,
                                    &from, &nbytes),
                       "dart_improbe");
      if (!found) continue;
      progress = true;
      if (!source.packed) {
        packed_in_.bytes().resize(nbytes);
        dash::check_dart(dart_mrecv(packed_in_.bytes().data(), nbytes, &message), "dart_mrecv");
        source.packed = true;
        unpack(round, source.unit, packed_in_, source.follow, source.early);
      } else {
        receive_follow(round, source, message, nbytes);
      }
    }
    if (!receiving && stored.done() && early_flight_.empty()) break;
    idle.after_poll(progress);
  }
  // Our sends: their receivers may take our parts only when their blocks read them, so
  // meanwhile we take theirs. A unit that sent anything takes all its parts now (so that its
  // partners need not wait for its calls); one that only receives (a merge's root) takes them
  // as its blocks read them (dequeue_combine: piece by piece, in cache).
  const bool eager = !sends.empty();
  for (;;) {
    std::int32_t done = 0;
    dash::check_dart(dart_testall(sends.data(), sends.size(), &done), "dart_testall");
    if (done && (!eager || arrays_.empty())) break;
    bool progress = false;
    try {
      progress = arrays_.complete_one();
    } catch (const std::exception& e) {
      fail_own(kRuntimeError, e.what());
    }
    idle.after_poll(progress);
  }
  packed.clear();
  for (Slot& slot : slots_) {
    for (std::size_t i = 0; i < slot.next_in.size() && !failed(); ++i)
      if (!slot.arrived[i])
        fail_own(kRuntimeError, "block " + std::to_string(slot.gid) + " (unit " +
                                    std::to_string(me_) + ") received no queue from block " +
                                    std::to_string(slot.next_in[i]) + " for round " +
                                    std::to_string(round + 1) + inconsistent());
    ReduceProxy& p = slot.proxy;
    p.round_ = round + 1;
    p.in_link_.swap(slot.next_in);
    p.in_.swap(slot.next_queues);
    // The finished call's queues: buffers go back, spilled ones it did
    // not read leave the store.
    for (InQueue& q : slot.next_queues) erase_spilled(q);
    slot.next_queues.clear();
    slot.active = slot.next_active;
    if (slot.active)
      partners_.outgoing(round + 1, slot.gid, p.out_link_);
    else
      p.out_link_.clear();
    p.out_.clear();
    p.out_.resize(p.out_link_.size());
    p.clear_view_copies();
  }
}

template <class Block, class Partners>
void ReduceRun<Block, Partners>::receive_follow(int round, Source& source, dart_message_t& message,
                                                std::size_t nbytes) {
  const Expected& e = source.follow[source.next++];
  InQueue in;
  in.bytes.bytes().resize(nbytes);
  dash::check_dart(dart_mrecv(in.bytes.bytes().data(), nbytes, &message), "dart_mrecv");
  if (nbytes != e.nbytes) {
    if (nbytes == 0)
      fail(kRuntimeError, "unit " + std::to_string(source.unit) +
                              " could not send its queue from block " + std::to_string(e.from) +
                              " to block " + std::to_string(e.to) + " of round " +
                              std::to_string(round));
    else
      fail_own(kRuntimeError, "a malformed message from unit " + std::to_string(source.unit));
    return;
  }
  deliver(round, e.from, e.to, std::move(in));
}

template <class Block, class Partners>
void ReduceRun<Block, Partners>::send(const char* data, std::size_t nbytes, int dest,
                                      std::vector<dart_handle_t>& sends) {
  dart_handle_t handle = DART_HANDLE_NULL;
  dash::check_dart(dart_isend(data, nbytes, kTag, DART_TEAM_UNIT_ID(dest), team_, &handle),
                   "dart_isend");
  sends.push_back(handle);
}

template <class Block, class Partners>
auto ReduceRun<Block, Partners>::local_copy(OutQueue&& out) -> InQueue {
  InQueue in;
  if (out.spilled) {
    in.spilled = true;
    in.key = out.key;
    out.spilled = false;
  } else {
    in.bytes = std::move(out.bytes);
    if (out.view_bytes > 0)  // at the residue of the caller's array: aligned as it was
      std::memcpy(in.bytes.extend_at_residue(
                      out.view_bytes, reinterpret_cast<std::uintptr_t>(out.view) % wire::kResidues,
                      wire::kResidues),
                  out.view, out.view_bytes);
  }
  return in;
}

template <class Block, class Partners>
void ReduceRun<Block, Partners>::deliver(int round, int from, int to, InQueue&& queue,
                                         const Direct* direct) {
  auto drop = [&] {
    erase_spilled(queue);
    if (direct != nullptr) arrays_.expect(nullptr, direct->unit, direct->nbytes, 0);
  };
  if (failed()) return drop();
  Slot* slot = find_slot(to);
  const std::size_t i = slot != nullptr && slot->next_active
                            ? ReduceProxy::index_of(slot->next_in, from)
                            : ReduceProxy::npos;
  if (i == ReduceProxy::npos || slot->arrived[i]) {
    drop();
    fail_own(kRuntimeError, "a queue from block " + std::to_string(from) + " to block " +
                                std::to_string(to) + " reached unit " + std::to_string(me_) +
                                " after round " + std::to_string(round) + ", which expects none" +
                                inconsistent());
    return;
  }
  InQueue& q = slot->next_queues[i];
  q = std::move(queue);
  slot->arrived[i] = 1;
  if (direct != nullptr) arrays_.expect(&q, direct->unit, direct->nbytes, direct->residue);
  if (slot->index != kNotAdded && master_.residency_->limited()) {
    try {
      arrays_.complete(q);
      spill_incoming(*slot, round, from, q);
    } catch (const std::exception& e) {
      fail_own(kRuntimeError, "unit " + std::to_string(me_) + " could not receive or store a " +
                                  "queue of round " + std::to_string(round) + ": " + e.what());
    }
  }
}

template <class Block, class Partners>
MemoryBuffer ReduceRun<Block, Partners>::pack(int round, int dest, std::vector<Piece>& pieces,
                                              std::vector<Follow>& follows) {
  MemoryBuffer message;
  auto early = early_sent_.find(dest);
  const std::int64_t early_queues = early == early_sent_.end() ? 0 : early->second;
  wire::write_header(message, wire::kRoundMark, round, -early_queues);
  if (failed()) {
    for (Piece& p : pieces) erase_spilled(p.queue);
    wire::write_record(message, wire::kFailureNotice, error_kind_, error_text_.data(),
                       error_text_.size());
    return message;
  }
  // Stored queues last: they follow the ones sent from memory, in record order.
  std::stable_partition(pieces.begin(), pieces.end(),
                        [](const Piece& p) { return !p.queue.spilled; });
  std::size_t total = wire::kHeaderBytes;
  for (const Piece& p : pieces)
    total += p.queue.spilled ? wire::kHeaderBytes
                             : wire::packed_size(parts_of(p.queue), wire::kDirectBytes);
  message.bytes().reserve(total);
  for (Piece& p : pieces) {
    OutQueue& q = p.queue;
    if (q.spilled) {
      wire::write_header(message, p.from, p.to, -wire::kPartMark - std::int64_t(q.spilled_bytes));
      follows.push_back(Follow{dest, nullptr, q.spilled_bytes, true, q.key});
      q.spilled = false;  // the key went with the Follow
      continue;
    }
    const wire::QueueParts parts = parts_of(q);
    wire::pack_queue(message.bytes().extend(wire::packed_size(parts, wire::kDirectBytes)), p.from,
                     p.to, parts, wire::kDirectBytes, [&](const char* data, std::size_t n) {
                       follows.push_back(Follow{dest, data, n, false, 0});
                     });
  }
  return message;
}

template <class Block, class Partners>
void ReduceRun<Block, Partners>::unpack(int round, int source, const MemoryBuffer& message,
                                        std::vector<Expected>& follow, std::int64_t& early) {
  const std::size_t size = message.size();
  const char* data = message.data();
  const std::string malformed = "a malformed message from unit " + std::to_string(source);
  if (size < wire::kHeaderBytes) return fail_own(kRuntimeError, malformed);
  const wire::Header first = wire::read_header(data);
  if (first.from != wire::kRoundMark || first.to != round)
    return fail_own(kRuntimeError, "unit " + std::to_string(me_) + " received a message of round " +
                                       std::to_string(first.to) + " from unit " +
                                       std::to_string(source) + " in round " +
                                       std::to_string(round) + inconsistent());
  early = std::max<std::int64_t>(-first.n, 0);
  // A queue's bytes in the message wait for the next record: bytes of the
  // same queue sent on their own (an enqueue_view array) are appended.
  struct Held {
    std::int64_t from, to;
    const char* at;
    std::size_t n;
  } held{-1, -1, nullptr, 0};
  auto deliver_held = [&] {
    if (held.at == nullptr) return;
    InQueue in;
    in.bytes.write(held.at, held.n);
    deliver(round, int(held.from), int(held.to), std::move(in));
    held.at = nullptr;
  };
  try {
    wire::for_each_record(
        data + wire::kHeaderBytes, size - wire::kHeaderBytes,
        [&](const wire::Header& h, const char* bytes) {
          if (h.from == wire::kFailureNotice)
            return fail(h.to, std::string(bytes, std::size_t(std::max<std::int64_t>(h.n, 0))));
          if (h.from < 0 || h.to < 0) throw exception::RuntimeError("a record of no queue");
          if (h.n >= 0) {
            deliver_held();
            held = Held{h.from, h.to, bytes, std::size_t(h.n)};
            return;
          }
          if (h.n <= -wire::kPartMark) {  // a stored queue
            deliver_held();
            follow.push_back(
                Expected{int(h.from), int(h.to), std::size_t(-(h.n + wire::kPartMark))});
            return;
          }
          const Direct direct{source, std::size_t(-h.n) / wire::kResidues,
                              std::size_t(-h.n) % wire::kResidues};
          InQueue in;
          if (held.at != nullptr && held.from == h.from && held.to == h.to) {
            in.bytes.write(held.at, held.n);  // the queue's bytes before its part
            held.at = nullptr;
          }
          deliver_held();
          deliver(round, int(h.from), int(h.to), std::move(in), &direct);
        });
  } catch (const exception::RuntimeError&) {
    return fail_own(kRuntimeError, malformed);
  }
  deliver_held();
}

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__REDUCE_MESSAGES_H_
