// dash::transform: out[i] = op(a[i]) or out[i] = op(a[i], b[i]) over global
// ranges of any containers, patterns and views, as std::transform on the
// gathered ranges; and DASH's form with a local first range, which combines
// the calling unit's values into a global range.
//
// Global ranges (owner computes): every unit of the team calls it with the
// same ranges; each unit computes the output elements it owns, on native
// memory. Input elements at the same positions that it owns in one run are
// read in place; the others are fetched into a scratch buffer (at most the
// unit's part of the output) with one-sided gets, all started before any is
// waited for. Barrier before (inputs written by other units). At the end
// the units agree on whether any unit failed (op threw, a transfer failed;
// one allreduce of an int, which also serves as the barrier after): if one
// did, every unit throws (the failing unit its own exception, the others
// dash::exception::RemoteFailure). The output may be an input (the very same
// range: in place) but must not overlap one otherwise.
//
// Local first range (DASH's form): transform(a, a + n, b, out, op) sets
// out[i] = op(a[i], b[i]) for the calling unit's n values, without the other
// units. When out is b and op is a dash:: operation (plus, multiply, min,
// max) on a type with a DART type, each element is combined atomically
// (dart_accumulate, one call per run of an owner), so all units may
// contribute to the same elements at once; otherwise b is read, combined and
// written back (not atomic).
//
// | call                                      | cost                        |
// |-------------------------------------------|-----------------------------|
// | transform(first, last, out, op)           | collective: local + one-    |
// |                                           | sided gets + allreduce (int)|
// | transform(first, last, b, out, op)        | the same                    |
// | transform(a, a + n, b, out, op), a local  | one-sided                   |
#ifndef DASH__ALGORITHM__TRANSFORM_H_
#define DASH__ALGORITHM__TRANSFORM_H_

#include <dash/algorithm/Operation.h>
#include <dash/algorithm/internal/Collective.h>
#include <dash/algorithm/internal/RangeAccess.h>

#include <algorithm>
#include <vector>

namespace dash {

namespace internal {

// The calling unit's runs of output [out, out + n): calls body(o_begin,
// o_end, k) after the inputs registered through add(k, len) are fetched.
template <class Out, class Add, class Fetch, class Body>
void for_each_output_run(const Out& out, std::size_t n, Add&& add, Fetch&& fetch, Body&& body) {
  using T = glob_element_t<Out>;
  using I = glob_index_t<Out>;
  struct Run {
    T* b;
    T* e;
    I k;
  };
  std::vector<Run> runs;
  const I base = I(out.pos());
  for_each_local_run(out, out + I(n), [&](T* b, T* e, I pos, I) {
    runs.push_back({b, e, pos - base});
    add(pos - base, std::size_t(e - b));
  });
  fetch();
  for (std::size_t s = 0; s < runs.size(); ++s) body(runs[s].b, runs[s].e, s);
}

}  // namespace internal

// out[i] = op(a[i]) for i in [0, last - first); returns the end of the
// output range. Every unit calls it; each computes its own output elements.
template <class InIt, class OutIt, class UnaryOp, class = internal::if_glob_iter_t<InIt>,
          class = internal::if_glob_iter_t<OutIt>>
OutIt transform(InIt first, InIt last, OutIt out, UnaryOp op) {
  static const char* who = "dash::transform";
  internal::check_input(first, last, who);
  const std::size_t n = std::size_t(last - first);
  internal::check_range_fits(out, n, who, "the output range");
  internal::check_in_place_or_disjoint(first, out, n, who);
  if (n == 0) return out;
  internal::run_agreed(internal::range_team(out), who, [&] {
    internal::StagedInput<InIt> a(first);
    internal::for_each_output_run(
        out, n, [&](auto k, std::size_t len) { a.add(k, len); }, [&] { a.fetch(who); },
        [&](auto* ob, auto* oe, std::size_t s) {
          std::transform(a.data(s), a.data(s) + (oe - ob), ob, op);
        });
  });
  return out + internal::glob_index_t<OutIt>(n);
}

// out[i] = op(a[i], b[i]) for i in [0, a_last - a_first) (std::transform's
// meaning, any patterns); returns the end of the output range. Every unit
// calls it; each computes its own output elements.
template <class InA, class InB, class OutIt, class BinaryOp, class = internal::if_glob_iter_t<InA>,
          class = internal::if_glob_iter_t<InB>, class = internal::if_glob_iter_t<OutIt>>
OutIt transform(InA a_first, InA a_last, InB b_first, OutIt out, BinaryOp op) {
  static const char* who = "dash::transform";
  internal::check_input(a_first, a_last, who);
  const std::size_t n = std::size_t(a_last - a_first);
  internal::check_range_fits(b_first, n, who, "the second input range");
  internal::check_range_fits(out, n, who, "the output range");
  internal::check_in_place_or_disjoint(a_first, out, n, who);
  internal::check_in_place_or_disjoint(b_first, out, n, who);
  if (n == 0) return out;
  internal::run_agreed(internal::range_team(out), who, [&] {
    internal::StagedInput<InA> a(a_first);
    internal::StagedInput<InB> b(b_first);
    internal::for_each_output_run(
        out, n,
        [&](auto k, std::size_t len) {
          a.add(k, len);
          b.add(k, len);
        },
        [&] {
          a.fetch(who);
          b.fetch(who);
        },
        [&](auto* ob, auto* oe, std::size_t s) {
          std::transform(a.data(s), a.data(s) + (oe - ob), b.data(s), ob, op);
        });
  });
  return out + internal::glob_index_t<OutIt>(n);
}

// DASH's form: out[i] = op(a[i], b[i]) for the calling unit's local values
// [a_first, a_last); atomic per element when out is b and op is a dash::
// operation on a DART type (see the file comment). Returns the end of the
// output range once the results are visible at their owners. One-sided.
template <class T, class InB, class OutIt, class BinaryOp, class = internal::if_glob_iter_t<InB>,
          class = internal::if_glob_iter_t<OutIt>>
OutIt transform(const T* a_first, const T* a_last, InB b_first, OutIt out, BinaryOp op) {
  static const char* who = "dash::transform";
  using V = internal::glob_value_t<OutIt>;
  using I = internal::glob_index_t<OutIt>;
  static_assert(std::is_same_v<std::remove_const_t<T>, V>,
                "dash::transform: the local values and the output differ in type");
  if (a_last < a_first)
    throw exception::InvalidArgument("dash::transform: a_last is before a_first");
  const std::size_t n = std::size_t(a_last - a_first);
  internal::check_range_fits(b_first, n, who, "the global input range");
  internal::check_range_fits(out, n, who, "the output range");
  if (n == 0) return out;
  constexpr dart_operation_t dop = internal::dart_operation_of<BinaryOp>::value;
  const bool same = internal::same_range_start(b_first, out);
  if constexpr (dop != DART_OP_UNDEFINED &&
                internal::dart_datatype_of<V>() != DART_TYPE_UNDEFINED) {
    if (same) {
      const auto* mem = out.memory();
      internal::for_each_owner_run(out, n, [&](team_unit_t u, I offset, I k, I len) {
        internal::check_dart(
            dart_accumulate(mem->dart_gptr_at(u, offset), a_first + k, std::size_t(len),
                            internal::dart_datatype_of<V>(), dop),
            "dash::transform: dart_accumulate");
      });
      internal::check_dart(dart_flush_all(mem->dart_gptr_at(team_unit_t(0), 0)),
                           "dash::transform: dart_flush_all");
      return out + I(n);
    }
  }
  std::vector<V> values(n);
  std::vector<dart_handle_t> handles;
  internal::start_get_range(b_first, n, values.data(), handles);
  if (!handles.empty()) internal::check_dart(dart_waitall(handles.data(), handles.size()), who);
  handles.clear();
  for (std::size_t i = 0; i < n; ++i) values[i] = op(a_first[i], values[i]);
  internal::start_put_range(values.data(), n, out, handles);
  if (!handles.empty()) internal::check_dart(dart_waitall(handles.data(), handles.size()), who);
  return out + I(n);
}

}  // namespace dash

#endif  // DASH__ALGORITHM__TRANSFORM_H_
