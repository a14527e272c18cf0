// dash::ooc::transpose: b becomes the transpose of a, for matrices
// distributed by rows (every unit holds at most one block, of whole rows:
// the pattern of DistributionSpec<2>(BLOCKED, NONE)), in memory or with the
// local arrays out of core, with a callback on each slab of a before its
// data leaves and on each slab of b before it is stored. The out-of-core
// 2-D FFT of Bordawekar & Choudhary ("Communication Strategies for
// Out-of-core Programs", ICS 1995) is
//
//   dash::ooc::transpose(a, b, dash::ooc::Strategy::producer, row_ffts, row_ffts);
//
// How it runs (P units, a of R x C with S slabs per unit, b of C x R):
//   rounds k = 0 .. S-1: each unit takes its slab k of a (rows), cuts it
//     into P column strips, unit v's strip the columns that are v's rows of
//     b, transposes each strip and sends it (one alltoallv per round; the
//     round's failure agreed by one int allreduce before it). Every unit
//     receives, from each unit, the columns of its rows of b that are that
//     unit's slab k.
//   out of core, each unit keeps what round k brought for its slab j of b
//     in region (j, k) of a staging file (its spill directory, removed at
//     the end); then, slab by slab of b, it reads the S regions of the
//     slab (the next one prefetched), puts the columns in place, runs
//     after() on the slab and writes it to b's file. In memory, the columns
//     go straight into b's local rows and after() runs on them at the end.
//   Strategy::collective: first a pass of its own runs before() on every
//     slab of a and writes it back; the rounds then read a again.
//   Strategy::producer: before() runs on slab k in round k, while the slab
//     is in memory to be sent; a is not written back (a read and a write of
//     a fewer: Bordawekar & Choudhary's (ICS 1995) finding that the
//     producer-driven method moves the fewest bytes).
// Memory per unit: out of core at most about six slabs (the slab of a
// being cut and the next one prefetched, the strips sent and received, the
// staging regions being filled and written; then a slab of b and its write,
// the regions read ahead; the files' recycled buffers serve all their
// regions; figures:
// bench/results/design_measurements.md#transpose-memory-per-unit-out-of-core
// and bench/results/memory.md), in memory
// two round buffers of about 8 MiB. Afterwards a's contents are
// unspecified (collective: before() applied; producer and in memory: as given or changed by
// before()).
//
// Failures: an exception (a callback, the files) is agreed on before the
// next round's exchange and at the end; every unit throws, the failing unit
// its own exception, the others dash::exception::RemoteFailure; b's
// contents are then unspecified. Patterns that are not by rows, extents
// that do not transpose, different teams, a slab too large for one
// transfer (more than INT_MAX elements between two units): InvalidArgument
// on every unit, before anything moves.
//
// | call                        | cost                                        |
// |-----------------------------|---------------------------------------------|
// | transpose (out of core)     | collective: S alltoallv, S + 2 int          |
// |                             | allreduces; reads and writes a (collective: |
// |                             | twice), the staging file and b once each    |
// | transpose (dash::Matrix)    | collective: R alltoallv, R + 1 int          |
// |                             | allreduces, R = the rows of a unit / 8 MiB  |
#ifndef DASH__OOC__TRANSPOSE_H_
#define DASH__OOC__TRANSPOSE_H_

#include <dash/Exception.h>
#include <dash/Matrix.h>
#include <dash/algorithm/internal/Collective.h>
#include <dash/bp/Serialization.h>
#include <dash/internal/Failure.h>
#include <dash/ooc/Matrix.h>
#include <dash/ooc/Strategy.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace ooc {

// Rows [first, first + count) of a matrix with `cols` columns, row-major at
// data: row i of the view (global row first + i) starts at data + i * cols.
template <class T>
struct Rows {
  T* data;
  long first, count, cols;
  T* row(long i) const { return data + i * cols; }
};

// The callback that does nothing (transpose without before/after).
struct NoRows {
  template <class T>
  void operator()(const Rows<T>&) const {}
};

namespace internal {

// Which rows each unit of a by-rows pattern holds, and how its share is cut
// into slabs (as dash::ooc::Matrix cuts a block: slab k of e rows holds
// rows [e*k/S, e*(k+1)/S) of it).
struct RowLayout {
  std::vector<long> begin, extent;  // per unit; extent 0: no rows
  int slabs = 1;
  long rows = 0, cols = 0;  // of the matrix
  long slab_first(int u, int k) const { return begin[u] + extent[u] * k / slabs; }
  long slab_rows(int u, int k) const { return extent[u] * (k + 1) / slabs - extent[u] * k / slabs; }
};

// The row layout of `pattern` (a 2-D pattern whose blocks span all columns,
// at most one per unit), its units' shares cut into `slabs`. Throws
// InvalidArgument naming `who` and `which` matrix otherwise (alike on every
// unit: the pattern is). Local.
template <class PatternT>
RowLayout row_layout(const PatternT& pattern, int slabs, const std::string& who,
                     const char* which) {
  static_assert(PatternT::ndim() == 2, "dash::ooc::transpose: 2-D matrices only");
  using coords = typename PatternT::coords_type;
  const auto grid = dash::bp::internal::block_grid(pattern);
  RowLayout l;
  l.slabs = slabs;
  l.rows = long(pattern.extent(0));
  l.cols = long(pattern.extent(1));
  const int units = int(pattern.team().size());
  l.begin.assign(std::size_t(units), 0);
  l.extent.assign(std::size_t(units), 0);
  if (l.rows > 0 && l.cols > 0 && grid[1] != 1)
    throw exception::InvalidArgument(
        who + ": " + which +
        " is not distributed by rows: its blocks do not span all columns (use "
        "DistributionSpec<2>(BLOCKED, NONE))");
  for (long k = 0; l.cols > 0 && k < grid[0]; ++k) {
    coords c{};
    c[0] = typename PatternT::index_type(k);
    const auto block = pattern.block(c);
    const int u = int(pattern.unit_at(block.offsets()).id);
    if (l.extent[std::size_t(u)] > 0)
      throw exception::InvalidArgument(who + ": " + which + " gives unit " + std::to_string(u) +
                                       " several blocks of rows (one per unit: BLOCKED rows)");
    l.begin[std::size_t(u)] = long(block.offset(0));
    l.extent[std::size_t(u)] = long(block.extent(0));
  }
  return l;
}

// Throws InvalidArgument unless b (layout lb) can hold the transpose of a
// (layout la) on the same team and every round's transfer between two units
// fits an int count. Local, alike on every unit.
inline void check_transposable(const RowLayout& la, const RowLayout& lb, bool same_team,
                               const std::string& who) {
  if (!same_team) throw exception::InvalidArgument(who + ": a and b have different teams");
  if (la.rows != lb.cols || la.cols != lb.rows)
    throw exception::InvalidArgument(who + ": b is " + std::to_string(lb.rows) + " x " +
                                     std::to_string(lb.cols) + ", the transpose of a needs " +
                                     std::to_string(la.cols) + " x " + std::to_string(la.rows));
  const long most_b = *std::max_element(lb.extent.begin(), lb.extent.end());
  long most_slab = 0;
  for (std::size_t u = 0; u < la.extent.size(); ++u)  // the largest slab: rounded up
    most_slab = std::max(most_slab, (la.extent[u] + la.slabs - 1) / la.slabs);
  if (most_b > 0 && most_slab > long(INT_MAX) / most_b)
    throw exception::InvalidArgument(
        who + ": a round would move " + std::to_string(most_b) + " x " + std::to_string(most_slab) +
        " elements between two units, more than one transfer takes (INT_MAX): use more slabs");
}

// Writes the transpose of the n x w block of src (row stride `stride`) to
// dst (w x n, row stride dst_stride, n by default), in 32 x 32 tiles. Local.
template <class T>
void transpose_block(const T* src, long stride, long n, long w, T* dst, long dst_stride = -1) {
  if (dst_stride < 0) dst_stride = n;
  constexpr long kTile = 32;
  for (long i0 = 0; i0 < w; i0 += kTile)
    for (long r0 = 0; r0 < n; r0 += kTile) {
      const long i1 = std::min(w, i0 + kTile), r1 = std::min(n, r0 + kTile);
      for (long i = i0; i < i1; ++i)
        for (long r = r0; r < r1; ++r) dst[i * dst_stride + r] = src[r * stride + i];
    }
}

// No own-strip callback: transpose_rounds moves the calling unit's own strip like the others.
struct NoOwnStrip {
  template <class T>
  void operator()(int, const T*, long) const {}
};

// The rounds (see the top of this file): load(k) gives the calling unit's
// slab k of a (its rows, row-major; null when it has none), own(k, src, n),
// if given, puts the calling unit's own strip of those n rows in place (that
// strip is then not moved, and its offsets[me] part of deliver is empty),
// done(k) is called when the slab has been cut, deliver(k, strips, offsets)
// gets what came: from each unit u, at offsets[u], the calling unit's rows
// of b by the columns of u's slab k (row-major). The round buffers are not
// initialised; with `to_stock` they come from the buffer stock and go back
// to it (kept between calls), without it they are fresh and go back to the
// system at the end (out of core: memory that must not outlive the call). A
// failure before a round's exchange is agreed on before it; one in deliver
// at the next round or the end (the caller's agree). Collective.
template <class T, class Load, class Done, class Deliver, class Own = NoOwnStrip>
void transpose_rounds(Team& team, const RowLayout& la, const RowLayout& lb,
                      dash::internal::Failure& failure, const std::string& who, bool to_stock,
                      Load&& load, Done&& done, Deliver&& deliver, Own&& own = {}) {
  static_assert(std::is_trivially_copyable_v<T>, "dash::ooc::transpose moves elements as bytes");
  const int units = int(team.size()), me = int(team.myid().id);
  const std::size_t p = std::size_t(units);
  std::vector<std::size_t> send_counts(p), send_offsets(p), recv_counts(p), recv_offsets(p);
  // With an own-strip callback the calling unit's own strip never enters the buffers.
  constexpr bool own_in_place = !std::is_same_v<std::decay_t<Own>, NoOwnStrip>;
  const std::size_t send_cols =
      std::size_t(la.cols) - (own_in_place ? std::size_t(lb.extent[std::size_t(me)]) : 0);
  std::size_t most_send = 0, most_recv = 0;
  for (int k = 0; k < la.slabs; ++k) {
    std::size_t recv = 0;
    for (int u = 0; u < units; ++u)
      if (!own_in_place || u != me) recv += std::size_t(la.slab_rows(u, k));
    most_recv = std::max(most_recv, recv * std::size_t(lb.extent[std::size_t(me)]));
    most_send = std::max(most_send, std::size_t(la.slab_rows(me, k)) * send_cols);
  }
  // Buffers and type may fail on one unit (memory): kept as a failure that
  // the first round's agreement throws on every unit.
  dash::bp::Bytes send_bytes, recv_bytes;
  std::optional<dash::internal::OwnedDartType> type;
  auto fresh = [](std::size_t n) {
    std::size_t capacity = 0;
    char* data = dash::bp::internal::allocate_bytes(n, capacity);
    return dash::bp::Bytes::adopt(data, n, capacity, false);
  };
  try {
    const std::size_t send_n = (most_send + 1) * sizeof(T), recv_n = (most_recv + 1) * sizeof(T);
    if (to_stock) {
      send_bytes.resize(send_n);
      recv_bytes.resize(recv_n);
    } else {
      send_bytes = fresh(send_n);
      recv_bytes = fresh(recv_n);
    }
    type.emplace(dash::internal::RecordBytes{sizeof(T)});
  } catch (...) {
    failure.capture("buffers of the rounds");
  }
  T* send = reinterpret_cast<T*>(send_bytes.data());
  T* recv = reinterpret_cast<T*>(recv_bytes.data());
  for (int k = 0; k < la.slabs; ++k) {
    const long n = la.slab_rows(me, k);
    const T* src = nullptr;
    if (!failure.any()) {
      try {
        src = load(k);
        if (own_in_place && n > 0) own(k, src, n);
      } catch (...) {
        failure.capture("slab " + std::to_string(k) + " of a");
      }
    }
    // An own strip put in place: this unit's counts to itself are zero on both sides.
    std::size_t at = 0;
    for (int v = 0; v < units; ++v) {
      send_offsets[std::size_t(v)] = at;
      send_counts[std::size_t(v)] =
          v == me && own_in_place ? 0 : std::size_t(lb.extent[std::size_t(v)] * n);
      at += send_counts[std::size_t(v)];
    }
    at = 0;
    for (int u = 0; u < units; ++u) {
      recv_offsets[std::size_t(u)] = at;
      recv_counts[std::size_t(u)] =
          u == me && own_in_place ? 0
                                  : std::size_t(lb.extent[std::size_t(me)] * la.slab_rows(u, k));
      at += recv_counts[std::size_t(u)];
    }
    if (!failure.any()) {
      try {
        for (int v = 0; v < units && n > 0; ++v)
          if (send_counts[std::size_t(v)] > 0)
            transpose_block(src + lb.begin[std::size_t(v)], la.cols, n, lb.extent[std::size_t(v)],
                            send + send_offsets[std::size_t(v)]);
        done(k);
      } catch (...) {
        failure.capture("slab " + std::to_string(k) + " of a");
      }
    }
    dash::internal::agree(failure, team.dart_id(), who.c_str());
    dash::internal::check_dart(
        dart_alltoallv(send, send_counts.data(), send_offsets.data(), type->get(), recv,
                       recv_counts.data(), recv_offsets.data(), team.dart_id()),
        who.c_str());
    if (!failure.any()) {
      try {
        deliver(k, recv, recv_offsets);
      } catch (...) {
        failure.capture("slab " + std::to_string(k) + " of a, received");
      }
    }
  }
}

}  // namespace internal

// b = the transpose of a, both out of core (see the top of this file);
// before(Rows<T>) runs on every slab of a, after(Rows<T>) on every slab of
// b before it is written. Strategy collective or producer (demand:
// InvalidArgument). Returns the bytes the staging file moved (a's and b's
// files count theirs). Collective over the matrices' team.
template <class T, class IndexType, class PatternT, class Before = NoRows, class After = NoRows>
dash::bp::SpillCounters transpose(Matrix<T, 2, IndexType, PatternT>& a,
                                  Matrix<T, 2, IndexType, PatternT>& b, Strategy strategy,
                                  Before&& before = {}, After&& after = {}) {
  const std::string who = "dash::ooc::transpose";
  if (strategy == Strategy::demand)
    throw exception::InvalidArgument(who + ": strategy demand (collective or producer)");
  const auto la = internal::row_layout(a.pattern(), a.slabs_per_block(), who, "a");
  const auto lb = internal::row_layout(b.pattern(), b.slabs_per_block(), who, "b");
  internal::check_transposable(la, lb, a.team().dart_id() == b.team().dart_id(), who);
  Team& team = a.team();
  const int me = int(team.myid().id);
  const auto& a_slabs = a.local_slabs();
  const auto& b_slabs = b.local_slabs();
  dash::internal::Failure failure;

  // Staging: region (j, k) holds what round k brought for slab j of b; empty
  // regions are not made.
  const int sa = la.slabs;
  auto region = [sa](std::size_t j, int k) { return std::uint64_t(j) * std::uint64_t(sa) + k; };
  std::vector<long> round_cols(std::size_t(sa), 0);  // columns of b round k fills
  for (int k = 0; k < sa; ++k)
    for (std::size_t u = 0; u < la.extent.size(); ++u)
      round_cols[std::size_t(k)] += la.slab_rows(int(u), k);
  // Laid out slab by slab of b: a slab's regions follow one another in the file, so the
  // reads ahead of them go out together (LocalArrayFile batches adjacent queued reads); a
  // round's writes queue behind the rounds.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> regions;
  for (std::size_t j = 0; j < b_slabs.size(); ++j)
    for (int k = 0; k < sa; ++k) {
      const std::uint64_t bytes = std::uint64_t(b_slabs[j].box.extent(0)) *
                                  std::uint64_t(round_cols[std::size_t(k)]) * sizeof(T);
      if (bytes > 0) regions.emplace_back(region(j, k), bytes);
    }
  std::unique_ptr<LocalArrayFile> staging;
  try {
    static std::atomic<int> calls{0};
    // A round's regions (one per slab of b) queue behind the rounds: up to one round's bytes.
    std::uint64_t round_bytes = 0;
    for (int k = 0; k < sa; ++k)
      round_bytes =
          std::max(round_bytes, std::uint64_t(lb.extent[std::size_t(me)]) *
                                    std::uint64_t(round_cols[std::size_t(k)]) * sizeof(T));
    staging = std::make_unique<LocalArrayFile>("transpose" + std::to_string(calls++), regions,
                                               round_bytes);
  } catch (...) {
    failure.capture("staging file");
  }
  dash::internal::agree(failure, team.dart_id(), who.c_str());

  LocalArrayFile& af = *a.file();
  // Collective: before() on every slab of a, written back, in a pass of its own.
  if (strategy == Strategy::collective) {
    try {
      for (std::size_t k = 0; k < a_slabs.size(); ++k) {
        dash::bp::Bytes bytes = af.take(std::uint64_t(a_slabs[k].gid));
        if (k + 1 < a_slabs.size()) af.prefetch(std::uint64_t(a_slabs[k + 1].gid));
        before(Rows<T>{reinterpret_cast<T*>(bytes.data()), a_slabs[k].box.min[0],
                       a_slabs[k].box.extent(0), la.cols});
        af.put(std::uint64_t(a_slabs[k].gid), std::move(bytes));
      }
    } catch (...) {
      failure.capture("before(), on a");
    }
  }
  dash::bp::Bytes held;  // the slab of a being cut
  internal::transpose_rounds<T>(
      team, la, lb, failure, who, false,
      [&](int k) -> const T* {
        if (a_slabs.empty()) return nullptr;
        const auto& s = a_slabs[std::size_t(k)];
        held = af.take(std::uint64_t(s.gid));
        if (std::size_t(k) + 1 < a_slabs.size())
          af.prefetch(std::uint64_t(a_slabs[std::size_t(k) + 1].gid));
        T* rows = reinterpret_cast<T*>(held.data());
        if (strategy == Strategy::producer)
          before(Rows<T>{rows, s.box.min[0], s.box.extent(0), la.cols});
        return rows;
      },
      [&](int) {
        if (held.capacity() > 0) af.recycle(std::move(held));
      },
      [&](int k, const T* strips, const std::vector<std::size_t>& offsets) {
        const long cols = round_cols[std::size_t(k)];
        for (std::size_t j = 0; j < b_slabs.size() && cols > 0; ++j) {
          const long rows = b_slabs[j].box.extent(0);
          const long skip = b_slabs[j].box.min[0] - lb.begin[std::size_t(me)];
          dash::bp::Bytes bytes = staging->buffer(std::size_t(rows * cols) * sizeof(T));
          T* to = reinterpret_cast<T*>(bytes.data());
          for (std::size_t u = 0; u < offsets.size(); ++u) {
            const long n = la.slab_rows(int(u), k);
            std::memcpy(to, strips + offsets[u] + std::size_t(skip * n),
                        std::size_t(rows * n) * sizeof(T));
            to += rows * n;
          }
          staging->put(region(j, k), std::move(bytes));
        }
      });
  dash::internal::agree(failure, team.dart_id(), who.c_str());

  // Slab by slab of b: its regions, the columns in place, after(), written.
  LocalArrayFile& bf = *b.file();
  try {
    std::vector<std::uint64_t> order;  // the regions, in the order read
    for (std::size_t j = 0; j < b_slabs.size(); ++j)
      for (int k = 0; k < sa; ++k)
        if (round_cols[std::size_t(k)] > 0) order.push_back(region(j, k));
    // Regions read ahead up to a slab of b's bytes.
    std::size_t next = 0, ahead = 0;
    std::uint64_t ahead_bytes = 0;
    const std::uint64_t most_ahead = b_slabs.empty() ? 0
                                                     : std::uint64_t(b_slabs[0].box.extent(0)) *
                                                           std::uint64_t(lb.cols) * sizeof(T);
    auto read_ahead = [&] {
      while (ahead < order.size() &&
             (ahead == next || ahead_bytes + staging->region_bytes(order[ahead]) <= most_ahead)) {
        ahead_bytes += staging->region_bytes(order[ahead]);
        staging->prefetch(order[ahead++]);
      }
    };
    read_ahead();
    for (std::size_t j = 0; j < b_slabs.size(); ++j) {
      const long rows = b_slabs[j].box.extent(0);
      dash::bp::Bytes slab = bf.buffer(std::size_t(rows * lb.cols) * sizeof(T));
      T* out = reinterpret_cast<T*>(slab.data());
      for (int k = 0; k < sa; ++k) {
        if (round_cols[std::size_t(k)] == 0) continue;
        dash::bp::Bytes part = staging->take(order[next]);
        ahead_bytes -= staging->region_bytes(order[next++]);
        read_ahead();
        const T* from = reinterpret_cast<const T*>(part.data());
        for (std::size_t u = 0; u < la.extent.size(); ++u) {
          const long n = la.slab_rows(int(u), k), col = la.slab_first(int(u), k);
          for (long i = 0; i < rows; ++i)
            std::memcpy(out + i * lb.cols + col, from + i * n, std::size_t(n) * sizeof(T));
          from += rows * n;
        }
        staging->recycle(std::move(part));
      }
      after(Rows<T>{out, b_slabs[j].box.min[0], rows, lb.cols});
      bf.put(std::uint64_t(b_slabs[j].gid), std::move(slab));
    }
    bf.flush();
    if (strategy == Strategy::collective) af.flush();
  } catch (...) {
    failure.capture("slabs of b");
  }
  dash::internal::agree(failure, team.dart_id(), who.c_str());
  return staging->counters();
}

namespace internal {

// The rounds of an in-memory transpose: slabs of about kRoundBytes of the largest unit's rows
// of a, so the rounds' buffers stay that small (and warm) whatever the matrix. Local, alike on
// every unit (it follows from the pattern).
constexpr std::size_t kRoundBytes = std::size_t(8) << 20;
inline int in_memory_rounds(const RowLayout& la, std::size_t element_bytes) {
  const long most = *std::max_element(la.extent.begin(), la.extent.end());
  const std::size_t row_bytes = std::size_t(std::max(la.cols, 1L)) * element_bytes;
  const std::size_t rows_per_round = std::max<std::size_t>(1, kRoundBytes / row_bytes);
  return int(std::max<std::size_t>(1, (std::size_t(most) + rows_per_round - 1) / rows_per_round));
}

}  // namespace internal

// b = the transpose of a, both in memory: the same rounds as out of core, each unit's rows of
// a cut into slabs of about 8 MiB (the rounds' buffers are that size, not the matrix's);
// before() runs on each slab of the calling unit's rows of a before it is cut, after() on its
// rows of b at the end. Collective over the matrices' team.
template <class T, class IndexType, class PatternT, class Before = NoRows, class After = NoRows>
void transpose(dash::Matrix<T, 2, IndexType, PatternT>& a,
               dash::Matrix<T, 2, IndexType, PatternT>& b, Before&& before = {},
               After&& after = {}) {
  const std::string who = "dash::ooc::transpose";
  auto la = internal::row_layout(a.pattern(), 1, who, "a");
  la.slabs = internal::in_memory_rounds(la, sizeof(T));
  const auto lb = internal::row_layout(b.pattern(), 1, who, "b");
  internal::check_transposable(la, lb, a.team().dart_id() == b.team().dart_id(), who);
  Team& team = a.team();
  const int me = int(team.myid().id);
  dash::internal::Failure failure;
  T* a_rows = a.lbegin();
  T* b_rows = b.lbegin();
  const long my_b = lb.extent[std::size_t(me)];
  const long my_first = la.begin[std::size_t(me)];
  internal::transpose_rounds<T>(
      team, la, lb, failure, who, true,
      [&](int k) -> const T* {
        const long first = la.slab_first(me, k), rows = la.slab_rows(me, k);
        T* slab = a_rows + (first - my_first) * la.cols;
        if (rows > 0) before(Rows<T>{slab, first, rows, la.cols});
        return slab;
      },
      [](int) {},
      [&](int k, const T* strips, const std::vector<std::size_t>& offsets) {
        for (std::size_t u = 0; u < offsets.size(); ++u) {
          if (int(u) == me) continue;  // put in place by own()
          const long n = la.slab_rows(int(u), k), col = la.slab_first(int(u), k);
          for (long i = 0; i < my_b && n > 0; ++i)
            std::memcpy(b_rows + i * lb.cols + col, strips + offsets[u] + std::size_t(i * n),
                        std::size_t(n) * sizeof(T));
        }
      },
      [&](int k, const T* src, long n) {  // the own strip straight into b: no copy through MPI
        internal::transpose_block(src + lb.begin[std::size_t(me)], la.cols, n, my_b,
                                  b_rows + la.slab_first(me, k), lb.cols);
      });
  if (!failure.any() && my_b > 0) {
    try {
      after(Rows<T>{b_rows, lb.begin[std::size_t(me)], my_b, lb.cols});
    } catch (...) {
      failure.capture("after(), on b");
    }
  }
  dash::internal::agree(failure, team.dart_id(), who.c_str());
}

}  // namespace ooc
}  // namespace dash

#endif  // DASH__OOC__TRANSPOSE_H_
