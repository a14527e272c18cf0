// Ranges (DASH's <dash/Range.h>):
//   dash::is_range<T>::value      true if dash::begin(x) and dash::end(x) work for an x of type T
//                                 (containers, their local parts, views, index sets), false for
//                                 iterators and values
//   dash::make_range(first, last) the iterators' range as an object with begin(), end(), size()
// Both are compile-time or local; nothing is copied.
#ifndef DASH__RANGE_H_
#define DASH__RANGE_H_

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace dash {

namespace internal {
template <class T, class = void>
struct has_begin_end : std::false_type {};
template <class T>
struct has_begin_end<
    T, std::void_t<decltype(std::declval<T&>().begin()), decltype(std::declval<T&>().end())>>
    : std::true_type {};
}  // namespace internal

// True if T is a range: it has begin() and end(). Compile time.
template <class T>
struct is_range : internal::has_begin_end<std::remove_reference_t<T>> {};

// The range [first, last) of two iterators. Local; holds the iterators only.
template <class Iterator, class Sentinel = Iterator>
class IteratorRange {
 public:
  using iterator = Iterator;
  using sentinel = Sentinel;
  using difference_type = typename std::iterator_traits<Iterator>::difference_type;
  using size_type = std::make_unsigned_t<difference_type>;
  using value_type = typename std::iterator_traits<Iterator>::value_type;

  IteratorRange(Iterator first, Sentinel last) : first_(std::move(first)), last_(std::move(last)) {}
  Iterator begin() const { return first_; }
  Sentinel end() const { return last_; }
  // Elements in the range: std::distance (O(1) for random-access iterators).
  size_type size() const { return static_cast<size_type>(std::distance(first_, last_)); }
  bool empty() const { return !(first_ != last_); }

 private:
  Iterator first_;
  Sentinel last_;
};

// DASH's make_range: the range [first, last). Local.
template <class Iterator, class Sentinel>
IteratorRange<Iterator, Sentinel> make_range(Iterator first, Sentinel last) {
  return IteratorRange<Iterator, Sentinel>(std::move(first), std::move(last));
}

}  // namespace dash

#endif  // DASH__RANGE_H_
