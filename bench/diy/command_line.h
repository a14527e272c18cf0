// bench/diy/command_line.h: the option parsing that the workloads beside DIY share (the
// ooc-reduce port and both hot potato programs). The standard library only.
#ifndef BENCH_DIY_COMMAND_LINE_H_
#define BENCH_DIY_COMMAND_LINE_H_

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace diy_bench {

// Whether argument `a` is option `name`, as "--name" or "--name=V". Local.
inline bool is_option(const std::string& a, const char* name) {
  return a == name || a.rfind(std::string(name) + "=", 0) == 0;
}

// The value of option `name` at argv[i] ("--name V" or "--name=V"); advances i. Exits with 2,
// naming `program`, if the value is missing. Local.
inline const char* option_value(const char* program, int argc, char** argv, int& i,
                                const char* name) {
  const std::size_t n = std::strlen(name);
  if (argv[i][n] == '=') return argv[i] + n + 1;
  if (i + 1 >= argc) {
    std::fprintf(stderr, "%s: %s needs a value\n", program, name);
    std::exit(2);
  }
  return argv[++i];
}

}  // namespace diy_bench

#endif  // BENCH_DIY_COMMAND_LINE_H_
