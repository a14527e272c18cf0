// dash::bp::Master: the calling unit's blocks of a block decomposition, the
// links between blocks, and per-block message queues, with bulk-synchronous
// exchange.
//
//   dash::bp::Master<MyBlock> master;                       // DASH_TEAM_ALL
//   for (int gid : dash::bp::local_gids(me, nb, units, a))
//     master.add(gid, std::make_unique<MyBlock>(...), links_of(gid));
//   master.foreach([](MyBlock& b, dash::bp::Proxy& p) {
//     for (int n : p.link()) p.enqueue(n, b.halo_for(n));   // any serialisable value
//   });
//   master.exchange();                                      // collective
//   master.foreach([](MyBlock& b, dash::bp::Proxy& p) {
//     for (int n : p.link()) { std::vector<double> h; p.dequeue(n, h); ... }
//   });
//
// A block is identified by its global id (gid); `owner(gid)` says which unit
// holds it (contiguous assignment of `nblocks` blocks unless another rule is
// given). Messages between blocks of the same unit never leave memory; for
// the others exchange() packs all queues bound for one unit into one buffer
// and moves them with one alltoall of sizes and one alltoallv of bytes.
// Queues keep the order of enqueue per (source, target) pair.
//
// | call        | cost                                                    |
// |-------------|---------------------------------------------------------|
// | add         | local                                                   |
// | foreach     | local: f on every block of the calling unit             |
// | exchange    | collective over the team: 2 collectives, bytes moved    |
#ifndef DASH__BLOCKS__MASTER_H_
#define DASH__BLOCKS__MASTER_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/blocks/Decomposer.h>
#include <dash/blocks/Serialization.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

// A block's view of its queues: what it sends to and receives from other
// blocks (by gid), and its links.
class Proxy {
 public:
  Proxy(int gid, const std::vector<int>* link) : gid_(gid), link_(link) {}

  int gid() const { return gid_; }
  // The blocks this block is linked to.
  const std::vector<int>& link() const { return *link_; }
  // Appends value to the queue to block `to`. Local.
  template <class T>
  void enqueue(int to, const T& value) {
    save(outgoing_[to], value);
  }
  // Reads the next value of the queue from block `from`; throws
  // dash::exception::InvalidArgument if the queue has nothing left. Local.
  template <class T>
  void dequeue(int from, T& value) {
    auto it = incoming_.find(from);
    if (it == incoming_.end())
      throw exception::InvalidArgument("dash::bp::Proxy::dequeue: block " + std::to_string(gid_) +
                                       " has no queue from block " + std::to_string(from));
    load(it->second, value);
  }
  // Bytes left in the queue from block `from` (0 if none). Local.
  std::size_t incoming(int from) const {
    auto it = incoming_.find(from);
    return it == incoming_.end() ? 0 : it->second.remaining();
  }
  // The blocks with a non-empty incoming queue, in increasing gid. Local.
  std::vector<int> incoming_from() const {
    std::vector<int> out;
    for (const auto& [from, buf] : incoming_)
      if (buf.remaining() > 0) out.push_back(from);
    return out;
  }
  // Outgoing queues, by target gid (for Master::exchange).
  std::map<int, MemoryBuffer>& outgoing() { return outgoing_; }
  // Incoming queues, by source gid (for Master::exchange).
  std::map<int, MemoryBuffer>& incoming_queues() { return incoming_; }

 private:
  int gid_;
  const std::vector<int>* link_;
  std::map<int, MemoryBuffer> outgoing_;
  std::map<int, MemoryBuffer> incoming_;
};

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
  }

  // A master over `team` for `nblocks` blocks, block gid on unit owner(gid)
  // (a team unit id; the same function on every unit).
  Master(int nblocks, owner_function owner, Team& team = Team::All())
      : team_(&team), nblocks_(nblocks), owner_(std::move(owner)) {
    if (!owner_) throw exception::InvalidArgument("dash::bp::Master: no owner function");
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
    entry->block = std::move(block);
    entry->link = std::move(link);
    entry->proxy = std::make_unique<Proxy>(gid, &entry->link);
    entries_.push_back(std::move(entry));
  }

  int nblocks() const { return nblocks_; }
  std::size_t size() const { return entries_.size(); }
  int gid(std::size_t i) const { return entries_[i]->gid; }
  Block& block(std::size_t i) { return *entries_[i]->block; }
  Proxy& proxy(std::size_t i) { return *entries_[i]->proxy; }
  int owner(int gid) const { return owner_(gid); }
  Team& team() const { return *team_; }

  // Calls f(block, proxy) on every block of the calling unit, in the order
  // they were added. Local.
  template <class F>
  void foreach (F&& f) {
    for (auto& e : entries_) f(*e->block, *e->proxy);
  }

  // Delivers every outgoing queue to its target block's incoming queue (the
  // incoming queues of the previous round are dropped first). Collective
  // over the team.
  void exchange() {
    const std::size_t units = team_->size();
    const int me = int(team_->myid().id);
    // A bad target found here is reported on every unit after the first
    // collective (throwing here alone would leave the others waiting).
    std::string error;
    for (auto& e : entries_)
      for (auto& [to, buf] : e->proxy->outgoing())
        if ((to < 0 || to >= nblocks_) && error.empty())
          error = "block " + std::to_string(e->gid) + " of unit " + std::to_string(me) +
                  " enqueued to gid " + std::to_string(to) + ", outside [0, " +
                  std::to_string(nblocks_) + ")";
    if (units == 1 && !error.empty())
      throw exception::InvalidArgument("dash::bp::Master::exchange: " + error);
    for (auto& e : entries_) e->proxy->incoming_queues().clear();
    // Pack remote queues per destination unit: {from, to, nbytes} + bytes.
    std::vector<MemoryBuffer> packs(units);
    for (auto& e : entries_) {
      if (!error.empty()) break;
      for (auto& [to, buf] : e->proxy->outgoing()) {
        const int dest = owner_(to);
        if (dest == me) {
          deliver(e->gid, to, std::move(buf));
          continue;
        }
        const std::int64_t header[3] = {e->gid, to, std::int64_t(buf.size())};
        packs[std::size_t(dest)].write(header, sizeof(header));
        packs[std::size_t(dest)].write(buf.data(), buf.size());
      }
      e->proxy->outgoing().clear();
    }
    if (units == 1) return;
    std::vector<std::size_t> send_counts(units), send_offsets(units), recv_counts(units),
        recv_offsets(units);
    std::vector<char> send;
    for (std::size_t u = 0; u < units; ++u) {
      send_offsets[u] = send.size();
      send_counts[u] = packs[u].size();
      send.insert(send.end(), packs[u].data(), packs[u].data() + packs[u].size());
    }
    constexpr std::size_t kFailed = ~std::size_t(0);
    if (!error.empty()) std::fill(send_counts.begin(), send_counts.end(), kFailed);
    check(dart_alltoall(send_counts.data(), recv_counts.data(), sizeof(std::size_t), DART_TYPE_BYTE,
                        team_->dart_id()),
          "dart_alltoall");
    if (!error.empty()) throw exception::InvalidArgument("dash::bp::Master::exchange: " + error);
    for (std::size_t u = 0; u < units; ++u)
      if (recv_counts[u] == kFailed)
        throw exception::InvalidArgument("dash::bp::Master::exchange: unit " + std::to_string(u) +
                                         " enqueued to a gid outside [0, " +
                                         std::to_string(nblocks_) + ")");
    std::size_t total = 0;
    for (std::size_t u = 0; u < units; ++u) {
      recv_offsets[u] = total;
      total += recv_counts[u];
    }
    std::vector<char> recv(total + 1);
    send.push_back(0);  // data() valid when nothing is sent
    check(dart_alltoallv(send.data(), send_counts.data(), send_offsets.data(), DART_TYPE_BYTE,
                         recv.data(), recv_counts.data(), recv_offsets.data(), team_->dart_id()),
          "dart_alltoallv");
    // Unpack in unit order: each (source, target) queue comes from one unit.
    std::size_t at = 0;
    while (at < total) {
      std::int64_t header[3];
      std::memcpy(header, recv.data() + at, sizeof(header));
      at += sizeof(header);
      MemoryBuffer buf;
      buf.write(recv.data() + at, std::size_t(header[2]));
      at += std::size_t(header[2]);
      deliver(int(header[0]), int(header[1]), std::move(buf));
    }
  }

 private:
  struct Entry {
    int gid;
    std::unique_ptr<Block> block;
    std::vector<int> link;
    std::unique_ptr<Proxy> proxy;
  };

  void deliver(int from, int to, MemoryBuffer&& buf) {
    auto it = index_.find(to);
    if (it == index_.end())
      throw exception::InvalidArgument("dash::bp::Master::exchange: block " + std::to_string(to) +
                                       " is not on unit " + std::to_string(team_->myid().id));
    MemoryBuffer& in = entries_[it->second]->proxy->incoming_queues()[from];
    if (in.size() == 0) {
      in = std::move(buf);
    } else {
      in.write(buf.data(), buf.size());
    }
  }

  static void check(dart_ret_t ret, const char* what) {
    if (ret != DART_OK)
      throw exception::RuntimeError(std::string("dash::bp::Master::exchange: ") + what + " failed");
  }

  Team* team_;
  int nblocks_;
  owner_function owner_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::map<int, std::size_t> index_;
};

}  // namespace bp
}  // namespace dash

#endif  // DASH__BLOCKS__MASTER_H_
