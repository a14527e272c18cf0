// A token relay over dash::bp::Master for the iexchange tests: blocks on a
// ring, every block starts one token (origin, hop) that travels `hops`
// blocks; a block stays busy (its callback returns false) until it has
// received `hops` tokens, which in a clean run is exactly when every token
// has arrived, each once.
#ifndef DASH_TESTS_SUPPORT_RELAY_BLOCKS_H_
#define DASH_TESTS_SUPPORT_RELAY_BLOCKS_H_

#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>

#include <memory>
#include <stdexcept>
#include <utility>

namespace dash_test {

struct Relay {
  int gid = 0;
  int received = 0;
  bool started = false;
};

// A master of nb relay blocks (linked to the next gid on the ring), the
// calling unit's ones added. Local.
inline std::unique_ptr<dash::bp::Master<Relay>> MakeRelay(int me, int units, int nb,
                                                          dash::bp::Assignment a) {
  auto master = std::make_unique<dash::bp::Master<Relay>>(nb, a);
  for (int gid : dash::bp::local_gids(me, nb, units, a)) {
    auto b = std::make_unique<Relay>();
    b->gid = gid;
    master->add(gid, std::move(b), {(gid + 1) % nb});
  }
  return master;
}

// The iexchange callback of the relay; block fail_gid (-1: none) throws
// std::runtime_error(why()) once it has received fail_after tokens.
template <class Why>
auto RelayStep(int nb, int hops, int fail_gid, int fail_after, Why why) {
  return [=](Relay& b, dash::bp::Proxy& p) {
    const int next = (b.gid + 1) % nb;
    const int from = (b.gid + nb - 1) % nb;
    auto maybe_fail = [&] {
      if (b.gid == fail_gid && b.received >= fail_after) throw std::runtime_error(why());
    };
    maybe_fail();
    if (!b.started) {
      b.started = true;
      p.enqueue(next, std::pair<int, int>(b.gid, 1));
    }
    while (p.incoming(from) > 0) {
      std::pair<int, int> token;
      p.dequeue(from, token);
      ++b.received;
      maybe_fail();
      if (token.second < hops) p.enqueue(next, std::pair<int, int>(token.first, token.second + 1));
    }
    return b.received >= hops;
  };
}

}  // namespace dash_test

#endif  // DASH_TESTS_SUPPORT_RELAY_BLOCKS_H_
