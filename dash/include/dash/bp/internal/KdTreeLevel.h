// One level of dash::bp::kdtree (KdTree.h): the groups of blocks, the
// partners of the level's reduction and what each call does. Not public.
#ifndef DASH__BP__INTERNAL__KD_TREE_LEVEL_H_
#define DASH__BP__INTERNAL__KD_TREE_LEVEL_H_

#include <dash/Exception.h>
#include <dash/Types.h>
#include <dash/bp/Reduce.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

// Bounds [min[d], max[d]] of real coordinates in every dimension d.
template <dim_t N>
struct ContinuousBox {
  std::array<double, N> min{};
  std::array<double, N> max{};
  bool operator==(const ContinuousBox& o) const { return min == o.min && max == o.max; }
  bool operator!=(const ContinuousBox& o) const { return !(*this == o); }
};

// Whether closed boxes a and b meet (share a point: overlap, face, edge or
// corner), directly or, with wrap, across the periodic boundary of
// `domain` (a box ending at the domain's upper end meets one starting at
// its lower end). With shifted_only, only a meeting across the boundary in
// at least one dimension counts (a box and itself: does it wrap onto
// itself?). Local, O(N).
template <dim_t N>
bool boxes_meet(const ContinuousBox<N>& a, const ContinuousBox<N>& b,
                const ContinuousBox<N>& domain, bool wrap, bool shifted_only = false) {
  bool shifted = false;
  for (dim_t d = 0; d < N; ++d) {
    const bool direct = a.min[d] <= b.max[d] && b.min[d] <= a.max[d];
    const bool across = wrap && ((a.min[d] == domain.min[d] && b.max[d] == domain.max[d]) ||
                                 (b.min[d] == domain.min[d] && a.max[d] == domain.max[d]));
    if (!direct && !across) return false;
    shifted = shifted || across;
  }
  return !shifted_only || shifted;
}

// Whether the point with coordinates x lies in box: min <= x < max in every
// dimension, x <= max where the box ends at the domain's upper end. Local.
template <dim_t N, class Point>
bool box_holds(const ContinuousBox<N>& box, const ContinuousBox<N>& domain, const Point& p) {
  for (dim_t d = 0; d < N; ++d) {
    const double x = double(p[d]);
    if (!(x >= box.min[d])) return false;
    if (!(x < box.max[d] || (x == box.max[d] && box.max[d] == domain.max[d]))) return false;
  }
  return true;
}

namespace internal {

// A group of blocks [a, a + g) that share one box while the tree grows.
// Level 0 has one group, [0, nblocks); each level splits every group of
// g >= 2 blocks into [a, a + g / 2) and [a + g / 2, a + g).
struct KdGroup {
  int a = 0, g = 1;
  int lower() const { return g / 2; }  // blocks of the lower half
};

// The group of gid at `level`. Local, O(level).
inline KdGroup kd_group(int nblocks, int level, int gid) {
  KdGroup grp{0, nblocks};
  for (int l = 0; l < level && grp.g > 1; ++l) {
    const int lo = grp.lower();
    if (gid < grp.a + lo) {
      grp.g = lo;
    } else {
      grp.a += lo;
      grp.g -= lo;
    }
  }
  return grp;
}

// Levels until every group is one block: ceil(log2 nblocks). Local.
inline int kd_levels(int nblocks) {
  int levels = 0;
  while ((1ll << levels) < nblocks) ++levels;
  return levels;
}

// Rounds of a k-ary tree over g members: the least M with k^M >= g. Local.
inline int kd_tree_depth(long long g, int k) {
  int depth = 0;
  for (long long reach = 1; reach < g; reach *= k) ++depth;
  return depth;
}

// A group's split, as its members tell the groups next to it.
template <dim_t N>
struct KdSplit {
  ContinuousBox<N> box;  // the group's box before the split
  std::int32_t a = 0, g = 1;
  std::int32_t dim = 0;  // g >= 2: split along dim at cut
  double cut = 0;
  // The two halves (g >= 2), or the group itself.
  ContinuousBox<N> lower_box() const {
    ContinuousBox<N> b = box;
    b.max[std::size_t(dim)] = cut;
    return b;
  }
  ContinuousBox<N> upper_box() const {
    ContinuousBox<N> b = box;
    b.min[std::size_t(dim)] = cut;
    return b;
  }
};

// A group next to a block's own (their boxes meet).
template <dim_t N>
struct KdNeighbour {
  ContinuousBox<N> box;
  int a = 0, g = 1;
};

// What the driver keeps of one local block between the level's calls.
template <dim_t N>
struct KdState {
  ContinuousBox<N> box;  // the block's group's box
  KdGroup group;
  std::vector<KdNeighbour<N>> neighbours;  // other groups meeting it, increasing a
  std::vector<std::uint64_t> histogram;    // this level's, merged up the tree
  KdSplit<N> split;                        // this level's, once known
  std::size_t keep = 0;                    // points that stay, at the front
};

// The cut along dim that leaves `lower / g` of the counted points below it:
// linear within the bin that reaches the share; the box's fraction of the
// extent if no point was counted. Local, O(bins).
template <dim_t N>
double kd_cut(const std::vector<std::uint64_t>& histogram, const ContinuousBox<N>& box, dim_t dim,
              int lower, int g) {
  const double lo = box.min[dim], hi = box.max[dim];
  const double share = double(lower) / double(g);
  std::uint64_t total = 0;
  for (std::uint64_t c : histogram) total += c;
  if (total == 0) return lo + (hi - lo) * share;
  const double target = share * double(total), width = (hi - lo) / double(histogram.size());
  double below = 0;
  for (std::size_t i = 0; i < histogram.size(); ++i) {
    const double c = double(histogram[i]);
    if (c > 0 && below + c >= target)
      return std::clamp(lo + width * (double(i) + (target - below) / c), lo, hi);
    below += c;
  }
  return hi;
}

// The bins of a histogram along one dimension of a box: `bins` equal bins
// over its extent (a flat box: all in bin 0).
struct KdBins {
  double lo = 0, scale = 0;
  long bins = 1;
  template <dim_t N>
  KdBins(const ContinuousBox<N>& box, dim_t dim, int n) : lo(box.min[dim]), bins(n) {
    const double extent = box.max[dim] - lo;
    scale = extent > 0 ? double(n) / extent : 0;
  }
  // The bin of coordinate x. Local, O(1).
  std::size_t of(double x) const {
    return std::size_t(std::clamp(long((x - lo) * scale), 0l, bins - 1));
  }
};

// Counts the points' coordinates along dim in `bins` equal bins over the
// box's extent. Local, O(points).
template <dim_t N, class Point>
void kd_histogram(const std::vector<Point>& points, const ContinuousBox<N>& box, dim_t dim,
                  int bins, std::vector<std::uint64_t>& histogram) {
  histogram.assign(std::size_t(bins), 0);
  const KdBins at(box, dim, bins);
  for (const Point& p : points) ++histogram[at.of(double(p[dim]))];
}

// The partners of one level's reduction, calls c = 0 .. 2M + 1, where M is
// the depth of a k-ary tree over the level's largest group. Member m of a
// group [a, a + g) of g >= 2 blocks is block a + m:
//
//   c <  M      merge: members with m % k^c == 0 (having added what their
//               children sent in c - 1) send their histogram to
//               m - m % k^(c+1), unless that is themselves
//   c = M       member 0 holds the group's histogram: it cuts the box
//   M <= c < 2M broadcast: members with m % k^(2M-c) == 0 send the split to
//               m + i k^(2M-c-1), i = 1 .. k - 1
//   c = 2M      every member has the split. It sends its points of the
//               other half to its partner there (lower m to g/2 + m mod
//               (g - g/2), upper m to (m - g/2) mod g/2), and every block
//               (groups of one too) sends its group's split to the blocks
//               x of each neighbouring group H it stands for (x - a_H
//               congruent to m mod g)
//   c = 2M + 1  points come in; so does the split of each neighbouring
//               group, from the member standing for it (a_H + m mod g_H):
//               the new neighbours are the halves of these groups and of
//               its own that meet its new box
//
// Groups smaller than the largest have no members past their size, so the
// same calls serve every group.
template <dim_t N>
class KdLevelPartners {
 public:
  KdLevelPartners(int nblocks, int level, int k, const std::map<int, KdState<N>>& states)
      : nblocks_(nblocks), level_(level), k_(k), states_(states) {
    const long long largest = (nblocks + (1ll << level) - 1) >> level;
    depth_ = kd_tree_depth(largest, k);
  }

  int nblocks() const { return nblocks_; }
  int rounds() const { return 2 * depth_ + 1; }
  int depth() const { return depth_; }
  int split_call() const { return 2 * depth_; }

  bool active(int c, int gid) const {
    const KdGroup grp = kd_group(nblocks_, level_, gid);
    const long long m = gid - grp.a;
    if (c >= split_call()) return true;
    if (grp.g < 2) return false;
    if (c <= depth_) return m % power(c) == 0;
    return m % power(2 * depth_ - c) == 0;
  }

  void incoming(int c, int gid, std::vector<int>& link) const {
    link.clear();
    const KdGroup grp = kd_group(nblocks_, level_, gid);
    const long long m = gid - grp.a;
    if (c == split_call() + 1) {
      point_sources(grp, int(m), link);
      const KdState<N>& s = states_.at(gid);
      for (const KdNeighbour<N>& h : s.neighbours) link.push_back(h.a + int(m % h.g));
      std::sort(link.begin(), link.end());
      link.erase(std::unique(link.begin(), link.end()), link.end());
      return;
    }
    if (grp.g < 2 || c == 0 || !active(c, gid)) return;
    if (c <= depth_) {  // merge children of the previous call
      children(grp, m, power(c - 1), link);
      return;
    }
    const long long parent_step = power(2 * depth_ - c + 1);
    if (m % parent_step != 0) link.push_back(grp.a + int(m - m % parent_step));
  }

  void outgoing(int c, int gid, std::vector<int>& link) const {
    link.clear();
    const KdGroup grp = kd_group(nblocks_, level_, gid);
    const long long m = gid - grp.a;
    if (c == split_call()) {
      if (grp.g >= 2) link.push_back(point_partner(grp, int(m)));
      const KdState<N>& s = states_.at(gid);
      for (const KdNeighbour<N>& h : s.neighbours) stands_for(grp, int(m), h, link);
      std::sort(link.begin(), link.end());
      link.erase(std::unique(link.begin(), link.end()), link.end());
      return;
    }
    if (c > split_call() || grp.g < 2 || !active(c, gid)) return;
    if (c < depth_) {
      const long long parent = m - m % power(c + 1);
      if (parent != m) link.push_back(grp.a + int(parent));
      return;
    }
    children(grp, m, power(2 * depth_ - c - 1), link);
  }

  // The member of the other half that block a + m sends its points to.
  static int point_partner(const KdGroup& grp, int m) {
    const int lo = grp.lower(), hi = grp.g - lo;
    return m < lo ? grp.a + lo + m % hi : grp.a + (m - lo) % lo;
  }
  // The members of the other half that send block a + m their points.
  static void point_sources(const KdGroup& grp, int m, std::vector<int>& link) {
    if (grp.g < 2) return;
    const int lo = grp.lower(), hi = grp.g - lo;
    if (m < lo) {
      for (int u = lo + m; u < grp.g; u += lo) link.push_back(grp.a + u);
    } else {
      for (int l = m - lo; l < lo; l += hi) link.push_back(grp.a + l);
    }
  }
  // The blocks of neighbouring group h that block a + m tells its group's
  // split: x with x - a_h congruent to m modulo g.
  static void stands_for(const KdGroup& grp, int m, const KdNeighbour<N>& h,
                         std::vector<int>& link) {
    for (int x = m; x < h.g; x += grp.g) link.push_back(h.a + x);
  }

 private:
  long long power(int e) const {
    long long p = 1;
    for (int i = 0; i < e; ++i) p *= k_;
    return p;
  }
  // Members m + i step (i = 1 .. k - 1) of the group, if any.
  void children(const KdGroup& grp, long long m, long long step, std::vector<int>& link) const {
    for (int i = 1; i < k_; ++i) {
      const long long child = m + i * step;
      if (child >= grp.g) break;
      link.push_back(grp.a + int(child));
    }
  }

  int nblocks_, level_, k_;
  const std::map<int, KdState<N>>& states_;
  int depth_ = 0;
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__KD_TREE_LEVEL_H_
