// dash::Domain<N, Index>: an N-dimensional box of indices, given per dimension
// as {first, last} (exclusive), which a program can move (translate), grow
// (expand) or resize; DASH's <dash/Domain.h>. All calls are local.
//
//   dash::Domain<2, int> box({{0, 10}, {5, 8}});   // offsets (0, 5), extents (10, 3)
//   box.translate({1, 0}).expand({0, 2});         // offsets (1, 5), extents (10, 5)
#ifndef DASH__DOMAIN_H_
#define DASH__DOMAIN_H_

#include <dash/Exception.h>
#include <dash/Types.h>

#include <array>
#include <cstddef>
#include <initializer_list>
#include <ostream>
#include <string>

namespace dash {

template <dim_t N, class Index = default_index_t>
class Domain {
 public:
  // The box of the given {first, last} ranges, one per dimension. Throws
  // dash::exception::InvalidArgument for another number of ranges or a range
  // whose last is before its first.
  Domain(std::initializer_list<std::array<Index, 2>> ranges) {
    if (ranges.size() != N)
      throw exception::InvalidArgument("dash::Domain: " + std::to_string(ranges.size()) +
                                       " ranges given for " + std::to_string(N) + " dimensions");
    dim_t d = 0;
    for (const auto& r : ranges) {
      if (r[1] < r[0])
        throw exception::InvalidArgument("dash::Domain: range " + std::to_string(d) +
                                         " ends before it begins");
      offsets_[d] = r[0];
      extents_[d] = r[1] - r[0];
      ++d;
    }
  }

  // Moves the box by the given offsets.
  Domain& translate(const std::array<Index, N>& by) {
    for (dim_t d = 0; d < N; ++d) offsets_[d] += by[d];
    return *this;
  }
  // Grows (or, with negative values, shrinks) the extents by the given amounts.
  Domain& expand(const std::array<Index, N>& by) {
    for (dim_t d = 0; d < N; ++d) extents_[d] += by[d];
    return *this;
  }
  // Sets the extents.
  Domain& resize(const std::array<Index, N>& extents) {
    extents_ = extents;
    return *this;
  }

  Index offset(dim_t d) const { return offsets_[d]; }
  const std::array<Index, N>& offsets() const { return offsets_; }
  Index extent(dim_t d) const { return extents_[d]; }
  const std::array<Index, N>& extents() const { return extents_; }
  // Number of indices in the box.
  Index size() const {
    Index n = 1;
    for (Index e : extents_) n *= e;
    return n;
  }

  friend bool operator==(const Domain& a, const Domain& b) {
    return a.offsets_ == b.offsets_ && a.extents_ == b.extents_;
  }
  friend bool operator!=(const Domain& a, const Domain& b) { return !(a == b); }

 private:
  std::array<Index, N> offsets_{};
  std::array<Index, N> extents_{};
};

// Writes "dash::Domain(extents(e0, e1, ...), offsets(o0, o1, ...))".
template <dim_t N, class Index>
std::ostream& operator<<(std::ostream& os, const Domain<N, Index>& dom) {
  os << "dash::Domain(extents(";
  for (dim_t d = 0; d < N; ++d) os << (d ? ", " : "") << dom.extent(d);
  os << "), offsets(";
  for (dim_t d = 0; d < N; ++d) os << (d ? ", " : "") << dom.offset(d);
  return os << "))";
}

}  // namespace dash

#endif  // DASH__DOMAIN_H_
