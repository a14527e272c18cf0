// dash::bp::detail::ReduceRun's messages between units (not public;
// Reduce.h says how they travel): per round and destination unit one packed
// message of queues with a table and a footer, then the enqueue_view arrays
// and stored queues it announces, each a message of its own; received by
// polling the source units, unpacked and delivered. Included by
// ReduceRun.h.
#ifndef DASH__BP__DETAIL__REDUCE_MESSAGES_H_
#define DASH__BP__DETAIL__REDUCE_MESSAGES_H_

#include <dash/bp/detail/ReduceRun.h>

namespace dash {
namespace bp {
namespace detail {

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
  std::vector<Follow> follows;  // in destination order, then table order
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
  // Arrays are in memory: sent at once. Spilled queues wait for their turn.
  std::vector<Follow> spilled;
  for (const Follow& f : follows) {
    if (f.spilled)
      spilled.push_back(f);
    else
      send(f.data, f.nbytes, f.dest, sends);
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
  std::size_t next_spilled = 0;
  SendsInFlight flight;
  IdleWait idle("dash::bp::reduce", team_);
  for (;;) {
    bool progress = send_spilled(round, spilled, next_spilled, flight);
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
        MemoryBuffer received;
        received.bytes().resize(nbytes);
        dash::check_dart(dart_mrecv(received.bytes().data(), nbytes, &message), "dart_mrecv");
        source.packed = true;
        unpack(round, source.unit, std::move(received), source.follow, source.early);
      } else {
        receive_follow(round, source, message, nbytes);
      }
    }
    if (!receiving && next_spilled == spilled.size() && flight.empty() && early_flight_.empty())
      break;
    idle.after_poll(progress);
  }
  dash::check_dart(dart_waitall(sends.data(), sends.size()), "dart_waitall");
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
bool ReduceRun<Block, Partners>::send_spilled(int round, const std::vector<Follow>& spilled,
                                              std::size_t& next, SendsInFlight& flight) {
  bool progress = flight.retire([&](Bytes&& bytes) { queue_store().recycle(std::move(bytes)); });
  while (flight.size() < kWindow && next < spilled.size()) {
    const Follow& f = spilled[next++];
    if (next < spilled.size()) queue_store().prefetch(spilled[next].key);
    Bytes loaded;  // a queue that cannot be loaded goes as 0 bytes
    if (!failed()) {
      try {
        loaded = queue_store().take(f.key);
        if (loaded.size() != f.nbytes)
          throw exception::RuntimeError("its store gave back " + std::to_string(loaded.size()) +
                                        " bytes, not " + std::to_string(f.nbytes));
      } catch (const std::exception& e) {
        fail_own(kRuntimeError, "unit " + std::to_string(me_) +
                                    " could not load a queue of round " + std::to_string(round) +
                                    " for unit " + std::to_string(f.dest) + ": " + e.what());
        loaded = Bytes();
      }
    } else {
      try {
        queue_store().erase(f.key);
      } catch (...) {
      }
    }
    flight.send(std::move(loaded), f.dest, kTag, team_);
    progress = true;
  }
  return progress;
}

template <class Block, class Partners>
void ReduceRun<Block, Partners>::receive_follow(int round, Source& source, dart_message_t& message,
                                                std::size_t nbytes) {
  const Entry e = source.follow[source.next++];
  InQueue in;
  char* to = nullptr;
  if (e.offset == kArray) {  // its count, then the elements at the sender's residue
    internal::save_count(in.bytes, std::size_t(e.elements) / wire::kResidues);
    to = in.bytes.extend_at_residue(nbytes, std::size_t(e.elements) % wire::kResidues,
                                    wire::kResidues);
  } else {
    in.bytes.bytes().resize(nbytes);
    to = in.bytes.bytes().data();
  }
  dash::check_dart(dart_mrecv(to, nbytes, &message), "dart_mrecv");
  if (std::int64_t(nbytes) != e.nbytes) {
    if (nbytes == 0)
      fail(kRuntimeError, "unit " + std::to_string(source.unit) +
                              " could not send its queue from block " + std::to_string(e.from) +
                              " to block " + std::to_string(e.to) + " of round " +
                              std::to_string(round));
    else
      fail_own(kRuntimeError, "a malformed message from unit " + std::to_string(source.unit));
    return;
  }
  deliver(round, int(e.from), int(e.to), std::move(in));
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
void ReduceRun<Block, Partners>::deliver(int round, int from, int to, InQueue&& queue) {
  if (failed()) {
    erase_spilled(queue);
    return;
  }
  Slot* slot = find_slot(to);
  const std::size_t i = slot != nullptr && slot->next_active
                            ? ReduceProxy::index_of(slot->next_in, from)
                            : ReduceProxy::npos;
  if (i == ReduceProxy::npos || slot->arrived[i]) {
    erase_spilled(queue);
    fail_own(kRuntimeError, "a queue from block " + std::to_string(from) + " to block " +
                                std::to_string(to) + " reached unit " + std::to_string(me_) +
                                " after round " + std::to_string(round) + ", which expects none" +
                                inconsistent());
    return;
  }
  slot->next_queues[i] = std::move(queue);
  slot->arrived[i] = 1;
  if (slot->index != kNotAdded) {
    try {
      spill_incoming(*slot, round, from, slot->next_queues[i]);
    } catch (const std::exception& e) {
      fail_own(kRuntimeError, "unit " + std::to_string(me_) + " could not store a queue of round " +
                                  std::to_string(round) + ": " + e.what());
    }
  }
}

template <class Block, class Partners>
MemoryBuffer ReduceRun<Block, Partners>::pack(int round, int dest, std::vector<Piece>& pieces,
                                              std::vector<Follow>& follows) {
  MemoryBuffer message;
  auto early = early_sent_.find(dest);
  Footer footer{round, 0, error_kind_, 0, early == early_sent_.end() ? 0 : early->second};
  if (failed()) {
    for (Piece& p : pieces) erase_spilled(p.queue);
    message.write(error_text_.data(), error_text_.size());
    footer.error_bytes = std::int64_t(error_text_.size());
    message.write(&footer, sizeof(footer));
    return message;
  }
  // Byte queues first, the largest at the front; then arrays and spilled
  // queues, which travel as messages of their own.
  auto in_message = [](const Piece& p) { return p.queue.view_bytes == 0 && !p.queue.spilled; };
  std::stable_partition(pieces.begin(), pieces.end(), in_message);
  std::size_t nbytes_queues = 0, largest = 0;
  std::size_t total = pieces.size() * sizeof(Entry) + sizeof(Footer);
  while (nbytes_queues < pieces.size() && in_message(pieces[nbytes_queues])) {
    const std::size_t size = pieces[nbytes_queues].queue.bytes.size();
    total += size;
    if (size > pieces[largest].queue.bytes.size()) largest = nbytes_queues;
    ++nbytes_queues;
  }
  std::vector<Entry> entries(pieces.size());
  std::size_t first = 0;
  if (nbytes_queues > 0) {
    std::swap(pieces[0], pieces[largest]);
    // The largest queue's buffer becomes the message if it has the room.
    MemoryBuffer& q0 = pieces[0].queue.bytes;
    if (q0.bytes().capacity() >= total) {
      entries[0] = Entry{pieces[0].from, pieces[0].to, 0, std::int64_t(q0.size()), 0};
      message = std::move(q0);
      first = 1;
    }
  }
  if (first == 0) message.bytes().reserve(total);
  for (std::size_t i = first; i < pieces.size(); ++i) {
    OutQueue& q = pieces[i].queue;
    if (q.view_bytes > 0) {
      const std::size_t residue = reinterpret_cast<std::uintptr_t>(q.view) % wire::kResidues;
      const std::size_t elements = internal::load_count(q.bytes, 0);
      entries[i] = Entry{pieces[i].from, pieces[i].to, kArray, std::int64_t(q.view_bytes),
                         std::int64_t(elements * wire::kResidues + residue)};
      follows.push_back(Follow{dest, q.view, q.view_bytes, false, 0});
    } else if (q.spilled) {
      entries[i] = Entry{pieces[i].from, pieces[i].to, kSpilled, std::int64_t(q.spilled_bytes), 0};
      follows.push_back(Follow{dest, nullptr, q.spilled_bytes, true, q.key});
      q.spilled = false;  // the key went with the Follow
    } else {
      entries[i] = Entry{pieces[i].from, pieces[i].to, std::int64_t(message.size()),
                         std::int64_t(q.bytes.size()), 0};
      message.write(q.bytes.data(), q.bytes.size());
    }
  }
  message.write(entries.data(), entries.size() * sizeof(Entry));
  footer.nqueues = std::int64_t(pieces.size());
  message.write(&footer, sizeof(footer));
  return message;
}

template <class Block, class Partners>
void ReduceRun<Block, Partners>::unpack(int round, int source, MemoryBuffer&& message,
                                        std::vector<Entry>& follow, std::int64_t& early) {
  const std::size_t size = message.size();
  const std::string malformed = "a malformed message from unit " + std::to_string(source);
  Footer footer;
  if (size < sizeof(Footer))
    return fail_own(kRuntimeError, "a message of " + std::to_string(size) + " bytes from unit " +
                                       std::to_string(source) + " is too short");
  std::memcpy(&footer, message.data() + size - sizeof(Footer), sizeof(Footer));
  if (footer.round != round)
    return fail_own(kRuntimeError, "unit " + std::to_string(me_) + " received a message of round " +
                                       std::to_string(footer.round) + " from unit " +
                                       std::to_string(source) + " in round " +
                                       std::to_string(round) + inconsistent());
  early = std::max<std::int64_t>(footer.early, 0);
  if (footer.error_kind != kNoError) {
    const std::size_t n =
        std::min<std::size_t>(std::size_t(footer.error_bytes), size - sizeof(Footer));
    return fail(footer.error_kind, std::string(message.data(), n));
  }
  const std::size_t table = std::size_t(footer.nqueues) * sizeof(Entry);
  if (footer.nqueues < 0 || table > size - sizeof(Footer))
    return fail_own(kRuntimeError, malformed);
  std::vector<Entry> entries(std::size_t(footer.nqueues));
  if (table > 0)  // none: a unit that sent only early queues
    std::memcpy(entries.data(), message.data() + size - sizeof(Footer) - table, table);
  const std::size_t data_end = size - sizeof(Footer) - table;
  // The messages that follow are received whatever else happens, so that
  // none is left for a later round.
  for (const Entry& e : entries)
    if (e.offset == kArray || e.offset == kSpilled) follow.push_back(e);
  for (const Entry& e : entries)
    if (e.offset >= 0 ? e.nbytes < 0 || std::size_t(e.offset + e.nbytes) > data_end
                      : e.offset != kArray && e.offset != kSpilled)
      return fail_own(kRuntimeError, malformed);
  // Byte queues: copied out, except queue 0 at offset 0, whose bytes the
  // message buffer keeps (cut to size in place).
  bool keep_first = false;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    if (e.offset < 0) continue;
    if (i == 0 && e.offset == 0) {
      keep_first = true;
      continue;
    }
    InQueue in;
    in.bytes.write(message.data() + e.offset, std::size_t(e.nbytes));
    deliver(round, int(e.from), int(e.to), std::move(in));
  }
  if (keep_first) {
    InQueue in;
    message.bytes().resize(std::size_t(entries[0].nbytes));
    in.bytes = std::move(message);
    deliver(round, int(entries[0].from), int(entries[0].to), std::move(in));
  }
}

}  // namespace detail
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__DETAIL__REDUCE_MESSAGES_H_
