// dash::bp::kdtree, checked by brute force on every unit: the boxes tile the
// domain (no overlap, volumes add up), every point is in its block's box and
// none is lost or doubled, and each block's links (in the returned tree and
// in the master) are exactly the blocks whose boxes meet its own, with and
// without wrap; in 2-D and 3-D, for 1 to 16 blocks per unit (powers of two
// and not), uniform and skewed clouds, equal and no points, points on the
// domain's faces, every fan-in, one block in memory; bad input throws on
// every unit.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/bp/KdTree.h>
#include <dash/bp/Master.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::bp::Assignment;
using dash::bp::ContinuousBox;
using dash::bp::KdTree;
using dash::bp::Master;
using dash_test::myid;
using dash_test::nunits;

template <int N>
struct Point {
  double x[N];
  std::uint64_t id;
  double operator[](int d) const { return x[d]; }
};

template <int N>
struct Cloud {
  std::vector<Point<N>> points;
};

}  // namespace

template <int N>
struct dash::bp::Serialization<Cloud<N>> {
  static void save(MemoryBuffer& buf, const Cloud<N>& c) { dash::bp::save(buf, c.points); }
  static void load(MemoryBuffer& buf, Cloud<N>& c) { dash::bp::load(buf, c.points); }
};

namespace {

std::uint64_t Mix(std::uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ull;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dull;
  return x ^ (x >> 33);
}

// Uniform in [0, 1).
double Unit(std::uint64_t i, int d) {
  return double(Mix(i * 8 + std::uint64_t(d) + 1) >> 11) * 0x1.0p-53;
}

enum class Shape { uniform, corner, equal, none };

const char* Name(Shape s) {
  switch (s) {
    case Shape::uniform:
      return "uniform";
    case Shape::corner:
      return "all in one corner";
    case Shape::equal:
      return "all equal";
    default:
      return "no points";
  }
}

template <int N>
ContinuousBox<N> Domain() {
  ContinuousBox<N> d;
  const double lo[3] = {-1.0, 0.25, 10.0}, hi[3] = {3.0, 1.75, 11.0};
  for (int i = 0; i < N; ++i) d.min[i] = lo[i], d.max[i] = hi[i];
  return d;
}

// Point i of a cloud of this shape in the domain: uniform (every 37th on
// a lower face of the domain, every 41st on an upper one), packed near the
// lower corner (u^8), or all at one place.
template <int N>
Point<N> MakePoint(Shape shape, std::uint64_t i) {
  const ContinuousBox<N> dom = Domain<N>();
  Point<N> p;
  p.id = i;
  for (int d = 0; d < N; ++d) {
    double u = Unit(i, d);
    if (shape == Shape::corner) u = std::pow(u, 8.0);
    if (shape == Shape::equal) u = 0.3;
    if (shape == Shape::uniform && i % 37 == 0 && std::uint64_t(d) == i / 37 % N) u = 0;
    if (shape == Shape::uniform && i % 41 == 0 && std::uint64_t(d) == i / 41 % N) u = 1;
    p.x[d] = u == 1 ? dom.max[d] : dom.min[d] + u * (dom.max[d] - dom.min[d]);
  }
  return p;
}

// Block gid starts with points [gid n / nb, (gid + 1) n / nb).
template <int N>
std::unique_ptr<Master<Cloud<N>>> MakeMaster(int nb, std::uint64_t n, Shape shape,
                                             Assignment a = Assignment::contiguous) {
  auto master = std::make_unique<Master<Cloud<N>>>(nb, a);
  if (shape == Shape::none) n = 0;
  for (int gid : dash::bp::local_gids(myid(), nb, nunits(), a)) {
    auto c = std::make_unique<Cloud<N>>();
    for (std::uint64_t i = n * std::uint64_t(gid) / std::uint64_t(nb);
         i < n * std::uint64_t(gid + 1) / std::uint64_t(nb); ++i)
      c->points.push_back(MakePoint<N>(shape, i));
    master->add(gid, std::move(c), {});
  }
  return master;
}

template <int N>
double Volume(const ContinuousBox<N>& b) {
  double v = 1;
  for (int d = 0; d < N; ++d) v *= std::max(0.0, b.max[d] - b.min[d]);
  return v;
}

template <int N>
double OverlapVolume(const ContinuousBox<N>& a, const ContinuousBox<N>& b) {
  double v = 1;
  for (int d = 0; d < N; ++d)
    v *= std::max(0.0, std::min(a.max[d], b.max[d]) - std::max(a.min[d], b.min[d]));
  return v;
}

// Every block's box, by gid, on every unit.
template <int N>
std::vector<ContinuousBox<N>> GatherBoxes(Master<Cloud<N>>& master, const KdTree<N>& tree) {
  const int nb = master.nblocks();
  std::vector<double> mine(std::size_t(nb) * (2 * N + 1), 0.0), all(mine.size());
  for (std::size_t i = 0; i < master.size(); ++i) {
    const int gid = master.gid(i);
    double* at = &mine[std::size_t(gid) * (2 * N + 1)];
    const ContinuousBox<N>& b = tree.at(gid).bounds;
    for (int d = 0; d < N; ++d) at[d] = b.min[d], at[N + d] = b.max[d];
    at[2 * N] = 1;
  }
  dash::internal::check_dart(dart_allreduce(mine.data(), all.data(), mine.size(), DART_TYPE_DOUBLE,
                                            DART_OP_SUM, DART_TEAM_ALL),
                             "boxes");
  std::vector<ContinuousBox<N>> boxes(static_cast<std::size_t>(nb));
  for (int gid = 0; gid < nb; ++gid) {
    const double* at = &all[std::size_t(gid) * (2 * N + 1)];
    EXPECT_EQ(at[2 * N], 1.0) << "block " << gid << " is not on exactly one unit";
    for (int d = 0; d < N; ++d) boxes[std::size_t(gid)].min[d] = at[d];
    for (int d = 0; d < N; ++d) boxes[std::size_t(gid)].max[d] = at[N + d];
  }
  return boxes;
}

struct Balance {
  std::uint64_t max = 0, min = 0, total = 0;
};

// The brute-force checks; returns the most and fewest points of a block.
template <int N>
Balance CheckTree(Master<Cloud<N>>& master, const KdTree<N>& tree, bool wrap, std::uint64_t n,
                  Shape shape) {
  const ContinuousBox<N> dom = Domain<N>();
  if (shape == Shape::none) n = 0;
  EXPECT_EQ(tree.size(), master.size());
  const std::vector<ContinuousBox<N>> boxes = GatherBoxes(master, tree);
  const int nb = master.nblocks();
  double volume = 0;
  for (int g = 0; g < nb; ++g) {
    const ContinuousBox<N>& b = boxes[std::size_t(g)];
    volume += Volume(b);
    for (int d = 0; d < N; ++d) {
      EXPECT_LE(dom.min[d], b.min[d]) << "block " << g << " leaves the domain";
      EXPECT_LE(b.min[d], b.max[d]) << "block " << g << " is inside out";
      EXPECT_LE(b.max[d], dom.max[d]) << "block " << g << " leaves the domain";
    }
    for (int h = g + 1; h < nb; ++h)
      EXPECT_EQ(OverlapVolume(b, boxes[std::size_t(h)]), 0.0)
          << "blocks " << g << " and " << h << " overlap";
  }
  EXPECT_NEAR(volume, Volume(dom), 1e-9 * Volume(dom)) << "the boxes do not tile the domain";

  // Points: each in its block's box; all there once (count and a sum of
  // hashes of the ids).
  std::uint64_t sums[2] = {0, 0}, all[2];
  std::uint64_t most = 0, fewest = n;  // n, not 2^64 - 1: MPICH's MPI_MIN takes that as -1
  for (std::size_t i = 0; i < master.size(); ++i) {
    const int gid = master.gid(i);
    const auto& points = master.block(i).points;
    most = std::max<std::uint64_t>(most, points.size());
    fewest = std::min<std::uint64_t>(fewest, points.size());
    for (const Point<N>& p : points) {
      EXPECT_TRUE(dash::bp::box_holds<N>(boxes[std::size_t(gid)], dom, p))
          << "point " << p.id << " is not in the box of block " << gid;
      sums[0] += 1;
      sums[1] += Mix(p.id + 1);
    }
    // Links: exactly the blocks whose boxes meet its own (itself if its box
    // wraps onto itself), in the tree and in the master.
    std::vector<int> expected;
    for (int h = 0; h < nb; ++h)
      if (dash::bp::boxes_meet<N>(boxes[std::size_t(gid)], boxes[std::size_t(h)], dom, wrap,
                                  h == gid))
        expected.push_back(h);
    const auto& t = tree.at(gid);
    EXPECT_EQ(t.link, expected) << "links of block " << gid;
    EXPECT_EQ(master.proxy(i).link(), expected) << "the master's links of block " << gid;
    EXPECT_EQ(t.link_bounds.size(), t.link.size());
    for (std::size_t j = 0; j < t.link.size() && j < t.link_bounds.size(); ++j)
      EXPECT_TRUE(t.link_bounds[j] == boxes[std::size_t(t.link[j])])
          << "block " << gid << "'s bounds of link " << t.link[j];
  }
  dash::internal::check_dart(
      dart_allreduce(sums, all, 2, DART_TYPE_ULONGLONG, DART_OP_SUM, DART_TEAM_ALL), "sums");
  std::uint64_t expected_hash = 0;
  for (std::uint64_t i = 0; i < n; ++i) expected_hash += Mix(i + 1);
  EXPECT_EQ(all[0], n) << "points lost or doubled";
  EXPECT_EQ(all[1], expected_hash) << "points lost or doubled";
  Balance b;
  dash::internal::check_dart(
      dart_allreduce(&most, &b.max, 1, DART_TYPE_ULONGLONG, DART_OP_MAX, DART_TEAM_ALL), "max");
  dash::internal::check_dart(
      dart_allreduce(&fewest, &b.min, 1, DART_TYPE_ULONGLONG, DART_OP_MIN, DART_TEAM_ALL), "min");
  b.total = all[0];
  return b;
}

template <int N>
void SweepBlockCounts(bool wrap, Shape shape) {
  for (int per_unit : {1, 2, 3, 5, 16}) {
    const int nb = per_unit * nunits();
    const std::uint64_t n = 400 * std::uint64_t(nb) + 7;
    SCOPED_TRACE(std::to_string(N) + "-D, " + std::to_string(nb) + " blocks, " +
                 (wrap ? "wrap, " : "") + Name(shape));
    auto master = MakeMaster<N>(nb, n, shape);
    const KdTree<N> tree = dash::bp::kdtree(*master, Domain<N>(), &Cloud<N>::points, 256, wrap);
    const Balance b = CheckTree(*master, tree, wrap, n, shape);
    if (shape == Shape::uniform) {  // the cuts follow the points: blocks about equal
      const double mean = double(n) / nb;
      EXPECT_LE(double(b.max), 1.15 * mean + 8) << "most points in a block";
      EXPECT_GE(double(b.min), 0.85 * mean - 8) << "fewest points in a block";
    }
  }
}

TEST(BlocksKdTree, BruteForce_2D) {
  for (bool wrap : {false, true})
    for (Shape shape : {Shape::uniform, Shape::corner}) SweepBlockCounts<2>(wrap, shape);
}

TEST(BlocksKdTree, BruteForce_3D) {
  for (bool wrap : {false, true})
    for (Shape shape : {Shape::uniform, Shape::corner}) SweepBlockCounts<3>(wrap, shape);
}

// Equal points (every cut leaves them on one side) and no points at all
// (cuts at the share of the extent): still a tiling with the right links.
TEST(BlocksKdTree, EqualPointsAndNoPoints) {
  for (Shape shape : {Shape::equal, Shape::none})
    for (bool wrap : {false, true}) {
      const int nb = 3 * nunits() + 1;
      SCOPED_TRACE(std::string(Name(shape)) + (wrap ? ", wrap" : ""));
      auto master = MakeMaster<2>(nb, 500, shape, Assignment::round_robin);
      const auto tree = dash::bp::kdtree(*master, Domain<2>(), &Cloud<2>::points, 64, wrap);
      const Balance b = CheckTree(*master, tree, wrap, 500, shape);
      if (shape == Shape::equal) {
        EXPECT_EQ(b.max, 500u) << "equal points stay together";
      }
    }
}

// One block: the domain; linked to itself only with wrap.
TEST(BlocksKdTree, OneBlock_TheDomain) {
  for (bool wrap : {false, true}) {
    auto master = MakeMaster<3>(1, 100, Shape::uniform);
    const auto tree = dash::bp::kdtree(*master, Domain<3>(), &Cloud<3>::points, 16, wrap);
    CheckTree(*master, tree, wrap, 100, Shape::uniform);
    if (master->size() == 1) {
      EXPECT_TRUE(tree.at(0).bounds == Domain<3>());
      EXPECT_EQ(tree.at(0).link, wrap ? std::vector<int>{0} : std::vector<int>{});
    }
  }
}

// Two blocks of a periodic 2-D domain: each spans y, so each wraps onto
// itself, and they meet at the cut and across x's boundary.
TEST(BlocksKdTree, TwoBlocksWrapped_LinkedToEachOtherAndThemselves) {
  auto master = MakeMaster<2>(2, 1000, Shape::uniform);
  const auto tree = dash::bp::kdtree(*master, Domain<2>(), &Cloud<2>::points, 128, true);
  CheckTree(*master, tree, true, 1000, Shape::uniform);
  for (const auto& [gid, t] : tree) EXPECT_EQ(t.link, (std::vector<int>{0, 1})) << gid;
}

// The histograms' merge adds exact counts: every fan-in gives the same
// boxes and the same points per block.
TEST(BlocksKdTree, FanIn_SameTree) {
  const int nb = 5 * nunits() + 2;
  auto reference = MakeMaster<3>(nb, 3000, Shape::corner);
  const auto expected = dash::bp::kdtree(*reference, Domain<3>(), &Cloud<3>::points, 100, true, 2);
  for (int k : {3, 4, 8, 64}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    auto master = MakeMaster<3>(nb, 3000, Shape::corner);
    const auto tree = dash::bp::kdtree(*master, Domain<3>(), &Cloud<3>::points, 100, true, k);
    CheckTree(*master, tree, true, 3000, Shape::corner);
    for (std::size_t i = 0; i < master->size(); ++i) {
      const int gid = master->gid(i);
      EXPECT_TRUE(tree.at(gid).bounds == expected.at(gid).bounds) << "block " << gid;
      EXPECT_EQ(master->block(i).points.size(), reference->block(i).points.size());
    }
  }
}

// One block in memory (the others in the unit's spill directory), and
// threads: the same tree and the same points per block.
TEST(BlocksKdTree, OutOfCore_SameAsInMemory) {
  const int nb = 6 * nunits() + 1;
  auto reference = MakeMaster<2>(nb, 5000, Shape::uniform);
  const auto expected = dash::bp::kdtree(*reference, Domain<2>(), &Cloud<2>::points, 256, false);
  for (int threads : {1, 2}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    auto master = MakeMaster<2>(nb, 5000, Shape::uniform);
    master->threads(threads);
    master->limit(1);
    const auto tree = dash::bp::kdtree(*master, Domain<2>(), &Cloud<2>::points, 256, false);
    if (master->size() > 1) {
      EXPECT_GT(master->spill_counters().bytes_read, 0u);
    }
    CheckTree(*master, tree, false, 5000, Shape::uniform);
    for (std::size_t i = 0; i < master->size(); ++i) {
      const int gid = master->gid(i);
      EXPECT_TRUE(tree.at(gid).bounds == expected.at(gid).bounds) << "block " << gid;
      auto got = master->block(i).points;
      auto want = reference->block(i).points;
      auto by_id = [](const Point<2>& a, const Point<2>& b) { return a.id < b.id; };
      std::sort(got.begin(), got.end(), by_id);
      std::sort(want.begin(), want.end(), by_id);
      ASSERT_EQ(got.size(), want.size()) << "block " << gid;
      for (std::size_t j = 0; j < got.size(); ++j) EXPECT_EQ(got[j].id, want[j].id);
    }
  }
}

// A point outside the domain (or not a number) on one unit: InvalidArgument
// there, RemoteFailure on the others; bad arguments throw on every unit
// before any communication. The master is usable afterwards.
TEST(BlocksKdTree, BadInput_ThrowsOnEveryUnit) {
  const int nb = 2 * nunits();
  for (double bad : {5.0, std::nan("")}) {
    auto master = MakeMaster<2>(nb, 200, Shape::uniform);
    const int last = nunits() - 1;
    if (myid() == last) master->block(master->size() - 1).points.back().x[1] = bad;
    try {
      dash::bp::kdtree(*master, Domain<2>(), &Cloud<2>::points);
      ADD_FAILURE() << "no exception for a point at " << bad;
    } catch (const dash::exception::InvalidArgument& e) {
      EXPECT_EQ(myid(), last) << e.what();
      EXPECT_NE(std::string(e.what()).find("outside the domain"), std::string::npos) << e.what();
    } catch (const dash::exception::RemoteFailure& e) {
      EXPECT_NE(myid(), last) << e.what();
    }
  }
  auto master = MakeMaster<2>(nb, 200, Shape::uniform);
  ContinuousBox<2> flat = Domain<2>();
  flat.max[1] = flat.min[1];
  EXPECT_THROW(dash::bp::kdtree(*master, flat, &Cloud<2>::points),
               dash::exception::InvalidArgument);
  ContinuousBox<2> infinite = Domain<2>();
  infinite.max[0] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(dash::bp::kdtree(*master, infinite, &Cloud<2>::points),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::bp::kdtree(*master, Domain<2>(), &Cloud<2>::points, 0),
               dash::exception::InvalidArgument);
  EXPECT_THROW(dash::bp::kdtree(*master, Domain<2>(), &Cloud<2>::points, 16, false, 1),
               dash::exception::InvalidArgument);
  const auto tree = dash::bp::kdtree(*master, Domain<2>(), &Cloud<2>::points, 16);
  CheckTree(*master, tree, false, 200, Shape::uniform);
}

}  // namespace
