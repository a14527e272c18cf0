// DASH's log and assertion macros (dash/internal/Logging.h, Assert.h, StackTrace.h): the
// parts that need the runtime or the C library.
#include <cxxabi.h>
#include <dash/Init.h>
#include <dash/internal/Assert.h>
#include <dash/internal/Logging.h>
#include <dash/internal/StackTrace.h>
#include <execinfo.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

namespace dash {
namespace internal {
namespace {

long calling_unit() { return dash::is_initialized() ? long(dash::myid().id) : -1L; }

}  // namespace

std::string unit_tag() { return "[ Unit " + std::to_string(calling_unit()) + " ] "; }

namespace logging {

void write_line(const char* level, const char* file, int line, const std::string& context,
                const std::string& message) {
  const char* slash = std::strrchr(file, '/');
  std::ostringstream text;
  text << "[ unit " << calling_unit() << ' ' << level << " ] " << (slash ? slash + 1 : file) << ':'
       << line << " | " << context << " |" << message << '\n';
  std::clog << text.str() << std::flush;
}

}  // namespace logging
}  // namespace internal
}  // namespace dash

// backtrace_symbols gives "object(mangled+offset) [address]": the mangled name is demangled
// where it is one; otherwise the line is printed as it is.
void dash__print_stacktrace(std::FILE* out, unsigned int max_frames) {
  if (out == nullptr || max_frames == 0) return;
  std::unique_ptr<void*[]> frames(new void*[max_frames + 1]);
  const int count = backtrace(frames.get(), int(max_frames) + 1);
  std::unique_ptr<char*, void (*)(void*)> symbols(backtrace_symbols(frames.get(), count),
                                                  std::free);
  if (!symbols) {
    std::fprintf(out, "dash__print_stacktrace: backtrace_symbols failed\n");
    return;
  }
  for (int i = 1; i < count; ++i) {  // frame 0 is this function
    std::string line = symbols.get()[i];
    const auto open = line.find('('), plus = line.find('+', open == std::string::npos ? 0 : open);
    std::string shown = line;
    if (open != std::string::npos && plus != std::string::npos && plus > open + 1) {
      const std::string mangled = line.substr(open + 1, plus - open - 1);
      int status = 0;
      std::unique_ptr<char, void (*)(void*)> name(
          abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
      shown = (status == 0 && name ? std::string(name.get()) : mangled) + " (" +
              line.substr(0, open) + ")";
    }
    std::fprintf(out, "#%d %s\n", i - 1, shown.c_str());
  }
}
