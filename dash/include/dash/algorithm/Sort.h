// dash::sort: sorts a global range (a container's range, a sub-range or a
// view) with a parallel sample sort. The result is stable (elements that
// compare equal keep their order) and so the same on any number of units.
//
// How it runs (P units of the container's team, n elements):
//   1. each unit copies its own elements of the range, with their positions,
//      and sorts them with std::sort (ties broken by position);
//   2. each unit picks P regular samples of its sorted part; one allgatherv
//      of the samples gives everyone the same P - 1 splitters;
//   3. each unit cuts its sorted part at the splitters: piece u goes to
//      unit u (one alltoall of counts, one alltoallv of the elements); the
//      splitters bound every unit's share by about 2n / P;
//   4. each unit merges its P sorted pieces, learns where its share starts
//      in the sorted range (one allgather of counts) and puts it there with
//      one-sided transfers; an allreduce of an int ends the sort (as a
//      barrier would) and says whether any unit failed.
// Failures: an exception on a unit (the comparator, memory) travels in the
// next collective of counts (the failing unit sends a failure mark instead
// of its count) or in the final allreduce; every unit then throws, the
// failing unit its own exception, the others dash::exception::RemoteFailure.
// The range is unchanged unless the failure came during the final puts.
// Memory: about 3x the unit's share of elements plus their positions, for
// the duration of the call. The element type must be trivially copyable.
//
// | call                         | cost                                    |
// |------------------------------|-----------------------------------------|
// | sort(first, last[, comp])    | collective: O(n/P log n) local work,    |
// |                              | 5 collectives, one-sided puts           |
#ifndef DASH__ALGORITHM__SORT_H_
#define DASH__ALGORITHM__SORT_H_

#include <dash/algorithm/internal/Collective.h>
#include <dash/algorithm/internal/RangeAccess.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace dash {

namespace internal {

// An element with its position in the range: the sort key that makes every
// element distinct (and the sort stable).
template <class V, class I>
struct SortItem {
  V value;
  I pos;
};

// Exclusive prefix sums of counts (as offsets). Local.
inline std::vector<std::size_t> offsets_of(const std::vector<std::size_t>& counts) {
  std::vector<std::size_t> out(counts.size());
  std::size_t at = 0;
  for (std::size_t u = 0; u < counts.size(); ++u) {
    out[u] = at;
    at += counts[u];
  }
  return out;
}

// Merges the sorted pieces [bounds[k], bounds[k + 1]) of v into one sorted
// sequence, pairwise in rounds between v and one scratch vector of the same
// size. Local, O(n log pieces), one allocation.
template <class Item, class Less>
void merge_pieces(std::vector<Item>& v, std::vector<std::size_t> bounds, Less less) {
  if (bounds.size() <= 2) return;
  std::vector<Item> other(v.size());
  while (bounds.size() > 2) {
    std::vector<std::size_t> next;
    std::size_t k = 0;
    for (; k + 2 < bounds.size(); k += 2) {
      std::merge(v.begin() + std::ptrdiff_t(bounds[k]), v.begin() + std::ptrdiff_t(bounds[k + 1]),
                 v.begin() + std::ptrdiff_t(bounds[k + 1]),
                 v.begin() + std::ptrdiff_t(bounds[k + 2]),
                 other.begin() + std::ptrdiff_t(bounds[k]), less);
      next.push_back(bounds[k]);
    }
    if (k + 1 < bounds.size()) {  // an odd piece out: carried over
      std::copy(v.begin() + std::ptrdiff_t(bounds[k]), v.begin() + std::ptrdiff_t(bounds[k + 1]),
                other.begin() + std::ptrdiff_t(bounds[k]));
      next.push_back(bounds[k]);
    }
    next.push_back(bounds.back());
    bounds.swap(next);
    v.swap(other);
  }
}

// dash::sort with a comparison. Collective.
template <class GlobIt, class Compare>
void sort_by(GlobIt first, GlobIt last, Compare comp) {
  using T = internal::glob_element_t<GlobIt>;
  using V = internal::glob_value_t<GlobIt>;
  using I = internal::glob_index_t<GlobIt>;
  using Item = internal::SortItem<V, I>;
  static_assert(!std::is_const_v<T>, "dash::sort: cannot sort a const range");
  static_assert(std::is_trivially_copyable_v<V>,
                "dash::sort: the element type must be trivially copyable");
  static const char* who = "dash::sort";
  internal::check_glob_range(first, last, who);
  const std::size_t n = std::size_t(last - first);
  internal::check_range_fits(first, n, who, "the range");
  Team* team = internal::range_team(first);
  if (n < 2 || team == nullptr) return;
  const std::size_t P = team->size();
  const dart_team_t tid = team->dart_id();
  auto less = [&comp](const Item& a, const Item& b) {
    if (comp(a.value, b.value)) return true;
    if (comp(b.value, a.value)) return false;
    return a.pos < b.pos;
  };

  // 1. The calling unit's elements with their positions, sorted.
  internal::Failure failure;
  std::vector<Item> mine;
  try {
    std::size_t local_count = 0;
    internal::for_each_local_run<false>(
        first, last, [&](T* b, T* e, I, I) { local_count += std::size_t(e - b); });
    mine.reserve(local_count);
    const I base = I(first.pos());
    internal::for_each_local_run(first, last, [&](T* b, T* e, I pos, I) {
      for (T* p = b; p != e; ++p, ++pos) mine.push_back({*p, pos - base});
    });
    std::sort(mine.begin(), mine.end(), less);
  } catch (...) {
    failure.capture();
  }

  internal::OwnedDartType item_type(internal::RecordBytes{sizeof(Item)});
  std::vector<Item> received;
  std::vector<std::size_t> recv_counts(P, 0);
  if (P == 1) {
    failure.raise(who);
    received.swap(mine);
    recv_counts[0] = received.size();
  } else {
    // 2. P regular samples per unit (fewer if it has fewer elements).
    std::vector<Item> samples;
    const std::size_t s = failure.any() ? 0 : std::min(P, mine.size());
    for (std::size_t k = 0; k < s; ++k) samples.push_back(mine[k * mine.size() / s]);
    const std::size_t s_sent = failure.any() ? internal::kFailedCount : s;
    std::vector<std::size_t> sample_counts(P);
    internal::check_dart(
        dart_allgather(&s_sent, sample_counts.data(), sizeof(std::size_t), DART_TYPE_BYTE, tid),
        who);
    internal::raise_counted_failure(sample_counts.data(), P, failure, tid, who);
    std::vector<std::size_t> sample_offsets = internal::offsets_of(sample_counts);
    std::vector<Item> all_samples(sample_offsets.back() + sample_counts.back() + 1);
    samples.reserve(1);
    internal::check_dart(dart_allgatherv(samples.data(), s, item_type.get(), all_samples.data(),
                                         sample_counts.data(), sample_offsets.data(), tid),
                         who);
    all_samples.pop_back();

    // 3. Cut at the splitters: piece u holds the items below splitter u.
    std::vector<std::size_t> send_counts(P), send_offsets(P);
    try {
      std::sort(all_samples.begin(), all_samples.end(), less);
      std::vector<Item> splitters;  // P - 1 of them
      for (std::size_t u = 1; u < P; ++u)
        splitters.push_back(all_samples[u * all_samples.size() / P]);
      std::size_t at = 0;
      for (std::size_t u = 0; u < P; ++u) {
        std::size_t end = u + 1 < P
                              ? std::size_t(std::lower_bound(mine.begin() + std::ptrdiff_t(at),
                                                             mine.end(), splitters[u], less) -
                                            mine.begin())
                              : mine.size();
        send_offsets[u] = at;
        send_counts[u] = end - at;
        at = end;
      }
    } catch (...) {
      failure.capture();
      std::fill(send_counts.begin(), send_counts.end(), internal::kFailedCount);
    }
    internal::check_dart(dart_alltoall(send_counts.data(), recv_counts.data(), sizeof(std::size_t),
                                       DART_TYPE_BYTE, tid),
                         who);
    internal::raise_counted_failure(recv_counts.data(), P, failure, tid, who);
    std::vector<std::size_t> recv_offsets = internal::offsets_of(recv_counts);
    received.resize(recv_offsets.back() + recv_counts.back() + 1);
    mine.reserve(1);
    internal::check_dart(
        dart_alltoallv(mine.data(), send_counts.data(), send_offsets.data(), item_type.get(),
                       received.data(), recv_counts.data(), recv_offsets.data(), tid),
        who);
    received.pop_back();
    std::vector<Item>().swap(mine);
    // 4. Merge the P sorted pieces.
    try {
      std::vector<std::size_t> bounds = recv_offsets;
      bounds.push_back(received.size());
      internal::merge_pieces(received, bounds, less);
    } catch (...) {
      failure.capture();
    }
  }

  // Where this unit's share starts in the sorted range.
  std::size_t count = failure.any() ? internal::kFailedCount : received.size();
  std::vector<std::size_t> counts(P);
  internal::check_dart(
      dart_allgather(&count, counts.data(), sizeof(std::size_t), DART_TYPE_BYTE, tid), who);
  internal::raise_counted_failure(counts.data(), P, failure, tid, who);
  std::size_t start = 0;
  for (std::size_t u = 0; u < std::size_t(team->myid().id); ++u) start += counts[u];
  // Every unit has read its elements (step 1 precedes the collectives above);
  // the puts may now overwrite them.
  internal::run_agreed(team, who, [&] {
    std::vector<V> values(count + 1);
    for (std::size_t i = 0; i < count; ++i) values[i] = received[i].value;
    std::vector<Item>().swap(received);
    std::vector<dart_handle_t> handles;
    internal::start_put_range(values.data(), count, first + I(start), handles);
    if (!handles.empty()) internal::check_dart(dart_waitall(handles.data(), handles.size()), who);
  });
}

}  // namespace internal

// Sorts [first, last) stably by comp: a comparison comp(a, b) -> bool, or
// (DASH's form) a key function comp(v) whose results are compared with <.
// Collective over the container's team; every unit calls it with the same
// range.
template <class GlobIt, class Compare>
internal::if_glob_iter_t<GlobIt> sort(GlobIt first, GlobIt last, Compare comp) {
  using V = internal::glob_value_t<GlobIt>;
  if constexpr (!std::is_invocable_v<Compare&, const V&, const V&> &&
                std::is_invocable_v<Compare&, const V&>) {
    dash::sort(first, last, [comp](const V& a, const V& b) { return comp(a) < comp(b); });
    return;
  } else {
    internal::sort_by(first, last, comp);
  }
}

// Sorts [first, last) by operator<, stably. Collective over the team.
template <class GlobIt>
internal::if_glob_iter_t<GlobIt> sort(GlobIt first, GlobIt last) {
  dash::sort(first, last, std::less<internal::glob_value_t<GlobIt>>());
}

}  // namespace dash

#endif  // DASH__ALGORITHM__SORT_H_
