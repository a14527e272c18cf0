// Command-line parsing shared by the examples: options of the form
// `--name value` or `--name=value`, flags without a value, and a UsageError
// carrying the message a program prints before exiting with status 2.
#ifndef EXAMPLES__COMMON__ARGS_H_
#define EXAMPLES__COMMON__ARGS_H_

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

namespace examples {

// A bad command line: what() is the message.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Calls f(), a collective call that fails on every unit alike (it agrees on
// failures, as dash::bp::load does), and turns its failure into
// UsageError("<option>: <what>"): unit 0 reports it once and every unit
// ends with exit status 2. Collective.
template <class F>
void agreed_or_usage_error(const std::string& option, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    throw UsageError(option + ": " + e.what());
  }
}

// How Option words a flag given a value and an option missing its value, after the option's
// name: by default "--x: takes no value" and "--x: missing value".
struct Wording {
  const char* takes_no_value = ": takes no value";
  const char* missing_value = ": missing value";
};

// One option of the command line, handed to the callback of for_each_option.
class Option {
 public:
  Option(std::string argument, std::string name, bool has_value, std::string value,
         const Wording& wording, int argc, char** argv, int* i)
      : argument_(std::move(argument)),
        name_(std::move(name)),
        has_value_(has_value),
        value_(std::move(value)),
        wording_(wording),
        argc_(argc),
        argv_(argv),
        i_(i) {}
  // The argument as given, e.g. "--seed=7".
  const std::string& argument() const { return argument_; }
  // The argument before any '=', e.g. "--seed".
  const std::string& name() const { return name_; }
  // For a flag: a UsageError if it was given a value.
  void flag() const {
    if (has_value_) throw UsageError(name_ + wording_.takes_no_value);
  }
  // The option's value (after '=' or the next argument).
  std::string value() {
    if (has_value_) return value_;
    if (*i_ + 1 >= argc_) throw UsageError(name_ + wording_.missing_value);
    return argv_[++*i_];
  }

 private:
  std::string argument_;
  std::string name_;
  bool has_value_;
  std::string value_;
  Wording wording_;
  int argc_;
  char** argv_;
  int* i_;
};

// Calls on_option(Option&) for every argument after the program name; an argument starting
// with "--" and holding '=' is split there into name and value. `wording` words the errors of
// Option::flag() and Option::value().
template <class F>
void for_each_option(int argc, char** argv, const Wording& wording, F&& on_option) {
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    std::string name = argument;
    std::string value;
    bool has_value = false;
    const std::size_t eq = argument.find('=');
    if (argument.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = argument.substr(eq + 1);
      name = argument.substr(0, eq);
      has_value = true;
    }
    Option option(argument, name, has_value, value, wording, argc, argv, &i);
    on_option(option);
  }
}

// The same with the default wording.
template <class F>
void for_each_option(int argc, char** argv, F&& on_option) {
  for_each_option(argc, argv, Wording(), on_option);
}

// For a program whose only option is --help (or -h): whether it was given; a UsageError naming
// any other argument.
inline bool help_only(int argc, char** argv) {
  bool help = false;
  for_each_option(argc, argv, [&](Option& opt) {
    if (opt.name() == "--help" || opt.name() == "-h") {
      opt.flag();
      help = true;
    } else if (opt.name().rfind("-", 0) == 0) {
      throw UsageError("unknown option '" + opt.name() + "' (try --help)");
    } else {
      throw UsageError("unexpected argument '" + opt.name() + "' (try --help)");
    }
  });
  return help;
}

// A decimal integer in [min, max], or a UsageError naming the option.
inline long long parse_integer(const std::string& option, const std::string& text, long long min,
                               long long max) {
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < min || value > max)
    throw UsageError(option + ": expected an integer in [" + std::to_string(min) + ", " +
                     std::to_string(max) + "], got '" + text + "'");
  return value;
}

// A finite decimal number, or a UsageError naming the option.
inline double parse_real(const std::string& option, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || value != value)
    throw UsageError(option + ": expected a number, got '" + text + "'");
  return value;
}

// A byte count such as 64, 4K or 2M (K = 1024) in [min, max], or a UsageError.
inline std::size_t parse_bytes(const std::string& option, const std::string& text, std::size_t min,
                               std::size_t max) {
  std::string digits = text;
  std::size_t scale = 1;
  if (!digits.empty()) {
    const char unit = digits.back();
    if (unit == 'k' || unit == 'K') scale = std::size_t(1) << 10;
    if (unit == 'm' || unit == 'M') scale = std::size_t(1) << 20;
    if (unit == 'g' || unit == 'G') scale = std::size_t(1) << 30;
    if (scale != 1) digits.pop_back();
  }
  errno = 0;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(digits.c_str(), &end, 10);
  const bool ok = !digits.empty() && digits[0] != '-' && *end == '\0' && errno != ERANGE &&
                  value <= max / scale && value * scale >= min;
  if (!ok)
    throw UsageError(option + ": expected a byte count in [" + std::to_string(min) + ", " +
                     std::to_string(max) + "] such as 64, 4K or 2M, got '" + text + "'");
  return std::size_t(value) * scale;
}

// The S of a --mem-fraction value "1/S" or a decimal 1/S (1 <= S <= 2^20); a UsageError
// otherwise.
inline int parse_mem_fraction(const std::string& text) {
  double f = 0;
  std::size_t used = 0;
  try {
    if (text.rfind("1/", 0) == 0) {
      const long long s = std::stoll(text.substr(2), &used);
      if (used + 2 == text.size() && s >= 1 && s <= (1 << 20)) return int(s);
    } else {
      f = std::stod(text, &used);
      if (used == text.size() && f > 0 && f <= 1) {
        const double s = std::round(1 / f);
        if (std::fabs(s * f - 1) < 1e-9 && s <= (1 << 20)) return int(s);
      }
    }
  } catch (const std::exception&) {
  }
  throw UsageError("--mem-fraction: expected 1/S for an integer S >= 1 (e.g. 1/8 or 0.125), got '" +
                   text + "'");
}

}  // namespace examples

#endif  // EXAMPLES__COMMON__ARGS_H_
