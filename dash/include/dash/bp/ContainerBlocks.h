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

// The halo of every block: `width` cells on each side; with `corners` also
// the edge and corner pieces (and links to the blocks across edges and
// corners); wrap-around in the dimensions marked periodic.
template <dim_t N>
struct HaloSpec {
  int width = 1;
  bool corners = false;
  std::array<bool, N> periodic{};
};

namespace detail {

constexpr int pow3(dim_t n) { return n == 0 ? 1 : 3 * pow3(n - 1); }

// Calls f(c) for every c in [lo, hi), row-major. Local.
template <dim_t N, class F>
void for_each_cell(const std::array<long, N>& lo, const std::array<long, N>& hi, F&& f) {
  for (dim_t d = 0; d < N; ++d)
    if (lo[d] >= hi[d]) return;
  std::array<long, N> c = lo;
  for (;;) {
    f(c);
    dim_t d = N - 1;
    while (d >= 0 && ++c[d] == hi[d]) c[d] = lo[d], --d;
    if (d < 0) return;
  }
}

}  // namespace detail

// One block of a container's pattern, seen by the unit that owns it.
template <class T, dim_t N>
class ContainerBlock {
 public:
  using value_type = T;
  using coords_type = std::array<long, N>;
  // A direction to a neighbour: -1, 0 or +1 per dimension.
  using direction_type = std::array<int, N>;
  // Directions are numbered row-major over {-1, 0, 1}^N; the middle one is
  // the block itself.
  static constexpr int kDirections = detail::pow3(N);
  static constexpr int kSelf = (kDirections - 1) / 2;

  // A block over native elements data + sum i[d] * strides[d]; neighbors[k]
  // is the gid of the block in direction k, -1 if none. Built by of().
  ContainerBlock(int gid, const coords_type& block_coords, const Box<N>& box, T* data,
                 const coords_type& strides, const HaloSpec<N>& halo,
                 const std::array<int, kDirections>& neighbors)
      : gid_(gid),
        block_coords_(block_coords),
        box_(box),
        data_(data),
        strides_(strides),
        halo_spec_(halo),
        neighbors_(neighbors) {
    allocate_halo();
  }
  // A block that owns its elements (row-major, contiguous) as a payload
  // that starts out of memory: the slabs of an out-of-core matrix (built by
  // of(dash::ooc::Matrix&)). The payload comes and goes through
  // adopt_payload / release_payload (a Master under a memory-block limit
  // does that). Its halo has memory while the payload is in memory or once
  // filled (fill_halo, halo_piece), and keeps filled values while the
  // payload is out of memory, unless spend_halo() said they are no longer
  // needed: then the pieces neighbours fill leave memory with the payload
  // (0 until filled again; the other pieces keep their values). While the
  // halo has no memory, b(i...) reads 0 from its cells and writes to them
  // reach no halo; halo_piece() gives the memory and the kept pieces.
  ContainerBlock(int gid, const coords_type& block_coords, const Box<N>& box,
                 const HaloSpec<N>& halo, const std::array<int, kDirections>& neighbors)
      : gid_(gid),
        block_coords_(block_coords),
        box_(box),
        data_(nullptr),
        strides_(row_major_strides(box)),
        halo_spec_(halo),
        neighbors_(neighbors),
        owned_(true),
        halo_state_(HaloState::absent) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "dash::bp::ContainerBlock: an out-of-core block's elements move as bytes");
  }
  ContainerBlock(const ContainerBlock& o) { *this = o; }
  ContainerBlock& operator=(const ContainerBlock& o) {
    gid_ = o.gid_, block_coords_ = o.block_coords_, box_ = o.box_, strides_ = o.strides_;
    halo_spec_ = o.halo_spec_, neighbors_ = o.neighbors_, halo_ = o.halo_;
    halo_state_ = o.halo_state_;
    owned_ = o.owned_, payload_ = o.payload_;
    data_ = owned_ ? (o.data_ ? reinterpret_cast<T*>(payload_.data()) : nullptr) : o.data_;
    return *this;
  }
  ContainerBlock(ContainerBlock&&) noexcept = default;
  ContainerBlock& operator=(ContainerBlock&&) noexcept = default;

  // The payload protocol (dash::bp::has_payload_v): whether the block owns
  // its elements (an out-of-core slab) and can hand them over; whether they
  // are in memory; hand them over (data() is null until adopt_payload);
  // take them back (exactly size() elements' bytes, else InvalidArgument).
  // Local.
  bool can_release_payload() const { return owned_; }
  bool payload_resident() const { return !owned_ || data_ != nullptr; }
  std::size_t payload_bytes() const { return owned_ ? std::size_t(size()) * sizeof(T) : 0; }
  Bytes release_payload() {
    if (!owned_) return Bytes();
    data_ = nullptr;
    if (halo_state_ != HaloState::filled) {  // the neighbours' pieces hold nothing to keep
      for (int k = 0; k < kDirections; ++k)
        if (neighbors_[k] >= 0) std::vector<T>().swap(halo_[k]);
      halo_state_ = HaloState::absent;
    }
    return std::move(payload_);
  }
  void adopt_payload(Bytes bytes) {
    if (!owned_ || bytes.size() != payload_bytes())
      throw exception::InvalidArgument("dash::bp::ContainerBlock::adopt_payload: block " +
                                       std::to_string(gid_) + ": " + std::to_string(bytes.size()) +
                                       " bytes for " + std::to_string(payload_bytes()) +
                                       (owned_ ? "" : " (the block does not own its elements)"));
    payload_ = std::move(bytes);
    data_ = reinterpret_cast<T*>(payload_.data());
    if (halo_state_ == HaloState::absent) {  // in memory, the halo has its memory
      allocate_halo();
      halo_state_ = HaloState::unneeded;
    }
  }

  // Row-major index in the pattern's block grid.
  int gid() const { return gid_; }
  // Coordinates in the pattern's block grid.
  const coords_type& block_coords() const { return block_coords_; }
  // The global cells of the block, [min, max).
  const Box<N>& box() const { return box_; }
  long extent(dim_t d) const { return box_.extent(d); }
  long size() const { return box_.size(); }
  const HaloSpec<N>& halo_spec() const { return halo_spec_; }
  int halo_width() const { return halo_spec_.width; }

  // Native access: element i (block-local) is data()[sum_d i[d] * strides()[d]]
  // in the matrix's local memory. The stride of a dimension of extent 1 is 0.
  T* data() const { return data_; }
  const coords_type& strides() const { return strides_; }
  // True if the elements are one run in row-major order (TilePattern tiles).
  bool contiguous() const {
    long expected = 1;
    for (dim_t d = N - 1; d >= 0; --d) {
      if (extent(d) > 1 && strides_[d] != expected) return false;
      expected *= extent(d);
    }
    return true;
  }

  // Element at block-local coordinates, -width <= i[d] < extent(d) + width:
  // the matrix's element inside the block, the halo cell outside. Local,
  // O(N), no bounds check.
  template <class... I,
            class = std::enable_if_t<sizeof...(I) == N && (std::is_integral_v<I> && ...)>>
  T& operator()(I... i) {
    return cell(coords_type{static_cast<long>(i)...});
  }
  template <class... I,
            class = std::enable_if_t<sizeof...(I) == N && (std::is_integral_v<I> && ...)>>
  const T& operator()(I... i) const {
    return const_cast<ContainerBlock*>(this)->cell(coords_type{static_cast<long>(i)...});
  }
  T& operator()(const coords_type& i) { return cell(i); }
  const T& operator()(const coords_type& i) const {
    return const_cast<ContainerBlock*>(this)->cell(i);
  }

  // Index of direction s and back. Local.
  static int direction_index(const direction_type& s) {
    int k = 0;
    for (dim_t d = 0; d < N; ++d) k = 3 * k + (s[d] + 1);
    return k;
  }
  static direction_type direction(int k) {
    direction_type s;
    for (dim_t d = N - 1; d >= 0; --d) s[d] = k % 3 - 1, k /= 3;
    return s;
  }
  // The block next to this one in direction s (wrapped in periodic
  // dimensions; this block's own gid if the wrap comes back to it), -1 if
  // none or if s is an edge/corner direction and corners are off. Local.
  int neighbor(const direction_type& s) const { return neighbors_[direction_index(s)]; }
  int neighbor(int k) const { return neighbors_[k]; }

  // The block's own cells the neighbour in direction k reads into its halo,
  // row-major: the last `width` cells along dimensions where k points up,
  // the first `width` where it points down. Local; allocates.
  std::vector<T> outgoing_slab(int k) const {
    coords_type lo, hi;
    outgoing_box(k, lo, hi);
    std::vector<T> out;
    out.reserve(std::size_t(piece_size(k)));
    detail::for_each_cell<N>(lo, hi, [&](const coords_type& c) { out.push_back(native(c)); });
    return out;
  }
  // Rows [first, last) along dimension 0 that outgoing_slab(k) reads from.
  // Local.
  void outgoing_rows(int k, long& first, long& last) const {
    coords_type lo, hi;
    outgoing_box(k, lo, hi);
    first = lo[0], last = hi[0];
  }
  // Elements of one row along dimension 0 (the product of the other
  // extents): for a block that owns its elements (an out-of-core slab),
  // row r is elements [r * row_elements(), (r + 1) * row_elements()) of
  // its payload. Local.
  long row_elements() const {
    long n = 1;
    for (dim_t d = 1; d < N; ++d) n *= extent(d);
    return n;
  }
  // outgoing_slab(k) of a block that owns its elements, taken from `rows`:
  // its payload's rows from `first` on (covering outgoing_rows(k)), e.g.
  // read from its file while the payload is not in memory. Local; allocates.
  std::vector<T> outgoing_slab(int k, const T* rows, long first) const {
    coords_type lo, hi;
    outgoing_box(k, lo, hi);
    const long skip = first * row_elements();
    std::vector<T> out;
    out.reserve(std::size_t(piece_size(k)));
    detail::for_each_cell<N>(lo, hi, [&](const coords_type& c) {
      long at = 0;
      for (dim_t d = 0; d < N; ++d) at += c[d] * strides_[d];
      out.push_back(rows[at - skip]);
    });
    return out;
  }
  // Overwrites the halo piece in direction k with `values` (row-major, as
  // outgoing_slab gives them). Throws InvalidArgument on a size mismatch.
  // Local.
  void fill_halo(int k, const std::vector<T>& values) {
    const bool bad = k == kSelf || k < 0 || k >= kDirections;
    if (bad || values.size() != std::size_t(piece_size(k)))
      throw exception::InvalidArgument(
          "dash::bp::ContainerBlock::fill_halo: block " + std::to_string(gid_) + ", direction " +
          std::to_string(k) + ": " + std::to_string(values.size()) + " values for a piece of " +
          std::to_string(bad ? 0 : piece_size(k)));
    use_halo();
    std::copy(values.begin(), values.end(), halo_[k].begin());
  }
  // The halo piece in direction k (row-major, the layout fill_halo takes)
  // and its number of cells; null and 0 for kSelf. Local.
  T* halo_piece(int k) {
    if (k == kSelf) return nullptr;
    use_halo();
    return halo_[k].data();
  }
  long halo_piece_size(int k) const { return k == kSelf ? 0 : piece_size(k); }
  // Says the values in the halo pieces that neighbours fill are no longer
  // needed (e.g. a sweep's call used them): a block that owns its elements
  // then frees those pieces' memory with its payload when it leaves memory;
  // they read 0 from then on until filled. Nothing for other blocks. Local.
  void spend_halo() {
    if (owned_ && halo_state_ == HaloState::filled) halo_state_ = HaloState::unneeded;
  }
  // The bytes the halo holds in memory now. Local.
  std::size_t halo_memory() const {
    std::size_t n = 0;
    for (const auto& piece : halo_) n += piece.capacity() * sizeof(T);
    return n;
  }

 private:
  static coords_type row_major_strides(const Box<N>& box) {
    coords_type strides{};
    long stride = 1;
    for (dim_t d = N - 1; d >= 0; --d) {
      strides[d] = box.extent(d) > 1 ? stride : 0;
      stride *= box.extent(d);
    }
    return strides;
  }
  // The box [lo, hi) of the block's own cells the neighbour in direction k
  // reads (see outgoing_slab).
  void outgoing_box(int k, coords_type& lo, coords_type& hi) const {
    const direction_type s = direction(k);
    const long w = halo_spec_.width;
    for (dim_t d = 0; d < N; ++d) {
      lo[d] = s[d] > 0 ? extent(d) - w : 0;
      hi[d] = s[d] < 0 ? w : extent(d);
    }
  }
  // Cells of the halo piece in direction k: width along the dimensions it
  // points to, the block's extent along the others.
  long piece_size(int k) const {
    const direction_type s = direction(k);
    long n = 1;
    for (dim_t d = 0; d < N; ++d) n *= s[d] == 0 ? extent(d) : long(halo_spec_.width);
    return n;
  }
  void allocate_halo() {
    for (int k = 0; k < kDirections; ++k)
      if (k != kSelf && halo_[k].size() != std::size_t(piece_size(k)))
        halo_[k].assign(std::size_t(piece_size(k)), T{});
  }
  // The halo is about to be read or written: its memory (zeros if it had
  // none), and its values are to be kept.
  void use_halo() {
    if (halo_state_ == HaloState::absent) allocate_halo();
    halo_state_ = HaloState::filled;
  }
  // What cell() gives for a halo without memory: a 0 (set on every access)
  // that writes reach no halo. No call in cell(): the element access stays
  // cheap to inline and vectorise.
  static T& absent_cell() {
    thread_local T cell{};
    cell = T{};
    return cell;
  }
  T& native(const coords_type& i) const {
    long at = 0;
    for (dim_t d = 0; d < N; ++d) at += i[d] * strides_[d];
    return data_[at];
  }
  T& cell(const coords_type& i) {
    const long w = halo_spec_.width;
    int k = 0;
    long native_at = 0, piece_at = 0;
    for (dim_t d = 0; d < N; ++d) {
      const long e = extent(d);
      int s = 0;
      long in_piece = i[d], piece_extent = e;
      if (i[d] < 0) {
        s = -1, in_piece = i[d] + w, piece_extent = w;
      } else if (i[d] >= e) {
        s = 1, in_piece = i[d] - e, piece_extent = w;
      }
      k = 3 * k + s + 1;
      native_at += i[d] * strides_[d];
      piece_at = piece_at * piece_extent + in_piece;
    }
    if (k == kSelf) return data_[native_at];
    // No halo memory (a slab out of memory whose halo went with it): 0.
    if (__builtin_expect(halo_state_ == HaloState::absent, 0)) return absent_cell();
    return halo_[k][std::size_t(piece_at)];
  }

  int gid_;
  coords_type block_coords_;
  Box<N> box_;
  T* data_;
  coords_type strides_;
  HaloSpec<N> halo_spec_;
  std::array<int, kDirections> neighbors_;
  std::array<std::vector<T>, kDirections> halo_;  // row-major pieces; kSelf empty
  bool owned_ = false;                            // the elements are payload_ (an out-of-core slab)
  // The halo's memory: absent (none; reads 0), unneeded (allocated, its
  // values not to be kept: zeros from adopt_payload, or spent), filled
  // (values to keep). Blocks that do not own their elements keep theirs:
  // filled. The pieces neighbours fill of a halo not filled leave memory
  // with the payload.
  enum class HaloState : unsigned char { absent, unneeded, filled };
  HaloState halo_state_ = HaloState::filled;
  Bytes payload_;
};

namespace detail {

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

}  // namespace detail

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
    const auto [gid, bc, box, base, strides] = detail::local_block_layout(pattern, lb);
    const auto neighbors = detail::grid_neighbors<T, N>(bc, detail::block_grid(pattern), halo);
    std::vector<int> link = detail::links_of<T, N>(gid, neighbors);
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

namespace detail {

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

}  // namespace detail

// send_halos for a block that owns its elements (an out-of-core slab) whose
// payload is not in memory and whose neighbours read only its end rows
// (detail::halos_from_end_rows): those rows come through read(offset,
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
      if (b.payload_resident() || !detail::halos_from_end_rows(b)) return;
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
