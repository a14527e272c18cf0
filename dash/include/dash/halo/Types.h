// The vocabulary of DASH's halo layer (namespace dash::halo): how the domain
// ends in each dimension, stencil points and stencil specifications, the
// 3^N regions around a block and how far a halo reaches into each.
//
//   using StencilP = dash::halo::StencilPoint<2>;
//   dash::halo::StencilSpec<StencilP, 4> spec(StencilP(-1, 0), StencilP(1, 0),
//                                             StencilP(0, -1), StencilP(0, 1));
//   dash::halo::GlobalBoundarySpec<2> bounds(dash::halo::BoundaryProp::CYCLIC,
//                                            dash::halo::BoundaryProp::NONE);
//   dash::halo::HaloSpec<2> halo(spec);   // halo.extent(r): cells region r needs
//
// Regions are numbered row-major over {0, 1, 2}^N (0: before the block along
// a dimension, 1: inside its range, 2: after it), as dash::bp::ContainerBlock
// numbers its directions {-1, 0, 1}^N; region (1, ..., 1) is the block.
// Everything here is local and constexpr where DASH's is.
#ifndef DASH__HALO__TYPES_H_
#define DASH__HALO__TYPES_H_

#include <dash/Exception.h>
#include <dash/Types.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

namespace dash {
namespace halo {

// How the global domain ends along a dimension: NONE (no halo beyond it;
// elements whose stencil would reach past it are not iterated), CYCLIC
// (wraps around), CUSTOM (halo cells beyond it hold values the program sets
// with HaloMatrixWrapper::set_custom_halos).
enum class BoundaryProp : std::uint8_t { NONE, CYCLIC, CUSTOM };

// Before (PRE) or after (POST) a block along a dimension.
enum class RegionPos : std::uint8_t { PRE, POST };

inline std::ostream& operator<<(std::ostream& os, BoundaryProp p) {
  return os << (p == BoundaryProp::NONE ? "NONE" : p == BoundaryProp::CYCLIC ? "CYCLIC" : "CUSTOM");
}

// The BoundaryProp of every dimension; NONE by default.
template <dim_t N>
class GlobalBoundarySpec {
 public:
  constexpr GlobalBoundarySpec() : props_{} {}
  template <class... P,
            class = std::enable_if_t<sizeof...(P) == N && (std::is_same_v<P, BoundaryProp> && ...)>>
  constexpr GlobalBoundarySpec(P... props) : props_{props...} {}

  constexpr BoundaryProp operator[](dim_t d) const { return props_[std::size_t(d)]; }
  constexpr const std::array<BoundaryProp, N>& values() const { return props_; }
  static constexpr dim_t ndim() { return N; }

 private:
  std::array<BoundaryProp, N> props_;
};

// One point of a stencil: its distance from the centre along each
// dimension, and a coefficient (1 unless given first: StencilPoint<2>(0.25,
// -1, 0)).
template <dim_t N, class CoeffT = double>
class StencilPoint {
 public:
  using coefficient_type = CoeffT;
  using value_type = int;

  constexpr StencilPoint() : values_{}, coefficient_(1) {}
  template <class... V,
            class = std::enable_if_t<sizeof...(V) == N && (std::is_integral_v<V> && ...)>>
  constexpr StencilPoint(V... values) : values_{int(values)...}, coefficient_(1) {}
  template <class C, class... V,
            class = std::enable_if_t<sizeof...(V) == N && std::is_arithmetic_v<C> &&
                                     (std::is_integral_v<V> && ...)>>
  constexpr StencilPoint(C coefficient, V... values)
      : values_{int(values)...}, coefficient_(CoeffT(coefficient)) {}

  static constexpr dim_t ndim() { return N; }
  constexpr int operator[](dim_t d) const { return values_[std::size_t(d)]; }
  constexpr const std::array<int, N>& values() const { return values_; }
  constexpr CoeffT coefficient() const { return coefficient_; }
  // The largest distance along any dimension.
  constexpr int max() const {
    int m = 0;
    for (dim_t d = 0; d < N; ++d)
      m = std::max(
          m, values_[std::size_t(d)] < 0 ? -values_[std::size_t(d)] : values_[std::size_t(d)]);
    return m;
  }
  friend constexpr bool operator==(const StencilPoint& a, const StencilPoint& b) {
    return a.values_ == b.values_ && a.coefficient_ == b.coefficient_;
  }
  friend constexpr bool operator!=(const StencilPoint& a, const StencilPoint& b) {
    return !(a == b);
  }
  friend std::ostream& operator<<(std::ostream& os, const StencilPoint& p) {
    os << "StencilPoint(";
    for (dim_t d = 0; d < N; ++d) os << (d ? ", " : "") << p[d];
    return os << "; " << p.coefficient_ << ")";
  }

 private:
  std::array<int, N> values_;
  CoeffT coefficient_;
};

// A stencil: NumStencilPoints points (the centre is implicit).
template <class StencilPointT, std::size_t NumStencilPoints>
class StencilSpec {
 public:
  using stencil_point_type = StencilPointT;
  using specs_type = std::array<StencilPointT, NumStencilPoints>;
  static constexpr dim_t N = StencilPointT::ndim();

  template <class... P,
            class = std::enable_if_t<sizeof...(P) == NumStencilPoints &&
                                     (std::is_convertible_v<const P&, StencilPointT> && ...)>>
  constexpr StencilSpec(const P&... points) : specs_{StencilPointT(points)...} {}
  constexpr StencilSpec(const specs_type& points) : specs_(points) {}

  static constexpr std::size_t num_stencil_points() { return NumStencilPoints; }
  static constexpr dim_t ndim() { return N; }
  constexpr const StencilPointT& operator[](std::size_t i) const { return specs_[i]; }
  constexpr const specs_type& specs() const { return specs_; }
  // {index of `point`, true}, or {NumStencilPoints, false} if it is not one
  // of the points.
  constexpr std::pair<std::size_t, bool> index(const StencilPointT& point) const {
    for (std::size_t i = 0; i < NumStencilPoints; ++i)
      if (specs_[i].values() == point.values()) return {i, true};
    return {NumStencilPoints, false};
  }
  // Per dimension, the smallest (<= 0) and largest (>= 0) distance.
  constexpr std::array<std::pair<int, int>, N> minmax_distances() const {
    std::array<std::pair<int, int>, N> mm{};
    for (const auto& p : specs_)
      for (dim_t d = 0; d < N; ++d) {
        mm[std::size_t(d)].first = std::min(mm[std::size_t(d)].first, p[d]);
        mm[std::size_t(d)].second = std::max(mm[std::size_t(d)].second, p[d]);
      }
    return mm;
  }

 private:
  specs_type specs_;
};

// A region's coordinates, one of {0, 1, 2} per dimension, and its
// row-major index.
template <dim_t N>
class RegionCoords {
 public:
  using region_index_t = std::uint32_t;
  using region_coord_t = std::uint8_t;
  using coords_type = std::array<region_coord_t, N>;
  static constexpr region_index_t MaxIndex = [] {
    region_index_t n = 1;
    for (dim_t d = 0; d < N; ++d) n *= 3;
    return n;
  }();
  static constexpr region_index_t NumRegionsMax = MaxIndex;
  // The block itself, (1, ..., 1).
  static constexpr region_index_t CenterIndex = (MaxIndex - 1) / 2;

  constexpr RegionCoords() : coords_{} {
    for (auto& c : coords_) c = 1;
  }
  constexpr RegionCoords(region_index_t index) : coords_{} {
    for (dim_t d = N - 1; d >= 0; --d)
      coords_[std::size_t(d)] = region_coord_t(index % 3), index /= 3;
  }
  constexpr RegionCoords(const coords_type& coords) : coords_(coords) {}

  constexpr region_index_t index() const { return index(coords_); }
  constexpr region_coord_t operator[](dim_t d) const { return coords_[std::size_t(d)]; }
  constexpr const coords_type& values() const { return coords_; }

  static constexpr region_index_t index(const coords_type& coords) {
    region_index_t k = 0;
    for (dim_t d = 0; d < N; ++d) k = 3 * k + coords[std::size_t(d)];
    return k;
  }
  // The region right before (PRE) or after (POST) the block along dim.
  static constexpr region_index_t index(dim_t dim, RegionPos pos) {
    coords_type c{};
    for (auto& v : c) v = 1;
    c[std::size_t(dim)] = pos == RegionPos::PRE ? 0 : 2;
    return index(c);
  }
  friend constexpr bool operator==(const RegionCoords& a, const RegionCoords& b) {
    return a.coords_ == b.coords_;
  }
  friend constexpr bool operator!=(const RegionCoords& a, const RegionCoords& b) {
    return !(a == b);
  }
  friend std::ostream& operator<<(std::ostream& os, const RegionCoords& r) {
    os << "RegionCoords(";
    for (dim_t d = 0; d < N; ++d) os << (d ? ", " : "") << int(r[d]);
    return os << ")";
  }

 private:
  coords_type coords_;
};

// DASH's number of regions around (and including) a block of N dimensions: 3^N.
template <dim_t N>
inline constexpr typename RegionCoords<N>::region_index_t NumRegionsMax = RegionCoords<N>::MaxIndex;

// A region and how many cells the halo reaches into it (its extent along
// every dimension it lies beyond the block).
template <dim_t N>
class RegionSpec {
 public:
  using region_index_t = typename RegionCoords<N>::region_index_t;
  using region_extent_t = int;

  constexpr RegionSpec() : coords_(), extent_(0) {}
  // The region at `coords` (or its index), reached `extent` cells deep. Throw
  // dash::exception::InvalidArgument for a coordinate outside {0, 1, 2}, an index outside
  // [0, 3^N) or a negative extent. Local.
  constexpr RegionSpec(const RegionCoords<N>& coords, region_extent_t extent)
      : coords_(coords), extent_(extent) {
    check();
  }
  // From the region's coordinates, as DASH's RegionSpec<3>({0, 1, 2}, 1).
  constexpr RegionSpec(const typename RegionCoords<N>::coords_type& coords, region_extent_t extent)
      : coords_(coords), extent_(extent) {
    check();
  }
  constexpr RegionSpec(region_index_t index, region_extent_t extent)
      : coords_(index), extent_(extent) {
    if (index >= RegionCoords<N>::MaxIndex)
      throw exception::InvalidArgument("dash::halo::RegionSpec: region index " +
                                       std::to_string(index) + " outside [0, " +
                                       std::to_string(RegionCoords<N>::MaxIndex) + ")");
    check();
  }

  constexpr region_index_t index() const { return coords_.index(); }
  constexpr const RegionCoords<N>& coords() const { return coords_; }
  constexpr region_extent_t extent() const { return extent_; }

 private:
  constexpr void check() const {
    for (dim_t d = 0; d < N; ++d)
      if (coords_[d] > 2)
        throw exception::InvalidArgument("dash::halo::RegionSpec: region coordinate " +
                                         std::to_string(int(coords_[d])) + " in dimension " +
                                         std::to_string(d) + " is not one of 0, 1, 2");
    if (extent_ < 0)
      throw exception::InvalidArgument("dash::halo::RegionSpec: negative extent " +
                                       std::to_string(extent_));
  }

  RegionCoords<N> coords_;
  region_extent_t extent_;
};

// How far a halo reaches into each of the 3^N - 1 regions around a block:
// given region by region, or derived from stencils (a point reaching
// (-2, 0, -1) needs 2 cells of the regions before the block along
// dimension 0, along dimensions 0 and 2, and 1 of the one before it along
// dimension 2). Several stencils: the largest reach per region.
template <dim_t N>
class HaloSpec {
 public:
  using region_index_t = typename RegionCoords<N>::region_index_t;
  static constexpr region_index_t kRegions = RegionCoords<N>::MaxIndex;

  constexpr HaloSpec() : specs_{} { init(); }
  template <class... S, class = std::enable_if_t<(sizeof...(S) > 0) &&
                                                 (std::is_same_v<S, RegionSpec<N>> && ...)>>
  constexpr HaloSpec(const S&... regions) : specs_{} {
    init();
    (set(regions), ...);
  }
  template <class P, std::size_t K, class... More>
  HaloSpec(const StencilSpec<P, K>& first, const More&... more) : specs_{} {
    static_assert(P::ndim() == N, "dash::halo::HaloSpec: stencil of another dimension");
    init();
    add(first);
    (add(more), ...);
  }

  constexpr const RegionSpec<N>& spec(region_index_t index) const { return specs_[index]; }
  constexpr int extent(region_index_t index) const { return specs_[index].extent(); }
  // The largest extent of any region.
  constexpr int width() const {
    int w = 0;
    for (const auto& s : specs_) w = std::max(w, s.extent());
    return w;
  }
  // True if a region beyond the block along two or more dimensions is
  // needed.
  constexpr bool needs_corners() const {
    for (const auto& s : specs_) {
      if (s.extent() == 0) continue;
      int beyond = 0;
      for (dim_t d = 0; d < N; ++d) beyond += s.coords()[d] != 1;
      if (beyond > 1) return true;
    }
    return false;
  }
  static constexpr region_index_t num_regions() { return kRegions; }

 private:
  constexpr void init() {
    for (region_index_t k = 0; k < kRegions; ++k) specs_[k] = RegionSpec<N>(k, 0);
  }
  constexpr void set(const RegionSpec<N>& r) {
    specs_[r.index()] = RegionSpec<N>(r.index(), std::max(r.extent(), specs_[r.index()].extent()));
  }
  // Every non-empty subset of a point's non-zero dimensions is a region it
  // reaches, as far as the largest distance among those dimensions.
  template <class P, std::size_t K>
  void add(const StencilSpec<P, K>& stencil) {
    for (const auto& p : stencil.specs()) {
      std::array<dim_t, N> nonzero{};
      int n = 0;
      for (dim_t d = 0; d < N; ++d)
        if (p[d] != 0) nonzero[std::size_t(n++)] = d;
      for (unsigned subset = 1; subset < (1u << n); ++subset) {
        typename RegionCoords<N>::coords_type c{};
        for (auto& v : c) v = 1;
        int reach = 0;
        for (int i = 0; i < n; ++i) {
          if (!(subset & (1u << i))) continue;
          const int v = p[nonzero[std::size_t(i)]];
          c[std::size_t(nonzero[std::size_t(i)])] = v < 0 ? 0 : 2;
          reach = std::max(reach, std::abs(v));
        }
        set(RegionSpec<N>(RegionCoords<N>(c), reach));
      }
    }
  }

  std::array<RegionSpec<N>, RegionCoords<N>::MaxIndex> specs_;
};

}  // namespace halo
}  // namespace dash

#endif  // DASH__HALO__TYPES_H_
