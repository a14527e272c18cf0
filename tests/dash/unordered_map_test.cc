// dash::UnorderedMap (DASH's distributed map): an empty map; inserts that the commit moves to the
// unit the hash names (checked on every unit: sizes, lookups, where each element lives, the local
// part, one visit per element in global iteration); inserts seen before the commit only by their
// inserter; duplicate keys within a unit and across units; writes through operator[] and at() to
// other units' elements; deferred erase; dash::HashLocal (every unit keeps what it inserts, lookups
// search all); parts that grow bucket by bucket (nlbuf 1) and references that go stale at the
// commit; bad input and a pool that cannot hold a part (every unit throws); a map larger than
// one unit's pool (variant small_pool).
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/UnorderedMap.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

// Owner of a key: key modulo the team size (an integer result, as std::hash gives).
struct ModuloHash {
  std::size_t operator()(long key) const { return static_cast<std::size_t>(key); }
};

// DASH's kind of hash functor: built from the team, returns a team_unit_t.
struct UnitHash {
  UnitHash() = default;
  explicit UnitHash(dash::Team& team) : units(static_cast<int>(team.size())) {}
  dash::team_unit_t operator()(long key) const { return dash::team_unit_t((key / 7) % units); }
  int units = 1;
};

// A hash naming a unit that does not exist for key -1.
struct BadHash {
  dash::team_unit_t operator()(long key) const { return dash::team_unit_t(key < 0 ? 1 << 20 : 0); }
};

using Map = dash::UnorderedMap<long, double, ModuloHash>;
using Value = std::pair<const long, double>;

// Unit u inserts 3 + u keys (odd counts): u * 1000 + i.
long keys_of(long unit) { return 3 + unit; }
long key(long unit, long i) { return unit * 1000 + i; }
double mapped(long key) { return key * 0.5 + 1; }

TEST(UnorderedMap, EmptyMapHasNoElements) {
  Map map;
  EXPECT_EQ(map.size(), 0u);
  EXPECT_TRUE(map.empty());
  EXPECT_EQ(map.lsize(), 0u);
  EXPECT_TRUE(map.begin() == map.end());
  EXPECT_TRUE(map.lbegin() == map.lend());
  EXPECT_TRUE(map.local.empty());
  EXPECT_TRUE(map.find(5) == map.end());
  EXPECT_EQ(map.count(5), 0u);
  EXPECT_EQ(map.erase(5), 0u);
  EXPECT_THROW(map.at(5), dash::exception::InvalidArgument);
  map.barrier();
  EXPECT_EQ(map.size(), 0u);
  EXPECT_TRUE(map.begin() == map.end());
}

TEST(UnorderedMap, CommitMovesEveryElementToItsOwner) {
  const long n = nunits(), me = myid();
  Map map(0, 2);  // parts grow by 2 elements
  for (long i = 0; i < keys_of(me); ++i) {
    auto inserted = map.insert({key(me, i), mapped(key(me, i))});
    EXPECT_TRUE(inserted.second);
    EXPECT_EQ(static_cast<Value>(*inserted.first).first, key(me, i));
    EXPECT_EQ(map.count(key(me, i)), 1u);
  }
  // Before the commit a unit sees its own inserts only.
  EXPECT_EQ(map.lsize(), static_cast<std::size_t>(keys_of(me)));
  EXPECT_EQ(map.size(), static_cast<std::size_t>(keys_of(me)));
  if (n > 1) {
    EXPECT_EQ(map.count(key((me + 1) % n, 0)), 0u);
  }
  map.barrier();

  std::size_t total = 0, mine = 0;
  for (long u = 0; u < n; ++u) {
    total += keys_of(u);
    for (long i = 0; i < keys_of(u); ++i) mine += key(u, i) % n == me;
  }
  EXPECT_EQ(map.size(), total);
  EXPECT_EQ(map.lsize(), mine);
  // Every key is found on every unit, at its owner, with its value.
  for (long u = 0; u < n; ++u) {
    for (long i = 0; i < keys_of(u); ++i) {
      const long k = key(u, i);
      auto it = map.find(k);
      ASSERT_TRUE(it != map.end()) << "key " << k;
      Value v = *it;
      EXPECT_EQ(v.first, k);
      EXPECT_EQ(v.second, mapped(k));
      EXPECT_EQ(it.lpos().unit.id, k % n);
      EXPECT_EQ(it.is_local(), k % n == me);
      EXPECT_EQ(map.count(k), 1u);
      EXPECT_EQ(static_cast<double>(map.at(k)), mapped(k));
    }
  }
  // The same through a const map and its const iterators.
  const Map& cmap = map;
  std::size_t visited = 0;
  for (auto it = cmap.begin(); it != cmap.end(); ++it, ++visited) {
    const Value v = *it;
    EXPECT_TRUE(cmap.find(v.first) == it);
    EXPECT_EQ(static_cast<double>(cmap.at(v.first)), mapped(v.first));
  }
  EXPECT_EQ(visited, total);
  EXPECT_EQ(static_cast<std::size_t>(cmap.local.end() - cmap.local.begin()), mine);
  // The local part holds exactly the keys this unit owns.
  std::set<long> local_keys;
  for (auto& v : map.local) {
    EXPECT_EQ(v.first % n, me);
    EXPECT_EQ(v.second, mapped(v.first));
    local_keys.insert(v.first);
  }
  EXPECT_EQ(local_keys.size(), mine);
  EXPECT_EQ(map.local.count(key(me, 0)), key(me, 0) % n == me ? 1u : 0u);
  // Global iteration visits each element once, in unit order.
  std::set<long> seen;
  long last_unit = 0;
  for (auto it = map.begin(); it != map.end(); ++it) {
    Value v = *it;
    EXPECT_TRUE(seen.insert(v.first).second) << "key " << v.first << " twice";
    EXPECT_GE(it.lpos().unit.id, last_unit);
    last_unit = it.lpos().unit.id;
  }
  EXPECT_EQ(seen.size(), total);
}

TEST(UnorderedMap, DuplicateKeysKeepOneElement) {
  const long n = nunits(), me = myid();
  Map map;
  // Within a unit: the second insert finds the first.
  EXPECT_TRUE(map.insert({10 * me + 1, 1.0}).second);
  auto again = map.insert({10 * me + 1, 2.0});
  EXPECT_FALSE(again.second);
  EXPECT_EQ(static_cast<Value>(*again.first).second, 1.0);
  // Across units: every unit inserts key 7 with its own value; the commit keeps the owner's.
  map.insert({7, 100.0 + me});
  map.barrier();
  EXPECT_EQ(map.count(7), 1u);
  EXPECT_EQ(static_cast<double>(map.at(7)), 100.0 + 7 % n);
  EXPECT_EQ(map.size(), static_cast<std::size_t>(n + 1));  // keys 10u + 1, and 7
  // After the commit an insert of a seen key (owned anywhere) finds it.
  EXPECT_FALSE(map.insert({7, -1.0}).second);
  EXPECT_FALSE(map.insert({10 * ((me + 1) % n) + 1, -1.0}).second);
}

TEST(UnorderedMap, WritesThroughReferencesReachOtherUnits) {
  const long n = nunits(), me = myid();
  dash::UnorderedMap<long, double, UnitHash> map(4 * n);
  for (long i = 0; i < keys_of(me); ++i) map[key(me, i)] = mapped(key(me, i));
  map.barrier();
  // Each unit adds (me + 1) to the next unit's keys, through operator[] and at().
  const long next = (me + 1) % n;
  for (long i = 0; i < keys_of(next); ++i) {
    if (i % 2 == 0)
      map[key(next, i)] += static_cast<double>(me + 1);
    else
      map.at(key(next, i)) = mapped(key(next, i)) + static_cast<double>(me + 1);
  }
  map.barrier();
  const long prev = (me + n - 1) % n;
  for (long i = 0; i < keys_of(me); ++i) {
    EXPECT_EQ(static_cast<double>(map.at(key(me, i))), mapped(key(me, i)) + prev + 1)
        << "key " << key(me, i);
  }
  // operator[] of a new key inserts a value-initialised element.
  EXPECT_EQ(static_cast<double>(map[key(n, me)]), 0.0);
  EXPECT_EQ(map.count(key(n, me)), 1u);
}

TEST(UnorderedMap, EraseTakesEffectAtTheCommit) {
  const long n = nunits(), me = myid();
  Map map;
  for (long i = 0; i < keys_of(me); ++i) map.insert({key(me, i), 1.0});
  map.barrier();
  // Unit me erases key(next, 0) (another unit's key, for n > 1) and its own key(me, 1).
  const long next = (me + 1) % n;
  EXPECT_EQ(map.erase(key(next, 0)), 1u);
  EXPECT_EQ(map.erase(key(next, 0)), 0u);  // already asked for
  EXPECT_EQ(map.erase(key(me, 1)), 1u);
  EXPECT_EQ(map.erase(424242), 0u);
  EXPECT_EQ(map.count(key(next, 0)), 1u);  // still seen until the commit
  map.barrier();
  std::size_t total = 0;
  for (long u = 0; u < n; ++u) {
    EXPECT_EQ(map.count(key(u, 0)), 0u) << "unit " << u;
    EXPECT_EQ(map.count(key(u, 1)), 0u) << "unit " << u;
    for (long i = 2; i < keys_of(u); ++i) EXPECT_EQ(map.count(key(u, i)), 1u);
    total += keys_of(u) - 2;
  }
  EXPECT_EQ(map.size(), total);
  // erase through an iterator; an insert of the key in the same epoch finds it still there.
  auto it = map.find(key(me, 2));
  ASSERT_TRUE(it != map.end());
  map.erase(it);
  EXPECT_FALSE(map.insert({key(me, 2), 5.0}).second);
  map.barrier();
  for (long u = 0; u < n; ++u) EXPECT_EQ(map.count(key(u, 2)), 0u);
  EXPECT_THROW(map.erase(map.end()), dash::exception::InvalidArgument);
}

TEST(UnorderedMap, LocalViewInsertsFindsAndErasesInTheCallingUnitsPart) {
  const long n = nunits(), me = myid();
  Map map;
  auto inserted = map.local.insert({key(me, 0), 1.0});
  EXPECT_TRUE(inserted.second);
  EXPECT_EQ(inserted.first->first, key(me, 0));
  EXPECT_FALSE(map.local.insert({key(me, 0), 2.0}).second);
  map.local[key(me, 1)] = 3.0;
  map.local.at(key(me, 1)) += 1.0;
  EXPECT_EQ(map.local.at(key(me, 1)), 4.0);
  EXPECT_EQ(map.local.size(), 2u);
  EXPECT_EQ(map.local.count(key(me, 1)), 1u);
  EXPECT_THROW(map.local.at(key(me, 2)), dash::exception::InvalidArgument);
  EXPECT_EQ(map.local.erase(key(me, 0)), 1u);
  EXPECT_EQ(map.local.erase(key(me, 0)), 0u);
  EXPECT_EQ(map.local.erase(key(me, 2)), 0u);
  map.barrier();
  // The commit moved key(u, 1) to its owner and dropped key(u, 0).
  for (long u = 0; u < n; ++u) {
    EXPECT_EQ(map.count(key(u, 0)), 0u);
    EXPECT_EQ(static_cast<double>(map.at(key(u, 1))), 4.0);
  }
  EXPECT_EQ(map.size(), static_cast<std::size_t>(n));
  const Map& cmap = map;
  for (long u = 0; u < n; ++u) {
    if (key(u, 1) % n == me) {
      EXPECT_EQ(cmap.local.at(key(u, 1)), 4.0);
    } else {
      EXPECT_THROW(cmap.local.at(key(u, 1)), dash::exception::InvalidArgument);
    }
  }
}

TEST(UnorderedMap, HashLocalKeepsElementsWhereInserted) {
  const long n = nunits(), me = myid();
  dash::UnorderedMap<long, long> map(0, 3);
  for (long i = 0; i < keys_of(me); ++i) map.insert({key(me, i), me});
  map.barrier();
  EXPECT_EQ(map.lsize(), static_cast<std::size_t>(keys_of(me)));
  for (long u = 0; u < n; ++u) {
    for (long i = 0; i < keys_of(u); ++i) {
      auto it = map.find(key(u, i));
      ASSERT_TRUE(it != map.end());
      EXPECT_EQ(it.lpos().unit.id, u);
      EXPECT_EQ(static_cast<long>(map.at(key(u, i))), u);
    }
  }
}

TEST(UnorderedMap, PartsGrowByBucketsAndReferencesGoStaleAtCommit) {
  const long me = myid();
  Map map(0, 1);  // one element per bucket
  const long count = 200;
  for (long i = 0; i < count; ++i) map.insert({key(me, i) * nunits() + me, static_cast<double>(i)});
  EXPECT_EQ(map.lsize(), static_cast<std::size_t>(count));
  EXPECT_GE(map.lcapacity(), static_cast<std::size_t>(count));
  long i = 0;
  for (auto it = map.lbegin(); it != map.lend(); ++it, ++i) EXPECT_EQ(it->second, i);
  auto ref = map.at(key(me, 5) * nunits() + me);
  EXPECT_EQ(static_cast<double>(ref), 5.0);
  map.barrier();
  EXPECT_EQ(map.lsize(), static_cast<std::size_t>(count));  // all keys are this unit's own
  EXPECT_THROW(static_cast<double>(ref), dash::exception::InvalidArgument);
  EXPECT_EQ(static_cast<double>(map.at(key(me, 5) * nunits() + me)), 5.0);
}

// A map holding more bytes than one unit's pool (variant small_pool: DART_LOCAL_POOL_SIZE=1M):
// every unit inserts elements worth 0.6 of a pool, each owned by the next unit (moved at the
// commit: the old part and the new one do not fit into one pool together, so the chunks the part
// grew by go to the heap first); at 2 units and more the map is larger than any one pool and
// every element is found. Then unit 0's new part does not fit: the commit fails on every unit
// and leaves every unit's part as it was.
TEST(UnorderedMap, MapLargerThanOneUnitsPool) {
  const char* pool = std::getenv("DART_LOCAL_POOL_SIZE");
  if (pool == nullptr || std::string(pool) != "1M")
    GTEST_SKIP() << "runs in the variant small_pool (DART_LOCAL_POOL_SIZE=1M)";
  const long pool_bytes = 1L << 20;
  const long per_unit = pool_bytes * 6 / 10 / long(sizeof(Value));
  const long me = myid(), units = nunits();
  Map map;
  for (long i = 0; i < per_unit; ++i) {
    const long k = (i * units + (me + 1) % units);  // owner (k % units): the next unit
    map.insert({k, mapped(k)});
  }
  map.barrier();
  EXPECT_EQ(map.size(), std::size_t(per_unit * units));
  EXPECT_EQ(map.lsize(), std::size_t(per_unit));
  if (units > 1) {
    EXPECT_GT(long(map.size() * sizeof(Value)), pool_bytes);
  }
  for (auto it = map.lbegin(); it != map.lend(); ++it) {
    EXPECT_EQ(it->first % units, me);
    EXPECT_EQ(it->second, mapped(it->first));
  }
  for (long i = 0; i < per_unit * units; i += 997) {  // a sample of keys on every unit
    auto found = map.find(i);
    ASSERT_TRUE(found != map.end()) << "key " << i;
    const Value v = *found;
    EXPECT_EQ(v.second, mapped(i));
  }
  // Unit 0 inserts 0.3 of a pool more, all for unit 0 (the others insert nothing): its pool
  // holds them, but not its new part (0.9 of a pool) beside the old one (0.6), even with the
  // chunks it grew by moved to the heap.
  const long extra = me == 0 ? per_unit / 2 : 0;
  for (long i = 0; i < extra; ++i) {
    const long k = (per_unit * units + i) * units;  // owner 0, keys not in the map yet
    map.insert({k, mapped(k)});
  }
  const std::size_t lsize_before = map.lsize();
  EXPECT_ANY_THROW(map.barrier());
  EXPECT_EQ(map.lsize(), lsize_before);
  std::size_t visited = 0;
  for (auto it = map.lbegin(); it != map.lend(); ++it, ++visited)
    EXPECT_EQ(it->second, mapped(it->first)) << it->first;
  EXPECT_EQ(visited, lsize_before);
  EXPECT_EQ(map.count(me == 0 ? (per_unit * units) * units : 0), 1u);
}

// A hash functor whose call operator is not const (DASH's tests write them so), counting its calls.
struct CountingHash {
  explicit CountingHash(dash::Team& team) : units(static_cast<long>(team.size())) {}
  dash::team_unit_t operator()(long key) {
    ++calls;
    return dash::team_unit_t(static_cast<int>(key % units));
  }
  long units;
  long calls = 0;
};

TEST(UnorderedMap, HashWithANonConstCallOperator) {
  dash::UnorderedMap<long, int, CountingHash> map;
  map.insert({myid() + 1000L * nunits(), myid()});
  map.barrier();
  EXPECT_GE(map.hash_function().calls, 1);
  auto found = map.find(myid() + 1000L * nunits());
  ASSERT_TRUE(found != map.end());
  EXPECT_EQ(map.lsize(), 1u);  // key % units == myid: every key stays with its inserter
  const std::pair<const long, int> v = *found;
  EXPECT_EQ(v.second, myid());
  map.barrier();
}

// capacity(): the parts' capacities, the others' as of the last commit and the caller's now.
TEST(UnorderedMap, CapacityCountsEveryPartAsOfTheLastCommit) {
  const long me = myid();
  const std::size_t units = static_cast<std::size_t>(nunits());
  const std::size_t nlbuf = 2 + static_cast<std::size_t>(me % 2);  // 2 or 3 per unit
  std::size_t all = 0;
  for (std::size_t u = 0; u < units; ++u) all += 2 + u % 2;
  Map map(0, nlbuf);
  EXPECT_EQ(map.lcapacity(), nlbuf);
  EXPECT_EQ(map.local.capacity(), nlbuf);
  EXPECT_EQ(map.capacity(), all);
  // Unit 0 grows its part by two buckets of 2: its own capacity() sees that at once.
  if (me == 0) {
    for (long i = 0; i < 5; ++i) map.insert({i * nunits(), 1.0});
    EXPECT_EQ(map.lcapacity(), 6u);
    EXPECT_EQ(map.capacity(), all + 4);
  } else {
    EXPECT_EQ(map.capacity(), all);
  }
  // The commit gives each part its elements plus one bucket: unit 0 holds 5 + 2.
  map.barrier();
  EXPECT_EQ(map.lcapacity(), me == 0 ? 7u : nlbuf);
  EXPECT_EQ(map.capacity(), all + 5);
  Map big(10 * units + 1, 1);  // 11 per unit: rounded up
  EXPECT_EQ(big.lcapacity(), 11u);
  EXPECT_EQ(big.capacity(), 11 * units);
}

TEST(UnorderedMap, MapOnASubTeamKeepsItsElementsThere) {
  dash::Team& team = dash::Team::All().split(2);
  const long n = static_cast<long>(team.size()), me = team.myid().id;
  {
    Map map(0, 3, team);
    for (long i = 0; i < keys_of(me); ++i) map.insert({key(me, i), mapped(key(me, i))});
    map.barrier();
    std::size_t total = 0;
    for (long u = 0; u < n; ++u) {
      total += keys_of(u);
      for (long i = 0; i < keys_of(u); ++i) {
        auto it = map.find(key(u, i));
        ASSERT_TRUE(it != map.end());
        EXPECT_EQ(it.lpos().unit.id, key(u, i) % n);
        EXPECT_EQ(static_cast<double>(map.at(key(u, i))), mapped(key(u, i)));
      }
    }
    EXPECT_EQ(map.size(), total);
    EXPECT_EQ(map.count(key(n, 0)), 0u);  // nobody in this team inserted it
  }
  team.free();
}

TEST(UnorderedMap, BadInputThrowsOnEveryUnit) {
  // nlbuf 0 on one unit: every unit throws (the others a RemoteFailure).
  const long me = myid();
  try {
    Map map(0, me == 0 ? 0 : 4);
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::InvalidArgument&) {
    EXPECT_EQ(me, 0);
  } catch (const dash::exception::RemoteFailure& e) {
    EXPECT_NE(me, 0);
    EXPECT_EQ(e.unit(), 0);
  }
  // A part the pool cannot hold (the last unit asks for 2^40 elements per bucket).
  const long last = nunits() - 1;
  try {
    Map map(0, me == last ? std::size_t(1) << 40 : 4);
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::OutOfMemory&) {
    EXPECT_EQ(me, last);
  } catch (const dash::exception::RemoteFailure& e) {
    EXPECT_NE(me, last);
    EXPECT_EQ(e.unit(), last);
  }
  // A hash that names no unit: refused at the insert, on the inserting unit.
  dash::UnorderedMap<long, int, BadHash> bad;
  EXPECT_NO_THROW(bad.insert({me + 1, 1}));
  EXPECT_THROW(bad.insert({-1, 1}), dash::exception::InvalidArgument);
  bad.barrier();
  EXPECT_EQ(bad.size(), static_cast<std::size_t>(nunits()));
  // The map is usable after all that.
  Map map;
  map.insert({me, 1.0});
  map.barrier();
  EXPECT_EQ(map.size(), static_cast<std::size_t>(nunits()));
}

}  // namespace
