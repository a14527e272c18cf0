// DASH's record of what a build of the library offers (dash::util::DashConfig), for programs
// and tests that ask it, e.g. whether dash::summa is there. Here: SUMMA always (it multiplies
// with its own loop, no BLAS needed), hwloc always (DART's locality), HDF5 in programs built
// with DASH_ENABLE_HDF5 (the dash-hdf5 package); none of the other optional packages DASH can
// use.
#ifndef DASH__UTIL__STATIC_CONFIG_H_
#define DASH__UTIL__STATIC_CONFIG_H_

namespace dash {
namespace util {

struct StaticConfig {
  bool avail_papi = false;
  bool avail_hwloc = true;
  bool avail_likwid = false;
  bool avail_numa = false;
  bool avail_plasma = false;
#ifdef DASH_ENABLE_HDF5
  bool avail_hdf5 = true;
#else
  bool avail_hdf5 = false;
#endif
  bool avail_mkl = false;
  bool avail_blas = false;
  bool avail_lapack = false;
  bool avail_scalapack = false;
  bool avail_memkind = false;
  bool avail_algo_summa = true;
};

// What this build offers. Local.
inline constexpr StaticConfig DashConfig{};

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__STATIC_CONFIG_H_
