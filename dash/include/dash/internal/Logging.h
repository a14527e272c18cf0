// DASH's log macros, for programs written for DASH. A message is a context (where it comes
// from, usually the function's name) and any number of values that have operator<< or are
// ranges of such values (printed "[a, b, c]").
//
// | macro                               | prints                                           |
// |-------------------------------------|--------------------------------------------------|
// | DASH_LOG_ERROR(context, values...)  | always                                           |
// | DASH_LOG_WARN(context, values...)   | always                                           |
// | DASH_LOG_DEBUG(context, values...)  | when DASH_ENABLE_LOGGING is defined before the   |
// |                                     | first dash header; otherwise no code at all      |
// | DASH_LOG_TRACE(context, values...)  | when DASH_ENABLE_TRACE_LOGGING is defined (it    |
// |                                     | implies DASH_ENABLE_LOGGING)                     |
// | DASH_LOG_<LEVEL>_VAR(context, var)  | "var: <value>" (when off: var is still evaluated)|
//
// Compiled-in messages print unless logging is switched off at run time: the environment
// variable DASH_ENABLE_LOGGING=0 (read through dash::util::Config), or
// dash::internal::logging::disable_log(). A message is one line on std::clog (stderr), written
// at once so that units' lines do not interleave mid-line:
//
//     [ unit 3 DEBUG ] main.cpp:42 | context | value value ...
//
// Local; nothing here communicates.
#ifndef DASH__INTERNAL__LOGGING_H_
#define DASH__INTERNAL__LOGGING_H_

#include <dash/internal/Macro.h>
#include <dash/util/Config.h>

#include <atomic>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#if defined(DASH_ENABLE_TRACE_LOGGING) && !defined(DASH_ENABLE_LOGGING)
#define DASH_ENABLE_LOGGING
#endif

#define DASH_LOG_ERROR(...) ::dash::internal::logging::log("ERROR", __FILE__, __LINE__, __VA_ARGS__)
#define DASH_LOG_ERROR_VAR(context, var) \
  ::dash::internal::logging::log_var("ERROR", __FILE__, __LINE__, context, #var, (var))
#define DASH_LOG_WARN(...) ::dash::internal::logging::log("WARN", __FILE__, __LINE__, __VA_ARGS__)
#define DASH_LOG_WARN_VAR(context, var) \
  ::dash::internal::logging::log_var("WARN", __FILE__, __LINE__, context, #var, (var))

#if defined(DASH_ENABLE_LOGGING)
#define DASH_LOG_DEBUG(...) ::dash::internal::logging::log("DEBUG", __FILE__, __LINE__, __VA_ARGS__)
#define DASH_LOG_DEBUG_VAR(context, var) \
  ::dash::internal::logging::log_var("DEBUG", __FILE__, __LINE__, context, #var, (var))
#else
#define DASH_LOG_DEBUG(...) \
  do {                      \
  } while (0)
#define DASH_LOG_DEBUG_VAR(context, var) dash__unused(var)
#endif

#if defined(DASH_ENABLE_TRACE_LOGGING)
#define DASH_LOG_TRACE(...) ::dash::internal::logging::log("TRACE", __FILE__, __LINE__, __VA_ARGS__)
#define DASH_LOG_TRACE_VAR(context, var) \
  ::dash::internal::logging::log_var("TRACE", __FILE__, __LINE__, context, #var, (var))
#else
#define DASH_LOG_TRACE(...) \
  do {                      \
  } while (0)
#define DASH_LOG_TRACE_VAR(context, var) dash__unused(var)
#endif

namespace dash {
namespace internal {
namespace logging {

// The run-time switch: on unless switched off.
inline std::atomic<bool>& enabled_switch() {
  static std::atomic<bool> on{true};
  return on;
}
inline bool log_enabled() { return enabled_switch().load(std::memory_order_relaxed); }
inline void enable_log() { enabled_switch().store(true, std::memory_order_relaxed); }
inline void disable_log() { enabled_switch().store(false, std::memory_order_relaxed); }

// Writes "[ unit <id> <level> ] <file's base name>:<line> | <context> |<message>\n" to
// std::clog in one write (unit id -1 before dash::init). Local.
void write_line(const char* level, const char* file, int line, const std::string& context,
                const std::string& message);

template <class V, class = void>
struct has_ostream_operator : std::false_type {};
template <class V>
struct has_ostream_operator<
    V, std::void_t<decltype(std::declval<std::ostream&>() << std::declval<const V&>())>>
    : std::true_type {};

// Writes v with its operator<<, or a range without one (std::vector, std::array, ...) as
// "[a, b, c]", as DASH's log prints containers.
template <class V>
void write_value(std::ostream& os, const V& v) {
  if constexpr (has_ostream_operator<V>::value) {
    os << v;
  } else {
    os << '[';
    bool first = true;
    for (const auto& x : v) {
      os << (first ? "" : ", ");
      write_value(os, x);
      first = false;
    }
    os << ']';
  }
}

template <class Context, class... Values>
void log(const char* level, const char* file, int line, const Context& context,
         const Values&... values) {
  if (!log_enabled()) return;
  std::ostringstream text;
  text << context;
  std::ostringstream message;
  ((message << ' ', write_value(message, values)), ...);
  write_line(level, file, line, text.str(), message.str());
}

template <class Context, class Value>
void log_var(const char* level, const char* file, int line, const Context& context,
             const char* name, const Value& value) {
  log(level, file, line, context, std::string(name) + ":", value);
}

}  // namespace logging
}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__LOGGING_H_
