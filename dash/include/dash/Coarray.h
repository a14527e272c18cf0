// dash::Coarray<T>: a Fortran-style coarray, as in DASH. Every unit of the team (an "image")
// holds one T, a scalar or an array type with fixed extents or an open first extent:
//
//   dash::Coarray<int>         i;       // one int per image
//   dash::Coarray<int[10][20]> x;       // a 10 x 20 array per image
//   dash::Coarray<int[][20]>   y(n);    // an n x 20 array per image (n given at run time)
//
//   i = 42;              x[2][3] = 7;         // the calling image's own value (native access)
//   int v = i(u);        x(u)[2][3] = 7;      // image u's value (global references)
//   i.sync_all();                             // flush, then wait for every image
//
// Underneath is a dash::NArray of rank(T) + 1 dimensions whose first extent is the number of
// units, BLOCKED over them (NONE in the others): image u's value is the slice u of it, in u's
// local memory. Elements may be dash::Atomic<T>; then every access, the local one included,
// goes through DART's atomics. The runtime calls (this_image, sync_images, cobroadcast,
// coreduce) are in dash/coarray/Utils.h; events between images (dash::Coevent) in
// dash/Coevent.h, which this header includes as DASH's does, and a mutex per image
// (dash::Comutex) in dash/Comutex.h.
//
// | call                                              | cost                            |
// |---------------------------------------------------|---------------------------------|
// | constructors with a size (or fixed extents),      | collective over the team        |
// | allocate, deallocate, destructor, sync_all,       |                                 |
// | barrier                                           |                                 |
// | Coarray() of an open extent, before dash::init    | local (allocate later)          |
// | x[i]..., scalar =, +=, conversion (local image)   | native load/store               |
// | x(u), x(u)[i]...: image u's value                 | one get/put per element access  |
// | begin/end, lbegin/lend, size, pattern, team       | local                           |
// | flush, flush_local                                | completes one-sided writes      |
// | sync_images(images)                               | flush, then two-sided among them|
//
// x(u) checks that u is an image of the team and throws dash::exception::OutOfRange otherwise;
// subscripts are checked under DASH_CHECK_BOUNDS, as for dash::Matrix.
#ifndef DASH__COARRAY_H_
#define DASH__COARRAY_H_

#include <dash/Atomic.h>
#include <dash/Coevent.h>  // DASH programs find dash::Coevent through <dash/Coarray.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/coarray/Utils.h>
#include <dash/internal/BoundsCheck.h>

#include <array>
#include <cstddef>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>

namespace dash {

namespace internal {

// An element type and, for dash::Atomic<V>, its value type V.
template <class E>
struct coarray_element_base : std::false_type {
  using base = E;
};
template <class V>
struct coarray_element_base<Atomic<V>> : std::true_type {
  using base = V;
};

// The shape of a Coarray<T>: its element type, the rank of T and of the storage (one more, the
// images), and whether T's first extent is open (int[][20]).
template <class T>
struct CoarrayShape {
  using element = std::remove_all_extents_t<T>;
  static constexpr bool atomic = coarray_element_base<element>::value;
  using base = typename coarray_element_base<element>::base;
  static constexpr dim_t value_rank = static_cast<dim_t>(std::rank_v<T>);
  static constexpr dim_t rank = value_rank + 1;
  static constexpr bool open = value_rank > 0 && std::extent_v<T, 0> == 0;

  // The storage extents: n_images, then T's extents (the first one `first` if it is open).
  template <class Size>
  static std::array<Size, rank> extents(Size n_images, Size first) {
    std::array<Size, rank> e{};
    e[0] = n_images;
    fill<Size, 0>(e, first);
    return e;
  }

 private:
  template <class Size, unsigned D>
  static void fill(std::array<Size, rank>& e, Size first) {
    if constexpr (D < std::rank_v<T>) {
      e[D + 1] = (D == 0 && open) ? first : static_cast<Size>(std::extent_v<T, D>);
      fill<Size, D + 1>(e, first);
    }
  }
};

// The local operators of a scalar coarray: the calling image's value read, assigned and
// updated like a variable (native load/store; through DART's atomics for an Atomic element).
// Arrays have none of these (their base below is empty).
template <class Derived, class T, bool Scalar = (std::rank_v<T> == 0)>
class CoarrayScalarOps {};

template <class Derived, class T>
class CoarrayScalarOps<Derived, T, true> {
  using Shape = CoarrayShape<T>;
  using V = typename Shape::base;

 public:
  // The calling image's value. Local (one atomic load for an Atomic element).
  operator V() const {
    if constexpr (Shape::atomic)
      return self().own_ref().load();
    else
      return *self().local_value();
  }
  // Sets the calling image's value. Local.
  Derived& operator=(const V& value) {
    if constexpr (Shape::atomic)
      self().own_ref().store(value);
    else
      *self().local_value() = value;
    return self();
  }

  // Updates of the calling image's value, returning the new value. Local (one atomic
  // fetch-and-op for an Atomic element).
  V operator+=(const V& v) {
    return update(
        v, [](V& x, V w) { x += w; }, DART_OP_SUM);
  }
  V operator-=(const V& v) {
    return update(
        v, [](V& x, V w) { x -= w; }, DART_OP_SUM, true);
  }
  V operator*=(const V& v) {
    return update(
        v, [](V& x, V w) { x *= w; }, DART_OP_PROD);
  }
  V operator/=(const V& v) {
    static_assert(!Shape::atomic, "dash::Coarray: DART has no atomic division");
    return update(
        v, [](V& x, V w) { x /= w; }, DART_OP_UNDEFINED);
  }
  V operator++() { return *this += V(1); }
  V operator--() { return *this -= V(1); }
  V operator++(int) {
    const V old = *this;
    *this += V(1);
    return old;
  }
  V operator--(int) {
    const V old = *this;
    *this -= V(1);
    return old;
  }

  // The member at byte offset `offset` of the calling image's value (a struct). Local.
  template <class M>
  M& member(std::size_t offset) {
    static_assert(!Shape::atomic, "dash::Coarray::member: not for atomic elements");
    return *reinterpret_cast<M*>(reinterpret_cast<char*>(self().local_value()) + offset);
  }
  // The member `field` of the calling image's value (a struct), e.g. x.member(&S::count).
  // Local.
  template <class M, class S>
  M& member(M S::*field) {
    static_assert(std::is_same_v<S, V>, "dash::Coarray::member: a member of the element type");
    return self().local_value()->*field;
  }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  const Derived& self() const { return static_cast<const Derived&>(*this); }
  template <class Op>
  V update(const V& v, Op op, dart_operation_t atomic_op, bool negate = false) {
    if constexpr (Shape::atomic) {
      const auto ref = self().own_ref();
      if (atomic_op == DART_OP_SUM) return negate ? (ref -= v) : (ref += v);
      const V before = ref.fetch_op(multiply<V>(), v);
      return before * v;
    } else {
      (void)atomic_op;
      (void)negate;
      V& x = *self().local_value();
      op(x, v);
      return x;
    }
  }
};

// Throws OutOfRange for x(unit) of a coarray with `images` images (0 without memory). Local.
[[noreturn, gnu::cold]] inline void throw_out_of_range_image(long unit, std::size_t images) {
  throw exception::OutOfRange("dash::Coarray::operator(): image " + std::to_string(unit) +
                              (images == 0
                                   ? std::string(" of a coarray without memory")
                                   : " is not one of its " + std::to_string(images) + " images"));
}

// The type of x[i] of a coarray with elements E, storage S and value rank R.
template <class S, class E, dim_t R, bool Atomic>
struct CoarrayLocalType {
  using type = decltype(std::declval<const typename S::local_type&>()[0][0]);
};
template <class S, class E, bool Atomic>
struct CoarrayLocalType<S, E, 0, Atomic> {
  using type = std::conditional_t<Atomic, GlobRef<E>, E&>;
};
template <class S, class E, bool Atomic>
struct CoarrayLocalType<S, E, 1, Atomic> {
  using type = std::conditional_t<Atomic, GlobRef<E>, E&>;
};

}  // namespace internal

template <class T, class IndexType = default_index_t, MemArrange Arrangement = ROW_MAJOR>
class Coarray : public internal::CoarrayScalarOps<Coarray<T, IndexType, Arrangement>, T> {
  using Shape = internal::CoarrayShape<T>;
  using ScalarOps = internal::CoarrayScalarOps<Coarray, T>;
  friend ScalarOps;

 public:
  using value_type = typename Shape::element;  // may be dash::Atomic<V>
  using value_base_type = typename Shape::base;
  using index_type = IndexType;
  using difference_type = IndexType;
  using size_type = std::make_unsigned_t<IndexType>;
  using pattern_type = BlockPattern<Shape::rank, Arrangement, IndexType>;
  using storage_type = Matrix<value_type, Shape::rank, IndexType, pattern_type>;
  using iterator = typename storage_type::iterator;
  using const_iterator = typename storage_type::const_iterator;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;
  using reference = GlobRef<value_type>;
  using const_reference = GlobRef<const value_type>;
  using local_pointer = value_type*;
  using const_local_pointer = const value_type*;
  template <int SubRank>
  using view_type = typename storage_type::view_type;
  using local_type = typename internal::CoarrayLocalType<storage_type, value_type,
                                                         Shape::value_rank, Shape::atomic>::type;

  // The rank of the storage: rank(T) + 1 (the images).
  static constexpr dim_t ndim() { return Shape::rank; }

  // A scalar coarray, or an array with all extents fixed, on `team`: allocated at once when
  // DASH is initialised (collective over team), else without memory until allocate(). An
  // array type with an open first extent waits for allocate(n). Local otherwise.
  explicit Coarray(Team& team = Team::All()) : storage_(team) {
    if constexpr (!Shape::open)
      if (dash::is_initialized()) allocate(team);
  }
  // An array coarray whose open first extent is `first_extent` on every image. Collective over
  // team.
  template <bool Open = Shape::open, class = std::enable_if_t<Open>>
  explicit Coarray(size_type first_extent, Team& team = Team::All()) : storage_(team) {
    allocate(first_extent, team);
  }
  // A scalar coarray every image of which starts with `value`. Collective over team.
  template <dim_t R = Shape::value_rank, class = std::enable_if_t<R == 0>>
  explicit Coarray(const value_base_type& value, Team& team = Team::All()) : storage_(team) {
    allocate(team);
    *this = value;
    storage_.barrier();
  }
  Coarray(const Coarray&) = delete;
  Coarray& operator=(const Coarray&) = delete;
  Coarray(Coarray&& other) noexcept
      : storage_(std::move(other.storage_)), local_(std::exchange(other.local_, nullptr)) {}
  Coarray& operator=(Coarray&& other) noexcept {
    storage_ = std::move(other.storage_);
    local_ = std::exchange(other.local_, nullptr);
    return *this;
  }
  using ScalarOps::operator=;

  // Allocates a scalar or fixed-extent coarray made without memory; nothing if it has memory.
  // Collective over team.
  void allocate(Team& team = Team::All()) {
    static_assert(!Shape::open, "dash::Coarray::allocate: give the open first extent");
    if (storage_.size() == 0) allocate_storage(0, team);
  }
  // Allocates a coarray with an open first extent of `first_extent`; nothing if it has memory
  // already. Collective over team; InvalidArgument (on every unit) for an extent of 0.
  template <bool Open = Shape::open, class = std::enable_if_t<Open>>
  void allocate(size_type first_extent, Team& team = Team::All()) {
    if (first_extent == 0)
      throw exception::InvalidArgument(
          "dash::Coarray::allocate: the open first extent must be at least 1");
    if (storage_.size() == 0) allocate_storage(first_extent, team);
  }
  // Frees the memory; the coarray is empty afterwards. Collective.
  void deallocate() {
    storage_.deallocate();
    local_ = nullptr;
  }

  // Every image's value, as a global range in image order.
  iterator begin() { return storage_.begin(); }
  iterator end() { return storage_.end(); }
  const_iterator begin() const { return storage_.begin(); }
  const_iterator end() const { return storage_.end(); }
  const_iterator cbegin() const { return storage_.begin(); }
  const_iterator cend() const { return storage_.end(); }
  // The calling image's value as native pointers (local_size() elements).
  local_pointer lbegin() const { return local_; }
  local_pointer lend() const { return storage_.lend(); }

  // Elements of all images / of the calling image.
  size_type size() const { return storage_.size(); }
  size_type local_size() const { return storage_.local_size(); }
  bool empty() const { return size() == 0; }
  // True if global element g (an index into begin()..end()) is the calling image's.
  bool is_local(index_type g) const {
    return storage_.size() != 0 && pattern().local(g).unit == team().myid();
  }
  const pattern_type& pattern() const { return storage_.pattern(); }
  Team& team() const { return storage_.team(); }
  // The NArray underneath (rank(T) + 1 dimensions, the first one the images).
  storage_type& storage() { return storage_; }

  // Swaps the memory of two coarrays, then waits for every image. Collective.
  void swap(Coarray& other) {
    std::swap(storage_, other.storage_);
    std::swap(local_, other.local_);
    storage_.barrier();
  }

  // Waits for every image of the team. Collective.
  void barrier() const { storage_.barrier(); }
  // Completes the calling image's one-sided writes to this coarray, then waits for every
  // image, so that each sees every write made before. Collective.
  void sync_all() const {
    storage_.flush();
    storage_.barrier();
  }
  // Completes the calling image's one-sided writes, then waits for the images listed (see
  // dash::coarray::sync_images).
  template <class Container>
  void sync_images(const Container& images) const {
    storage_.flush();
    coarray::sync_images(images);
  }
  // Completes the calling image's one-sided writes to this coarray (at their targets). Local.
  void flush() const { storage_.flush(); }
  // Completes them at the calling image (buffers reusable); the same as flush() here. Local.
  void flush_local() const { storage_.flush(); }

  // Image `unit`'s value: a GlobRef for a scalar, else a proxy to subscript further
  // (x(u)[i][j]) or iterate. Throws dash::exception::OutOfRange unless unit is an image of the
  // team. Local; the element access that follows is one-sided.
  decltype(auto) operator()(index_type unit) {
    check_image(unit);
    if constexpr (Shape::value_rank == 0)
      return storage_(unit);
    else
      return storage_[unit];
  }
  decltype(auto) operator()(team_unit_t unit) { return (*this)(static_cast<index_type>(unit.id)); }

  // The calling image's element i (1-D) or the proxy of its slice i (x[i][j]...): native
  // references. For Atomic elements a global reference to the own image (atomic access).
  // Under DASH_CHECK_BOUNDS i is checked against the first extent. Local.
  template <dim_t R = Shape::value_rank, class = std::enable_if_t<(R > 0)>>
  decltype(auto) operator[](index_type i) {
    if constexpr (Shape::atomic) {
      return (*this)(static_cast<index_type>(team().myid().id))[i];
    } else if constexpr (Shape::value_rank == 1) {
      if constexpr (internal::bounds_checked)
        internal::check_index("dash::Coarray::operator[]", i, local_size());
      return local_[i];
    } else {
      return storage_.local[0][i];
    }
  }
  template <dim_t R = Shape::value_rank, class = std::enable_if_t<(R == 1 && !Shape::atomic)>>
  const value_type& operator[](index_type i) const {
    if constexpr (internal::bounds_checked)
      internal::check_index("dash::Coarray::operator[]", i, local_size());
    return local_[i];
  }

  // Throws the InvalidArgument of `call` unless the coarray has memory and `unit` is a unit of
  // its team (for the collectives of dash/coarray/Utils.h). Local.
  void check_collective(team_unit_t unit, const char* call) const {
    if (storage_.size() == 0)
      throw exception::InvalidArgument(std::string(call) + ": the coarray has no memory");
    if (unit.id < 0 || static_cast<std::size_t>(unit.id) >= team().size())
      throw exception::InvalidArgument(std::string(call) + ": unit " + std::to_string(unit.id) +
                                       " is not an image of the coarray's " +
                                       std::to_string(team().size()) + " units");
  }

 private:
  void allocate_storage(size_type first_extent, Team& team) {
    const auto extents =
        Shape::template extents<size_type>(static_cast<size_type>(team.size()), first_extent);
    const SizeSpec<Shape::rank, IndexType> sizes(extents);
    const DistributionSpec<Shape::rank> dist;  // BLOCKED over the images, NONE inside
    storage_.allocate(
        pattern_type(sizes, dist, TeamSpec<Shape::rank, IndexType>(dist, team), team));
    local_ = storage_.lbegin();
  }
  void check_image(index_type unit) const {
    if (unit < 0 || storage_.size() == 0 || static_cast<std::size_t>(unit) >= team().size())
      internal::throw_out_of_range_image(static_cast<long>(unit),
                                         storage_.size() == 0 ? 0 : team().size());
  }
  value_type* local_value() const { return local_; }
  reference own_ref() const {
    return const_cast<storage_type&>(storage_)(static_cast<index_type>(team().myid().id));
  }

  storage_type storage_;
  // The calling image's value (storage_.lbegin() kept at hand: x[i] in a loop is one load).
  value_type* local_ = nullptr;
};

}  // namespace dash

#endif  // DASH__COARRAY_H_
