// dash::bp::reduce with the regular partner structures, checked on every
// unit against the MPI collective that computes the same thing:
//   merge      sum of every block's vector at block 0      vs MPI_Reduce
//   swap       each block's slice of the sum                vs MPI_Reduce_scatter
//   all-reduce the sum at every block                       vs MPI_Allreduce
//   broadcast  block 0's payload at every block
// swept over k in {2, 4, 8}, block counts {1, 3, 6, 7, 8, 12}, 1-D, 2-D and
// 3-D decompositions, contiguous and round-robin assignment, contiguous and
// non-contiguous groups; merge and swap once with values sent by copy and
// once with enqueue_view. Values depend on block and index, and sums are
// exact integers, so a piece placed at the wrong offset or summed twice
// shows. Also: the rounds' group sizes, that every out_link matches an
// in_link, the order blocks are merged in, every kind of queue (values,
// misaligned views, enqueue_view arrays read in place, as a vector or value
// by value), dequeue_combine of arrays of every size (in the packed message, sent on their
// own in one piece or several, elements straddling pieces, taken out of order, left unread),
// and bad inputs (k < 2, a master of another size, dequeue /
// enqueue outside the links, mixing enqueue and enqueue_view, an exception
// in one block reaching every unit without a hang).
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <dash/bp/Reduce.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

using dash::bp::Assignment;
using dash::bp::Master;
using dash::bp::ReduceProxy;
using dash::bp::RegularAllReducePartners;
using dash::bp::RegularBroadcastPartners;
using dash::bp::RegularDecomposer;
using dash::bp::RegularMergePartners;
using dash::bp::RegularSwapPartners;
using dash_test::myid;
using dash_test::nunits;

constexpr std::size_t kValues = 61;  // elements per block: splits unevenly

// Element i of block gid's vector.
long ValueAt(int gid, std::size_t i) { return (gid + 1) * 1000003L + long(i) * (gid % 7 + 1); }

struct Block {
  int gid = 0;
  std::vector<long> values;
  std::vector<int> merged;               // gids whose values were summed here, in merge order
  std::size_t begin = 0, end = kValues;  // swap: the slice this block holds
  std::string payload;
  std::array<int, 3> triple{};  // sent by enqueue_view in Queues_ViewsValuesAndTheirErrors
  int calls = 0;
};

}  // namespace

// Blocks can be evicted under a memory-block limit (DASH_OOC_MEM_BLOCKS).
template <>
struct dash::bp::Serialization<Block> {
  static void save(MemoryBuffer& buf, const Block& b) {
    dash::bp::save(buf, std::make_tuple(b.gid, b.values, b.merged, b.begin, b.end, b.payload,
                                        b.triple, b.calls));
  }
  static void load(MemoryBuffer& buf, Block& b) {
    auto members =
        std::tie(b.gid, b.values, b.merged, b.begin, b.end, b.payload, b.triple, b.calls);
    dash::bp::load(buf, members);
  }
};

namespace {

struct Case {
  int k;
  int nblocks;
  Assignment assignment;
  bool contiguous;
  std::string name() const {
    return "k " + std::to_string(k) + ", " + std::to_string(nblocks) + " blocks, " +
           (assignment == Assignment::contiguous ? "contiguous" : "round-robin") + " assignment, " +
           (contiguous ? "contiguous" : "non-contiguous") + " groups";
  }
};

template <dash::dim_t N>
RegularDecomposer<N> Decomposer(int nblocks) {
  dash::bp::Box<N> domain;
  for (dash::dim_t d = 0; d < N; ++d) domain.max[d] = N == 1 ? 96 : 24;
  return RegularDecomposer<N>(domain, nblocks);
}

// A master holding the calling unit's blocks, each with its vector.
std::unique_ptr<Master<Block>> MakeMaster(int nblocks, Assignment a) {
  auto master = std::make_unique<Master<Block>>(nblocks, a);
  for (int gid : dash::bp::local_gids(myid(), nblocks, nunits(), a)) {
    auto b = std::make_unique<Block>();
    b->gid = gid;
    b->values.resize(kValues);
    for (std::size_t i = 0; i < kValues; ++i) b->values[i] = ValueAt(gid, i);
    b->merged = {gid};
    master->add(gid, std::move(b), {});
  }
  return master;
}

// The sum over the calling unit's blocks of their initial vectors.
std::vector<long> LocalSum(Master<Block>& master) {
  std::vector<long> sum(kValues, 0);
  for (std::size_t b = 0; b < master.size(); ++b)
    for (std::size_t i = 0; i < kValues; ++i) sum[i] += ValueAt(master.gid(b), i);
  return sum;
}

// Runs the reduction; an exception fails the test, and the unit goes on to
// the collectives that follow, so that the other units do not wait.
template <class Partners, class F>
void Reduce(Master<Block>& master, const Partners& partners, F f) {
  try {
    dash::bp::reduce(master, partners, f);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "reduce threw: " << e.what();
  }
}

// Runs check(decomposer, case) over every case, in 1, 2 and 3 dimensions.
template <class Check>
void ForEachCase(Check check) {
  for (int k : {2, 4, 8})
    for (int nb : {1, 3, 6, 7, 8, 12})
      for (Assignment a : {Assignment::contiguous, Assignment::round_robin})
        for (bool contiguous : {true, false}) {
          const Case c{k, nb, a, contiguous};
          SCOPED_TRACE(c.name());
          {
            SCOPED_TRACE("1-D");
            check(Decomposer<1>(nb), c);
          }
          {
            SCOPED_TRACE("2-D");
            check(Decomposer<2>(nb), c);
          }
          {
            SCOPED_TRACE("3-D");
            check(Decomposer<3>(nb), c);
          }
        }
}

// ---- partner structures (local) ------------------------------------------

template <class Partners>
std::vector<int> Sizes(const Partners& p) {
  std::vector<int> s;
  for (int r = 0; r < p.rounds(); ++r) s.push_back(p.size(r));
  return s;
}

TEST(BlocksReduce, Rounds_FactorDivisionsIntoGroupsOfAtMostK) {
  EXPECT_EQ(Sizes(RegularSwapPartners<1>(Decomposer<1>(12), 8)), (std::vector<int>{6, 2}));
  EXPECT_EQ(Sizes(RegularSwapPartners<1>(Decomposer<1>(6), 4)), (std::vector<int>{3, 2}));
  EXPECT_EQ(Sizes(RegularSwapPartners<1>(Decomposer<1>(8), 2)), (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(Sizes(RegularSwapPartners<1>(Decomposer<1>(8), 8)), (std::vector<int>{8}));
  EXPECT_EQ(Sizes(RegularSwapPartners<1>(Decomposer<1>(7), 2)), (std::vector<int>{7}));
  EXPECT_EQ(Sizes(RegularSwapPartners<1>(Decomposer<1>(1), 2)), (std::vector<int>{}));
  EXPECT_EQ(RegularAllReducePartners<1>(Decomposer<1>(12), 2).rounds(), 6);
  // 2-D: rounds alternate over the dimensions.
  RegularDecomposer<2> dec({{0, 0}, {24, 24}}, 12, {}, {4, 3});
  RegularMergePartners<2> merge(dec, 2);
  ASSERT_EQ(merge.rounds(), 3);
  EXPECT_EQ(merge.dim(0), 0);
  EXPECT_EQ(merge.size(0), 2);
  EXPECT_EQ(merge.dim(1), 1);
  EXPECT_EQ(merge.size(1), 3);
  EXPECT_EQ(merge.dim(2), 0);
  EXPECT_EQ(merge.size(2), 2);
}

TEST(BlocksReduce, Groups_ContiguousGrowNonContiguousShrink) {
  const auto dec = Decomposer<1>(8);
  std::vector<int> link;
  RegularMergePartners<1> near(dec, 2, true), far(dec, 2, false);
  near.incoming(1, 0, link);
  EXPECT_EQ(link, (std::vector<int>{0, 1}));
  near.incoming(3, 0, link);
  EXPECT_EQ(link, (std::vector<int>{0, 4}));
  far.incoming(1, 0, link);
  EXPECT_EQ(link, (std::vector<int>{0, 4}));
  far.outgoing(0, 6, link);
  EXPECT_EQ(link, (std::vector<int>{2}));
  EXPECT_FALSE(near.active(1, 1));
  EXPECT_TRUE(near.active(1, 2));
  RegularSwapPartners<1> swap(dec, 4, true);  // sizes 4, 2
  swap.outgoing(0, 5, link);
  EXPECT_EQ(link, (std::vector<int>{4, 5, 6, 7}));
  swap.outgoing(1, 5, link);
  EXPECT_EQ(link, (std::vector<int>{1, 5}));
  RegularBroadcastPartners<1> bcast(dec, 2, true);
  EXPECT_TRUE(bcast.active(0, 0));
  EXPECT_FALSE(bcast.active(0, 4));
  bcast.outgoing(0, 0, link);
  EXPECT_EQ(link, (std::vector<int>{0, 4}));
  bcast.incoming(1, 4, link);
  EXPECT_EQ(link, (std::vector<int>{0}));
}

// Every out_link of call r names exactly the blocks whose in_link of call
// r + 1 names the sender, only active blocks have links, and links are
// sorted and contain no duplicates.
template <class Partners>
void CheckAgreement(const Partners& p) {
  const int nb = p.nblocks();
  std::vector<int> out, in;
  for (int r = 0; r <= p.rounds(); ++r)
    for (int a = 0; a < nb; ++a) {
      p.outgoing(r, a, out);
      p.incoming(r, a, in);
      EXPECT_TRUE(std::is_sorted(out.begin(), out.end()));
      EXPECT_TRUE(std::adjacent_find(out.begin(), out.end()) == out.end());
      EXPECT_TRUE(std::is_sorted(in.begin(), in.end()));
      if (!p.active(r, a)) {
        EXPECT_TRUE(out.empty() && in.empty()) << "inactive block " << a << " call " << r;
      }
      if (r == p.rounds()) {
        EXPECT_TRUE(out.empty());
      }
      if (r == 0) {
        EXPECT_TRUE(in.empty());
      }
      for (int b = 0; b < nb && r < p.rounds(); ++b) {
        p.incoming(r + 1, b, in);
        const bool sends = std::count(out.begin(), out.end(), b) == 1;
        const bool expects = std::count(in.begin(), in.end(), a) == 1;
        EXPECT_EQ(sends, expects) << a << " -> " << b << " in call " << r;
      }
    }
}

TEST(BlocksReduce, Partners_OutLinksMatchInLinks) {
  DASH_TEST_ON_UNIT0 {
    ForEachCase([](const auto& dec, const Case& c) {
      CheckAgreement(RegularMergePartners(dec, c.k, c.contiguous));
      CheckAgreement(RegularSwapPartners(dec, c.k, c.contiguous));
      CheckAgreement(RegularBroadcastPartners(dec, c.k, c.contiguous));
      CheckAgreement(RegularAllReducePartners(dec, c.k, c.contiguous));
    });
  }
}

// ---- reductions (collective) ---------------------------------------------

// views: members other than the root send their vector with enqueue_view
// (no copy) and the root reads it with dequeue; otherwise every member
// sends by value to the root, itself included, with the gids it merged, and
// the root takes every member's queue in in_link order.
template <dash::dim_t N>
void CheckMerge(const RegularDecomposer<N>& dec, const Case& c, bool views) {
  auto master = MakeMaster(c.nblocks, c.assignment);
  RegularMergePartners<N> partners(dec, c.k, c.contiguous);
  Reduce(*master, partners, [views](Block& b, ReduceProxy& rp) {
    ++b.calls;
    if (views) {
      for (int from : rp.in_link()) {
        if (from == rp.gid()) continue;
        std::vector<long> v;
        rp.dequeue(from, v);
        if (v.size() != kValues) throw std::runtime_error("wrong vector length");
        for (std::size_t i = 0; i < kValues; ++i) b.values[i] += v[i];
        b.merged.push_back(from);
      }
      for (int to : rp.out_link())
        if (to != rp.gid()) rp.enqueue_view(to, b.values.data(), b.values.size());
      return;
    }
    if (!rp.in_link().empty()) {
      std::vector<long> sum(kValues, 0);
      std::vector<int> merged;
      for (int from : rp.in_link()) {
        std::vector<long> v;
        std::vector<int> gids;
        rp.dequeue(from, v);
        rp.dequeue(from, gids);
        EXPECT_EQ(rp.incoming(from), 0u);
        if (v.size() != kValues) throw std::runtime_error("wrong vector length");
        for (std::size_t i = 0; i < kValues; ++i) sum[i] += v[i];
        merged.insert(merged.end(), gids.begin(), gids.end());
      }
      b.values = sum;
      b.merged = merged;
    }
    for (int to : rp.out_link()) {
      rp.enqueue(to, b.values);
      rp.enqueue(to, b.merged);
    }
  });
  const std::vector<long> mine = LocalSum(*master);
  std::vector<long> total(kValues, 0);
  const int root = master->owner(0);
  MPI_Reduce(mine.data(), total.data(), int(kValues), MPI_LONG, MPI_SUM, root, MPI_COMM_WORLD);
  for (std::size_t b = 0; b < master->size(); ++b) {
    const Block& blk = master->block(b);
    if (blk.gid != 0) continue;
    EXPECT_EQ(blk.values, total);
    EXPECT_EQ(blk.calls, partners.rounds() + 1);
    if (views) continue;
    std::vector<int> sorted = blk.merged, all(std::size_t(c.nblocks));
    std::sort(sorted.begin(), sorted.end());
    std::iota(all.begin(), all.end(), 0);
    EXPECT_EQ(sorted, all);
    // Neighbours first: along one dimension the blocks merge in order.
    if (N == 1 && c.contiguous) {
      EXPECT_EQ(blk.merged, all);
    }
  }
}

TEST(BlocksReduce, Merge_SumsAtBlockZero_MatchesMPIReduce) {
  ForEachCase([](const auto& dec, const Case& c) {
    CheckMerge(dec, c, false);
    CheckMerge(dec, c, true);
  });
}

// Part j of [begin, end) cut into m parts.
std::pair<std::size_t, std::size_t> Part(std::size_t begin, std::size_t end, std::size_t j,
                                         std::size_t m) {
  const std::size_t n = end - begin;
  return {begin + n * j / m, begin + n * (j + 1) / m};
}

// views: every member sends every part, its own included, with
// enqueue_view and reads them in place; otherwise it keeps its own part and
// sends copies of the others' (enqueue of a range), read in place.
template <dash::dim_t N>
void CheckSwap(const RegularDecomposer<N>& dec, const Case& c, bool views) {
  auto master = MakeMaster(c.nblocks, c.assignment);
  RegularSwapPartners<N> partners(dec, c.k, c.contiguous);
  Reduce(*master, partners, [views](Block& b, ReduceProxy& rp) {
    ++b.calls;
    const auto& in = rp.in_link();
    if (!in.empty()) {
      const std::size_t pos = std::size_t(std::find(in.begin(), in.end(), rp.gid()) - in.begin());
      std::tie(b.begin, b.end) = Part(b.begin, b.end, pos, in.size());
      std::vector<long> sum(b.end - b.begin, 0);
      if (!views)
        std::copy(b.values.begin() + long(b.begin), b.values.begin() + long(b.end), sum.begin());
      for (int from : in) {
        if (from == rp.gid() && !views) continue;
        auto piece = rp.dequeue_view<long>(from);
        if (piece.size() != sum.size()) throw std::runtime_error("wrong piece length");
        for (std::size_t i = 0; i < piece.size(); ++i) sum[i] += piece[i];
      }
      std::copy(sum.begin(), sum.end(), b.values.begin() + long(b.begin));
    }
    const auto& out = rp.out_link();
    for (std::size_t j = 0; j < out.size(); ++j) {
      const auto [lo, hi] = Part(b.begin, b.end, j, out.size());
      if (views)
        rp.enqueue_view(out[j], b.values.data() + lo, hi - lo);
      else if (out[j] != rp.gid())
        rp.enqueue(out[j], b.values.data() + lo, hi - lo);
    }
  });
  // Every block's slice, known on every unit: slices[2 gid] = begin, +1 = end.
  const int nb = c.nblocks;
  std::vector<long> mine(std::size_t(2 * nb), 0), slices(std::size_t(2 * nb), 0);
  for (std::size_t b = 0; b < master->size(); ++b) {
    const Block& blk = master->block(b);
    EXPECT_EQ(blk.calls, partners.rounds() + 1);
    mine[std::size_t(2 * blk.gid)] = long(blk.begin);
    mine[std::size_t(2 * blk.gid + 1)] = long(blk.end);
  }
  MPI_Allreduce(mine.data(), slices.data(), 2 * nb, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  // The slices cut [0, kValues) into nb pieces.
  std::vector<std::pair<long, long>> cut;
  for (int g = 0; g < nb; ++g)
    cut.push_back({slices[std::size_t(2 * g)], slices[std::size_t(2 * g + 1)]});
  std::sort(cut.begin(), cut.end());
  long at = 0;
  for (const auto& [lo, hi] : cut) {
    EXPECT_EQ(lo, at);
    at = hi;
  }
  EXPECT_EQ(at, long(kValues));
  // MPI_Reduce_scatter of the unit sums, laid out as unit 0's blocks'
  // slices (in gid order), then unit 1's, ...: unit u receives its blocks'.
  const std::vector<long> local = LocalSum(*master);
  std::vector<long> send;
  std::vector<int> counts(std::size_t(nunits()), 0);
  for (int u = 0; u < nunits(); ++u)
    for (int g = 0; g < nb; ++g)
      if (master->owner(g) == u)
        for (long i = slices[std::size_t(2 * g)]; i < slices[std::size_t(2 * g + 1)]; ++i) {
          send.push_back(local[std::size_t(i)]);
          ++counts[std::size_t(u)];
        }
  std::vector<long> expected(std::size_t(counts[std::size_t(myid())]) + 1);
  MPI_Reduce_scatter(send.data(), expected.data(), counts.data(), MPI_LONG, MPI_SUM,
                     MPI_COMM_WORLD);
  std::size_t next = 0;
  for (int g = 0; g < nb; ++g) {
    if (master->owner(g) != myid()) continue;
    for (std::size_t b = 0; b < master->size(); ++b) {
      const Block& blk = master->block(b);
      if (blk.gid != g) continue;
      for (std::size_t i = blk.begin; i < blk.end; ++i, ++next)
        ASSERT_EQ(blk.values[i], expected[next]) << "block " << g << " element " << i;
    }
  }
}

TEST(BlocksReduce, Swap_EachBlockHoldsItsSliceOfTheSum_MatchesMPIReduceScatter) {
  ForEachCase([](const auto& dec, const Case& c) {
    CheckSwap(dec, c, false);
    CheckSwap(dec, c, true);
  });
}

template <dash::dim_t N>
void CheckAllReduce(const RegularDecomposer<N>& dec, const Case& c) {
  auto master = MakeMaster(c.nblocks, c.assignment);
  RegularAllReducePartners<N> partners(dec, c.k, c.contiguous);
  // One function for both halves: sum what came in (the merge's group, or
  // the one block of the broadcast), send it on.
  Reduce(*master, partners, [](Block& b, ReduceProxy& rp) {
    if (!rp.in_link().empty()) {
      std::vector<long> sum(kValues, 0);
      for (int from : rp.in_link()) {
        std::vector<long> v;
        rp.dequeue(from, v);
        for (std::size_t i = 0; i < kValues && i < v.size(); ++i) sum[i] += v[i];
      }
      b.values = sum;
    }
    for (int to : rp.out_link()) rp.enqueue(to, b.values);
  });
  const std::vector<long> mine = LocalSum(*master);
  std::vector<long> total(kValues, 0);
  MPI_Allreduce(mine.data(), total.data(), int(kValues), MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  for (std::size_t b = 0; b < master->size(); ++b)
    EXPECT_EQ(master->block(b).values, total) << "block " << master->gid(b);
}

TEST(BlocksReduce, AllReduce_SumAtEveryBlock_MatchesMPIAllreduce) {
  ForEachCase([](const auto& dec, const Case& c) { CheckAllReduce(dec, c); });
}

template <dash::dim_t N>
void CheckBroadcast(const RegularDecomposer<N>& dec, const Case& c) {
  auto master = MakeMaster(c.nblocks, c.assignment);
  RegularBroadcastPartners<N> partners(dec, c.k, c.contiguous);
  const std::string message = "from block 0, " + c.name();
  for (std::size_t b = 0; b < master->size(); ++b)
    if (master->gid(b) == 0) master->block(b).payload = message;
  Reduce(*master, partners, [](Block& b, ReduceProxy& rp) {
    ++b.calls;
    if (!rp.in_link().empty()) {
      EXPECT_EQ(rp.in_link().size(), 1u);
      rp.dequeue(rp.in_link()[0], b.payload);
    }
    for (int to : rp.out_link()) rp.enqueue(to, b.payload);
  });
  for (std::size_t b = 0; b < master->size(); ++b) {
    EXPECT_EQ(master->block(b).payload, message) << "block " << master->gid(b);
    EXPECT_GE(master->block(b).calls, 1);
  }
}

TEST(BlocksReduce, Broadcast_BlockZerosPayloadReachesEveryBlock) {
  ForEachCase([](const auto& dec, const Case& c) { CheckBroadcast(dec, c); });
}

// Many blocks per unit and a bigger group: 60 blocks in 2-D, k = 4.
TEST(BlocksReduce, AllReduce_ManyBlocks) {
  for (Assignment a : {Assignment::contiguous, Assignment::round_robin})
    CheckAllReduce(Decomposer<2>(60), Case{4, 60, a, true});
  CheckSwap(Decomposer<3>(60), Case{3, 60, Assignment::round_robin, false}, true);
}

// One queue per (block, target) of every kind: to itself a char and then a
// vector of doubles (misaligned for an in-place view: read through a copy);
// to the others three ints by enqueue_view, read in place, as a vector, or
// value by value (count first) as std::vector<int>'s format has it. Mixing
// enqueue and enqueue_view in one queue, and a view of the wrong element
// size, throw.
TEST(BlocksReduce, Queues_ViewsValuesAndTheirErrors) {
  const int nb = 2 * nunits() + 1;
  auto master = MakeMaster(nb, Assignment::round_robin);
  RegularSwapPartners<1> partners(Decomposer<1>(nb), nb);  // one round of nb
  ASSERT_EQ(partners.rounds(), 1);
  const std::vector<double> doubles = {0.5, -1.25, 3e10};
  Reduce(*master, partners, [&doubles](Block& b, ReduceProxy& rp) {
    if (rp.round() == 0) {
      for (int to : rp.out_link()) {
        if (to == rp.gid()) {
          rp.enqueue(to, 'x');
          rp.enqueue(to, doubles);
          EXPECT_THROW(rp.enqueue_view(to, b.triple.data(), 3), dash::exception::InvalidArgument);
        } else {
          b.triple = {b.gid, -b.gid, 7};
          rp.enqueue_view(to, b.triple.data(), 3);
          EXPECT_THROW(rp.enqueue(to, 1), dash::exception::InvalidArgument);
          EXPECT_THROW(rp.enqueue_view(to, b.triple.data(), 3), dash::exception::InvalidArgument);
        }
      }
      return;
    }
    for (int from : rp.in_link()) {
      if (from == rp.gid()) {
        char c = 0;
        rp.dequeue(from, c);
        EXPECT_EQ(c, 'x');
        const auto v = rp.dequeue_view<double>(from);
        EXPECT_EQ(std::vector<double>(v.begin(), v.end()), doubles);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % alignof(double), 0u);
        continue;
      }
      const std::vector<int> expected = {from, -from, 7};
      EXPECT_EQ(rp.incoming(from), sizeof(std::uint64_t) + 3 * sizeof(int));
      EXPECT_THROW(rp.dequeue_view<double>(from), dash::exception::InvalidArgument);
      if (from % 3 == 0) {
        const auto v = rp.dequeue_view<int>(from);
        EXPECT_EQ(std::vector<int>(v.begin(), v.end()), expected);
      } else if (from % 3 == 1) {
        std::vector<int> v;
        rp.dequeue(from, v);
        EXPECT_EQ(v, expected);
      } else {
        std::uint64_t count = 0;
        std::vector<int> v(3);
        rp.dequeue(from, count);
        for (int& x : v) rp.dequeue(from, x);
        EXPECT_EQ(count, 3u);
        EXPECT_EQ(v, expected);
      }
      EXPECT_EQ(rp.incoming(from), 0u);
      int more = 0;
      EXPECT_THROW(rp.dequeue(from, more), dash::exception::InvalidArgument);
    }
  });
}

// enqueue_buffer: a buffer built by the caller (an int, then the block's vector, as enqueue
// writes them) becomes the queue to every other block, of this unit or another, in memory
// and under a one-block limit (queues then go to the store); a queue holding anything already
// refuses one, and the buffer is then left as it was.
TEST(BlocksReduce, EnqueueBuffer_ArrivesAsEnqueued) {
  const int nb = 2 * nunits() + 1;
  for (const bool limited : {false, true}) {
    auto master = MakeMaster(nb, Assignment::round_robin);
    if (limited) master->limit(1);
    RegularSwapPartners<1> partners(Decomposer<1>(nb), nb);  // one round of nb
    ASSERT_EQ(partners.rounds(), 1);
    Reduce(*master, partners, [&](Block& b, ReduceProxy& rp) {
      if (rp.round() == 0) {
        for (int to : rp.out_link()) {
          dash::bp::MemoryBuffer buf;
          dash::bp::save(buf, b.gid * 10 + to);
          dash::bp::save(buf, b.values);
          if (to == rp.gid()) {
            rp.enqueue(to, 'x');
            EXPECT_THROW(rp.enqueue_buffer(to, std::move(buf)), dash::exception::InvalidArgument);
            EXPECT_GT(buf.size(), 0u) << "a refused buffer stays the caller's";
          } else {
            rp.enqueue_buffer(to, std::move(buf));
          }
        }
        return;
      }
      for (int from : rp.in_link()) {
        if (from == rp.gid()) continue;
        int head = 0;
        std::vector<long> values;
        rp.dequeue(from, head);
        rp.dequeue(from, values);
        EXPECT_EQ(head, from * 10 + rp.gid()) << "limited " << limited;
        ASSERT_EQ(values.size(), kValues);
        for (std::size_t i = 0; i < kValues; ++i) ASSERT_EQ(values[i], ValueAt(from, i));
        EXPECT_EQ(rp.incoming(from), 0u);
      }
    });
  }
}

// An enqueue_view array of doubles sent from an address not aligned for
// double (its bytes at an odd offset of a string): it arrives at the
// sender's address residue, so dequeue_view copies it to aligned memory;
// the values are the bytes sent.
TEST(BlocksReduce, Views_FromUnalignedMemory_ReadAligned) {
  const int nb = 2 * nunits() + 1;
  auto master = MakeMaster(nb, Assignment::round_robin);
  RegularSwapPartners<1> partners(Decomposer<1>(nb), nb);  // one round of nb
  auto bytes_of = [](int gid) {
    std::string s(1 + 2 * sizeof(double), '\0');
    const double v[2] = {gid + 0.25, -gid - 0.5};
    std::memcpy(&s[1], v, sizeof v);
    return s;
  };
  Reduce(*master, partners, [&](Block& b, ReduceProxy& rp) {
    if (rp.round() == 0) {
      b.payload = bytes_of(b.gid);
      for (int to : rp.out_link())
        if (to != rp.gid())  // two doubles' bytes, one byte past an aligned address
          rp.enqueue_view(to, reinterpret_cast<const double*>(b.payload.data() + 1), 2);
      return;
    }
    for (int from : rp.in_link()) {
      if (from == rp.gid()) continue;
      const auto v = rp.dequeue_view<double>(from);
      ASSERT_EQ(v.size(), 2u);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % alignof(double), 0u);
      EXPECT_EQ(v[0], from + 0.25);
      EXPECT_EQ(v[1], -from - 0.5);
    }
  });
}

// ---- dequeue_combine -------------------------------------------------------

struct Triple {  // 12 bytes: elements straddle the 256 KiB pieces
  int a, b, c;
  bool operator==(const Triple& o) const { return a == o.a && b == o.b && c == o.c; }
};

// One round in which every block sends block 0 an array of n elements (enqueue_view) and block
// 0 combines them into its own with dequeue_combine, in decreasing gid (so parts that one unit
// sent in increasing gid are taken out of their order), leaving the last block's queue unread
// when skip_last. Checked against the combination computed here.
template <class T, class Make, class Op>
void CheckCombine(std::size_t n, Make make, Op op, bool skip_last) {
  const int nb = 2 * nunits() + 1;
  auto master = MakeMaster(nb, Assignment::round_robin);
  RegularMergePartners<1> partners(Decomposer<1>(nb), nb);
  std::map<int, std::vector<T>> arrays;
  for (std::size_t b = 0; b < master->size(); ++b)
    for (std::size_t i = 0; i < n; ++i) arrays[master->gid(b)].push_back(make(master->gid(b), i));
  std::vector<T> out;
  bool called = false;
  Reduce(*master, partners, [&](Block& blk, ReduceProxy& rp) {
    if (rp.round() == 0) {
      for (int to : rp.out_link())
        if (to != rp.gid()) rp.enqueue_view(to, arrays[blk.gid].data(), n);
      return;
    }
    called = true;
    out = arrays[0];
    for (auto g = rp.in_link().rbegin(); g != rp.in_link().rend(); ++g) {
      if (*g == 0 || (skip_last && *g == nb - 1)) continue;
      rp.dequeue_combine(*g, out.data(), n, op);
      EXPECT_EQ(rp.incoming(*g), 0u);
    }
  });
  if (master->owner(0) != myid()) return;
  EXPECT_TRUE(called);
  std::vector<T> want(n);
  for (std::size_t i = 0; i < n; ++i) {
    want[i] = make(0, i);
    for (int g = 1; g < nb - (skip_last ? 1 : 0); ++g) want[i] = op(want[i], make(g, i));
  }
  EXPECT_TRUE(out == want);
}

// Sizes below the direct size (in the packed message), at it, and across several pieces.
TEST(BlocksReduce, DequeueCombine_CombinesArraysOfEverySize) {
  for (std::size_t n : {0, 7, 4096, 40000, 131075}) {
    SCOPED_TRACE("n " + std::to_string(n));
    CheckCombine<long>(n, ValueAt, std::plus<>(), false);
    CheckCombine<Triple>(
        n,
        [](int g, std::size_t i) {
          return Triple{g, int(i), g * int(i % 1000)};
        },
        [](Triple x, Triple y) {
          return Triple{x.a + y.a, std::max(x.b, y.b), x.c - y.c};
        },
        n == 40000);
  }
}

// A count that differs from the array's: InvalidArgument on block 0's unit, RemoteFailure on
// the others, and the pieces nobody read do not disturb the next reduction.
TEST(BlocksReduce, DequeueCombine_WrongCount_Throws) {
  const int nb = 2 * nunits() + 1;
  constexpr std::size_t n = 40000;
  auto master = MakeMaster(nb, Assignment::round_robin);
  RegularMergePartners<1> partners(Decomposer<1>(nb), nb);
  std::vector<long> data(n, 1), out(n + 1, 0);
  try {
    dash::bp::reduce(*master, partners, [&](Block&, ReduceProxy& rp) {
      if (rp.round() == 0) {
        for (int to : rp.out_link())
          if (to != rp.gid()) rp.enqueue_view(to, data.data(), n);
        return;
      }
      rp.dequeue_combine(rp.in_link().back(), out.data(), n + 1, std::plus<>());
    });
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_EQ(myid(), master->owner(0)) << e.what();
    EXPECT_NE(std::string(e.what()).find("holds 40000 elements, not 40001"), std::string::npos)
        << e.what();
  } catch (const dash::exception::RemoteFailure& e) {
    EXPECT_NE(myid(), master->owner(0)) << e.what();
  }
  EXPECT_EQ(out, std::vector<long>(n + 1, 0));
  CheckCombine<long>(n, ValueAt, std::plus<>(), false);
}

// A wrong count, caught in the callback, combines nothing and consumes nothing: the same array
// is then combined with its count, in the queue (under 32 KiB) and in pieces alike.
TEST(BlocksReduce, DequeueCombine_WrongCount_LeavesTheArrayToRead) {
  for (std::size_t n : {std::size_t(100), std::size_t(40000)}) {
    SCOPED_TRACE("n " + std::to_string(n));
    const int nb = 2 * nunits() + 1;
    auto master = MakeMaster(nb, Assignment::round_robin);
    RegularMergePartners<1> partners(Decomposer<1>(nb), nb);
    std::map<int, std::vector<long>> arrays;
    for (std::size_t b = 0; b < master->size(); ++b)
      for (std::size_t i = 0; i < n; ++i)
        arrays[master->gid(b)].push_back(ValueAt(master->gid(b), i));
    std::vector<long> out;
    Reduce(*master, partners, [&](Block& blk, ReduceProxy& rp) {
      if (rp.round() == 0) {
        for (int to : rp.out_link())
          if (to != rp.gid()) rp.enqueue_view(to, arrays[blk.gid].data(), n);
        return;
      }
      out = arrays[0];
      out.push_back(-1);
      for (int g : rp.in_link()) {
        if (g == 0) continue;
        const std::vector<long> before = out;
        const std::size_t left = rp.incoming(g);
        try {
          rp.dequeue_combine(g, out.data(), n + 1, std::plus<>());
          ADD_FAILURE() << "no exception from block " << g;
        } catch (const dash::exception::InvalidArgument& e) {
          EXPECT_NE(std::string(e.what()).find("holds " + std::to_string(n) + " elements, not " +
                                               std::to_string(n + 1)),
                    std::string::npos)
              << e.what();
        }
        EXPECT_EQ(out, before) << "combined although the count was wrong";
        EXPECT_EQ(rp.incoming(g), left) << "read from although the count was wrong";
        rp.dequeue_combine(g, out.data(), n, std::plus<>());
      }
    });
    if (master->owner(0) != myid()) continue;
    for (std::size_t i = 0; i < n; ++i) {
      long want = 0;
      for (int g = 0; g < nb; ++g) want += ValueAt(g, i);
      ASSERT_EQ(out[i], want) << "element " << i;
    }
    EXPECT_EQ(out[n], -1);
  }
}

// ---- bad inputs ----------------------------------------------------------

TEST(BlocksReduce, GroupLimitBelowTwo_Throws) {
  const auto dec = Decomposer<2>(6);
  EXPECT_THROW(RegularMergePartners<2>(dec, 1), dash::exception::InvalidArgument);
  EXPECT_THROW(RegularSwapPartners<2>(dec, 0), dash::exception::InvalidArgument);
  EXPECT_THROW(RegularBroadcastPartners<2>(dec, -3), dash::exception::InvalidArgument);
  EXPECT_THROW(RegularAllReducePartners<2>(dec, 1), dash::exception::InvalidArgument);
}

TEST(BlocksReduce, MasterOfAnotherSize_Throws) {
  auto master = MakeMaster(6, Assignment::contiguous);
  RegularMergePartners<1> partners(Decomposer<1>(8), 2);
  try {
    dash::bp::reduce(*master, partners, [](Block&, ReduceProxy&) {});
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("8 blocks, the master 6"), std::string::npos) << e.what();
  }
}

// Every block dequeues from a block outside its in_link: every unit throws.
TEST(BlocksReduce, DequeueOutsideInLink_ThrowsOnEveryUnit) {
  const int nb = 2 * nunits();
  auto master = MakeMaster(nb, Assignment::round_robin);
  RegularSwapPartners<1> partners(Decomposer<1>(nb), 2);
  try {
    dash::bp::reduce(*master, partners, [nb](Block&, ReduceProxy& rp) {
      if (rp.round() == 1) {
        long v;
        rp.dequeue(nb + 1, v);
      }
    });
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("not in its in_link"), std::string::npos) << e.what();
  }
  EXPECT_THROW(
      dash::bp::reduce(*master, partners, [nb](Block&, ReduceProxy& rp) { rp.enqueue(nb + 3, 1); }),
      dash::exception::InvalidArgument);
}

// Block 0 fails in the first call of a swap: its unit rethrows the error,
// and every other unit throws RemoteFailure naming unit 0 instead of
// waiting. A reduction afterwards works.
TEST(BlocksReduce, FailureInOneBlock_ReachesEveryUnit) {
  const int nb = 3 * nunits();
  auto master = MakeMaster(nb, Assignment::contiguous);
  RegularSwapPartners<2> partners(Decomposer<2>(nb), 2);
  auto fail_block_zero = [](Block&, ReduceProxy& rp) {
    if (rp.gid() == 0) throw std::runtime_error("block 0 gives up");
  };
  try {
    dash::bp::reduce(*master, partners, fail_block_zero);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("block 0 gives up"), std::string::npos) << e.what();
  }
  auto bad_dequeue_in_block_zero = [](Block&, ReduceProxy& rp) {
    long v;
    if (rp.gid() == 0) rp.dequeue(12345, v);
  };
  try {
    dash::bp::reduce(*master, partners, bad_dequeue_in_block_zero);
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::RemoteFailure& e) {
    EXPECT_NE(myid(), 0);
    EXPECT_EQ(e.unit(), 0);
    EXPECT_NE(e.message().find("block 0 in round 0"), std::string::npos) << e.what();
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_EQ(myid(), 0) << e.what();
  }
  CheckAllReduce(Decomposer<2>(nb), Case{2, nb, Assignment::contiguous, true});
}

}  // namespace
