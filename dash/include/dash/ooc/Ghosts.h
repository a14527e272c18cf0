// dash::ooc::sweep: one pass of a stencil over the blocks of a matrix
// (dash::bp::of of a dash::Matrix or of a dash::ooc::Matrix), with the halo
// ("ghost") exchange done by a chosen strategy, as the seed compares them
// for out-of-core local arrays:
//
//   collective  exchange_halos first: every slab is read once to send its
//               boundary (only read: not written back), the halos filled
//               without loading any slab; then f on every block (one read
//               and one write per slab). Halos need not be current on entry.
//   producer    f on every block, and while the block is in memory it sends
//               its new boundary to its neighbours (send_halos); one
//               exchange; the halos filled without loading any slab
//               (receive_halos; queues to evicted slabs of at least
//               DASH_OOC_QUEUE_INLINE bytes wait in the spill directory).
//               One read and one write per slab; the halos must be current
//               on entry (exchange_halos before the first sweep, or a
//               producer sweep before) and are current afterwards.
//
// Bytes moved per strategy: Master::spill_counters() before and after.
//
// | call  | cost                                                        |
// |-------|-------------------------------------------------------------|
// | sweep | collective over the master's team: one Master::exchange     |
// |       | (collective: plus one read-only pass over the blocks)       |
#ifndef DASH__OOC__GHOSTS_H_
#define DASH__OOC__GHOSTS_H_

#include <dash/Exception.h>
#include <dash/blocks/ContainerBlocks.h>

#include <string>
#include <utility>

namespace dash {
namespace ooc {

enum class Ghosts { collective, producer };

// The strategy named `name` ("collective", "producer"); InvalidArgument
// listing the names otherwise. Local.
inline Ghosts ghosts_from_name(const std::string& name) {
  if (name == "collective") return Ghosts::collective;
  if (name == "producer") return Ghosts::producer;
  throw exception::InvalidArgument("dash::ooc: ghost strategy '" + name +
                                   "' (collective or producer)");
}

// Makes every block's halo current by `strategy` and calls f(block, proxy)
// on every block (see the top of this file). Failures as in
// Master::foreach and exchange: every unit throws. Collective.
template <class T, dim_t N, class F>
void sweep(dash::bp::Master<dash::bp::ContainerBlock<T, N>>& master, Ghosts strategy, F&& f) {
  using Block = dash::bp::ContainerBlock<T, N>;
  switch (strategy) {
    case Ghosts::collective:
      dash::bp::exchange_halos(master);
      master.foreach (std::forward<F>(f));
      return;
    case Ghosts::producer:
      master.foreach ([&f](Block& b, dash::bp::Proxy& p) {
        f(b, p);
        dash::bp::send_halos(b, p);
      });
      master.exchange();
      master.foreach_shell([](Block& b, dash::bp::Proxy& p) { dash::bp::receive_halos(b, p); });
      return;
  }
}

}  // namespace ooc
}  // namespace dash

#endif  // DASH__OOC__GHOSTS_H_
