// Failure agreement of the collective operations (dash/internal/Failure.h).
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/internal/Failure.h>

#include <climits>
#include <cstdint>
#include <string>

namespace dash {
namespace internal {

namespace {

// Longest failure message carried to other units, in bytes.
constexpr std::uint64_t kMaxMessageBytes = std::uint64_t(64) << 10;

}  // namespace

void Failure::raise(const char* operation) const {
  if (own_) std::rethrow_exception(own_);
  if (remote_unit_ >= 0) throw exception::RemoteFailure(operation, remote_unit_, remote_message_);
}

std::string Failure::own_message() const {
  const std::string what = failure_message(own_);
  return context_.empty() ? what : context_ + ": " + what;
}

std::string failure_message(const std::exception_ptr& e) {
  if (!e) return std::string();
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception not derived from std::exception";
  }
}

std::string broadcast_failure_message(const std::string& message, int root, dart_team_t team,
                                      const char* operation) {
  std::uint64_t length = message.size() < kMaxMessageBytes ? message.size() : kMaxMessageBytes;
  check_dart(dart_bcast(&length, sizeof(length), DART_TYPE_BYTE, DART_TEAM_UNIT_ID(root), team),
             operation);
  std::string text = message;
  text.resize(std::size_t(length));
  if (length > 0)
    check_dart(
        dart_bcast(&text[0], std::size_t(length), DART_TYPE_BYTE, DART_TEAM_UNIT_ID(root), team),
        operation);
  return text;
}

void agree(const Failure& failure, dart_team_t team, const char* operation) {
  dart_team_unit_t me;
  check_dart(dart_team_myid(team, &me), operation);
  const int mine = failure.own() ? me.id : INT_MAX;
  int lowest = INT_MAX;
  check_dart(dart_allreduce(&mine, &lowest, 1, DART_TYPE_INT, DART_OP_MIN, team), operation);
  if (lowest == INT_MAX) return;
  const std::string message = broadcast_failure_message(
      failure.own() ? failure.own_message() : std::string(), lowest, team, operation);
  if (failure.own()) std::rethrow_exception(failure.own_exception());
  throw exception::RemoteFailure(operation, lowest, message);
}

}  // namespace internal
}  // namespace dash
