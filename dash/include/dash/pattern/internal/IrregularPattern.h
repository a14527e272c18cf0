// Core of the irregular 1-D patterns (dash::CSRPattern<1>, dash::LoadBalancePattern<1>): unit u
// owns one block of sizes[u] consecutive global indices, the blocks follow each other in unit
// order, and a unit's block is its whole local memory in global order. Sizes may be 0.
//
//   offsets[u] = sizes[0] + ... + sizes[u - 1]        (offsets[P] = size())
//   owner of g = the u with offsets[u] <= g < offsets[u + 1]   (binary search, O(log P))
//   local offset of g = g - offsets[owner]; global index of (u, l) = offsets[u] + l  (O(1))
//
// The sizes and offsets are built once in the constructor (O(P) memory, local, no
// communication: every unit must pass the same sizes; dash::Array's allocation checks that
// they agree). Lookups allocate nothing.
#ifndef DASH__PATTERN__INTERNAL__IRREGULAR_PATTERN_H_
#define DASH__PATTERN__INTERNAL__IRREGULAR_PATTERN_H_

#include <dash/Exception.h>
#include <dash/pattern/DistributionSpec.h>
#include <dash/pattern/TeamSpec.h>
#include <dash/pattern/internal/DimBlocking.h>
#include <dash/pattern/internal/PatternBase.h>

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {
namespace internal {

template <class Derived, MemArrange Arr, class IndexType>
class IrregularPattern : public PatternBase<Derived, 1, Arr, IndexType> {
  using Base = PatternBase<Derived, 1, Arr, IndexType>;

 public:
  // Marks the pattern for the algorithms that otherwise assume blocks of one size dealt
  // round-robin (is_irregular_pattern_v below).
  using irregular_tag = void;
  using typename Base::coords_type;
  using typename Base::index_type;
  using typename Base::local_index_type;
  using typename Base::local_run_type;
  using typename Base::size_type;
  using local_coords_type = local_coords_t<IndexType, 1>;
  using viewspec_type = ViewSpec<1, IndexType>;

  // ---- sizes (local, O(1)) ----
  // Elements unit owns.
  size_type local_size(team_unit_t unit) const { return sizes_[unit.id]; }
  using Base::local_size;
  // Every unit's element count, in unit order.
  const std::vector<size_type>& local_sizes() const { return sizes_; }
  // Local extents of unit / of the calling unit (one dimension).
  std::array<size_type, 1> local_extents(team_unit_t unit) const { return {local_size(unit)}; }
  std::array<size_type, 1> local_extents() const { return {this->local_size()}; }
  size_type local_extent(dim_t) const { return this->local_size(); }
  // Global index of the calling unit's first element, and one past its last (lbegin() ==
  // lend() on a unit without elements).
  index_type lbegin() const { return offsets_[this->myid_.id]; }
  index_type lend() const { return offsets_[this->myid_.id + 1]; }

  // ---- blocks: one per unit, in unit order, possibly empty (local, O(1)) ----
  // Extent of the largest block (DASH's blocksize of an irregular pattern).
  index_type blocksize(dim_t) const { return index_type(this->local_capacity_); }
  size_type max_blocksize() const { return this->local_capacity_; }
  // One block per unit.
  SizeSpec<1, IndexType> blockspec() const {
    return SizeSpec<1, IndexType>(std::array<size_type, 1>{this->nunits_});
  }
  SizeSpec<1, IndexType> local_blockspec(team_unit_t) const {
    return SizeSpec<1, IndexType>(std::array<size_type, 1>{1});
  }
  SizeSpec<1, IndexType> local_blockspec() const {
    return SizeSpec<1, IndexType>(std::array<size_type, 1>{1});
  }
  size_type local_nblocks(team_unit_t) const { return 1; }
  size_type local_nblocks() const { return 1; }
  // Block (= unit) holding global coordinates. O(log P).
  index_type block_at(const coords_type& coords) const { return owner(coords[0]); }
  // Global range of block b (unit b's elements).
  viewspec_type block(index_type b) const { return viewspec_type({offsets_[b]}, {sizes_[b]}); }
  viewspec_type block(const coords_type& block_coords) const { return block(block_coords[0]); }
  // Global range of unit's only block (lblock must be 0) / of the calling unit's.
  viewspec_type local_block(team_unit_t unit, index_type lblock) const {
    check_local_block(lblock);
    return block(index_type(unit.id));
  }
  viewspec_type local_block(index_type lblock) const { return local_block(this->myid_, lblock); }
  // The calling unit's only block in local coordinates.
  viewspec_type local_block_local(index_type lblock) const {
    check_local_block(lblock);
    return viewspec_type({0}, {this->local_size()});
  }

  // ---- global -> local (local, O(log P)) ----
  // Owner and local coordinates of global coordinates (DASH's local(coords)).
  local_coords_type local(const coords_type& coords) const {
    auto l = local_of_coords(coords);
    return local_coords_type{l.unit, {l.index}};
  }
  using Base::local;
  coords_type local_coords(const coords_type& coords) const { return {local(coords).coords}; }
  // Owner, offset, and the elements from gindex to the end of its owner's block (local_run of
  // PatternBase assumes regular blocks; here a run ends where the owner's block ends).
  local_run_type local_run(index_type gindex) const {
    index_type u = owner(gindex);
    return local_run_type{team_unit_t(static_cast<dart_unit_t>(u)), gindex - offsets_[u],
                          offsets_[u + 1] - gindex};
  }

  // ---- local -> global (local, O(1)) ----
  coords_type global_coords(team_unit_t unit, const coords_type& lcoords) const {
    return {offsets_[unit.id] + lcoords[0]};
  }
  coords_type global_coords(const coords_type& lcoords) const {
    return global_coords(this->myid_, lcoords);
  }
  // DASH's names: global coordinates of local coordinates of unit / of the calling unit.
  coords_type global(team_unit_t unit, const coords_type& lcoords) const {
    return global_coords(unit, lcoords);
  }
  coords_type global(const coords_type& lcoords) const { return global_coords(lcoords); }
  using Base::global;
  index_type global_index(team_unit_t unit, const coords_type& lcoords) const {
    return offsets_[unit.id] + lcoords[0];
  }
  using Base::global_index;
  // Offset of local coordinates: a unit's memory is its block in global order.
  index_type local_at(const coords_type& lcoords) const { return lcoords[0]; }
  index_type local_offset(team_unit_t, const coords_type& lcoords) const { return lcoords[0]; }
  coords_type local_coords_of(index_type offset) const { return {offset}; }
  // The part of global range `view` that unit (default: the calling unit) owns, in its local
  // coordinates (possibly empty). O(1).
  viewspec_type local_rectangle(team_unit_t unit, const viewspec_type& view) const {
    const index_type lo = offsets_[unit.id], hi = offsets_[unit.id + 1];
    const index_type from = std::clamp(view.offset(0), lo, hi);
    const index_type to = std::clamp(view.offset(0) + index_type(view.extent(0)), lo, hi);
    return viewspec_type({from - lo}, {size_type(to - from)});
  }
  viewspec_type local_rectangle(const viewspec_type& view) const {
    return local_rectangle(this->myid_, view);
  }

  // A local range [lo, hi) as segments of consecutive local blocks (see DimBlocking.h): one, a
  // unit's block being contiguous in its memory and in the global range. O(1).
  int local_segments(dim_t, index_type lo, index_type hi, LocalSegment<index_type> out[3]) const {
    out[0] = LocalSegment<index_type>{lo, 1, hi > lo ? hi - lo : 0};
    return hi > lo ? 1 : 0;
  }
  // Calls f(unit) for every unit owning elements of global range `view`, in unit order.
  // O(log P + units called).
  template <class F>
  void for_each_owner(const viewspec_type& view, F&& f) const {
    if (view.extent(0) == 0) return;
    const index_type last = owner(view.offset(0) + index_type(view.extent(0)) - 1);
    for (index_type u = owner(view.offset(0)); u <= last; ++u)
      if (sizes_[u] > 0) f(team_unit_t(static_cast<dart_unit_t>(u)));
  }

  const DistributionSpec<1>& distspec() const { return distspec_; }
  const TeamSpec<1, IndexType>& teamspec() const { return teamspec_; }

  // ---- the CRTP primitives of PatternBase ----
  local_index_type local_of_coords(const coords_type& coords) const {
    index_type u = owner(coords[0]);
    return local_index_type{team_unit_t(static_cast<dart_unit_t>(u)), coords[0] - offsets_[u]};
  }
  coords_type coords_of_local(team_unit_t unit, index_type offset) const {
    return {offsets_[unit.id] + offset};
  }

 protected:
  // Unit u owns sizes[u] elements. Local, O(P); throws dash::exception::InvalidArgument when
  // sizes does not hold one count per unit of `team` or the total overflows the index type.
  IrregularPattern(const std::vector<size_type>& sizes, const TeamSpec<1, IndexType>& teamspec,
                   Team& team)
      : Base(SizeSpec<1, IndexType>(std::array<size_type, 1>{checked_total(sizes, team)}), team),
        sizes_(sizes),
        distspec_(BLOCKED),
        teamspec_(teamspec) {
    if (teamspec.size() != team.size())
      throw exception::InvalidArgument(
          this->where("the TeamSpec holds " + std::to_string(teamspec.size()) +
                      " units, the team " + std::to_string(team.size())));
    offsets_.resize(sizes_.size() + 1);
    offsets_[0] = 0;
    for (std::size_t u = 0; u < sizes_.size(); ++u)
      offsets_[u + 1] = offsets_[u] + index_type(sizes_[u]);
    this->local_capacity_ = *std::max_element(sizes_.begin(), sizes_.end());
  }

  // The sizes BlockPattern<1>(n, dist) gives over `units` units: BLOCKED and TILE cut n into
  // blocks of ceil(n / units) (the last ones underfilled or empty), NONE puts everything on
  // unit 0. Other distributions deal several blocks per unit: throws InvalidArgument.
  static std::vector<size_type> blocked_sizes(size_type n, const Distribution& dist,
                                              size_type units) {
    std::vector<size_type> sizes(units, 0);
    if (units == 0) return sizes;
    if (dist.type == DistributionType::NONE) {
      sizes[0] = n;
    } else if (dist.type == DistributionType::BLOCKED || dist.type == DistributionType::TILE) {
      const size_type block = n / units + (n % units != 0);
      size_type left = n;
      for (auto& s : sizes) {
        s = std::min(block, left);
        left -= s;
      }
    } else {
      throw exception::InvalidArgument(
          std::string("dash::") + Derived::PatternName + ": " + distribution_name(dist.type) +
          " gives a unit several blocks; an irregular pattern takes BLOCKED, TILE or NONE");
    }
    return sizes;
  }

 private:
  static size_type checked_total(const std::vector<size_type>& sizes, const Team& team) {
    if (team.is_null())
      throw exception::InvalidArgument(std::string("dash::") + Derived::PatternName +
                                       ": the team is Null");
    if (sizes.size() != team.size())
      throw exception::InvalidArgument(std::string("dash::") + Derived::PatternName + ": " +
                                       std::to_string(sizes.size()) + " local sizes for " +
                                       std::to_string(team.size()) + " units");
    size_type total = 0;
    const size_type max = size_type(std::numeric_limits<IndexType>::max());
    for (size_type s : sizes) {
      if (s > max - total)
        throw exception::InvalidArgument(std::string("dash::") + Derived::PatternName +
                                         ": the local sizes overflow the index type");
      total += s;
    }
    return total;
  }
  void check_local_block(index_type lblock) const {
    if (lblock != 0)
      throw exception::OutOfRange(this->where("a unit has one block; local block " +
                                              std::to_string(lblock) + " does not exist"));
  }
  // The unit owning global index g: the first u with offsets[u + 1] > g (units without elements
  // have offsets[u + 1] == offsets[u] and are skipped). O(log P), no allocation.
  index_type owner(index_type g) const {
    auto it = std::upper_bound(offsets_.begin() + 1, offsets_.end(), g);
    return index_type(it - (offsets_.begin() + 1));
  }

  std::vector<size_type> sizes_;     // elements per unit
  std::vector<index_type> offsets_;  // global index of each unit's first element; [P] = size()
  DistributionSpec<1> distspec_;
  TeamSpec<1, IndexType> teamspec_;
};

// True for the irregular patterns (one block per unit, of any size): the copy and view code
// asks them for owners and block ends instead of dividing by blocksize().
template <class P, class = void>
struct is_irregular_pattern : std::false_type {};
template <class P>
struct is_irregular_pattern<P, std::void_t<typename P::irregular_tag>> : std::true_type {};
template <class P>
inline constexpr bool is_irregular_pattern_v = is_irregular_pattern<P>::value;

}  // namespace internal
}  // namespace dash

#endif  // DASH__PATTERN__INTERNAL__IRREGULAR_PATTERN_H_
