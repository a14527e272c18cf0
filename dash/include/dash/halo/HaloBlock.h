// dash::halo::HaloBlock: what DASH's halo layer says about the calling unit's block of a
// HaloMatrixWrapper's matrix (halo_wrapper.halo_block()): the block's rectangle in global
// coordinates, the halo it carries (HaloSpec: how deep the halo reaches into each of the 3^N
// regions around the block) and the boundary's dependencies on that halo.
//
// Regions are numbered as in Types.h (row-major over {0, 1, 2}^N, region (1, ..., 1) the block
// itself). The boundary cells of region r (those next to the block's edges that r lies beyond)
// read the halo of r and of every region between r and the block: the regions whose coordinates
// are r's with some of its non-centre coordinates set to 1. boundary_dependencies(r) lists
// those the halo reaches into (extent > 0), r first, then depth first, setting one more
// coordinate to 1 from the lowest dimension on (DASH's order): with a 3 x 3 stencil in 2-D,
// corner 0 = (0, 0) depends on 0, 3 = (1, 0) and 1 = (0, 1); edge 1 = (0, 1) on 1 only.
//
// | call                  | cost                 |
// |-----------------------|----------------------|
// | view, halo_spec       | local, O(1)          |
// | boundary_dependencies | local, O(2^N)        |
#ifndef DASH__HALO__HALO_BLOCK_H_
#define DASH__HALO__HALO_BLOCK_H_

#include <dash/Exception.h>
#include <dash/halo/Types.h>
#include <dash/pattern/SizeSpec.h>

#include <string>
#include <vector>

namespace dash {
namespace halo {

template <class ElementT, class PatternT>
class HaloBlock {
 public:
  static constexpr dim_t N = PatternT::ndim();
  using Element_t = ElementT;
  using Pattern_t = PatternT;
  using index_type = typename PatternT::index_type;
  using ViewSpec_t = ViewSpec<N, index_type>;
  using HaloSpec_t = HaloSpec<N>;
  using GlobBoundSpec_t = GlobalBoundarySpec<N>;
  using region_index_t = typename RegionCoords<N>::region_index_t;
  using RegIndDepVec_t = std::vector<region_index_t>;

  // The calling unit's block `view` (global coordinates; empty if it holds none) with the halo
  // `halo` in a domain bounded as `bounds` says. Local.
  HaloBlock(const ViewSpec_t& view, const HaloSpec_t& halo, const GlobBoundSpec_t& bounds)
      : view_(view), halo_(halo), bounds_(bounds) {}

  static constexpr dim_t ndim() { return N; }
  // The block: global offsets and extents. Local.
  const ViewSpec_t& view() const { return view_; }
  const HaloSpec_t& halo_spec() const { return halo_; }
  const GlobBoundSpec_t& global_boundary_spec() const { return bounds_; }

  // The regions the boundary cells of region `index` read the halo of (see the top of the
  // file); empty for the block itself (the centre) and for regions the halo does not reach.
  // Throws dash::exception::OutOfRange for an index outside [0, 3^N). Local, O(2^N).
  RegIndDepVec_t boundary_dependencies(region_index_t index) const {
    if (index >= NumRegionsMax<N>)
      throw exception::OutOfRange("dash::halo::HaloBlock::boundary_dependencies: region " +
                                  std::to_string(index) + " outside [0, " +
                                  std::to_string(NumRegionsMax<N>) + ")");
    RegIndDepVec_t out;
    if (index != RegionCoords<N>::CenterIndex) add_dependencies(RegionCoords<N>(index), 0, out);
    return out;
  }

 private:
  // Appends `coords` (if the halo reaches into it and it is not the centre), then, depth first,
  // the regions with one more of its coordinates from dimension `from` on set to 1.
  void add_dependencies(const RegionCoords<N>& coords, dim_t from, RegIndDepVec_t& out) const {
    const region_index_t index = coords.index();
    if (index != RegionCoords<N>::CenterIndex && halo_.extent(index) > 0) out.push_back(index);
    for (dim_t d = from; d < N; ++d) {
      if (coords[d] == 1) continue;
      auto next = coords.values();
      next[std::size_t(d)] = 1;
      add_dependencies(RegionCoords<N>(next), d + 1, out);
    }
  }

  ViewSpec_t view_;
  HaloSpec_t halo_;
  GlobBoundSpec_t bounds_;
};

}  // namespace halo
}  // namespace dash

#endif  // DASH__HALO__HALO_BLOCK_H_
