// dash::ooc::sweep: one pass of a stencil over the blocks of a matrix
// (dash::bp::of of a dash::Matrix or of a dash::ooc::Matrix), with the halo
// ("ghost") exchange done by a chosen strategy, as Bordawekar & Choudhary
// ("Communication Strategies for Out-of-core Programs", ICS 1995) compare
// them for out-of-core local arrays:
//
//   collective  post_halos first: every slab sends its boundary, read from
//               the file (only the 64 KiB pieces holding the end rows, where
//               the neighbours need no more: no neighbour along another
//               dimension; else the whole slab, only read, not written
//               back); then on every block receive_halos and f (one read
//               and one write per slab). Halos need not be current on entry.
//   producer    on every block: receive_halos if its halos wait in its
//               queues, f, and while the block is in memory it sends its
//               new boundary to its neighbours (send_halos); one exchange.
//               One read and one write per slab; the halos must be current
//               or waiting on entry (post_halos before the first sweep, or a
//               producer sweep before); afterwards they wait in the queues
//               (receive_halos takes them).
//   demand      one iexchange: a block, when it first runs, asks each
//               neighbour for its ghosts; a block answers a request from
//               memory (its boundary before its own update, kept for that)
//               or, not yet updated, from its slab (loaded from its file
//               when evicted: out of core, iexchange runs the blocks with
//               the most bytes waiting first); a block updates (f) once all
//               its ghosts came. Halos need not be current on entry. Reads
//               each slab at least once, more when requests reach evicted
//               slabs; writes each slab once (a call that only answered or
//               asked says block_unchanged()).
//
// In every strategy the halo pieces neighbours fill are spent after f
// (ContainerBlock::spend_halo): an out-of-core slab's halo leaves memory
// with it, and the halos sent to slabs out of memory wait in their queues
// (queues of at least DASH_OOC_QUEUE_INLINE bytes in the spill directory
// when memory is short): no slab's halo is in memory while the slab is not.
//
// Bytes moved per strategy: Master::spill_counters() before and after.
//
// | call  | cost                                                        |
// |-------|-------------------------------------------------------------|
// | sweep | collective over the master's team: one Master::exchange     |
// |       | (collective: plus one read-only pass over the blocks;       |
// |       | demand: one Master::iexchange instead)                      |
#ifndef DASH__OOC__GHOSTS_H_
#define DASH__OOC__GHOSTS_H_

#include <dash/Exception.h>
#include <dash/bp/ContainerBlocks.h>
#include <dash/ooc/Strategy.h>

#include <array>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dash {
namespace ooc {

namespace internal {

// The demand strategy's sweep (see the top of this file).
template <class T, dim_t N, class F>
void demand_sweep(dash::bp::Master<dash::bp::ContainerBlock<T, N>>& master, F& f) {
  using Block = dash::bp::ContainerBlock<T, N>;
  constexpr int K = Block::kDirections;
  constexpr int kRequest = 0, kReply = 1;
  struct State {
    bool asked = false, updated = false;
    int awaited = 0;                       // replies still to come
    std::array<std::vector<T>, K> before;  // the boundary before the update, until asked for
    std::array<bool, K> answered{};        // the neighbour in direction k had its reply
  };
  std::unordered_map<int, State> states;  // filled before the calls: read-only map
  for (std::size_t i = 0; i < master.size(); ++i) states[master.gid(i)];
  master.drop_incoming();  // halos a producer sweep or post_halos left: asked for again
  master.iexchange([&](Block& b, dash::bp::Proxy& p) {
    State& s = states.at(b.gid());
    // Requests carry the asker's direction k to this block; replies carry
    // the direction of the asker's halo piece they fill.
    for (int n : p.incoming_from())
      while (p.incoming(n) > 0) {
        int kind = -1, k = -1;
        p.dequeue(n, kind);
        p.dequeue(n, k);
        if (kind == kRequest) {
          const int toward = K - 1 - k;  // this block's direction to the asker
          p.enqueue(n, kReply);
          p.enqueue(n, k);
          p.enqueue(n, s.updated ? s.before[toward] : b.outgoing_slab(toward));
          s.answered[toward] = true;
          std::vector<T>().swap(s.before[toward]);  // asked once per sweep
        } else {
          std::vector<T> piece;
          p.dequeue(n, piece);
          b.fill_halo(k, piece);
          --s.awaited;
        }
      }
    if (!s.asked) {
      s.asked = true;
      for (int k = 0; k < K; ++k) {
        const int n = b.neighbor(k);
        if (n < 0) continue;
        if (n == b.gid()) {
          b.fill_halo(k, b.outgoing_slab(K - 1 - k));
          continue;
        }
        p.enqueue(n, kRequest);
        p.enqueue(n, k);
        ++s.awaited;
      }
    }
    if (!s.updated && s.awaited == 0) {
      for (int k = 0; k < K; ++k)
        if (b.neighbor(k) >= 0 && b.neighbor(k) != b.gid() && !s.answered[k])
          s.before[k] = b.outgoing_slab(k);
      f(b, p);
      b.spend_halo();
      s.updated = true;
    } else {
      p.block_unchanged();  // answered or asked only: no write-back for this call
    }
    return s.updated;
  });
}

}  // namespace internal

// Makes every block's halo current by `strategy` and calls f(block, proxy)
// on every block (see the top of this file). Failures as in
// Master::foreach and exchange: every unit throws. Collective.
template <class T, dim_t N, class F>
void sweep(dash::bp::Master<dash::bp::ContainerBlock<T, N>>& master, Ghosts strategy, F&& f) {
  using Block = dash::bp::ContainerBlock<T, N>;
  switch (strategy) {
    case Ghosts::collective:
      dash::bp::post_halos(master);
      master.foreach ([&f](Block& b, dash::bp::Proxy& p) {
        dash::bp::receive_halos(b, p);
        f(b, p);
        b.spend_halo();
      });
      return;
    case Ghosts::producer:
      master.foreach ([&f](Block& b, dash::bp::Proxy& p) {
        if (dash::bp::halos_waiting(b, p)) dash::bp::receive_halos(b, p);
        f(b, p);
        b.spend_halo();
        dash::bp::send_halos(b, p);
      });
      master.exchange();
      return;
    case Ghosts::demand:
      internal::demand_sweep(master, f);
      return;
  }
}

}  // namespace ooc
}  // namespace dash

#endif  // DASH__OOC__GHOSTS_H_
