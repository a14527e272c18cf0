// DASH's dynamic global memory and unordered map as DASH's ex.04.memalloc and
// ex.02.unordered_map use them: a block per unit from dash::memalloc, published in an array and
// read by the next unit; a map with a hash functor built from the team, filled by every unit,
// committed with barrier(), then read and written from every unit.
#include <dash/UnorderedMap.h>

#include "check.h"

template <typename Key>
class OwnerHash {
 public:
  typedef Key argument_type;
  typedef dash::team_unit_t result_type;
  OwnerHash() = default;
  OwnerHash(dash::Team& team) : nunits_(team.size()) {}
  result_type operator()(const argument_type& key) const {
    return result_type(nunits_ == 0 ? 0 : (key ^ 0x55) % nunits_);
  }

 private:
  dash::default_size_t nunits_ = 0;
};

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const int n = int(dash::size()), me = int(dash::myid());

  using pointer_t = dash::GlobMemAllocPtr<int>;
  dash::Array<pointer_t> blocks(n);
  blocks[me] = dash::memalloc<int>(5 + me);
  for (int i = 0; i < 5 + me; ++i) {
    pointer_t p = blocks[me];
    p[i] = 10 * me + i;
  }
  dash::barrier();
  const int next = (me + 1) % n;
  pointer_t theirs = blocks[next];
  for (int i = 0; i < 5 + next; ++i) CHECK(int(theirs[i]) == 10 * next + i);
  CHECK(static_cast<int*>(theirs) == nullptr || next == me);
  dash::barrier();
  pointer_t mine = blocks[me];
  dash::memfree(mine, 5 + me);

  typedef dash::UnorderedMap<int, double, OwnerHash<int>> map_t;
  map_t map(0, me % 2 == 0 ? 5 : 7);
  for (int i = 0; i < 4 + me; ++i) {
    const int key = 100 * (me + 1) + i;
    auto inserted = map.insert(std::make_pair(key, 1.0 * me));
    CHECK(inserted.second);
    CHECK(map.count(key) == 1);
    map[key] = key + 0.5;
    map_t::value_type read = *map.find(key);
    CHECK(read.second == key + 0.5);
  }
  map.barrier();
  size_t total = 0;
  for (int u = 0; u < n; ++u) total += 4 + u;
  CHECK(map.size() == total);
  size_t visited = 0;
  for (auto it = map.begin(); it != map.end(); ++it, ++visited) {
    map_t::value_type v = *it;
    CHECK(v.second == v.first + 0.5);
    CHECK(it.lpos().unit == OwnerHash<int>(dash::Team::All())(v.first));
  }
  CHECK(visited == total);
  for (auto& local : map.local) CHECK(map.bucket(local.first) == size_t(me));
  dash::barrier();  // every unit has read the values before any changes one
  // Every unit adds 1 to the first key of the next unit.
  map[100 * (next + 1)] += 1.0;
  map.barrier();
  CHECK(double(map.at(100 * (me + 1))) == 100 * (me + 1) + 1.5);
  report_ok("dynamic_map");
  dash::finalize();
}
