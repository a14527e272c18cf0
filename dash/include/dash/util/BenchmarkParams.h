// dash::util::BenchmarkParams: the header, settings and parameter lines DASH's benchmark
// programs print before their measurements (DASH's <dash/util/BenchmarkParams.h>). Every line
// starts with "--", so that a reader of the results (a CSV after the header) can skip them:
//
//     -- Benchmark ----------------------------------------------------------------
//     --   identifier                                               bench.13.allreduce
//     --   units                                                                   4
//     --
//     -- Runtime arguments --------------------------------------------------------
//     --   -r      repetitions per round                                         100
//     --
//
// | call                                  | prints (on unit 0 of Team::All() only)        |
// |---------------------------------------|-----------------------------------------------|
// | BenchmarkParams(name)                 | nothing: reads the settings (config())        |
// | print_header()                        | Benchmark (name, date, units, hosts); the     |
// |                                       | MPI, DASH and DART environment flags set;     |
// |                                       | the library (version, MPI, compiler, shared   |
// |                                       | windows, hwloc)                               |
// | print_pinning()                       | Process pinning: per unit its host, locality  |
// |                                       | domain, NUMA domain, core and CPU             |
// | print_section_start(name)             | "-- name -----" (the output width)            |
// | print_section_end()                   | "--"                                          |
// | print_param(name, value)              | "--   name ...... value" (value on the right) |
// | print_param(flag, description, value) | "--   flag    description ...... value"       |
// | print(lines, prefix)                  | each line of `lines` as "--  prefix line", on |
// |                                       | the calling unit (any unit)                   |
// | set_output_width(w), output_width()   | the line width (default 82 characters)        |
// | config()                              | the settings: environment flags by library,   |
// |                                       | and which optional parts the library has      |
//
// Local: printing reads the locality DART gathered at start-up and nothing else.
#ifndef DASH__UTIL__BENCHMARK_PARAMS_H_
#define DASH__UTIL__BENCHMARK_PARAMS_H_

#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace dash {
namespace util {

class BenchmarkParams {
 public:
  using env_flags_type = std::vector<std::pair<std::string, std::string>>;

  // What the run has. env_*_config: name and value of the environment variables that
  // configure the MPI library and its threading runtime (OMPI_MCA_ but for those mpiexec sets
  // itself, MPICH_, MPIR_CVAR_, I_MPI_, MV2_, MP_, OMP_, KMP_), of DASH (the
  // dash::util::Config table) and of DART (DART_); the flags: whether the library has that part
  // (DASH's names; this library has shared windows unless DART_SHARED_WINDOWS=0, and hwloc;
  // none of the others).
  struct config_params_type {
    env_flags_type env_mpi_config;
    env_flags_type env_dash_config;
    env_flags_type env_dart_config;
    bool env_mpi_shared_win = false;
    bool env_papi = false;
    bool env_hwloc = false;
    bool env_numalib = false;
    bool env_mkl = false;
    bool env_blas = false;
    bool env_lapack = false;
    bool env_scalapack = false;
    bool env_plasma = false;
  };

  explicit BenchmarkParams(const std::string& benchmark_name);

  void set_output_width(int width) { width_ = width; }
  int output_width() const { return width_; }
  const config_params_type& config() const { return config_; }

  void print_header();
  void print_pinning();
  void print_section_start(const std::string& section_name) const;
  void print_section_end() const;
  void print(std::stringstream& lines, const std::string& prefix = "") const;

  template <class T>
  void print_param(const std::string& name, T value) const {
    if (!printing()) return;
    print_row(name, to_text(value));
  }
  template <class T>
  void print_param(const std::string& flag, const std::string& description, T value) const {
    if (!printing()) return;
    std::ostringstream label;
    label << std::left << std::setw(7) << flag << ' ' << description;
    print_row(label.str(), to_text(value));
  }

 private:
  template <class T>
  static std::string to_text(const T& value) {
    std::ostringstream os;
    os << value;
    return os.str();
  }
  // Whether this unit prints: unit 0 of Team::All(), or any unit before dash::init.
  bool printing() const;
  // "--   label" and `value` right-aligned to the output width (one space at least between).
  void print_row(const std::string& label, const std::string& value) const;

  std::string name_;
  int width_ = 82;
  config_params_type config_;
};

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__BENCHMARK_PARAMS_H_
