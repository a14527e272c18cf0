// Bounds checks of element access (issue 44). A program that defines
// DASH_CHECK_BOUNDS before it includes a dash header (<libdash.h> or any
// other; the CMake option DASH_CHECK_BOUNDS does so for this project's
// tests, examples and benchmarks) gets every element access checked: an
// index outside the extents of what it indexes throws
// dash::exception::OutOfRange naming the call, the index and the extents,
// e.g. "dash::Array::operator[]: index 105 is outside [0, 100)".
//
// | access                                 | index checked against            |
// |----------------------------------------|----------------------------------|
// | a[i], a.async[i]                       | [0, a.size())                    |
// | a.local[i]                             | [0, a.lsize())                   |
// | m(i, j, ...), m.ref/cref({i, j, ...})  | m.extents()                      |
// | m[i][j]...                             | each subscript, as it is given,  |
// |                                        | against its extent               |
// | m.local(i, ...), m.local[i]...         | the local extents                |
// | view(i, ...), view[i]..., at_coords    | the view's extents (GlobView,    |
// |                                        | LocalView)                       |
// | *it, it[n] (GlobIter, GlobViewIter,    | [0, size) of what it iterates:   |
// | LocalView::iterator)                   | end() and beyond throw           |
// | dash::index(view)[k]                   | [0, size)                        |
// | b(i, ...) (dash::bp::ContainerBlock)   | the block's cells with its halo  |
// | *it, it[n], it.value_at(k) (halo       | the operator's cells, its points |
// | StencilIterator)                       |                                  |
//
// at() (Array, Array::local, Matrix) checks with or without the macro.
// Not checked: dash::GlobPtr arithmetic and p[n] (a pointer into one unit's
// memory, which knows no extents) and the iterators' queries that access no
// element (gpos, lpos, globptr, is_local, local).
//
// Cost. Without the macro every check is a discarded `if constexpr`: no
// compare, no branch, no string; element access does the operations it did
// before (bench/results/bounds_check.md compares machine code and times).
// With it: one unsigned compare per index and a branch predicted not taken;
// the message is built out of line (dash/src/BoundsCheck.cc, cold), and the
// checks are forced inline, so loads stay hoisted and values in registers.
// GlobIter checks only when it leaves its cached run of one unit's elements,
// so a walk costs no more.
//
// The checks are local: the unit that made the access throws, no other unit
// takes part (no collective in a check).
//
// The macro changes inline code only, never a class layout or a signature,
// so sources built with and without it link together (and with the library,
// which is built without it). Define it for every source of a program, as
// with _GLIBCXX_ASSERTIONS: an inline function compiled both ways is kept
// once by the linker, either way.
#ifndef DASH__INTERNAL__BOUNDS_CHECK_H_
#define DASH__INTERNAL__BOUNDS_CHECK_H_

#include <dash/Exception.h>
#include <dash/Types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace dash {
namespace internal {

// Whether element access is checked in this source (see above). Internal
// linkage: each source has its own.
#ifdef DASH_CHECK_BOUNDS
constexpr bool bounds_checked = true;
#else
constexpr bool bounds_checked = false;
#endif

// Under the macro, on an element access whose check would push it over
// GCC's inlining limit in its callers' loops (GlobIter's dereference): forces
// it inline, so that a walk costs what it costs without the macro. Nothing
// without the macro.
#ifdef DASH_CHECK_BOUNDS
#define DASH_INLINE_IF_BOUNDS_CHECKED [[gnu::always_inline]]
#else
#define DASH_INLINE_IF_BOUNDS_CHECKED
#endif

// Out of line and cold (dash/src/BoundsCheck.cc): each throws
// exception::OutOfRange. Local.
// "<call>: index <index> is outside [0, <extent>)".
[[noreturn, gnu::cold]] void throw_index_out_of_range(const char* call, std::int64_t index,
                                                      std::uint64_t extent);
// The same for an unsigned index; one above INT64_MAX is also named as the
// negative number it was before it turned unsigned ("(-1 as a signed
// index)").
[[noreturn, gnu::cold]] void throw_unsigned_index_out_of_range(const char* call,
                                                               std::uint64_t index,
                                                               std::uint64_t extent);
// "<call>: index (c0, c1, ...) is outside extents (e0, e1, ...)".
[[noreturn, gnu::cold]] void throw_coords_out_of_range(const char* call, const std::int64_t* coords,
                                                       const std::uint64_t* extents, dim_t ndim);
// "<call>: index [c0][c1]... is outside extents (e0, e1, ...)": the `given`
// leading subscripts of an m[i][j]... chain.
[[noreturn, gnu::cold]] void throw_subscripts_out_of_range(const char* call,
                                                           const std::int64_t* coords, dim_t given,
                                                           const std::uint64_t* extents,
                                                           dim_t ndim);
// "<call>: index (c0, c1, ...) is outside [lo0, hi0) x [lo1, hi1) x ...".
[[noreturn, gnu::cold]] void throw_coords_outside_box(const char* call, const std::int64_t* coords,
                                                      const std::int64_t* lo,
                                                      const std::int64_t* hi, dim_t ndim);

// The checks below are always inlined: a compare and a branch to a cold,
// noreturn call, so that the optimiser still keeps values in registers and
// hoists loads across them (a check left as a call of its own, as GCC does
// with partial inlining, is a call that may write memory).
//
// True if index lies in [0, extent): one unsigned compare (a negative index
// converts to a value above any extent). Local.
template <class I, class S>
[[gnu::always_inline]] constexpr bool index_within(I index, S extent) {
  static_assert(std::is_integral_v<I> && std::is_integral_v<S>, "indices are integers");
  return static_cast<std::uint64_t>(index) < static_cast<std::uint64_t>(extent);
}

// Throws OutOfRange naming `call` unless index lies in [0, extent). Local.
template <class I, class S>
[[gnu::always_inline]] inline void check_index(const char* call, I index, S extent) {
  if (__builtin_expect(!index_within(index, extent), 0)) {
    if constexpr (std::is_signed_v<I>)
      throw_index_out_of_range(call, static_cast<std::int64_t>(index),
                               static_cast<std::uint64_t>(extent));
    else
      throw_unsigned_index_out_of_range(call, static_cast<std::uint64_t>(index),
                                        static_cast<std::uint64_t>(extent));
  }
}

// The coordinates and extents as the cold throws take them. Local. By
// value: a checked access passes no address of its own coordinates, which
// would keep them in memory.
template <class I, class S, std::size_t N>
[[noreturn, gnu::cold, gnu::noinline]] void throw_out_of_range(const char* call,
                                                               std::array<I, N> coords, dim_t given,
                                                               std::array<S, N> extents,
                                                               bool subscripts) {
  std::array<std::int64_t, N> c;
  std::array<std::uint64_t, N> e;
  for (std::size_t d = 0; d < N; ++d) {
    c[d] = static_cast<std::int64_t>(coords[d]);
    e[d] = static_cast<std::uint64_t>(extents[d]);
  }
  if (subscripts) throw_subscripts_out_of_range(call, c.data(), given, e.data(), dim_t(N));
  throw_coords_out_of_range(call, c.data(), e.data(), dim_t(N));
}

// Throws OutOfRange naming `call` unless every coordinate lies in
// [0, extent) of its dimension. Local, N compares.
template <class I, class S, std::size_t N>
[[gnu::always_inline]] inline void check_coords(const char* call, const std::array<I, N>& coords,
                                                const std::array<S, N>& extents) {
  for (std::size_t d = 0; d < N; ++d)
    if (__builtin_expect(!index_within(coords[d], extents[d]), 0))
      throw_out_of_range(call, coords, dim_t(N), extents, false);
}

// The check of one subscript of an m[i][j]... chain: throws OutOfRange
// naming `call` and the `given` subscripts so far unless subscript
// given - 1 lies in [0, extent) of its dimension. Local.
template <class I, class S, std::size_t N>
[[gnu::always_inline]] inline void check_subscript(const char* call, const std::array<I, N>& coords,
                                                   dim_t given, const std::array<S, N>& extents) {
  if (__builtin_expect(!index_within(coords[given - 1], extents[given - 1]), 0))
    throw_out_of_range(call, coords, given, extents, true);
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__BOUNDS_CHECK_H_
