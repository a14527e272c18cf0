// dash::memalloc / dash::memfree and dash::GlobMemAllocPtr (DASH's dynamic global memory): each
// unit allocates its own block of a size of its own, publishes the pointer in a dash::Array, and
// every unit writes into and reads from every other unit's block through it; the native pointer
// only on the owner; structs holding such pointers in an array (DASH's adjacency lists); freed
// memory is reused; a zero-element allocation; bad input (a foreign, moved, freed or oversized
// pointer) throws.
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/memory/GlobMemAlloc.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

// Unit u's block holds 3 + 2u elements (odd sizes, a different one on every unit).
long block_size(long unit) { return 3 + 2 * unit; }

TEST(MemAlloc, EveryUnitWritesAndReadsEveryOtherUnitsBlock) {
  const long n = nunits(), me = myid();
  dash::Array<dash::GlobMemAllocPtr<long>> ptrs(n);
  ptrs[me] = dash::memalloc<long>(block_size(me));
  ptrs.barrier();
  // Unit w writes element w of every block that has one: 1000 * owner + 10 * w.
  for (long u = 0; u < n; ++u) {
    dash::GlobMemAllocPtr<long> p = ptrs[u];
    ASSERT_TRUE(static_cast<bool>(p));
    EXPECT_EQ(p.unit().id, static_cast<int>(u));
    if (me < block_size(u)) p[me] = 1000 * u + 10 * me;
  }
  ptrs.barrier();
  // The owner fills the rest of its block natively.
  dash::GlobMemAllocPtr<long> mine = ptrs[me];
  long* native = static_cast<long*>(mine);
  ASSERT_NE(native, nullptr);
  for (long i = n; i < block_size(me); ++i) native[i] = -i;
  ptrs.barrier();
  for (long u = 0; u < n; ++u) {
    dash::GlobMemAllocPtr<long> p = ptrs[u];
    if (u != me) {
      EXPECT_EQ(static_cast<long*>(p), nullptr) << "unit " << u;
    }
    for (long i = 0; i < block_size(u); ++i) {
      const long expected = i < n ? 1000 * u + 10 * i : -i;
      EXPECT_EQ(static_cast<long>(p[i]), expected) << "block of unit " << u << ", element " << i;
      EXPECT_EQ(static_cast<long>(*(p + i)), expected);
    }
  }
  ptrs.barrier();
  dash::memfree(mine, block_size(me));
}

struct Node {
  int id;
  int degree;
  dash::GlobMemAllocPtr<int> adj;
};

TEST(MemAlloc, PointersInsideArrayElementsReachListsOfAnyUnit) {
  const long n = nunits();
  const long nodes_total = 4 * n + 1;
  dash::Array<Node> nodes(nodes_total);
  // Node g has g % 5 neighbours (0 included: a null list); its owner allocates the list.
  for (std::size_t l = 0; l < nodes.lsize(); ++l) {
    Node& node = nodes.local[l];
    const int g = static_cast<int>(nodes.pattern().global(static_cast<long>(l)));
    node.id = g;
    node.degree = g % 5;
    node.adj = dash::memalloc<int>(static_cast<std::size_t>(node.degree));
    EXPECT_EQ(static_cast<bool>(node.adj), node.degree > 0);
  }
  nodes.barrier();
  // Unit 0 writes every list through the array; the others read them back.
  if (myid() == 0) {
    for (long g = 0; g < nodes_total; ++g) {
      Node node = nodes[g];
      for (int j = 0; j < node.degree; ++j) node.adj[j] = static_cast<int>(100 * g + j);
    }
  }
  nodes.barrier();
  for (long g = 0; g < nodes_total; ++g) {
    Node node = nodes[g];
    ASSERT_EQ(node.id, g);
    for (int j = 0; j < node.degree; ++j) EXPECT_EQ(static_cast<int>(node.adj[j]), 100 * g + j);
  }
  nodes.barrier();
  for (std::size_t l = 0; l < nodes.lsize(); ++l) dash::memfree(nodes.local[l].adj);
}

TEST(MemAlloc, FreedMemoryIsReusedAndZeroElementsGiveNull) {
  auto empty = dash::memalloc<double>(0);
  EXPECT_FALSE(static_cast<bool>(empty));
  dash::memfree(empty);  // a null pointer is ignored
  // Allocating and freeing many times never exhausts the pool.
  for (int round = 0; round < 1000; ++round) {
    auto p = dash::memalloc<double>(1024);
    static_cast<double*>(p)[1023] = round;
    EXPECT_EQ(static_cast<double>(p[1023]), round);
    dash::memfree(p, 1024);
  }
}

TEST(MemAlloc, BadInputThrows) {
  EXPECT_THROW(dash::memalloc<std::int64_t>(std::numeric_limits<std::size_t>::max() / 4),
               dash::exception::InvalidArgument);
  // More than the pool holds (64 MiB unless DART_LOCAL_POOL_SIZE says otherwise).
  EXPECT_THROW(dash::memalloc<char>(std::size_t(1) << 40), dash::exception::OutOfMemory);
  auto p = dash::memalloc<int>(8);
  EXPECT_THROW(dash::memfree(p + 1), dash::exception::InvalidArgument);  // not a block's start
  dash::memfree(p);
  EXPECT_THROW(dash::memfree(p), dash::exception::InvalidArgument);  // freed twice
  // Another unit's block may only be freed by its owner.
  const long n = nunits(), me = myid();
  dash::Array<dash::GlobMemAllocPtr<int>> ptrs(n);
  ptrs[me] = dash::memalloc<int>(4);
  ptrs.barrier();
  dash::GlobMemAllocPtr<int> neighbour = ptrs[(me + 1) % n];
  if (n > 1) {
    EXPECT_THROW(dash::memfree(neighbour), dash::exception::InvalidArgument);
  }
  ptrs.barrier();
  dash::GlobMemAllocPtr<int> own = ptrs[me];
  dash::memfree(own);
}

}  // namespace
