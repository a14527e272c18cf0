// dash::GlobHeapLocalPtr<T, IndexT>: the calling unit's elements of a
// GlobHeapMem as one random-access range over its buckets (each bucket a
// contiguous block; the range runs through them in order). ++, --, * cost
// O(1); + n walks the buckets it passes. A local pointer is valid until the
// memory's buckets change (grow, shrink, commit). Local.
#ifndef DASH__MEMORY__GLOB_HEAP_LOCAL_PTR_H_
#define DASH__MEMORY__GLOB_HEAP_LOCAL_PTR_H_

#include <dart/dart.h>

#include <cstddef>
#include <iterator>
#include <vector>

namespace dash {

namespace internal {

// A block of a unit's elements in a GlobHeapMem.
template <class T>
struct HeapBucket {
  T* lptr = nullptr;                  // the elements, on the owning unit
  dart_gptr_t gptr = DART_GPTR_NULL;  // the same, for every unit
  std::size_t size = 0;               // elements in use
  std::size_t allocated = 0;          // elements allocated
  bool attached = false;              // published to the other units by a commit
};

}  // namespace internal

template <class T, class IndexT>
class GlobHeapLocalPtr {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = IndexT;
  using pointer = T*;
  using reference = T&;
  using bucket_type = internal::HeapBucket<std::remove_const_t<T>>;

  GlobHeapLocalPtr() = default;
  // Element `position` of `buckets`, found in bucket `bucket` at `offset`.
  GlobHeapLocalPtr(const std::vector<bucket_type>* buckets, std::size_t bucket, std::size_t offset,
                   IndexT position)
      : buckets_(buckets), bucket_(bucket), offset_(offset), position_(position) {
    skip_empty();
  }

  reference operator*() const { return (*buckets_)[bucket_].lptr[offset_]; }
  pointer operator->() const { return &**this; }
  reference operator[](difference_type n) const { return *(*this + n); }

  GlobHeapLocalPtr& operator++() {
    ++offset_;
    ++position_;
    skip_empty();
    return *this;
  }
  GlobHeapLocalPtr& operator--() {
    while (offset_ == 0) {
      --bucket_;
      offset_ = (*buckets_)[bucket_].size;
    }
    --offset_;
    --position_;
    return *this;
  }
  GlobHeapLocalPtr operator++(int) {
    GlobHeapLocalPtr old = *this;
    ++*this;
    return old;
  }
  GlobHeapLocalPtr operator--(int) {
    GlobHeapLocalPtr old = *this;
    --*this;
    return old;
  }
  GlobHeapLocalPtr& operator+=(difference_type n) {
    position_ += n;
    if (n >= 0) {
      std::size_t left = static_cast<std::size_t>(n);
      while (left > 0) {
        const std::size_t in_bucket = (*buckets_)[bucket_].size - offset_;
        if (left < in_bucket) {
          offset_ += left;
          left = 0;
        } else {
          left -= in_bucket;
          ++bucket_;
          offset_ = 0;
        }
      }
      skip_empty();
    } else {
      std::size_t left = static_cast<std::size_t>(-n);
      while (left > 0) {
        if (left <= offset_) {
          offset_ -= left;
          left = 0;
        } else {
          left -= offset_;
          --bucket_;
          offset_ = (*buckets_)[bucket_].size;
        }
      }
      skip_empty();
    }
    return *this;
  }
  GlobHeapLocalPtr& operator-=(difference_type n) { return *this += -n; }
  friend GlobHeapLocalPtr operator+(GlobHeapLocalPtr p, difference_type n) { return p += n; }
  friend GlobHeapLocalPtr operator+(difference_type n, GlobHeapLocalPtr p) { return p += n; }
  friend GlobHeapLocalPtr operator-(GlobHeapLocalPtr p, difference_type n) { return p -= n; }
  friend difference_type operator-(const GlobHeapLocalPtr& a, const GlobHeapLocalPtr& b) {
    return a.position_ - b.position_;
  }
  friend bool operator==(const GlobHeapLocalPtr& a, const GlobHeapLocalPtr& b) {
    return a.position_ == b.position_;
  }
  friend bool operator!=(const GlobHeapLocalPtr& a, const GlobHeapLocalPtr& b) { return !(a == b); }
  friend bool operator<(const GlobHeapLocalPtr& a, const GlobHeapLocalPtr& b) {
    return a.position_ < b.position_;
  }
  friend bool operator>(const GlobHeapLocalPtr& a, const GlobHeapLocalPtr& b) { return b < a; }
  friend bool operator<=(const GlobHeapLocalPtr& a, const GlobHeapLocalPtr& b) { return !(b < a); }
  friend bool operator>=(const GlobHeapLocalPtr& a, const GlobHeapLocalPtr& b) { return !(a < b); }

  // The element's native address (nullptr at the end). Local.
  T* local() const { return bucket_ < buckets_->size() ? &**this : nullptr; }
  // Its position among the unit's elements. Local.
  IndexT pos() const { return position_; }

 private:
  // Moves past the ends of buckets (and past empty ones) to the next
  // element, or to the end (one past the last bucket).
  void skip_empty() {
    while (buckets_ != nullptr && bucket_ < buckets_->size() &&
           offset_ >= (*buckets_)[bucket_].size) {
      ++bucket_;
      offset_ = 0;
    }
  }

  const std::vector<bucket_type>* buckets_ = nullptr;
  std::size_t bucket_ = 0;
  std::size_t offset_ = 0;
  IndexT position_ = 0;
};

}  // namespace dash

#endif  // DASH__MEMORY__GLOB_HEAP_LOCAL_PTR_H_
