// Blocks of a distributed container: dash::bp::of(matrix) gives one block
// per block of the matrix's pattern, held by the unit that owns it, linked
// to the blocks next to it in the pattern's block grid, each with a halo.
//
//   dash::NArray<double, 2> a(dash::SizeSpec<2>(1000, 1000),
//                             dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED));
//   auto master = dash::bp::of(a, {/*width*/ 1, /*corners*/ false, /*periodic*/ {true, false}});
//   dash::bp::exchange_halos(master);                      // collective
//   master.foreach([](dash::bp::ContainerBlock<double, 2>& b, dash::bp::Proxy&) {
//     double laplace = 0;                                  // block-local coordinates;
//     for (long i = 0; i < b.extent(0); ++i)               // -1 and extent(d) are halo
//       for (long j = 0; j < b.extent(1); ++j)
//         laplace += b(i - 1, j) + b(i + 1, j) + b(i, j - 1) + b(i, j + 1) - 4 * b(i, j);
//   });
//
// A block is a rectangle of the pattern's block grid: gid is its row-major
// index over the block coordinates (the last dimension fastest, whatever the
// pattern's MemArrange). Its elements stay in the matrix's local memory:
// data() + sum_d i[d] * strides()[d] (for TilePattern a tile is one
// contiguous run, for BlockPattern a strided rectangle of the local array).
// b(i...) reads and writes block-local coordinates -width <= i[d] <
// extent(d) + width: inside the block the matrix's own element, outside it
// the block's halo buffer.
//
// Halo: the cells within `width` of the block, cut into 3^N - 1 pieces by
// direction (faces, and edges/corners). exchange_halos fills a piece from the
// block next to it in that direction (across the domain's boundary in
// periodic dimensions, the block itself when the block grid has one block
// there). Pieces no block fills keep what they hold: they start as T{} and
// whatever is written into them (e.g. boundary values) stays. That is the
// pieces beyond the boundary of a non-periodic dimension, and edge/corner
// pieces when `corners` is off. Every block the halo reaches must be the
// adjacent one, so of() rejects a width larger than a block's extent along a
// dimension that has neighbours.
//
// | call            | cost                                                    |
// |-----------------|---------------------------------------------------------|
// | of              | local: O(local blocks * 3^N); allocates the halos (of   |
// |                 | out-of-core slabs: at their first use)                  |
// | b(i...)         | local, O(N), no bounds check                            |
// | exchange_halos  | collective over the matrix's team: one Master exchange, |
// |                 | the halo cells moved once, copied into send buffers     |
// |                 | (out-of-core slabs out of memory whose neighbours need  |
// |                 | only their end rows: those rows read from the file, not |
// |                 | the slab)                                               |
// | post_halos      | the same without receive_halos: the halos wait in the   |
// |                 | queues (out of memory with their slabs)                 |
#ifndef DASH__BP__CONTAINER_BLOCKS_H_
#define DASH__BP__CONTAINER_BLOCKS_H_

#include <dash/Exception.h>
#include <dash/Matrix.h>
#include <dash/Types.h>
#include <dash/bp/ContainerBlock.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>

#include <algorithm>
#include <array>
#include <boost/container/flat_set.hpp>
#include <climits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

namespace internal {

// The gid of the block in each direction from block coordinates bc in a
// block grid of `grid` blocks per dimension (-1: none; see
// ContainerBlock::neighbor). Local.
template <class T, dim_t N>
std::array<int, ContainerBlock<T, N>::kDirections> grid_neighbors(const std::array<long, N>& bc,
                                                                  const std::array<long, N>& grid,
                                                                  const HaloSpec<N>& halo) {
  using Block = ContainerBlock<T, N>;
  std::array<int, Block::kDirections> neighbors;
  for (int k = 0; k < Block::kDirections; ++k) {
    const auto s = Block::direction(k);
    int nonzero = 0, n = 0;
    for (dim_t d = 0; d < N; ++d) {
      nonzero += s[d] != 0;
      long c = bc[d] + s[d];
      if (c < 0 || c >= grid[d]) {
        if (!halo.periodic[d]) {
          n = -1;
          break;
        }
        c = (c + grid[d]) % grid[d];
      }
      n = n * int(grid[d]) + int(c);
    }
    neighbors[k] = (nonzero == 0 || (nonzero > 1 && !halo.corners)) ? -1 : n;
  }
  return neighbors;
}

// The distinct neighbours other than the block itself, sorted: its links. Local.
template <class T, dim_t N>
std::vector<int> links_of(int gid,
                          const std::array<int, ContainerBlock<T, N>::kDirections>& neighbors) {
  std::vector<int> link;
  for (int n : neighbors)
    if (n >= 0 && n != gid) link.push_back(n);
  std::sort(link.begin(), link.end());
  link.erase(std::unique(link.begin(), link.end()), link.end());
  return link;
}

// Blocks per dimension of a pattern's block grid. Local.
template <class PatternT>
std::array<long, PatternT::ndim()> block_grid(const PatternT& pattern) {
  const auto grid = pattern.blockspec().extents();
  std::array<long, PatternT::ndim()> g;
  for (dim_t d = 0; d < PatternT::ndim(); ++d) g[d] = long(grid[d]);
  return g;
}

// Where local block lb of a pattern lies: its gid (row-major in the block
// grid), block coordinates, global box, and its elements in the unit's
// local memory, lbegin()[base + sum_d i[d] * strides[d]] (stride 0 along
// extent 1). Throws InvalidArgument if the block is not a strided
// rectangle of the local memory. Local.
template <dim_t N>
struct LocalBlockLayout {
  int gid;
  std::array<long, N> block_coords;
  Box<N> box;
  long base;
  std::array<long, N> strides;
};
template <class PatternT>
LocalBlockLayout<PatternT::ndim()> local_block_layout(const PatternT& pattern, long lb) {
  constexpr dim_t N = PatternT::ndim();
  using IndexType = typename PatternT::index_type;
  using pattern_coords = typename PatternT::coords_type;
  const auto grid = block_grid(pattern);
  const auto full = pattern.block(pattern_coords{}).extents();
  const auto view = pattern.local_block(IndexType(lb));
  LocalBlockLayout<N> l{0, {}, {}, 0, {}};
  for (dim_t d = 0; d < N; ++d) {
    l.block_coords[d] = long(view.offset(d)) / long(full[d]);
    l.gid = l.gid * int(grid[d]) + int(l.block_coords[d]);
    l.box.min[d] = long(view.offset(d));
    l.box.max[d] = l.box.min[d] + long(view.extent(d));
  }
  // The layout inside a block is affine: read the strides off the pattern
  // and check them at every corner of the block.
  l.base = long(pattern.at(view.offsets()));
  for (dim_t d = 0; d < N; ++d) {
    if (view.extent(d) < 2) continue;
    pattern_coords next = view.offsets();
    ++next[d];
    l.strides[d] = long(pattern.at(next)) - l.base;
  }
  for (int corner = 0; corner < (1 << N); ++corner) {
    pattern_coords c = view.offsets();
    long expected = l.base;
    for (dim_t d = 0; d < N; ++d)
      if (corner & (1 << d)) {
        c[d] += IndexType(view.extent(d)) - 1;
        expected += long(view.extent(d) - 1) * l.strides[d];
      }
    if (long(pattern.at(c)) != expected)
      throw exception::InvalidArgument(
          std::string("dash::bp::of: the local layout of ") + PatternT::PatternName +
          " is not a strided rectangle inside block " + std::to_string(l.gid));
  }
  return l;
}

}  // namespace internal

// The calling unit's blocks of `matrix`, one per block of its pattern, in
// increasing gid, each linked to the blocks next to it (faces; edges and
// corners too if halo.corners; wrapped in periodic dimensions; never to
// itself). The blocks point into the matrix's local memory: the matrix must
// outlive them. Throws dash::exception::InvalidArgument (on every unit
// alike) for a negative width, more than INT_MAX blocks, or a width larger
// than the extent of a block along a dimension where it has a neighbour.
// Local: no communication.
template <class T, dim_t N, class IndexType, class PatternT>
Master<ContainerBlock<T, N>> of(Matrix<T, N, IndexType, PatternT>& matrix,
                                const HaloSpec<N>& halo = {}) {
  using Block = ContainerBlock<T, N>;
  using pattern_coords = typename PatternT::coords_type;
  const PatternT& pattern = matrix.pattern();
  const auto grid = pattern.blockspec().extents();
  if (halo.width < 0)
    throw exception::InvalidArgument("dash::bp::of: halo width " + std::to_string(halo.width));
  long nblocks = 1;
  for (dim_t d = 0; d < N; ++d) nblocks *= long(grid[d]);
  if (nblocks > INT_MAX)
    throw exception::InvalidArgument("dash::bp::of: " + std::to_string(nblocks) +
                                     " blocks do not fit an int gid");
  // Only the last block along a dimension can be shorter than the first.
  for (dim_t d = 0; d < N && nblocks > 0; ++d) {
    if (grid[d] < 2 && !halo.periodic[d]) continue;  // no neighbours along d
    pattern_coords last{};
    last[d] = IndexType(grid[d] - 1);
    const long shortest = std::min<long>(long(pattern.block(pattern_coords{}).extent(d)),
                                         long(pattern.block(last).extent(d)));
    if (shortest < halo.width)
      throw exception::InvalidArgument(
          "dash::bp::of: halo width " + std::to_string(halo.width) + " exceeds the extent " +
          std::to_string(shortest) + " of a block along dimension " + std::to_string(d) +
          ", where blocks have neighbours (a halo must come from the adjacent block only)");
  }

  auto grid_coords = [grid](int gid) {
    pattern_coords c;
    for (dim_t d = N - 1; d >= 0; --d) {
      c[d] = IndexType(gid % long(grid[d]));
      gid = int(gid / long(grid[d]));
    }
    return c;
  };
  auto pattern_copy = std::make_shared<const PatternT>(pattern);
  auto owner = [pattern_copy, grid_coords](int gid) {
    return int(pattern_copy->unit_at(pattern_copy->block(grid_coords(gid)).offsets()).id);
  };
  Master<Block> master(int(nblocks), owner, pattern.team());

  std::vector<std::pair<std::unique_ptr<Block>, std::vector<int>>> blocks;  // with links
  for (long lb = 0; lb < long(pattern.local_nblocks()); ++lb) {
    const auto [gid, bc, box, base, strides] = internal::local_block_layout(pattern, lb);
    const auto neighbors = internal::grid_neighbors<T, N>(bc, internal::block_grid(pattern), halo);
    std::vector<int> link = internal::links_of<T, N>(gid, neighbors);
    blocks.emplace_back(
        std::make_unique<Block>(gid, bc, box, matrix.lbegin() + base, strides, halo, neighbors),
        std::move(link));
  }
  std::sort(blocks.begin(), blocks.end(),
            [](const auto& a, const auto& b) { return a.first->gid() < b.first->gid(); });
  for (auto& [block, link] : blocks) {
    const int gid = block->gid();
    master.add(gid, std::move(block), std::move(link));
  }
  return master;
}

// The first half of a halo exchange, for one block: enqueues to each
// neighbour the slab of the block's cells that neighbour reads, tagged with
// the direction; fills pieces whose neighbour is the block itself (periodic
// with one block along a dimension) directly. Reads the block's elements,
// writes only its halo (not its payload, so the block counts as read).
// Local. Call inside a foreach, then Master::exchange.
template <class T, dim_t N>
void send_halos(const ContainerBlock<T, N>& b, Proxy& p) {
  using Block = ContainerBlock<T, N>;
  constexpr int K = Block::kDirections;
  // Direction k of the sender is direction K - 1 - k (the opposite one) of
  // the receiver; negating every component reverses the row-major order, so
  // a receiver walking its directions backwards dequeues each (sender,
  // receiver) queue in the order it was filled.
  for (int k = 0; k < K; ++k) {
    const int n = b.neighbor(k);
    if (n < 0) continue;  // a block its own neighbour (periodic) sends to itself, like any
    p.enqueue(n, int(K - 1 - k));
    p.enqueue(n, b.outgoing_slab(k));
  }
}

namespace internal {

// Whether every neighbour of b reads only rows at the start or the end of
// b along dimension 0 (none lies in a direction along the other
// dimensions only): then its outgoing slabs come from those rows. Local.
template <class T, dim_t N>
bool halos_from_end_rows(const ContainerBlock<T, N>& b) {
  using Block = ContainerBlock<T, N>;
  for (int k = 0; k < Block::kDirections; ++k)
    if (b.neighbor(k) >= 0 && Block::direction(k)[0] == 0) return false;
  return true;
}

}  // namespace internal

// send_halos for a block that owns its elements (an out-of-core slab) whose
// payload is not in memory and whose neighbours read only its end rows
// (internal::halos_from_end_rows): those rows come through read(offset,
// bytes, out) (Master::foreach_shell_parts), at most once per end, instead
// of the whole payload. Local.
template <class T, dim_t N, class Read>
void send_halos_from_rows(const ContainerBlock<T, N>& b, Proxy& p, Read& read) {
  using Block = ContainerBlock<T, N>;
  constexpr int K = Block::kDirections;
  std::vector<T> rows[2];  // the rows the directions up (0) and down (1) along dimension 0 read
  long first[2] = {0, 0};
  bool have[2] = {false, false};
  for (int k = 0; k < K; ++k) {
    const int n = b.neighbor(k);
    if (n < 0) continue;
    const int end = Block::direction(k)[0] > 0;
    if (!have[end]) {
      long last = 0;
      b.outgoing_rows(k, first[end], last);
      rows[end].resize(std::size_t((last - first[end]) * b.row_elements()));
      read(std::uint64_t(first[end] * b.row_elements()) * sizeof(T), rows[end].size() * sizeof(T),
           reinterpret_cast<char*>(rows[end].data()));
      have[end] = true;
    }
    p.enqueue(n, int(K - 1 - k));
    p.enqueue(n, b.outgoing_slab(k, rows[end].data(), first[end]));
  }
}

// The second half: dequeues what the neighbours sent into the halo pieces.
// Touches only the halo, so it runs on blocks whose payload is out of
// memory (Master::foreach_shell). Throws RuntimeError if the queues hold
// something else. Local. Call inside a foreach after Master::exchange.
template <class T, dim_t N>
void receive_halos(ContainerBlock<T, N>& b, Proxy& p) {
  using Block = ContainerBlock<T, N>;
  constexpr int K = Block::kDirections;
  std::vector<T> piece;
  for (int k = K - 1; k >= 0; --k) {
    const int n = b.neighbor(k);
    if (n < 0) continue;
    int tag = -1;
    p.dequeue(n, tag);
    if (tag != k)
      throw exception::RuntimeError("dash::bp::exchange_halos: block " + std::to_string(b.gid()) +
                                    " read direction " + std::to_string(tag) + " from block " +
                                    std::to_string(n) + ", expected " + std::to_string(k) +
                                    " (were other messages queued before the exchange?)");
    p.dequeue(n, piece);
    b.fill_halo(k, piece);
  }
}

// The first half of exchange_halos: each block sends its neighbours their
// slabs (send_halos, in a foreach_read; out-of-core slabs out of memory
// whose neighbours read only their end rows send those rows, read from the
// file) and one Master::exchange moves them. The halos then wait in the
// blocks' incoming queues (in the spill directory for slabs out of memory
// when memory is short) until receive_halos takes them, in any call on the
// block before the next exchange. Reads only the calling unit's local
// memory: complete writes of other units (barrier) first. Outgoing queues
// must be empty on entry; incoming queues of an earlier exchange are
// dropped. Collective over the master's team.
template <class T, dim_t N>
void post_halos(Master<ContainerBlock<T, N>>& master) {
  using Block = ContainerBlock<T, N>;
  if (master.reads_payload_parts()) {
    boost::container::flat_set<int> sent;
    master.foreach_shell_parts([&sent](const Block& b, Proxy& p, auto& read) {
      if (b.payload_resident() || !internal::halos_from_end_rows(b)) return;
      send_halos_from_rows(b, p, read);
      sent.insert(b.gid());
    });
    master.foreach_read([](const Block& b, Proxy& p) { send_halos(b, p); },
                        [&sent](const Proxy& p) { return sent.count(p.gid()) > 0; });
  } else {
    master.foreach_read([](const Block& b, Proxy& p) { send_halos(b, p); });
  }
  master.exchange();
}

// Whether block b's queues hold halo pieces not yet taken (post_halos, or
// a producer sweep, sent them). Local.
template <class T, dim_t N>
bool halos_waiting(const ContainerBlock<T, N>& b, const Proxy& p) {
  for (int k = 0; k < ContainerBlock<T, N>::kDirections; ++k)
    if (b.neighbor(k) >= 0 && p.incoming(b.neighbor(k)) > 0) return true;
  return false;
}

// Fills every block's halo from its neighbours (see the top of this file):
// post_halos, then each block takes them into its halo (receive_halos,
// without loading out-of-core payloads; those slabs' halos are then in
// memory until spent). Collective over the master's team.
template <class T, dim_t N>
void exchange_halos(Master<ContainerBlock<T, N>>& master) {
  using Block = ContainerBlock<T, N>;
  post_halos(master);
  master.foreach_shell([](Block& b, Proxy& p) { receive_halos(b, p); });
}

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__CONTAINER_BLOCKS_H_
