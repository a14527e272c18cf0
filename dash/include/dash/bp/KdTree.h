// dash::bp::kdtree: a k-d tree decomposition of the points held in the
// blocks of a Master (DIY2's algorithm, Morozov and Peterka). Afterwards
// each block holds exactly the points inside its box, the boxes tile the
// domain, and each block's links are exactly the blocks whose boxes meet
// its own (faces, edges, corners; with wrap also across the periodic
// boundary, a block included when its box wraps onto itself).
//
//   struct Cell { std::vector<std::array<double, 3>> points; };
//   dash::bp::ContinuousBox<3> domain{{0, 0, 0}, {1, 1, 1}};
//   auto tree = dash::bp::kdtree(master, domain, &Cell::points, 1024, true);
//   tree.at(gid).bounds;        // the box of local block gid
//   tree.at(gid).link;          // the gids whose boxes meet it (also master's links)
//   tree.at(gid).link_bounds;   // their boxes
//
// The algorithm, for levels l = 0 .. ceil(log2 nblocks) - 1: the blocks
// form groups of consecutive gids sharing one box (level 0: all blocks, the
// domain); every group [a, a + g) of g >= 2 blocks
//
//   histogram  each block counts its points' coordinates along dimension
//              l mod N in `bins` bins over the group's extent; a k-ary
//              merge up a tree of the group's blocks adds them
//   cut        the group's first block puts the cut where the share
//              (g / 2) / g of the counted points lies (the median for even
//              g; linear within the bin), and a k-ary broadcast tells the
//              others
//   exchange   blocks [a, a + g/2) keep the box's lower part, the others
//              the upper; each sends the points of the other part to a
//              partner there (for powers of two: flip one bit of the gid)
//   links      each block tells its group's split to the neighbouring
//              groups (one block of each hears it from one block of the
//              other) and keeps, of the halves it hears about and of its
//              own group's, those whose boxes meet its new box
//
// Block counts that are not powers of two: a group of g blocks splits into
// g / 2 and g - g / 2 blocks (rounded down and up), its cut at the matching
// share of its points instead of the median, so a binary tree of
// ceil(log2 nblocks) levels still gives every block about the same number
// of points. (A radix-k variant would cut each group into k parts from one
// histogram, but each part would then trade points with k - 1 others and
// the link updates would grow alike; halving keeps one partner per block.)
//
// Points: points_of(block) is the block's std::vector<P> (a member pointer
// or a callable), P trivially copyable with p[d] convertible to double. A
// point at coordinate x goes below a cut c when x < c; a box holds the
// points with min <= x < max (x <= max at the domain's upper end).
//
// | call   | cost                                                          |
// |--------|---------------------------------------------------------------|
// | kdtree | collective over master.team(); per level one reduce of 2M + 2 |
// |        | calls (M = ceil(log_k of the largest group)), point-to-point  |
// |        | only: histograms of `bins` counts up and a split down the    |
// |        | group's tree, each moving point once, one split per           |
// |        | neighbouring group; out of core each block is loaded twice   |
// |        | per level (histograms of the next level are counted while the |
// |        | points come in)                                               |
#ifndef DASH__BP__KD_TREE_H_
#define DASH__BP__KD_TREE_H_

#include <dash/Exception.h>
#include <dash/Types.h>
#include <dash/bp/Master.h>
#include <dash/bp/Reduce.h>
#include <dash/bp/internal/KdTreeLevel.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

// A block of the k-d tree: its box, and the blocks whose boxes meet it.
template <dim_t N>
struct KdTreeBlock {
  ContinuousBox<N> bounds;
  std::vector<int> link;                      // increasing gid
  std::vector<ContinuousBox<N>> link_bounds;  // the box of each link
};

// The calling unit's blocks of a k-d tree, by gid.
template <dim_t N>
using KdTree = std::map<int, KdTreeBlock<N>>;

namespace internal {

// Runs the calls of one level on the calling unit's blocks.
template <dim_t N, class Block, class PointsOf>
class KdLevelRun {
 public:
  using Points = std::remove_reference_t<std::invoke_result_t<PointsOf&, Block&>>;
  using Point = typename Points::value_type;

  KdLevelRun(int level, int levels, int bins, bool wrap, const ContinuousBox<N>& domain,
             PointsOf& points_of, std::map<int, KdState<N>>& states,
             const KdLevelPartners<N>& partners)
      : level_(level),
        levels_(levels),
        bins_(bins),
        wrap_(wrap),
        domain_(domain),
        points_of_(points_of),
        states_(states),
        partners_(partners) {}

  // Call rp.round() of block rp.gid(); `block` is null in the calls that
  // only pass histograms and splits on.
  void call(Block* block, ReduceProxy& rp) {
    KdState<N>& s = states_.at(rp.gid());
    const int c = rp.round(), split = partners_.split_call();
    const dim_t dim = dim_t(level_ % N);
    if (c == split + 1) {
      finish(*block, rp, s);
      return;
    }
    if (c == split) {
      for (int from : rp.in_link()) rp.dequeue(from, s.split);  // the broadcast's last step
      send_points_and_split(*block, rp, s, dim);
      return;
    }
    if (c <= partners_.depth()) {  // merge: add the children's counts
      for (int from : rp.in_link()) {
        const QueueView<std::uint64_t> counts = rp.dequeue_view<std::uint64_t>(from);
        for (std::size_t i = 0; i < counts.size() && i < s.histogram.size(); ++i)
          s.histogram[i] += counts[i];
      }
      if (c == partners_.depth()) {  // the group's first block: cut
        s.split.box = s.box;
        s.split.a = s.group.a;
        s.split.g = s.group.g;
        s.split.dim = std::int32_t(dim);
        s.split.cut = kd_cut<N>(s.histogram, s.box, dim, s.group.lower(), s.group.g);
      }
    } else {
      for (int from : rp.in_link()) rp.dequeue(from, s.split);
    }
    for (int to : rp.out_link()) {
      if (c < partners_.depth())
        rp.enqueue(to, s.histogram);
      else
        rp.enqueue(to, s.split);
    }
  }

 private:
  // Call 2M: the points of the other half go to the partner, the group's
  // split to the neighbouring groups' blocks this block stands for.
  void send_points_and_split(Block& block, ReduceProxy& rp, KdState<N>& s, dim_t dim) {
    const int m = rp.gid() - s.group.a;
    std::vector<int> told;  // blocks of neighbouring groups this block stands for
    for (const KdNeighbour<N>& h : s.neighbours)
      KdLevelPartners<N>::stands_for(s.group, m, h, told);
    int partner = -1;
    if (s.group.g >= 2) {
      std::vector<Point>& points = std::invoke(points_of_, block);
      const bool lower = m < s.group.lower();
      const double cut = s.split.cut;
      auto stays = [&](const Point& p) { return (double(p[dim]) < cut) == lower; };
      s.keep = std::size_t(std::partition(points.begin(), points.end(), stays) - points.begin());
      partner = KdLevelPartners<N>::point_partner(s.group, m);
      const Point* moving = points.data() + s.keep;
      const std::size_t n = points.size() - s.keep;
      if (std::find(told.begin(), told.end(), partner) == told.end()) {
        rp.enqueue_view(partner, moving, n);  // no copy: the block stays until the exchange
      } else {
        rp.enqueue(partner, moving, n);  // the points, then the split
        rp.enqueue(partner, s.split);
      }
    } else {
      s.split.box = s.box;
      s.split.a = s.group.a;
      s.split.g = 1;
    }
    for (int to : told)
      if (to != partner) rp.enqueue(to, s.split);
  }

  // Call 2M + 1: keep this half's points and add those that came; learn
  // the new box, group and neighbours; count the next level's histogram.
  void finish(Block& block, ReduceProxy& rp, KdState<N>& s) {
    std::vector<Point>& points = std::invoke(points_of_, block);
    const int m = rp.gid() - s.group.a;
    std::vector<int> sources;
    KdLevelPartners<N>::point_sources(s.group, m, sources);
    if (s.group.g >= 2) points.resize(s.keep);
    std::vector<int> contacts;  // the block standing for each neighbouring group
    for (const KdNeighbour<N>& h : s.neighbours) contacts.push_back(h.a + m % h.g);
    std::vector<KdSplit<N>> heard;
    for (int from : rp.in_link()) {
      if (std::find(sources.begin(), sources.end(), from) != sources.end()) {
        const QueueView<Point> came = rp.dequeue_view<Point>(from);
        points.insert(points.end(), came.begin(), came.end());
      }
      if (std::find(contacts.begin(), contacts.end(), from) != contacts.end()) {
        heard.emplace_back();
        rp.dequeue(from, heard.back());
      }
    }
    // The block's new group and box.
    KdGroup own = s.group;
    ContinuousBox<N> box = s.box;
    KdNeighbour<N> sibling;
    bool has_sibling = false;
    if (own.g >= 2) {
      const int lo = own.lower();
      has_sibling = true;
      if (m < lo) {
        box = s.split.lower_box();
        sibling = {s.split.upper_box(), own.a + lo, own.g - lo};
        own.g = lo;
      } else {
        box = s.split.upper_box();
        sibling = {s.split.lower_box(), own.a, lo};
        own.a += lo;
        own.g -= lo;
      }
    }
    // New neighbours: the halves of the groups heard from, and the sibling,
    // that meet the new box.
    std::vector<KdNeighbour<N>> next;
    auto consider = [&](const KdNeighbour<N>& h) {
      if (boxes_meet<N>(box, h.box, domain_, wrap_)) next.push_back(h);
    };
    for (const KdSplit<N>& h : heard) {
      if (h.g >= 2) {
        const int lo = h.g / 2;
        consider({h.lower_box(), h.a, lo});
        consider({h.upper_box(), h.a + lo, h.g - lo});
      } else {
        consider({h.box, h.a, 1});
      }
    }
    if (has_sibling) consider(sibling);
    std::sort(next.begin(), next.end(),
              [](const KdNeighbour<N>& x, const KdNeighbour<N>& y) { return x.a < y.a; });
    s.group = own;
    s.box = box;
    s.neighbours = std::move(next);
    if (level_ + 1 < levels_ && own.g >= 2)
      kd_histogram<N>(points, box, dim_t((level_ + 1) % N), bins_, s.histogram);
    else
      s.histogram.clear();
  }

  int level_, levels_, bins_;
  bool wrap_;
  ContinuousBox<N> domain_;
  PointsOf& points_of_;
  std::map<int, KdState<N>>& states_;
  const KdLevelPartners<N>& partners_;
};

}  // namespace internal

// Decomposes `domain` into master.nblocks() boxes by a k-d tree of the
// points the blocks hold (see the top of this file) and moves every point
// to the block whose box holds it; sets each block's links in the master
// and returns the calling unit's boxes and links. bins >= 1 per histogram,
// k >= 2 the fan-in of its merge; wrap makes the domain periodic in every
// dimension. InvalidArgument on every unit for a domain empty or not
// finite in some dimension, bins < 1 or k < 2 (before any communication),
// and for a point outside the domain (after one int all-reduce).
// Collective over master.team().
template <class Block, dim_t N, class PointsOf>
KdTree<N> kdtree(Master<Block>& master, const ContinuousBox<N>& domain, PointsOf points_of,
                 int bins = 1024, bool wrap = false, int k = 4) {
  using Points = std::remove_reference_t<std::invoke_result_t<PointsOf&, Block&>>;
  using Point = typename Points::value_type;
  static_assert(std::is_same_v<Points, std::vector<Point>>,
                "dash::bp::kdtree: points_of(block) must give the block's std::vector<P>");
  static_assert(std::is_trivially_copyable_v<Point>,
                "dash::bp::kdtree: points travel as bytes: P must be trivially copyable");
  for (dim_t d = 0; d < N; ++d)
    if (!std::isfinite(domain.min[d]) || !std::isfinite(domain.max[d]) ||
        !(domain.min[d] < domain.max[d]))
      throw exception::InvalidArgument(
          "dash::bp::kdtree: the domain is empty or not finite in "
          "dimension " +
          std::to_string(d));
  if (bins < 1)
    throw exception::InvalidArgument("dash::bp::kdtree: bins = " + std::to_string(bins) +
                                     ", expected at least 1");
  if (k < 2)
    throw exception::InvalidArgument("dash::bp::kdtree: k = " + std::to_string(k) +
                                     ", expected at least 2");
  const int nb = master.nblocks(), levels = internal::kd_levels(nb);

  // Level 0: every block in one group with the domain's box; the first
  // histograms are counted (and the points checked) by a read-only pass.
  std::map<int, internal::KdState<N>> states;
  for (std::size_t i = 0; i < master.size(); ++i) {
    internal::KdState<N>& s = states[master.gid(i)];
    s.box = domain;
    s.group = internal::KdGroup{0, nb};
  }
  master.foreach_read([&](const Block& b, Proxy& p) {
    const Points& points = std::invoke(points_of, const_cast<Block&>(b));
    std::vector<std::uint64_t>& histogram = states.at(p.gid()).histogram;
    histogram.assign(levels > 0 ? std::size_t(bins) : 0, 0);
    const internal::KdBins bin(domain, 0, bins);
    for (const Point& pt : points) {  // one pass: check, and count along dimension 0
      if (!box_holds<N>(domain, domain, pt)) {
        std::string at;
        for (dim_t d = 0; d < N; ++d) at += (d ? ", " : "") + std::to_string(double(pt[d]));
        throw exception::InvalidArgument("dash::bp::kdtree: block " + std::to_string(p.gid()) +
                                         " holds a point outside the domain: (" + at + ")");
      }
      if (levels > 0) ++histogram[bin.of(double(pt[0]))];
    }
  });
  master.report_failures();

  for (int level = 0; level < levels; ++level) {
    internal::KdLevelPartners<N> partners(nb, level, k, states);
    internal::KdLevelRun<N, Block, PointsOf> run(level, levels, bins, wrap, domain, points_of,
                                                 states, partners);
    const int split = partners.split_call();
    reduce(
        master, partners, [&](Block& b, ReduceProxy& rp) { run.call(&b, rp); },
        [&](ReduceProxy& rp) { run.call(nullptr, rp); }, [split](int c) { return c >= split; });
  }

  KdTree<N> tree;
  for (std::size_t i = 0; i < master.size(); ++i) {
    const int gid = master.gid(i);
    const internal::KdState<N>& s = states.at(gid);
    KdTreeBlock<N>& t = tree[gid];
    t.bounds = s.box;
    std::vector<std::pair<int, ContinuousBox<N>>> links;
    for (const internal::KdNeighbour<N>& h : s.neighbours) links.emplace_back(h.a, h.box);
    if (boxes_meet<N>(s.box, s.box, domain, wrap, true)) links.emplace_back(gid, s.box);
    std::sort(links.begin(), links.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [to, box] : links) {
      t.link.push_back(to);
      t.link_bounds.push_back(box);
    }
    master.set_link(i, t.link);
  }
  return tree;
}

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__KD_TREE_H_
