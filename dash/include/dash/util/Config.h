// dash::util::Config: DASH's run-time configuration, a table of string keys and values that a
// program reads with get<T>(key) and changes with set(key, value) (DASH's <dash/util/Config.h>).
//
// What it holds (filled on first use, and again by init()):
//   - every environment variable whose name starts with DASH_, as given;
//   - what the run has: DASH_ENABLE_MPI_SHWIN ("1" unless DART_SHARED_WINDOWS=0: units on a
//     node reach each other through shared windows), DASH_ENABLE_HWLOC ("1": DART's locality
//     comes from hwloc), DART_MPI_IMPL (the MPI the library was built with, "openmpi" or
//     "mpich").
//
// | call                    | does                                                          |
// |-------------------------|---------------------------------------------------------------|
// | set(key, value)         | stores value (text; numbers as they print). A boolean word    |
// |                         | (true/false, yes/no, on/off, t/f, y/n; any case) also sets    |
// |                         | key_BOOL to "1"/"0"; a key ending in _SIZE with a byte        |
// |                         | size (digits, optional K/M/G/T, optional B or iB: "4M",       |
// |                         | "64KiB") also sets key_BYTES to the bytes (4194304). A _SIZE  |
// |                         | value that is no byte size throws InvalidArgument.            |
// |                         | DASH_ENABLE_LOGGING (1/0 or a word) switches DASH_LOG_* output|
// |                         | on/off.                                                       |
// | get<T>(key)             | bool: true for "1" or key_BOOL "1", false for "0" or          |
// |                         | key_BOOL "0"; integers and floating point: the whole value    |
// |                         | parsed; std::string: the value; other T: read with >>.        |
// |                         | An unset key gives T{} (0, false, ""); a value that is not a  |
// |                         | T throws dash::exception::InvalidArgument naming key, value.  |
// | is_set(key)             | whether key has a value                                       |
// | begin(), end()          | the keys and values in key order (set() keeps iterators valid,|
// |                         | init() ends them)                                             |
//
// Each unit has its own table (the environment is usually alike everywhere): every call is
// local. get, set and is_set are thread-safe; iterating is not, while another thread sets.
#ifndef DASH__UTIL__CONFIG_H_
#define DASH__UTIL__CONFIG_H_

#include <dash/util/StaticConfig.h>

#include <charconv>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>

namespace dash {
namespace util {

class Config {
 public:
  using table_type = std::map<std::string, std::string>;
  using iterator = table_type::const_iterator;

  template <class T>
  static T get(const std::string& key);

  static void set(const std::string& key, std::string value);
  static void set(const std::string& key, const char* value) { set(key, std::string(value)); }
  template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
  static void set(const std::string& key, T value) {
    set(key, to_text(value));
  }

  static bool is_set(const std::string& key) { return lookup(key).has_value(); }

  // Forgets every key and reads the environment and the run's settings again.
  static void init();

  static iterator begin() { return table().cbegin(); }
  static iterator end() { return table().cend(); }

 private:
  static std::optional<std::string> lookup(const std::string& key);
  static const table_type& table();
  [[noreturn]] static void not_a(const std::string& key, const std::string& value,
                                 const char* what);

  template <class T>
  static std::string to_text(T value) {
    if constexpr (std::is_same_v<T, bool>) {
      return value ? "1" : "0";
    } else {
      char buffer[64];
      auto done = std::to_chars(buffer, buffer + sizeof buffer, value);
      return std::string(buffer, done.ptr);
    }
  }
};

template <class T>
T Config::get(const std::string& key) {
  const auto value = lookup(key);
  if constexpr (std::is_same_v<T, bool>) {
    const auto flag = lookup(key + "_BOOL");
    if ((value && *value == "1") || (flag && *flag == "1")) return true;
    if (!value || *value == "0" || (flag && *flag == "0")) return false;
    not_a(key, *value, "a boolean (1/0, true/false, yes/no, on/off)");
  } else if constexpr (std::is_same_v<T, std::string>) {
    return value.value_or(std::string());
  } else if constexpr (std::is_arithmetic_v<T>) {
    if (!value) return T{};
    T result{};
    const char* first = value->data();
    const char* last = first + value->size();
    auto done = std::from_chars(first, last, result);
    if (done.ec != std::errc() || done.ptr != last || first == last)
      not_a(key, *value, std::is_integral_v<T> ? "an integer of the type asked for" : "a number");
    return result;
  } else {
    if (!value) return T{};
    std::istringstream in(*value);
    T result{};
    if (!(in >> result) || in.peek() != std::char_traits<char>::eof())
      not_a(key, *value, "readable as the type asked for");
    return result;
  }
}

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__CONFIG_H_
