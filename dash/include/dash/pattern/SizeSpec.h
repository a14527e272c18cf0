// Extents of N-D index spaces: SizeSpec (a whole space from the origin) and
// ViewSpec (a rectangle inside one: offsets plus extents), with the
// row-/column-major linearisation both use.
#ifndef DASH__PATTERN__SIZE_SPEC_H_
#define DASH__PATTERN__SIZE_SPEC_H_

#include <dash/Types.h>

#include <array>
#include <cstddef>
#include <type_traits>

namespace dash {

namespace internal {

// Position k (0 = slowest-moving) of the linearisation order, as a dimension.
template <dim_t N, MemArrange Arr>
constexpr dim_t dim_at_order(dim_t k) {
  return Arr == ROW_MAJOR ? k : N - 1 - k;
}

// Linear index of coords in a space of `extents`. Local, O(N).
template <dim_t N, MemArrange Arr = ROW_MAJOR, class I, class E>
constexpr I linearize(const std::array<I, N>& coords, const std::array<E, N>& extents) {
  I index = 0;
  for (dim_t k = 0; k < N; ++k) {
    dim_t d = dim_at_order<N, Arr>(k);
    index = index * static_cast<I>(extents[d]) + coords[d];
  }
  return index;
}

// Inverse of linearize. Local, O(N) divisions.
template <dim_t N, MemArrange Arr = ROW_MAJOR, class I, class E>
constexpr std::array<I, N> delinearize(I index, const std::array<E, N>& extents) {
  std::array<I, N> coords{};
  for (dim_t k = N - 1; k >= 0; --k) {
    dim_t d = dim_at_order<N, Arr>(k);
    I e = static_cast<I>(extents[d]);
    if (k == 0) {
      coords[d] = index;
    } else {
      coords[d] = index % e;
      index /= e;
    }
  }
  return coords;
}

}  // namespace internal

// An N-D index space of `extents` from the origin, linearised in
// Arrangement order: at(coords) is the linear index, coords(index) the
// inverse (DASH's CartesianIndexSpace). All local, O(N).
// IndexType may be signed or unsigned (DASH writes SizeSpec<2, std::size_t>): the
// coordinates are its signed twin, the extents its unsigned one.
template <dim_t N, MemArrange Arr = ROW_MAJOR, class IndexType = default_index_t>
class CartesianIndexSpace {
 public:
  using index_type = std::make_signed_t<IndexType>;
  using size_type = std::make_unsigned_t<IndexType>;

  constexpr CartesianIndexSpace() = default;
  constexpr explicit CartesianIndexSpace(const std::array<size_type, N>& extents)
      : extents_(extents) {}
  // N extents of any arithmetic type (DASH programs pass doubles such as n * std::pow(2, s);
  // they are converted as DASH converts them, fractions cut off).
  template <class... E, class = std::enable_if_t<sizeof...(E) == N && N != 0 &&
                                                 (std::is_arithmetic_v<E> && ...)>>
  constexpr CartesianIndexSpace(E... extents) : extents_{static_cast<size_type>(extents)...} {}

  static constexpr dim_t ndim() { return N; }
  constexpr size_type extent(dim_t d) const { return extents_[d]; }
  constexpr const std::array<size_type, N>& extents() const { return extents_; }
  // Number of dimensions, N (DASH's; TeamSpec::rank() counts the dimensions that hold more
  // than one unit).
  constexpr dim_t rank() const { return N; }
  // Number of elements (product of the extents).
  constexpr size_type size() const {
    size_type n = 1;
    for (auto e : extents_) n *= e;
    return n;
  }
  // Linear index of coordinates, given as an array or as N integers.
  constexpr index_type at(const std::array<index_type, N>& coords) const {
    return internal::linearize<N, Arr>(coords, extents_);
  }
  template <class... I,
            class = std::enable_if_t<sizeof...(I) == N && N != 0 && (std::is_integral_v<I> && ...)>>
  constexpr index_type at(I... coords) const {
    return at(std::array<index_type, N>{static_cast<index_type>(coords)...});
  }
  // Coordinates of a linear index.
  constexpr std::array<index_type, N> coords(index_type index) const {
    return internal::delinearize<N, Arr>(index, extents_);
  }
  // Coordinates of linear index `index` of a rectangle `view` (a ViewSpec: the index runs over
  // the view's extents in Arrangement order), offset by the view's offsets (DASH's
  // coords(index, viewspec)). Local, O(N).
  template <class View>
  constexpr std::array<index_type, N> coords(index_type index, const View& view) const {
    std::array<size_type, N> view_extents{};
    for (dim_t d = 0; d < N; ++d) view_extents[d] = static_cast<size_type>(view.extent(d));
    auto c = internal::delinearize<N, Arr>(index, view_extents);
    for (dim_t d = 0; d < N; ++d) c[d] += static_cast<index_type>(view.offset(d));
    return c;
  }
  constexpr bool operator==(const CartesianIndexSpace& o) const { return extents_ == o.extents_; }
  constexpr bool operator!=(const CartesianIndexSpace& o) const { return !(*this == o); }

 private:
  std::array<size_type, N> extents_{};
};

// Extents of an N-D index space starting at the origin, linearised row-major.
template <dim_t N, class IndexType = default_index_t>
class SizeSpec : public CartesianIndexSpace<N, ROW_MAJOR, IndexType> {
  using Base = CartesianIndexSpace<N, ROW_MAJOR, IndexType>;

 public:
  using Base::Base;
  using typename Base::size_type;
  constexpr SizeSpec() = default;
  // The same extents with another index or extent type (SizeSpec<2, std::uint64_t> where a
  // pattern takes SizeSpec<2, std::int64_t>, as DASH programs pass it). Local.
  template <class Other, class = std::enable_if_t<!std::is_same_v<Other, IndexType>>>
  constexpr SizeSpec(const SizeSpec<N, Other>& other) : Base(converted(other.extents())) {}

 private:
  template <class E>
  static constexpr std::array<size_type, N> converted(const std::array<E, N>& extents) {
    std::array<size_type, N> out{};
    for (dim_t d = 0; d < N; ++d) out[d] = static_cast<size_type>(extents[d]);
    return out;
  }
};

// One dimension of a rectangle as the range [begin, end) (DASH's ViewSpec::range(d)).
template <class IndexType>
struct ViewRange {
  IndexType begin;
  IndexType end;
};

// A rectangle of an N-D index space: offsets (first coordinates) and extents.
template <dim_t N, class IndexType = default_index_t>
class ViewSpec {
 public:
  using index_type = IndexType;
  using size_type = std::make_unsigned_t<IndexType>;

  constexpr ViewSpec() = default;
  constexpr ViewSpec(const std::array<index_type, N>& offsets,
                     const std::array<size_type, N>& extents)
      : offsets_(offsets), extents_(extents) {}
  // The whole of a SizeSpec.
  constexpr explicit ViewSpec(const SizeSpec<N, IndexType>& size) : extents_(size.extents()) {}

  static constexpr dim_t ndim() { return N; }
  constexpr index_type offset(dim_t d) const { return offsets_[d]; }
  constexpr size_type extent(dim_t d) const { return extents_[d]; }
  constexpr const std::array<index_type, N>& offsets() const { return offsets_; }
  constexpr const std::array<size_type, N>& extents() const { return extents_; }
  // Dimension d as [offset(d), offset(d) + extent(d)). Local.
  constexpr ViewRange<index_type> range(dim_t d) const {
    return ViewRange<index_type>{offsets_[d], offsets_[d] + index_type(extents_[d])};
  }
  constexpr size_type size() const {
    size_type n = 1;
    for (auto e : extents_) n *= e;
    return n;
  }
  // True if coords lie inside the rectangle.
  constexpr bool contains(const std::array<index_type, N>& coords) const {
    for (dim_t d = 0; d < N; ++d) {
      if (coords[d] < offsets_[d] || coords[d] >= offsets_[d] + index_type(extents_[d]))
        return false;
    }
    return true;
  }
  // The rectangle narrowed to offset(d) + rel[d], extent 1, in each of its
  // first `fixed` dimensions (not checked). Local, O(N).
  constexpr ViewSpec leading(const std::array<index_type, N>& rel, dim_t fixed) const {
    ViewSpec r = *this;
    for (dim_t d = 0; d < fixed; ++d) {
      r.offsets_[d] += rel[d];
      r.extents_[d] = 1;
    }
    return r;
  }
  constexpr bool operator==(const ViewSpec& o) const {
    return offsets_ == o.offsets_ && extents_ == o.extents_;
  }
  constexpr bool operator!=(const ViewSpec& o) const { return !(*this == o); }

 private:
  std::array<index_type, N> offsets_{};
  std::array<size_type, N> extents_{};
};

}  // namespace dash

#endif  // DASH__PATTERN__SIZE_SPEC_H_
