// DASH's halo layer (dash::halo): stencil points and specs, region numbering and the halo a
// stencil needs; HaloMatrixWrapper + StencilOperator over BlockPattern matrices (row- and
// column-major, 2-D and 3-D, odd extents, units balanced over all dimensions) for every
// boundary kind per dimension (NONE, CYCLIC, CUSTOM) and symmetric, box and asymmetric
// stencils with coefficients:
//   - inner and boundary cells are disjoint, together exactly the block's cells whose stencil
//     stays inside the domain along NONE dimensions; inner cells' stencils stay inside the
//     block; boundary.iterator_at(d, PRE/POST) splits the boundary in order, and
//     iterator_at(region) region by region (each cell once, in its region);
//   - after update() / update_async() + wait() every stencil point of every iterated cell
//     reads the value at its global coordinates (wrapped where CYCLIC, the custom value where
//     CUSTOM); after the owners write new values, a second update reads those;
//   - inner.update and boundary.update compute a weighted stencil equal to a brute-force one;
//   - DASH's region specs from coordinates, NumRegionsMax, halo_block().boundary_dependencies;
//   - units without a block iterate nothing; bad input (several blocks per unit, a stencil
//     wider than the halo, a halo wider than a block it reaches across, a bad dimension or
//     range) throws on every unit.
// Run as is, over MPI RMA only (shm_off) and across emulated nodes (vnode1).
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/halo/HaloMatrixWrapper.h>
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::dim_t;
using dash::halo::BoundaryProp;
using dash::halo::GlobalBoundarySpec;
using dash::halo::HaloMatrixWrapper;
using dash::halo::RegionCoords;
using dash::halo::RegionPos;
using dash::halo::StencilPoint;
using dash::halo::StencilSpec;
using dash_test::myid;
using dash_test::nunits;

// Value at global coordinates g in round r.
template <dim_t N>
long Value(const std::array<long, N>& g, long round) {
  long v = 0;
  for (dim_t d = 0; d < N; ++d) v = v * 100 + g[d];
  return 7 + v * 3 + round * 1000000L;
}
// What a CUSTOM halo cell at (unwrapped) global coordinates g holds.
template <dim_t N>
long CustomValue(const std::array<long, N>& g) {
  long v = -5;
  for (dim_t d = 0; d < N; ++d) v = v * 31 - g[d];
  return v;
}

// Owners write Value(g, round) into their elements, then barrier.
template <class M>
void Fill(M& m, long round) {
  constexpr dim_t N = M::ndim();
  const auto& p = m.pattern();
  for (std::size_t l = 0; l < m.lsize(); ++l) {
    const auto g = p.global(p.myid(), long(l));
    std::array<long, N> c;
    for (dim_t d = 0; d < N; ++d) c[d] = long(g[d]);
    m.lbegin()[l] = Value<N>(c, round);
  }
  m.barrier();
}

// The value a stencil point at global coordinates g reads, or false if the cell at g may not
// be read (beyond a NONE boundary).
template <dim_t N>
bool Expected(std::array<long, N> g, const std::array<long, N>& ext, const GlobalBoundarySpec<N>& b,
              long round, long* out) {
  bool custom = false;
  for (dim_t d = 0; d < N; ++d)
    if (g[d] < 0 || g[d] >= ext[d]) {
      if (b[d] == BoundaryProp::NONE) return false;
      if (b[d] == BoundaryProp::CUSTOM) custom = true;
    }
  if (custom) {
    *out = CustomValue<N>(g);
    return true;
  }
  for (dim_t d = 0; d < N; ++d) g[d] = (g[d] % ext[d] + ext[d]) % ext[d];
  *out = Value<N>(g, round);
  return true;
}

template <class M>
M MakeMatrix(const std::array<long, M::ndim()>& ext) {
  constexpr dim_t N = M::ndim();
  using P = typename M::pattern_type;
  std::array<typename dash::SizeSpec<N>::size_type, N> e;
  std::array<dash::Distribution, N> blocked;
  for (dim_t d = 0; d < N; ++d)
    e[d] = typename dash::SizeSpec<N>::size_type(ext[d]), blocked[d] = dash::BLOCKED;
  const dash::SizeSpec<N> size(e);
  const dash::DistributionSpec<N> dist(blocked);
  dash::TeamSpec<N> ts;
  ts.balance_extents();
  return M(P(size, dist, ts, dash::Team::All()));
}

// Checks every iterated cell of `op` over the wrapper's block (see the top of the file); the
// number of problems, the first few printed.
template <class W, class Op, class Spec>
int CheckOperator(W& w, const Op& op, const Spec& spec, const GlobalBoundarySpec<W::N>& b,
                  long round, const std::string& what) {
  constexpr dim_t N = W::N;
  int bad = 0;
  auto fail = [&](const std::string& msg) {
    if (++bad <= 5) ADD_FAILURE() << what << " unit " << myid() << ": " << msg;
  };
  const auto& m = w.matrix();
  std::array<long, N> ext, lo, e;
  for (dim_t d = 0; d < N; ++d) ext[d] = long(m.extent(d));
  const auto& view = w.view_local();
  long cells = 1;
  for (dim_t d = 0; d < N; ++d)
    lo[d] = long(view.offset(d)), e[d] = long(view.extent(d)), cells *= e[d];
  const auto mm = spec.minmax_distances();
  std::vector<int> seen(std::size_t(cells), 0);
  auto index_of = [&](const std::array<long, N>& c) {
    long k = 0;
    for (dim_t d = 0; d < N; ++d) k = k * e[d] + c[d];
    return k;
  };
  auto visit = [&](auto first, auto last, int mark, bool inner) {
    long pos = first.rpos();
    for (auto it = first; it != last; ++it, ++pos) {
      if (it.rpos() != pos)
        fail("rpos " + std::to_string(it.rpos()) + " at " + std::to_string(pos));
      const auto c = it.coords();
      const auto g = it.gcoords();
      for (dim_t d = 0; d < N; ++d)
        if (c[d] < 0 || c[d] >= e[d] || g[d] != lo[d] + c[d]) return fail("coords out of block");
      seen[std::size_t(index_of(c))] += mark;
      long v = 0;
      Expected<N>(g, ext, b, round, &v);
      if (*it != v) fail("centre " + std::to_string(*it) + " != " + std::to_string(v));
      if (m.lbegin()[it.lpos()] != v) fail("lpos does not address the centre");
      for (std::size_t i = 0; i < spec.num_stencil_points(); ++i) {
        auto gp = g;
        bool in_block = true;
        for (dim_t d = 0; d < N; ++d) {
          gp[d] += spec[i][d];
          in_block = in_block && c[d] + spec[i][d] >= 0 && c[d] + spec[i][d] < e[d];
        }
        if (inner && !in_block) fail("an inner cell's stencil leaves the block");
        long want = 0;
        if (!Expected<N>(gp, ext, b, round, &want)) {
          fail("an iterated cell's stencil reaches beyond a NONE boundary");
          continue;
        }
        if (it.value_at(i) != want)
          fail("point " + std::to_string(i) + " of cell " + std::to_string(index_of(c)) + ": " +
               std::to_string(it.value_at(i)) + " != " + std::to_string(want));
        if (it.value_at(spec[i]) != want) fail("value_at(StencilPoint) differs");
      }
    }
  };
  visit(op.inner.begin(), op.inner.end(), 1, true);
  visit(op.boundary.begin(), op.boundary.end(), 2, false);
  // Which cells must be iterated: their stencil stays inside the domain along NONE dimensions.
  dash::bp::internal::for_each_cell<N>(std::array<long, N>{}, e, [&](const std::array<long, N>& c) {
    bool valid = true;
    for (dim_t d = 0; d < N; ++d)
      if (b[d] == BoundaryProp::NONE)
        valid = valid && lo[d] + c[d] + mm[d].first >= 0 && lo[d] + c[d] + mm[d].second < ext[d];
    const int s = seen[std::size_t(index_of(c))];
    if (valid && s != 1 && s != 2)
      fail("a cell iterated " + std::to_string(s) + " (1 inner, 2 boundary)");
    if (!valid && s != 0) fail("a cell beyond a NONE boundary's reach is iterated");
  });
  // The boxes of iterator_at follow each other and make up the boundary.
  auto at = op.boundary.begin();
  for (dim_t d = 0; d < N; ++d)
    for (auto pos : {RegionPos::PRE, RegionPos::POST}) {
      auto [f, l] = op.boundary.iterator_at(d, pos);
      if (f != at || l < f) fail("iterator_at boxes out of order");
      at = l;
    }
  if (at != op.boundary.end()) fail("iterator_at boxes do not end at boundary.end()");
  if (long(op.boundary.boundary_size()) != op.boundary.end() - op.boundary.begin())
    fail("boundary_size");
  long in_views = 0;
  for (const auto& v : op.boundary.view()) in_views += long(v.size());
  if (in_views != op.boundary.end() - op.boundary.begin()) fail("boundary.view() sizes");
  if (long(op.inner.view().size()) != op.inner.end() - op.inner.begin()) fail("inner.view()");
  if (long(op.view().size()) != op.end() - op.begin()) fail("view()");
  // The whole operator walks the same cells.
  if ((op.end() - op.begin()) !=
      (op.inner.end() - op.inner.begin()) + (op.boundary.end() - op.boundary.begin()))
    fail("begin()/end() count differs from inner + boundary");
  std::vector<int> all(std::size_t(cells), 0);
  for (auto it = op.begin(); it != op.end(); ++it) all[std::size_t(index_of(it.coords()))]++;
  for (long k = 0; k < cells; ++k)
    if ((all[std::size_t(k)] != 0) != (seen[std::size_t(k)] != 0)) fail("begin()/end() cells");
  // Region by region (DASH's boundary.iterator_at(region)): every boundary cell once, in the
  // region its place says (per dimension 0 where its stencil leaves the block before it, 2
  // where after it, else 1), reading the same values; the centre has none.
  std::vector<int> by_region(std::size_t(cells), 0);
  for (unsigned r = 0; r < dash::halo::NumRegionsMax<N>; ++r) {
    auto [f, l] = op.boundary.iterator_at(r);
    if (r == RegionCoords<N>::CenterIndex && f != l) fail("the centre region has cells");
    for (auto it = f; it != l; ++it) {
      const auto c = it.coords();
      typename RegionCoords<N>::coords_type want;
      for (dim_t d = 0; d < N; ++d)
        want[std::size_t(d)] = c[d] + mm[d].first < 0 ? 0 : c[d] + mm[d].second >= e[d] ? 2 : 1;
      if (RegionCoords<N>(want).index() != r)
        fail("cell " + std::to_string(index_of(c)) + " iterated in region " + std::to_string(r) +
             ", it lies in " + std::to_string(RegionCoords<N>(want).index()));
      by_region[std::size_t(index_of(c))]++;
    }
    visit(f, l, 0, false);
  }
  for (long k = 0; k < cells; ++k)
    if (by_region[std::size_t(k)] != (seen[std::size_t(k)] == 2 ? 1 : 0))
      fail("region by region, cell " + std::to_string(k) + " is iterated " +
           std::to_string(by_region[std::size_t(k)]) + " times");
  // Random access agrees with walking.
  const long n = op.boundary.end() - op.boundary.begin();
  for (long k = 0; k < n; k += 3) {
    auto it = op.boundary.begin() + k;
    auto walked = op.boundary.begin();
    for (long j = 0; j < k; ++j) ++walked;
    if (it.coords() != walked.coords() || it.rpos() != k) fail("it + k differs from k steps");
  }
  return bad;
}

// dst = centre + sum of coefficient * point over every iterated cell, by inner.update and
// boundary.update, against the brute force.
template <class W, class Op, class Spec>
int CheckUpdate(W& w, const Op& op, const Spec& spec, const GlobalBoundarySpec<W::N>& b,
                long round) {
  constexpr dim_t N = W::N;
  const auto& m = w.matrix();
  std::vector<double> dst(m.lsize() + 1, -1.0);
  op.inner.update(dst.data(), [&](long* center, double* out, long offset, const auto& offsets) {
    double v = double(*center);
    for (std::size_t i = 0; i < spec.num_stencil_points(); ++i)
      v += spec[i].coefficient() * double(center[offsets[i]]);
    *out = v;
    (void)offset;
  });
  // boundary.update writes into an element type of the matrix's kind: a second buffer.
  std::vector<long> dst_b(m.lsize() + 1, -1);
  op.boundary.update(dst_b.data(), [&](auto& it) {
    double v = double(*it);
    for (std::size_t i = 0; i < spec.num_stencil_points(); ++i)
      v += spec[i].coefficient() * double(it.value_at(i));
    return long(v * 4);
  });
  int bad = 0;
  std::array<long, N> ext;
  for (dim_t d = 0; d < N; ++d) ext[d] = long(m.extent(d));
  auto reference = [&](const std::array<long, N>& g) {
    long c = 0;
    Expected<N>(g, ext, b, round, &c);
    double v = double(c);
    for (std::size_t i = 0; i < spec.num_stencil_points(); ++i) {
      auto gp = g;
      for (dim_t d = 0; d < N; ++d) gp[d] += spec[i][d];
      long x = 0;
      Expected<N>(gp, ext, b, round, &x);
      v += spec[i].coefficient() * double(x);
    }
    return v;
  };
  for (auto it = op.inner.begin(); it != op.inner.end(); ++it)
    if (dst[std::size_t(it.lpos())] != reference(it.gcoords()) && ++bad <= 5)
      ADD_FAILURE() << "inner.update at lpos " << it.lpos();
  for (auto it = op.boundary.begin(); it != op.boundary.end(); ++it)
    if (dst_b[std::size_t(it.lpos())] != long(reference(it.gcoords()) * 4) && ++bad <= 5)
      ADD_FAILURE() << "boundary.update at lpos " << it.lpos();
  // get_value_at (element arithmetic: integral coefficients only) agrees with the reference.
  bool integral = true;
  for (std::size_t i = 0; i < spec.num_stencil_points(); ++i)
    integral = integral && spec[i].coefficient() == double(long(spec[i].coefficient()));
  if (integral && op.inner.begin() != op.inner.end()) {
    auto it = op.inner.begin() + (op.inner.end() - op.inner.begin()) / 2;
    if (double(op.inner.get_value_at(it.coords(), 1L)) != reference(it.gcoords()) && ++bad)
      ADD_FAILURE() << "inner.get_value_at at lpos " << it.lpos();
  }
  if (integral && op.boundary.begin() != op.boundary.end()) {
    auto it = op.boundary.begin();
    if (double(op.boundary.get_value_at(it.coords(), 1L)) != reference(it.gcoords()) && ++bad)
      ADD_FAILURE() << "boundary.get_value_at at lpos " << it.lpos();
  }
  return bad;
}

template <class M, class Spec>
void RunCase(const std::array<long, M::ndim()>& ext, const GlobalBoundarySpec<M::ndim()>& b,
             const Spec& spec, const std::string& what) {
  M m = MakeMatrix<M>(ext);
  Fill(m, 1);
  HaloMatrixWrapper<M> w(m, b, spec);
  w.set_custom_halos([](const std::array<dash::default_index_t, M::ndim()>& g) {
    std::array<long, M::ndim()> c;
    for (dim_t d = 0; d < M::ndim(); ++d) c[d] = long(g[d]);
    return CustomValue<M::ndim()>(c);
  });
  auto op = w.stencil_operator(spec);
  w.update_async();
  while (!w.test()) {
  }
  EXPECT_EQ(0, CheckOperator(w, op, spec, b, 1, what + " round 1"));
  EXPECT_EQ(0, CheckUpdate(w, op, spec, b, 1)) << what;
  m.barrier();  // everyone read round 1 before it is overwritten
  Fill(m, 2);
  w.update();
  EXPECT_EQ(0, CheckOperator(w, op, spec, b, 2, what + " round 2"));
  m.barrier();
}

using Row2 = dash::NArray<long, 2>;
using Col2 = dash::NArray<long, 2, dash::default_index_t, dash::BlockPattern<2, dash::COL_MAJOR>>;
using Row3 = dash::NArray<long, 3>;
using P2 = StencilPoint<2>;
using P3 = StencilPoint<3>;

const std::vector<std::pair<GlobalBoundarySpec<2>, std::string>>& Bounds2() {
  static const std::vector<std::pair<GlobalBoundarySpec<2>, std::string>> b = {
      {{BoundaryProp::NONE, BoundaryProp::NONE}, "NONE,NONE"},
      {{BoundaryProp::CYCLIC, BoundaryProp::CYCLIC}, "CYCLIC,CYCLIC"},
      {{BoundaryProp::CYCLIC, BoundaryProp::NONE}, "CYCLIC,NONE"},
      {{BoundaryProp::CUSTOM, BoundaryProp::CYCLIC}, "CUSTOM,CYCLIC"},
      {{BoundaryProp::NONE, BoundaryProp::CUSTOM}, "NONE,CUSTOM"},
      {{BoundaryProp::CUSTOM, BoundaryProp::CUSTOM}, "CUSTOM,CUSTOM"}};
  return b;
}

template <class M>
void RunAll2D() {
  const StencilSpec<P2, 4> cross(P2(-1, 0), P2(1, 0), P2(0, -1), P2(0, 1));
  const StencilSpec<P2, 8> box(P2(-1, -1), P2(-1, 0), P2(-1, 1), P2(0, -1), P2(0, 1), P2(1, -1),
                               P2(1, 0), P2(1, 1));
  const StencilSpec<P2, 3> skew(P2(0.5, -2, 0), P2(2, 0, 1), P2(-1, 1, -1));
  for (const auto& [b, name] : Bounds2()) {
    RunCase<M>({13, 11}, b, cross, "cross " + name);
    RunCase<M>({13, 11}, b, box, "box " + name);
    RunCase<M>({13, 11}, b, skew, "skew " + name);
  }
}

TEST(HaloTypes, SpecsAndRegions) {
  const GlobalBoundarySpec<3> none;
  for (dim_t d = 0; d < 3; ++d) EXPECT_EQ(BoundaryProp::NONE, none[d]);
  const GlobalBoundarySpec<3> mix(BoundaryProp::CYCLIC, BoundaryProp::NONE, BoundaryProp::CUSTOM);
  EXPECT_EQ(BoundaryProp::CYCLIC, mix[0]);
  EXPECT_EQ(BoundaryProp::CUSTOM, mix[2]);

  using RC = RegionCoords<3>;
  EXPECT_EQ(27u, RC::NumRegionsMax);
  EXPECT_EQ(13u, RC::CenterIndex);
  EXPECT_EQ(1u * 9 + 0 * 3 + 2, RC({1, 0, 2}).index());
  EXPECT_EQ(RC({2, 0, 1}), RC(2 * 9 + 0 * 3 + 1));
  EXPECT_EQ(RC({1, 1, 0}).index(), RC::index(2, RegionPos::PRE));
  EXPECT_EQ(RC({2, 1, 1}).index(), RC::index(0, RegionPos::POST));

  constexpr StencilPoint<2> p(-1, 2);
  static_assert(p[0] == -1 && p[1] == 2 && p.max() == 2 && p.coefficient() == 1.0);
  constexpr StencilPoint<2> q(0.25, 3, -1);
  static_assert(q[0] == 3 && q.coefficient() == 0.25);
  constexpr StencilSpec<StencilPoint<2>, 2> s(p, q);
  static_assert(s.num_stencil_points() == 2);
  static_assert(s.minmax_distances()[0].first == -1 && s.minmax_distances()[0].second == 3);
  static_assert(s.minmax_distances()[1].first == -1 && s.minmax_distances()[1].second == 2);
  EXPECT_EQ(1u, s.index(StencilPoint<2>(3, -1)).first);
  EXPECT_FALSE(s.index(StencilPoint<2>(0, 0)).second);

  // (-2, 0, -1) reaches 2 cells before the block along dimension 0, and along 0 and 2, and 1
  // before it along 2; nothing else.
  const dash::halo::HaloSpec<3> h(StencilSpec<P3, 1>(P3(-2, 0, -1)));
  for (unsigned r = 0; r < RC::MaxIndex; ++r) {
    int want = 0;
    if (r == RC({0, 1, 1}).index() || r == RC({0, 1, 0}).index()) want = 2;
    if (r == RC({1, 1, 0}).index()) want = 1;
    EXPECT_EQ(want, h.extent(r)) << "region " << r;
  }
  EXPECT_EQ(2, h.width());
  EXPECT_TRUE(h.needs_corners());
  // Two stencils: the larger reach per region.
  const dash::halo::HaloSpec<2> two(StencilSpec<P2, 1>(P2(1, 0)),
                                    StencilSpec<P2, 2>(P2(3, 0), P2(0, -1)));
  EXPECT_EQ(3, two.extent(RegionCoords<2>({2, 1}).index()));
  EXPECT_EQ(1, two.extent(RegionCoords<2>({1, 0}).index()));
  EXPECT_FALSE(two.needs_corners());
}

TEST(HaloTypes, DashRegionSpecsFromCoordinates) {
  static_assert(dash::halo::NumRegionsMax<1> == 3);
  static_assert(dash::halo::NumRegionsMax<2> == 9);
  static_assert(dash::halo::NumRegionsMax<3> == 27);
  using RS = dash::halo::RegionSpec<3>;
  // (0, 1, 2): before the block along 0, after it along 2: index 0 * 9 + 1 * 3 + 2 = 5.
  const RS a({0, 1, 2}, 2);
  EXPECT_EQ(5u, a.index());
  EXPECT_EQ(2, a.extent());
  const dash::halo::HaloSpec<3> h(RS({0, 1, 2}, 2), RS({2, 2, 2}, 1), RS({1, 1, 0}, 3));
  for (unsigned r = 0; r < 27; ++r) {
    const int want = r == 5 ? 2 : r == 26 ? 1 : r == 12 ? 3 : 0;
    EXPECT_EQ(want, h.extent(r)) << "region " << r;
  }
  EXPECT_EQ(RegionCoords<3>({2, 2, 2}), h.spec(26).coords());
  EXPECT_THROW(RS({0, 3, 1}, 1), dash::exception::InvalidArgument);
  EXPECT_THROW(RS(27u, 1), dash::exception::InvalidArgument);
  EXPECT_THROW(RS({1, 1, 0}, -1), dash::exception::InvalidArgument);
}

TEST(HaloWrapper, BoundaryDependenciesOfRegions) {
  auto m = MakeMatrix<Row3>({7, 6, 5});
  std::array<P3, 26> pts;
  int n = 0;
  for (int i = -1; i <= 1; ++i)
    for (int j = -1; j <= 1; ++j)
      for (int k = -1; k <= 1; ++k)
        if (i || j || k) pts[std::size_t(n++)] = P3(i, j, k);
  const StencilSpec<P3, 26> all(pts);
  const StencilSpec<P3, 6> faces(P3(-1, 0, 0), P3(1, 0, 0), P3(0, -1, 0), P3(0, 1, 0), P3(0, 0, -1),
                                 P3(0, 0, 1));
  using Dep = std::vector<unsigned>;
  {
    HaloMatrixWrapper<Row3> w(m, all);
    const auto& block = w.halo_block();
    EXPECT_EQ(block.view(), w.view_local());
    // Corner (0, 0, 0): itself, then (1, 0, 0) = 9, (1, 1, 0) = 12, (1, 0, 1) = 10,
    // (0, 1, 0) = 3, (0, 1, 1) = 4, (0, 0, 1) = 1 (depth first, lower dimensions first).
    EXPECT_EQ(Dep({0, 9, 12, 10, 3, 4, 1}), block.boundary_dependencies(0));
    // Edge (2, 1, 0) = 21: itself, (1, 1, 0) = 12, (2, 1, 1) = 22.
    EXPECT_EQ(Dep({21, 12, 22}), block.boundary_dependencies(21));
    EXPECT_EQ(Dep({4}), block.boundary_dependencies(4));  // a face: itself
    EXPECT_EQ(Dep(), block.boundary_dependencies(13));    // the centre: none
    EXPECT_THROW(block.boundary_dependencies(27), dash::exception::OutOfRange);
  }
  {
    // Faces only: the halo reaches no edge or corner, so those drop out.
    HaloMatrixWrapper<Row3> w(m, faces);
    const auto& block = w.halo_block();
    EXPECT_EQ(Dep({12, 10, 4}), block.boundary_dependencies(0));
    EXPECT_EQ(Dep({12, 22}), block.boundary_dependencies(21));
    EXPECT_EQ(Dep({14}), block.boundary_dependencies(14));
  }
  {
    // One point, (0, 0, 1): only region (1, 1, 2) = 14 has a halo.
    HaloMatrixWrapper<Row3> w(m, StencilSpec<P3, 1>(P3(0, 0, 1)));
    const auto& block = w.halo_block();
    for (unsigned r = 0; r < 27; ++r) {
      const bool reaches_14 = r == 14 || r == 5 || r == 17 || r == 23 || r == 2 || r == 8 ||
                              r == 20 || r == 26 || r == 11;  // regions with coordinate 2 last
      EXPECT_EQ(reaches_14 ? Dep({14}) : Dep(), block.boundary_dependencies(r)) << "region " << r;
    }
  }
  m.barrier();
}

TEST(HaloWrapper, RowMajor2D) { RunAll2D<Row2>(); }
TEST(HaloWrapper, ColumnMajor2D) { RunAll2D<Col2>(); }

TEST(HaloWrapper, ThreeD) {
  const StencilSpec<P3, 6> faces(P3(-1, 0, 0), P3(1, 0, 0), P3(0, -1, 0), P3(0, 1, 0), P3(0, 0, -1),
                                 P3(0, 0, 1));
  std::array<P3, 26> pts;
  int n = 0;
  for (int i = -1; i <= 1; ++i)
    for (int j = -1; j <= 1; ++j)
      for (int k = -1; k <= 1; ++k)
        if (i || j || k) pts[std::size_t(n++)] = P3(i, j, k);
  const StencilSpec<P3, 26> all(pts);
  const std::vector<std::pair<GlobalBoundarySpec<3>, std::string>> bounds = {
      {{BoundaryProp::NONE, BoundaryProp::NONE, BoundaryProp::NONE}, "NONE^3"},
      {{BoundaryProp::CYCLIC, BoundaryProp::CYCLIC, BoundaryProp::CYCLIC}, "CYCLIC^3"},
      {{BoundaryProp::NONE, BoundaryProp::CYCLIC, BoundaryProp::CUSTOM}, "NONE,CYCLIC,CUSTOM"}};
  for (const auto& [b, name] : bounds) {
    RunCase<Row3>({7, 6, 5}, b, faces, "faces " + name);
    RunCase<Row3>({7, 6, 5}, b, all, "26 points " + name);
  }
}

TEST(HaloWrapper, UnitsWithoutBlock) {
  // Two rows over all units in dimension 0: units 2 and 3 hold nothing.
  dash::TeamSpec<2> ts(nunits(), 1);
  Row2 m(dash::BlockPattern<2>(dash::SizeSpec<2>(2, 9), dash::DistributionSpec<2>(), ts,
                               dash::Team::All()));
  Fill(m, 1);
  const GlobalBoundarySpec<2> b(BoundaryProp::CYCLIC, BoundaryProp::NONE);
  const StencilSpec<P2, 4> cross(P2(-1, 0), P2(1, 0), P2(0, -1), P2(0, 1));
  HaloMatrixWrapper<Row2> w(m, b, cross);
  auto op = w.stencil_operator(cross);
  w.update();
  EXPECT_EQ(myid() < 2, w.local_block() != nullptr);
  if (myid() >= 2) {
    EXPECT_TRUE(op.inner.begin() == op.inner.end());
    EXPECT_TRUE(op.begin() == op.end());
  }
  EXPECT_EQ(0, CheckOperator(w, op, cross, b, 1, "units without block"));
  m.barrier();
}

TEST(HaloWrapper, BadInputThrowsOnEveryUnit) {
  const StencilSpec<P2, 4> cross(P2(-1, 0), P2(1, 0), P2(0, -1), P2(0, 1));
  // Several blocks per unit.
  Row2 cyclic(dash::BlockPattern<2>(dash::SizeSpec<2>(13, 11),
                                    dash::DistributionSpec<2>(dash::BLOCKCYCLIC(2), dash::NONE),
                                    dash::TeamSpec<2>(), dash::Team::All()));
  EXPECT_THROW(HaloMatrixWrapper<Row2>(cyclic, cross), dash::exception::InvalidArgument);
  // A halo wider than the one-row blocks it reaches across (cyclic: even with one unit).
  Row2 thin(dash::BlockPattern<2>(dash::SizeSpec<2>(nunits(), 8), dash::DistributionSpec<2>(),
                                  dash::TeamSpec<2>(nunits(), 1), dash::Team::All()));
  const StencilSpec<P2, 1> far(P2(2, 0));
  EXPECT_THROW(HaloMatrixWrapper<Row2>(
                   thin, GlobalBoundarySpec<2>(BoundaryProp::CYCLIC, BoundaryProp::NONE), far),
               dash::exception::InvalidArgument);
  // A stencil reaching past the wrapper's halo.
  Row2 m = MakeMatrix<Row2>({13, 11});
  HaloMatrixWrapper<Row2> w(m, cross);
  EXPECT_THROW(w.stencil_operator(StencilSpec<P2, 1>(P2(-1, -1))),
               dash::exception::InvalidArgument);
  EXPECT_THROW(w.stencil_operator(StencilSpec<P2, 1>(P2(0, 2))), dash::exception::InvalidArgument);
  auto op = w.stencil_operator(cross);
  EXPECT_THROW(op.boundary.iterator_at(2, RegionPos::PRE), dash::exception::InvalidArgument);
  EXPECT_THROW(op.boundary.iterator_at(-1, RegionPos::POST), dash::exception::InvalidArgument);
  EXPECT_THROW(op.boundary.iterator_at(9u), dash::exception::OutOfRange);
  std::vector<long> dst(m.lsize() + 1);
  if (op.inner.begin() != op.inner.end()) {
    EXPECT_THROW(op.inner.update(op.inner.end(), op.inner.begin(), dst.data(),
                                 [](long*, long*, long, const auto&) {}),
                 dash::exception::InvalidArgument);
  }
  m.barrier();
}

}  // namespace
