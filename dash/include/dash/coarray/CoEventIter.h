// dash::coarray::CoEventIter: a random-access iterator over the images of a dash::Coevent; *it
// is the CoEventRef of one image (events.begin() + u names image u). Every operation is local;
// posting through the reference is one-sided (see CoEventRef.h).
#ifndef DASH__COARRAY__CO_EVENT_ITER_H_
#define DASH__COARRAY__CO_EVENT_ITER_H_

#include <dash/Array.h>
#include <dash/Atomic.h>
#include <dash/coarray/CoEventRef.h>

#include <cstddef>
#include <iterator>

namespace dash {
namespace coarray {

class CoEventIter {
 public:
  using counters_type = Array<Atomic<int>>;
  using difference_type = std::ptrdiff_t;
  using value_type = CoEventRef;
  using reference = CoEventRef;  // a proxy, as GlobIter's GlobRef
  using pointer = void;
  using iterator_category = std::random_access_iterator_tag;

  CoEventIter() = default;
  // The image `image` of the counters `counters`. Local.
  CoEventIter(counters_type* counters, difference_type image) : counters_(counters), pos_(image) {}

  // The event counter of the image. Local.
  CoEventRef operator*() const { return (*this)[0]; }
  CoEventRef operator[](difference_type n) const {
    return CoEventRef((*counters_)[pos_ + n], counters_->team());
  }
  // The image the iterator stands at. Local.
  difference_type image() const { return pos_; }

  CoEventIter& operator++() {
    ++pos_;
    return *this;
  }
  CoEventIter operator++(int) {
    CoEventIter before = *this;
    ++pos_;
    return before;
  }
  CoEventIter& operator--() {
    --pos_;
    return *this;
  }
  CoEventIter operator--(int) {
    CoEventIter before = *this;
    --pos_;
    return before;
  }
  CoEventIter& operator+=(difference_type n) {
    pos_ += n;
    return *this;
  }
  CoEventIter& operator-=(difference_type n) {
    pos_ -= n;
    return *this;
  }
  friend CoEventIter operator+(CoEventIter it, difference_type n) { return it += n; }
  friend CoEventIter operator+(difference_type n, CoEventIter it) { return it += n; }
  friend CoEventIter operator-(CoEventIter it, difference_type n) { return it -= n; }
  friend difference_type operator-(const CoEventIter& a, const CoEventIter& b) {
    return a.pos_ - b.pos_;
  }

  // Iterators of the same Coevent compare by image.
  friend bool operator==(const CoEventIter& a, const CoEventIter& b) {
    return a.counters_ == b.counters_ && a.pos_ == b.pos_;
  }
  friend bool operator!=(const CoEventIter& a, const CoEventIter& b) { return !(a == b); }
  friend bool operator<(const CoEventIter& a, const CoEventIter& b) { return a.pos_ < b.pos_; }
  friend bool operator>(const CoEventIter& a, const CoEventIter& b) { return b < a; }
  friend bool operator<=(const CoEventIter& a, const CoEventIter& b) { return !(b < a); }
  friend bool operator>=(const CoEventIter& a, const CoEventIter& b) { return !(a < b); }

 private:
  counters_type* counters_ = nullptr;
  difference_type pos_ = 0;
};

}  // namespace coarray
}  // namespace dash

#endif  // DASH__COARRAY__CO_EVENT_ITER_H_
