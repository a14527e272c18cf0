// Random-access iterator arithmetic and comparisons for iterators that are a
// position in some sequence (CRTP): the derived iterator only says what
// dereferencing position pos() yields.
#ifndef DASH__ITERATOR__INTERNAL__POSITION_ITERATOR_H_
#define DASH__ITERATOR__INTERNAL__POSITION_ITERATOR_H_

#include <iterator>

namespace dash {
namespace internal {

template <class Derived, class Index>
class PositionIterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using difference_type = Index;

  // Position in the sequence. Local.
  Index pos() const { return pos_; }

  Derived& operator+=(Index n) {
    pos_ += n;
    return self();
  }
  Derived& operator-=(Index n) {
    pos_ -= n;
    return self();
  }
  Derived& operator++() { return *this += 1; }
  Derived& operator--() { return *this -= 1; }
  Derived operator++(int) {
    Derived old = self();
    ++pos_;
    return old;
  }
  Derived operator--(int) {
    Derived old = self();
    --pos_;
    return old;
  }
  friend Derived operator+(Derived it, Index n) { return it += n; }
  friend Derived operator+(Index n, Derived it) { return it += n; }
  friend Derived operator-(Derived it, Index n) { return it -= n; }
  friend Index operator-(const Derived& a, const Derived& b) { return a.pos() - b.pos(); }
  friend bool operator==(const Derived& a, const Derived& b) { return a.pos() == b.pos(); }
  friend bool operator!=(const Derived& a, const Derived& b) { return a.pos() != b.pos(); }
  friend bool operator<(const Derived& a, const Derived& b) { return a.pos() < b.pos(); }
  friend bool operator>(const Derived& a, const Derived& b) { return a.pos() > b.pos(); }
  friend bool operator<=(const Derived& a, const Derived& b) { return a.pos() <= b.pos(); }
  friend bool operator>=(const Derived& a, const Derived& b) { return a.pos() >= b.pos(); }

 protected:
  PositionIterator() = default;
  explicit PositionIterator(Index pos) : pos_(pos) {}
  Derived& self() { return static_cast<Derived&>(*this); }

  Index pos_ = 0;
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__ITERATOR__INTERNAL__POSITION_ITERATOR_H_
