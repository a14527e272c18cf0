// dash::util::Config (dash/util/Config.h): one table per process behind a mutex, filled from
// the environment on first use.
#include <dart/dart_flags.h>
#include <dash/Exception.h>
#include <dash/Version.h>
#include <dash/internal/Logging.h>
#include <dash/internal/Macro.h>
#include <dash/util/Config.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <mutex>
#include <string>

extern char** environ;

namespace dash {
namespace util {
namespace {

struct State {
  std::mutex mutex;
  Config::table_type table;
  bool loaded = false;
};

State& state() {
  static State s;
  return s;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return text;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// "1" for a word meaning true, "0" for false, "" for neither (the digits themselves are not
// words: get<bool> reads them as they are).
std::string boolean_word(const std::string& value) {
  const std::string v = lower(value);
  if (v == "true" || v == "yes" || v == "on" || v == "t" || v == "y") return "1";
  if (v == "false" || v == "no" || v == "off" || v == "f" || v == "n") return "0";
  return "";
}

// Bytes of "<digits>[K|M|G|T][B|iB]" (either case; powers of 1024), or nothing.
std::optional<std::uint64_t> byte_size(const std::string& value) {
  std::uint64_t n = 0;
  const char* first = value.data();
  const char* last = first + value.size();
  auto done = std::from_chars(first, last, n);
  if (done.ec != std::errc() || done.ptr == first) return std::nullopt;
  std::string suffix = lower(std::string(done.ptr, last));
  unsigned shift = 0;
  if (!suffix.empty() && std::string("kmgt").find(suffix[0]) != std::string::npos) {
    shift = 10 * unsigned(1 + std::string("kmgt").find(suffix[0]));
    suffix.erase(0, 1);
    if (suffix == "ib") suffix.clear();
  }
  if (!suffix.empty() && suffix != "b") return std::nullopt;
  if (shift > 0 && n > (UINT64_MAX >> shift)) return std::nullopt;
  return n << shift;
}

// Stores key (and key_BOOL / key_BYTES); the caller holds the mutex.
void store(State& s, const std::string& key, const std::string& value) {
  std::optional<std::uint64_t> bytes;
  if (ends_with(key, "_SIZE")) {
    bytes = byte_size(value);
    if (!bytes)
      throw exception::InvalidArgument("dash::util::Config::set: " + key + " = '" + value +
                                       "' is not a byte size (digits and an optional K, M, G or "
                                       "T suffix, e.g. 4M)");
  }
  s.table[key] = value;
  const std::string flag = boolean_word(value);
  if (!flag.empty())
    s.table[key + "_BOOL"] = flag;
  else
    s.table.erase(key + "_BOOL");  // from an earlier value
  if (bytes) s.table[key + "_BYTES"] = std::to_string(*bytes);
  const std::string switch_to = value == "1" || value == "0" ? value : flag;
  if (key == "DASH_ENABLE_LOGGING" && !switch_to.empty()) {
    if (switch_to == "1")
      internal::logging::enable_log();
    else
      internal::logging::disable_log();
  }
}

// The environment's DASH_ variables and the run's settings; the caller holds the mutex. A
// malformed DASH_..._SIZE variable throws InvalidArgument, and again at every use until the
// environment is mended.
void load(State& s) {
  s.table.clear();
  s.loaded = false;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string kv = *entry;
    const auto eq = kv.find('=');
    if (eq == std::string::npos || kv.compare(0, 5, "DASH_") != 0) continue;
    try {
      store(s, kv.substr(0, eq), kv.substr(eq + 1));
    } catch (...) {
      s.table.clear();
      throw;
    }
  }
  int shared_windows = 1;  // DART's default; a malformed value is dart_init's to refuse
  dart_flag_bool("DART_SHARED_WINDOWS", &shared_windows, nullptr, 0);
  store(s, "DASH_ENABLE_MPI_SHWIN", shared_windows ? "1" : "0");
  store(s, "DASH_ENABLE_HWLOC", "1");
  store(s, "DART_MPI_IMPL", dash__toxstr(DASH_MPI_IMPL_ID));
  s.loaded = true;
}

State& loaded_state(std::unique_lock<std::mutex>& lock) {
  State& s = state();
  lock = std::unique_lock<std::mutex>(s.mutex);
  if (!s.loaded) load(s);
  return s;
}

}  // namespace

void Config::set(const std::string& key, std::string value) {
  std::unique_lock<std::mutex> lock;
  store(loaded_state(lock), key, value);
}

void Config::init() {
  std::unique_lock<std::mutex> lock;
  State& s = loaded_state(lock);
  load(s);
}

std::optional<std::string> Config::lookup(const std::string& key) {
  std::unique_lock<std::mutex> lock;
  State& s = loaded_state(lock);
  auto it = s.table.find(key);
  if (it == s.table.end()) return std::nullopt;
  return it->second;
}

const Config::table_type& Config::table() {
  std::unique_lock<std::mutex> lock;
  return loaded_state(lock).table;
}

void Config::not_a(const std::string& key, const std::string& value, const char* what) {
  throw exception::InvalidArgument("dash::util::Config::get: " + key + " = '" + value +
                                   "' is not " + what);
}

}  // namespace util
}  // namespace dash
