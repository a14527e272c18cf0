// Shared workload (workloads/unionfind/unionfind.h): the kernel of examples/unionfind, also
// measured by bench/blocks/unionfind.cc (with DisjointSets.h and Field.h beside it).
//
// Distributed connected components (union-find) of the cells of a 3-D grid
// whose synthetic field (Field.h) exceeds a threshold, two selected cells
// being connected when they share a face. The grid is cut into blocks
// (dash::bp::RegularDecomposer<3>, dealt contiguously to the units), each
// block linked to the blocks it shares a face with.
//
// Every cell has a global id (row-major over the grid, z fastest). A
// component's final label is the smallest id among its cells; a cell is a
// root when its label is its own id, so #components = #roots.
//
// The algorithm (Components::local_union, then Components::merge):
//
//   per block:   union-find over its selected cells and the faces between
//                them (path compression, union by size); the label of a
//                local component = the smallest id in it
//   repeat:      per block, per linked block n:
//                  send (cell id, label) for every selected cell on the face
//                  towards n whose label dropped since it was last sent to n
//                per received (cell c' of n, label L):
//                  c = my cell across the face from c'; if c is selected:
//                    label(comp(c)) = min(label(comp(c)), L)
//                    if cell L lies in this block: unite comp(c) and comp(L)
//   until no block has anything to send and nothing is in flight
//
// Why it is right: a label is always the id of a cell of the same
// (global) component, so uniting comp(c) with the local component of cell L
// only joins what is connected; it lets a component that leaves a block and
// comes back (a spiral) collapse there instead of being relabelled round by
// round. Labels only decrease, so the loop ends. At the end every pair of
// face-adjacent selected cells in different blocks has equal labels (each
// side processed the other's last label) and a local component has one
// label, so a whole component carries one label: the id of one of its
// cells, no larger than any of them, i.e. the smallest.
//
// Two protocols move the updates:
//   exchange   rounds of foreach(receive; send changes) + Master::exchange(),
//              until an all-reduce says that no block sent anything
//   iexchange  Master::iexchange(receive; send changes; return true): a
//              block sends only when its face labels dropped, and is done
//              until new updates arrive; the master detects termination
//
// | call                      | cost                                         |
// |---------------------------|----------------------------------------------|
// | Components (constructor)  | local: field values of the unit's cells      |
// | local_union               | local, O(cells of the unit)                  |
// | merge                     | collective: rounds x face cells              |
// | count / selected / stats  | collective: one all-reduce                   |
// | digests                   | collective: O(cells of the unit), all-reduce |
#ifndef WORKLOADS__UNIONFIND__UNIONFIND_H_
#define WORKLOADS__UNIONFIND__UNIONFIND_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <dash/bp/Proxy.h>
#include <dash/bp/SaveLoad.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "DisjointSets.h"
#include "Field.h"

namespace unionfind {

using Box = dash::bp::Box<3>;
using Coords = std::array<long, 3>;

enum class Protocol { exchange, iexchange };

inline std::string to_string(Protocol p) {
  return p == Protocol::iexchange ? "iexchange" : "exchange";
}

// A label update between blocks: the sender's face cell `cell` (global id)
// now belongs to a component labelled `label`.
struct Update {
  std::int64_t cell;
  std::int64_t label;
};

// Global cell ids: row-major over the grid, z fastest.
struct GridIds {
  Coords extents;

  std::int64_t id(const Coords& c) const {
    return (std::int64_t(c[0]) * extents[1] + c[1]) * extents[2] + c[2];
  }
  Coords coords(std::int64_t id) const {
    const long z = long(id % extents[2]);
    id /= extents[2];
    return {long(id / extents[1]), long(id % extents[1]), z};
  }
};

// One block of the grid: its cells, their local union-find, the labels of
// its local components and the faces it shares with linked blocks.
class Block {
 public:
  using index_type = DisjointSets::index_type;
  static constexpr std::int64_t kNoLabel = std::numeric_limits<std::int64_t>::max();

  // The cells of `box`, selected where `field` exceeds `threshold`. Local.
  Block(const Box& box, const GridIds& ids, const Field& field, double threshold);
  // An empty block, for loading an evicted one (dash::bp::Serialization). Local.
  Block() = default;

  // Links this block to block `gid`, which lies on side `side` (-1 or +1)
  // of it along dimension `dim`. Local.
  void add_face(int gid, int dim, int side);

  // Forgets all labels and counters; unites face-adjacent selected cells
  // inside the block and labels each local component with its smallest id.
  // Local.
  void local_union();

  // Applies every update waiting in p's incoming queues. Local.
  void receive(dash::bp::Proxy& p);

  // Enqueues, per linked block, the updates of face cells whose label
  // dropped since they were last sent there; returns how many. Local.
  std::size_t send_changes(dash::bp::Proxy& p);

  // Selected cells whose label is their own id (components rooted here).
  // Local.
  long long roots() const;
  long long selected() const { return selected_count_; }

  // The label of the cell with local index i (kNoLabel if not selected).
  // Local.
  std::int64_t label_at(index_type i) const {
    return selected_[std::size_t(i)] ? label_[std::size_t(sets_.root(i))] : kNoLabel;
  }

  // A digest of the (id, label) pairs of the selected cells of `part` (a
  // box inside this block): the sum of a 64-bit hash of each pair, so equal
  // labellings give equal digests whatever the order or decomposition, and
  // any differing label changes it (but for a 2^-64 chance). Local.
  std::uint64_t digest(const Box& part) const;

  const Box& box() const { return box_; }

  // Counters since local_union: calls of send_changes, messages and
  // updates enqueued, unions of local components made by received labels.
  long long calls = 0, messages = 0, updates = 0, unions = 0;

 private:
  // The cells on the face towards a linked block and what was sent there.
  struct Face {
    int gid;
    int dim, side;
    std::vector<index_type> cells;        // local indices of selected face cells
    std::vector<std::int64_t> ids;        // their global ids
    std::vector<std::int64_t> last_sent;  // the label last sent for each
    std::vector<Update> outbox;           // reused message buffer
  };

  index_type local(const Coords& c) const {
    return index_type(((c[0] - box_.min[0]) * box_.extent(1) + (c[1] - box_.min[1])) *
                          box_.extent(2) +
                      (c[2] - box_.min[2]));
  }
  Face& face(int gid);
  void apply(const Face& f, const Update& u);

  Box box_;
  GridIds ids_;
  std::vector<std::uint8_t> selected_;
  long long selected_count_ = 0;
  DisjointSets sets_;
  std::vector<std::int64_t> label_;  // at the roots of sets_: the component's label
  std::vector<Face> faces_;
  std::vector<Update> inbox_;  // reused receive buffer
  bool changed_ = true;        // labels dropped since the last send_changes

  friend struct dash::bp::Serialization<Block>;
};

}  // namespace unionfind

// Blocks can be evicted under a memory-block limit (--mem-blocks, DASH_OOC_MEM_BLOCKS): what a
// block keeps between calls goes out (the reused buffers outbox and inbox_ do not).
template <>
struct dash::bp::Serialization<unionfind::Block> {
  using Block = unionfind::Block;
  static void save(MemoryBuffer& buf, const Block& b) {
    dash::bp::save(buf, std::make_tuple(b.box_, b.ids_, b.selected_, b.selected_count_,
                                        b.sets_.parents(), b.sets_.sizes(), b.label_, b.changed_,
                                        b.calls, b.messages, b.updates, b.unions));
    dash::bp::save(buf, std::uint64_t(b.faces_.size()));
    for (const Block::Face& f : b.faces_)
      dash::bp::save(buf, std::make_tuple(f.gid, f.dim, f.side, f.cells, f.ids, f.last_sent));
  }
  static void load(MemoryBuffer& buf, Block& b) {
    std::vector<unionfind::DisjointSets::index_type> parents, sizes;
    auto members = std::tie(b.box_, b.ids_, b.selected_, b.selected_count_, parents, sizes,
                            b.label_, b.changed_, b.calls, b.messages, b.updates, b.unions);
    dash::bp::load(buf, members);
    b.sets_.assign(std::move(parents), std::move(sizes));
    std::uint64_t faces = 0;
    dash::bp::load(buf, faces);
    b.faces_.resize(std::size_t(faces));
    for (Block::Face& f : b.faces_) {
      auto face = std::tie(f.gid, f.dim, f.side, f.cells, f.ids, f.last_sent);
      dash::bp::load(buf, face);
    }
  }
};

namespace unionfind {

// The configuration of a run: grid, decomposition and field.
struct Config {
  Coords grid{320, 320, 320};
  int blocks_per_unit = 2;
  FieldKind field = FieldKind::waves;
  double threshold = 0.3;
  std::uint64_t seed = 1;
  int threads = 1;     // callbacks of different blocks run on this many threads
  int mem_blocks = 0;  // blocks per unit kept in memory (0: all)
};

// Totals over all units of the counters of a merge.
struct MergeStats {
  long long rounds = 0;  // exchange: rounds of exchange(); iexchange: 0
  long long calls = 0, messages = 0, updates = 0, unions = 0;
};

// The distributed computation: the unit's blocks in a dash::bp::Master.
class Components {
 public:
  // Decomposes config.grid into blocks_per_unit x units blocks and builds
  // this unit's blocks (field values included). Throws
  // dash::exception::InvalidArgument when the grid cannot be cut that way.
  // Local (every unit must build one with the same config).
  // With add_blocks false the master stays empty, for restart().
  explicit Components(const Config& config, dash::Team& team = dash::Team::All(),
                      bool add_blocks = true);

  const Config& config() const { return config_; }
  const Field& field() const { return field_; }
  const dash::bp::RegularDecomposer<3>& decomposer() const { return decomposer_; }
  dash::bp::Master<Block>& master() { return *master_; }

  // Local union-find in every block of this unit. Local.
  void local_union();
  // Merges the components across blocks with `protocol`. With stop_after
  // > 0 (exchange only) it stops after that many exchange rounds (or at the
  // end, if it comes first), saves every block with its queues to
  // save_path (dash::bp::save) and returns true. Collective.
  bool merge(Protocol protocol, int stop_after = 0, const std::string& save_path = "");
  // Loads the blocks a merge saved (instead of local_union), to merge on.
  // Collective.
  void restart(const std::string& path) {
    dash::bp::load(*master_, path);
    rounds_ = 0;
  }
  // Components over the whole grid. Collective.
  long long count();
  // Selected cells over the whole grid. Collective.
  long long selected();
  // The counters of the last merge, summed over all units. Collective.
  MergeStats stats();
  // digest(bounds(gid)) of every block gid, on every unit. Collective.
  std::vector<std::uint64_t> digests();

 private:
  long long sum(long long local);

  Config config_;
  dash::Team* team_;
  Field field_;
  GridIds ids_;
  dash::bp::RegularDecomposer<3> decomposer_;
  std::unique_ptr<dash::bp::Master<Block>> master_;
  long long rounds_ = 0;
};

// A block over the whole grid of `config`, after local_union: the serial
// labelling (label = smallest id of the component; digest(bounds(gid)) to
// compare with Components::digests()) and, as roots(), the serial
// component count. Local.
inline std::unique_ptr<Block> serial_union_find(const Config& config) {
  const Field field(config.field, config.grid, config.seed);
  Box whole;
  whole.max = config.grid;
  auto block = std::make_unique<Block>(whole, GridIds{config.grid}, field, config.threshold);
  block->local_union();
  return block;
}

// ---------------------------------------------------------------------------
// Block

inline Block::Block(const Box& box, const GridIds& ids, const Field& field, double threshold)
    : box_(box), ids_(ids) {
  if (box.size() > std::numeric_limits<index_type>::max())
    throw dash::exception::InvalidArgument("unionfind::Block: " + std::to_string(box.size()) +
                                           " cells in one block (at most 2^31 - 1)");
  field.select(box, threshold, selected_);
  for (std::uint8_t s : selected_) selected_count_ += s;
}

inline void Block::add_face(int gid, int dim, int side) {
  Face f;
  f.gid = gid;
  f.dim = dim;
  f.side = side;
  Box face = box_;
  if (side > 0)
    face.min[std::size_t(dim)] = face.max[std::size_t(dim)] - 1;
  else
    face.max[std::size_t(dim)] = face.min[std::size_t(dim)] + 1;
  Coords c;
  for (c[0] = face.min[0]; c[0] < face.max[0]; ++c[0])
    for (c[1] = face.min[1]; c[1] < face.max[1]; ++c[1])
      for (c[2] = face.min[2]; c[2] < face.max[2]; ++c[2]) {
        const index_type i = local(c);
        if (!selected_[std::size_t(i)]) continue;
        f.cells.push_back(i);
        f.ids.push_back(ids_.id(c));
      }
  f.last_sent.assign(f.cells.size(), kNoLabel);
  faces_.push_back(std::move(f));
}

inline void Block::local_union() {
  const std::size_t n = selected_.size();
  sets_.reset(n);
  label_.assign(n, kNoLabel);
  const index_type step_y = index_type(box_.extent(2));
  const index_type step_x = index_type(box_.extent(1) * box_.extent(2));
  // Unite each selected cell with its selected lower neighbours in z, y, x.
  index_type i = 0;
  for (long x = box_.min[0]; x < box_.max[0]; ++x)
    for (long y = box_.min[1]; y < box_.max[1]; ++y)
      for (long z = box_.min[2]; z < box_.max[2]; ++z, ++i) {
        if (!selected_[std::size_t(i)]) continue;
        if (z > box_.min[2] && selected_[std::size_t(i - 1)]) sets_.unite(i, i - 1);
        if (y > box_.min[1] && selected_[std::size_t(i - step_y)]) sets_.unite(i, i - step_y);
        if (x > box_.min[0] && selected_[std::size_t(i - step_x)]) sets_.unite(i, i - step_x);
      }
  // Local order is global order restricted to the box: the first cell of a
  // component met in local order has its smallest id.
  i = 0;
  for (long x = box_.min[0]; x < box_.max[0]; ++x)
    for (long y = box_.min[1]; y < box_.max[1]; ++y) {
      std::int64_t id = ids_.id({x, y, box_.min[2]});
      for (long z = box_.min[2]; z < box_.max[2]; ++z, ++i, ++id) {
        if (!selected_[std::size_t(i)]) continue;
        std::int64_t& label = label_[std::size_t(sets_.find(i))];
        if (label == kNoLabel) label = id;
      }
    }
  for (Face& f : faces_) std::fill(f.last_sent.begin(), f.last_sent.end(), kNoLabel);
  changed_ = true;
  calls = messages = updates = unions = 0;
}

inline Block::Face& Block::face(int gid) {
  for (Face& f : faces_)
    if (f.gid == gid) return f;
  throw std::logic_error("unionfind::Block: an update from block " + std::to_string(gid) +
                         ", which shares no face with this block");
}

// Lowers the label of the component across the face from u.cell, and unites
// it with the component of cell u.label if that cell lies in this block.
inline void Block::apply(const Face& f, const Update& u) {
  Coords c = ids_.coords(u.cell);
  c[std::size_t(f.dim)] -= f.side;
  if (!box_.contains(c))
    throw std::logic_error("unionfind::Block: an update for cell " + std::to_string(u.cell) +
                           ", which is not next to this block");
  const index_type i = local(c);
  if (!selected_[std::size_t(i)]) return;
  index_type root = sets_.find(i);
  if (u.label < label_[std::size_t(root)]) {
    label_[std::size_t(root)] = u.label;
    changed_ = true;
  }
  const Coords at = ids_.coords(u.label);
  if (!box_.contains(at)) return;
  const index_type other = sets_.find(local(at));
  if (other == root) return;
  const std::int64_t label = std::min(label_[std::size_t(root)], label_[std::size_t(other)]);
  root = sets_.unite(root, other);
  label_[std::size_t(root)] = label;
  changed_ = true;
  ++unions;
}

inline void Block::receive(dash::bp::Proxy& p) {
  for (int from : p.incoming_from()) {
    const Face& f = face(from);
    while (p.incoming(from) > 0) {
      p.dequeue(from, inbox_);
      for (const Update& u : inbox_) apply(f, u);
    }
  }
}

inline std::size_t Block::send_changes(dash::bp::Proxy& p) {
  ++calls;
  if (!changed_) return 0;
  changed_ = false;
  std::size_t sent = 0;
  for (Face& f : faces_) {
    f.outbox.clear();
    for (std::size_t k = 0; k < f.cells.size(); ++k) {
      const std::int64_t label = label_[std::size_t(sets_.find(f.cells[k]))];
      if (label >= f.last_sent[k]) continue;
      f.outbox.push_back(Update{f.ids[k], label});
      f.last_sent[k] = label;
    }
    if (f.outbox.empty()) continue;
    p.enqueue(f.gid, f.outbox);
    sent += f.outbox.size();
    ++messages;
  }
  updates += (long long)sent;
  return sent;
}

inline long long Block::roots() const {
  long long n = 0;
  index_type i = 0;
  for (long x = box_.min[0]; x < box_.max[0]; ++x)
    for (long y = box_.min[1]; y < box_.max[1]; ++y) {
      std::int64_t id = ids_.id({x, y, box_.min[2]});
      for (long z = box_.min[2]; z < box_.max[2]; ++z, ++i, ++id)
        if (selected_[std::size_t(i)] && label_[std::size_t(sets_.root(i))] == id) ++n;
    }
  return n;
}

inline std::uint64_t Block::digest(const Box& part) const {
  std::uint64_t sum = 0;
  Coords c;
  for (c[0] = part.min[0]; c[0] < part.max[0]; ++c[0])
    for (c[1] = part.min[1]; c[1] < part.max[1]; ++c[1]) {
      c[2] = part.min[2];
      index_type i = local(c);
      std::int64_t id = ids_.id(c);
      for (; c[2] < part.max[2]; ++c[2], ++i, ++id)
        if (selected_[std::size_t(i)])
          sum +=
              mix64(std::uint64_t(id) ^ mix64(std::uint64_t(label_[std::size_t(sets_.root(i))])));
    }
  return sum;
}

// ---------------------------------------------------------------------------
// Components

inline Components::Components(const Config& config, dash::Team& team, bool add_blocks)
    : config_(config),
      team_(&team),
      field_(config.field, config.grid, config.seed),
      ids_{config.grid},
      decomposer_(Box{{0, 0, 0}, config.grid}, config.blocks_per_unit * int(team.size())) {
  const int units = int(team.size());
  const int nblocks = decomposer_.nblocks();
  master_ =
      std::make_unique<dash::bp::Master<Block>>(nblocks, dash::bp::Assignment::contiguous, team);
  master_->threads(config.threads);
  if (config.mem_blocks > 0) master_->limit(std::size_t(config.mem_blocks));
  if (!add_blocks) return;
  for (int gid : dash::bp::local_gids(int(team.myid().id), nblocks, units,
                                      dash::bp::Assignment::contiguous)) {
    auto block = std::make_unique<Block>(decomposer_.bounds(gid), ids_, field_, config.threshold);
    const auto here = decomposer_.coords(gid);
    std::vector<int> link = decomposer_.neighbors(gid);
    for (int n : link) {
      const auto there = decomposer_.coords(n);
      for (int d = 0; d < 3; ++d)
        if (there[std::size_t(d)] != here[std::size_t(d)])
          block->add_face(n, d, there[std::size_t(d)] > here[std::size_t(d)] ? 1 : -1);
    }
    master_->add(gid, std::move(block), std::move(link));
  }
}

inline void Components::local_union() {
  master_->foreach ([](Block& b, dash::bp::Proxy&) { b.local_union(); });
  rounds_ = 0;
}

inline bool Components::merge(Protocol protocol, int stop_after, const std::string& save_path) {
  if (protocol == Protocol::iexchange) {
    // Everything a call changed has been enqueued when it returns: the block
    // is done until more updates arrive.
    master_->iexchange([](Block& b, dash::bp::Proxy& p) {
      b.receive(p);
      b.send_changes(p);
      return true;
    });
    return false;
  }
  // After the first round a block with nothing incoming has nothing to do
  // (its labels drop only by what it receives): it is skipped, and out of
  // core not even loaded.
  auto nothing_incoming = [](const dash::bp::Proxy& p) { return p.incoming_from().empty(); };
  for (bool first = true;; first = false) {
    std::atomic<long long> sent{0};
    auto step = [&sent](Block& b, dash::bp::Proxy& p) {
      b.receive(p);
      sent += (long long)b.send_changes(p);
    };
    if (first)
      master_->foreach (step);
    else
      master_->foreach (step, nothing_incoming);
    master_->report_failures();
    // Nothing enqueued anywhere: every update sent has been applied and
    // changed nothing that is still unsent, so no label can drop any more.
    if (sum(sent.load()) == 0) break;
    master_->exchange();
    ++rounds_;
    if (stop_after > 0 && rounds_ == stop_after) break;
  }
  if (stop_after == 0) return false;
  dash::bp::save(*master_, save_path);
  return true;
}

// The blocks are only read from here on (foreach_read): out of core they
// are loaded, and dropped again without being written.

inline long long Components::count() {
  std::atomic<long long> n{0};
  master_->foreach_read([&n](const Block& b, dash::bp::Proxy&) { n += b.roots(); });
  master_->report_failures();
  return sum(n.load());
}

inline long long Components::selected() {
  std::atomic<long long> n{0};
  master_->foreach_read([&n](const Block& b, dash::bp::Proxy&) { n += b.selected(); });
  master_->report_failures();
  return sum(n.load());
}

inline MergeStats Components::stats() {
  std::atomic<long long> counters[4] = {{0}, {0}, {0}, {0}};
  master_->foreach_read([&counters](const Block& b, dash::bp::Proxy&) {
    counters[0] += b.calls;
    counters[1] += b.messages;
    counters[2] += b.updates;
    counters[3] += b.unions;
  });
  master_->report_failures();
  std::vector<long long> local(4);
  for (int k = 0; k < 4; ++k) local[std::size_t(k)] = counters[k].load();
  const std::vector<long long> total = team_->allreduce(local, dash::plus<long long>());
  MergeStats s;
  s.rounds = rounds_;
  s.calls = total[0];
  s.messages = total[1];
  s.updates = total[2];
  s.unions = total[3];
  return s;
}

inline std::vector<std::uint64_t> Components::digests() {
  std::vector<std::uint64_t> mine(std::size_t(decomposer_.nblocks()), 0);
  master_->foreach_read([&mine](const Block& b, dash::bp::Proxy& p) {
    mine[std::size_t(p.gid())] = b.digest(b.box());  // one element per block: no race
  });
  master_->report_failures();
  // Every block has one owner: the sum puts each digest in its place.
  return team_->allreduce(mine, dash::plus<std::uint64_t>());
}

// The sum of `local` over the team. Collective.
inline long long Components::sum(long long local) {
  return team_->allreduce(local, dash::plus<long long>());
}

}  // namespace unionfind

#endif  // WORKLOADS__UNIONFIND__UNIONFIND_H_
