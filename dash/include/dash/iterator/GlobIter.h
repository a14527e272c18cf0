// dash::GlobIter: random-access iterator over the global index space of a
// container, in its pattern's linear order. Dereferencing asks the pattern
// for owner and offset (O(N) arithmetic, no runtime call) and yields a
// GlobRef; the element moves only when the GlobRef is read or written.
// Under DASH_CHECK_BOUNDS (dash/internal/BoundsCheck.h) dereferencing a
// position outside [0, size) (end() and beyond, before begin()) throws
// dash::exception::OutOfRange; the check runs when the iterator leaves its
// cached run, so a walk costs no more.
#ifndef DASH__ITERATOR__GLOB_ITER_H_
#define DASH__ITERATOR__GLOB_ITER_H_

#include <dash/internal/BoundsCheck.h>
#include <dash/iterator/internal/PositionIterator.h>
#include <dash/memory/GlobStaticMem.h>
#include <dash/pattern/LocalIndex.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <ostream>
#include <type_traits>

namespace dash {

template <class T, class PatternT>
class GlobIter
    : public internal::PositionIterator<GlobIter<T, PatternT>, typename PatternT::index_type> {
  using Base = internal::PositionIterator<GlobIter<T, PatternT>, typename PatternT::index_type>;

 public:
  using Base::pos;
  using value_type = std::remove_const_t<T>;
  using index_type = typename PatternT::index_type;
  using difference_type = index_type;
  using reference = GlobRef<T>;
  using pointer = GlobPtr<T>;
  using pattern_type = PatternT;
  using memory_type = GlobStaticMem<value_type>;

  GlobIter() = default;
  GlobIter(const memory_type* mem, const PatternT* pattern, index_type pos)
      : Base(pos), mem_(mem), pattern_(pattern), stamp_(internal::stamp_of(mem)) {}
  // Mutable to const.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  GlobIter(const GlobIter<U, PatternT>& other)
      : Base(other.pos()),
        mem_(other.memory()),
        pattern_(&other.pattern()),
        stamp_(other.stamp()) {}

  // Throws dash::exception::InvalidArgument if the container memory was
  // freed (deallocate() or destructor) since the iterator was made; under
  // DASH_CHECK_BOUNDS dash::exception::OutOfRange outside [0, size).
  // Inside the cached run it touches neither the container nor the pattern;
  // the GlobRef checks the stamp when it reads or writes.
  reference operator*() const { return element("dash::GlobIter::operator*"); }
  reference operator[](difference_type n) const {
    return (*this + n).element("dash::GlobIter::operator[]");
  }

  // Global linear index (the same as pos()). Local.
  index_type gpos() const { return this->pos_; }
  // Owner and local offset of the element. Local.
  local_index_t<index_type> lpos() const {
    check_live("dash::GlobIter::lpos");
    return pattern_->local(this->pos_);
  }
  // Global pointer to the element. Local.
  pointer globptr() const {
    check_live("dash::GlobIter::globptr");
    auto l = pattern_->local(this->pos_);
    return mem_->at(l.unit, l.index);
  }
  dart_gptr_t dart_gptr() const { return globptr().dart_gptr(); }
  // The global pointer of the element (DASH's conversion). Local.
  explicit operator pointer() const { return globptr(); }
  // True if the calling unit owns the element. Local.
  bool is_local() const {
    check_live("dash::GlobIter::is_local");
    return pattern_->unit_at(this->pos_) == pattern_->myid();
  }
  // Native pointer to the element if the calling unit owns it, else nullptr.
  T* local() const {
    check_live("dash::GlobIter::local");
    auto l = pattern_->local(this->pos_);
    return l.unit == pattern_->myid() ? mem_->lbegin() + l.index : nullptr;
  }
  const PatternT& pattern() const { return *pattern_; }
  // The team of the container (its pattern's). Local.
  Team& team() const { return pattern_->team(); }
  const memory_type* memory() const { return mem_; }
  internal::MemoryStamp stamp() const { return stamp_; }

 private:
  void check_live(const char* call) const {
    if (!stamp_.live()) internal::throw_stale_handle(call);
  }

  // The element at this->pos_; `call` names the operator in messages. A
  // position inside the cached run is in bounds (runs are found for valid
  // positions only), so the bounds check sits with the lookup.
  DASH_INLINE_IF_BOUNDS_CHECKED reference element(const char* call) const {
    if (this->pos_ < run_first_ || this->pos_ >= run_end_) {
      check_live(call);
      if constexpr (internal::bounds_checked)
        internal::check_index(call, this->pos_, pattern_->size());
      find_run();
    }
    const index_type k = this->pos_ - run_first_;
    dart_gptr_t g;
    std::memcpy(&g, &run_gptr_, sizeof g);  // whole words: no bit-field merges per element
    g.addr_or_offs.offset += static_cast<std::uint64_t>(k) * sizeof(value_type);
    return reference(g, run_addr_ ? run_addr_ + k : nullptr, stamp_);
  }

  // Remembers the run of consecutive elements of one unit around this->pos_
  // (Pattern::local_run) with the global and load/store addresses of its
  // first element, so walking it needs no further lookups.
  void find_run() const {
    auto r = pattern_->local_run(this->pos_);
    run_first_ = this->pos_;
    run_end_ = this->pos_ + r.run;
    run_gptr_ = mem_->dart_gptr_at(r.unit, r.index);
    T* base = mem_->shared_base(r.unit);
    run_addr_ = base ? base + r.index : nullptr;
  }

  const memory_type* mem_ = nullptr;
  const PatternT* pattern_ = nullptr;
  internal::MemoryStamp stamp_ = internal::stamp_of<value_type>(nullptr);
  mutable index_type run_first_ = 0, run_end_ = 0;  // [first, end) of the cached run
  mutable dart_gptr_t run_gptr_ = DART_GPTR_NULL;   // of element run_first_
  mutable T* run_addr_ = nullptr;                   // load/store address of run_first_, or nullptr
};

// Number of positions from first to last (DASH's dash::distance). Local.
template <class T, class P>
typename P::index_type distance(const GlobIter<T, P>& first, const GlobIter<T, P>& last) {
  return last - first;
}

// Writes "dash::GlobIter(index 13)" (the element's global index; "freed container" for an
// iterator of freed memory). Local.
template <class T, class P>
std::ostream& operator<<(std::ostream& os, const GlobIter<T, P>& it) {
  os << "dash::GlobIter(";
  if (!it.stamp().live()) return os << "freed container)";
  return os << "index " << it.gpos() << ")";
}

}  // namespace dash

#endif  // DASH__ITERATOR__GLOB_ITER_H_
