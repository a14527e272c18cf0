// ScopedEnv: sets (or unsets) an environment variable for one scope and restores what it was,
// for tests of environment flags. Not thread-safe (setenv); use on the main thread only.
#ifndef TESTS__SUPPORT__SCOPED_ENV_H_
#define TESTS__SUPPORT__SCOPED_ENV_H_

#include <cstdlib>
#include <string>

namespace dash_test {

class ScopedEnv {
 public:
  // value nullptr: unset the variable for the scope.
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ScopedEnv(const char* name, const std::string& value) : ScopedEnv(name, value.c_str()) {}
  ~ScopedEnv() {
    if (had_) {
      setenv(name_.c_str(), old_.c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  bool had_ = false;
  std::string old_;
};

}  // namespace dash_test

#endif  // TESTS__SUPPORT__SCOPED_ENV_H_
