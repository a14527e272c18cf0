// dash::bp::sort: a sample sort of the items held in the blocks of a
// Master. Afterwards block gid holds, sorted, the gid-th contiguous range of
// the global order of all items, the ranges in increasing gid.
//
//   per block:   sort its items; take `samples` of them, evenly spaced
//   all units:   all-gather the samples (one allgatherv of the team); sort
//                them; splitter j (j = 0 .. nblocks-2) is the sample at
//                (j + 1) / nblocks of the way (the same on every unit)
//   all_to_all:  a block sends to block j its items x with
//                splitter[j-1] < x <= splitter[j]: a run of its sorted
//                items, one enqueue per target
//   per block:   the runs it received (each sorted) are merged
//
// Regular sampling bounds a block's share: with distinct keys, a block ends
// with at most about n_max * (1 + nblocks / samples) items, n_max being the
// most items one block held before (samples = nblocks: PSRS's bound of
// twice that). Many equal keys can exceed it: equal items go to one block.
//
// | call | cost                                                           |
// |------|----------------------------------------------------------------|
// | sort | collective over master.team(): a local sort per block, one     |
// |      | allgatherv of nblocks * samples items, one all_to_all (k-ary   |
// |      | rounds) of every item, a merge per block; out of core each     |
// |      | block is loaded three times                                    |
#ifndef DASH__BP__SORT_H_
#define DASH__BP__SORT_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/bp/AllToAll.h>
#include <dash/bp/Master.h>
#include <dash/internal/Failure.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

namespace internal {

// Merges the sorted runs [bounds[r], bounds[r+1]) of v into one sorted
// range, pairwise (O(n log runs)). Local.
template <class T, class Cmp>
void merge_runs(std::vector<T>& v, std::vector<std::size_t> bounds, Cmp& cmp) {
  while (bounds.size() > 2) {
    std::vector<std::size_t> next{0};
    std::size_t r = 0;
    for (; r + 2 < bounds.size(); r += 2) {
      std::inplace_merge(v.begin() + std::ptrdiff_t(bounds[r]),
                         v.begin() + std::ptrdiff_t(bounds[r + 1]),
                         v.begin() + std::ptrdiff_t(bounds[r + 2]), cmp);
      next.push_back(bounds[r + 2]);
    }
    if (r + 1 < bounds.size()) next.push_back(bounds.back());  // an odd run out
    bounds = std::move(next);
  }
}

// The samples of every unit's blocks, in unit order. Collective.
template <class T>
std::vector<T> all_gather_samples(const std::vector<T>& mine, dart_team_t team, int units) {
  const std::size_t bytes = mine.size() * sizeof(T);
  std::vector<std::size_t> counts(static_cast<std::size_t>(units), 0), displs(counts);
  dash::internal::check_dart(
      dart_allgather(&bytes, counts.data(), sizeof bytes, DART_TYPE_BYTE, team), "dart_allgather");
  std::size_t total = 0;
  for (std::size_t u = 0; u < counts.size(); ++u) {
    displs[u] = total;
    total += counts[u];
  }
  std::vector<T> all(total / sizeof(T));
  dash::internal::check_dart(dart_allgatherv(mine.data(), bytes, DART_TYPE_BYTE, all.data(),
                                             counts.data(), displs.data(), team),
                             "dart_allgatherv");
  return all;
}

}  // namespace internal

// Sorts the items of all blocks of `master` by cmp (a strict weak order):
// items_of(block) is the block's std::vector<T> (a member pointer such as
// &Block::values, or a callable returning a reference), T trivially
// copyable. Block gid ends with the gid-th range of the global order, sorted
// (sizes bounded as above; blocks may end empty). samples >= 1 per block, k
// >= 2 the group size of the all_to_all rounds; InvalidArgument on every
// unit otherwise. Collective over master.team(); a failure on one unit
// throws on every unit.
template <class Block, class ItemsOf, class Cmp = std::less<>>
void sort(Master<Block>& master, ItemsOf items_of, Cmp cmp = Cmp(), int samples = 32, int k = 2) {
  using Items = std::remove_reference_t<std::invoke_result_t<ItemsOf&, Block&>>;
  using T = typename Items::value_type;
  static_assert(std::is_same_v<Items, std::vector<T>>,
                "dash::bp::sort: items_of(block) must give the block's std::vector<T>");
  static_assert(std::is_trivially_copyable_v<T>,
                "dash::bp::sort: items travel as bytes: T must be trivially copyable");
  if (samples < 1)
    throw exception::InvalidArgument("dash::bp::sort: samples = " + std::to_string(samples) +
                                     ", expected at least 1");
  if (k < 2)
    throw exception::InvalidArgument("dash::bp::sort: k = " + std::to_string(k) +
                                     ", expected at least 2");
  const int nb = master.nblocks();

  // Local sorts and samples (a slot per local block: threads write apart).
  std::map<int, std::vector<T>> picked;
  for (std::size_t i = 0; i < master.size(); ++i) picked[master.gid(i)];
  master.foreach ([&](Block& b, Proxy& p) {
    std::vector<T>& items = std::invoke(items_of, b);
    std::sort(items.begin(), items.end(), cmp);
    const std::size_t n = items.size(), s = std::min(n, std::size_t(samples));
    std::vector<T>& out = picked.at(p.gid());
    for (std::size_t j = 0; j < s; ++j) out.push_back(items[(2 * j + 1) * n / (2 * s)]);
  });
  master.report_failures();
  std::vector<T> mine;
  for (const auto& [gid, v] : picked) mine.insert(mine.end(), v.begin(), v.end());
  std::vector<T> all =
      internal::all_gather_samples(mine, master.team().dart_id(), int(master.team().size()));
  // The samples are sorted on every unit alone: a comparator that throws on one unit must stop
  // every unit here, before the all_to_all.
  std::vector<T> splitters;
  dash::internal::Failure failure;
  try {
    std::sort(all.begin(), all.end(), cmp);
    if (!all.empty())
      for (int j = 0; j + 1 < nb; ++j)
        splitters.push_back(all[(std::size_t(j) + 1) * all.size() / std::size_t(nb)]);
  } catch (...) {
    failure.capture("sorting the samples");
  }
  dash::internal::agree(failure, master.team().dart_id(), "dash::bp::sort");

  all_to_all(
      master,
      [&](Block& b, AllToAllProxy& ap) {
        std::vector<T>& items = std::invoke(items_of, b);
        if (ap.sending()) {
          // Target j takes the items up to splitter j (the last one the rest). Each run of
          // items with one target is found by two binary searches (the target of its first
          // item among the splitters, the run's end among the items): O(runs log) per block,
          // not a walk over every target (which made a sort over B blocks cost B^2).
          std::size_t lo = 0;
          while (lo < items.size()) {
            const std::size_t j =
                std::size_t(std::lower_bound(splitters.begin(), splitters.end(), items[lo], cmp) -
                            splitters.begin());
            const std::size_t hi =
                j == splitters.size()
                    ? items.size()
                    : std::size_t(std::upper_bound(items.begin() + std::ptrdiff_t(lo), items.end(),
                                                   splitters[j], cmp) -
                                  items.begin());
            ap.enqueue(int(j), items.data() + lo, hi - lo);
            lo = hi;
          }
          items.clear();
          items.shrink_to_fit();
          return;
        }
        std::vector<std::size_t> bounds{0};
        for (int from : ap.incoming_from()) {
          const QueueView<T> run = ap.dequeue_view<T>(from);  // read in place
          items.insert(items.end(), run.begin(), run.end());
          bounds.push_back(items.size());
        }
        internal::merge_runs(items, std::move(bounds), cmp);
      },
      k);
}

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__SORT_H_
