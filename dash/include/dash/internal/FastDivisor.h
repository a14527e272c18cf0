// Division by a divisor fixed at construction, as a multiply-high, a
// subtract and two shifts instead of a hardware divide (the dominant cost of
// a pattern lookup; figures:
// bench/results/design_measurements.md#fastdivisor-a-multiply-instead-of-a-hardware-divide).
//
// Method (Granlund and Montgomery, "Division by invariant integers using
// multiplication", 1994, the round-up variant for N-bit unsigned operands):
//   l  = ceil(log2(d))
//   m  = floor(2^64 * (2^l - d) / d) + 1            (fits in 64 bits)
//   t  = mulhi(m, n)
//   q  = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0)
// q == floor(n / d) for every 64-bit n and 1 <= d < 2^63.
#ifndef DASH__INTERNAL__FAST_DIVISOR_H_
#define DASH__INTERNAL__FAST_DIVISOR_H_

#include <cstdint>

namespace dash {
namespace internal {

class FastDivisor {
 public:
  FastDivisor() : FastDivisor(1) {}
  // d >= 1.
  explicit FastDivisor(std::uint64_t d) : divisor_(d) {
    int l = 0;
    while (l < 64 && (std::uint64_t(1) << l) < d) ++l;
    unsigned __int128 numerator = static_cast<unsigned __int128>((std::uint64_t(1) << l) - d) << 64;
    multiplier_ = static_cast<std::uint64_t>(numerator / d) + 1;
    shift1_ = l < 1 ? l : 1;
    shift2_ = l > 1 ? l - 1 : 0;
  }
  // floor(n / d).
  std::uint64_t divide(std::uint64_t n) const {
    std::uint64_t t =
        static_cast<std::uint64_t>((static_cast<unsigned __int128>(multiplier_) * n) >> 64);
    return (t + ((n - t) >> shift1_)) >> shift2_;
  }
  std::uint64_t divisor() const { return divisor_; }

 private:
  std::uint64_t divisor_;
  std::uint64_t multiplier_;
  int shift1_, shift2_;
};

// Non-negative n / d for a signed index type.
template <class I>
inline I divide(I n, const FastDivisor& d) {
  return static_cast<I>(d.divide(static_cast<std::uint64_t>(n)));
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__FAST_DIVISOR_H_
