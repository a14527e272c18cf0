// Global memory: collective team allocation of any size, local and shared addresses of global
// pointers, global pointer arithmetic, the dart_memalloc pool (many blocks, odd free order,
// access by other units, exhaustion) and custom element types.
// Run plain and as the variants shm_off / vnode1 / vnode2 (see CMakeLists.txt), whose
// environment decides which units dart_gptr_getaddr_shared reaches.
#include <dart/dart.h>
#include <strings.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "dart_test_util.h"
#include "mpi_test.h"

namespace {

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

// The fast-path configuration this run was started with (the same rules as dart_init).
bool SharedWindowsOn() {
  const char* v = std::getenv("DART_SHARED_WINDOWS");
  if (v == nullptr) return true;
  return !(std::strcmp(v, "0") == 0 || strcasecmp(v, "off") == 0 || strcasecmp(v, "false") == 0 ||
           strcasecmp(v, "no") == 0);
}

int VirtualNodeSize() {
  const char* v = std::getenv("DART_VIRTUAL_NODE_SIZE");
  return v != nullptr ? std::atoi(v) : 0;
}

// True if global unit `other` is reached by load/store from this unit: itself, and with shared
// windows on, units of the same (emulated) node.
bool ExpectShared(int other) {
  if (other == Me()) return true;
  if (!SharedWindowsOn()) return false;
  return dash_test::ExpectedNode(other) == dash_test::ExpectedNode(Me());
}

dart_gptr_t AtUnit(dart_gptr_t gptr, int team_unit) {
  EXPECT_EQ(dart_gptr_setunit(&gptr, DART_TEAM_UNIT_ID(team_unit)), DART_OK);
  return gptr;
}

unsigned char Pattern(int unit, size_t byte) {
  return static_cast<unsigned char>(unit * 37 + byte * 11 + 1);
}

size_t TypeSize(dart_datatype_t type) {
  size_t size = 0;
  EXPECT_EQ(dart_op_type_size(type, &size), DART_OK);
  return size;
}

// ---- team allocation -------------------------------------------------------------------------

struct AllocCase {
  size_t nelem;
  dart_datatype_t type;
};

TEST(DartTeamMemalloc, EverySizeIsWrittenLocallyAndReadByEveryUnit) {
  const AllocCase cases[] = {{0, DART_TYPE_INT},         {1, DART_TYPE_BYTE},
                             {7, DART_TYPE_BYTE},        {13, DART_TYPE_INT},
                             {3, DART_TYPE_SHORT},       {1001, DART_TYPE_DOUBLE},
                             {5, DART_TYPE_LONG_DOUBLE}, {(1u << 20) + 3, DART_TYPE_BYTE}};
  for (const AllocCase& c : cases) {
    const size_t nbytes = c.nelem * TypeSize(c.type);
    SCOPED_TRACE(std::to_string(c.nelem) + " elements of type " + std::to_string(c.type));
    dart_gptr_t gptr = DART_GPTR_NULL;
    EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, c.nelem, c.type, &gptr), DART_OK);
    EXPECT_FALSE(DART_GPTR_ISNULL(gptr));
    EXPECT_EQ(gptr.unitid, 0);
    EXPECT_EQ(gptr.teamid, DART_TEAM_ALL);
    EXPECT_EQ(dart_gptr_offset(gptr), 0u);
    for (int u = 0; u < N(); ++u) {
      size_t seg = 12345;
      EXPECT_EQ(dart_gptr_segment_size(AtUnit(gptr, u), &seg), DART_OK);
      EXPECT_EQ(seg, nbytes) << "unit " << u;
    }
    // Own part through the local address; other units' parts have none.
    unsigned char* mine = nullptr;
    EXPECT_EQ(dart_gptr_getaddr(AtUnit(gptr, Me()), reinterpret_cast<void**>(&mine)), DART_OK);
    if (nbytes > 0) {
      EXPECT_NE(mine, nullptr);
      // "aligned": every unit's part suits any element type.
      EXPECT_EQ(reinterpret_cast<uintptr_t>(mine) % alignof(std::max_align_t), 0u);
    }
    if (mine != nullptr) {
      for (size_t b = 0; b < nbytes; ++b) mine[b] = Pattern(Me(), b);
    }
    for (int u = 0; u < N(); ++u) {
      if (u == Me()) continue;
      void* addr = &addr;
      EXPECT_EQ(dart_gptr_getaddr(AtUnit(gptr, u), &addr), DART_OK);
      EXPECT_EQ(addr, nullptr) << "unit " << u;
    }
    EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
    std::vector<unsigned char> got(nbytes + 1, 0xEE);
    for (int u = 0; u < N(); ++u) {
      EXPECT_EQ(dart_get_blocking(got.data(), AtUnit(gptr, u), c.nelem, c.type, c.type), DART_OK);
      size_t wrong = 0;
      for (size_t b = 0; b < nbytes; ++b) wrong += got[b] != Pattern(u, b);
      EXPECT_EQ(wrong, 0u) << "bytes read wrongly from unit " << u;
      EXPECT_EQ(got[nbytes], 0xEE) << "get wrote past the end, unit " << u;
    }
    EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
    EXPECT_EQ(dart_team_memfree(gptr), DART_OK);
  }
}

TEST(DartTeamMemalloc, GetaddrSharedIsSetExactlyForUnitsOfTheSameNode) {
  // On DART_TEAM_ALL and on a sub-team in reverse unit order (team ids != global ids).
  dart_team_t reversed = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, 0, -Me(), &reversed), DART_OK);
  for (dart_team_t team : {DART_TEAM_ALL, reversed}) {
    SCOPED_TRACE(team == DART_TEAM_ALL ? "DART_TEAM_ALL" : "reversed team");
    dart_gptr_t gptr = DART_GPTR_NULL;
    EXPECT_EQ(dart_team_memalloc_aligned(team, 4, DART_TYPE_LONG, &gptr), DART_OK);
    dart_team_unit_t me{-1};
    EXPECT_EQ(dart_team_myid(team, &me), DART_OK);
    long* mine = nullptr;
    EXPECT_EQ(dart_gptr_getaddr(AtUnit(gptr, me.id), reinterpret_cast<void**>(&mine)), DART_OK);
    long* mine_shared = nullptr;
    EXPECT_EQ(dart_gptr_getaddr_shared(AtUnit(gptr, me.id), reinterpret_cast<void**>(&mine_shared)),
              DART_OK);
    EXPECT_EQ(mine_shared, mine);
    if (mine != nullptr) {
      for (int i = 0; i < 4; ++i) mine[i] = 100L * Me() + i;
    }
    EXPECT_EQ(dart_barrier(team), DART_OK);
    for (int u = 0; u < N(); ++u) {
      dart_global_unit_t global{-1};
      EXPECT_EQ(dart_team_unit_l2g(team, DART_TEAM_UNIT_ID(u), &global), DART_OK);
      long* shared = nullptr;
      dart_gptr_t part = AtUnit(gptr, u);
      EXPECT_EQ(dart_gptr_incaddr(&part, 2 * sizeof(long)), DART_OK);
      EXPECT_EQ(dart_gptr_getaddr_shared(part, reinterpret_cast<void**>(&shared)), DART_OK);
      EXPECT_EQ(shared != nullptr, ExpectShared(global.id))
          << "team unit " << u << " (global " << global.id << "), DART_SHARED_WINDOWS="
          << (std::getenv("DART_SHARED_WINDOWS") ? std::getenv("DART_SHARED_WINDOWS") : "(unset)")
          << " DART_VIRTUAL_NODE_SIZE=" << VirtualNodeSize();
      if (shared != nullptr) {  // points at element 2 of that unit's part
        EXPECT_EQ(reinterpret_cast<uintptr_t>(shared) % alignof(long), 0u);
        EXPECT_EQ(shared[0], 100L * global.id + 2);
        EXPECT_EQ(shared[1], 100L * global.id + 3);
      }
    }
    EXPECT_EQ(dart_barrier(team), DART_OK);
    // A store through the shared address of the right neighbour is what the owner reads.
    const int right = (me.id + 1) % N();
    long* shared = nullptr;
    EXPECT_EQ(dart_gptr_getaddr_shared(AtUnit(gptr, right), reinterpret_cast<void**>(&shared)),
              DART_OK);
    if (shared != nullptr) shared[0] = -1 - Me();
    EXPECT_EQ(dart_barrier(team), DART_OK);
    const int left = (me.id + N() - 1) % N();
    dart_global_unit_t left_global{-1};
    EXPECT_EQ(dart_team_unit_l2g(team, DART_TEAM_UNIT_ID(left), &left_global), DART_OK);
    if (mine != nullptr) {
      EXPECT_EQ(mine[0], ExpectShared(left_global.id) ? -1 - left_global.id : 100L * Me());
    }
    EXPECT_EQ(dart_barrier(team), DART_OK);
    EXPECT_EQ(dart_team_memfree(gptr), DART_OK);
  }
  EXPECT_EQ(dart_team_destroy(&reversed), DART_OK);
}

// ---- global pointer helpers ------------------------------------------------------------------

TEST(DartGptr, IsSixteenBytesAndNullIsRecognised) {
  EXPECT_EQ(sizeof(dart_gptr_t), 16u);
  dart_gptr_t null = DART_GPTR_NULL;
  EXPECT_TRUE(DART_GPTR_ISNULL(null));
  EXPECT_EQ(null.teamid, DART_TEAM_NULL);
  EXPECT_EQ(null.unitid, DART_UNDEFINED_UNIT_ID);
}

TEST(DartGptr, SetaddrIncaddrSetunitFlagsAndEqual) {
  const int nelem = 16;
  dart_gptr_t gptr = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, nelem, DART_TYPE_INT, &gptr), DART_OK);
  dart_gptr_t mine = AtUnit(gptr, Me());
  int* base = nullptr;
  EXPECT_EQ(dart_gptr_getaddr(mine, reinterpret_cast<void**>(&base)), DART_OK);
  ASSERT_NE(base, nullptr);  // before any collective of this test: all units agree or fail
  for (int i = 0; i < nelem; ++i) base[i] = 0;

  dart_gptr_t p = mine;
  EXPECT_EQ(dart_gptr_setaddr(&p, base + 5), DART_OK);
  EXPECT_EQ(dart_gptr_offset(p), 5 * sizeof(int));
  EXPECT_EQ(p.unitid, Me());
  EXPECT_EQ(p.segid, gptr.segid);
  EXPECT_EQ(p.teamid, DART_TEAM_ALL);
  void* addr = nullptr;
  EXPECT_EQ(dart_gptr_getaddr(p, &addr), DART_OK);
  EXPECT_EQ(addr, base + 5);
  EXPECT_EQ(dart_gptr_incaddr(&p, 2 * sizeof(int)), DART_OK);
  EXPECT_EQ(dart_gptr_getaddr(p, &addr), DART_OK);
  EXPECT_EQ(addr, base + 7);
  EXPECT_EQ(dart_gptr_incaddr(&p, -7 * static_cast<int64_t>(sizeof(int))), DART_OK);
  EXPECT_TRUE(dart_gptr_equal(p, mine));
  EXPECT_EQ(dart_gptr_setaddr(&p, base + nelem), DART_OK);  // one past the end is a position
  EXPECT_EQ(dart_gptr_offset(p), nelem * sizeof(int));

  // Flags: 8 bits, kept apart from the unit, ignored by dart_gptr_equal.
  dart_gptr_t f = mine;
  EXPECT_EQ(dart_gptr_setflags(&f, 0xA5), DART_OK);
  uint16_t flags = 0;
  EXPECT_EQ(dart_gptr_getflags(f, &flags), DART_OK);
  EXPECT_EQ(flags, 0xA5);
  EXPECT_EQ(f.unitid, Me());
  EXPECT_TRUE(dart_gptr_equal(f, mine));
  EXPECT_EQ(dart_gptr_setflags(&f, 0), DART_OK);
  EXPECT_EQ(dart_gptr_getflags(f, &flags), DART_OK);
  EXPECT_EQ(flags, 0);

  // setunit changes only the unit; segment size is per unit and ignores the offset.
  for (int u = 0; u < N(); ++u) {
    dart_gptr_t q = mine;
    EXPECT_EQ(dart_gptr_incaddr(&q, 12), DART_OK);
    EXPECT_EQ(dart_gptr_setunit(&q, DART_TEAM_UNIT_ID(u)), DART_OK);
    EXPECT_EQ(q.unitid, u);
    EXPECT_EQ(dart_gptr_offset(q), 12u);
    EXPECT_EQ(q.segid, gptr.segid);
    EXPECT_EQ(dart_gptr_equal(q, AtUnit(mine, u)), 0);
    size_t seg = 0;
    EXPECT_EQ(dart_gptr_segment_size(q, &seg), DART_OK);
    EXPECT_EQ(seg, nelem * sizeof(int));
  }

  // A put through a moved pointer lands at the element it names: element 3 + u of every unit
  // receives unit u's id + 1.
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  for (int u = 0; u < N(); ++u) {
    dart_gptr_t q = AtUnit(gptr, u);
    EXPECT_EQ(dart_gptr_incaddr(&q, (3 + Me()) * sizeof(int)), DART_OK);
    const int value = Me() + 1;
    EXPECT_EQ(dart_put_blocking(q, &value, 1, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  }
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  for (int i = 0; i < nelem; ++i) {
    const int from = i - 3;
    EXPECT_EQ(base[i], from >= 0 && from < N() ? from + 1 : 0) << "element " << i;
  }
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(dart_team_memfree(gptr), DART_OK);
}

// ---- dart_memalloc ---------------------------------------------------------------------------

struct Block {
  dart_gptr_t gptr;
  size_t nbytes;
  int tag;
};

void Fill(const Block& b) {
  unsigned char* p = nullptr;
  EXPECT_EQ(dart_gptr_getaddr(b.gptr, reinterpret_cast<void**>(&p)), DART_OK);
  ASSERT_NE(p, nullptr);
  for (size_t i = 0; i < b.nbytes; ++i) p[i] = Pattern(b.tag, i);
}

// Reads the block back with dart_get_blocking (not through the local address).
void ExpectIntact(const Block& b) {
  std::vector<unsigned char> got(b.nbytes);
  EXPECT_EQ(dart_get_blocking(got.data(), b.gptr, b.nbytes, DART_TYPE_BYTE, DART_TYPE_BYTE),
            DART_OK);
  size_t wrong = 0;
  for (size_t i = 0; i < b.nbytes; ++i) wrong += got[i] != Pattern(b.tag, i);
  EXPECT_EQ(wrong, 0u) << "block " << b.tag << " of " << b.nbytes << " bytes was overwritten";
}

size_t PoolUsed() {
  dart_runtime_stats_t stats{};
  EXPECT_EQ(dart_runtime_stats(&stats), DART_OK);
  return stats.local_pool_used;
}

TEST(DartMemalloc, ManyBlocksFreedInOddOrderAndReallocatedStayIntact) {
  const size_t used_at_start = PoolUsed();
  const dart_datatype_t types[] = {DART_TYPE_BYTE, DART_TYPE_INT, DART_TYPE_DOUBLE,
                                   DART_TYPE_SHORT};
  std::vector<Block> live;
  int next_tag = 0;
  auto allocate = [&](int count) {
    for (int i = 0; i < count; ++i) {
      const dart_datatype_t type = types[next_tag % 4];
      const size_t nelem = static_cast<size_t>(next_tag * 37 % 500 + 1);
      Block b{DART_GPTR_NULL, nelem * TypeSize(type), next_tag++};
      EXPECT_EQ(dart_memalloc(nelem, type, &b.gptr), DART_OK);
      void* addr = nullptr;
      EXPECT_EQ(dart_gptr_getaddr(b.gptr, &addr), DART_OK);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(addr) % alignof(std::max_align_t), 0u);
      EXPECT_EQ(b.gptr.unitid, Me());
      EXPECT_EQ(b.gptr.teamid, DART_TEAM_ALL);
      EXPECT_EQ(b.gptr.segid, DART_SEGMENT_LOCAL);
      if (!DART_GPTR_ISNULL(b.gptr)) {
        Fill(b);
        live.push_back(b);
      }
    }
  };
  auto free_where = [&](bool (*pick)(int)) {
    std::vector<Block> kept;
    for (const Block& b : live) {
      if (pick(b.tag)) {
        EXPECT_EQ(dart_memfree(b.gptr), DART_OK) << "block " << b.tag;
      } else {
        kept.push_back(b);
      }
    }
    live = kept;
    for (const Block& b : live) ExpectIntact(b);
  };
  allocate(24);
  EXPECT_GT(PoolUsed(), used_at_start);
  for (const Block& b : live) ExpectIntact(b);  // no two blocks overlap
  free_where([](int tag) { return tag % 3 == 1; });
  free_where([](int tag) { return tag % 5 == 0; });
  allocate(10);  // reuses the holes
  std::reverse(live.begin(), live.end());
  free_where([](int tag) { return tag % 2 == 0; });
  for (const Block& b : live) ExpectIntact(b);
  free_where([](int) { return true; });
  EXPECT_EQ(PoolUsed(), used_at_start);
  allocate(5);
  free_where([](int) { return true; });
  EXPECT_EQ(PoolUsed(), used_at_start);
}

TEST(DartMemalloc, OtherUnitsReadAndWriteItThroughABroadcastGptr) {
  const int nelem = 8 + N();
  dart_gptr_t mine = DART_GPTR_NULL;
  EXPECT_EQ(dart_memalloc(nelem, DART_TYPE_LONG, &mine), DART_OK);
  long* local = nullptr;
  EXPECT_EQ(dart_gptr_getaddr(mine, reinterpret_cast<void**>(&local)), DART_OK);
  EXPECT_NE(local, nullptr);
  if (local != nullptr) {
    for (int i = 0; i < nelem; ++i) local[i] = i < 8 ? 1000L * Me() + i : -1;
  }
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  for (int root = 0; root < N(); ++root) {
    dart_gptr_t g = root == Me() ? mine : DART_GPTR_NULL;
    EXPECT_EQ(
        dart_bcast(&g, sizeof(dart_gptr_t), DART_TYPE_BYTE, DART_TEAM_UNIT_ID(root), DART_TEAM_ALL),
        DART_OK);
    EXPECT_EQ(g.unitid, root);
    std::vector<long> got(8, -7);
    EXPECT_EQ(dart_get_blocking(got.data(), g, 8, DART_TYPE_LONG, DART_TYPE_LONG), DART_OK);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], 1000L * root + i) << "root " << root;
    // Slot 8 + me of root's block receives my id.
    dart_gptr_t slot = g;
    EXPECT_EQ(dart_gptr_incaddr(&slot, (8 + Me()) * sizeof(long)), DART_OK);
    const long value = 50L + Me();
    EXPECT_EQ(dart_put_blocking(slot, &value, 1, DART_TYPE_LONG, DART_TYPE_LONG), DART_OK);
  }
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  if (local != nullptr) {
    for (int u = 0; u < N(); ++u) EXPECT_EQ(local[8 + u], 50L + u) << "slot of unit " << u;
  }
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);  // nobody reads it any more
  EXPECT_EQ(dart_memfree(mine), DART_OK);
}

TEST(DartMemalloc, PoolExhaustionReturnsNomemAndLosesNothing) {
  const size_t used_at_start = PoolUsed();
  const size_t block = (size_t{1} << 20) + 1;  // an odd size
  std::vector<Block> blocks;
  dart_ret_t ret = DART_OK;
  for (int i = 0; i < 100000 && ret == DART_OK; ++i) {
    Block b{DART_GPTR_NULL, block, i};
    ret = dart_memalloc(block, DART_TYPE_BYTE, &b.gptr);
    if (ret == DART_OK) {
      unsigned char* p = nullptr;
      EXPECT_EQ(dart_gptr_getaddr(b.gptr, reinterpret_cast<void**>(&p)), DART_OK);
      if (p != nullptr) {  // stamp both ends
        p[0] = Pattern(i, 0);
        p[block - 1] = Pattern(i, block - 1);
      }
      blocks.push_back(b);
    } else {
      EXPECT_TRUE(DART_GPTR_ISNULL(b.gptr));
    }
  }
  EXPECT_EQ(ret, DART_ERR_NOMEM);
  EXPECT_FALSE(blocks.empty());
  const size_t used_full = PoolUsed();
  dart_gptr_t g = DART_GPTR_NULL;
  EXPECT_EQ(dart_memalloc(block, DART_TYPE_BYTE, &g), DART_ERR_NOMEM);  // still full
  EXPECT_EQ(dart_memalloc(SIZE_MAX / 2, DART_TYPE_BYTE, &g), DART_ERR_NOMEM);
  EXPECT_EQ(PoolUsed(), used_full);  // failed requests took nothing

  auto stamps_intact = [&](const Block& b) {
    unsigned char first = 0, last = 0;
    dart_gptr_t end = b.gptr;
    EXPECT_EQ(dart_gptr_incaddr(&end, static_cast<int64_t>(block - 1)), DART_OK);
    EXPECT_EQ(dart_get_blocking(&first, b.gptr, 1, DART_TYPE_BYTE, DART_TYPE_BYTE), DART_OK);
    EXPECT_EQ(dart_get_blocking(&last, end, 1, DART_TYPE_BYTE, DART_TYPE_BYTE), DART_OK);
    return first == Pattern(b.tag, 0) && last == Pattern(b.tag, block - 1);
  };
  size_t broken = 0;
  for (const Block& b : blocks) broken += !stamps_intact(b);
  EXPECT_EQ(broken, 0u);

  // The left neighbour reads the stamps of my last block.
  Block last = blocks.empty() ? Block{DART_GPTR_NULL, block, -1} : blocks.back();
  std::vector<Block> lasts(N());
  EXPECT_EQ(dart_allgather(&last, lasts.data(), sizeof(Block), DART_TYPE_BYTE, DART_TEAM_ALL),
            DART_OK);
  const Block& right = lasts[(Me() + 1) % N()];
  if (!DART_GPTR_ISNULL(right.gptr)) {
    EXPECT_TRUE(stamps_intact(right)) << "last block of unit " << (Me() + 1) % N();
  }
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);

  // Smaller requests fit again once a block in the middle is freed: the hole takes both.
  std::vector<Block> smaller;
  if (blocks.size() >= 3) {
    auto middle = blocks.begin() + static_cast<long>(blocks.size() / 2);
    EXPECT_EQ(dart_memfree(middle->gptr), DART_OK);
    blocks.erase(middle);
    for (size_t nbytes : {size_t{4096}, block / 2}) {
      Block b{DART_GPTR_NULL, nbytes, static_cast<int>(200000 + nbytes)};
      EXPECT_EQ(dart_memalloc(nbytes, DART_TYPE_BYTE, &b.gptr), DART_OK) << nbytes << " bytes";
      if (!DART_GPTR_ISNULL(b.gptr)) {
        Fill(b);
        smaller.push_back(b);
      }
    }
  }
  broken = 0;
  for (const Block& b : blocks) broken += !stamps_intact(b);
  EXPECT_EQ(broken, 0u);
  for (const Block& b : smaller) {
    ExpectIntact(b);
    EXPECT_EQ(dart_memfree(b.gptr), DART_OK);
  }
  for (const Block& b : blocks) EXPECT_EQ(dart_memfree(b.gptr), DART_OK);
  EXPECT_EQ(PoolUsed(), used_at_start);
}

// ---- custom element types --------------------------------------------------------------------

struct Record {
  int id;
  double weight;
  char name[32];
};

Record MakeRecord(int unit, int i) {
  Record r{};
  r.id = 100 * unit + i;
  r.weight = unit + 0.25 * i;
  std::snprintf(r.name, sizeof r.name, "u%d-r%d", unit, i);
  return r;
}

bool Same(const Record& a, const Record& b) {
  return a.id == b.id && a.weight == b.weight && std::strcmp(a.name, b.name) == 0;
}

TEST(DartCustomType, TeamMemoryOfRecordsIsPutAndGotWhole) {
  dart_datatype_t rec = DART_TYPE_UNDEFINED;
  EXPECT_EQ(dart_type_create_custom(sizeof(Record), &rec), DART_OK);
  EXPECT_GT(rec, DART_TYPE_LAST);
  EXPECT_EQ(TypeSize(rec), sizeof(Record));
  const int nelem = 3;
  dart_gptr_t gptr = DART_GPTR_NULL;
  EXPECT_EQ(dart_team_memalloc_aligned(DART_TEAM_ALL, nelem, rec, &gptr), DART_OK);
  size_t seg = 0;
  EXPECT_EQ(dart_gptr_segment_size(gptr, &seg), DART_OK);
  EXPECT_EQ(seg, nelem * sizeof(Record));
  // Every unit puts its records into the right neighbour's part.
  std::vector<Record> out(nelem);
  for (int i = 0; i < nelem; ++i) out[i] = MakeRecord(Me(), i);
  EXPECT_EQ(dart_put_blocking(AtUnit(gptr, (Me() + 1) % N()), out.data(), nelem, rec, rec),
            DART_OK);
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  const int left = (Me() + N() - 1) % N();
  Record* mine = nullptr;
  EXPECT_EQ(dart_gptr_getaddr(AtUnit(gptr, Me()), reinterpret_cast<void**>(&mine)), DART_OK);
  if (mine != nullptr) {
    for (int i = 0; i < nelem; ++i) EXPECT_TRUE(Same(mine[i], MakeRecord(left, i))) << i;
  }
  // Every unit reads every part; the last two records alone through a moved pointer.
  for (int u = 0; u < N(); ++u) {
    std::vector<Record> in(nelem);
    EXPECT_EQ(dart_get_blocking(in.data(), AtUnit(gptr, u), nelem, rec, rec), DART_OK);
    const int writer = (u + N() - 1) % N();
    for (int i = 0; i < nelem; ++i) EXPECT_TRUE(Same(in[i], MakeRecord(writer, i))) << u;
    dart_gptr_t tail = AtUnit(gptr, u);
    EXPECT_EQ(dart_gptr_incaddr(&tail, sizeof(Record)), DART_OK);
    Record two[2];
    EXPECT_EQ(dart_get_blocking(two, tail, 2, rec, rec), DART_OK);
    EXPECT_TRUE(Same(two[1], MakeRecord(writer, 2)));
  }
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(dart_team_memfree(gptr), DART_OK);
  EXPECT_EQ(dart_type_destroy(&rec), DART_OK);
  EXPECT_EQ(rec, DART_TYPE_UNDEFINED);
}

TEST(DartCustomType, OddSizedElementsInTheLocalPoolAreReadByOthers) {
  dart_datatype_t seven = DART_TYPE_UNDEFINED;
  EXPECT_EQ(dart_type_create_custom(7, &seven), DART_OK);
  EXPECT_EQ(TypeSize(seven), 7u);
  const int nelem = 5;
  dart_gptr_t mine = DART_GPTR_NULL;
  EXPECT_EQ(dart_memalloc(nelem, seven, &mine), DART_OK);
  unsigned char* p = nullptr;
  EXPECT_EQ(dart_gptr_getaddr(mine, reinterpret_cast<void**>(&p)), DART_OK);
  if (p != nullptr) {
    for (int b = 0; b < 7 * nelem; ++b) p[b] = Pattern(Me(), b);
  }
  std::vector<dart_gptr_t> all(N());
  EXPECT_EQ(dart_allgather(&mine, all.data(), sizeof(dart_gptr_t), DART_TYPE_BYTE, DART_TEAM_ALL),
            DART_OK);
  for (int u = 0; u < N(); ++u) {
    std::vector<unsigned char> got(7 * nelem + 1, 0xEE);
    EXPECT_EQ(dart_get_blocking(got.data(), all[u], nelem, seven, seven), DART_OK);
    size_t wrong = 0;
    for (int b = 0; b < 7 * nelem; ++b) wrong += got[b] != Pattern(u, b);
    EXPECT_EQ(wrong, 0u) << "unit " << u;
    EXPECT_EQ(got[7 * nelem], 0xEE);
  }
  EXPECT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(dart_memfree(mine), DART_OK);
  EXPECT_EQ(dart_type_destroy(&seven), DART_OK);
}

}  // namespace

namespace {

// Memory a unit brings (here a mapping of its own) becomes a team segment: the owner reads
// and writes it by load/store, every other unit (on this node too) by put and get; sizes that
// differ between units are refused on every unit; deregistering leaves the memory as it was.
TEST(DartTeamMemregister, OwnMemoryReachedByEveryUnit_SizesMustAgree) {
  const std::size_t n = 1000 + 3;
  std::vector<std::int64_t> mine(n);
  for (std::size_t i = 0; i < n; ++i) mine[i] = std::int64_t(Me()) * 100000 + std::int64_t(i);
  dart_gptr_t g;
  ASSERT_EQ(DART_OK, dart_team_memregister(DART_TEAM_ALL, n, DART_TYPE_LONGLONG, mine.data(), &g));
  // Local address of the own part is the registered memory.
  dart_gptr_t own = g;
  dart_gptr_setunit(&own, dart_team_unit_t{Me()});
  void* addr = nullptr;
  ASSERT_EQ(DART_OK, dart_gptr_getaddr(own, &addr));
  EXPECT_EQ(addr, mine.data());
  // Every unit reads every unit's part; then writes one value into the next unit's part.
  for (int u = 0; u < N(); ++u) {
    std::vector<std::int64_t> got(n, -1);
    dart_gptr_t p = g;
    dart_gptr_setunit(&p, dart_team_unit_t{u});
    ASSERT_EQ(DART_OK, dart_get_blocking(got.data(), p, n, DART_TYPE_LONGLONG, DART_TYPE_LONGLONG));
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(got[i], std::int64_t(u) * 100000 + std::int64_t(i));
  }
  ASSERT_EQ(DART_OK, dart_barrier(DART_TEAM_ALL));
  dart_gptr_t next = g;
  dart_gptr_setunit(&next, dart_team_unit_t{(Me() + 1) % N()});
  dart_gptr_incaddr(&next, 8 * 7);
  const std::int64_t v = -1 - Me();
  ASSERT_EQ(DART_OK, dart_put_blocking(next, &v, 1, DART_TYPE_LONGLONG, DART_TYPE_LONGLONG));
  ASSERT_EQ(DART_OK, dart_barrier(DART_TEAM_ALL));
  std::int64_t old = 0, one = 1;
  EXPECT_EQ(DART_ERR_INVAL,
            dart_fetch_and_op(next, &one, &old, DART_TYPE_LONGLONG, DART_OP_SUM));  // no atomics
  ASSERT_EQ(DART_OK, dart_team_memderegister(g));
  EXPECT_EQ(mine[7], -1 - (Me() + N() - 1) % N());
  EXPECT_EQ(mine[8], std::int64_t(Me()) * 100000 + 8);
  // Different sizes: refused everywhere.
  if (N() > 1) {
    dart_gptr_t bad;
    EXPECT_EQ(DART_ERR_INVAL, dart_team_memregister(DART_TEAM_ALL, n - std::size_t(Me() % 2),
                                                    DART_TYPE_LONGLONG, mine.data(), &bad));
    EXPECT_TRUE(DART_GPTR_ISNULL(bad));
  }
}

// ---- dart_allocator_*
// ----------------------------------------------------------------------------

// Each unit allocates blocks of several sizes alone, writes them, sends the pointers to the others
// (bcast); every unit reads every block, and writes one slot of each, which the owner checks;
// blocks freed in an odd order are reused; a full pool says DART_ERR_NOMEM and loses nothing.
TEST(DartAllocator, UnitsAllocateAloneAndEveryUnitReachesTheBlocks) {
  const std::size_t pool = (1 << 16) + 8 * N();
  dart_allocator_t alloc = nullptr;
  ASSERT_EQ(dart_allocator_new(pool, DART_TEAM_ALL, &alloc), DART_OK);
  ASSERT_NE(alloc, nullptr);
  const int sizes[] = {1, 7, 100 + Me(), 1000};
  std::vector<dart_gptr_t> mine;
  for (int k = 0; k < 4; ++k) {
    dart_gptr_t g = DART_GPTR_NULL;
    ASSERT_EQ(dart_allocator_alloc(sizes[k] + N(), DART_TYPE_LONG, &g, alloc), DART_OK);
    EXPECT_EQ(g.unitid, Me());
    long* p = nullptr;
    ASSERT_EQ(dart_gptr_getaddr(g, reinterpret_cast<void**>(&p)), DART_OK);
    for (int i = 0; i < sizes[k]; ++i) p[i] = 10000L * Me() + 100L * k + i;
    mine.push_back(g);
  }
  ASSERT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  for (int root = 0; root < N(); ++root) {
    for (int k = 0; k < 4; ++k) {
      dart_gptr_t g = root == Me() ? mine[k] : DART_GPTR_NULL;
      ASSERT_EQ(dart_bcast(&g, sizeof g, DART_TYPE_BYTE, DART_TEAM_UNIT_ID(root), DART_TEAM_ALL),
                DART_OK);
      const int n = k == 2 ? 100 + root : sizes[k];
      std::vector<long> got(n, -1);
      ASSERT_EQ(dart_get_blocking(got.data(), g, n, DART_TYPE_LONG, DART_TYPE_LONG), DART_OK);
      for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], 10000L * root + 100L * k + i);
      dart_gptr_t slot = g;
      ASSERT_EQ(dart_gptr_incaddr(&slot, (n + Me()) * sizeof(long)), DART_OK);
      const long v = -1 - Me();
      ASSERT_EQ(dart_put_blocking(slot, &v, 1, DART_TYPE_LONG, DART_TYPE_LONG), DART_OK);
    }
  }
  ASSERT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  for (int k = 0; k < 4; ++k) {
    long* p = nullptr;
    ASSERT_EQ(dart_gptr_getaddr(mine[k], reinterpret_cast<void**>(&p)), DART_OK);
    for (int u = 0; u < N(); ++u) EXPECT_EQ(p[sizes[k] + u], -1 - u) << "block " << k;
  }
  ASSERT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  // Another unit's block is not this unit's to free; a freed pointer becomes null.
  dart_gptr_t other = mine[0];
  other.unitid = (Me() + 1) % N();
  if (N() > 1) {
    EXPECT_EQ(dart_allocator_free(&other, alloc), DART_ERR_INVAL);
  }
  for (int k : {2, 0, 3, 1}) {
    ASSERT_EQ(dart_allocator_free(&mine[k], alloc), DART_OK);
    EXPECT_TRUE(DART_GPTR_ISNULL(mine[k]));
  }
  EXPECT_EQ(dart_allocator_free(&mine[0], alloc), DART_OK);  // null: nothing to do
  // The whole pool again, then one more: NOMEM, and the blocks held stay usable.
  std::vector<dart_gptr_t> held;
  dart_ret_t ret = DART_OK;
  while (ret == DART_OK && held.size() < 10000) {
    dart_gptr_t g = DART_GPTR_NULL;
    ret = dart_allocator_alloc(4096, DART_TYPE_BYTE, &g, alloc);
    if (ret == DART_OK)
      held.push_back(g);
    else
      EXPECT_TRUE(DART_GPTR_ISNULL(g));
  }
  EXPECT_EQ(ret, DART_ERR_NOMEM);
  EXPECT_EQ(held.size(), pool / 4096);
  dart_gptr_t g = DART_GPTR_NULL;
  EXPECT_EQ(dart_allocator_alloc(0, DART_TYPE_BYTE, &g, alloc), DART_ERR_INVAL);
  EXPECT_EQ(dart_allocator_alloc(1, DART_TYPE_BYTE, &g, nullptr), DART_ERR_INVAL);
  for (auto& h : held) EXPECT_EQ(dart_allocator_free(&h, alloc), DART_OK);
  ASSERT_EQ(dart_barrier(DART_TEAM_ALL), DART_OK);
  ASSERT_EQ(dart_allocator_destroy(&alloc), DART_OK);
  EXPECT_EQ(alloc, nullptr);
  EXPECT_EQ(dart_allocator_destroy(&alloc), DART_ERR_INVAL);
}

// Blocks take multiples of 16 bytes: a pool of 128 x 32 bytes holds exactly 128 blocks of 32, on
// one unit while the others allocate nothing.
TEST(DartAllocator, PoolOfWholeBlocksIsUsedToTheLastByte) {
  dart_allocator_t alloc = nullptr;
  ASSERT_EQ(dart_allocator_new(128 * 32, DART_TEAM_ALL, &alloc), DART_OK);
  if (Me() == N() - 1) {
    std::vector<dart_gptr_t> blocks(128, DART_GPTR_NULL);
    for (auto& b : blocks) ASSERT_EQ(dart_allocator_alloc(8, DART_TYPE_INT, &b, alloc), DART_OK);
    dart_gptr_t more = DART_GPTR_NULL;
    EXPECT_EQ(dart_allocator_alloc(8, DART_TYPE_INT, &more, alloc), DART_ERR_NOMEM);
    EXPECT_TRUE(DART_GPTR_ISNULL(more));
    EXPECT_EQ(dart_allocator_alloc(1, DART_TYPE_BYTE, &more, alloc), DART_ERR_NOMEM);
    for (auto& b : blocks) EXPECT_EQ(dart_allocator_free(&b, alloc), DART_OK);
    EXPECT_EQ(dart_allocator_alloc(1024, DART_TYPE_INT, &more, alloc), DART_OK);  // all of it
    EXPECT_EQ(dart_allocator_free(&more, alloc), DART_OK);
  }
  ASSERT_EQ(dart_allocator_destroy(&alloc), DART_OK);
}

// An allocator of a sub-team: pointers carry team-relative unit ids.
TEST(DartAllocator, SubTeamPointersAreTeamRelative) {
  dart_team_t half = DART_TEAM_NULL;
  ASSERT_EQ(dart_team_split(DART_TEAM_ALL, Me() % 2, Me(), &half), DART_OK);
  dart_team_unit_t me;
  ASSERT_EQ(dart_team_myid(half, &me), DART_OK);
  size_t size = 0;
  ASSERT_EQ(dart_team_size(half, &size), DART_OK);
  dart_allocator_t alloc = nullptr;
  ASSERT_EQ(dart_allocator_new(1024, half, &alloc), DART_OK);
  dart_gptr_t g = DART_GPTR_NULL;
  ASSERT_EQ(dart_allocator_alloc(3, DART_TYPE_INT, &g, alloc), DART_OK);
  EXPECT_EQ(g.unitid, me.id);
  int* p = nullptr;
  ASSERT_EQ(dart_gptr_getaddr(g, reinterpret_cast<void**>(&p)), DART_OK);
  p[0] = Me(), p[1] = 7, p[2] = -Me();
  ASSERT_EQ(dart_barrier(half), DART_OK);
  const int root = static_cast<int>(size) - 1;
  dart_gptr_t r = g;
  ASSERT_EQ(dart_bcast(&r, sizeof r, DART_TYPE_BYTE, DART_TEAM_UNIT_ID(root), half), DART_OK);
  int got[3] = {0, 0, 0};
  ASSERT_EQ(dart_get_blocking(got, r, 3, DART_TYPE_INT, DART_TYPE_INT), DART_OK);
  const int root_global = Me() % 2 + 2 * root;  // the split keeps the order of global ids
  EXPECT_EQ(got[0], root_global);
  EXPECT_EQ(got[1], 7);
  EXPECT_EQ(got[2], -root_global);
  ASSERT_EQ(dart_barrier(half), DART_OK);
  ASSERT_EQ(dart_allocator_free(&g, alloc), DART_OK);
  ASSERT_EQ(dart_allocator_destroy(&alloc), DART_OK);
  ASSERT_EQ(dart_team_destroy(&half), DART_OK);
}

}  // namespace
