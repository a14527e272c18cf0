// What a piece of test code writes to a standard stream (std::cout, std::clog, ...), as text.
#ifndef DASH_TESTS_SUPPORT_CAPTURED_STREAM_H_
#define DASH_TESTS_SUPPORT_CAPTURED_STREAM_H_

#include <ostream>
#include <sstream>
#include <string>

namespace dash_test {

// Runs `write` with `stream` redirected into a string and returns what it wrote; the stream's
// buffer is restored afterwards, also when `write` throws. Local.
template <class Write>
std::string captured(std::ostream& stream, Write write) {
  std::ostringstream out;
  struct Restore {
    std::ostream& stream;
    std::streambuf* old;
    ~Restore() { stream.rdbuf(old); }
  } restore{stream, stream.rdbuf(out.rdbuf())};
  write();
  return out.str();
}

}  // namespace dash_test

#endif  // DASH_TESTS_SUPPORT_CAPTURED_STREAM_H_
