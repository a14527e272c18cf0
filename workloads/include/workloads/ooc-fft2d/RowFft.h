// Shared workload (workloads/ooc-fft2d/RowFft.h), used by examples/ooc-fft2d, bench/ooc and
// bench/fft2d. The row FFTs of ooc-fft2d: one FFTW plan for rows of n complex doubles,
// run in place on each row of a slab. The plan is made once with
// FFTW_ESTIMATE | FFTW_UNALIGNED, so it does not depend on where a row sits
// in memory: a row gives the same bits in memory and out of core, on any
// unit.
#ifndef WORKLOADS__OOC_FFT2D__ROWFFT_H_
#define WORKLOADS__OOC_FFT2D__ROWFFT_H_

#include <dash/ooc/Transpose.h>
#include <fftw3.h>

#include <complex>
#include <stdexcept>
#include <string>
#include <vector>

namespace examples {

class RowFft {
 public:
  // A forward transform of length n (n >= 1). Local.
  explicit RowFft(long n) {
    std::vector<std::complex<double>> scratch(static_cast<std::size_t>(n));
    auto* p = reinterpret_cast<fftw_complex*>(scratch.data());
    plan_ = fftw_plan_dft_1d(int(n), p, p, FFTW_FORWARD, FFTW_ESTIMATE | FFTW_UNALIGNED);
    if (plan_ == nullptr)
      throw std::runtime_error("FFTW made no plan for rows of " + std::to_string(n));
  }
  ~RowFft() { fftw_destroy_plan(plan_); }
  RowFft(const RowFft&) = delete;
  RowFft& operator=(const RowFft&) = delete;

  // Transforms every row of `rows` in place. Local.
  void operator()(const dash::ooc::Rows<std::complex<double>>& rows) const {
    for (long i = 0; i < rows.count; ++i) {
      auto* p = reinterpret_cast<fftw_complex*>(rows.row(i));
      fftw_execute_dft(plan_, p, p);
    }
  }

 private:
  fftw_plan plan_ = nullptr;
};

}  // namespace examples

#endif  // WORKLOADS__OOC_FFT2D__ROWFFT_H_
