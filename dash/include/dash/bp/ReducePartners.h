// Partners of k-ary global reductions over the blocks of a regular
// decomposition (the merge and swap reductions of DIY, after Peterka et al.,
// "A configurable algorithm for parallel image-compositing applications"):
// which blocks exchange with which in every round of dash::bp::reduce
// (Reduce.h).
//
//   dash::bp::RegularDecomposer<2> dec({{0, 0}, {512, 512}}, 12);
//   dash::bp::RegularMergePartners<2> merge(dec, 4);       // all to block 0
//   dash::bp::RegularSwapPartners<2> swap(dec, 4);         // reduce-scatter
//   dash::bp::RegularBroadcastPartners<2> bcast(dec, 4);   // block 0 to all
//   dash::bp::RegularAllReducePartners<2> all(dec, 4);     // merge, then broadcast
//
// Rounds. The division count of every dimension is factored into group
// sizes of at most k: its prime factors, largest first, multiplied together
// while the product stays <= k (12 with k = 8: 6, 2; 6 with k = 4: 3, 2; a
// prime p > k is a group of p; 1 gives no round). The rounds take one group
// size from each dimension in turn (dimension 0, 1, ..., N - 1, 0, ...), so
// block counts that are not powers of k work.
//
// Groups. In a round of group size f along dimension d, a group is the f
// blocks that agree in every other coordinate and whose coordinate along d
// is base + j * step, j = 0 .. f - 1 (j is the block's position in the
// group; position 0 is the group's root). contiguous: step is the product
// of the group sizes of d's earlier rounds, so groups are neighbours first
// and grow. Otherwise step is the product of the later ones: the farthest
// blocks pair first and groups shrink.
//
// A partner structure answers, for the calls r = 0 .. rounds() of the
// reduction's function (rounds() exchange rounds, then a last call that only
// receives): which blocks take part (active), which blocks each receives
// from (incoming: what they sent in call r - 1) and sends to (outgoing).
// Links list gids in increasing order, which is the order of positions in
// the group, and include the block itself where it is a member:
//
// | partners  | active in call r        | in_link (r > 0)         | out_link (r < rounds)  |
// |-----------|-------------------------|-------------------------|------------------------|
// | merge     | root in rounds < r      | group of round r - 1    | root of round r group  |
// | swap      | every block             | group of round r - 1    | group of round r       |
// | broadcast | root in rounds < R - r  | root of round R - r grp | group of round R-1-r   |
// | allreduce | merge calls 0 .. R, then broadcast calls 1 .. R (2R exchange rounds)      |
//
// (R: the merge rounds.) A merge root thus receives from every member of
// its group, itself included; in a swap every member sends one piece to
// each member, itself included.
//
// | call                          | cost                                     |
// |-------------------------------|------------------------------------------|
// | constructors                  | local, O(N + prime factors of divisions) |
// | rounds / nblocks / size / dim | local, O(1)                              |
// | active / incoming / outgoing  | local, O(rounds x N + group size)        |
#ifndef DASH__BP__REDUCE_PARTNERS_H_
#define DASH__BP__REDUCE_PARTNERS_H_

#include <dash/Exception.h>
#include <dash/Types.h>
#include <dash/bp/Decomposer.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace dash {
namespace bp {
namespace internal {

// Returns k if k >= 2, else throws InvalidArgument naming who. Local.
inline int checked_group_limit(int k, const char* who) {
  if (k < 2)
    throw exception::InvalidArgument(std::string(who) + ": k = " + std::to_string(k) +
                                     ", but groups need k >= 2");
  return k;
}

// n's prime factors, largest first, multiplied into group sizes while the
// product stays <= k (a prime above k is a group alone). Local.
inline std::vector<int> reduce_group_sizes(int n, int k) {
  std::vector<int> primes;
  for (int p = 2; long(p) * p <= n; ++p)
    while (n % p == 0) primes.push_back(p), n /= p;
  if (n > 1) primes.push_back(n);
  std::sort(primes.rbegin(), primes.rend());
  std::vector<int> sizes;
  long product = 1;
  for (int p : primes) {
    if (product > 1 && product * p > k) {
      sizes.push_back(int(product));
      product = 1;
    }
    product *= p;
  }
  if (product > 1) sizes.push_back(int(product));
  return sizes;
}

// The rounds of a regular k-ary reduction and the groups in each.
template <dim_t N>
class RegularRounds {
 public:
  RegularRounds(const RegularDecomposer<N>& dec, int k, bool contiguous, const char* who)
      : dec_(dec) {
    checked_group_limit(k, who);
    std::array<std::vector<int>, N> sizes;
    std::size_t most = 0;
    for (dim_t d = 0; d < N; ++d) {
      sizes[d] = reduce_group_sizes(dec.divisions()[d], k);
      most = std::max(most, sizes[d].size());
    }
    for (std::size_t i = 0; i < most; ++i)
      for (dim_t d = 0; d < N; ++d)
        if (i < sizes[d].size()) rounds_.push_back(Round{d, sizes[d][i], 1});
    // step: product of the same dimension's earlier (contiguous) or later
    // group sizes.
    for (std::size_t r = 0; r < rounds_.size(); ++r)
      for (std::size_t o = 0; o < rounds_.size(); ++o)
        if (rounds_[o].dim == rounds_[r].dim && (contiguous ? o < r : o > r))
          rounds_[r].step *= rounds_[o].size;
  }

  int rounds() const { return int(rounds_.size()); }
  int nblocks() const { return dec_.nblocks(); }
  int size(int round) const { return rounds_[std::size_t(round)].size; }
  dim_t dim(int round) const { return rounds_[std::size_t(round)].dim; }

  // gid's position in its group of `round`. Local.
  int position(int round, int gid) const {
    const Round& r = rounds_[std::size_t(round)];
    return dec_.coords(gid)[r.dim] / r.step % r.size;
  }
  // The root (position 0) of gid's group of `round`. Local.
  int root(int round, int gid) const {
    const Round& r = rounds_[std::size_t(round)];
    auto c = dec_.coords(gid);
    c[r.dim] -= c[r.dim] / r.step % r.size * r.step;
    return dec_.gid(c);
  }
  // The members of gid's group of `round` in increasing gid (= position). Local.
  void group(int round, int gid, std::vector<int>& out) const {
    const Round& r = rounds_[std::size_t(round)];
    auto c = dec_.coords(gid);
    c[r.dim] -= c[r.dim] / r.step % r.size * r.step;
    out.clear();
    for (int j = 0; j < r.size; ++j, c[r.dim] += r.step) out.push_back(dec_.gid(c));
  }
  // Whether gid is the root of its group in every round before `round`. Local.
  bool root_before(int round, int gid) const {
    const auto c = dec_.coords(gid);
    for (int i = 0; i < round && i < rounds(); ++i) {
      const Round& r = rounds_[std::size_t(i)];
      if (c[r.dim] / r.step % r.size != 0) return false;
    }
    return true;
  }

 private:
  struct Round {
    dim_t dim;
    int size;  // blocks per group
    int step;  // coordinate distance between positions
  };
  RegularDecomposer<N> dec_;
  std::vector<Round> rounds_;
};

}  // namespace internal

// Merge: every round, each group's members send to its root; after the last
// round block 0 holds what all blocks sent. Calls 0 .. rounds().
template <dim_t N>
class RegularMergePartners {
 public:
  // Groups of at most k blocks (k >= 2, else InvalidArgument). Local.
  RegularMergePartners(const RegularDecomposer<N>& dec, int k, bool contiguous = true)
      : rounds_(dec, k, contiguous, "dash::bp::RegularMergePartners") {}

  // Exchange rounds (the reduction calls its function rounds() + 1 times). Local.
  int rounds() const { return rounds_.rounds(); }
  int nblocks() const { return rounds_.nblocks(); }
  // Group size and dimension of exchange round `round`. Local.
  int size(int round) const { return rounds_.size(round); }
  dim_t dim(int round) const { return rounds_.dim(round); }

  // Whether block gid takes part in call `round`. Local.
  bool active(int round, int gid) const { return rounds_.root_before(round, gid); }
  // in_link of gid in call `round`: its group of the previous round if it is
  // the group's root (itself included). Local.
  void incoming(int round, int gid, std::vector<int>& in) const {
    in.clear();
    if (round > 0 && active(round, gid)) rounds_.group(round - 1, gid, in);
  }
  // out_link of gid in call `round`: the root of its group (maybe itself). Local.
  void outgoing(int round, int gid, std::vector<int>& out) const {
    out.clear();
    if (round < rounds() && active(round, gid)) out.push_back(rounds_.root(round, gid));
  }

 private:
  internal::RegularRounds<N> rounds_;
};

// Swap: every round, each member of a group sends one piece to every member
// (itself included) and keeps the piece at its own position; every block
// takes part in every call.
template <dim_t N>
class RegularSwapPartners {
 public:
  // Groups of at most k blocks (k >= 2, else InvalidArgument). Local.
  RegularSwapPartners(const RegularDecomposer<N>& dec, int k, bool contiguous = true)
      : rounds_(dec, k, contiguous, "dash::bp::RegularSwapPartners") {}

  // Exchange rounds (the reduction calls its function rounds() + 1 times). Local.
  int rounds() const { return rounds_.rounds(); }
  int nblocks() const { return rounds_.nblocks(); }
  // Group size and dimension of exchange round `round`. Local.
  int size(int round) const { return rounds_.size(round); }
  dim_t dim(int round) const { return rounds_.dim(round); }

  bool active(int, int) const { return true; }
  // in_link: gid's group of the previous round. Local.
  void incoming(int round, int gid, std::vector<int>& in) const {
    in.clear();
    if (round > 0) rounds_.group(round - 1, gid, in);
  }
  // out_link: gid's group of this round. Local.
  void outgoing(int round, int gid, std::vector<int>& out) const {
    out.clear();
    if (round < rounds()) rounds_.group(round, gid, out);
  }

 private:
  internal::RegularRounds<N> rounds_;
};

// Broadcast: the merge reversed. Call 0 runs on block 0 alone, which sends
// to its group of the last merge round; every call, the blocks reached so
// far send to their groups of the merge round before, until all blocks have
// received (the last call).
template <dim_t N>
class RegularBroadcastPartners {
 public:
  // Groups of at most k blocks (k >= 2, else InvalidArgument). Local.
  RegularBroadcastPartners(const RegularDecomposer<N>& dec, int k, bool contiguous = true)
      : rounds_(dec, k, contiguous, "dash::bp::RegularBroadcastPartners") {}

  // Exchange rounds (the reduction calls its function rounds() + 1 times). Local.
  int rounds() const { return rounds_.rounds(); }
  int nblocks() const { return rounds_.nblocks(); }

  // Whether gid has been reached before call `round` (or is block 0). Local.
  bool active(int round, int gid) const { return rounds_.root_before(rounds() - round, gid); }
  // in_link: the block that reached gid in the previous call. Local.
  void incoming(int round, int gid, std::vector<int>& in) const {
    in.clear();
    if (round > 0 && active(round, gid)) in.push_back(rounds_.root(rounds() - round, gid));
  }
  // out_link: gid's group of merge round rounds() - 1 - round (itself included). Local.
  void outgoing(int round, int gid, std::vector<int>& out) const {
    out.clear();
    if (round < rounds() && active(round, gid)) rounds_.group(rounds() - 1 - round, gid, out);
  }

 private:
  internal::RegularRounds<N> rounds_;
};

// All-reduce: a merge to block 0 (calls 0 .. R) and a broadcast back
// (calls R .. 2R; call R, on block 0 alone, receives the merge and starts
// the broadcast).
template <dim_t N>
class RegularAllReducePartners {
 public:
  // Groups of at most k blocks (k >= 2, else InvalidArgument). Local.
  RegularAllReducePartners(const RegularDecomposer<N>& dec, int k, bool contiguous = true)
      : merge_(dec, internal::checked_group_limit(k, "dash::bp::RegularAllReducePartners"),
               contiguous),
        broadcast_(dec, k, contiguous) {}

  // Exchange rounds: twice the merge's. Local.
  int rounds() const { return 2 * merge_.rounds(); }
  int nblocks() const { return merge_.nblocks(); }

  bool active(int round, int gid) const {
    const int r = merge_.rounds();
    return round <= r ? merge_.active(round, gid) : broadcast_.active(round - r, gid);
  }
  void incoming(int round, int gid, std::vector<int>& in) const {
    const int r = merge_.rounds();
    if (round <= r)
      merge_.incoming(round, gid, in);
    else
      broadcast_.incoming(round - r, gid, in);
  }
  void outgoing(int round, int gid, std::vector<int>& out) const {
    const int r = merge_.rounds();
    if (round < r)
      merge_.outgoing(round, gid, out);
    else
      broadcast_.outgoing(round - r, gid, out);
  }

 private:
  RegularMergePartners<N> merge_;
  RegularBroadcastPartners<N> broadcast_;
};

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__REDUCE_PARTNERS_H_
