// dash::bp::Master: the calling unit's blocks of a block decomposition, the
// links between blocks, per-block message queues, and the two ways of moving
// them: bulk-synchronous exchange() and asynchronous iexchange().
//
//   dash::bp::Master<MyBlock> master(nblocks);              // DASH_TEAM_ALL
//   for (int gid : dash::bp::local_gids(me, nblocks, units, a))
//     master.add(gid, std::make_unique<MyBlock>(...), links_of(gid));
//   master.threads(2);                                      // optional
//   master.foreach([](MyBlock& b, dash::bp::Proxy& p) {
//     for (int n : p.link()) p.enqueue(n, b.halo_for(n));   // any serialisable value
//   });
//   master.exchange();                                      // collective
//   master.foreach([](MyBlock& b, dash::bp::Proxy& p) {
//     for (int n : p.link()) { std::vector<double> h; p.dequeue(n, h); ... }
//   });
//   master.iexchange([](MyBlock& b, dash::bp::Proxy& p) {   // collective
//     ... dequeue what came, enqueue new work ...
//     return b.finished();                                  // done for now?
//   });
//
// A block is identified by its global id (gid); `owner(gid)` says which unit
// holds it (contiguous assignment of `nblocks` blocks unless another rule is
// given). Messages between blocks of the same unit never leave memory.
// exchange() packs all queues bound for one unit into one buffer; queues of
// 32 KiB or more go as messages of their own (tag 30003), from the sender's
// queue straight into the receiver's, announced in the packed buffer. On more
// than 8 units (DASH_BP_EXCHANGE_SPARSE_UNITS) each packed buffer goes to its
// unit alone (synchronous mode, tag 30005), and a unit receives what comes
// until a non-blocking barrier, entered once its own sends were matched,
// completes (NBX); one allreduce then agrees on failures: the cost follows
// the units a unit sends to, not the team size (the packing visits only the
// units a unit sends to as well). On fewer units, where dense collectives
// are cheaper, one alltoall of sizes and one alltoallv of the buffers move
// them. iexchange()
// sends each unit's packed queues with a synchronous-mode send (tags 30001
// and 30004 in turn) as soon as a callback has filled them and detects termination with the
// IExchange state machine (Termination.h). Queues keep the order of enqueue per (source, target)
// pair in both.
//
// Every message and collective of a master travels on its team's library
// duplicate of the team's communicator (Team::library_team, made once per
// team), so its tags cannot meet the program's own messages.
//
// Threads: with threads(t), t > 1, foreach and iexchange run the callbacks
// of different blocks concurrently on a pool of t threads (each block on one
// thread at a time, with its own proxy); all MPI calls stay on the calling
// thread.
//
// | call        | cost                                                    |
// |-------------|---------------------------------------------------------|
// | add         | local                                                   |
// | foreach     | local: f on every block of the calling unit             |
// | exchange    | collective over the team: a message per destination     |
// |             | unit, one ibarrier and one 2-int allreduce (more than 8 |
// |             | units), else one alltoall and one alltoallv             |
// | iexchange   | collective over the team: point-to-point messages plus  |
// |             | one ibarrier and one iallreduce per termination attempt |
#ifndef DASH__BP__MASTER_H_
#define DASH__BP__MASTER_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Polling.h>
#include <dash/bp/Proxy.h>
#include <dash/bp/Residency.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/SpilledQueues.h>
#include <dash/bp/Termination.h>
#include <dash/bp/ThreadPool.h>
#include <dash/internal/Failure.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

namespace detail {
template <class Block, class Partners>
class ReduceRun;
// The skip of foreach(f) and foreach_read(f): no block is skipped, so the
// queues that went to storage need not come back before the calls.
struct SkipNone {
  bool operator()(const Proxy&) const { return false; }
};
}  // namespace detail

template <class Block>
class Master {
 public:
  using owner_function = std::function<int(int gid)>;

  // A master over `team` for `nblocks` blocks dealt by `assignment`.
  explicit Master(int nblocks, Assignment assignment = Assignment::contiguous,
                  Team& team = Team::All())
      : team_(&team), nblocks_(nblocks) {
    const int units = int(team.size());
    owner_ = [nblocks, units, assignment](int gid) {
      return bp::owner(gid, nblocks, units, assignment);
    };
    limit_from_environment();
  }

  // A master over `team` for `nblocks` blocks, block gid on unit owner(gid)
  // (a team unit id; the same function on every unit).
  Master(int nblocks, owner_function owner, Team& team = Team::All())
      : team_(&team), nblocks_(nblocks), owner_(std::move(owner)) {
    if (!owner_) throw exception::InvalidArgument("dash::bp::Master: no owner function");
    limit_from_environment();
  }

  Master(Master&&) = default;
  Master& operator=(Master&&) = default;

  // A failure of foreach that no collective call reported is printed here
  // (stderr), not lost. Local.
  ~Master() {
    if (!held_) return;
    try {
      std::fprintf(stderr,
                   "dash::bp::Master: unit %d destroyed a master holding a failure of foreach "
                   "that no exchange, iexchange or reduce reported: %s\n",
                   int(team_->myid().id), dash::internal::failure_message(held_).c_str());
    } catch (...) {  // the team is gone: say it without the unit id
      std::fprintf(stderr, "dash::bp::Master: destroyed holding an unreported failure\n");
    }
  }

  // Adds block gid (owned by the calling unit) with its links. Local.
  void add(int gid, std::unique_ptr<Block> block, std::vector<int> link) {
    if (gid < 0 || gid >= nblocks_)
      throw exception::InvalidArgument("dash::bp::Master::add: gid " + std::to_string(gid) +
                                       " outside [0, " + std::to_string(nblocks_) + ")");
    if (owner_(gid) != int(team_->myid().id))
      throw exception::InvalidArgument("dash::bp::Master::add: block " + std::to_string(gid) +
                                       " belongs to unit " + std::to_string(owner_(gid)));
    if (index_.count(gid) != 0)
      throw exception::InvalidArgument("dash::bp::Master::add: block " + std::to_string(gid) +
                                       " added twice");
    index_[gid] = entries_.size();
    auto entry = std::make_unique<Entry>();
    entry->gid = gid;
    entry->link = std::move(link);
    entry->proxy = std::make_unique<Proxy>(gid, &entry->link, nblocks_);
    Proxy* queues = entry->proxy.get();
    entries_.push_back(std::move(entry));
    residency_.add(gid, std::move(block), queues);
    if (residency_.limited()) residency_.limit(residency_.limit(), "dash::bp::Master::add");
  }

  // Replaces the links of block i (e.g. once a decomposition moved the
  // blocks' bounds: dash::bp::kdtree). InvalidArgument for a gid outside
  // [0, nblocks). Local.
  void set_link(std::size_t i, std::vector<int> link) {
    for (int to : link)
      if (to < 0 || to >= nblocks_)
        throw exception::InvalidArgument("dash::bp::Master::set_link: gid " + std::to_string(to) +
                                         " outside [0, " + std::to_string(nblocks_) + ")");
    entries_.at(i)->link = std::move(link);
  }

  int nblocks() const { return nblocks_; }
  std::size_t size() const { return entries_.size(); }
  int gid(std::size_t i) const { return entries_[i]->gid; }
  // Block i (loaded if it was evicted; under a memory-block limit the
  // reference is valid until the next call that runs blocks: foreach,
  // iexchange, reduce, block). Local.
  Block& block(std::size_t i) {
    run_delayed();
    return residency_.use(i);
  }
  // Block i's proxy (its queues brought back from storage if they went
  // there with the evicted block). Local.
  Proxy& proxy(std::size_t i) {
    run_delayed();
    restore_queues(i);
    return *entries_[i]->proxy;
  }
  int owner(int gid) const { return owner_(gid); }
  Team& team() const { return *team_; }

  // Runs the callbacks of foreach and iexchange on `n` threads (the calling
  // one included); 1, the default, runs them in the calling thread. Local.
  void threads(int n) {
    if (n < 1)
      throw exception::InvalidArgument("dash::bp::Master::threads: " + std::to_string(n) +
                                       " threads (at least 1)");
    if (n != threads_) pool_.reset();
    threads_ = n;
  }
  int threads() const { return threads_; }

  // Keeps at most m blocks of the calling unit in memory between calls (0:
  // no limit, the default, or DASH_OOC_MEM_BLOCKS); the others are evicted
  // to the unit's spill directory and loaded when a call runs them. With
  // threads(t), a call runs up to m blocks at a time on the t threads.
  // InvalidArgument if Block is not default constructible and serialisable
  // (is_spillable_v). Local; evicts blocks down to m.
  void limit(std::size_t m) {
    run_delayed();
    if (m > 0) materialize_views();  // blocks may leave memory
    residency_.limit(m, "dash::bp::Master::limit");
  }
  std::size_t limit() const { return residency_.limit(); }
  // The bytes of the largest block of the calling unit evicted so far (0: none yet), a size
  // hint for algorithms out of core. Local.
  std::size_t largest_stored_block() const { return residency_.largest_stored(); }
  // Evicted blocks go to `store` (e.g. the local array file of an
  // out-of-core container) instead of a store of their own; queues that go
  // with them still go to the unit's spill directory. Call before any block
  // is evicted. Local.
  void spill_store(std::shared_ptr<SpillStore> store) { residency_.set_store(std::move(store)); }
  // Runs delayed foreach calls, writes the changed blocks in memory back to
  // the spill store (they leave memory) and waits until they are stored, so
  // the container's own calls see them; a failure (held from foreach, or
  // of the store) is thrown on every unit (one int allreduce). The master's
  // destructor does the same but can only print a failure. Collective.
  void write_back() {
    run_delayed();
    dash::internal::Failure failure;
    failure.capture(std::exchange(held_, nullptr));
    if (!failure.any()) {
      try {
        materialize_views();  // the blocks leave memory
        residency_.write_back();
      } catch (...) {
        failure.capture("writing blocks back");
      }
    }
    dash::internal::agree(failure, message_team(), "dash::bp::Master::write_back");
  }
  // Blocks of the calling unit in memory now. Local.
  std::size_t resident_blocks() const { return residency_.resident_count(); }
  // Whether block i of the calling unit is in memory. Local.
  bool resident(std::size_t i) const { return residency_.resident(i); }
  // Bytes written to and read from storage for this master's blocks. Local.
  SpillCounters spill_counters() const { return residency_.counters(); }
  // The most bytes the calling unit held at once in messages being sent
  // during the last iexchange (under a memory-block limit short of memory,
  // at most about twice the largest block stored, at least 4 MiB, plus
  // what one call sends). Local.
  std::size_t peak_sending_bytes() const { return peak_sending_bytes_; }
  // What the last iexchange() of this unit did: block calls, messages sent to
  // other units and their bytes, and the per-unit buffers it looked at to
  // send them (its routing work). Local.
  struct IExchangeStats {
    std::size_t block_calls = 0, messages = 0, bytes = 0, buffers_visited = 0;
  };
  IExchangeStats last_iexchange() const { return last_iexchange_; }

  // Calls f(block, proxy) on every block of the calling unit (in the order
  // they were added when single-threaded; concurrently on the pool with
  // threads > 1). Local.
  template <class F>
  void foreach (F&& f) {
    foreach (std::forward<F>(f), detail::SkipNone{})
      ;
  }

  // The same, skipping the blocks for which skip(proxy) is true (e.g. those
  // with nothing incoming: `[](const Proxy& p) { return p.incoming_from().empty(); }`).
  // Local.
  //
  // Failures: an exception from f stops the calls on this unit (blocks not
  // yet started are skipped) and is held by the master, not thrown: the next
  // exchange, iexchange or reduce carries it to the other units and throws
  // it here, and dash::exception::RemoteFailure on every other unit (a
  // foreach is local, so throwing at once would leave the other units
  // waiting in that collective). While a failure is held, foreach does
  // nothing.
  template <class F, class Skip>
  void foreach (F&& f, Skip && skip) {
    if (held_) return;
    if (delay_depth_ > 0 && residency_.limited()) {
      delayed_.push_back(Delayed{std::function<void(Block&, Proxy&)>(std::forward<F>(f)),
                                 std::function<bool(const Proxy&)>(std::forward<Skip>(skip))});
      return;
    }
    try {
      if (!residency_.limited()) {
        run_blocks(entries_.size(), [&](std::size_t i) {
          Entry& e = *entries_[i];
          if (!skip(static_cast<const Proxy&>(*e.proxy))) f(residency_.resident_block(i), *e.proxy);
        });
        return;
      }
      std::vector<std::size_t>& order = order_;
      order.clear();
      for (std::size_t i = 0; i < entries_.size(); ++i) {
        // skip sees the whole queues; without a skip they come back only
        // when their block runs (run_resident), one block's at a time.
        if constexpr (std::is_same_v<std::decay_t<Skip>, detail::SkipNone>) {
          order.push_back(i);
        } else {
          restore_queues(i);
          if (!skip(static_cast<const Proxy&>(*entries_[i]->proxy))) order.push_back(i);
        }
      }
      run_resident(
          order, [&](std::size_t i, Block& b) { f(b, *entries_[i]->proxy); }, writes_,
          [&](std::size_t i) { spill_outgoing(i); });
    } catch (...) {
      held_ = std::current_exception();
    }
  }

  // Delays the foreach calls of this master until the returned object is
  // destroyed (or the next exchange, iexchange, reduce, block, proxy, limit,
  // foreach_read or foreach_shell), then runs them back to back on each
  // block: under a memory-block limit one load per block for all of them,
  // not one per call; without a limit foreach runs at once as usual. The
  // callbacks must touch only their own block and proxy, and their effects
  // (e.g. on captured variables) are there only after the run. Local.
  //
  //   { auto delayed = master.delay();
  //     master.foreach(advance);      // runs below, with collide, per block
  //     master.foreach(collide); }
  class Delay {
   public:
    explicit Delay(Master& m) : m_(&m) { ++m.delay_depth_; }
    Delay(Delay&& o) noexcept : m_(std::exchange(o.m_, nullptr)) {}
    Delay(const Delay&) = delete;
    Delay& operator=(const Delay&) = delete;
    Delay& operator=(Delay&&) = delete;
    ~Delay() {
      if (m_ && --m_->delay_depth_ == 0) m_->run_delayed();
    }

   private:
    Master* m_;
  };
  Delay delay() { return Delay(*this); }
  // Runs the delayed foreach calls now (reduce calls it). Local.
  void run_delayed_calls() { run_delayed(); }

  // foreach for callbacks that only read the blocks: f(const Block&,
  // Proxy&). Under a memory-block limit a block whose store keeps what it
  // gave (an out-of-core matrix's file) is then dropped, not written back,
  // when evicted. Local; failures as in foreach.
  template <class F>
  void foreach_read(F&& f) {
    foreach_read(std::forward<F>(f), detail::SkipNone{});
  }
  // The same, skipping the blocks for which skip(proxy) is true (as
  // foreach(f, skip)). Local.
  template <class F, class Skip>
  void foreach_read(F&& f, Skip&& skip) {
    run_delayed();
    writes_ = false;
    foreach ([&f](Block& b, Proxy& p) { f(static_cast<const Block&>(b), p); },
             std::forward<Skip>(skip))
      ;
    writes_ = true;
  }

  // Whether foreach_shell_parts can read parts of payloads that are not in
  // memory: blocks with a payload under a memory-block limit whose store
  // reads parts (SpillStore::reads_parts: an out-of-core matrix's file).
  // Local.
  bool reads_payload_parts() const { return residency_.limited() && residency_.reads_parts(); }
  // Calls f(const Block& shell, Proxy&, read) on every block of the calling
  // unit without loading payloads (as foreach_shell), where
  // read(offset, n, out) copies bytes [offset, offset + n) of the block's
  // payload into out: only those bytes come from the store, e.g. a slab's
  // boundary rows from its file. read() needs reads_payload_parts() and a
  // payload out of memory; f reads a payload in memory
  // (shell.payload_resident()) itself. Local; failures as in foreach.
  template <class F>
  void foreach_shell_parts(F&& f) {
    each_shell([&f, this](std::size_t i) {
      auto read = [this, i](std::uint64_t offset, std::size_t n, char* out) {
        residency_.read_payload_part(i, offset, n, out);
      };
      f(static_cast<const Block&>(residency_.shell(i)), *entries_[i]->proxy, read);
      spill_outgoing(i);
    });
  }

  // Calls f(block, proxy) on every block of the calling unit without
  // loading the payload of blocks that have one (has_payload_v: e.g. the
  // slabs of an out-of-core matrix keep links, and halos not spent, in
  // memory, their elements in a file); f must not touch the payload then.
  // Other blocks run as in foreach. Failures as in foreach. Local.
  template <class F>
  void foreach_shell(F&& f) {
    each_shell([&f, this](std::size_t i) { f(residency_.shell(i), *entries_[i]->proxy); });
  }

  // Empties every incoming queue of the calling unit's blocks, those in
  // storage too: what an earlier exchange delivered and no call took (e.g.
  // halos waiting for a sweep, before a strategy that does not take them).
  // Local.
  void drop_incoming() {
    run_delayed();
    clear_incoming_queues();
  }

  // Throws, on every unit, a failure held on any unit (from foreach, or one
  // after an exchange's last collective: its own exception where it
  // happened, dash::exception::RemoteFailure on the others); returns if
  // there is none. For programs that follow foreach
  // calls with collectives of their own (exchange, iexchange and reduce do
  // it already). Collective over the team: one int allreduce.
  void report_failures() {
    run_delayed();
    dash::internal::Failure failure;
    failure.capture(std::exchange(held_, nullptr));
    dash::internal::agree(failure, message_team(), "dash::bp::Master::report_failures");
  }

  // Delivers every outgoing queue to its target block's incoming queue (the
  // incoming queues of the previous round are dropped first). Collective
  // over the team.
  //
  // Sparse (NBX) on more than DASH_BP_EXCHANGE_SPARSE_UNITS units (default
  // 8; 0: always), dense collectives on fewer (see the top of this file).
  //
  // Failures: a failure held from foreach, an enqueue to a gid outside
  // [0, nblocks), or one while packing (a queue to a block of this unit that
  // was never added, memory) makes this unit send a failure mark instead of
  // its queues (dense) or send nothing (sparse), and the sizes' alltoall or
  // the closing allreduce tells every unit; every queue of every unit is
  // emptied, and every unit throws: the failing unit its own exception, the
  // others dash::exception::RemoteFailure naming the lowest failing unit.
  // A queue the unit cannot take in fails the same way on the sparse path;
  // on the dense path, and for a failure storing incoming queues (out of
  // core), the unit drops what it received and holds the failure like one
  // of foreach, for the next collective call to report.
  //
  // Out of core: under a memory-block limit that the unit's blocks exceed,
  // outgoing queues of at least DASH_OOC_QUEUE_INLINE bytes went to the
  // store after their block's foreach call; they travel after the rest,
  // one message each, two loaded at a time (exchange_parts), and a unit
  // then ends the exchange with one int allreduce agreeing on failures
  // (every unit learns from the sizes' alltoall or the closing allreduce
  // whether any unit has such queues, so all or none take part).
  void exchange() {
    run_delayed();
    static const char* const call = "dash::bp::Master::exchange";
    last_exchange_ = ExchangeStats{};
    const std::size_t units = team_->size();
    const int me = int(team_->myid().id);
    dash::internal::Failure failure;
    failure.capture(std::exchange(held_, nullptr));
    if (!failure.any()) check_targets(failure, "exchange");
    for (auto& e : entries_) e->proxy->clear_incoming();
    drop_spilled_queues();
    if (!failure.any()) {
      try {
        complete_outgoing_parts();
      } catch (...) {
        failure.capture("unit " + std::to_string(me) + ", storing its outgoing queues");
      }
    }
    // Queues in the store (memory short): a {from, to, -(kPartMark + n)}
    // header each in the packed message, the bytes after the rest.
    const bool my_parts = !spilled_.outgoing().empty();
    // Bytes per destination unit: a {from, to, nbytes} header per queue,
    // followed by its bytes unless the queue goes as a message of its own.
    // Only the units this one sends to are visited (sx_.destinations), so
    // the work follows the neighbours, not the unit count.
    // A failure here (memory, a queue to a block this unit does not hold)
    // is sent as the failure mark (dense) or as nothing (sparse).
    try {
      sx_.clear_destinations(units);
      if (!failure.any()) {
        for (const auto& part : spilled_.outgoing()) {
          const int dest = owner_(part.to);
          if (dest != me) sx_.destination(dest).bytes += kHeaderBytes;
        }
        for (auto& e : entries_)
          e->proxy->for_each_outgoing([&](int to, MemoryBuffer& buf, Proxy::View view) {
            const int dest = owner_(to);
            if (dest == me) return;
            Destination& d = sx_.destination(dest);
            d.bytes += packed_bytes(buf.size());
            if (view.bytes > 0) d.bytes += packed_bytes(view.bytes);
          });
      }
      std::size_t send_total = 0;
      for (Destination& d : sx_.destinations) {
        d.offset = d.fill = send_total;
        send_total += d.bytes;
      }
      sx_.send.resize(send_total + 1);  // data() valid when nothing is sent
      sx_.direct.clear();
      if (!failure.any())
        for (const auto& part : spilled_.outgoing()) {
          const int dest = owner_(part.to);
          if (dest == me) continue;
          const std::int64_t header[3] = {part.from, part.to,
                                          -kPartMark - std::int64_t(part.nbytes)};
          Destination& d = sx_.destination(dest);
          std::memcpy(sx_.send.data() + d.fill, header, sizeof(header));
          d.fill += kHeaderBytes;
        }
      // A queue's bytes, then its enqueue_view array's (if any): each packed,
      // or from kDirectBytes announced by its header (negative size) and sent
      // after the sizes, straight from its memory.
      auto add = [&](int dest, int from, int to, const char* data, std::size_t n) {
        Destination& d = sx_.destination(dest);
        char* at = sx_.send.data() + d.fill;
        const bool direct = n >= kDirectBytes;
        const std::int64_t header[3] = {from, to, direct ? direct_size(data, n) : std::int64_t(n)};
        std::memcpy(at, header, sizeof(header));
        if (direct) {
          sx_.direct.push_back(Direct{dest, data, n});
        } else if (n > 0) {
          std::memcpy(at + sizeof(header), data, n);
        }
        d.fill += packed_bytes(n);
      };
      if (!failure.any())
        for (auto& e : entries_)
          e->proxy->for_each_outgoing([&](int to, MemoryBuffer& buf, Proxy::View view) {
            const int dest = owner_(to);
            if (dest == me) {
              deliver(e->gid, to, buf, "exchange");
              if (view.bytes > 0) deliver(e->gid, to, view.data, view.bytes, "exchange");
            } else {
              add(dest, e->gid, to, buf.data(), buf.size());
              if (view.bytes > 0) add(dest, e->gid, to, view.data, view.bytes);
            }
          });
    } catch (...) {
      failure.capture("unit " + std::to_string(me) + ", packing its queues");
      sx_.direct.clear();
    }
    if (units == 1) {
      if (failure.any()) drop_queues();
      failure.raise(call);
      for (auto& e : entries_) e->proxy->clear_outgoing();
      if (my_parts) exchange_parts(call);
      spill_queues();
      return;
    }
    if (units > sparse_above_units_)
      exchange_sparse(failure, my_parts, call);
    else
      exchange_dense(failure, my_parts, call);
  }

  // What the last exchange() of this unit sent to other units: messages (one
  // packed message per destination unit, plus each queue sent on its own)
  // and their bytes (headers included). Local.
  struct ExchangeStats {
    std::size_t messages = 0, bytes = 0;
  };
  ExchangeStats last_exchange() const { return last_exchange_; }

  // The communicator of every message and collective of exchange, iexchange
  // and reduce: the team's library duplicate (Team::library_team), apart
  // from the program's own messages on the team. Made by the first call that
  // needs it (those calls are collective). Local afterwards.
  dart_team_t message_team() { return team_->library_team(); }

  // Asynchronous exchange: calls f(block, proxy) -> bool on every block,
  // then again on every block that returned false or received messages,
  // until every block of every unit is done and no message is in flight.
  // Queues filled by a call are sent right after it (single-threaded) or
  // after the pass of concurrent calls (threads > 1; under a memory-block
  // limit after each batch of them); messages arriving in
  // between are delivered to their blocks' incoming queues. Values a call
  // leaves unread stay queued. Under a memory-block limit, when the unit's
  // blocks exceed it, messages of at least DASH_OOC_QUEUE_INLINE bytes for
  // blocks not in memory wait in storage, and the unit holds at most about
  // two blocks' bytes (at least 4 MiB) in messages being sent, polling
  // before its next call until sends complete (peak_sending_bytes()).
  // Collective over the team; every unit must
  // call it. A unit with nothing to do polls; where DART waits by yielding
  // (DART_WAIT, e.g. more units than cores) it yields and then sleeps 20 us
  // between polls.
  //
  // Failures: when f throws (or enqueues to a gid outside [0, nblocks), or
  // foreach holds a failure), the unit stops calling f, drops its queues and
  // sends a failure notice to every other unit with the same messages as
  // queues; a unit that receives one stops too. Termination detection then
  // runs as usual (messages still in flight are received and dropped), its
  // all-reduce carrying a failure bit next to the dirty flag, and every unit
  // throws: the failing unit its own exception, the others
  // dash::exception::RemoteFailure naming the (lowest) failing unit. The
  // master is then empty of messages and can be used again.
  //
  // Test flag DASH_BP_TEST_SEND_DELAY_US=<max>: each message to another unit
  // is held back for a random 0..max microseconds before it is sent (seeded
  // by DASH_BP_TEST_SEED and the unit id), to exercise termination under
  // adversarial timing.
  template <class F>
  void iexchange(F&& f) {
    run_delayed();
    static const char* const call = "dash::bp::Master::iexchange";
    const int me = int(team_->myid().id);
    const SendDelay delay = SendDelay::from_environment(me);
    std::mt19937_64 random(delay.seed);
    // Consecutive calls on a team, of this master or another, use two tags
    // in turn: a unit that has seen the end of this call may already send
    // for the next one while another unit still polls for this one, which
    // must not receive those messages (no unit can finish the next call
    // before every unit has finished this one).
    const int tag = team_->count_tagged_call() % 2 == 0 ? kIexchangeTag : kIexchangeTagOdd;
    std::vector<Outbound> outbound;  // packed, sending or held back
    std::size_t outbound_bytes = 0;  // their bytes
    peak_sending_bytes_ = 0;
    last_iexchange_ = IExchangeStats{};
    std::vector<MemoryBuffer> packs(team_->size());
    std::vector<std::size_t> runnable;
    Bytes received;
    Termination termination;
    TeamCollectives collectives(message_team());
    dash::internal::Failure failure;
    failure.capture(take_held());
    bool stopped = false;  // after a failure: no more calls of f
    for (auto& e : entries_) {
      e->done = false;
      e->fresh = false;
    }
    // Hands the queues block e filled to their targets: in memory on this
    // unit, packed per destination unit for the others.
    auto route = [&](Entry& e) {
      e.proxy->drain_outgoing([&](int to, MemoryBuffer& buf, Proxy::View view) {
        if (to < 0 || to >= nblocks_)
          throw exception::InvalidArgument(
              "dash::bp::Master::iexchange: block " + std::to_string(e.gid) + " enqueued to gid " +
              std::to_string(to) + ", outside [0, " + std::to_string(nblocks_) + ")");
        const int dest = owner_(to);
        if (dest == me) {
          deliver(e.gid, to, buf, "iexchange");
          if (view.bytes > 0) deliver(e.gid, to, view.data, view.bytes, "iexchange");
          if (memory_short()) spill_incoming(index_.at(to));
        } else {
          pack(packs[std::size_t(dest)], e.gid, to, buf.data(), buf.size());
          if (view.bytes > 0) pack(packs[std::size_t(dest)], e.gid, to, view.data, view.bytes);
        }
      });
    };
    // Moves the packs into outbound messages, sent now or after a delay.
    auto post = [&] {
      const auto now = std::chrono::steady_clock::now();
      last_iexchange_.buffers_visited += packs.size();
      for (std::size_t u = 0; u < packs.size(); ++u) {
        if (packs[u].size() == 0) continue;
        Outbound out{int(u), std::move(packs[u].bytes()), DART_HANDLE_NULL, now};
        packs[u].clear();
        outbound_bytes += out.bytes.size();
        peak_sending_bytes_ = std::max(peak_sending_bytes_, outbound_bytes);
        if (delay.max_us > 0)
          out.release += std::chrono::microseconds(
              std::uniform_int_distribution<long>(0, delay.max_us)(random));
        outbound.push_back(std::move(out));
      }
    };
    // After the first failure this unit knows of: no more calls, every block
    // done, queues dropped; if the failure is its own, a notice (a message
    // with a {kFailureNotice, unit, nbytes} header and the text) to every
    // other unit. Messages already packed still go (their receivers drop
    // them).
    auto stop = [&] {
      if (stopped || !failure.any()) return;
      stopped = true;
      for (auto& e : entries_) {
        e->done = true;
        e->fresh = false;
      }
      drop_queues();
      if (!failure.own()) return;
      const std::string text = failure.own_message();
      for (std::size_t u = 0; u < packs.size(); ++u) {
        if (int(u) == me) continue;
        const std::int64_t header[3] = {kFailureNotice, me, std::int64_t(text.size())};
        packs[u].write(header, sizeof(header));
        packs[u].write(text.data(), text.size());
      }
      post();
    };
    // A received message: failure notices are recorded, queues delivered
    // (or dropped once stopped).
    auto take = [&](const char* data, std::size_t total) {
      std::size_t at = 0;
      while (at + kHeaderBytes <= total) {
        std::int64_t header[3];
        std::memcpy(header, data + at, sizeof(header));
        at += kHeaderBytes;
        const std::size_t n = std::min(std::size_t(header[2]), total - at);
        if (header[0] == kFailureNotice) {
          failure.remote(int(header[1]), std::string(data + at, n));
        } else if (!stopped) {
          try {
            deliver(int(header[0]), int(header[1]), data + at, n, "iexchange");
            if (memory_short()) spill_incoming(index_.at(int(header[1])));
          } catch (...) {
            failure.capture();
          }
        }
        at += n;
      }
    };
    // Starts due sends, retires completed ones, receives what has come.
    // Returns whether anything happened.
    auto progress = [&] {
      bool moved = false;
      const auto now = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < outbound.size();) {
        Outbound& out = outbound[i];
        if (out.handle == DART_HANDLE_NULL) {
          if (out.release > now) {
            ++i;
            continue;
          }
          dash::check_dart(dart_issend(out.bytes.data(), out.bytes.size(), tag,
                                       DART_TEAM_UNIT_ID(out.unit), message_team(), &out.handle),
                           "dart_issend");
          ++last_iexchange_.messages;
          last_iexchange_.bytes += out.bytes.size();
          moved = true;
        }
        std::int32_t done = 0;
        dash::check_dart(dart_test(&out.handle, &done), "dart_test");
        if (done) {
          outbound_bytes -= out.bytes.size();
          outbound[i] = std::move(outbound.back());
          outbound.pop_back();
          moved = true;
        } else {
          ++i;
        }
      }
      for (;;) {
        std::int32_t found = 0;
        dart_message_t message;
        dart_team_unit_t from;
        std::size_t nbytes = 0;
        dash::check_dart(dart_improbe(tag, DART_UNDEFINED_TEAM_UNIT_ID, message_team(), &found,
                                      &message, &from, &nbytes),
                         "dart_improbe");
        if (!found) break;
        received.resize(nbytes + 1);
        dash::check_dart(dart_mrecv(received.data(), nbytes, &message), "dart_mrecv");
        take(received.data(), nbytes);
        termination.received();
        moved = true;
      }
      stop();
      return moved;
    };

    for (auto& e : entries_) e->fresh = true;  // every block runs at least once
    stop();                                    // a failure held from foreach
    detail::IdleWait idle(call, message_team());
    // Under a memory-block limit that is short of memory, messages being
    // sent hold at most about two blocks' bytes (send_window()): before the
    // next call this unit only polls (receiving, so no unit waits for
    // another that waits too) until enough of its sends completed.
    auto wait_for_window = [&] {
      if (!memory_short()) return;
      const std::size_t window = send_window();
      while (!stopped && outbound_bytes > window) idle.after_poll(progress());
    };
    for (;;) {
      runnable.clear();
      for (std::size_t i = 0; !stopped && i < entries_.size(); ++i)
        if (!entries_[i]->done || entries_[i]->fresh) runnable.push_back(i);
      bool moved = !runnable.empty();
      // Under a memory-block limit: the blocks in memory first, then those
      // with the most bytes waiting.
      if (residency_.limited()) order_runnable(runnable);
      if (threads_ <= 1) {
        for (std::size_t k = 0; k < runnable.size(); ++k) {
          if (stopped) break;
          const std::size_t i = runnable[k];
          Entry& e = *entries_[i];
          wait_for_window();
          e.fresh = false;
          ++last_iexchange_.block_calls;
          try {
            Block& b = residency_.acquire(i, false);  // changed unless it says otherwise
            restore_queues(i);
            if (k + 1 < runnable.size()) residency_.prefetch(runnable[k + 1]);
            struct Release {
              detail::Residency<Block>& r;
              std::size_t i;
              ~Release() { r.release(i); }
            } release{residency_, i};
            e.done = call_block(f, i, b, *e.proxy);
            route(e);
          } catch (...) {
            failure.capture("block " + std::to_string(e.gid));
          }
          stop();
          post();
          progress();
        }
      } else if (!runnable.empty()) {
        for (std::size_t i : runnable) entries_[i]->fresh = false;
        last_iexchange_.block_calls += runnable.size();
        try {
          if (!residency_.limited()) {
            run_blocks(runnable.size(), [&](std::size_t k) {
              Entry& e = *entries_[runnable[k]];
              e.done = f(residency_.resident_block(runnable[k]), *e.proxy);
            });
            for (std::size_t i : runnable) route(*entries_[i]);
          } else {
            // Each batch's queues go out before the next batch runs (which
            // waits for room in the send window when memory is short).
            wait_for_window();
            run_resident(
                runnable,
                [&](std::size_t i, Block& b) {
                  Entry& e = *entries_[i];
                  e.done = call_block(f, i, b, *e.proxy);
                },
                false,
                [&](std::size_t i) {
                  route(*entries_[i]);
                  post();
                  wait_for_window();
                });
          }
        } catch (...) {
          failure.capture();
        }
        stop();
        post();
      }
      moved = progress() || moved;
      bool idle_here = outbound.empty();
      for (std::size_t i = 0; idle_here && i < entries_.size(); ++i)
        idle_here = entries_[i]->done && !entries_[i]->fresh;
      const auto before = termination.state();
      if (termination.step(idle_here, collectives, failure.any())) break;
      // Nothing to do, more units than cores: leave the core to the units
      // (or threads) that have work.
      idle.after_poll(moved || termination.state() != before);
    }
    if (!failure.any() && termination.failed())  // cannot happen: notices precede the bit
      throw exception::RuntimeError(std::string(call) + ": another unit failed");
    failure.raise(call);
  }

 private:
  // iexchange's call of f on block i (acquired for reading): the block counts
  // as changed unless the call said block_unchanged() (and if it threw).
  template <class F>
  bool call_block(F& f, std::size_t i, Block& b, Proxy& p) {
    bool done;
    p.take_unchanged();  // one said in another kind of call does not count here
    try {
      done = f(b, p);
    } catch (...) {
      p.take_unchanged();
      residency_.mark_changed(i);
      throw;
    }
    if (!p.take_unchanged()) residency_.mark_changed(i);
    return done;
  }

  struct Entry {
    int gid;
    std::vector<int> link;
    std::unique_ptr<Proxy> proxy;
    bool done = false;   // iexchange: the last call returned true
    bool fresh = false;  // iexchange: messages arrived since the last call
  };

  // A packed message to another unit, until its send completes.
  struct Outbound {
    int unit;
    Bytes bytes;
    dart_handle_t handle = DART_HANDLE_NULL;
    std::chrono::steady_clock::time_point release;  // test delays only
  };

  static constexpr int kIexchangeTag = 30001;     // iexchange(): even calls
  static constexpr int kIexchangeTagOdd = 30004;  // iexchange(): odd calls
  // iexchange(): the `from` of a header announcing a failure notice.
  static constexpr std::int64_t kFailureNotice = -1;
  static constexpr int kExchangeTag = 30003;  // exchange(): queues sent on their own
  static constexpr int kPackedTag = 30005;    // exchange(): a unit's packed queues
  // exchange() is NBX on more units than this, dense collectives on fewer
  // (DASH_BP_EXCHANGE_SPARSE_UNITS).
  static constexpr std::size_t kSparseAboveUnits = 8;
  static constexpr std::uint64_t kMaxSparseAboveUnits = std::uint64_t(1) << 30;

  // exchange() sends queues of at least this many bytes to another unit as
  // messages of their own, from the queue's memory into the target's
  // incoming queue: no pack and unpack copies, one message each.
  static constexpr std::size_t kDirectBytes = std::size_t(32) << 10;

  // A queue (or enqueue_view array) exchange() sends on its own, until the
  // send completes.
  struct Direct {
    int unit;
    const char* data;
    std::size_t bytes;
  };
  // A unit exchange() sends a packed message to: its bytes and where they
  // start in the send buffer (offset; fill while packing).
  struct Destination {
    int unit;
    std::size_t bytes, offset, fill;
  };
  // A queue sent on its own is received at an address with the same
  // residue modulo kResidues as the one it is sent from: the shared-memory
  // copies of both MPIs run 4x slower when the destination lies 1..63 bytes
  // past the source in their pages (measured for 1 MiB on OpenMPI 4.1 and
  // MPICH 4.0 shared memory: 420 us against 95 us).
  static constexpr std::size_t kResidues = 64;
  // The header's size field of a queue of n bytes at data sent on its own:
  // negative, with the residue of data.
  static std::int64_t direct_size(const char* data, std::size_t n) {
    const std::size_t residue = reinterpret_cast<std::uintptr_t>(data) % kResidues;
    return -std::int64_t(n * kResidues + residue);
  }
  // Bytes a queue of n bytes takes in exchange()'s packed message.
  static std::size_t packed_bytes(std::size_t n) {
    return kHeaderBytes + (n >= kDirectBytes ? 0 : n);
  }

  // The test flag DASH_BP_TEST_SEND_DELAY_US (and DASH_BP_TEST_SEED), read by the strict
  // flag parser of DART (dart_flags.h).
  struct SendDelay {
    static constexpr std::uint64_t kMaxUs = 1000000;        // 1 s
    static constexpr std::uint64_t kMaxSeed = 0xffffffffu;  // 2^32 - 1
    long max_us = 0;
    std::uint64_t seed = 0;

    static SendDelay from_environment(int unit) {
      SendDelay d;
      d.max_us = long(parse("DASH_BP_TEST_SEND_DELAY_US", kMaxUs));
      d.seed = parse("DASH_BP_TEST_SEED", kMaxSeed) * 1000003u + std::uint64_t(unit);
      return d;
    }
    static std::uint64_t parse(const char* name, std::uint64_t max) {
      std::uint64_t value = 0;
      char err[DART_FLAG_ERROR_SIZE];
      if (dart_flag_integer(name, 0, max, &value, err, sizeof err) != DART_OK)
        throw exception::InvalidArgument(std::string("dash::bp::Master::iexchange: ") + err);
      return value;
    }
  };

  // Captures, as this unit's failure, the first enqueue to a gid outside
  // [0, nblocks). Local.
  void check_targets(dash::internal::Failure& failure, const char* call) {
    for (const auto& part : spilled_.outgoing())
      if ((part.to < 0 || part.to >= nblocks_) && !failure.any())
        failure.capture(std::make_exception_ptr(exception::InvalidArgument(
            std::string("dash::bp::Master::") + call + ": block " + std::to_string(part.from) +
            " of unit " + std::to_string(team_->myid().id) + " enqueued to gid " +
            std::to_string(part.to) + ", outside [0, " + std::to_string(nblocks_) + ")")));
    for (auto& e : entries_)
      e->proxy->for_each_outgoing([&](int to, MemoryBuffer&, Proxy::View) {
        if ((to >= 0 && to < nblocks_) || failure.any()) return;
        failure.capture(std::make_exception_ptr(exception::InvalidArgument(
            std::string("dash::bp::Master::") + call + ": block " + std::to_string(e->gid) +
            " of unit " + std::to_string(team_->myid().id) + " enqueued to gid " +
            std::to_string(to) + ", outside [0, " + std::to_string(nblocks_) + ")")));
      });
  }

  // Empties every queue of every block (after a failure: nothing of the
  // failed round reaches a later one). Local.
  void drop_queues() {
    clear_incoming_queues();
    if (!spilled_.outgoing().empty()) spilled_.drop_outgoing(residency_.extra_store());
    for (auto& e : entries_) e->proxy->clear_outgoing();
  }
  // Empties every incoming queue, those in storage too. Local.
  void clear_incoming_queues() {
    drop_spilled_queues();
    for (auto& e : entries_) e->proxy->clear_incoming();
  }

  // The failure foreach holds (null if none), handed over to a collective
  // operation that reports it. Local.
  std::exception_ptr take_held() { return std::exchange(held_, nullptr); }

  template <class B, class P>
  friend class detail::ReduceRun;

  Entry& entry_of(int to, const char* call) {
    auto it = index_.find(to);
    if (it == index_.end())
      throw exception::InvalidArgument(std::string("dash::bp::Master::") + call + ": block " +
                                       std::to_string(to) + " is not on unit " +
                                       std::to_string(team_->myid().id));
    return *entries_[it->second];
  }

  // Appends queue `buf` (from block `from`) to block `to`'s incoming queue;
  // an empty target queue swaps buffers with it (no copy, and `buf` keeps
  // the target's old memory for the next round).
  void deliver(int from, int to, MemoryBuffer& buf, const char* call) {
    Entry& target = entry_of(to, call);
    MemoryBuffer& in = target.proxy->incoming_queue(from);
    if (in.remaining() == 0) {
      std::swap(in, buf);
      in.rewind();
    } else {
      in.write(buf.data(), buf.size());
    }
    target.fresh = true;
  }

  void deliver(int from, int to, const char* data, std::size_t n, const char* call) {
    Entry& target = entry_of(to, call);
    MemoryBuffer& in = target.proxy->incoming_queue(from);
    if (in.remaining() == 0) in.clear();
    in.write(data, n);
    target.fresh = true;
  }

  // Unpacks a message of {from, to, nbytes} headers and queue bytes. A
  // negative nbytes (exchange only) announces a queue that follows from
  // source_unit as a message of its own; it is received here, straight into
  // the target's incoming queue.
  void unpack(const char* data, std::size_t total, const char* call, int source_unit = -1) {
    std::size_t at = 0;
    while (at < total) {
      std::int64_t header[3];
      std::memcpy(header, data + at, sizeof(header));
      at += sizeof(header);
      if (header[2] <= -kPartMark) {  // comes in exchange_parts
        expected_parts_.push_back(ExpectedPart{source_unit, int(header[0]), int(header[1]),
                                               std::size_t(-header[2] - kPartMark)});
        continue;
      }
      if (header[2] < 0) {
        receive_direct(int(header[0]), int(header[1]), std::size_t(-header[2]) / kResidues,
                       std::size_t(-header[2]) % kResidues, source_unit, call);
        continue;
      }
      deliver(int(header[0]), int(header[1]), data + at, std::size_t(header[2]), call);
      at += std::size_t(header[2]);
    }
  }

  // exchange() on more than DASH_BP_EXCHANGE_SPARSE_UNITS units: NBX. The
  // packed queues and the queues sent on their own are in sx_. Collective.
  void exchange_sparse(dash::internal::Failure& failure, bool my_parts, const char* call) {
    const int me = int(team_->myid().id);
    // NBX: a packed message to each unit that has queues
    // from this one, the large queues after it as messages of their own, all
    // in synchronous mode; incoming messages are received as they come. Once
    // every send of this unit was matched, the unit enters a non-blocking
    // barrier; when the barrier completes, every message of every unit has
    // been received. One allreduce then agrees on failures and on queue parts
    // in the store. A failing unit sends nothing and drops what it receives.
    const dart_team_t comm = message_team();
    if (failure.any()) sx_.direct.clear();
    sx_.sends.clear();
    sx_.sends.reserve(sx_.destinations.size() + sx_.direct.size());
    if (!failure.any()) {
      for (const Destination& d : sx_.destinations) {
        if (d.bytes == 0) continue;
        sx_.sends.push_back(DART_HANDLE_NULL);
        dash::check_dart(dart_issend(sx_.send.data() + d.offset, d.bytes, kPackedTag,
                                     DART_TEAM_UNIT_ID(d.unit), comm, &sx_.sends.back()),
                         "dart_issend");
      }
      for (const Direct& d : sx_.direct) {
        sx_.sends.push_back(DART_HANDLE_NULL);
        dash::check_dart(dart_issend(d.data, d.bytes, kExchangeTag, DART_TEAM_UNIT_ID(d.unit), comm,
                                     &sx_.sends.back()),
                         "dart_issend");
      }
    }
    last_exchange_ = ExchangeStats{sx_.sends.size(), 0};
    if (!sx_.sends.empty()) {
      for (const Destination& d : sx_.destinations) last_exchange_.bytes += d.bytes;
      for (const Direct& d : sx_.direct) last_exchange_.bytes += d.bytes;
    }
    dart_handle_t barrier = DART_HANDLE_NULL;
    bool in_barrier = false;
    detail::IdleWait idle(call, comm);
    for (;;) {
      bool progress = receive_packed(comm, failure);
      std::int32_t done = 0;
      if (!in_barrier) {
        dash::check_dart(dart_testall(sx_.sends.data(), sx_.sends.size(), &done), "dart_testall");
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
    sx_.sends.clear();
    sx_.direct.clear();
    // [0]: the lowest failing unit (INT_MAX: none); [1]: 0 if any unit has parts.
    const int mine[2] = {failure.own() ? me : INT_MAX, my_parts ? 0 : 1};
    int agreed[2] = {INT_MAX, 1};
    dash::check_dart(dart_allreduce(mine, agreed, 2, DART_TYPE_INT, DART_OP_MIN, comm),
                     "dart_allreduce");
    if (agreed[0] != INT_MAX) {
      const std::string message = dash::internal::broadcast_failure_message(
          failure.own() ? failure.own_message() : std::string(), agreed[0], comm, call);
      drop_queues();
      expected_parts_.clear();
      if (failure.own()) std::rethrow_exception(failure.own_exception());
      throw exception::RemoteFailure(call, agreed[0], message);
    }
    for (auto& e : entries_) e->proxy->clear_outgoing();
    if (agreed[1] == 0) exchange_parts(call);
    hold_failures_of([&] { spill_queues(); });
  }

  // exchange() on at most DASH_BP_EXCHANGE_SPARSE_UNITS units: one alltoall
  // of sizes (a failure mark or the has-parts bit riding on them), one
  // alltoallv of the packed queues (queues sent on their own follow the
  // sizes). On few units two dense collectives cost less than synchronous
  // sends, a barrier and an allreduce (BM_sparse_protocol). Collective.
  void exchange_dense(dash::internal::Failure& failure, bool my_parts, const char* call) {
    const std::size_t units = team_->size();
    const int me = int(team_->myid().id);
    const dart_team_t comm = message_team();
    constexpr std::size_t kFailed = ~std::size_t(0);
    constexpr std::size_t kHasParts = std::size_t(1) << 62;
    sx_.send_counts.assign(units, 0);
    sx_.send_offsets.assign(units, 0);
    for (const Destination& d : sx_.destinations) {
      sx_.send_counts[std::size_t(d.unit)] = d.bytes;
      sx_.send_offsets[std::size_t(d.unit)] = d.offset;
    }
    sx_.recv_counts.assign(units, 0);
    sx_.recv_offsets.resize(units);
    if (failure.any())
      std::fill(sx_.send_counts.begin(), sx_.send_counts.end(), kFailed);
    else if (my_parts)
      for (std::size_t& c : sx_.send_counts) c |= kHasParts;
    dash::check_dart(dart_alltoall(sx_.send_counts.data(), sx_.recv_counts.data(),
                                   sizeof(std::size_t), DART_TYPE_BYTE, comm),
                     "dart_alltoall");
    bool any_parts = my_parts;
    for (std::size_t u = 0; u < units; ++u) {
      if (sx_.recv_counts[u] == kFailed) continue;
      any_parts = any_parts || (sx_.recv_counts[u] & kHasParts) != 0;
      sx_.recv_counts[u] &= ~kHasParts;
      sx_.send_counts[u] &= ~kHasParts;
    }
    // A failure mark from any unit (this one included): every unit learns
    // the lowest failing unit's message and throws.
    for (std::size_t u = 0; u < units; ++u) {
      if (sx_.recv_counts[u] != kFailed) continue;
      const std::string message = dash::internal::broadcast_failure_message(
          failure.own() ? failure.own_message() : std::string(), int(u), comm, call);
      sx_.direct.clear();
      drop_queues();
      if (failure.own()) std::rethrow_exception(failure.own_exception());
      throw exception::RemoteFailure(call, int(u), message);
    }
    last_exchange_ = ExchangeStats{sx_.direct.size(), 0};
    for (const Destination& d : sx_.destinations) {
      last_exchange_.messages += d.bytes > 0;
      last_exchange_.bytes += d.bytes;
    }
    sx_.sends.clear();
    sx_.sends.reserve(sx_.direct.size());
    for (const Direct& d : sx_.direct) {
      last_exchange_.bytes += d.bytes;
      sx_.sends.push_back(DART_HANDLE_NULL);
      dash::check_dart(dart_isend(d.data, d.bytes, kExchangeTag, DART_TEAM_UNIT_ID(d.unit), comm,
                                  &sx_.sends.back()),
                       "dart_isend");
    }
    std::size_t total = 0;
    for (std::size_t u = 0; u < units; ++u) {
      sx_.recv_offsets[u] = total;
      total += sx_.recv_counts[u];
    }
    if (sx_.recv.size() < total + 1) sx_.recv.resize(total + 1);
    dash::check_dart(dart_alltoallv(sx_.send.data(), sx_.send_counts.data(),
                                    sx_.send_offsets.data(), DART_TYPE_BYTE, sx_.recv.data(),
                                    sx_.recv_counts.data(), sx_.recv_offsets.data(), comm),
                     "dart_alltoallv");
    // Unpack in unit order: each (source, target) queue comes from one unit,
    // and a unit's own messages arrive in the order of its headers. After a
    // failure the queues sent on their own are still received (their
    // senders wait for that), into scratch memory.
    for (std::size_t u = 0; u < units; ++u) {
      const char* data = sx_.recv.data() + sx_.recv_offsets[u];
      sx_.directs_received = 0;
      if (!failure.any()) {
        try {
          unpack(data, sx_.recv_counts[u], "exchange", int(u));
          continue;
        } catch (...) {
          failure.capture("unit " + std::to_string(me) + ", receiving the queues of unit " +
                          std::to_string(u));
        }
      }
      drain_directs(data, sx_.recv_counts[u], int(u), comm);
    }
    dash::check_dart(dart_waitall(sx_.sends.data(), sx_.sends.size()), "dart_waitall");
    sx_.sends.clear();
    sx_.direct.clear();
    for (auto& e : entries_) e->proxy->clear_outgoing();
    if (any_parts) exchange_parts(call);
    if (failure.own()) {
      // After the last collective: held like a failure of foreach (foreach
      // does nothing meanwhile) and reported by the next collective call,
      // which an agreement here would cost every exchange (1.2-1.6x for
      // small halos on 2-4 units).
      drop_queues();
      held_ = failure.own_exception();
      return;
    }
    hold_failures_of([&] { spill_queues(); });
  }

  // Runs f, a local step after an operation's last collective; a failure is
  // held like one of foreach, for the next collective call to report. Local.
  template <class F>
  void hold_failures_of(F&& f) {
    try {
      f();
    } catch (...) {
      if (!held_) held_ = std::current_exception();
    }
  }

  // Receives into scratch memory the queues that the packed message at data
  // (nbytes, from unit `from`) announces as sent on their own, past the
  // sx_.directs_received of them already received: after a failure, so that
  // their senders do not wait for ever. Local.
  void drain_directs(const char* data, std::size_t nbytes, int from, dart_team_t comm) {
    std::size_t announced = 0;
    for (std::size_t at = 0; at < nbytes;) {
      std::int64_t header[3];
      std::memcpy(header, data + at, sizeof(header));
      at += sizeof(header);
      if (header[2] >= 0) at += std::size_t(header[2]);
      if (header[2] < 0 && header[2] > -kPartMark) ++announced;
    }
    std::vector<char> scratch;
    for (std::size_t k = sx_.directs_received; k < announced; ++k) {
      dart_message_t message;
      dart_team_unit_t sender;
      std::size_t n = 0;
      dash::check_dart(
          dart_mprobe(kExchangeTag, DART_TEAM_UNIT_ID(from), comm, &message, &sender, &n),
          "dart_mprobe");
      scratch.resize(n + 1);
      dash::check_dart(dart_mrecv(scratch.data(), n, &message), "dart_mrecv");
    }
  }

  // exchange(): receives one packed message if one is there and unpacks it.
  // If unpacking fails (or this unit failed before), the message's queues
  // are dropped, but the queues it announces as sent on their own are still
  // received (their senders wait for that), into scratch memory. Returns
  // whether a message came. Local.
  bool receive_packed(dart_team_t comm, dash::internal::Failure& failure) {
    std::int32_t found = 0;
    dart_message_t message;
    dart_team_unit_t from;
    std::size_t nbytes = 0;
    dash::check_dart(dart_improbe(kPackedTag, DART_UNDEFINED_TEAM_UNIT_ID, comm, &found, &message,
                                  &from, &nbytes),
                     "dart_improbe");
    if (!found) return false;
    if (sx_.recv.size() < nbytes + 1) sx_.recv.resize(nbytes + 1);
    dash::check_dart(dart_mrecv(sx_.recv.data(), nbytes, &message), "dart_mrecv");
    sx_.directs_received = 0;
    if (!failure.any()) {
      try {
        unpack(sx_.recv.data(), nbytes, "exchange", from.id);
        return true;
      } catch (...) {
        failure.capture("unit " + std::to_string(team_->myid().id) +
                        ", receiving the queues of unit " + std::to_string(from.id));
      }
    }
    drain_directs(sx_.recv.data(), nbytes, from.id, comm);
    return true;
  }

  // A queue sent on its own, received at an address with the sender's
  // residue modulo kResidues (see direct_size).
  void receive_direct(int from, int to, std::size_t n, std::size_t residue, int source_unit,
                      const char* call) {
    if (source_unit < 0)
      throw exception::RuntimeError(std::string("dash::bp::Master::") + call +
                                    ": a queue announced outside exchange()");
    Entry& target = entry_of(to, call);
    MemoryBuffer& in = target.proxy->incoming_queue(from);
    if (in.remaining() == 0) in.clear();
    dart_message_t message;
    dart_team_unit_t sender;
    std::size_t nbytes = 0;
    dash::check_dart(dart_mprobe(kExchangeTag, DART_TEAM_UNIT_ID(source_unit), message_team(),
                                 &message, &sender, &nbytes),
                     "dart_mprobe");
    if (nbytes != n) {
      std::vector<char> scratch(nbytes + 1);  // received all the same: the sender waits
      dash::check_dart(dart_mrecv(scratch.data(), nbytes, &message), "dart_mrecv");
      ++sx_.directs_received;
      throw exception::RuntimeError(std::string("dash::bp::Master::") + call + ": unit " +
                                    std::to_string(source_unit) + " announced " +
                                    std::to_string(n) + " bytes for block " + std::to_string(to) +
                                    " and sent " + std::to_string(nbytes));
    }
    ++sx_.directs_received;
    dash::check_dart(dart_mrecv(in.extend_at_residue(n, residue, kResidues), n, &message),
                     "dart_mrecv");
    target.fresh = true;
  }

  static constexpr std::size_t kHeaderBytes = 3 * sizeof(std::int64_t);
  // exchange(): a header's nbytes at or below -kPartMark announces a queue
  // part from the store, of -(nbytes + kPartMark) bytes (exchange_parts).
  static constexpr std::int64_t kPartMark = std::int64_t(1) << 60;

  // A queue part another unit announced, received by exchange_parts.
  struct ExpectedPart {
    int unit, from, to;
    std::size_t nbytes;
  };
  // Parts loaded and in flight at once, per unit.
  static constexpr std::size_t kPartWindow = 2;

  // exchange(): the rest of every outgoing queue some of which is in the
  // store joins it there, so the whole queue travels in order. Local.
  void complete_outgoing_parts() {
    if (spilled_.outgoing().empty()) return;
    std::vector<std::pair<int, int>> pairs;
    for (const auto& part : spilled_.outgoing()) pairs.emplace_back(part.from, part.to);
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    for (const auto& [from, to] : pairs) {
      MemoryBuffer& queue = entries_[index_.at(from)]->proxy->outgoing_queue(to);
      if (queue.size() > 0) spilled_.add_outgoing(residency_.extra_store(), from, to, queue);
    }
  }

  // exchange(), when a unit's queues went to the store (memory short): the
  // parts for this unit's blocks are delivered from the store; the others
  // are sent one message each, loaded kPartWindow at a time (the next one
  // prefetched), while the parts announced to this unit are received by
  // polling their senders (so no unit waits for one that waits for it);
  // a received part for a block not in memory goes to the store. Ends with
  // one int allreduce: a part that could not be loaded or stored throws on
  // every unit (and empties every queue). Collective.
  void exchange_parts(const char* call) {
    const int me = int(team_->myid().id);
    dash::internal::Failure failure;
    std::vector<detail::SpilledQueues::Part> remote;
    for (const auto& part : spilled_.outgoing()) {
      if (owner_(part.to) != me) {
        remote.push_back(part);
        continue;
      }
      try {
        SpillStore& store = residency_.extra_store();
        Bytes bytes = store.take(part.key);
        deliver(part.from, part.to, bytes.data(), bytes.size(), call);
        spill_incoming(index_.at(part.to));
        store.recycle(std::move(bytes));
      } catch (...) {
        failure.capture("unit " + std::to_string(me) + ", a queue from block " +
                        std::to_string(part.from) + " to block " + std::to_string(part.to));
      }
    }
    spilled_.clear_outgoing();
    // Per source unit, the parts it announced, in its order.
    std::vector<ExpectedPart> expected = std::move(expected_parts_);
    expected_parts_.clear();
    std::stable_sort(expected.begin(), expected.end(),
                     [](const ExpectedPart& a, const ExpectedPart& b) { return a.unit < b.unit; });
    std::size_t next_send = 0;
    detail::SendsInFlight flight;
    std::vector<char> scratch;
    detail::IdleWait idle(call, message_team());
    while (next_send < remote.size() || !flight.empty() || !expected.empty()) {
      bool progress =
          flight.retire([&](Bytes&& bytes) { residency_.extra_store().recycle(std::move(bytes)); });
      while (flight.size() < kPartWindow && next_send < remote.size()) {
        const auto& part = remote[next_send++];
        SpillStore& store = residency_.extra_store();
        if (next_send < remote.size()) store.prefetch(remote[next_send].key);
        Bytes bytes;  // a part that cannot be loaded goes as 0 bytes
        try {
          if (!failure.own())
            bytes = store.take(part.key);
          else
            store.erase(part.key);
        } catch (...) {
          failure.capture("unit " + std::to_string(me) + ", a queue from block " +
                          std::to_string(part.from) + " to block " + std::to_string(part.to));
        }
        flight.send(std::move(bytes), owner_(part.to), kExchangeTag, message_team());
        progress = true;
      }
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
        dash::check_dart(dart_improbe(kExchangeTag, DART_TEAM_UNIT_ID(part.unit), message_team(),
                                      &found, &message, &sender, &nbytes),
                         "dart_improbe");
        if (!found) {
          ++k;
          continue;
        }
        progress = true;
        expected.erase(expected.begin() + std::ptrdiff_t(k));
        receive_part(part, message, nbytes, scratch, failure, call);
      }
      idle.after_poll(progress);
    }
    try {
      dash::internal::agree(failure, message_team(), call);
    } catch (...) {
      drop_queues();
      throw;
    }
  }

  // Receives one announced part (matched by improbe) into its target's
  // incoming queue, then stores that queue if the block is not in memory.
  // A part of 0 bytes where more were announced: its sender failed (it
  // reports that itself). Local.
  void receive_part(const ExpectedPart& part, dart_message_t& message, std::size_t nbytes,
                    std::vector<char>& scratch, dash::internal::Failure& failure,
                    const char* call) {
    auto it = index_.find(part.to);
    if (nbytes != part.nbytes || it == index_.end() || failure.any()) {
      scratch.resize(std::max<std::size_t>(nbytes, 1));
      dash::check_dart(dart_mrecv(scratch.data(), nbytes, &message), "dart_mrecv");
      if (failure.any()) return;
      if (nbytes == 0)
        failure.remote(part.unit, "unit " + std::to_string(part.unit) +
                                      " could not send its queue from block " +
                                      std::to_string(part.from) + " to block " +
                                      std::to_string(part.to));
      else if (it == index_.end())
        failure.capture(std::make_exception_ptr(exception::InvalidArgument(
            std::string(call) + ": block " + std::to_string(part.to) + " is not on unit " +
            std::to_string(team_->myid().id) + " (a queue from block " + std::to_string(part.from) +
            " of unit " + std::to_string(part.unit) + ")")));
      else
        failure.capture(std::make_exception_ptr(exception::RuntimeError(
            std::string(call) + ": unit " + std::to_string(part.unit) + " announced " +
            std::to_string(part.nbytes) + " bytes from block " + std::to_string(part.from) +
            " to block " + std::to_string(part.to) + " and sent " + std::to_string(nbytes))));
      return;
    }
    Entry& target = *entries_[it->second];
    MemoryBuffer& in = target.proxy->incoming_queue(part.from);
    if (in.remaining() == 0) in.clear();
    dash::check_dart(dart_mrecv(in.bytes().extend(nbytes), nbytes, &message), "dart_mrecv");
    target.fresh = true;
    try {
      spill_incoming(it->second);
    } catch (...) {
      failure.capture("unit " + std::to_string(team_->myid().id) +
                      ", storing the queues of block " + std::to_string(part.to));
    }
  }

  // Writes {from, to, nbytes} and the queue's bytes at `at`; returns the end.
  static void pack(MemoryBuffer& pack, int from, int to, const char* data, std::size_t n) {
    const std::int64_t header[3] = {from, to, std::int64_t(n)};
    pack.write(header, sizeof(header));
    pack.write(data, n);
  }

  // Runs the delayed foreach calls (delay()) in one pass: each block that
  // some call does not skip is loaded once and runs them in order. Local;
  // failures as in foreach.
  void run_delayed() {
    if (delayed_.empty()) return;
    std::vector<Delayed> calls = std::move(delayed_);
    delayed_.clear();
    if (held_) return;
    try {
      std::vector<std::size_t>& order = order_;
      order.clear();
      for (std::size_t i = 0; i < entries_.size(); ++i) {
        restore_queues(i);
        const Proxy& p = *entries_[i]->proxy;
        if (std::any_of(calls.begin(), calls.end(), [&](const Delayed& c) { return !c.skip(p); }))
          order.push_back(i);
      }
      run_resident(
          order,
          [&](std::size_t i, Block& b) {
            Proxy& p = *entries_[i]->proxy;
            for (Delayed& c : calls)
              if (!c.skip(p)) c.f(b, p);
          },
          true, [&](std::size_t i) { spill_outgoing(i); });
    } catch (...) {
      held_ = std::current_exception();
    }
  }

  // Copies every enqueue_view array into its queue. Local.
  void materialize_views() {
    for (auto& e : entries_) e->proxy->materialize_views();
  }
  // Under a memory-block limit, after exchange(): the incoming queues of
  // every evicted block holding at least DASH_OOC_QUEUE_INLINE bytes go to
  // the store, to come back when the block runs (restore_queues). Local.
  void spill_queues() {
    if (!residency_.limited()) return;
    for (std::size_t i = 0; i < entries_.size(); ++i) spill_incoming(i);
  }
  // The same for entry i (if its block is not in memory). Local.
  void spill_incoming(std::size_t i) {
    if (!residency_.limited() || residency_.resident(i)) return;
    spilled_.spill_incoming(residency_.extra_store(), i, *entries_[i]->proxy, queue_inline_bytes_);
  }
  // Brings back block i's queues if they went to the store. Local.
  void restore_queues(std::size_t i) {
    if (spilled_.has_incoming(i))
      spilled_.restore_incoming(residency_.extra_store(), i, *entries_[i]->proxy);
  }
  // Forgets every incoming queue in the store (a new round, or a failure). Local.
  void drop_spilled_queues() {
    if (spilled_.has_incoming(detail::SpilledQueues::npos))
      spilled_.drop_incoming(residency_.extra_store());
  }
  // Whether this unit's blocks exceed its memory-block limit. Local.
  bool memory_short() const {
    return residency_.limited() && residency_.size() > residency_.limit();
  }
  // The bytes iexchange keeps in messages being sent when memory is short:
  // twice the largest block stored so far, at least kMinSendWindow.
  std::size_t send_window() const {
    return std::max(kMinSendWindow, 2 * residency_.largest_stored());
  }
  static constexpr std::size_t kMinSendWindow = std::size_t(4) << 20;
  // body(i) for every block index, its whole incoming queues restored first,
  // after the delayed calls; an exception is held (see foreach).
  template <class Body>
  void each_shell(Body&& body) {
    run_delayed();
    if (held_) return;
    try {
      for (std::size_t i = 0; i < entries_.size(); ++i) {
        restore_queues(i);
        body(i);
        // A block out of memory keeps no emptied queue memory: with a
        // limit, one block's queues at a time.
        if (residency_.limited() && !residency_.resident(i))
          entries_[i]->proxy->free_empty_queues();
      }
    } catch (...) {
      held_ = std::current_exception();
    }
  }

  // When memory is short: block i's outgoing queues of at least
  // DASH_OOC_QUEUE_INLINE bytes go to the store after its foreach call, to
  // be sent one at a time by exchange(). Local.
  void spill_outgoing(std::size_t i) {
    Entry& e = *entries_[i];
    e.proxy->materialize_views();  // the block may leave memory
    if (!memory_short()) return;
    e.proxy->for_each_outgoing([&](int to, MemoryBuffer& buf, Proxy::View) {
      if (buf.size() >= std::max<std::size_t>(queue_inline_bytes_, 1))
        spilled_.add_outgoing(residency_.extra_store(), e.gid, to, buf);
    });
  }

  // iexchange under a memory-block limit: the runnable blocks in memory
  // first, then the evicted ones by bytes waiting in their queues (most first).
  void order_runnable(std::vector<std::size_t>& runnable) {
    auto evicted = std::stable_partition(runnable.begin(), runnable.end(),
                                         [&](std::size_t i) { return residency_.resident(i); });
    auto waiting = [&](std::size_t i) {
      return entries_[i]->proxy->incoming_bytes() + spilled_.incoming_bytes(i);
    };
    std::stable_sort(evicted, runnable.end(),
                     [&](std::size_t a, std::size_t b) { return waiting(a) > waiting(b); });
  }

  // Under a memory-block limit: calls body(i, block) for the entries in
  // `indices` (reordered: those in memory first), loading each (prefetching
  // the next one, or the next batch) and evicting least recently used ones.
  // Single-threaded one block at a time; with threads, batches of up to
  // limit() blocks on the pool (each thread holds its share of the limit).
  // after(i) runs on the calling thread once block i's body returned.
  template <class Body, class After = void (*)(std::size_t)>
  void run_resident(
      std::vector<std::size_t>& indices, Body&& body, bool writes = true,
      After&& after = [](std::size_t) {}) {
    std::stable_partition(indices.begin(), indices.end(),
                          [&](std::size_t i) { return residency_.resident(i); });
    const std::size_t n = indices.size();
    if (threads_ <= 1) {
      for (std::size_t k = 0; k < n; ++k) {
        Block& b = residency_.acquire(indices[k], writes);
        restore_queues(indices[k]);
        if (k + 1 < n) residency_.prefetch(indices[k + 1]);
        try {
          body(indices[k], b);
          after(indices[k]);
        } catch (...) {
          residency_.release(indices[k]);
          throw;
        }
        residency_.release(indices[k]);
      }
      return;
    }
    if (!pool_) pool_ = std::make_unique<ThreadPool>(threads_);
    const std::size_t batch = std::max<std::size_t>(1, residency_.limit());
    std::vector<Block*>& blocks = batch_blocks_;
    for (std::size_t first = 0; first < n; first += batch) {
      const std::size_t count = std::min(batch, n - first);
      blocks.resize(count);
      for (std::size_t k = 0; k < count; ++k) {
        blocks[k] = &residency_.acquire(indices[first + k], writes);
        restore_queues(indices[first + k]);
      }
      for (std::size_t k = first + count; k < std::min(n, first + count + batch); ++k)
        residency_.prefetch(indices[k]);
      auto release = [&] {
        for (std::size_t k = 0; k < count; ++k) residency_.release(indices[first + k]);
      };
      try {
        pool_->run(count, [&](std::size_t k) { body(indices[first + k], *blocks[k]); });
        for (std::size_t k = 0; k < count; ++k) after(indices[first + k]);
      } catch (...) {
        release();
        throw;
      }
      release();
    }
  }

  // DASH_OOC_MEM_BLOCKS=<m>: the memory-block limit of every master whose
  // blocks can be evicted (is_spillable_v); masters of other block types
  // say once on stderr that they keep their blocks in memory.
  void limit_from_environment() {
    std::uint64_t m = 0;
    char err[DART_FLAG_ERROR_SIZE];
    if (dart_flag_integer("DASH_OOC_MEM_BLOCKS", 0, kMaxMemBlocks, &m, err, sizeof err) != DART_OK)
      throw exception::InvalidArgument(std::string("dash::bp::Master: ") + err);
    std::uint64_t inline_bytes = queue_inline_bytes_;
    if (dart_flag_bytes("DASH_OOC_QUEUE_INLINE", 0, kMaxQueueInline, &inline_bytes, err,
                        sizeof err) != DART_OK)
      throw exception::InvalidArgument(std::string("dash::bp::Master: ") + err);
    queue_inline_bytes_ = std::size_t(inline_bytes);
    std::uint64_t sparse_above = kSparseAboveUnits;
    if (dart_flag_integer("DASH_BP_EXCHANGE_SPARSE_UNITS", 0, kMaxSparseAboveUnits, &sparse_above,
                          err, sizeof err) != DART_OK)
      throw exception::InvalidArgument(std::string("dash::bp::Master: ") + err);
    sparse_above_units_ = std::size_t(sparse_above);
    if (m == 0) return;
    if constexpr (is_spillable_v<Block>) {
      residency_.limit(std::size_t(m), "dash::bp::Master");
    } else {
      static std::atomic<bool> said{false};
      if (!said.exchange(true))
        std::fprintf(stderr,
                     "dash::bp::Master: DASH_OOC_MEM_BLOCKS=%llu does not apply to a master "
                     "whose block type has no default constructor or no dash::bp "
                     "serialisation; its blocks stay in memory\n",
                     static_cast<unsigned long long>(m));
    }
  }

  // Calls body(i) for i in [0, n): in order, or on the pool.
  template <class Body>
  void run_blocks(std::size_t n, Body&& body) {
    if (threads_ <= 1) {
      for (std::size_t i = 0; i < n; ++i) body(i);
      return;
    }
    if (!pool_) pool_ = std::make_unique<ThreadPool>(threads_);
    pool_->run(n, body);
  }

  Team* team_;
  int nblocks_;
  owner_function owner_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::unordered_map<int, std::size_t> index_;
  // exchange()'s buffers, kept from call to call.
  struct {
    // The units this round sends to, in the order first met, and for each
    // unit its index there (-1: none; only the entries used are reset).
    std::vector<Destination> destinations;
    std::vector<int> slot_of_unit;
    // Destination of unit `unit` (added with no bytes if new). Local, O(1).
    Destination& destination(int unit) {
      int& slot = slot_of_unit[std::size_t(unit)];
      if (slot < 0) {
        slot = int(destinations.size());
        destinations.push_back(Destination{unit, 0, 0, 0});
      }
      return destinations[std::size_t(slot)];
    }
    // Forgets the last round's destinations, for a team of `units`. Local:
    // O(destinations), O(units) on the first call only.
    void clear_destinations(std::size_t units) {
      if (slot_of_unit.size() != units) slot_of_unit.assign(units, -1);
      for (const Destination& d : destinations) slot_of_unit[std::size_t(d.unit)] = -1;
      destinations.clear();
    }
    std::vector<std::size_t> send_counts, send_offsets;  // exchange_dense
    std::vector<std::size_t> recv_counts, recv_offsets;  // exchange_dense
    Bytes send, recv;
    std::vector<Direct> direct;
    std::vector<dart_handle_t> sends;  // packed messages and directs in flight
    std::size_t directs_received = 0;  // of the packed message being unpacked
  } sx_;
  ExchangeStats last_exchange_;
  IExchangeStats last_iexchange_;
  // DASH_BP_EXCHANGE_SPARSE_UNITS: exchange() is NBX on more units than this.
  std::size_t sparse_above_units_ = kSparseAboveUnits;
  int threads_ = 1;
  std::size_t peak_sending_bytes_ = 0;  // iexchange: the most in messages being sent
  std::unique_ptr<ThreadPool> pool_;
  std::exception_ptr held_;             // a failure of foreach, until a collective reports it
  detail::Residency<Block> residency_;  // blocks, by entry index; which are in memory
  std::vector<std::size_t> order_;      // foreach under a limit: the entries to run
  std::vector<Block*> batch_blocks_;    // run_resident with threads: a batch's blocks
  // Queue parts waiting in the store under a memory-block limit.
  detail::SpilledQueues spilled_;
  std::vector<ExpectedPart> expected_parts_;  // exchange(): announced by unpack
  bool writes_ = true;                        // false inside foreach_read
  // delay(): the foreach calls waiting to run, and how many Delay objects live.
  struct Delayed {
    std::function<void(Block&, Proxy&)> f;
    std::function<bool(const Proxy&)> skip;
  };
  std::vector<Delayed> delayed_;
  int delay_depth_ = 0;
  // DASH_OOC_QUEUE_INLINE: incoming queues of evicted blocks below this stay in memory.
  std::size_t queue_inline_bytes_ = std::size_t(4) << 10;
};

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__MASTER_H_
