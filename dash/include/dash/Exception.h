// Exceptions of the C++ layer. Every failing DART call surfaces as one of
// these, with a message naming the call and the DART error; an index outside
// a container's extents as OutOfRange (at() always; operator[], operator(),
// `local`, iterators and views when the program defines DASH_CHECK_BOUNDS,
// see dash/internal/BoundsCheck.h). DASH's throw, assertion and log macros
// for user code (DASH_THROW, DASH_ASSERT, ..., DASH_LOG_DEBUG) come with this
// header, as with DASH's: dash/internal/Assert.h, dash/internal/Logging.h.
#ifndef DASH__EXCEPTION_H_
#define DASH__EXCEPTION_H_

#include <dart/dart_types.h>

#include <stdexcept>
#include <string>

namespace dash {
namespace exception {

// A bad argument (DART_ERR_INVAL, DART_ERR_NOTFOUND).
class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// An index outside the extents of what it indexes: at() of a container, and
// with DASH_CHECK_BOUNDS defined every element access (a[i], m[i][j],
// m(i, j), .local[...], iterator dereference, views). what() names the call,
// the index and the extents, e.g. "dash::Array::operator[]: index 105 is
// outside [0, 100)" or "dash::Matrix::operator(): index (3, 12) is outside
// extents (10, 10)". Thrown on the unit that made the access only (the check
// is local). Also a std::out_of_range, so existing handlers catch it. DASH's
// DASH_ASSERT_RANGE, _GT, _GE, _LT and _LE throw it too.
class OutOfRange : public std::out_of_range {
 public:
  using std::out_of_range::out_of_range;
};

// The runtime is not initialised (DART_ERR_NOTINIT).
class NotInitialized : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Out of memory (DART_ERR_NOMEM).
class OutOfMemory : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Any other runtime failure (DART_ERR_OTHER: MPI reported an error).
class RuntimeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Another unit failed inside a collective operation that the calling unit
// took part in; thrown on every unit but the failing one (which rethrows its
// own exception). what() is "<operation>: unit <u> failed: <its message>".
class RemoteFailure : public RuntimeError {
 public:
  RemoteFailure(const std::string& operation, int unit, const std::string& message)
      : RuntimeError(operation + ": unit " + std::to_string(unit) + " failed: " + message),
        unit_(unit),
        message_(message) {}
  // The failing unit's id in the operation's team.
  int unit() const noexcept { return unit_; }
  // The failing unit's exception message (its what()).
  const std::string& message() const noexcept { return message_; }

 private:
  int unit_;
  std::string message_;
};

// A failed DASH_ASSERT... check in user code (dash/internal/Assert.h).
class AssertionFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An operation DASH offers and this library does not (DASH's name, for
// programs that throw or catch it).
class NotImplemented : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace exception

namespace internal {

// Throws the exception matching ret, naming call; does nothing for DART_OK.
// Local.
void throw_dart_error(dart_ret_t ret, const char* call);

// Throws exception::InvalidArgument with the message "<who>: <what>". Out of line and cold, so
// that a hot path checking its arguments keeps no string code (and no stack frame) of its own.
// Local.
[[noreturn, gnu::cold]] void throw_invalid_argument(const char* who, const char* what);

// Throws exception::RuntimeError(what): a failed operation (a file, a remote unit). Local.
[[noreturn, gnu::cold]] void throw_runtime_error(const std::string& what);

// Throws the exception for a DART call that failed with `ret` where `what` says what could not
// be done (e.g. "dash::bp::save: cannot create 'f'"): DART_ERR_NOMEM OutOfMemory,
// DART_ERR_NOTINIT NotInitialized, any other error RuntimeError (unlike check_dart, a refused
// file is not the caller's invalid argument). Local.
[[noreturn, gnu::cold]] void throw_dart_failure(dart_ret_t ret, const std::string& what);

// The text of errno value e, for messages ("No such file or directory"). Local.
std::string errno_text(int e);

}  // namespace internal

// The one mapping of DART errors to exceptions, for every layer and for
// programs that call DART themselves: DART_ERR_INVAL and DART_ERR_NOTFOUND
// throw InvalidArgument, DART_ERR_NOTINIT NotInitialized, DART_ERR_NOMEM
// OutOfMemory, any other error RuntimeError; the message names `call`.
// Nothing for DART_OK. Local.
inline void check_dart(dart_ret_t ret, const char* call) {
  if (ret != DART_OK) internal::throw_dart_error(ret, call);
}

namespace internal {
using dash::check_dart;
}  // namespace internal
}  // namespace dash

#include <dash/internal/Assert.h>
#include <dash/internal/Logging.h>

#endif  // DASH__EXCEPTION_H_
