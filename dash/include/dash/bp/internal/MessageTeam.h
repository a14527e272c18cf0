// The block layer's state on a dash::Team (a Team::Extension): a duplicate
// of the team's communicator for the library's own messages (exchange,
// iexchange, reduce), so that their tags never meet the program's messages
// on the team, and the count of iexchange calls, whose messages alternate
// between two tags. Not public.
#ifndef DASH__BP__INTERNAL__MESSAGE_TEAM_H_
#define DASH__BP__INTERNAL__MESSAGE_TEAM_H_

#include <dart/dart_team_group.h>
#include <dart/dart_types.h>
#include <dash/Exception.h>
#include <dash/Team.h>

#include <cstdint>

namespace dash {
namespace bp {
namespace internal {

struct BlockTeamState : Team::Extension {
  dart_team_t messages = DART_TEAM_NULL;  // the duplicate, made at first use
  std::uint64_t tagged_calls = 0;         // iexchange calls on the team so far
  void end(Team&) override {
    if (messages != DART_TEAM_NULL)
      check_dart(dart_team_destroy(&messages), "dash::bp: freeing a team's message communicator");
    messages = DART_TEAM_NULL;
  }
};

// The duplicate of team's communicator that masters on it send on; made by
// the first call, which must be collective (a master's first exchange,
// iexchange or reduce is), freed with the team. Local afterwards.
inline dart_team_t message_team(Team& team) {
  if (team.is_null()) throw exception::InvalidArgument("dash::bp: a master on the Null team");
  BlockTeamState& state = team.extension<BlockTeamState>();
  if (state.messages == DART_TEAM_NULL)
    check_dart(dart_team_clone(team.dart_id(), &state.messages),
               "dash::bp: duplicating the team's communicator");
  return state.messages;
}

// Counts an iexchange call on team and returns how many came before it:
// the same on every unit, which all make these calls in the same order.
// Local.
inline std::uint64_t count_tagged_call(Team& team) {
  return team.extension<BlockTeamState>().tagged_calls++;
}

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__MESSAGE_TEAM_H_
