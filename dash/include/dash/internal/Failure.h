// dash::internal::Failure: how a collective operation makes every unit of its
// team fail together when one unit fails.
//
// A unit that catches an exception inside a collective operation keeps it
// (capture) and goes on taking part in the operation's communication, which
// carries the news to the other units: a failure bit in a size exchange, an
// error state in a termination protocol, a message in a reduction round, or,
// where the operation has no communication of its own to carry it, agree()
// below. At the end every unit throws: the failing unit its own exception,
// the others dash::exception::RemoteFailure naming the failing unit (the
// lowest, if several failed) and its message.
//
// | call                      | cost                                          |
// |---------------------------|-----------------------------------------------|
// | capture / remote / raise  | local                                         |
// | agree                     | collective: one allreduce of an int; on       |
// |                           | failure two broadcasts of the message         |
// | broadcast_failure_message | collective: two broadcasts                    |
#ifndef DASH__INTERNAL__FAILURE_H_
#define DASH__INTERNAL__FAILURE_H_

#include <dart/dart_types.h>

#include <exception>
#include <string>

namespace dash {
namespace internal {

// What the calling unit knows about a failure in one collective operation.
class Failure {
 public:
  // Keeps the exception being handled as this unit's own failure (the first
  // one kept wins). Call inside a catch block. Local.
  void capture() noexcept {
    if (!own_) own_ = std::current_exception();
  }
  // The same, with where it happened (e.g. "block 3 in round 2"), which the
  // message to the other units starts with. Local.
  void capture(std::string context) {
    if (own_) return;
    own_ = std::current_exception();
    context_ = std::move(context);
  }
  // Keeps e (if not null) as this unit's own failure, unless one is kept. Local.
  void capture(std::exception_ptr e, std::string context = std::string()) {
    if (own_ || !e) return;
    own_ = std::move(e);
    context_ = std::move(context);
  }
  // Records that `unit` failed with `message`; of several, the lowest unit
  // is kept. Local.
  void remote(int unit, std::string message) {
    if (remote_unit_ >= 0 && remote_unit_ <= unit) return;
    remote_unit_ = unit;
    remote_message_ = std::move(message);
  }
  // Whether this unit failed itself. Local.
  bool own() const noexcept { return own_ != nullptr; }
  // Whether this unit knows of any failure, its own or another unit's. Local.
  bool any() const noexcept { return own() || remote_unit_ >= 0; }
  const std::exception_ptr& own_exception() const noexcept { return own_; }
  // What this unit's own failure tells the others: "<context>: <what()>". Local.
  std::string own_message() const;
  int remote_unit() const noexcept { return remote_unit_; }
  const std::string& remote_message() const noexcept { return remote_message_; }

  // Throws what this unit knows: its own exception, else a RemoteFailure of
  // `operation` naming the remote unit; returns if it knows of none. Local.
  void raise(const char* operation) const;

 private:
  std::exception_ptr own_;
  std::string context_;
  int remote_unit_ = -1;
  std::string remote_message_;
};

// The text an exception carries to the other units: its what(), or a fixed
// phrase for exceptions not derived from std::exception. Local.
std::string failure_message(const std::exception_ptr& e);

// Broadcasts `message` of unit `root` (at most 64 KiB of it) to every unit
// of `team` and returns it on every unit. Collective (two broadcasts).
std::string broadcast_failure_message(const std::string& message, int root, dart_team_t team,
                                      const char* operation);

// Every unit of `team` learns whether any unit failed: one allreduce (the
// minimum of the failing units' ids); if one did, its message is broadcast
// and every unit throws (the failing units their own exceptions, the others
// RemoteFailure naming the lowest failing unit). A remote failure that a
// unit learnt of on the way (failure.remote) does not count as its own: the
// unit where it happened reports it. Collective.
void agree(const Failure& failure, dart_team_t team, const char* operation);

}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__FAILURE_H_
