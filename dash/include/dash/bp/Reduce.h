// dash::bp::reduce: k-ary global reductions over the blocks of a Master, in
// rounds given by a partner structure (ReducePartners.h): merge (all to
// block 0), swap (reduce-scatter), broadcast and all-reduce.
//
//   dash::bp::RegularMergePartners<2> partners(decomposer, 4);
//   dash::bp::reduce(master, partners, [](Image& img, dash::bp::ReduceProxy& rp) {
//     for (int from : rp.in_link()) {               // what they sent last round
//       if (from == rp.gid()) continue;             // our own pixels are in img
//       rp.dequeue_combine(from, img.pixels.data(), img.pixels.size(), std::plus<>());
//     }                                             // (or dequeue_view: read in place)
//     for (int to : rp.out_link())                  // this round's group root
//       if (to != rp.gid()) rp.enqueue(to, img.pixels);  // or enqueue_view: no copy
//   });
//
// The function runs for the blocks active in each call r = 0 .. rounds(),
// in increasing gid; call r sees in_link() (the blocks whose queues of call
// r - 1 it may dequeue) and out_link() (the blocks it may enqueue to; the
// queues move when the call's blocks are done). The last call only
// receives. Links include the block itself where it is a group member (a
// merge root receives from every member, itself included; in a swap every
// member sends one piece to every member, itself included). A block may
// enqueue to itself (the queue never leaves memory, but is serialised like
// any other) or keep its own data and skip itself. Queues a call does not
// read are dropped after it.
//
// Transport, between calls: queues between blocks of the same unit move in
// memory. For other units, all queues for one unit travel in one message of
// records (internal/Wire.h, the format exchange() and iexchange() use; tag
// 30002 on the master's private communicator), and each unit receives
// exactly the messages its blocks' in_links announce (dart_mprobe from each
// source unit, then dart_mrecv): no collective, no alltoall. Every out_link
// queue is sent, even if nothing was enqueued, so what arrives always
// matches what is expected. Big payloads go on their own: an enqueue_view
// array, or a queue without one, of 32 KiB or more is announced in that
// message and follows in pieces of 256 KiB (tag 30000), sent straight from
// the caller's or the queue's memory; the receiver takes them when the block
// reads the queue (internal/DirectArrays.h): into the queue at the sender's
// address residue for dequeue/dequeue_view, piece by piece into a buffer in
// cache for dequeue_combine. Queues
// and messages of 64 KiB and more take their memory from a small
// process-wide stock kept between rounds and reductions and give it back
// when dropped (internal/BufferStock.h): fresh memory of many MiB would
// page-fault on every 4 KiB.
// A unit receives by polling its sources (dart_improbe) while its sends go
// on, so no unit waits for one that waits for it.
//
// Out of core: when a unit's blocks exceed its memory-block limit, each
// outgoing queue of at least DASH_OOC_QUEUE_INLINE bytes (enqueue_view
// arrays are copied in first) to another unit is sent right after its
// block's call, as a message of its own that the receiver takes between its
// own calls (a call first waits until the queues of the calls before it
// were taken but for its own size: about two calls' queues in flight);
// a queue to a block of the same unit goes to the master's store after the
// call. Each such queue so crosses the storage once. A received queue
// of that size for a block not in memory goes to the store until the
// block's call (prefetched with the block). A call's incoming queues are
// freed when it returns. So a round holds the queues of about one block at
// a time, not the round's traffic, so a unit's peak does not grow with its
// block count (figures:
// bench/results/design_measurements.md#out-of-core-reduce-a-round-holds-about-one-blocks-queues).
//
// Failures. An exception from the function (or from a proxy call in it, e.g.
// a dequeue from a block not in in_link), or a failure held by the master
// from foreach, stops the calls on that unit, and the rounds run to their
// end carrying the error, so no unit waits forever and the units that hear
// of it skip their calls too. One all-reduce of an int at the end tells
// every unit whether any unit failed (the only cost on the success path);
// then every unit throws: the failing unit its own exception, the others
// dash::exception::RemoteFailure naming the (lowest) failing unit and its
// message ("block <gid> in round <r>: <what>").
//
// | call                 | cost                                                    |
// |----------------------|---------------------------------------------------------|
// | reduce               | collective over master.team(); per round one message    |
// |                      | to and from each unit holding a partner (+ one per      |
// |                      | enqueue_view array); owner() of every gid at the start; |
// |                      | one all-reduce of an int at the end                     |
// | enqueue / dequeue    | local; the value's bytes copied once                    |
// | enqueue_view         | local; no copy (one if the target is on this unit)      |
// | dequeue_view         | local; no copy (one if misaligned for T)                |
// | in_link / out_link   | local                                                   |
//
// Where the parts live: ReduceProxy.h (a block's view of a call),
// internal/ReduceRun.h (the calls and rounds), internal/ReduceMessages.h (the
// messages between units: packing, sending, receiving, delivering).
#ifndef DASH__BP__REDUCE_H_
#define DASH__BP__REDUCE_H_

#include <dash/bp/Master.h>
#include <dash/bp/ReducePartners.h>
#include <dash/bp/ReduceProxy.h>

namespace dash {
namespace bp {

// Runs a reduction over master's blocks: for calls r = 0 .. partners.rounds()
// it calls f(block, proxy) on the blocks active in call r (in increasing
// gid; under a memory-block limit those in memory first) and then moves the call's queues to the
// next call's blocks (see the top of this file). Partners: a structure of ReducePartners.h, or any
// type with rounds(), nblocks(), active(round, gid), incoming(round, gid, std::vector<int>&) and
// outgoing(round, gid, std::vector<int>&) whose links are in increasing gid and agree (b in a's
// out_link of call r exactly when a is in b's in_link of call r + 1). InvalidArgument if partners
// and master differ in their number of blocks. Collective over master.team(): every unit calls it,
// with the same partners and owners.
template <class Block, class Partners, class F>
void reduce(Master<Block>& master, const Partners& partners, F&& f) {
  master.run_delayed_calls();
  internal::ReduceRun<Block, Partners> run(master, partners);
  auto no_route = [](ReduceProxy&) {};
  auto every_round = [](int) { return true; };
  run.run(f, no_route, every_round);
}

// The same for reductions whose calls in some rounds only pass queues on:
// in call r, when uses_block(r) is false, route(proxy) runs instead of
// f(block, proxy) and the block is not touched (under a memory-block limit
// not loaded, nor written). uses_block must give the same answer on every
// unit. Collective, as above.
template <class Block, class Partners, class F, class Route, class UsesBlock>
void reduce(Master<Block>& master, const Partners& partners, F&& f, Route&& route,
            UsesBlock&& uses_block) {
  master.run_delayed_calls();
  internal::ReduceRun<Block, Partners> run(master, partners);
  run.run(f, route, uses_block);
}

}  // namespace bp
}  // namespace dash

#include <dash/bp/internal/ReduceRun.h>  // the implementation

#endif  // DASH__BP__REDUCE_H_
