// dash::util::BenchmarkParams (dash/util/BenchmarkParams.h): the settings it reads at
// construction and the lines it prints.
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/Version.h>
#include <dash/internal/Macro.h>
#include <dash/util/BenchmarkParams.h>
#include <dash/util/Config.h>
#include <dash/util/Locality.h>

#include <algorithm>
#include <ctime>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

extern char** environ;

namespace dash {
namespace util {
namespace {

bool starts_with(const std::string& text, const char* head) {
  return text.compare(0, std::char_traits<char>::length(head), head) == 0;
}

// Settings of MPI libraries and their threading runtimes: what a user sets to configure them,
// not what the launcher hands each process (OpenMPI's OMPI_COMM_*, OMPI_MCA_orte_*, PMIX_*).
bool mpi_variable(const std::string& name) {
  for (const char* launcher :
       {"OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir"})
    if (starts_with(name, launcher)) return false;
  for (const char* head :
       {"OMPI_MCA_", "MPICH_", "MPIR_CVAR_", "I_MPI_", "MV2_", "MP_", "OMP_", "KMP_"})
    if (starts_with(name, head)) return true;
  return false;
}

}  // namespace

BenchmarkParams::BenchmarkParams(const std::string& benchmark_name) : name_(benchmark_name) {
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string kv = *entry;
    const auto eq = kv.find('=');
    if (eq == std::string::npos) continue;
    auto flag = std::make_pair(kv.substr(0, eq), kv.substr(eq + 1));
    if (mpi_variable(flag.first))
      config_.env_mpi_config.push_back(std::move(flag));
    else if (starts_with(flag.first, "DART_"))
      config_.env_dart_config.push_back(std::move(flag));
  }
  std::sort(config_.env_mpi_config.begin(), config_.env_mpi_config.end());
  std::sort(config_.env_dart_config.begin(), config_.env_dart_config.end());
  for (auto it = Config::begin(); it != Config::end(); ++it)
    config_.env_dash_config.emplace_back(it->first, it->second);
  config_.env_mpi_shared_win = Config::get<bool>("DASH_ENABLE_MPI_SHWIN");
  config_.env_hwloc = Config::get<bool>("DASH_ENABLE_HWLOC");
}

bool BenchmarkParams::printing() const { return !dash::is_initialized() || dash::myid().id == 0; }

void BenchmarkParams::print_row(const std::string& label, const std::string& value) const {
  std::string line = "--   " + label;
  const std::size_t room = std::size_t(std::max(width_, 0));
  const std::size_t used = line.size() + 1 + value.size();
  line += std::string(used < room ? room - used + 1 : 1, ' ') + value;
  std::cout << line + "\n";
}

void BenchmarkParams::print_section_start(const std::string& section_name) const {
  if (!printing()) return;
  std::string line = "-- " + section_name + " ";
  if (line.size() < std::size_t(std::max(width_, 0)))
    line += std::string(width_ - line.size(), '-');
  std::cout << line + "\n";
}

void BenchmarkParams::print_section_end() const {
  if (!printing()) return;
  std::cout << "--\n";
}

void BenchmarkParams::print(std::stringstream& lines, const std::string& prefix) const {
  std::string out, line;
  while (std::getline(lines, line)) out += "--  " + prefix + " " + line + "\n";
  std::cout << out;
}

void BenchmarkParams::print_header() {
  if (!printing()) return;
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&now));

  print_section_start("Benchmark");
  print_param("identifier", name_);
  print_param("date", date);
  if (dash::is_initialized()) {
    print_param("units", dash::size());
    print_param("nodes", Locality(Team::All()).num_nodes());
  }
  print_section_end();

  const std::pair<const char*, const env_flags_type*> groups[] = {
      {"MPI environment flags", &config_.env_mpi_config},
      {"DASH environment flags (dash::util::Config)", &config_.env_dash_config},
      {"DART environment flags", &config_.env_dart_config}};
  for (const auto& group : groups) {
    if (group.second->empty()) continue;
    print_section_start(group.first);
    for (const auto& flag : *group.second) print_param(flag.first, flag.second);
    print_section_end();
  }

  print_section_start("Library");
  print_param("dash version", DASH_VERSION_STRING);
  print_param("MPI implementation", dash__toxstr(DASH_MPI_IMPL_ID));
#if defined(__VERSION__)
  print_param("compiled by", __VERSION__);
#endif
  print_param("MPI shared windows", config_.env_mpi_shared_win ? "enabled" : "disabled");
  print_param("hwloc", config_.env_hwloc ? "enabled" : "disabled");
  print_section_end();
}

void BenchmarkParams::print_pinning() {
  if (!printing() || !dash::is_initialized()) return;
  const Locality locality(Team::All());
  std::map<int, std::string> tags;  // team unit -> its domain tag
  for (const auto& domain : locality.domains(Locality::Scope::Unit))
    tags[domain.index] = domain.tag;
  const int host_w = std::max(8, width_ - 5 - 6 - 20 - 6 - 6 - 6);
  std::ostringstream table;
  table << std::left << "--   " << std::setw(6) << "unit" << std::setw(host_w) << "host"
        << std::setw(20) << "domain" << std::right << std::setw(6) << "NUMA" << std::setw(6)
        << "core" << std::setw(6) << "CPU" << '\n';
  for (std::size_t u = 0; u < dash::size(); ++u) {
    const auto where = locality.unit(team_unit_t(dart_unit_t(u)));
    table << std::left << "--   " << std::setw(6) << u << std::setw(host_w) << where.host
          << std::setw(20) << tags[int(u)] << std::right << std::setw(6) << where.numa
          << std::setw(6) << where.core << std::setw(6) << where.cpu << '\n';
  }
  print_section_start("Process pinning");
  std::cout << table.str();
  print_section_end();
}

}  // namespace util
}  // namespace dash
