// Iterating a unit's block of a matrix with a stencil, DASH's way:
//
//   auto op = halo_wrapper.stencil_operator(spec);
//   halo_wrapper.update_async();                        // one-sided gets
//   for (auto it = op.inner.begin(); it != op.inner.end(); ++it)
//     out[it.lpos()] = *it + it.value_at(0) + it.value_at(1);  // no halo needed
//   halo_wrapper.wait();
//   op.boundary.update(out, [](auto& it) { return *it + it.value_at(0); });
//
// The cells iterated are the block's cells whose stencil stays inside the
// global domain along NONE dimensions (all of them along CYCLIC and CUSTOM
// ones). `inner` holds those whose stencil stays inside the block (read
// straight from the matrix's local memory), `boundary` the others (read
// through the block's halo where the stencil leaves the block), cut into 2N
// boxes: along dimension d before (PRE) and after (POST) the inner range,
// within the inner range along the dimensions before d. Each box is walked
// row-major (block-local coordinates, last dimension fastest).
// boundary.iterator_at(region) walks the same cells region by region, as DASH
// does: region r (Types.h's numbering) holds the cells before the inner range
// along the dimensions where r's coordinate is 0, after it where it is 2.
//
// | call                         | cost                                        |
// |------------------------------|---------------------------------------------|
// | ++it, *it                    | local, O(1) (a carry: O(N))                 |
// | it.value_at(i)               | inner: one load; boundary/all: O(N)         |
// | it += n, begin(), end()      | local, O(N)                                 |
// | inner.update(dst, op)        | local, one call per cell, rows as pointers  |
// | boundary.update(dst, op)     | local, one call per cell                    |
//
// Under DASH_CHECK_BOUNDS (dash/internal/BoundsCheck.h) *it and it[n] outside
// the operator's cells (end() and beyond) and it.value_at(i) with i not a
// stencil point throw dash::exception::OutOfRange.
#ifndef DASH__HALO__STENCIL_OPERATOR_H_
#define DASH__HALO__STENCIL_OPERATOR_H_

#include <dash/Exception.h>
#include <dash/bp/ContainerBlocks.h>
#include <dash/halo/Types.h>
#include <dash/internal/BoundsCheck.h>
#include <dash/pattern/SizeSpec.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dash {
namespace halo {

namespace internal {

// The cells a stencil iterator walks: up to 2N boxes of block-local
// coordinates, one after the other, each row-major; and how a stencil
// point is read from a cell.
template <class T, dim_t N, std::size_t NP>
struct StencilSpace {
  using Block = bp::ContainerBlock<T, N>;
  using coords_type = std::array<long, N>;
  struct Box {
    coords_type lo{}, hi{};
  };

  Block* block = nullptr;  // null: the unit holds no block
  long base = 0;           // the block's first cell, counted from lbegin()
  coords_type strides{};   // native strides of the block
  coords_type origin{};    // global coordinates of the block's cell 0
  std::array<coords_type, NP> points{};
  std::array<long, NP> offsets{};  // native offset of each point (inner only)
  bool inner = false;              // every point stays inside the block
  std::array<Box, 2 * N> boxes{};
  int nboxes = 0;
  std::array<long, 2 * N + 1> first{};  // position of each box's first cell

  long size() const { return first[std::size_t(nboxes)]; }
  static long box_size(const Box& b) {
    long n = 1;
    for (dim_t d = 0; d < N; ++d) n *= std::max(0L, b.hi[d] - b.lo[d]);
    return n;
  }
  void add_box(const Box& b) {
    boxes[std::size_t(nboxes)] = b;
    first[std::size_t(nboxes + 1)] = first[std::size_t(nboxes)] + box_size(b);
    ++nboxes;
  }
  long native(const coords_type& c) const {
    long at = 0;
    for (dim_t d = 0; d < N; ++d) at += c[d] * strides[d];
    return at;
  }
  // Box b as a rectangle of block-local coordinates (empty: extents 0);
  // an empty rectangle if there is no box b.
  ViewSpec<N, default_index_t> view(int b) const {
    std::array<default_index_t, N> off{};
    std::array<std::make_unsigned_t<default_index_t>, N> ext{};
    if (b < nboxes)
      for (dim_t d = 0; d < N; ++d) {
        const Box& box = boxes[std::size_t(b)];
        off[d] = box.lo[d];
        ext[d] = std::make_unsigned_t<default_index_t>(std::max(0L, box.hi[d] - box.lo[d]));
      }
    return ViewSpec<N, default_index_t>(off, ext);
  }
};

}  // namespace internal

// A random-access iterator over the cells of a StencilSpace: *it is the
// centre, it.value_at(i) stencil point i.
template <class T, dim_t N, std::size_t NP>
class StencilIterator {
  using Space = internal::StencilSpace<T, N, NP>;

 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = T*;
  using reference = T&;
  using coords_type = std::array<long, N>;

  StencilIterator() = default;
  StencilIterator(const Space* space, long pos) : space_(space) { seek(pos); }

  // The centre cell. Local.
  T& operator*() const {
    if constexpr (dash::internal::bounds_checked) check("dash::halo::StencilIterator::operator*");
    return space_->block->data()[off_];
  }
  T* operator->() const { return &**this; }
  // Stencil point i of the centre: the matrix's cell, or the halo's where
  // the point leaves the block. Local.
  T& value_at(std::size_t i) const {
    if constexpr (dash::internal::bounds_checked) {
      check("dash::halo::StencilIterator::value_at");
      dash::internal::check_index("dash::halo::StencilIterator::value_at: stencil point", i, NP);
    }
    if (space_->inner) return space_->block->data()[off_ + space_->offsets[i]];
    return at_distance(space_->points[i]);
  }
  // The cell at the distance `point` gives. Local.
  template <class C>
  T& value_at(const StencilPoint<N, C>& point) const {
    if constexpr (dash::internal::bounds_checked) check("dash::halo::StencilIterator::value_at");
    coords_type p;
    for (dim_t d = 0; d < N; ++d) p[d] = point[d];
    return at_distance(p);
  }
  // Offset of the centre from the matrix's lbegin(). Local.
  long lpos() const { return space_->base + off_; }
  // Position in the iterated cells. Local.
  long rpos() const { return pos_; }
  // Block-local (= unit-local) coordinates of the centre. Local.
  const coords_type& coords() const { return c_; }
  // Global coordinates of the centre. Local.
  coords_type gcoords() const {
    coords_type g;
    for (dim_t d = 0; d < N; ++d) g[d] = space_->origin[d] + c_[d];
    return g;
  }
  // Cells left in the current row of the current box (0 at the end). Local.
  long row_remaining() const {
    return box_ < space_->nboxes ? space_->boxes[std::size_t(box_)].hi[N - 1] - c_[N - 1] : 0;
  }

  StencilIterator& operator++() {
    ++pos_;
    const auto& b = space_->boxes[std::size_t(box_)];
    dim_t d = N - 1;
    ++c_[d];
    off_ += space_->strides[d];
    while (c_[d] == b.hi[d]) {
      if (d == 0) {
        next_box();
        return *this;
      }
      off_ -= (b.hi[d] - b.lo[d]) * space_->strides[d];
      c_[d] = b.lo[d];
      --d;
      ++c_[d];
      off_ += space_->strides[d];
    }
    return *this;
  }
  StencilIterator operator++(int) {
    StencilIterator old = *this;
    ++*this;
    return old;
  }
  StencilIterator& operator--() {
    seek(pos_ - 1);
    return *this;
  }
  StencilIterator operator--(int) {
    StencilIterator old = *this;
    seek(pos_ - 1);
    return old;
  }
  StencilIterator& operator+=(difference_type n) {
    seek(pos_ + long(n));
    return *this;
  }
  StencilIterator& operator-=(difference_type n) {
    seek(pos_ - long(n));
    return *this;
  }
  friend StencilIterator operator+(StencilIterator it, difference_type n) { return it += n; }
  friend StencilIterator operator+(difference_type n, StencilIterator it) { return it += n; }
  friend StencilIterator operator-(StencilIterator it, difference_type n) { return it -= n; }
  friend difference_type operator-(const StencilIterator& a, const StencilIterator& b) {
    return difference_type(a.pos_ - b.pos_);
  }
  T& operator[](difference_type n) const {
    if constexpr (dash::internal::bounds_checked)  // before seek() clamps the position
      dash::internal::check_index("dash::halo::StencilIterator::operator[]", pos_ + long(n),
                                  space_ ? space_->size() : 0L);
    return *(*this + n);
  }

  friend bool operator==(const StencilIterator& a, const StencilIterator& b) {
    return a.pos_ == b.pos_;
  }
  friend bool operator!=(const StencilIterator& a, const StencilIterator& b) {
    return a.pos_ != b.pos_;
  }
  friend bool operator<(const StencilIterator& a, const StencilIterator& b) {
    return a.pos_ < b.pos_;
  }
  friend bool operator<=(const StencilIterator& a, const StencilIterator& b) {
    return a.pos_ <= b.pos_;
  }
  friend bool operator>(const StencilIterator& a, const StencilIterator& b) {
    return a.pos_ > b.pos_;
  }
  friend bool operator>=(const StencilIterator& a, const StencilIterator& b) {
    return a.pos_ >= b.pos_;
  }

 private:
  // Throws OutOfRange naming `call` unless the iterator is at one of the
  // cells (not at end()).
  void check(const char* call) const {
    dash::internal::check_index(call, pos_, space_ ? space_->size() : 0L);
  }
  T& at_distance(const coords_type& p) const {
    coords_type c;
    for (dim_t d = 0; d < N; ++d) c[d] = c_[d] + p[d];
    return (*space_->block)(c);
  }
  // Moves to position pos (clamped to [0, size]). O(N + boxes).
  void seek(long pos) {
    pos_ = std::clamp(pos, 0L, space_ ? space_->size() : 0L);
    box_ = 0;
    if (!space_) return;
    while (box_ < space_->nboxes && space_->first[std::size_t(box_ + 1)] <= pos_) ++box_;
    if (box_ == space_->nboxes) {
      c_ = coords_type{};
      off_ = 0;
      return;
    }
    const auto& b = space_->boxes[std::size_t(box_)];
    long rest = pos_ - space_->first[std::size_t(box_)];
    for (dim_t d = N - 1; d >= 0; --d) {
      const long e = b.hi[d] - b.lo[d];
      c_[d] = b.lo[d] + rest % e;
      rest /= e;
    }
    off_ = space_->native(c_);
  }
  void next_box() {
    ++box_;
    while (box_ < space_->nboxes &&
           space_->first[std::size_t(box_ + 1)] == space_->first[std::size_t(box_)])
      ++box_;
    if (box_ == space_->nboxes) {
      c_ = coords_type{};
      off_ = 0;
      return;
    }
    c_ = space_->boxes[std::size_t(box_)].lo;
    off_ = space_->native(c_);
  }

  const Space* space_ = nullptr;
  long pos_ = 0;
  int box_ = 0;
  coords_type c_{};
  long off_ = 0;  // native offset of the centre from the block's data()
};

namespace internal {

// What the inner and the boundary cells of a StencilOperator share: their
// StencilSpace (shared by copies), the stencil, iteration, and the check of
// a subrange given to update.
template <class T, dim_t N, class StencilSpecT>
class StencilCells {
 protected:
  static constexpr std::size_t NP = StencilSpecT::num_stencil_points();
  using Space = StencilSpace<T, N, NP>;

 public:
  using Element_t = T;
  using iterator = StencilIterator<T, N, NP>;
  using const_iterator = iterator;
  using ViewSpec_t = ViewSpec<N, default_index_t>;
  using Coords_t = std::array<long, N>;

  StencilCells(std::shared_ptr<const Space> space, const StencilSpecT& spec)
      : space_(std::move(space)), spec_(spec) {}

  iterator begin() const { return iterator(space_.get(), 0); }
  iterator end() const { return iterator(space_.get(), space_->size()); }

 protected:
  // Throws InvalidArgument (naming `who`) unless [first, last) lies in
  // [begin(), end()).
  void check_range(const iterator& first, const iterator& last, const char* who) const {
    if (first < begin() || last > end() || last < first)
      throw exception::InvalidArgument(std::string("dash::halo::StencilOperator::") + who +
                                       ": the range lies outside its cells");
  }

  std::shared_ptr<const Space> space_;
  StencilSpecT spec_;
};

}  // namespace internal

// The inner cells of a StencilOperator (every stencil point inside the
// block).
template <class T, dim_t N, class StencilSpecT>
class StencilOperatorInner : public internal::StencilCells<T, N, StencilSpecT> {
  using Base = internal::StencilCells<T, N, StencilSpecT>;
  using Base::NP;
  using Base::space_;
  using Base::spec_;

 public:
  using typename Base::Coords_t;
  using typename Base::iterator;
  using typename Base::ViewSpec_t;
  using StencilOffsets_t = std::array<long, NP>;

  using Base::Base;
  using Base::begin;
  using Base::end;
  // The inner cells, block-local coordinates. Local.
  ViewSpec_t view() const { return space_->view(0); }

  // Calls op(center, center_dst, offset, offsets) for every inner cell:
  // center points at the cell, center_dst at dst + offset (dst laid out as
  // the matrix's local memory, e.g. another matrix's lbegin()), offset is
  // the cell's lpos() and center[offsets[i]] is stencil point i. Local; rows
  // walk by pointer, no allocation.
  template <class U, class Op>
  void update(U* dst, Op op) const {
    update(begin(), end(), dst, op);
  }
  template <class U, class Op>
  void update(iterator first, iterator last, U* dst, Op op) const {
    this->check_range(first, last, "inner.update");
    const long stride = space_->strides[N - 1];
    const long base = space_->base;
    T* data = space_->block ? space_->block->data() : nullptr;
    // A copy the compiler knows no store through dst can change.
    const StencilOffsets_t offsets = space_->offsets;
    for (iterator it = first; it < last;) {
      const long run = std::min<long>(it.row_remaining(), long(last - it));
      const long off = it.lpos() - base;
      T* center = data + off;
      U* center_dst = dst + base + off;
      const long offset = base + off;
      if (stride == 1) {  // rows in memory order (row-major): indexed, no pointer bumps per cell
        for (long j = 0; j < run; ++j) op(center + j, center_dst + j, offset + j, offsets);
      } else {
        for (long j = 0; j < run; ++j)
          op(center + j * stride, center_dst + j * stride, offset + j * stride, offsets);
      }
      it += run;
    }
  }
  // coefficient_center * centre, combined by op (default +) with every
  // stencil point times its coefficient, at block-local coords (an inner
  // cell). Local.
  template <class BinaryOp = std::plus<T>>
  T get_value_at(const Coords_t& coords, T coefficient_center, BinaryOp op = BinaryOp()) const {
    const T* center = space_->block->data() + space_->native(coords);
    T value = *center * coefficient_center;
    for (std::size_t i = 0; i < NP; ++i)
      value = op(value, T(spec_[i].coefficient() * center[space_->offsets[i]]));
    return value;
  }
};

// The boundary cells of a StencilOperator (some stencil point leaves the
// block), in 2N boxes: along each dimension before and after the inner
// range.
template <class T, dim_t N, class StencilSpecT>
class StencilOperatorBoundary : public internal::StencilCells<T, N, StencilSpecT> {
  using Base = internal::StencilCells<T, N, StencilSpecT>;
  using Base::NP;
  using Base::space_;
  using Base::spec_;

 public:
  using typename Base::Coords_t;
  using typename Base::iterator;
  using typename Base::ViewSpec_t;
  using BoundaryViews_t = std::vector<ViewSpec_t>;

  using typename Base::Space;
  using region_index_t = typename RegionCoords<N>::region_index_t;

  using Base::Base;
  // The boundary cells `space` and the same cells region by region (`regions`: one space per
  // region, NumRegionsMax<N> of them). Local.
  StencilOperatorBoundary(std::shared_ptr<const Space> space,
                          std::shared_ptr<const std::vector<Space>> regions,
                          const StencilSpecT& spec)
      : Base(std::move(space), spec), regions_(std::move(regions)) {}
  using Base::begin;
  using Base::end;
  // The cells before (PRE) or after (POST) the inner range along dim. Local.
  std::pair<iterator, iterator> iterator_at(dim_t dim, RegionPos pos) const {
    if (dim < 0 || dim >= N)
      throw exception::InvalidArgument(
          "dash::halo::StencilOperator::boundary.iterator_at: "
          "dimension " +
          std::to_string(dim) + " of " + std::to_string(N));
    const std::size_t b = std::size_t(2 * dim + (pos == RegionPos::POST ? 1 : 0));
    if (int(b) >= space_->nboxes) return {end(), end()};
    return {iterator(space_.get(), space_->first[b]), iterator(space_.get(), space_->first[b + 1])};
  }
  // DASH's region-wise form: the boundary cells of region `index` (Types.h's numbering), i.e.
  // those before the inner range along the dimensions where the region's coordinate is 0, after
  // it where it is 2 and inside it where it is 1, walked row-major; the regions' ranges
  // together visit every boundary cell once (in another order than begin()..end()). Empty for
  // the centre. Iterators of different regions do not compare. Throws
  // dash::exception::OutOfRange for an index outside [0, 3^N). Local, O(N).
  std::pair<iterator, iterator> iterator_at(region_index_t index) const {
    if (index >= NumRegionsMax<N>)
      throw exception::OutOfRange("dash::halo::StencilOperator::boundary.iterator_at: region " +
                                  std::to_string(index) + " outside [0, " +
                                  std::to_string(NumRegionsMax<N>) + ")");
    if (!regions_) return {end(), end()};
    const Space* region = &(*regions_)[index];
    return {iterator(region, 0), iterator(region, region->size())};
  }
  // The 2N boxes (block-local coordinates), some possibly empty. Local.
  BoundaryViews_t view() const {
    BoundaryViews_t v;
    for (int b = 0; b < space_->nboxes; ++b) v.push_back(space_->view(b));
    return v;
  }
  // Number of boundary cells. Local.
  std::size_t boundary_size() const { return std::size_t(space_->size()); }

  // dst[it.lpos()] = op(it) for every boundary cell (dst laid out as the
  // matrix's local memory). Local.
  template <class U, class Op>
  void update(U* dst, Op op) const {
    update(begin(), end(), dst, op);
  }
  template <class U, class Op>
  void update(iterator first, iterator last, U* dst, Op op) const {
    this->check_range(first, last, "boundary.update");
    for (iterator it = first; it != last; ++it) dst[it.lpos()] = op(it);
  }
  // As StencilOperatorInner::get_value_at, for any iterated cell (reads the
  // halo where a point leaves the block). Local.
  template <class BinaryOp = std::plus<T>>
  T get_value_at(const Coords_t& coords, T coefficient_center, BinaryOp op = BinaryOp()) const {
    auto& block = *space_->block;
    T value = block(coords) * coefficient_center;
    for (std::size_t i = 0; i < NP; ++i) {
      Coords_t c;
      for (dim_t d = 0; d < N; ++d) c[d] = coords[d] + spec_[i][d];
      value = op(value, T(spec_[i].coefficient() * block(c)));
    }
    return value;
  }

 private:
  std::shared_ptr<const std::vector<Space>> regions_;  // null: the unit holds no block
};

// A stencil over the calling unit's block of a HaloMatrixWrapper's matrix:
// `inner` and `boundary` (see the top of this file); begin()/end() walk
// all iterated cells, row-major. Made by HaloMatrixWrapper::stencil_operator;
// the wrapper must outlive it. Copies share their cells.
template <class T, dim_t N, class StencilSpecT>
class StencilOperator {
  static constexpr std::size_t NP = StencilSpecT::num_stencil_points();
  using Space = internal::StencilSpace<T, N, NP>;

 public:
  using Element_t = T;
  using StencilSpec_t = StencilSpecT;
  using iterator = StencilIterator<T, N, NP>;
  using iterator_inner = iterator;
  using iterator_bnd = iterator;
  using ViewSpec_t = ViewSpec<N, default_index_t>;
  using Block = bp::ContainerBlock<T, N>;

  static constexpr std::size_t num_stencil_points() { return NP; }
  static constexpr dim_t ndim() { return N; }

  // The operator of `spec` on `block` (null: the unit has none), whose cell
  // 0 is at lbegin() + base, in a domain of `extents` bounded as `bounds`
  // says. Local.
  StencilOperator(Block* block, long base, const std::array<long, N>& extents,
                  const GlobalBoundarySpec<N>& bounds, const StencilSpecT& spec)
      : inner(nullptr, spec), boundary(nullptr, spec), spec_(spec) {
    Space proto;
    proto.block = block;
    proto.base = base;
    std::array<long, N> valid_lo{}, valid_hi{}, in_lo{}, in_hi{};
    const auto mm = spec.minmax_distances();
    if (block) {
      proto.strides = block->strides();
      for (dim_t d = 0; d < N; ++d) proto.origin[d] = block->box().min[d];
      for (std::size_t i = 0; i < NP; ++i) {
        for (dim_t d = 0; d < N; ++d) proto.points[i][d] = spec[i][d];
        proto.offsets[i] = proto.native(proto.points[i]);
      }
      for (dim_t d = 0; d < N; ++d) {
        const long e = block->extent(d);
        valid_lo[d] = 0, valid_hi[d] = e;
        if (bounds[d] == BoundaryProp::NONE) {
          valid_lo[d] = std::clamp(-mm[d].first - proto.origin[d], 0L, e);
          valid_hi[d] = std::clamp(extents[d] - mm[d].second - proto.origin[d], valid_lo[d], e);
        }
        in_lo[d] = std::clamp(long(-mm[d].first), valid_lo[d], valid_hi[d]);
        in_hi[d] = std::clamp(e - mm[d].second, in_lo[d], valid_hi[d]);
      }
    }
    auto make = [&](auto fill) {
      auto s = std::make_shared<Space>(proto);
      if (block) fill(*s);
      return s;
    };
    auto inner_space = make([&](Space& s) {
      s.inner = true;
      s.add_box({in_lo, in_hi});
    });
    auto boundary_space = make([&](Space& s) {
      for (dim_t d = 0; d < N; ++d) {
        typename Space::Box pre, post;
        for (dim_t e = 0; e < N; ++e) {
          pre.lo[e] = post.lo[e] = e < d ? in_lo[e] : valid_lo[e];
          pre.hi[e] = post.hi[e] = e < d ? in_hi[e] : valid_hi[e];
        }
        pre.hi[d] = in_lo[d];
        post.lo[d] = in_hi[d];
        s.add_box(pre);
        s.add_box(post);
      }
    });
    // Region by region: along each dimension the range before the inner one (region
    // coordinate 0), the inner one (1) or the one after it (2); the centre is the inner cells.
    std::shared_ptr<std::vector<Space>> regions;
    if (block) {
      regions = std::make_shared<std::vector<Space>>(NumRegionsMax<N>, proto);
      for (typename RegionCoords<N>::region_index_t r = 0; r < NumRegionsMax<N>; ++r) {
        if (r == RegionCoords<N>::CenterIndex) continue;
        const RegionCoords<N> rc(r);
        typename Space::Box box;
        for (dim_t d = 0; d < N; ++d) {
          box.lo[d] = rc[d] == 0 ? valid_lo[d] : rc[d] == 1 ? in_lo[d] : in_hi[d];
          box.hi[d] = rc[d] == 0 ? in_lo[d] : rc[d] == 1 ? in_hi[d] : valid_hi[d];
        }
        (*regions)[r].add_box(box);
      }
    }
    all_ = make([&](Space& s) { s.add_box({valid_lo, valid_hi}); });
    inner = StencilOperatorInner<T, N, StencilSpecT>(inner_space, spec);
    boundary =
        StencilOperatorBoundary<T, N, StencilSpecT>(boundary_space, std::move(regions), spec);
  }

  // Every iterated cell (inner and boundary), row-major. Local.
  iterator begin() const { return iterator(all_.get(), 0); }
  iterator end() const { return iterator(all_.get(), all_->size()); }
  const StencilSpecT& stencil_spec() const { return spec_; }
  // The iterated cells, block-local coordinates. Local.
  ViewSpec_t view() const { return all_->view(0); }

  StencilOperatorInner<T, N, StencilSpecT> inner;
  StencilOperatorBoundary<T, N, StencilSpecT> boundary;

 private:
  StencilSpecT spec_;
  std::shared_ptr<const Space> all_;
};

}  // namespace halo
}  // namespace dash

#endif  // DASH__HALO__STENCIL_OPERATOR_H_
