// dash::bp::ContainerBlock: one block of a distributed container's pattern,
// seen by the unit that owns it (made by dash::bp::of, ContainerBlocks.h,
// which says what a block and its halo are): its extents, its elements in
// the container's local memory, b(i...) over block-local coordinates with
// the halo around them, and the payload protocol out of core.
//
// | call            | cost                                  |
// |-----------------|---------------------------------------|
// | b(i...)         | local, O(N); bounds checked only under |
// |                 | DASH_CHECK_BOUNDS (BoundsCheck.h)     |
// | halo pieces     | local                                 |
#ifndef DASH__BP__CONTAINER_BLOCK_H_
#define DASH__BP__CONTAINER_BLOCK_H_

#include <dash/Exception.h>
#include <dash/Types.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Serialization.h>
#include <dash/internal/BoundsCheck.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <cstring>
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

namespace internal {

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

}  // namespace internal

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
  static constexpr int kDirections = internal::pow3(N);
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
  // O(N). Checked only under DASH_CHECK_BOUNDS (then throws
  // dash::exception::OutOfRange outside those bounds).
  template <class... I,
            class = std::enable_if_t<sizeof...(I) == N && (std::is_integral_v<I> && ...)>>
  T& operator()(I... i) {
    return checked_cell(coords_type{static_cast<long>(i)...});
  }
  template <class... I,
            class = std::enable_if_t<sizeof...(I) == N && (std::is_integral_v<I> && ...)>>
  const T& operator()(I... i) const {
    return const_cast<ContainerBlock*>(this)->checked_cell(coords_type{static_cast<long>(i)...});
  }
  T& operator()(const coords_type& i) { return checked_cell(i); }
  const T& operator()(const coords_type& i) const {
    return const_cast<ContainerBlock*>(this)->checked_cell(i);
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
    internal::for_each_cell<N>(lo, hi, [&](const coords_type& c) { out.push_back(native(c)); });
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
    internal::for_each_cell<N>(lo, hi, [&](const coords_type& c) {
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
  // cell(i), checked under DASH_CHECK_BOUNDS.
  T& checked_cell(const coords_type& i) {
    if constexpr (dash::internal::bounds_checked) {
      // Shifted by the halo width in unsigned arithmetic: wraps, never overflows, for any i.
      const auto w = static_cast<std::uint64_t>(halo_spec_.width);
      for (dim_t d = 0; d < N; ++d)
        if (__builtin_expect(!dash::internal::index_within(static_cast<std::uint64_t>(i[d]) + w,
                                                           extent(d) + 2 * w),
                             0))
          cell_out_of_range(i);
    }
    return cell(i);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void cell_out_of_range(const coords_type& i) const {
    std::array<std::int64_t, N> c, lo, hi;
    for (dim_t d = 0; d < N; ++d) {
      c[d] = i[d];
      lo[d] = -halo_spec_.width;
      hi[d] = extent(d) + halo_spec_.width;
    }
    dash::internal::throw_coords_outside_box("dash::bp::ContainerBlock::operator()", c.data(),
                                             lo.data(), hi.data(), N);
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

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__CONTAINER_BLOCK_H_
