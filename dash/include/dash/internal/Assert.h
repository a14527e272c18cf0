// DASH's throw and assertion macros, for programs written for DASH (dash/Exception.h includes
// this header, as DASH's does). The library itself throws with messages naming the call
// (dash/Exception.h); these macros are for user code.
//
// | macro                                  | does                                         |
// |----------------------------------------|----------------------------------------------|
// | DASH_THROW(type, stream)               | throws type("[ Unit <id> ] " << stream)      |
// | DASH_ASSERT_ALWAYS(expr)               | throws dash::exception::AssertionFailed      |
// | DASH_ASSERT_MSG_ALWAYS(expr, msg)      | unless expr holds (file:line in the message) |
// | DASH_ASSERT(expr)                      | the same, when DASH_ENABLE_ASSERTIONS is     |
// | DASH_ASSERT_MSG(expr, msg)             | defined (as in DASH, off by default: expr is |
// |                                        | then compiled but not evaluated)             |
// | DASH_ASSERT_RETURNS(expr, value)       | evaluates expr always; with assertions on,   |
// |                                        | throws AssertionFailed unless it == value    |
// | DASH_ASSERT_EQ / _NE(a, b, msg)        | a == b / a != b, else AssertionFailed        |
// | DASH_ASSERT_RANGE(lo, v, hi, msg)      | lo <= v <= hi, else OutOfRange               |
// | DASH_ASSERT_GT / _GE / _LT / _LE       | v > / >= / < / <= bound, else OutOfRange     |
// |   (v, bound, msg)                      |                                              |
// | DASH_STACK_TRACE()                     | dash__print_stacktrace() to stderr           |
//
// With assertions off, the comparing forms evaluate their operands once and check nothing, as
// DASH's do. Everything is local: an assertion fails on the unit that checks it.
#ifndef DASH__INTERNAL__ASSERT_H_
#define DASH__INTERNAL__ASSERT_H_

#include <dash/internal/Macro.h>
#include <dash/internal/StackTrace.h>

#include <sstream>
#include <string>

namespace dash {
namespace internal {
// "[ Unit <id> ] " for the calling unit ("[ Unit -1 ] " before dash::init). Local.
std::string unit_tag();
}  // namespace internal
}  // namespace dash

// clang-format off
#define DASH_THROW(excep_type, msg_stream)                                                 \
  do {                                                                                     \
    ::std::ostringstream dash_throw_os_;                                                   \
    dash_throw_os_ << ::dash::internal::unit_tag() << msg_stream;                          \
    throw excep_type(dash_throw_os_.str());                                                \
  } while (0)

#define DASH_STACK_TRACE() dash__print_stacktrace()

#define DASH_ASSERT_MSG_ALWAYS(expr, msg)                                                  \
  do {                                                                                     \
    if (!(expr))                                                                           \
      DASH_THROW(::dash::exception::AssertionFailed,                                       \
                 "Assertion failed: " << #expr << ": " << msg                              \
                 << " " << __FILE__ << ":" << __LINE__);                                   \
  } while (0)

#define DASH_ASSERT_ALWAYS(expr)                                                           \
  do {                                                                                     \
    if (!(expr))                                                                           \
      DASH_THROW(::dash::exception::AssertionFailed,                                       \
                 "Assertion failed: " << #expr << " " << __FILE__ << ":" << __LINE__);     \
  } while (0)

// Checks `cond`, else throws `type` with "Assertion <text> failed: msg file:line".
#define DASH__ASSERT_COMPARE_(type, cond, text, msg)                                       \
  do {                                                                                     \
    if (!(cond))                                                                           \
      DASH_THROW(type, "Assertion " << text << " failed: " << msg                          \
                 << " " << __FILE__ << ":" << __LINE__);                                   \
  } while (0)

#if defined(DASH_ENABLE_ASSERTIONS)

#define DASH_ASSERT(expr) DASH_ASSERT_ALWAYS(expr)
#define DASH_ASSERT_MSG(expr, msg) DASH_ASSERT_MSG_ALWAYS(expr, msg)
#define DASH_ASSERT_RETURNS(expr, exp_value)                                               \
  do {                                                                                     \
    if ((expr) != (exp_value))                                                             \
      DASH_THROW(::dash::exception::AssertionFailed,                                       \
                 "Assertion failed: " << #expr << " did not return " << (exp_value)        \
                 << " " << __FILE__ << ":" << __LINE__);                                   \
  } while (0)
#define DASH_ASSERT_EQ(a, b, msg)                                                          \
  DASH__ASSERT_COMPARE_(::dash::exception::AssertionFailed, (a) == (b),                    \
                        (a) << " == " << (b), msg)
#define DASH_ASSERT_NE(a, b, msg)                                                          \
  DASH__ASSERT_COMPARE_(::dash::exception::AssertionFailed, (a) != (b),                    \
                        (a) << " != " << (b), msg)
#define DASH_ASSERT_RANGE(lower, value, upper, msg)                                        \
  DASH__ASSERT_COMPARE_(::dash::exception::OutOfRange,                                     \
                        !((value) < (lower)) && !((upper) < (value)),                      \
                        (lower) << " <= " << (value) << " <= " << (upper), msg)
#define DASH_ASSERT_GT(value, bound, msg)                                                  \
  DASH__ASSERT_COMPARE_(::dash::exception::OutOfRange, (bound) < (value),                  \
                        (value) << " > " << (bound), msg)
#define DASH_ASSERT_GE(value, bound, msg)                                                  \
  DASH__ASSERT_COMPARE_(::dash::exception::OutOfRange, !((value) < (bound)),               \
                        (value) << " >= " << (bound), msg)
#define DASH_ASSERT_LT(value, bound, msg)                                                  \
  DASH__ASSERT_COMPARE_(::dash::exception::OutOfRange, (value) < (bound),                  \
                        (value) << " < " << (bound), msg)
#define DASH_ASSERT_LE(value, bound, msg)                                                  \
  DASH__ASSERT_COMPARE_(::dash::exception::OutOfRange, !((bound) < (value)),               \
                        (value) << " <= " << (bound), msg)

#else  // assertions off: compiled, not checked

#define DASH_ASSERT(expr) do { if (false) { dash__unused(expr); } } while (0)
#define DASH_ASSERT_MSG(expr, msg) DASH_ASSERT(expr)
#define DASH_ASSERT_RETURNS(expr, exp_value)                                               \
  do { dash__unused(expr); dash__unused(exp_value); } while (0)
#define DASH_ASSERT_EQ(a, b, msg) do { dash__unused(a); dash__unused(b); } while (0)
#define DASH_ASSERT_NE(a, b, msg) DASH_ASSERT_EQ(a, b, msg)
#define DASH_ASSERT_RANGE(lower, value, upper, msg)                                        \
  do { dash__unused(lower); dash__unused(value); dash__unused(upper); } while (0)
#define DASH_ASSERT_GT(value, bound, msg) DASH_ASSERT_EQ(value, bound, msg)
#define DASH_ASSERT_GE(value, bound, msg) DASH_ASSERT_EQ(value, bound, msg)
#define DASH_ASSERT_LT(value, bound, msg) DASH_ASSERT_EQ(value, bound, msg)
#define DASH_ASSERT_LE(value, bound, msg) DASH_ASSERT_EQ(value, bound, msg)

#endif  // DASH_ENABLE_ASSERTIONS
// clang-format on

#endif  // DASH__INTERNAL__ASSERT_H_
