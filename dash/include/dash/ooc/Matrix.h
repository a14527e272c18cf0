// dash::ooc::Matrix: a distributed matrix whose local part lives in a file
// (one local array file per unit, dash::ooc::LocalArrayFile), brought into
// memory a slab at a time: the Local Placement Model of Bordawekar &
// Choudhary ("Communication Strategies for Out-of-core Programs", ICS 1995).
//
//   dash::ooc::Matrix<double, 2> m(dash::SizeSpec<2>(rows, cols),
//                                  dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED),
//                                  dash::Team::All(), dash::ooc::InMemory{1.0 / 8});
//   m.generate([](const std::array<long, 2>& g) { return double(g[0] + g[1]); });
//   auto master = dash::bp::of(m, {/*width*/ 1});  // 1/8 of the local array in memory
//   dash::bp::exchange_halos(master);           // the same stencil code as in core
//   master.foreach([](dash::bp::ContainerBlock<double, 2>& b, dash::bp::Proxy&) { ... });
//
// The pattern is the one a dash::Matrix of the same arguments has (same
// owners, same blocks). Each block of the pattern is cut along dimension 0
// into slabs_per_block() slabs of (nearly) equal rows: slab s of a block of
// e rows holds rows [e*s/S, e*(s+1)/S). The slabs form a finer block grid
// (the pattern's, with S times as many blocks along dimension 0): a slab's
// gid is its row-major index there. The unit's file holds its slabs one
// after the other, each row-major over its box.
//
// dash::bp::of(m, halo, mem_slabs) gives a Master with one ContainerBlock
// per slab: the block's elements are its payload, in the file until a call
// runs the block; at most mem_slabs payloads (default 1) stay in memory,
// the next one is prefetched while the current one computes and one is
// written back behind it (InMemory sizes the slabs for those three); links
// stay in memory, halos until spent (ContainerBlock::spend_halo: sweeps do,
// then a slab's halo leaves memory with it); a slab only read is not
// written back. While
// that master lives it owns the slabs: the matrix's own calls below see
// what it wrote once it is destroyed (it writes the changed slabs back
// then) or after its write_back() (which throws a failed write on every
// unit).
//
// | call                 | cost                                                |
// |----------------------|-----------------------------------------------------|
// | constructor          | collective over the team (the pattern, one int      |
// |                      | allreduce: a file that cannot be made on one unit   |
// |                      | throws on all); makes the unit's file (sparse, all  |
// |                      | zero: nothing written)                              |
// | get / set            | local; reads (set: and writes) the element's slab   |
// | generate             | local; writes every local slab once                 |
// | for_each             | local; reads every local slab once (prefetched)     |
// | copy to/from Matrix  | collective; one read or write per slab; any pattern |
// |                      | of the dash::Matrix (one-sided transfers if its     |
// |                      | local blocks differ), one allreduce + one barrier   |
// | dash::bp::of         | local; no I/O until blocks run                      |
#ifndef DASH__OOC__MATRIX_H_
#define DASH__OOC__MATRIX_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Matrix.h>
#include <dash/algorithm/CopyView.h>
#include <dash/bp/ContainerBlocks.h>
#include <dash/internal/Failure.h>
#include <dash/ooc/LocalArrayFile.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dash {
namespace ooc {

// How much of a unit's local array a dash::ooc::Matrix may hold in memory
// at once: `fraction` of it (0 < fraction <= 1), the slab a Master of it
// (dash::bp::of(m, halo)) runs, the next one read ahead and the last one
// being written back all counted. The matrix cuts its blocks into slabs of
// fraction / 3 of a block (one slab per block for fraction 1).
struct InMemory {
  double fraction;
};

template <class T, dim_t N, class IndexType = default_index_t,
          class PatternT = TilePattern<N, ROW_MAJOR, IndexType>>
class Matrix {
  static_assert(std::is_trivially_copyable_v<T>,
                "dash::ooc::Matrix<T>: T must be trivially copyable (elements move as bytes)");

 public:
  using value_type = T;
  using pattern_type = PatternT;
  using coords_type = std::array<long, N>;

  // One slab of the calling unit: its gid and coordinates in the slab grid,
  // its global box, and the local block of the pattern it is part of.
  struct Slab {
    int gid;
    coords_type coords;
    dash::bp::Box<N> box;
    long local_block;
  };

  // The pattern of dash::Matrix<T, N, IndexType, PatternT>(size, dist,
  // team), each block cut into slabs_per_block slabs. Throws
  // InvalidArgument if slabs_per_block < 1 or a block has fewer rows than
  // that. Collective over team.
  Matrix(const SizeSpec<N, IndexType>& size, const DistributionSpec<N>& dist, Team& team,
         int slabs_per_block)
      : Matrix(PatternT(size, dist, TeamSpec<N, IndexType>(dist, team), team), slabs_per_block) {}
  // The pattern of dash::Matrix<T, N, IndexType, PatternT>(size, dist,
  // team), each block cut into as many slabs as `memory` needs (see
  // InMemory). Throws InvalidArgument for a fraction outside (0, 1] or a
  // block with fewer rows than those slabs. Collective over team.
  Matrix(const SizeSpec<N, IndexType>& size, const DistributionSpec<N>& dist, Team& team,
         InMemory memory)
      : Matrix(PatternT(size, dist, TeamSpec<N, IndexType>(dist, team), team), memory) {}
  Matrix(const PatternT& pattern, InMemory memory) : Matrix(pattern, slabs_for(pattern, memory)) {}
  // Elements laid out by `pattern`. Collective over the pattern's team.
  Matrix(const PatternT& pattern, int slabs_per_block)
      : pattern_(std::make_shared<const PatternT>(pattern)), slabs_(slabs_per_block) {
    const auto grid = dash::bp::internal::block_grid(*pattern_);
    if (slabs_ < 1)
      throw exception::InvalidArgument("dash::ooc::Matrix: " + std::to_string(slabs_) +
                                       " slabs per block (at least 1)");
    long total = 1;
    for (dim_t d = 0; d < N; ++d) total *= d == 0 ? grid[d] * slabs_ : grid[d];
    if (total > INT_MAX)
      throw exception::InvalidArgument("dash::ooc::Matrix: " + std::to_string(total) +
                                       " slabs do not fit an int gid");
    if (grid[0] > 0) {
      const long rows = min_block_rows(*pattern_);
      if (rows < slabs_)
        throw exception::InvalidArgument(
            "dash::ooc::Matrix: " + std::to_string(slabs_) + " slabs per block, but a block has " +
            std::to_string(rows) + " rows (a slab needs at least one)");
      min_slab_rows_ = rows / slabs_;
    }
    std::vector<std::pair<std::uint64_t, std::uint64_t>> regions;
    for (long lb = 0; lb < long(pattern_->local_nblocks()); ++lb) {
      const auto l = dash::bp::internal::local_block_layout(*pattern_, lb);
      const long e = l.box.extent(0);
      for (int s = 0; s < slabs_; ++s) {
        Slab slab{0, l.block_coords, l.box, lb};
        slab.coords[0] = l.block_coords[0] * slabs_ + s;
        slab.box.min[0] = l.box.min[0] + e * s / slabs_;
        slab.box.max[0] = l.box.min[0] + e * (s + 1) / slabs_;
        for (dim_t d = 0; d < N; ++d)
          slab.gid = slab.gid * int(d == 0 ? grid[0] * slabs_ : grid[d]) + int(slab.coords[d]);
        local_.push_back(slab);
      }
    }
    std::sort(local_.begin(), local_.end(),
              [](const Slab& a, const Slab& b) { return a.gid < b.gid; });
    for (const Slab& s : local_)
      regions.emplace_back(std::uint64_t(s.gid), std::uint64_t(s.box.size()) * sizeof(T));
    // A file that cannot be made (spill directory, quota) may fail on one
    // unit only: every unit throws.
    dash::internal::Failure failure;
    try {
      file_ = std::make_shared<LocalArrayFile>("matrix" + std::to_string(next_id()), regions);
    } catch (...) {
      failure.capture("the local array file");
    }
    dash::internal::agree(failure, pattern_->team().dart_id(), "dash::ooc::Matrix");
  }

  const PatternT& pattern() const { return *pattern_; }
  Team& team() const { return pattern_->team(); }
  int slabs_per_block() const { return slabs_; }
  // Rows of the shortest slab. Local.
  long min_slab_rows() const { return min_slab_rows_; }
  // The calling unit's slabs, by increasing gid. Local.
  const std::vector<Slab>& local_slabs() const { return local_; }
  // Slabs per dimension of the slab grid. Local.
  coords_type slab_grid() const {
    coords_type g = dash::bp::internal::block_grid(*pattern_);
    g[0] *= slabs_;
    return g;
  }
  // The unit (team-relative id) that holds slab gid. Local.
  int slab_owner(int gid) const { return owner_function()(gid); }
  std::function<int(int)> owner_function() const {
    auto pattern = pattern_;
    const coords_type grid = slab_grid();
    const int slabs = slabs_;
    return [pattern, grid, slabs](int gid) {
      typename PatternT::coords_type c;
      for (dim_t d = N - 1; d >= 0; --d) {
        c[d] = IndexType(gid % grid[d]);
        gid = int(gid / grid[d]);
      }
      c[0] = IndexType(c[0] / slabs);
      return int(pattern->unit_at(pattern->block(c).offsets()).id);
    };
  }
  // The unit's local array file. Local.
  const std::shared_ptr<LocalArrayFile>& file() const { return file_; }
  // Bytes the unit's file moved so far. Local.
  dash::bp::SpillCounters counters() const { return file_->counters(); }

  // The calling unit's element at global coordinates g (InvalidArgument if
  // another unit holds it). Local; reads its slab.
  T get(const coords_type& g) const {
    const Slab& s = slab_of(g, "get");
    dash::bp::Bytes bytes = file_->take(std::uint64_t(s.gid));
    T v;
    std::memcpy(&v, bytes.data() + offset_in(s, g) * sizeof(T), sizeof(T));
    file_->recycle(std::move(bytes));
    return v;
  }
  // Sets that element. Local; reads and writes its slab.
  void set(const coords_type& g, const T& v) {
    const Slab& s = slab_of(g, "set");
    dash::bp::Bytes bytes = file_->take(std::uint64_t(s.gid));
    std::memcpy(bytes.data() + offset_in(s, g) * sizeof(T), &v, sizeof(T));
    file_->put(std::uint64_t(s.gid), std::move(bytes));
  }

  // Sets each local element to f(global coordinates). Local; writes every
  // slab once.
  template <class F>
  void generate(F&& f) {
    for (const Slab& s : local_) {
      dash::bp::Bytes bytes = file_->buffer(std::size_t(s.box.size()) * sizeof(T));
      T* at = reinterpret_cast<T*>(bytes.data());
      dash::bp::internal::for_each_cell<N>(s.box.min, s.box.max,
                                           [&](const coords_type& g) { *at++ = f(g); });
      file_->put(std::uint64_t(s.gid), std::move(bytes));
    }
  }
  // Calls f(global coordinates, value) for each local element, slab by
  // slab, row-major inside a slab. Local; reads every slab once (the next
  // one prefetched).
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t k = 0; k < local_.size(); ++k) {
      const Slab& s = local_[k];
      dash::bp::Bytes bytes = file_->take(std::uint64_t(s.gid));
      if (k + 1 < local_.size()) file_->prefetch(std::uint64_t(local_[k + 1].gid));
      const T* at = reinterpret_cast<const T*>(bytes.data());
      dash::bp::internal::for_each_cell<N>(s.box.min, s.box.max,
                                           [&](const coords_type& g) { f(g, *at++); });
      file_->recycle(std::move(bytes));
    }
  }

  // Whether `other` gives the calling unit the same local blocks as this
  // matrix's pattern (then a copy moves nothing between units). Local.
  template <class P>
  bool same_local_blocks(const P& other) const {
    bool same = long(other.local_nblocks()) == long(pattern_->local_nblocks());
    for (long lb = 0; same && lb < long(pattern_->local_nblocks()); ++lb) {
      const auto a = dash::bp::internal::local_block_layout(*pattern_, lb);
      const auto b = dash::bp::internal::local_block_layout(other, lb);
      same = a.gid == b.gid && a.box.min == b.box.min && a.box.max == b.box.max;
    }
    return same;
  }
  // Throws InvalidArgument (on every unit alike) unless `other` (a
  // dash::Matrix) has this matrix's extents and team. Local.
  template <class M>
  void check_copy_partner(const M& other, const char* call) const {
    for (dim_t d = 0; d < N; ++d)
      if (long(other.extent(d)) != long(pattern_->extent(d)))
        throw exception::InvalidArgument(std::string(call) + ": the matrices differ in extent " +
                                         std::to_string(d) + " (" +
                                         std::to_string(long(pattern_->extent(d))) + " and " +
                                         std::to_string(long(other.extent(d))) + ")");
    if (&other.team() != &pattern_->team())
      throw exception::InvalidArgument(std::string(call) +
                                       ": the matrices belong to different teams");
  }

 private:
  // Rows of the shortest block along dimension 0 (0 if there is no block). Local.
  static long min_block_rows(const PatternT& pattern) {
    using pattern_coords = typename PatternT::coords_type;
    const auto grid = dash::bp::internal::block_grid(pattern);
    if (grid[0] <= 0) return 0;
    pattern_coords last{};
    last[0] = IndexType(grid[0] - 1);
    return std::min<long>(long(pattern.block(pattern_coords{}).extent(0)),
                          long(pattern.block(last).extent(0)));
  }
  // Slabs per block for `memory`: one for all of it, else three per fraction (the slab in
  // use, the one read ahead, the one being written). Throws InvalidArgument (alike on every
  // unit) for a fraction outside (0, 1] or blocks with fewer rows. Local.
  static int slabs_for(const PatternT& pattern, InMemory memory) {
    const double f = memory.fraction;
    char text[32];
    std::snprintf(text, sizeof text, "%g", f);
    if (!(f > 0 && f <= 1))
      throw exception::InvalidArgument("dash::ooc::Matrix: InMemory{" + std::string(text) +
                                       "}: the fraction must lie in (0, 1]");
    if (f == 1) return 1;
    const double slabs = std::ceil(3 / f - 1e-9);
    const long rows = min_block_rows(pattern);
    if (dash::bp::internal::block_grid(pattern)[0] > 0 && slabs > double(rows))
      throw exception::InvalidArgument(
          "dash::ooc::Matrix: " + std::string(text) + " of a local array in memory needs " +
          std::to_string(long(slabs)) +
          " slabs per block (the slab in use, the next one read ahead and the last one written "
          "back each 1/3 of that), but a block has " +
          std::to_string(rows) + " rows (a slab needs at least one)");
    return int(slabs);
  }

  const Slab& slab_of(const coords_type& g, const char* call) const {
    for (const Slab& s : local_) {
      bool inside = true;
      for (dim_t d = 0; d < N; ++d) inside = inside && g[d] >= s.box.min[d] && g[d] < s.box.max[d];
      if (inside) return s;
    }
    std::string at;
    for (dim_t d = 0; d < N; ++d) at += (d ? ", " : "") + std::to_string(g[d]);
    throw exception::InvalidArgument("dash::ooc::Matrix::" + std::string(call) + ": element (" +
                                     at + ") is not the calling unit's");
  }
  static long offset_in(const Slab& s, const coords_type& g) {
    long at = 0;
    for (dim_t d = 0; d < N; ++d) at = at * s.box.extent(d) + (g[d] - s.box.min[d]);
    return at;
  }
  static int next_id() {
    static std::atomic<int> id{0};
    return id++;
  }

  std::shared_ptr<const PatternT> pattern_;
  int slabs_;
  long min_slab_rows_ = 0;
  std::vector<Slab> local_;
  std::shared_ptr<LocalArrayFile> file_;
};

namespace internal {

// Calls f(g) with the first cell of each row (along the last dimension) of
// box, in row-major order. Local.
template <dim_t N, class F>
void for_each_row(const dash::bp::Box<N>& box, F&& f) {
  std::array<long, N> hi = box.max;
  if (hi[N - 1] > box.min[N - 1]) hi[N - 1] = box.min[N - 1] + 1;
  dash::bp::internal::for_each_cell<N>(box.min, hi, f);
}

// n elements from `from` (every `from_stride`-th) to `to` (every
// `to_stride`-th). Local.
template <class T>
void copy_run(const T* from, long from_stride, T* to, long to_stride, long n) {
  if (from_stride == 1 && to_stride == 1) {
    std::memcpy(to, from, std::size_t(n) * sizeof(T));
    return;
  }
  for (long i = 0; i < n; ++i) to[i * to_stride] = from[i * from_stride];
}

// Moves the elements of box between the row-major order of a slab and the
// column-major order in which views of a COL_MAJOR pattern run (first
// dimension fastest): to row-major if ToRowMajor, else from it. Local.
template <bool ToRowMajor, class T, dim_t N>
void reorder_column_major(const dash::bp::Box<N>& box, const T* from, T* to) {
  std::array<long, N> stride;
  long step = 1;
  for (dim_t d = 0; d < N; ++d) {
    stride[d] = step;
    step *= box.extent(d);
  }
  long row_major = 0;
  dash::bp::internal::for_each_cell<N>(box.min, box.max, [&](const std::array<long, N>& g) {
    long col_major = 0;
    for (dim_t d = 0; d < N; ++d) col_major += (g[d] - box.min[d]) * stride[d];
    if constexpr (ToRowMajor)
      to[row_major++] = from[col_major];
    else
      to[col_major] = from[row_major++];
  });
}

// The view of `matrix` (a dash::Matrix or its view) over global box. Local.
template <dim_t D = 0, class V, dim_t N>
auto box_view(V view, const dash::bp::Box<N>& box) {
  if constexpr (D == N) {
    return view;
  } else {
    return box_view<D + 1>(view.template sub<D>(box.min[D], box.extent(D)), box);
  }
}

// Whether every unit of `team` found the same local blocks (`mine`). One
// int allreduce. Collective.
inline bool same_everywhere(bool mine, dart_team_t team, const char* call) {
  int in = mine ? 1 : 0, out = 0;
  const dart_ret_t ret = dart_allreduce(&in, &out, 1, DART_TYPE_INT, DART_OP_MIN, team);
  if (ret != DART_OK) dash::internal::throw_dart_error(ret, call);
  return out == 1;
}

}  // namespace internal

// Copies `from` into `to`: matrices of the same extents and team, any
// patterns. Collective over the team; each unit reads each of its slabs
// once (the next one prefetched):
//   same local blocks on every unit: each unit copies its slabs into its
//     own part of `to` (row by row; no communication)
//   otherwise: each unit puts each slab's elements to their owners in `to`
//     (dash::copy of the slab's box: one-sided, one transfer per owner run)
// Ends with one int allreduce (a failure on one unit, e.g. a damaged file,
// is thrown on every unit) and a barrier of the team (every unit then
// reads `to` complete). InvalidArgument on every unit for different
// extents or teams. Cost: one allreduce to choose the road, the slab
// reads, and in the second case the puts.
template <class T, dim_t N, class IndexType, class PatternT, class I2, class P2>
void copy(const Matrix<T, N, IndexType, PatternT>& from, dash::Matrix<T, N, I2, P2>& to) {
  static const char* const who = "dash::ooc::copy";
  using Slab = typename Matrix<T, N, IndexType, PatternT>::Slab;
  from.check_copy_partner(to, who);
  const dart_team_t team = from.team().dart_id();
  const bool same = internal::same_everywhere(from.same_local_blocks(to.pattern()), team, who);
  dash::internal::Failure failure;
  std::vector<char> staging;  // column-major patterns: a slab in their views' order
  try {
    const auto& slabs = from.local_slabs();
    for (std::size_t k = 0; k < slabs.size(); ++k) {
      const Slab& s = slabs[k];
      dash::bp::Bytes bytes = from.file()->take(std::uint64_t(s.gid));
      if (k + 1 < slabs.size()) from.file()->prefetch(std::uint64_t(slabs[k + 1].gid));
      const T* at = reinterpret_cast<const T*>(bytes.data());
      if (same) {
        const auto l = dash::bp::internal::local_block_layout(to.pattern(), s.local_block);
        T* base = to.lbegin() + l.base;
        const long row = s.box.extent(N - 1);
        internal::for_each_row<N>(s.box, [&](const std::array<long, N>& g) {
          long off = 0;
          for (dim_t d = 0; d < N; ++d) off += (g[d] - l.box.min[d]) * l.strides[d];
          internal::copy_run(at, 1, base + off, l.strides[N - 1], row);
          at += row;
        });
      } else if (s.box.size() > 0) {
        auto view = internal::box_view(to.view(), s.box);
        if constexpr (P2::memory_order() == COL_MAJOR) {  // views run column-major
          staging.resize(std::size_t(s.box.size()) * sizeof(T));
          T* cm = reinterpret_cast<T*>(staging.data());
          internal::reorder_column_major<false>(s.box, at, cm);
          at = cm;
        }
        dash::copy(at, at + s.box.size(), view.begin());
      }
      from.file()->recycle(std::move(bytes));
    }
  } catch (...) {
    failure.capture("unit " + std::to_string(from.team().myid().id) + "'s slabs");
  }
  dash::internal::agree(failure, team, who);
  to.barrier();
}

// Copies `from` into `to`'s file: matrices of the same extents and team,
// any patterns. Collective over the team: a barrier first (every unit's
// writes to `from` are complete), then each unit fills each of its slabs
// from its own part of `from` (same local blocks on every unit: row by
// row, no communication) or gets the slab's box from the owners
// (dash::copy: one-sided, one transfer per owner run), and writes it (one
// write per slab, none read). Ends with one int allreduce (failures thrown
// on every unit). InvalidArgument on every unit for different extents or
// teams.
template <class T, dim_t N, class IndexType, class PatternT, class I2, class P2>
void copy(const dash::Matrix<T, N, I2, P2>& from, Matrix<T, N, IndexType, PatternT>& to) {
  static const char* const who = "dash::ooc::copy";
  using Slab = typename Matrix<T, N, IndexType, PatternT>::Slab;
  to.check_copy_partner(from, who);
  const dart_team_t team = to.team().dart_id();
  from.barrier();
  const bool same = internal::same_everywhere(to.same_local_blocks(from.pattern()), team, who);
  dash::internal::Failure failure;
  std::vector<char> staging;  // column-major patterns: a slab in their views' order
  try {
    for (const Slab& s : to.local_slabs()) {
      dash::bp::Bytes bytes = to.file()->buffer(std::size_t(s.box.size()) * sizeof(T));
      T* at = reinterpret_cast<T*>(bytes.data());
      if (same) {
        const auto l = dash::bp::internal::local_block_layout(from.pattern(), s.local_block);
        const T* base = from.lbegin() + l.base;
        const long row = s.box.extent(N - 1);
        internal::for_each_row<N>(s.box, [&](const std::array<long, N>& g) {
          long off = 0;
          for (dim_t d = 0; d < N; ++d) off += (g[d] - l.box.min[d]) * l.strides[d];
          internal::copy_run(base + off, l.strides[N - 1], at, 1, row);
          at += row;
        });
      } else if (s.box.size() > 0) {
        const auto view = internal::box_view(from.view(), s.box);
        if constexpr (P2::memory_order() == COL_MAJOR) {  // views run column-major
          staging.resize(std::size_t(s.box.size()) * sizeof(T));
          T* cm = reinterpret_cast<T*>(staging.data());
          dash::copy(view.begin(), view.end(), cm);
          internal::reorder_column_major<true>(s.box, cm, at);
        } else {
          dash::copy(view.begin(), view.end(), at);
        }
      }
      to.file()->put(std::uint64_t(s.gid), std::move(bytes));
    }
  } catch (...) {
    failure.capture("unit " + std::to_string(to.team().myid().id) + "'s slabs");
  }
  dash::internal::agree(failure, team, who);
}

}  // namespace ooc

namespace bp {

// The calling unit's slabs of an out-of-core matrix as blocks, one per
// slab, linked as blocks of the slab grid (see the top of this file and of
// ContainerBlocks.h): the same stencil code as for dash::bp::of(matrix)
// runs on them. At most mem_slabs slabs' elements stay in memory (0: all,
// loaded now); the others are in the matrix's file. The matrix must outlive
// the master. Throws InvalidArgument (on every unit alike) for a negative
// width or one larger than the rows of a slab or the extent of a block
// along a dimension with neighbours. Local.
template <class T, dim_t N, class IndexType, class PatternT>
Master<ContainerBlock<T, N>> of(ooc::Matrix<T, N, IndexType, PatternT>& matrix,
                                const HaloSpec<N>& halo = {}, std::size_t mem_slabs = 1) {
  using Block = ContainerBlock<T, N>;
  const auto grid = matrix.slab_grid();
  if (halo.width < 0)
    throw exception::InvalidArgument("dash::bp::of: halo width " + std::to_string(halo.width));
  long nslabs = 1;
  for (dim_t d = 0; d < N; ++d) nslabs *= grid[d];
  for (dim_t d = 0; d < N && nslabs > 0; ++d) {
    if (grid[d] < 2 && !halo.periodic[d]) continue;
    using pattern_coords = typename PatternT::coords_type;
    pattern_coords last{};
    last[d] = IndexType(internal::block_grid(matrix.pattern())[d] - 1);
    const long shortest =
        d == 0 ? matrix.min_slab_rows()
               : std::min<long>(long(matrix.pattern().block(pattern_coords{}).extent(d)),
                                long(matrix.pattern().block(last).extent(d)));
    if (shortest < halo.width)
      throw exception::InvalidArgument(
          "dash::bp::of: halo width " + std::to_string(halo.width) + " exceeds the extent " +
          std::to_string(shortest) + " of a " + (d == 0 ? "slab" : "block") + " along dimension " +
          std::to_string(d) +
          ", where it has neighbours (a halo must come from the adjacent one only)");
  }
  Master<Block> master(int(nslabs), matrix.owner_function(), matrix.team());
  master.spill_store(matrix.file());
  master.limit(mem_slabs == 0 ? 1 : mem_slabs);
  for (const auto& s : matrix.local_slabs()) {
    const auto neighbors = internal::grid_neighbors<T, N>(s.coords, grid, halo);
    master.add(s.gid, std::make_unique<Block>(s.gid, s.coords, s.box, halo, neighbors),
               internal::links_of<T, N>(s.gid, neighbors));
  }
  if (mem_slabs == 0) master.limit(0);
  return master;
}

}  // namespace bp
}  // namespace dash

#endif  // DASH__OOC__MATRIX_H_
