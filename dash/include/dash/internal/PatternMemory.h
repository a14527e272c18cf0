// A pattern together with the global memory laid out by it: what dash::Array
// and dash::Matrix own. Both live on the heap so iterators and views that
// point at them stay valid when the container moves.
#ifndef DASH__INTERNAL__PATTERN_MEMORY_H_
#define DASH__INTERNAL__PATTERN_MEMORY_H_

#include <dash/Exception.h>
#include <dash/memory/GlobStaticMem.h>

#include <memory>
#include <string>

namespace dash {
namespace internal {

template <class T, class PatternT>
class PatternMemory {
 public:
  using size_type = typename PatternT::size_type;

  PatternMemory() = default;
  // Allocates local_capacity() elements per unit for `pattern`. Collective.
  explicit PatternMemory(const PatternT& pattern)
      : pattern_(std::make_unique<PatternT>(pattern)),
        mem_(std::make_unique<GlobStaticMem<T>>(pattern_->local_capacity(), pattern_->team())),
        lsize_(pattern_->local_size()) {}
  PatternMemory(PatternMemory&& other) noexcept = default;
  PatternMemory& operator=(PatternMemory&& other) noexcept {
    reset();
    mem_ = std::move(other.mem_);
    pattern_ = std::move(other.pattern_);
    lsize_ = other.lsize_;
    other.lsize_ = 0;
    return *this;
  }
  ~PatternMemory() { reset(); }

  // Frees the memory (collective), memory before pattern.
  void reset() {
    mem_.reset();
    pattern_.reset();
    lsize_ = 0;
  }
  bool allocated() const { return pattern_ != nullptr; }
  // Throws dash::exception::InvalidArgument naming `who` if not allocated.
  const PatternT& pattern(const char* who) const {
    if (!pattern_) throw exception::InvalidArgument(std::string(who) + ": container not allocated");
    return *pattern_;
  }
  const PatternT* pattern_ptr() const { return pattern_.get(); }
  const GlobStaticMem<T>* mem_ptr() const { return mem_.get(); }
  size_type size() const { return pattern_ ? pattern_->size() : 0; }
  size_type lsize() const { return lsize_; }
  T* lbegin() const { return mem_ ? mem_->lbegin() : nullptr; }
  T* lend() const { return mem_ ? mem_->lbegin() + lsize_ : nullptr; }
  void flush() const {
    if (mem_) mem_->flush();
  }

 private:
  std::unique_ptr<PatternT> pattern_;
  std::unique_ptr<GlobStaticMem<T>> mem_;
  size_type lsize_ = 0;
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__PATTERN_MEMORY_H_
