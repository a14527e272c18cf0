// dash::accumulate / dash::reduce: folds a global range (a container's
// range, a sub-range or a view) with a binary operation; every unit gets the
// result.
//
// Each unit folds its own elements of [first, last) with std::accumulate on
// native memory, then ONE collective combines the partials:
//   - an operation with a DART op (dash::plus, multiply, min, max) on an
//     element type with a DART type: one allreduce (units without elements
//     contribute the operation's identity);
//   - any other operation: one allgather of the partials; units without
//     elements are skipped, the others are folded in the order of their first
//     element's position.
// The result is op(init, fold of the range). The operation must be
// associative and commutative (cyclic distributions interleave the units'
// elements), and floating-point results may differ from std::accumulate by
// rounding.
//
// | call                                  | cost                        |
// |---------------------------------------|-----------------------------|
// | accumulate(first, last, init)         | collective over the team    |
// | accumulate(first, last, init, op)     | collective over the team    |
// | reduce(...)                           | the same as accumulate      |
#ifndef DASH__ALGORITHM__ACCUMULATE_H_
#define DASH__ALGORITHM__ACCUMULATE_H_

#include <dash/algorithm/Operation.h>
#include <dash/algorithm/internal/Collective.h>
#include <dash/iterator/GlobIter.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

namespace dash {

// op(init, fold of [first, last) with op), on every unit. Collective over
// the team.
template <class GlobIt, class V, class BinaryOp>
internal::if_glob_iter_t<GlobIt, V> accumulate(GlobIt first, GlobIt last, V init, BinaryOp op) {
  using T = internal::glob_element_t<GlobIt>;
  using I = internal::glob_index_t<GlobIt>;
  static_assert(std::is_trivially_copyable_v<V>,
                "dash::accumulate: the value type must be "
                "trivially copyable");
  bool has = false;
  V partial{};
  I first_pos = std::numeric_limits<I>::max();
  internal::Failure failure;
  try {
    internal::for_each_local_run(first, last, [&](T* b, T* e, I pos, I) {
      if (!has) {
        partial = V(*b);
        has = true;
        ++b;
      }
      first_pos = std::min(first_pos, pos);
      partial = std::accumulate(b, e, partial, op);
    });
  } catch (...) {
    failure.capture();
  }
  Team* team = internal::range_team(first);
  if (team == nullptr) return init;  // unallocated container: empty everywhere
  constexpr dart_operation_t dop = internal::dart_operation_of<BinaryOp>::value;
  if constexpr (dop != DART_OP_UNDEFINED &&
                internal::dart_datatype_of<V>() != DART_TYPE_UNDEFINED) {
    V mine = has ? partial : BinaryOp::identity();
    return op(init, internal::allreduce_value(mine, dop, *team, "dash::accumulate", failure));
  } else {
    struct Record {
      V value;
      I first_pos;
      unsigned char has;
    };
    Record mine;
    std::memset(&mine, 0, sizeof(mine));
    mine.value = partial;
    mine.first_pos = first_pos;
    mine.has = has ? 1 : 0;
    std::vector<Record> all = internal::allgather_records(mine, *team, "dash::accumulate", failure);
    std::vector<const Record*> parts;
    for (const Record& r : all)
      if (r.has) parts.push_back(&r);  // skip units without elements
    std::sort(parts.begin(), parts.end(),
              [](const Record* x, const Record* y) { return x->first_pos < y->first_pos; });
    V result = init;
    for (const Record* r : parts) result = op(result, r->value);
    return result;
  }
}

// init + the sum of [first, last), on every unit. Collective over the team.
template <class GlobIt, class V>
internal::if_glob_iter_t<GlobIt, V> accumulate(GlobIt first, GlobIt last, V init) {
  return dash::accumulate(first, last, init, dash::plus<V>());
}

// DASH's name for accumulate(first, last, init, op). Collective over the
// team.
template <class GlobIt, class V, class BinaryOp>
internal::if_glob_iter_t<GlobIt, V> reduce(GlobIt first, GlobIt last, V init, BinaryOp op) {
  return dash::accumulate(first, last, init, op);
}

// DASH's name for accumulate(first, last, init). Collective over the team.
template <class GlobIt, class V>
internal::if_glob_iter_t<GlobIt, V> reduce(GlobIt first, GlobIt last, V init) {
  return dash::accumulate(first, last, init, dash::plus<V>());
}

}  // namespace dash

#endif  // DASH__ALGORITHM__ACCUMULATE_H_
