// dash::io's memory tiers (dash/io/Tiers.h): the tier file, the probe, and
// aggregation buffers on a tier (TierMemory.h).
#include <dart/dart.h>
#include <dart/dart_locality.h>
#include <dash/Exception.h>
#include <dash/internal/Flags.h>
#include <dash/io/Tiers.h>
#include <fcntl.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "SafeFile.h"
#include "memory/Hbm.h"
#include "io/TierMemory.h"
#include "io/TwoPhase.h"

namespace dash {
namespace io {

namespace {

constexpr std::size_t kProbeBytes = std::size_t(16) << 20;

[[noreturn]] void bad_line(const std::string& origin, int line, const std::string& what) {
  throw exception::InvalidArgument(origin + ":" + std::to_string(line) + ": " + what);
}

// A number followed by one of `units` (name, factor); the factor applied.
double number_with_unit(const std::string& word,
                        const std::vector<std::pair<std::string, double>>& units,
                        const std::string& origin, int line, const char* what) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(word, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = word.substr(used);
  if (used > 0 && v >= 0 && std::isfinite(v))
    for (const auto& [name, factor] : units)
      if (strcasecmp(unit.c_str(), name.c_str()) == 0) return v * factor;
  std::string list;
  for (const auto& u : units) list += (list.empty() ? "" : ", ") + u.first;
  bad_line(origin, line,
           std::string("bad ") + what + " '" + word + "' (a number and one of " + list + ")");
}

std::string default_directory(const std::string& name) {
  if (name == "shm") return "/dev/shm";
  const char* node = dash::internal::read_flag_text(dash::internal::Flag::io_node_dir, "dash::io");
  if (node != nullptr) return node;
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

std::uint64_t free_bytes_of(const std::string& directory) {
  struct statvfs st;
  if (statvfs(directory.c_str(), &st) != 0) return 0;
  return std::uint64_t(st.f_bavail) * std::uint64_t(st.f_frsize);
}

std::uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib << 10;
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Times writing kProbeBytes into memory at p (the best of two passes, the
// first touching the pages) and one 64-byte write.
void probe_memory(char* p, Tier& t) {
  std::memset(p, 1, kProbeBytes);
  auto start = std::chrono::steady_clock::now();
  std::memset(p, 2, kProbeBytes);
  t.bandwidth_Bps = double(kProbeBytes) / std::max(seconds_since(start), 1e-9);
  start = std::chrono::steady_clock::now();
  std::memset(p + 4096, 3, 64);
  t.latency_s = std::max(seconds_since(start), 1e-8);
}

// Probes a tier backed by files in t.directory (the disk's with a synced write of
// kProbeBytes from `data`): false if it cannot be used.
bool probe_files(Tier& t, const char* data) {
  struct stat st;
  if (stat(t.directory.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
      access(t.directory.c_str(), W_OK) != 0)
    return false;
  t.capacity = free_bytes_of(t.directory);
  std::string path = t.directory + "/dash-io-probe-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) return false;
  unlink(path.c_str());
  bool ok = ftruncate(fd, off_t(kProbeBytes)) == 0;
  if (ok && t.name == "disk") {
    // The device: a synced write of the whole buffer, and a synced 4 KiB one.
    auto start = std::chrono::steady_clock::now();
    ok = internal::write_all(fd, data, kProbeBytes, 0).empty() && fdatasync(fd) == 0;
    t.bandwidth_Bps = double(kProbeBytes) / std::max(seconds_since(start), 1e-9);
    start = std::chrono::steady_clock::now();
    ok = ok && internal::write_all(fd, data, 4096, 0).empty() && fdatasync(fd) == 0;
    t.latency_s = seconds_since(start);
  } else if (ok) {
    void* p = mmap(nullptr, kProbeBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ok = p != MAP_FAILED;
    if (ok) {
      probe_memory(static_cast<char*>(p), t);
      munmap(p, kProbeBytes);
    }
  }
  close(fd);
  return ok;
}

std::vector<Tier> probe() {
  std::vector<Tier> tiers;
  Tier dram;
  dram.name = "dram";
  dram.source = "probe";
  dram.capacity = available_memory();
  std::vector<char> buffer(kProbeBytes);
  probe_memory(buffer.data(), dram);
  tiers.push_back(dram);
  std::string why;
  if (void* p = dash::internal::hbm_allocate(kProbeBytes, 4096, &why)) {
    Tier hbm;
    hbm.name = "hbm";
    hbm.source = "probe";
    hbm.capacity = dash::internal::hbm_capacity();
    if (hbm.capacity == 0) hbm.capacity = dram.capacity;  // unknown: no more than the memory
    probe_memory(static_cast<char*>(p), hbm);
    dash::internal::hbm_free(p);
    tiers.push_back(hbm);
  }
  for (const char* name : {"shm", "disk"}) {
    Tier t;
    t.name = name;
    t.source = "probe";
    t.directory = default_directory(name);
    t.persistent = t.name == "disk";
    if (probe_files(t, buffer.data())) tiers.push_back(t);  // the dram probe's bytes
  }
  return tiers;
}

// A team's dram aggregation buffers, kept between calls (a Team::Extension) so that their
// pages are touched once (a fresh shared-memory page costs microseconds); a larger request
// replaces them. Freed with the team (All's at dash::finalize).
struct KeptBuffers : Team::Extension {
  dart_gptr_t gptr = DART_GPTR_NULL;
  std::size_t bytes = 0;
  void end(Team&) override { release(); }
  void release() {
    if (DART_GPTR_ISNULL(gptr)) return;
    const dart_gptr_t g = gptr;
    gptr = DART_GPTR_NULL;
    bytes = 0;
    check_dart(dart_team_memfree(g), "dash::io: freeing the kept aggregation buffers");
  }
};

// At least `bytes` per unit of team's kept buffers. Collective when it allocates (every unit
// asks the same size). Local otherwise.
dart_gptr_t kept_buffers(Team& team, std::size_t bytes) {
  KeptBuffers& kept = team.extension<KeptBuffers>();
  if (bytes <= kept.bytes && !DART_GPTR_ISNULL(kept.gptr)) return kept.gptr;
  kept.release();
  check_dart(dart_team_memalloc_aligned(team.dart_id(), bytes, DART_TYPE_BYTE, &kept.gptr),
             "dash::io: allocating the kept aggregation buffers");
  kept.bytes = bytes;
  return kept.gptr;
}

}  // namespace

std::vector<Tier> parse_tiers(const std::string& text, const std::string& origin) {
  std::vector<Tier> tiers;
  std::istringstream in(text);
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const std::size_t hash = raw.find('#');
    if (hash != std::string::npos) raw.resize(hash);
    std::istringstream words(raw);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.empty()) continue;
    Tier t;
    t.name = w[0];
    t.source = origin + ":" + std::to_string(line);
    if (t.name != "dram" && t.name != "hbm" && t.name != "shm" && t.name != "disk")
      bad_line(origin, line, "unknown tier '" + t.name + "' (dram, hbm, shm or disk)");
    for (const Tier& seen : tiers)
      if (seen.name == t.name) bad_line(origin, line, "tier '" + t.name + "' given twice");
    if (w.size() < 5 || w.size() > 6)
      bad_line(origin, line,
               "expected: name latency bandwidth capacity persistent [directory], got " +
                   std::to_string(w.size()) + " words");
    t.latency_s = number_with_unit(w[1], {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}},
                                   origin, line, "latency");
    t.bandwidth_Bps = number_with_unit(w[2], {{"KB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}}, origin,
                                       line, "bandwidth");
    if (t.bandwidth_Bps <= 0) bad_line(origin, line, "bandwidth must be above 0");
    const double capacity = number_with_unit(
        w[3],
        {{"", 1}, {"K", 1024.0}, {"M", 1048576.0}, {"G", 1073741824.0}, {"T", 1099511627776.0}},
        origin, line, "capacity");
    t.capacity = std::uint64_t(capacity);
    if (strcasecmp(w[4].c_str(), "yes") == 0)
      t.persistent = true;
    else if (strcasecmp(w[4].c_str(), "no") != 0)
      bad_line(origin, line, "persistent must be yes or no, got '" + w[4] + "'");
    const bool memory = t.name == "dram" || t.name == "hbm";
    if (memory && w.size() == 6) bad_line(origin, line, t.name + " takes no directory");
    t.directory = w.size() == 6 ? w[5] : memory ? "" : default_directory(t.name);
    tiers.push_back(t);
  }
  if (tiers.empty()) bad_line(origin, line, "no tier described");
  return tiers;
}

namespace internal {

std::string tier_file_path(const std::string& raw) {
  std::string path;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '%' || i + 1 == raw.size()) {
      path += raw[i];
      continue;
    }
    const char c = raw[++i];
    if (c == 'h') {
      char host[256] = {};
      gethostname(host, sizeof host - 1);
      path += host;
    } else if (c == 'n') {
      if (!dart_initialized())
        throw exception::InvalidArgument("DASH_IO_TIERS: '" + raw +
                                         "' names the node (%n) before DART started");
      dart_global_unit_t me;
      dart_unit_placement_t loc;
      if (dart_myid(&me) != DART_OK ||
          dart_unit_placement(DART_TEAM_ALL, dart_team_unit_t{me.id}, &loc) != DART_OK)
        throw exception::RuntimeError("DASH_IO_TIERS: cannot find this unit's node");
      path += std::to_string(loc.node);
    } else if (c == '%') {
      path += '%';
    } else {
      throw exception::InvalidArgument("DASH_IO_TIERS: '" + raw + "': unknown %" +
                                       std::string(1, c) + " (%h host name, %n node, %% a %)");
    }
  }
  return path;
}

}  // namespace internal

const std::vector<Tier>& node_tiers() {
  static std::once_flag once;
  static std::vector<Tier> tiers;
  static std::exception_ptr error;
  std::call_once(once, [] {
    try {
      const char* raw = dash::internal::read_flag_text(dash::internal::Flag::io_tiers, "dash::io");
      if (raw == nullptr) {
        tiers = probe();
        return;
      }
      const std::string file = internal::tier_file_path(raw);
      const char* path = file.c_str();
      // A regular file of at most 1 MiB (a FIFO or a device is refused, never waited on).
      constexpr std::size_t kMaxBytes = std::size_t(1) << 20;
      std::string why;
      const int fd = dash::internal::open_regular_for_reading(file, why);
      if (fd < 0) throw exception::InvalidArgument("DASH_IO_TIERS: " + why);
      std::string text;
      char chunk[65536];
      while (text.size() <= kMaxBytes) {
        const ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
          const int e = errno;
          close(fd);
          throw exception::InvalidArgument(std::string("DASH_IO_TIERS: cannot read '") + path +
                                           "': " + std::strerror(e));
        }
        if (n == 0) break;
        text.append(chunk, std::size_t(n));
      }
      close(fd);
      if (text.size() > kMaxBytes)
        throw exception::InvalidArgument(std::string("DASH_IO_TIERS: '") + path +
                                         "' is larger than 1 MiB");
      tiers = parse_tiers(text, path);
    } catch (...) {
      error = std::current_exception();
    }
  });
  if (error) std::rethrow_exception(error);
  return tiers;
}

const Tier& node_tier(const std::string& name) {
  const std::vector<Tier>& tiers = node_tiers();
  std::string known;
  for (const Tier& t : tiers) {
    if (t.name == name) return t;
    known += (known.empty() ? "" : ", ") + t.name;
  }
  throw exception::InvalidArgument("dash::io: no tier '" + name +
                                   "' on this node (usable: " + known + ")");
}

namespace internal {

Tier buffer_tier(const std::string& name) {
  // With a tier file, what it says (cheap); without one, the tier's
  // directory checked, no probe (a forced tier needs no figures).
  const char* path = dash::internal::read_flag_text(dash::internal::Flag::io_tiers, "dash::io");
  if (path != nullptr || (name != "dram" && name != "hbm" && name != "shm" && name != "disk"))
    return node_tier(name);
  Tier t;
  t.name = name;
  t.source = "unprobed";
  if (name == "dram") return t;
  if (name == "hbm") {
    std::string why;
    if (!dash::internal::hbm_available(&why))
      throw exception::InvalidArgument("dash::io: tier 'hbm' cannot be used: " + why);
    return t;
  }
  t.directory = default_directory(name);
  t.persistent = name == "disk";
  struct stat st;
  if (stat(t.directory.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
      access(t.directory.c_str(), W_OK) != 0)
    throw exception::InvalidArgument("dash::io: tier '" + name + "' cannot be used: '" +
                                     t.directory + "' is not a writable directory");
  return t;
}

TierMemory::TierMemory(Team& team, const Tier& tier, std::uint64_t bytes, const char* who)
    : bytes_(bytes) {
  const std::string w(who);
  if (tier.name == "hbm") {
    dash::internal::Failure failure;
    captured(failure, [&] {
      std::string why;
      mapped_ = static_cast<char*>(dash::internal::hbm_allocate(std::size_t(bytes), 4096, &why));
      if (!mapped_)
        throw exception::RuntimeError(w +
                                      ": cannot allocate the aggregation buffers in HBM: " + why);
    });
    try {
      dash::internal::agree(failure, team.dart_id(), who);
    } catch (...) {
      dash::internal::hbm_free(mapped_);
      throw;
    }
    hbm_ = true;
    const dart_ret_t ret =
        dart_team_memregister(team.dart_id(), std::size_t(bytes), DART_TYPE_BYTE, mapped_, &gptr_);
    if (ret != DART_OK) {
      dash::internal::hbm_free(mapped_);
      mapped_ = nullptr;
      check_io(ret, w + ": registering the buffers of tier hbm");
    }
    registered_ = true;
  } else if (tier.name == "dram" && bytes <= kCachedTierBytes) {
    gptr_ = kept_buffers(team, std::size_t(bytes));
  } else if (tier.name == "dram") {
    check_io(dart_team_memalloc_aligned(team.dart_id(), std::size_t(bytes), DART_TYPE_BYTE, &gptr_),
             w + ": allocating the aggregation buffers");
    owned_ = true;
  } else {
    // A file of the tier, mapped and registered; its name goes at once (the
    // mapping keeps the memory), so nothing is left behind after a crash.
    dash::internal::Failure failure;
    captured(failure, [&] {
      std::string path = tier.directory + "/dash-io-XXXXXX";
      const int fd = mkstemp(path.data());
      if (fd < 0)
        throw exception::RuntimeError(w + ": cannot make a buffer file in '" + tier.directory +
                                      "' (tier " + tier.name + "): " + errno_text(errno));
      unlink(path.c_str());
      const int grown = bytes > 0 ? posix_fallocate(fd, 0, off_t(bytes)) : 0;
      void* p = grown == 0 && bytes > 0
                    ? mmap(nullptr, std::size_t(bytes), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                    : nullptr;
      close(fd);
      if (grown != 0 || p == MAP_FAILED)
        throw exception::RuntimeError(w + ": cannot map " + std::to_string(bytes) +
                                      " bytes of tier " + tier.name + " in '" + tier.directory +
                                      "': " + errno_text(grown != 0 ? grown : errno));
      mapped_ = static_cast<char*>(p);
    });
    try {
      dash::internal::agree(failure, team.dart_id(), who);
    } catch (...) {
      if (mapped_) munmap(mapped_, std::size_t(bytes));
      throw;
    }
    const dart_ret_t ret =
        dart_team_memregister(team.dart_id(), std::size_t(bytes), DART_TYPE_BYTE, mapped_, &gptr_);
    if (ret != DART_OK) {
      if (mapped_) munmap(mapped_, std::size_t(bytes_));
      check_io(ret, w + ": registering the buffers of tier " + tier.name);
    }
    registered_ = true;
  }
  dart_gptr_t mine = gptr_;
  dart_gptr_setunit(&mine, dart_team_unit_t{team_myid(team.dart_id())});
  void* addr = nullptr;
  check_io(dart_gptr_getaddr(mine, &addr), w + ": dart_gptr_getaddr");
  local_ = static_cast<char*>(addr);
}

TierMemory::~TierMemory() {
  if (owned_) dart_team_memfree(gptr_);
  if (registered_) dart_team_memderegister(gptr_);
  if (mapped_ && hbm_)
    dash::internal::hbm_free(mapped_);
  else if (mapped_)
    munmap(mapped_, std::size_t(bytes_));
}

}  // namespace internal

}  // namespace io
}  // namespace dash
