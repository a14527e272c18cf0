// A regular decomposition of an N-D box of cells into b blocks (b need not
// equal the unit count), the links between neighbouring blocks, and the
// assignment of blocks to units.
//
//   dash::bp::RegularDecomposer<3> dec({{0, 0, 0}, {64, 64, 64}}, 24);
//   dec.divisions();                 // blocks per dimension, product 24
//   dec.bounds(gid);                 // the cells of block gid: [min, max)
//   dec.neighbors(gid);              // blocks sharing a face (optionally
//                                    // edges and corners), periodic or not
//   dash::bp::owner(gid, 24, units, dash::bp::Assignment::contiguous);
//
// Divisions: unless given, the balanced grid of b blocks (dart_balanced_dims,
// the grid of TeamSpec::balance_extents and DART_UNIT_MAPPING), its largest
// factor along the longest dimension; a cube with b = the unit count and
// contiguous assignment therefore puts block gid on unit gid of the grid the
// unit mapping optimised. A domain too thin for that grid (it would put more
// blocks along a dimension than cells) takes the least-surface grid: of all
// ways to write b (with some divisions given: b over their product, over the
// other dimensions) as a product of per-dimension block counts d_i with
// d_i <= e_i (the dimension's cells), the one whose blocks have the least
// surface, sum of d_i / e_i (the most cube-like blocks); among equal ones
// (to 1 part in 10^12), the one with the most blocks along the longest
// dimension, then the next longest (equal extents: the lower dimension
// first). 36 blocks over 4 x 9 cells: 4 x 9; 72 over 2 x 30 x 30: 1 x 9 x 8;
// 12 over 1 x 50 x 50: 1 x 4 x 3, as 50 x 50 takes 4 x 3. That grid is not
// DART's, so the unit mapping's neighbours do not carry over to it. No such
// grid (a prime b above every extent, or 6 blocks over 2 x 2 cells): the
// constructor throws, naming b and the extents. Along a dimension of
// extent e cut into d parts, part i holds cells [i e / d, (i + 1) e / d): extents differ by at most
// one. Blocks are numbered row-major over the block grid (the last dimension fastest).
//
// | call                            | cost                                |
// |---------------------------------|-------------------------------------|
// | constructor                     | local, O(N sqrt(b)); a thin domain  |
// |                                 | O(sqrt(b) + N t^(N-1)), t the       |
// |                                 | number of divisors of b             |
// | coords / gid / bounds           | local, O(N)                         |
// | neighbors                       | local, O(3^N)                       |
// | owner / local_gids              | local, O(1) / O(blocks of the unit) |
#ifndef DASH__BP__DECOMPOSER_H_
#define DASH__BP__DECOMPOSER_H_

#include <dash/Exception.h>
#include <dash/Types.h>
#include <dash/pattern/BalancedGrid.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace dash {
namespace bp {

// Cells [min[d], max[d]) in every dimension d.
template <dim_t N>
struct Box {
  std::array<long, N> min{};
  std::array<long, N> max{};
  long extent(dim_t d) const { return max[d] - min[d]; }
  long size() const {
    long s = 1;
    for (dim_t d = 0; d < N; ++d) s *= extent(d);
    return s;
  }
  bool contains(const std::array<long, N>& c) const {
    for (dim_t d = 0; d < N; ++d)
      if (c[d] < min[d] || c[d] >= max[d]) return false;
    return true;
  }
  bool operator==(const Box& o) const { return min == o.min && max == o.max; }
};

// How blocks are dealt to units: contiguous (unit u gets blocks
// [u b / P, (u + 1) b / P)) or round-robin (block g to unit g mod P).
enum class Assignment { contiguous, round_robin };

template <dim_t N>
class RegularDecomposer {
 public:
  using coords_type = std::array<int, N>;

  // Cuts `domain` into `nblocks` blocks; `divisions` fixes the blocks per
  // dimension where non-zero (their product must divide nblocks), the rest
  // are chosen. Throws dash::exception::InvalidArgument for an empty domain,
  // nblocks < 1, divisions that do not fit, or more blocks along a
  // dimension than it has cells.
  RegularDecomposer(const Box<N>& domain, int nblocks, std::array<bool, N> periodic = {},
                    coords_type divisions = {})
      : domain_(domain), nblocks_(nblocks), periodic_(periodic), div_(divisions) {
    if (nblocks < 1)
      throw exception::InvalidArgument("dash::bp::RegularDecomposer: " + std::to_string(nblocks) +
                                       " blocks");
    long fixed = 1;
    for (dim_t d = 0; d < N; ++d) {
      if (domain.extent(d) < 1)
        throw exception::InvalidArgument(
            "dash::bp::RegularDecomposer: the domain is empty in "
            "dimension " +
            std::to_string(d));
      if (div_[d] < 0)
        throw exception::InvalidArgument("dash::bp::RegularDecomposer: negative divisions");
      if (div_[d] > 0) fixed *= div_[d];
    }
    if (nblocks % fixed != 0)
      throw exception::InvalidArgument(
          "dash::bp::RegularDecomposer: the given divisions (product " + std::to_string(fixed) +
          ") do not divide " + std::to_string(nblocks) + " blocks");
    std::array<bool, N> free;
    bool any_free = false;
    for (dim_t d = 0; d < N; ++d) {
      free[d] = div_[d] == 0;
      any_free = any_free || free[d];
      if (div_[d] == 0) div_[d] = 1;
    }
    int rest = int(nblocks / fixed);
    if (rest > 1 && !any_free)
      throw exception::InvalidArgument("dash::bp::RegularDecomposer: the given divisions make " +
                                       std::to_string(fixed) + " blocks, not " +
                                       std::to_string(nblocks));
    if (any_free) {
      // The balanced grid of `rest` blocks over the free dimensions, its
      // largest factor along the longest of them.
      std::vector<long> extents;
      for (dim_t d = 0; d < N; ++d)
        if (free[d]) extents.push_back(domain.extent(d));
      const auto factors = dash::internal::balanced_factors_for_extents(std::size_t(rest), extents);
      bool fits = true;
      for (std::size_t i = 0; i < extents.size(); ++i)
        fits = fits && long(factors[i]) <= extents[i];
      std::size_t next = 0;
      for (dim_t d = 0; d < N; ++d)
        if (free[d]) div_[d] = fits ? int(factors[next++]) : 1;
      if (!fits) divide_least_surface(rest, free);
    }
    for (dim_t d = 0; d < N; ++d)
      if (div_[d] > domain.extent(d))
        throw exception::InvalidArgument("dash::bp::RegularDecomposer: " + std::to_string(div_[d]) +
                                         " blocks along dimension " + std::to_string(d) + " of " +
                                         std::to_string(domain.extent(d)) + " cells");
  }

  int nblocks() const { return nblocks_; }
  const Box<N>& domain() const { return domain_; }
  // Blocks per dimension.
  const coords_type& divisions() const { return div_; }

  // Block-grid coordinates of block gid. Local.
  coords_type coords(int gid) const {
    coords_type c;
    for (dim_t d = N; d-- > 0;) {
      c[d] = gid % div_[d];
      gid /= div_[d];
    }
    return c;
  }
  // Block at block-grid coordinates c. Local.
  int gid(const coords_type& c) const {
    int g = 0;
    for (dim_t d = 0; d < N; ++d) g = g * div_[d] + c[d];
    return g;
  }
  // The cells of block gid. Local.
  Box<N> bounds(int gid) const {
    auto c = coords(gid);
    Box<N> b;
    for (dim_t d = 0; d < N; ++d) {
      const long e = domain_.extent(d);
      b.min[d] = domain_.min[d] + long(c[d]) * e / div_[d];
      b.max[d] = domain_.min[d] + long(c[d] + 1) * e / div_[d];
    }
    return b;
  }
  // The blocks next to block gid: sharing a face, or with corners also
  // sharing an edge or corner; across the domain's boundary in periodic
  // dimensions. Each neighbour once, never gid itself, in increasing gid.
  // Local.
  std::vector<int> neighbors(int gid, bool with_corners = false) const {
    const auto c = coords(gid);
    std::vector<int> out;
    std::array<int, N> off;
    off.fill(-1);
    for (;;) {
      int nonzero = 0;
      for (dim_t d = 0; d < N; ++d) nonzero += off[d] != 0;
      if (nonzero > 0 && (with_corners || nonzero == 1)) {
        coords_type n = c;
        bool inside = true;
        for (dim_t d = 0; d < N && inside; ++d) {
          n[d] += off[d];
          if (n[d] < 0 || n[d] >= div_[d]) {
            if (periodic_[d])
              n[d] = (n[d] + div_[d]) % div_[d];
            else
              inside = false;
          }
        }
        if (inside) {
          int g = this->gid(n);
          if (g != gid) out.push_back(g);
        }
      }
      dim_t d = 0;  // next offset vector in {-1, 0, 1}^N
      while (d < N && off[d] == 1) off[d++] = -1;
      if (d == N) break;
      ++off[d];
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

 private:
  // For domains too thin for the balanced grid: the least-surface grid of
  // `rest` blocks over the free dimensions (the rule in the opening
  // comment), into div_; throws InvalidArgument if no grid fits.
  void divide_least_surface(int rest, const std::array<bool, N>& free) {
    // The free dimensions, longest first (equal extents: the lower first):
    // the order in which ties prefer more blocks.
    std::vector<dim_t> dims;
    for (dim_t d = 0; d < N; ++d)
      if (free[d]) dims.push_back(d);
    std::stable_sort(dims.begin(), dims.end(),
                     [&](dim_t a, dim_t b) { return domain_.extent(a) > domain_.extent(b); });
    std::vector<int> divisors;  // of rest, ascending
    for (int k = 1; long(k) * k <= rest; ++k)
      if (rest % k == 0) {
        divisors.push_back(k);
        if (k != rest / k) divisors.push_back(rest / k);
      }
    std::sort(divisors.begin(), divisors.end());
    std::vector<int> counts(dims.size(), 1), best;
    long double best_surface = 0;
    // Counts of dims[i..] whose product is r, on top of `surface` so far.
    auto search = [&](auto&& self, std::size_t i, int r, long double surface) -> void {
      const long extent = domain_.extent(dims[i]);
      if (i + 1 == dims.size()) {
        if (r > extent) return;
        counts[i] = r;
        const long double total = surface + (long double)r / extent;
        const long double tolerance = best_surface * 1e-12L;
        if (best.empty() || total < best_surface - tolerance ||
            (total <= best_surface + tolerance && counts > best)) {
          best = counts;
          best_surface = total;
        }
        return;
      }
      for (int k : divisors) {
        if (k > r || k > extent) break;
        if (r % k != 0) continue;
        counts[i] = k;
        self(self, i + 1, r / k, surface + (long double)k / extent);
      }
    };
    search(search, 0, rest, 0);
    if (best.empty()) {
      std::string extents;
      for (dim_t d = 0; d < N; ++d)
        if (free[d]) extents += (extents.empty() ? "" : " x ") + std::to_string(domain_.extent(d));
      throw exception::InvalidArgument("dash::bp::RegularDecomposer: no grid of " +
                                       std::to_string(rest) + " blocks fits " + extents +
                                       " cells (at most one block per cell along a dimension)");
    }
    for (std::size_t i = 0; i < dims.size(); ++i) div_[dims[i]] = best[i];
  }

  Box<N> domain_;
  int nblocks_;
  std::array<bool, N> periodic_;
  coords_type div_;
};

// The unit that owns block gid of nblocks dealt to nunits units. Local.
inline int owner(int gid, int nblocks, int nunits, Assignment a) {
  if (a == Assignment::round_robin) return gid % nunits;
  return int(((long(gid) + 1) * nunits - 1) / nblocks);
}

// The blocks unit owns, in increasing gid. Local.
inline std::vector<int> local_gids(int unit, int nblocks, int nunits, Assignment a) {
  std::vector<int> out;
  if (a == Assignment::round_robin) {
    for (int g = unit; g < nblocks; g += nunits) out.push_back(g);
  } else {
    for (int g = int(long(unit) * nblocks / nunits); g < int(long(unit + 1) * nblocks / nunits);
         ++g)
      out.push_back(g);
  }
  return out;
}

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__DECOMPOSER_H_
