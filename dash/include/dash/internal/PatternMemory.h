// A pattern together with the global memory laid out by it: what dash::Array
// and dash::Matrix own. Both live on the heap so iterators and views that
// point at them stay valid when the container moves.
#ifndef DASH__INTERNAL__PATTERN_MEMORY_H_
#define DASH__INTERNAL__PATTERN_MEMORY_H_

#include <dash/Exception.h>
#include <dash/memory/GlobStaticMem.h>
#include <dash/pattern/internal/PatternBase.h>  // has_local_sizes

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace dash {
namespace internal {

template <class P, class = void>
struct has_distspec : std::false_type {};
template <class P>
struct has_distspec<P, std::void_t<decltype(std::declval<const P&>().distspec())>>
    : std::true_type {};

// FNV-1a over the collective arguments of a pattern: extents, distribution
// per dimension (if the pattern has one), local capacity and the units' sizes
// (if the pattern lists them). Equal on every
// unit iff the units built the same pattern (up to hash collisions). Local.
template <class PatternT>
std::uint64_t pattern_args_hash(const PatternT& pattern) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  mix(PatternT::ndim());
  for (dim_t d = 0; d < PatternT::ndim(); ++d) mix(static_cast<std::uint64_t>(pattern.extent(d)));
  if constexpr (has_distspec<PatternT>::value) {
    for (dim_t d = 0; d < PatternT::ndim(); ++d) {
      mix(static_cast<std::uint64_t>(pattern.distspec()[d].type));
      mix(static_cast<std::uint64_t>(pattern.distspec()[d].blocksize));
    }
  }
  mix(static_cast<std::uint64_t>(pattern.local_capacity()));
  if constexpr (has_local_sizes<PatternT>::value) {
    for (auto s : pattern.local_sizes()) mix(static_cast<std::uint64_t>(s));
  }
  return h == 0 ? 1 : h;  // 0 means "no check" to DART callers; keep it distinct
}

// "extents 10 x 20" for messages. Local.
template <class PatternT>
std::string pattern_args_text(const PatternT& pattern) {
  std::string text = "extents ";
  for (dim_t d = 0; d < PatternT::ndim(); ++d) {
    if (d > 0) text += " x ";
    text += std::to_string(pattern.extent(d));
  }
  return text;
}

template <class T, class PatternT>
class PatternMemory {
 public:
  using size_type = typename PatternT::size_type;

  PatternMemory() = default;
  // Allocates local_capacity() elements per unit for `pattern`. Collective;
  // the units check in the allocation that their patterns agree (extents,
  // distribution, team arrangement) and throw
  // dash::exception::InvalidArgument naming `who` on every unit if not.
  // local_space: where the units' parts come from (GlobStaticMem; nullptr:
  // DART's team allocation).
  explicit PatternMemory(const PatternT& pattern, const char* who = "dash::PatternMemory",
                         std::pmr::memory_resource* local_space = nullptr)
      : pattern_(std::make_unique<PatternT>(checked_units(pattern, who))),
        mem_(std::make_unique<GlobStaticMem<T>>(pattern_->local_capacity(), pattern_->team(),
                                                pattern_args_hash(*pattern_), who,
                                                pattern_args_text(*pattern_), local_space)),
        lsize_(pattern_->local_size()),
        lbegin_(mem_->lbegin()) {}
  PatternMemory(PatternMemory&& other) noexcept
      : pattern_(std::move(other.pattern_)),
        mem_(std::move(other.mem_)),
        lsize_(std::exchange(other.lsize_, 0)),
        lbegin_(std::exchange(other.lbegin_, nullptr)) {}
  // `pattern`, if its units are all in its team (a pattern's unit grid may hold more; see
  // TeamSpec). Local; throws dash::exception::InvalidArgument naming `who` if not.
  static const PatternT& checked_units(const PatternT& pattern, const char* who) {
    if (pattern.num_units() > pattern.team().size())
      throw exception::InvalidArgument(std::string(who) + ": the pattern maps elements to " +
                                       std::to_string(pattern.num_units()) +
                                       " units, its team has " +
                                       std::to_string(pattern.team().size()));
    return pattern;
  }
  PatternMemory& operator=(PatternMemory&& other) noexcept {
    reset();
    mem_ = std::move(other.mem_);
    pattern_ = std::move(other.pattern_);
    lsize_ = std::exchange(other.lsize_, 0);
    lbegin_ = std::exchange(other.lbegin_, nullptr);
    return *this;
  }
  ~PatternMemory() { reset(); }

  // Frees the memory (collective), memory before pattern.
  void reset() {
    mem_.reset();
    pattern_.reset();
    lsize_ = 0;
    lbegin_ = nullptr;
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
  // The local part's first element (nullptr when not allocated): a plain member, so that
  // loops over lbegin()[i] compile to contiguous (vector) stores; through mem_ the
  // not-allocated case made GCC vectorise them as scatters (bench.02.meminit: 2.4 x the
  // loop's time).
  T* lbegin() const { return lbegin_; }
  T* lend() const { return lbegin_ + lsize_; }
  void flush() const {
    if (mem_) mem_->flush();
  }

 private:
  std::unique_ptr<PatternT> pattern_;
  std::unique_ptr<GlobStaticMem<T>> mem_;
  size_type lsize_ = 0;
  T* lbegin_ = nullptr;  // mem_->lbegin(), kept with mem_
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__PATTERN_MEMORY_H_
