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
// | reduce(l_first, l_last, init[, op])   | collective: each unit's own |
// |                                       | native range (DASH's form)  |
#ifndef DASH__ALGORITHM__ACCUMULATE_H_
#define DASH__ALGORITHM__ACCUMULATE_H_

#include <dash/algorithm/Operation.h>
#include <dash/algorithm/internal/Collective.h>
#include <dash/iterator/GlobIter.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <vector>

namespace dash {

namespace internal {

// op(init, the fold of every unit's partial), on every unit: partial is the
// unit's fold (valid if has), order its position among the partials (for
// operations without a DART op, whose partials are folded in that order).
// Collective over team: one allreduce or one allgather (see the top).
template <class V, class BinaryOp, class I>
V combine_partials(bool has, const V& partial, I order, V init, BinaryOp op, Team& team,
                   const char* who, const Failure& failure) {
  constexpr dart_operation_t dop = dart_operation_of<BinaryOp>::value;
  if constexpr (dop != DART_OP_UNDEFINED && dart_datatype_of<V>() != DART_TYPE_UNDEFINED) {
    V mine = has ? partial : BinaryOp::identity();
    return op(init, allreduce_value(mine, dop, team, who, failure));
  } else {
    struct Record {
      V value;
      I order;
      unsigned char has;
    };
    Record mine;
    std::memset(&mine, 0, sizeof(mine));
    mine.value = partial;
    mine.order = order;
    mine.has = has ? 1 : 0;
    std::vector<Record> all = allgather_records(mine, team, who, failure);
    std::vector<const Record*> parts;
    for (const Record& r : all)
      if (r.has) parts.push_back(&r);  // skip units without elements
    std::sort(parts.begin(), parts.end(),
              [](const Record* x, const Record* y) { return x->order < y->order; });
    V result = init;
    for (const Record* r : parts) result = op(result, r->value);
    return result;
  }
}

}  // namespace internal

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
  return internal::combine_partials(has, partial, first_pos, init, op, *team, "dash::accumulate",
                                    failure);
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

// DASH's reduce of local ranges: every unit of `team` passes its own
// native range [l_first, l_last) (possibly empty); every unit gets
// op(init, fold of all of them), the units' folds combined in unit order.
// Collective over team.
template <
    class InputIt, class V, class BinaryOp,
    class = std::enable_if_t<!internal::is_glob_iter_v<InputIt> && !std::is_same_v<BinaryOp, bool>>>
V reduce(InputIt l_first, InputIt l_last, V init, BinaryOp op, Team& team = Team::All()) {
  static_assert(std::is_trivially_copyable_v<V>,
                "dash::reduce: the value type must be trivially copyable");
  bool has = l_first != l_last;
  V partial{};
  internal::Failure failure;
  try {
    if (has) partial = std::accumulate(std::next(l_first), l_last, V(*l_first), op);
  } catch (...) {
    failure.capture();
  }
  return internal::combine_partials(has, partial, team.myid().id, init, op, team, "dash::reduce",
                                    failure);
}

// init + the sum of every unit's native range [l_first, l_last). Collective
// over the team.
template <class InputIt, class V, class = std::enable_if_t<!internal::is_glob_iter_v<InputIt>>>
V reduce(InputIt l_first, InputIt l_last, V init) {
  return dash::reduce(l_first, l_last, init, dash::plus<V>());
}

// DASH's forms with its `non_empty` flag (every unit's range holds elements): the same
// reductions; the flag changes nothing here, as empty ranges are always left out. Collective
// over team.
template <class InputIt, class V, class BinaryOp,
          class = std::enable_if_t<!internal::is_glob_iter_v<InputIt>>>
V reduce(InputIt l_first, InputIt l_last, V init, BinaryOp op, bool non_empty,
         Team& team = Team::All()) {
  (void)non_empty;
  return dash::reduce(l_first, l_last, init, op, team);
}
template <class InputIt, class V, class = std::enable_if_t<!internal::is_glob_iter_v<InputIt>>>
V reduce(InputIt l_first, InputIt l_last, V init, bool non_empty, Team& team = Team::All()) {
  (void)non_empty;
  return dash::reduce(l_first, l_last, init, dash::plus<V>(), team);
}

}  // namespace dash

#endif  // DASH__ALGORITHM__ACCUMULATE_H_
