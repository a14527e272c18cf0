// Part of the unionfind workload (workloads/unionfind/unionfind.h).
// unionfind::Field: the synthetic scalar field over an X x Y x Z grid of
// cells whose values above a threshold select the cells of the union-find
// graph. A deterministic function of the cell coordinates and a seed: every
// unit evaluates the same values without communicating.
//
//   waves   three products of sines (one per axis, 1..4 periods over the
//           grid), three gaussian bumps and hashed noise: large, twisted
//           components that cross many blocks, and many small ones.
//   spiral  an Archimedean spiral band around the z axis that turns once
//           along z (a helical sheet), plus a little hashed noise: one arm
//           winds through the same blocks again and again, the hard case
//           for label propagation.
//
// | call          | cost                                      |
// |---------------|-------------------------------------------|
// | constructor   | local, O(X + Y + Z)                       |
// | operator()    | local, O(1): table look-ups and a hash    |
// | select        | local, O(cells of the box)                |
#ifndef WORKLOADS__UNIONFIND__FIELD_H_
#define WORKLOADS__UNIONFIND__FIELD_H_

#include <dash/bp/Decomposer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace unionfind {

enum class FieldKind { waves, spiral };

// A 64-bit mixing function (the finaliser of a counter-based generator):
// distinct inputs give well-spread outputs.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A number in [0, 1) from a hash value.
inline double unit_interval(std::uint64_t h) { return double(h >> 11) * 0x1.0p-53; }

class Field {
 public:
  static constexpr int kWaves = 3;
  static constexpr int kBumps = 3;
  static constexpr double kPi = 3.14159265358979323846;

  // The field of `kind` over a grid of `extents` cells, drawn from `seed`.
  Field(FieldKind kind, std::array<long, 3> extents, std::uint64_t seed)
      : kind_(kind), extents_(extents), seed_(seed) {
    std::uint64_t draw = mix64(seed ^ 0x51ab1e5eedull);
    auto next = [&draw] { return unit_interval(draw = mix64(draw)); };
    for (int d = 0; d < 3; ++d) {
      const long n = extents[std::size_t(d)];
      for (int k = 0; k < kWaves; ++k) {
        const double periods = 1.0 + 3.0 * next();
        const double phase = 2 * kPi * next();
        auto& table = waves_[std::size_t(k)][std::size_t(d)];
        table.resize(std::size_t(n));
        for (long i = 0; i < n; ++i)
          table[std::size_t(i)] =
              std::sin(2 * kPi * periods * (double(i) + 0.5) / double(n) + phase);
      }
      for (int b = 0; b < kBumps; ++b) {
        const double centre = next() * double(n);
        const double sigma = std::max(1.0, 0.15 * double(n));
        auto& table = bumps_[std::size_t(b)][std::size_t(d)];
        table.resize(std::size_t(n));
        for (long i = 0; i < n; ++i) {
          const double t = (double(i) + 0.5 - centre) / sigma;
          table[std::size_t(i)] = std::exp(-0.5 * t * t);
        }
      }
    }
    spiral_phase_ = 2 * kPi * next();
  }

  FieldKind kind() const { return kind_; }
  const std::array<long, 3>& extents() const { return extents_; }

  // The value at cell (x, y, z). Local.
  double operator()(long x, long y, long z) const {
    const std::size_t i = std::size_t(x), j = std::size_t(y), k = std::size_t(z);
    const double noise = 2 * unit_interval(mix64(seed_ ^ mix64(cell_key(x, y, z)))) - 1;
    if (kind_ == FieldKind::spiral) return spiral(x, y, z) + 0.1 * noise;
    double v = 0;
    for (const auto& w : waves_) v += 0.45 * w[0][i] * w[1][j] * w[2][k];
    for (const auto& b : bumps_) v += 0.7 * b[0][i] * b[1][j] * b[2][k];
    return v + 0.3 * noise;
  }

  // selected[c] = 1 if the value of cell c of `box` exceeds threshold, else
  // 0; cells in row-major order over the box (z fastest). Local.
  void select(const dash::bp::Box<3>& box, double threshold,
              std::vector<std::uint8_t>& selected) const {
    selected.resize(std::size_t(box.size()));
    std::size_t c = 0;
    for (long x = box.min[0]; x < box.max[0]; ++x)
      for (long y = box.min[1]; y < box.max[1]; ++y)
        for (long z = box.min[2]; z < box.max[2]; ++z)
          selected[c++] = (*this)(x, y, z) > threshold ? 1 : 0;
  }

 private:
  std::uint64_t cell_key(long x, long y, long z) const {
    return (std::uint64_t(x) * std::uint64_t(extents_[1]) + std::uint64_t(y)) *
               std::uint64_t(extents_[2]) +
           std::uint64_t(z);
  }

  // cos(2 pi r / pitch - angle - 2 pi z / Z + phase): above a threshold, a
  // band that spirals out from the centre of the x-y plane and turns once
  // from z = 0 to z = Z.
  double spiral(long x, long y, long z) const {
    const double dx = double(x) + 0.5 - 0.5 * double(extents_[0]);
    const double dy = double(y) + 0.5 - 0.5 * double(extents_[1]);
    const double pitch = std::max(5.0, double(std::min(extents_[0], extents_[1])) / 6);
    const double r = std::sqrt(dx * dx + dy * dy);
    return std::cos(2 * kPi * r / pitch - std::atan2(dy, dx) -
                    2 * kPi * (double(z) + 0.5) / double(extents_[2]) + spiral_phase_);
  }

  FieldKind kind_;
  std::array<long, 3> extents_;
  std::uint64_t seed_;
  // waves_[k][d][i]: wave k along dimension d at coordinate i; likewise bumps_.
  std::array<std::array<std::vector<double>, 3>, kWaves> waves_;
  std::array<std::array<std::vector<double>, 3>, kBumps> bumps_;
  double spiral_phase_ = 0;
};

// The name of a field kind, as on the command line.
inline std::string to_string(FieldKind kind) {
  return kind == FieldKind::spiral ? "spiral" : "waves";
}

}  // namespace unionfind

#endif  // WORKLOADS__UNIONFIND__FIELD_H_
