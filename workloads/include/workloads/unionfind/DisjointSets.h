// Part of the unionfind workload (workloads/unionfind/unionfind.h).
// unionfind::DisjointSets: a serial union-find over elements 0..n-1 (the
// cells of one block), with path compression in find and union by size.
//
// | call      | cost                                                   |
// |-----------|--------------------------------------------------------|
// | reset     | O(n)                                                   |
// | find      | amortised O(alpha(n)); compresses the path it walks    |
// | unite     | two finds                                              |
#ifndef WORKLOADS__UNIONFIND__DISJOINTSETS_H_
#define WORKLOADS__UNIONFIND__DISJOINTSETS_H_

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace unionfind {

class DisjointSets {
 public:
  using index_type = std::int32_t;

  // n singleton sets.
  void reset(std::size_t n) {
    parent_.resize(n);
    std::iota(parent_.begin(), parent_.end(), index_type(0));
    size_.assign(n, 1);
  }

  std::size_t size() const { return parent_.size(); }

  // The parent of every element and the set sizes (meaningful at roots), to save them; assign
  // restores what they returned.
  const std::vector<index_type>& parents() const { return parent_; }
  const std::vector<index_type>& sizes() const { return size_; }
  void assign(std::vector<index_type> parents, std::vector<index_type> sizes) {
    parent_ = std::move(parents);
    size_ = std::move(sizes);
  }

  // The root of i's set; points every element on the way straight at it.
  index_type find(index_type i) {
    index_type root = i;
    while (parent_[std::size_t(root)] != root) root = parent_[std::size_t(root)];
    while (parent_[std::size_t(i)] != root) {
      const index_type next = parent_[std::size_t(i)];
      parent_[std::size_t(i)] = root;
      i = next;
    }
    return root;
  }

  // The root of i's set, leaving the paths as they are (for readers). Local.
  index_type root(index_type i) const {
    while (parent_[std::size_t(i)] != i) i = parent_[std::size_t(i)];
    return i;
  }

  // Merges the sets of a and b (the smaller under the larger); returns the
  // root of the merged set.
  index_type unite(index_type a, index_type b) {
    index_type ra = find(a), rb = find(b);
    if (ra == rb) return ra;
    if (size_[std::size_t(ra)] < size_[std::size_t(rb)]) std::swap(ra, rb);
    parent_[std::size_t(rb)] = ra;
    size_[std::size_t(ra)] += size_[std::size_t(rb)];
    return ra;
  }

 private:
  std::vector<index_type> parent_;
  std::vector<index_type> size_;  // meaningful at roots: elements in the set
};

}  // namespace unionfind

#endif  // WORKLOADS__UNIONFIND__DISJOINTSETS_H_
