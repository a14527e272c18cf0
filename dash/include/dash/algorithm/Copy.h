// dash::copy and dash::copy_async between a global range of a container
// (dash::Array, or dash::Matrix/NArray in canonical order) and a local
// buffer, in both directions; dash::copy between two global ranges (any
// patterns) through a local staging buffer.
//
// How a 1-D copy runs (no per-element lookups or transfers):
//   for every unit u owning part of the range:
//     [lo, hi) = local offsets of u's elements in the global range
//                (Pattern::local_rectangle: one range per unit)
//     split [lo, hi) into a head (up to the end of its local block), the
//     full local blocks in between and a tail; the blocks in between sit
//     every units * blocksize elements in the buffer, so they move as ONE
//     strided transfer (DART strided type on the buffer side)
//     -> at most 3 transfers per unit, all started before any is waited for
// An N-D range [first, last) of a matrix is at most 2N - 1 rectangles; each
// owner's part of a rectangle moves as a few strided transfers (whole local
// rows, whole tiles: internal/RectangleTransfers.h).
//   units reached by load/store (self, same node) are copied with memcpy: by
//   dash::copy at once; by copy_async, for segments of at least
//   DASH_COPY_ASYNC_THRESHOLD bytes, on the copy engine's worker thread
//   (dash/internal/CopyEngine.h), so they overlap the caller's computation;
//   the others are non-blocking one-sided gets/puts, chunked by DART.
// copy_async returns a dash::Future at once; wait() completes every transfer.
// A blocking copy whose range lies in one run of one unit (inside one block: most small
// copies) skips all of the above: one pattern lookup, then one inline memcpy (load/store) or
// one blocking get/put (MPI_Get/Put + flush, no handle).
//
// | call                    | cost                                          |
// |-------------------------|-----------------------------------------------|
// | copy(global -> local)   | one-sided; <= 3 transfers per unit (1-D)      |
// | copy(local -> global)   | one-sided; returns when the data is at target |
// | copy<V, It, UseHandles> | DASH's explicit form: the same copies         |
// | copy_async              | starts the same transfers, returns at once;   |
// |                         | large same-node parts run on a worker thread  |
#ifndef DASH__ALGORITHM__COPY_H_
#define DASH__ALGORITHM__COPY_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Future.h>
#include <dash/algorithm/LocalRange.h>
#include <dash/algorithm/internal/RectangleTransfers.h>
#include <dash/algorithm/internal/Transfers.h>
#include <dash/internal/Given.h>
#include <dash/iterator/GlobIter.h>
#include <dash/view/ViewFunctions.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dash {

namespace internal {

// Starts the transfers between elements [a, a + n) of a linear layout and
// buf[0, n): blocks of `block` elements dealt round-robin to units
// 0 .. units - 1, each unit's blocks following each other in its memory (a
// 1-D pattern; a row-major matrix distributed over rows only). See the top
// of the file. Appends the handles. One-sided.
template <bool Get, class I, class Mem, class Buf, class Handles>
void start_linear_transfers(const Mem& mem, I block, I units, I a, I n, Buf* buf,
                            Handles& handles) {
  const std::size_t elem = sizeof(std::remove_const_t<Buf>);
  // One transfer of unit u's local offsets [s, s + nbytes) whose first
  // element is buffer position pos.
  auto transfer = [&](team_unit_t u, I s, std::size_t nbytes, I pos, TransferLayout layout) {
    start_transfer<Get>(buf + pos, mem.dart_gptr_at(u, s), nbytes, layout, handles);
  };
  // Unit u's local offsets below global index x; global index of local l.
  auto count_below = [&](I u, I x) {
    const I j = x / block;
    const I full = j > u ? (j - u + units - 1) / units : 0;  // blocks j' < j, j' % units == u
    return full * block + (j % units == u ? x - j * block : 0);
  };
  auto pos_of = [&](I u, I l) {
    const I c = l / block;
    return (c * units + u) * block + (l - c * block) - a;
  };
  // Only the units owning blocks of the range: block j belongs to unit
  // j mod units, so a range of fewer blocks than units names each owner once.
  const I first_block = a / block;
  const I range_blocks = (a + n - 1) / block - first_block + 1;
  const I owners = std::min(range_blocks, units);
  for (I k = 0; k < owners; ++k) {
    const I unit = range_blocks >= units ? k : (first_block + k) % units;
    const team_unit_t u(static_cast<dart_unit_t>(unit));
    const I lo = count_below(unit, a), hi = count_below(unit, a + n);
    if (lo == hi) continue;
    const I c0 = lo / block, c1 = (hi - 1) / block;
    if (c0 == c1) {  // inside one local block: contiguous on both sides
      transfer(u, lo, std::size_t(hi - lo) * elem, pos_of(unit, lo), TransferLayout{});
      continue;
    }
    const I head_end = (c0 + 1) * block, tail_begin = c1 * block;
    transfer(u, lo, std::size_t(head_end - lo) * elem, pos_of(unit, lo), TransferLayout{});
    const I middle_blocks = c1 - c0 - 1;
    if (middle_blocks > 0) {
      const std::size_t nbytes = std::size_t(middle_blocks * block) * elem;
      if (middle_blocks == 1 || units == 1) {
        transfer(u, head_end, nbytes, pos_of(unit, head_end), TransferLayout{});
      } else {
        transfer(u, head_end, nbytes, pos_of(unit, head_end),
                 TransferLayout{std::size_t(block) * elem, std::size_t(block) * elem,
                                std::size_t(units * block) * elem});
      }
    }
    transfer(u, tail_begin, std::size_t(hi - tail_begin) * elem, pos_of(unit, tail_begin),
             TransferLayout{});
  }
}

// Elements per block of the linear layout a pattern's canonical order has
// when only its slowest dimension is distributed and its local memory is
// row-major (1-D patterns; BlockPattern and TilePattern with one block in
// every other dimension): blocksize(0) times the other extents. 0 if the
// pattern has no such layout (nor an irregular pattern: its blocks differ in size). Local, O(N).
template <class P>
typename P::index_type linear_block(const P& pattern) {
  using I = typename P::index_type;
  if constexpr ((P::memory_order() != ROW_MAJOR && P::ndim() > 1) || is_irregular_pattern_v<P>) {
    return 0;
  } else {
    I block = pattern.blocksize(0);
    for (dim_t d = 1; d < P::ndim(); ++d) {
      if (pattern.teamspec().extent(d) != 1 || pattern.blocksize(d) < I(pattern.extent(d)))
        return 0;
      block *= I(pattern.extent(d));
    }
    return block;
  }
}

// Starts the transfers between global [first, last) and buffer `buf`
// (element k of the range <-> buf[k]); appends their handles. Get: global to
// buffer; else buffer to global.
template <bool Get, class T, class P, class Buf, class Handles>
void start_transfers(const GlobIter<T, P>& first, const GlobIter<T, P>& last, Buf* buf,
                     Handles& handles) {
  static_assert(has_local_rectangle<P>::value,
                "dash::copy needs a pattern that deals blocks per dimension "
                "(BlockPattern, TilePattern)");
  using I = typename P::index_type;
  const P& pattern = first.pattern();
  const I n = I(last - first);
  const I block = linear_block(pattern);
  if (block > 0) {
    start_linear_transfers<Get>(*first.memory(), block, I(pattern.teamspec().extent(0)),
                                I(first.pos()), n, buf, handles);
  } else {
    start_nd_transfers<Get>(first, std::size_t(n), buf, handles);
  }
}

// Checks a global range [first, last) of one live container. Inline, with the throws out of
// line: a small copy's checks must not cost a call and a stack frame (their stores would limit
// how many copies' cache misses overlap). Local.
template <class T, class P>
[[gnu::always_inline]] inline void check_copy_range(const GlobIter<T, P>& first,
                                                    const GlobIter<T, P>& last, const char* who) {
  // First: the pattern and memory of a freed container must not be touched.
  if (!first.stamp().live()) throw_stale_handle(who);
  if (first.memory() != last.memory())
    throw_invalid_argument(who, "first and last belong to different containers");
  if (last < first) throw_invalid_argument(who, "last is before first");
  if (first.pos() < 0 ||
      (last.pos() > 0 && std::size_t(last.pos()) > std::size_t(first.pattern().size())))
    throw_invalid_argument(who, "range outside the container");
}

// Rejects a local buffer that overlaps the calling unit's own elements of the
// global range (the result would depend on transfer order).
template <class T, class P>
void check_no_overlap(const GlobIter<T, P>& first, const GlobIter<T, P>& last, const void* buf,
                      std::size_t n, const char* who) {
  const char* b = static_cast<const char*>(buf);
  const char* e = b + n * sizeof(T);
  bool overlap = false;
  if constexpr (P::ndim() > 1) {
    overlap = own_elements_overlap(first, std::size_t(last - first), b, e);
  } else {
    auto idx = local_index_range(first, last);
    if (idx.begin == idx.end || n == 0) return;
    const char* own_begin = reinterpret_cast<const char*>(first.memory()->lbegin() + idx.begin);
    const char* own_end = reinterpret_cast<const char*>(first.memory()->lbegin() + idx.end);
    overlap = b < own_end && own_begin < e;
  }
  if (overlap)
    throw exception::InvalidArgument(std::string(who) +
                                     ": the local buffer overlaps the global range");
}

}  // namespace internal

namespace internal {

// Checks the arguments and starts the transfers of a global -> local copy.
template <class T, class P, class Handles>
void start_get(const GlobIter<T, P>& first, const GlobIter<T, P>& last, std::remove_const_t<T>* out,
               Handles& handles, const char* who) {
  check_copy_range(first, last, who);
  std::size_t n = std::size_t(last - first);
  check_no_overlap(first, last, out, n, who);
  if (n > 0) start_transfers<true>(first, last, out, handles);
}

// Throws InvalidArgument: n elements from `out` on run past the container. Local.
template <class T, class P>
[[noreturn, gnu::noinline, gnu::cold]] void throw_put_past_end(const GlobIter<T, P>& out,
                                                               std::size_t n, const char* who) {
  throw exception::InvalidArgument(std::string(who) + ": " + std::to_string(n) +
                                   " elements from global index " + std::to_string(out.pos()) +
                                   " run past the container's " +
                                   std::to_string(out.pattern().size()) + " elements");
}

// Checks the arguments of a local -> global copy; returns the number of elements. Inline, the
// throws out of line (as check_copy_range). Local.
template <class T, class P>
[[gnu::always_inline]] inline typename P::index_type check_put_range(const T* in_first,
                                                                     const T* in_last,
                                                                     const GlobIter<T, P>& out,
                                                                     const char* who) {
  static_assert(!std::is_const_v<T>, "dash::copy: cannot write to a const container");
  if (!out.stamp().live()) throw_stale_handle(who);  // before the pattern is touched
  if (in_last < in_first) throw_invalid_argument(who, "in_last is before in_first");
  auto n = typename P::index_type(in_last - in_first);
  if (out.pos() < 0 || std::size_t(out.pos() + n) > std::size_t(out.pattern().size()))
    throw_put_past_end(out, std::size_t(n), who);
  return n;
}

// memcpy(dst, src, n) that keeps copies of up to 256 bytes inline, as 32-byte moves: a call
// of memcpy with a size known only at run time costs more than such a copy itself, and many
// independent inline copies overlap their cache misses. Local.
inline void copy_bytes(void* dst, const void* src, std::size_t n) {
  if (n > 256) {
    std::memcpy(dst, src, n);
    return;
  }
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  for (; n >= 32; n -= 32, d += 32, s += 32) std::memcpy(d, s, 32);
  for (; n >= 8; n -= 8, d += 8, s += 8) std::memcpy(d, s, 8);
  for (; n > 0; --n) *d++ = *s++;
}

// A blocking copy of the n > 0 elements from `first` on when they sit at consecutive offsets
// of one unit (one run of the pattern: what a small copy usually is): one memcpy if that unit
// is reached by load/store, else one blocking get/put (MPI_Get/Put + flush, no handle).
// Returns false, having done nothing, when the range leaves the run. Get: global to `buf`.
// One-sided; no allocation, one pattern lookup.
template <bool Get, class T, class P, class Buf>
[[gnu::always_inline]] inline bool copy_one_run(const GlobIter<T, P>& first, std::size_t n,
                                                Buf* buf, const char* who) {
  using V = std::remove_const_t<T>;
  const auto run = first.pattern().local_run(first.pos());
  if (std::size_t(run.run) < n) return false;
  const auto* mem = first.memory();
  const std::size_t nbytes = n * sizeof(V);
  if (V* base = mem->shared_base(run.unit)) {  // (the callers checked the memory stamp)
    V* at = base + run.index;
    if (at < buf + n && buf < static_cast<const V*>(at + n))
      throw_invalid_argument(who, "the local buffer overlaps the global range");
    if constexpr (Get)
      copy_bytes(buf, at, nbytes);
    else
      copy_bytes(at, buf, nbytes);
    return true;
  }
  const dart_gptr_t g = mem->dart_gptr_at(run.unit, run.index);
  if constexpr (Get)
    check_dart(dart_get_blocking(buf, g, nbytes, DART_TYPE_BYTE, DART_TYPE_BYTE), who);
  else
    check_dart(dart_put_blocking(g, buf, nbytes, DART_TYPE_BYTE, DART_TYPE_BYTE), who);
  return true;
}

// A blocking copy between the checked global range [first, first + n) and buf that
// copy_one_run did not take: every transfer started, then waited for. Out of line and given
// the iterator's parts, not the iterator (80 bytes, which the compiler would otherwise keep in
// memory, stored anew for every small copy), so that the small copies' inline path carries
// neither its stack frame nor those stores. One-sided.
template <bool Get, class T, class P, class Buf>
[[gnu::noinline]] void copy_blocking(const typename GlobIter<T, P>::memory_type* mem,
                                     const P* pattern, typename P::index_type pos, std::size_t n,
                                     Buf* buf) {
  const GlobIter<T, P> first(mem, pattern, pos);
  const GlobIter<T, P> last = first + typename P::index_type(n);
  check_no_overlap(first, last, buf, n, "dash::copy");
  HandleBuffer handles;
  start_transfers<Get>(first, last, buf, handles);
  handles.wait("dash::copy");
}

// Checks the arguments and starts the transfers of a local -> global copy;
// returns the end of the destination range.
template <class T, class P, class Handles>
GlobIter<T, P> start_put(const T* in_first, const T* in_last, const GlobIter<T, P>& out,
                         Handles& handles, const char* who) {
  const auto n = check_put_range(in_first, in_last, out, who);
  GlobIter<T, P> out_last = out + n;
  check_no_overlap(out, out_last, in_first, std::size_t(n), who);
  if (n > 0) start_transfers<false>(out, out_last, in_first, handles);
  return out_last;
}

}  // namespace internal

// Starts copying global [first, last) to out[0 .. last - first); the future
// yields out + (last - first). One-sided, returns at once.
template <class T, class P>
Future<std::remove_const_t<T>*> copy_async(GlobIter<T, P> first, GlobIter<T, P> last,
                                           std::remove_const_t<T>* out) {
  using V = std::remove_const_t<T>;
  return internal::async_transfers<V*>([&](auto& handles) {
    internal::start_get(first, last, out, handles, "dash::copy_async");
    return out + (last - first);
  });
}

// Copies global [first, last) to out; returns out + (last - first).
// One-sided, blocking; allocates nothing for teams of up to ~10 units.
template <class T, class P>
std::remove_const_t<T>* copy(GlobIter<T, P> first, GlobIter<T, P> last,
                             std::remove_const_t<T>* out) {
  internal::check_copy_range(first, last, "dash::copy");
  const std::size_t n = std::size_t(last - first);
  if (n == 0 || internal::copy_one_run<true>(first, n, out, "dash::copy")) return out + n;
  internal::copy_blocking<true, T, P>(first.memory(), &first.pattern(), first.pos(), n, out);
  return out + n;
}

// Starts copying local [in_first, in_last) to the global range starting at
// out; the future yields out + (in_last - in_first) once the data is at its
// targets. One-sided, returns at once. Throws
// dash::exception::InvalidArgument if the range would run past the container.
template <class T, class P>
Future<GlobIter<T, P>> copy_async(const T* in_first, const T* in_last, GlobIter<T, P> out) {
  return internal::async_transfers<GlobIter<T, P>>([&](auto& handles) {
    return internal::start_put(in_first, in_last, out, handles, "dash::copy_async");
  });
}

// Copies local [in_first, in_last) to the global range starting at out;
// returns out + (in_last - in_first) once the data is at its targets.
// One-sided, blocking; allocates nothing for teams of up to ~10 units.
template <class T, class P>
GlobIter<T, P> copy(const T* in_first, const T* in_last, GlobIter<T, P> out) {
  const auto n = internal::check_put_range(in_first, in_last, out, "dash::copy");
  if (n == 0 || internal::copy_one_run<false>(out, std::size_t(n), in_first, "dash::copy"))
    return out + n;
  internal::copy_blocking<false, T, P>(out.memory(), &out.pattern(), out.pos(), std::size_t(n),
                                       in_first);
  return out + n;
}

namespace internal {

// Copies global [first, last) to global out as chunks of at most 4 MiB: each
// chunk global -> local staging buffer -> global (the dash::copy overloads
// for the iterator kinds involved). One-sided, blocking.
template <class V, class InIt, class OutIt>
OutIt copy_through_staging(InIt first, InIt last, OutIt out) {
  auto n = last - first;
  constexpr std::size_t kStagingBytes = std::size_t(4) << 20;
  const auto chunk = decltype(n)(std::max<std::size_t>(1, kStagingBytes / sizeof(V)));
  std::vector<V> staging(std::size_t(std::min(n, chunk)));
  for (decltype(n) done = 0; done < n; done += chunk) {
    auto len = std::min(chunk, n - done);
    copy(first + done, first + done + len, staging.data());
    copy(staging.data(), staging.data() + len, out + done);
  }
  return out + n;
}

}  // namespace internal

// Copies global [first, last) to the global range starting at out; the two
// may have different patterns and teams. Returns out + (last - first) once
// the data is at its targets. One-sided (the calling unit moves the whole
// range), blocking: the range goes through a local staging buffer of at most
// 4 MiB, each chunk as a global->local then a local->global copy. Throws
// dash::exception::InvalidArgument for overlapping ranges of one container.
template <class T, class P, class U, class Q>
GlobIter<U, Q> copy(GlobIter<T, P> first, GlobIter<T, P> last, GlobIter<U, Q> out) {
  static_assert(std::is_same_v<std::remove_const_t<T>, U>,
                "dash::copy: source and destination element types differ");
  using V = std::remove_const_t<T>;
  internal::check_copy_range(first, last, "dash::copy");
  if (!out.stamp().live()) internal::throw_stale_handle("dash::copy");
  auto n = last - first;
  if (out.pos() < 0 || std::size_t(out.pos() + n) > std::size_t(out.pattern().size()))
    throw exception::InvalidArgument("dash::copy: the destination range runs past its container");
  const bool same_container =
      static_cast<const void*>(first.memory()) == static_cast<const void*>(out.memory());
  if (same_container && first.pos() == out.pos()) return out + n;  // nothing moves
  if (same_container && first.pos() < out.pos() + n && out.pos() < last.pos())
    throw exception::InvalidArgument("dash::copy: source and destination ranges overlap");
  if (n == 0) return out;
  return internal::copy_through_staging<V>(first, last, out);
}

// DASH's forms with explicit template arguments, dash::copy<ValueType, GlobIt, UseHandles>(...):
// the same copies as above, global [first, last) to the local `out`, or local [in_first,
// in_last) to the global range at `out`. UseHandles (DASH: wait on one handle per transfer
// instead of a flush) changes nothing here: the copies above already start every transfer
// before waiting for any. One-sided, blocking.
template <class ValueType, class GlobIt, bool UseHandles = false,
          class = std::enable_if_t<internal::is_glob_iter_v<GlobIt>>>
ValueType* copy(GlobIt first, GlobIt last, internal::given_t<ValueType>* out) {
  return dash::copy(first, last, out);
}
template <class ValueType, class GlobIt, bool UseHandles = false,
          class = std::enable_if_t<internal::is_glob_iter_v<GlobIt>>>
GlobIt copy(internal::given_t<ValueType>* in_first, internal::given_t<ValueType>* in_last,
            GlobIt out) {
  return dash::copy(static_cast<const ValueType*>(in_first), static_cast<const ValueType*>(in_last),
                    out);
}

}  // namespace dash

// As DASH's <dash/algorithm/Copy.h>, this header gives every form of
// dash::copy: also those of views (GlobViewIter ranges) and global pointers.
#include <dash/algorithm/CopyPointer.h>
#include <dash/algorithm/CopyView.h>

#endif  // DASH__ALGORITHM__COPY_H_
