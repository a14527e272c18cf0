// DASH's halo layer: a matrix whose blocks carry halos that stencils read.
//
//   using StencilP = dash::halo::StencilPoint<2>;
//   dash::halo::StencilSpec<StencilP, 4> spec(StencilP(-1, 0), StencilP(1, 0),
//                                             StencilP(0, -1), StencilP(0, 1));
//   dash::halo::GlobalBoundarySpec<2> bounds(dash::halo::BoundaryProp::CYCLIC,
//                                            dash::halo::BoundaryProp::CYCLIC);
//   dash::halo::HaloMatrixWrapper<Matrix> halo(matrix, bounds, spec);
//   auto op = halo.stencil_operator(spec);
//   halo.update_async();      // start fetching the halo
//   ... op.inner ...          // cells that need no halo
//   halo.wait();
//   ... op.boundary ...       // cells that do
//
// Built on dash::bp::of(matrix, halo): the calling unit's block of the
// matrix is a dash::bp::ContainerBlock whose halo pieces (one per region
// the stencils reach, as wide as the widest reach) hold the cells of the
// neighbouring blocks. update() and update_async() fill those pieces with
// one-sided gets (dash::copy's strided rectangle transfers, one per piece
// and owner), so they are not collective: as in DASH, the program makes
// the neighbours' writes complete first (a barrier). blocks() is the
// dash::bp::Master of those blocks, for dash::bp::exchange_halos or
// foreach on the same halos.
//
// The matrix's pattern must give each unit at most one block (BlockPattern
// or TilePattern with BLOCKED or NONE distributions, or one tile per unit),
// as DASH's does; the constructor throws dash::exception::InvalidArgument
// on every unit otherwise, and when a halo is wider than a block it reaches
// across.
//
// | call               | cost                                                  |
// |--------------------|-------------------------------------------------------|
// | constructor        | local: O(3^N); allocates the halo pieces              |
// | update_async       | one-sided: starts <= 3^N - 1 strided gets, returns    |
// | wait, test, update | local completion of those gets                        |
// | set_custom_halos   | local: one call of the function per CUSTOM halo cell  |
// | stencil_operator   | local: O(N * points + 3^N)                            |
// | halo_block         | local: the block's HaloBlock (HaloBlock.h)            |
#ifndef DASH__HALO__HALO_MATRIX_WRAPPER_H_
#define DASH__HALO__HALO_MATRIX_WRAPPER_H_

#include <dash/Exception.h>
#include <dash/Future.h>
#include <dash/Matrix.h>
#include <dash/algorithm/internal/RectangleTransfers.h>
#include <dash/algorithm/internal/Transfers.h>
#include <dash/bp/ContainerBlocks.h>
#include <dash/halo/HaloBlock.h>
#include <dash/halo/StencilOperator.h>
#include <dash/halo/Types.h>
#include <dash/view/ViewFunctions.h>

#include <array>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {
namespace halo {

template <class MatrixT>
class HaloMatrixWrapper {
 public:
  using Element_t = typename MatrixT::value_type;
  using value_type = Element_t;
  using pattern_type = typename MatrixT::pattern_type;
  using index_type = typename MatrixT::index_type;
  static constexpr dim_t N = MatrixT::ndim();
  using Block = bp::ContainerBlock<Element_t, N>;
  using ViewSpec_t = ViewSpec<N, index_type>;
  using GlobBoundSpec_t = GlobalBoundarySpec<N>;
  using HaloSpec_t = HaloSpec<N>;
  using HaloBlock_t = HaloBlock<Element_t, pattern_type>;

  static_assert(dash::internal::has_local_rectangle<pattern_type>::value,
                "dash::halo::HaloMatrixWrapper: the matrix's pattern must be a BlockPattern "
                "or TilePattern");

  // A halo for the stencils `specs` (at least one) on `matrix`, the domain
  // bounded as `bounds` says (NONE in every dimension if not given). Local.
  template <class P, std::size_t K, class... More>
  HaloMatrixWrapper(MatrixT& matrix, const GlobBoundSpec_t& bounds, const StencilSpec<P, K>& spec,
                    const More&... more)
      : HaloMatrixWrapper(matrix, bounds, HaloSpec_t(spec, more...)) {}
  template <class P, std::size_t K, class... More>
  HaloMatrixWrapper(MatrixT& matrix, const StencilSpec<P, K>& spec, const More&... more)
      : HaloMatrixWrapper(matrix, GlobBoundSpec_t(), HaloSpec_t(spec, more...)) {}
  // A halo reaching as far as `halo` says into each region. Local.
  HaloMatrixWrapper(MatrixT& matrix, const GlobBoundSpec_t& bounds, const HaloSpec_t& halo)
      : matrix_(&matrix),
        bounds_(bounds),
        halo_(halo),
        master_(make_blocks(matrix, bounds, halo)),
        halo_block_(ViewSpec_t(), halo, bounds) {
    const auto& pattern = matrix.pattern();
    for (dim_t d = 0; d < N; ++d) extents_[d] = long(pattern.extent(d));
    block_ = master_.size() > 0 ? &master_.block(0) : nullptr;
    base_ = block_ ? long(block_->data() - matrix.lbegin()) : 0;
    std::array<index_type, N> off{};
    std::array<typename ViewSpec_t::size_type, N> ext{};
    if (block_)
      for (dim_t d = 0; d < N; ++d) {
        off[d] = index_type(block_->box().min[d]);
        ext[d] = typename ViewSpec_t::size_type(block_->extent(d));
      }
    view_local_ = ViewSpec_t(off, ext);
    halo_block_ = HaloBlock_t(view_local_, halo_, bounds_);
    if (block_) plan_pieces();
  }
  HaloMatrixWrapper(const HaloMatrixWrapper&) = delete;
  HaloMatrixWrapper& operator=(const HaloMatrixWrapper&) = delete;
  // Completes a running update.
  ~HaloMatrixWrapper() = default;

  // Fills the halo from the neighbouring blocks: update_async() + wait().
  // One-sided; not collective.
  void update() {
    update_async();
    wait();
  }
  // Starts filling the halo (completes a running update first). The
  // matrix's cells inside the block may be read and the halo must not be
  // until wait() or test() says it is done. One-sided; returns at once.
  void update_async() {
    wait();
    if (pieces_.empty()) return;
    using Mem = std::remove_const_t<std::remove_reference_t<decltype(matrix_->globmem())>>;
    pending_ = dash::internal::async_transfers<int>([&](auto& state) {
      using State = std::remove_reference_t<decltype(state)>;
      for (const Piece& p : pieces_) {
        dash::internal::TransferStarter<true, index_type, Mem, Element_t, State> starter(
            matrix_->globmem(), block_->halo_piece(p.direction), state);
        dash::internal::start_rectangle_transfers(matrix_->pattern(), p.rect, p.at, p.stride,
                                                  starter);
        starter.finish();
      }
      return 0;
    });
  }
  // Completes a running update. Local.
  void wait() {
    if (!pending_) return;
    auto f = std::move(*pending_);
    pending_.reset();
    f.wait();
  }
  // True if no update is running (completing it if it is done). Local.
  bool test() {
    if (!pending_) return true;
    if (!pending_->test()) return false;
    pending_.reset();
    return true;
  }

  // Sets every halo cell beyond a CUSTOM boundary to f(global coordinates)
  // (std::array<dash::default_index_t, N>, outside the domain along the
  // CUSTOM dimensions); update() leaves them alone. Local.
  template <class F>
  void set_custom_halos(F f) {
    if (!block_) return;
    for (int k : custom_pieces_) {
      const auto s = Block::direction(k);
      std::array<long, N> lo, hi;
      const long w = halo_width();
      for (dim_t d = 0; d < N; ++d) {
        lo[d] = s[d] < 0 ? -w : s[d] > 0 ? block_->extent(d) : 0;
        hi[d] = s[d] < 0 ? 0 : s[d] > 0 ? block_->extent(d) + w : block_->extent(d);
      }
      bp::internal::for_each_cell<N>(lo, hi, [&](const std::array<long, N>& c) {
        std::array<default_index_t, N> g;
        for (dim_t d = 0; d < N; ++d) g[d] = default_index_t(block_->box().min[d] + c[d]);
        (*block_)(c) = Element_t(f(g));
      });
    }
  }

  // The stencil operator of `spec` (it must fit inside the halo: throws
  // dash::exception::InvalidArgument otherwise). Local.
  template <class P, std::size_t K>
  StencilOperator<Element_t, N, StencilSpec<P, K>> stencil_operator(
      const StencilSpec<P, K>& spec) const {
    const HaloSpec_t need(spec);
    for (typename HaloSpec_t::region_index_t r = 0; r < HaloSpec_t::num_regions(); ++r)
      if (need.extent(r) > halo_.extent(r))
        throw exception::InvalidArgument(
            "dash::halo::HaloMatrixWrapper::stencil_operator: the stencil reaches " +
            std::to_string(need.extent(r)) + " cells into region " + std::to_string(r) +
            ", the halo only " + std::to_string(halo_.extent(r)));
    return StencilOperator<Element_t, N, StencilSpec<P, K>>(block_, base_, extents_, bounds_, spec);
  }

  MatrixT& matrix() { return *matrix_; }
  const MatrixT& matrix() const { return *matrix_; }
  // The calling unit's block: global offsets and extents (empty if none).
  const ViewSpec_t& view_local() const { return view_local_; }
  const HaloSpec_t& halo_spec() const { return halo_; }
  const GlobBoundSpec_t& global_boundary_spec() const { return bounds_; }
  // Width of the halo pieces: the widest reach of any region.
  long halo_width() const { return halo_.width(); }
  // DASH's description of the calling unit's block and its halo (HaloBlock.h: the block's
  // global rectangle, the halo spec, boundary_dependencies(region)). Local.
  const HaloBlock_t& halo_block() const { return halo_block_; }
  // The calling unit's block with its halo, null if it holds none.
  Block* local_block() const { return block_; }
  // The blocks (dash::bp::of) whose halos this wrapper fills.
  bp::Master<Block>& blocks() { return master_; }

 private:
  // One halo piece to fetch: its direction, the global rectangle of the
  // neighbour's cells it needs, where that rectangle's first cell goes in
  // the piece and the piece's strides.
  struct Piece {
    int direction;
    ViewSpec<N, index_type> rect;
    index_type at;
    std::array<index_type, N> stride;
  };

  static bp::Master<Block> make_blocks(MatrixT& matrix, const GlobBoundSpec_t& bounds,
                                       const HaloSpec_t& halo) {
    const auto& pattern = matrix.pattern();
    const auto grid = pattern.blockspec().extents();
    for (dim_t d = 0; d < N; ++d)
      if (long(grid[d]) > long(pattern.teamspec().extent(d)))
        throw exception::InvalidArgument(
            "dash::halo::HaloMatrixWrapper: the pattern gives units more than one block (" +
            std::to_string(long(grid[d])) + " blocks over " +
            std::to_string(long(pattern.teamspec().extent(d))) + " units along dimension " +
            std::to_string(d) +
            "); the halo layer needs one block per unit (BLOCKED or NONE), dash::bp::of takes "
            "any number");
    bp::HaloSpec<N> h;
    h.width = halo.width();
    h.corners = halo.needs_corners();
    for (dim_t d = 0; d < N; ++d) h.periodic[d] = bounds[d] == BoundaryProp::CYCLIC;
    return bp::of(matrix, h);
  }

  // The pieces update() fetches and the pieces set_custom_halos fills.
  void plan_pieces() {
    const long w = halo_width();
    const auto grid = bp::internal::block_grid(matrix_->pattern());
    for (int k = 0; k < Block::kDirections; ++k) {
      if (k == Block::kSelf) continue;
      const int reach = halo_.extent(typename HaloSpec_t::region_index_t(k));
      if (reach == 0) continue;
      const auto s = Block::direction(k);
      if (block_->neighbor(k) < 0) {
        // Beyond the domain along some non-cyclic dimension: custom unless
        // one of those is NONE.
        bool custom = true;
        for (dim_t d = 0; d < N; ++d) {
          const long c = block_->block_coords()[d] + s[d];
          if ((c < 0 || c >= grid[d]) && bounds_[d] == BoundaryProp::NONE) custom = false;
        }
        if (custom) custom_pieces_.push_back(k);
        continue;
      }
      Piece p{k, {}, 0, {}};
      std::array<index_type, N> off, piece_off;
      std::array<typename ViewSpec<N, index_type>::size_type, N> ext;
      index_type stride = 1;
      for (dim_t d = N - 1; d >= 0; --d) {
        const long e = block_->extent(d), lo = block_->box().min[d], hi = block_->box().max[d];
        long first = lo, count = e, in_piece = 0;
        if (s[d] < 0) {
          first = lo - reach;
          if (first < 0) first += extents_[d];
          count = reach;
          in_piece = w - reach;
        } else if (s[d] > 0) {
          first = hi >= extents_[d] ? 0 : hi;
          count = reach;
        }
        off[d] = index_type(first);
        ext[d] = typename ViewSpec<N, index_type>::size_type(count);
        piece_off[d] = index_type(in_piece);
        p.stride[d] = stride;
        stride *= index_type(s[d] == 0 ? e : w);
      }
      p.rect = ViewSpec<N, index_type>(off, ext);
      for (dim_t d = 0; d < N; ++d) p.at += piece_off[d] * p.stride[d];
      pieces_.push_back(p);
    }
  }

  MatrixT* matrix_;
  GlobBoundSpec_t bounds_;
  HaloSpec_t halo_;
  bp::Master<Block> master_;
  Block* block_ = nullptr;
  long base_ = 0;
  std::array<long, N> extents_{};
  ViewSpec_t view_local_;
  HaloBlock_t halo_block_;
  std::vector<Piece> pieces_;
  std::vector<int> custom_pieces_;
  std::optional<Future<int>> pending_;
};

}  // namespace halo
}  // namespace dash

#endif  // DASH__HALO__HALO_MATRIX_WRAPPER_H_
