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
// given). Messages between blocks of the same unit never leave memory; queues
// keep the order of enqueue per (source, target) pair.
//
// Where the parts live (bp/internal/):
//   BlockQueues.h   the registry (gid, links, proxy per block) and the
//                   queues, with their way to storage under a memory limit
//   Exchange.h      exchange(): packed per destination unit, large queues on
//                   their own, dense collectives on few units, NBX on many
//   IExchange.h     iexchange(): messages after each block call, and the
//                   termination machine (Termination.h)
//   Wire.h          the records every message is made of (exchange,
//                   iexchange, reduce, all_to_all): one packer, one reader
//   QueueFront.h    enqueue/dequeue and views, shared by the three proxies
//   StoredSends.h   stored queues sent to other units, two at a time
//   ../Residency.h  which blocks are in memory under a memory-block limit
//   ../Reduce.h, ../AllToAll.h   collectives over blocks
// This file runs the blocks: foreach (on a thread pool with threads(t)),
// delayed calls, the block loop of iexchange, limits and flags.
//
// Every message and collective of a master travels on a duplicate of its
// team's communicator (internal/MessageTeam.h, made once per team), so its
// tags cannot meet the program's own messages.
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
#include <dash/bp/Proxy.h>
#include <dash/bp/Residency.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/ThreadPool.h>
#include <dash/bp/internal/BlockQueues.h>
#include <dash/bp/internal/Exchange.h>
#include <dash/bp/internal/IExchange.h>
#include <dash/bp/internal/MessageTeam.h>
#include <dash/internal/Failure.h>
#include <dash/internal/Flags.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

namespace internal {
template <class Block, class Partners>
class ReduceRun;
// The skip of foreach(f) and foreach_read(f): no block is skipped, so the
// queues that went to storage need not come back before the calls.
struct SkipNone {
  bool operator()(const Proxy&) const { return false; }
};
}  // namespace internal

template <class Block>
class Master {
 public:
  using owner_function = std::function<int(int gid)>;

  // A master over `team` for `nblocks` blocks dealt by `assignment`.
  explicit Master(int nblocks, Assignment assignment = Assignment::contiguous,
                  Team& team = Team::All())
      : team_(&team),
        residency_(std::make_unique<internal::Residency<Block>>()),
        queues_(
            team, nblocks,
            [nblocks, units = int(team.size()), assignment](int gid) {
              return bp::owner(gid, nblocks, units, assignment);
            },
            *residency_) {
    limit_from_environment();
  }

  // A master over `team` for `nblocks` blocks, block gid on unit owner(gid)
  // (a team unit id; the same function on every unit).
  Master(int nblocks, owner_function owner, Team& team = Team::All())
      : team_(&team),
        residency_(std::make_unique<internal::Residency<Block>>()),
        queues_(team, nblocks, checked(std::move(owner)), *residency_) {
    limit_from_environment();
  }

  Master(Master&&) = default;
  Master& operator=(Master&&) = default;

  // A failure of foreach that no collective call reported is printed here
  // (stderr), not lost. Local.
  ~Master();

  // Adds block gid (owned by the calling unit) with its links. Local.
  void add(int gid, std::unique_ptr<Block> block, std::vector<int> link) {
    Proxy& queues = queues_.add(gid, std::move(link));
    residency_->add(gid, std::move(block), &queues);
    if (residency_->limited()) residency_->limit(residency_->limit(), "dash::bp::Master::add");
  }

  // Replaces the links of block i (e.g. once a decomposition moved the
  // blocks' bounds: dash::bp::kdtree). InvalidArgument for a gid outside
  // [0, nblocks). Local.
  void set_link(std::size_t i, std::vector<int> link) { queues_.set_link(i, std::move(link)); }

  int nblocks() const { return queues_.nblocks(); }
  std::size_t size() const { return queues_.size(); }
  int gid(std::size_t i) const { return queues_.entry(i).gid; }
  // Block i (loaded if it was evicted; under a memory-block limit the
  // reference is valid until the next call that runs blocks: foreach,
  // iexchange, reduce, block). Local.
  Block& block(std::size_t i) {
    run_delayed();
    return residency_->use(i);
  }
  // Block i's proxy (its queues brought back from storage if they went
  // there with the evicted block). Local.
  Proxy& proxy(std::size_t i) {
    run_delayed();
    queues_.restore_queues(i);
    return *queues_.entry(i).proxy;
  }
  int owner(int gid) const { return queues_.owner(gid); }
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
    residency_->limit(m, "dash::bp::Master::limit");
  }
  std::size_t limit() const { return residency_->limit(); }
  // The bytes of the largest block of the calling unit evicted so far (0: none yet), a size
  // hint for algorithms out of core. Local.
  std::size_t largest_stored_block() const { return residency_->largest_stored(); }
  // Evicted blocks go to `store` (e.g. the local array file of an
  // out-of-core container) instead of a store of their own; queues that go
  // with them still go to the unit's spill directory. Call before any block
  // is evicted. Local.
  void spill_store(std::shared_ptr<SpillStore> store) { residency_->set_store(std::move(store)); }
  // Runs delayed foreach calls, writes the changed blocks in memory back to
  // the spill store (they leave memory) and waits until they are stored, so
  // the container's own calls see them; a failure (held from foreach, or
  // of the store) is thrown on every unit (one int allreduce). The master's
  // destructor does the same but can only print a failure. Collective.
  void write_back();
  // Blocks of the calling unit in memory now. Local.
  std::size_t resident_blocks() const { return residency_->resident_count(); }
  // Whether block i of the calling unit is in memory. Local.
  bool resident(std::size_t i) const { return residency_->resident(i); }
  // Bytes written to and read from storage for this master's blocks. Local.
  SpillCounters spill_counters() const { return residency_->counters(); }
  // The most bytes the calling unit held at once in messages being sent
  // during the last iexchange (under a memory-block limit short of memory,
  // at most about twice the largest block stored, at least 4 MiB, plus
  // what one call sends). Local.
  std::size_t peak_sending_bytes() const { return iexchange_.peak_sending_bytes(); }
  // What the last iexchange() of this unit did: block calls, messages sent to
  // other units and their bytes, and the per-unit buffers it looked at to
  // send them (its routing work). Local.
  using IExchangeStats = internal::IExchange::Stats;
  IExchangeStats last_iexchange() const { return iexchange_.last(); }

  // Calls f(block, proxy) on every block of the calling unit (in the order
  // they were added when single-threaded; concurrently on the pool with
  // threads > 1). Local.
  template <class F>
  void foreach (F&& f) {
    foreach (std::forward<F>(f), internal::SkipNone{})
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
  void foreach (F&& f, Skip && skip);

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
    foreach_read(std::forward<F>(f), internal::SkipNone{});
  }
  // The same, skipping the blocks for which skip(proxy) is true (as
  // foreach(f, skip)). Local.
  template <class F, class Skip>
  void foreach_read(F&& f, Skip&& skip);

  // Whether foreach_shell_parts can read parts of payloads that are not in
  // memory: blocks with a payload under a memory-block limit whose store
  // reads parts (SpillStore::reads_parts: an out-of-core matrix's file).
  // Local.
  bool reads_payload_parts() const { return residency_->limited() && residency_->reads_parts(); }
  // Calls f(const Block& shell, Proxy&, read) on every block of the calling
  // unit without loading payloads (as foreach_shell), where
  // read(offset, n, out) copies bytes [offset, offset + n) of the block's
  // payload into out: only those bytes come from the store, e.g. a slab's
  // boundary rows from its file. read() needs reads_payload_parts() and a
  // payload out of memory; f reads a payload in memory
  // (shell.payload_resident()) itself. Local; failures as in foreach.
  template <class F>
  void foreach_shell_parts(F&& f);

  // Calls f(block, proxy) on every block of the calling unit without
  // loading the payload of blocks that have one (has_payload_v: e.g. the
  // slabs of an out-of-core matrix keep links, and halos not spent, in
  // memory, their elements in a file); f must not touch the payload then.
  // Other blocks run as in foreach. Failures as in foreach. Local.
  template <class F>
  void foreach_shell(F&& f) {
    each_shell([&f, this](std::size_t i) { f(residency_->shell(i), *queues_.entry(i).proxy); });
  }

  // Empties every incoming queue of the calling unit's blocks, those in
  // storage too: what an earlier exchange delivered and no call took (e.g.
  // halos waiting for a sweep, before a strategy that does not take them).
  // Local.
  void drop_incoming() {
    run_delayed();
    queues_.clear_incoming();
  }

  // Throws, on every unit, a failure held on any unit (from foreach, or one
  // after an exchange's last collective: its own exception where it
  // happened, dash::exception::RemoteFailure on the others); returns if
  // there is none. For programs that follow foreach
  // calls with collectives of their own (exchange, iexchange and reduce do
  // it already). Collective over the team: one int allreduce.
  void report_failures();

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
    exchange_.run(queues_, held_);
  }

  // What the last exchange() of this unit sent to other units: messages (one
  // packed message per destination unit, plus each queue sent on its own)
  // and their bytes (headers included). Local.
  using ExchangeStats = internal::Exchange::Stats;
  ExchangeStats last_exchange() const { return exchange_.last(); }

  // The communicator of every message and collective of exchange, iexchange
  // and reduce: the duplicate of the team's communicator
  // (internal::message_team), apart from the program's own messages on the
  // team. Made by the first call that needs it (those calls are
  // collective). Local afterwards.
  dart_team_t message_team() { return internal::message_team(*team_); }

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
  void iexchange(F&& f);

 private:
  using Entry = internal::BlockQueues::Entry;

  // iexchange's call of f on block i (acquired for reading): the block counts
  // as changed unless the call said block_unchanged() (and if it threw).
  template <class F>
  bool call_block(F& f, std::size_t i, Block& b, Proxy& p);

  // The owner function, InvalidArgument if it is empty.
  static owner_function checked(owner_function owner) {
    if (!owner) throw exception::InvalidArgument("dash::bp::Master: no owner function");
    return owner;
  }

  // The failure foreach holds (null if none), handed over to a collective
  // operation that reports it. Local.
  std::exception_ptr take_held() { return std::exchange(held_, nullptr); }

  template <class B, class P>
  friend class internal::ReduceRun;

  // Runs the delayed foreach calls (delay()) in one pass: each block that
  // some call does not skip is loaded once and runs them in order. Local;
  // failures as in foreach.
  void run_delayed();

  // Copies every enqueue_view array into its queue. Local.
  void materialize_views() { queues_.materialize_views(); }
  // body(i) for every block index, its whole incoming queues restored first,
  // after the delayed calls; an exception is held (see foreach).
  template <class Body>
  void each_shell(Body&& body);

  // Under a memory-block limit: calls body(i, block) for the entries in
  // `indices` (reordered: those in memory first), loading each (prefetching
  // the next one, or the next batch) and evicting least recently used ones.
  // Single-threaded one block at a time; with threads, batches of up to
  // limit() blocks on the pool (each thread holds its share of the limit).
  // after(i) runs on the calling thread once block i's body returned.
  template <class Body, class After = void (*)(std::size_t)>
  void run_resident(
      std::vector<std::size_t>& indices, Body&& body, bool writes = true,
      After&& after = [](std::size_t) {});

  // DASH_OOC_MEM_BLOCKS=<m>: the memory-block limit of every master whose
  // blocks can be evicted (is_spillable_v); masters of other block types
  // say once on stderr that they keep their blocks in memory.
  void limit_from_environment();

  // Calls body(i) for i in [0, n): in order, or on the pool.
  template <class Body>
  void run_blocks(std::size_t n, Body&& body);

  Team* team_;
  // Blocks, by entry index; which are in memory. Behind a pointer: queues_
  // refers to it, and the master moves.
  std::unique_ptr<internal::Residency<Block>> residency_;
  internal::BlockQueues queues_;   // registry and queues
  internal::Exchange exchange_;    // exchange()'s transport
  internal::IExchange iexchange_;  // iexchange()'s transport and termination
  int threads_ = 1;
  std::unique_ptr<ThreadPool> pool_;
  std::exception_ptr held_;           // a failure of foreach, until a collective reports it
  std::vector<std::size_t> order_;    // foreach under a limit, iexchange: the entries to run
  std::vector<Block*> batch_blocks_;  // run_resident with threads: a batch's blocks
  bool writes_ = true;                // false inside foreach_read
  // delay(): the foreach calls waiting to run, and how many Delay objects live.
  struct Delayed {
    std::function<void(Block&, Proxy&)> f;
    std::function<bool(const Proxy&)> skip;
  };
  std::vector<Delayed> delayed_;
  int delay_depth_ = 0;
};

}  // namespace bp
}  // namespace dash

#include <dash/bp/internal/MasterRun.h>  // the longer members' definitions

#endif  // DASH__BP__MASTER_H_
