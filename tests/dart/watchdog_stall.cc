// The program the watchdog tests run (DART_WATCHDOG): the units listed in STALL stay away for
// SECONDS (they sleep: standing for a unit stuck in user code) while the others wait in one
// DART call; then every unit completes the call, so with DART_WATCHDOG_ACTION=report the run
// ends normally and the report is on stderr. Usage:
//   dart_watchdog_stall <call> <stall units, comma-separated> <seconds>
// with <call> one of barrier, allreduce, memalloc, ibarrier_wait (dart_ibarrier + dart_wait),
// recv (unit 0 receives from the first stalling unit), team_barrier (a barrier on the team of
// units 1..N-1), get (unit 0 reads from the first stalling unit), exit (none: the others wait in
// dart_exit), poll (the others poll with dart_improbe under dart_poll_watch, as dash::bp's
// loops do, until the first stalling unit's message arrives). Exit code non-zero on a failed
// DART call.
#include <dart/dart.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0;

// Registered with dart_at_abort: says on stderr that it ran (async-signal-safe: write only).
char abort_line[64];
void say_abort_hook_ran() {
  const ssize_t ignored = write(2, abort_line, std::strlen(abort_line));
  (void)ignored;
}

#define CHECK_OK(expr)                                                                 \
  do {                                                                                 \
    dart_ret_t ret_ = (expr);                                                          \
    if (ret_ != DART_OK) {                                                             \
      ++failures;                                                                      \
      std::fprintf(stderr, "dart_watchdog_stall: %s returned %d\n", #expr, (int)ret_); \
    }                                                                                  \
  } while (0)

std::vector<int> ParseUnits(const char* text) {
  std::vector<int> units;
  std::string list(text);
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    units.push_back(std::atoi(list.substr(start, comma - start).c_str()));
    start = comma + 1;
  }
  return units;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <call> <stall units> <seconds>\n", argv[0]);
    return 2;
  }
  const std::string call = argv[1];
  const std::vector<int> stall_units = ParseUnits(argv[2]);
  const int seconds = std::atoi(argv[3]);
  if (dart_init(&argc, &argv) != DART_OK) return 1;
  dart_global_unit_t me;
  size_t size = 0;
  dart_myid(&me);
  dart_size(&size);
  std::snprintf(abort_line, sizeof abort_line, "[unit %d] dart_at_abort hook ran\n", me.id);
  CHECK_OK(dart_at_abort(say_abort_hook_ran));
  CHECK_OK(dart_at_abort(say_abort_hook_ran));  // registered once, runs once
  bool stalls = false;
  for (int u : stall_units) stalls = stalls || u == me.id;
  dart_team_t team = DART_TEAM_ALL;
  if (call == "team_barrier") {
    CHECK_OK(dart_team_split(DART_TEAM_ALL, me.id == 0 ? -1 : 1, me.id, &team));
  }
  if (stalls) sleep(static_cast<unsigned>(seconds));
  if (call == "barrier") {
    CHECK_OK(dart_barrier(DART_TEAM_ALL));
  } else if (call == "allreduce") {
    long in = 1, out = 0;
    CHECK_OK(dart_allreduce(&in, &out, 1, DART_TYPE_LONG, DART_OP_SUM, DART_TEAM_ALL));
    if (out != static_cast<long>(size)) ++failures;
  } else if (call == "memalloc") {
    dart_gptr_t gptr;
    CHECK_OK(dart_team_memalloc_aligned(DART_TEAM_ALL, 16, DART_TYPE_INT, &gptr));
    CHECK_OK(dart_team_memfree(gptr));
  } else if (call == "ibarrier_wait") {
    dart_handle_t handle = DART_HANDLE_NULL;
    CHECK_OK(dart_ibarrier(DART_TEAM_ALL, &handle));
    CHECK_OK(dart_wait(&handle));
  } else if (call == "recv") {
    const int from = stall_units.front();
    int value = me.id;
    if (me.id == from) CHECK_OK(dart_send(&value, 1, DART_TYPE_INT, 7, DART_GLOBAL_UNIT_ID(0)));
    if (me.id == 0) {
      CHECK_OK(dart_recv(&value, 1, DART_TYPE_INT, 7, DART_GLOBAL_UNIT_ID(from)));
      if (value != from) ++failures;
    }
  } else if (call == "team_barrier") {
    if (team != DART_TEAM_NULL) CHECK_OK(dart_barrier(team));
  } else if (call == "get") {
    // unit 0 reads from the first stalling unit's pool (DART_SHARED_WINDOWS=0: by MPI RMA)
    if (me.id == 0) {
      dart_gptr_t gptr = DART_GPTR_NULL;
      gptr.teamid = DART_TEAM_ALL;
      gptr.segid = DART_SEGMENT_LOCAL;
      gptr.unitid = stall_units.front();
      gptr.addr_or_offs.offset = 0;
      int value = 0;
      CHECK_OK(dart_get_blocking(&value, gptr, 1, DART_TYPE_INT, DART_TYPE_INT));
    }
    CHECK_OK(dart_barrier(DART_TEAM_ALL));
  } else if (call == "poll") {
    const int from = stall_units.front();
    int value = me.id;
    if (me.id == from) {
      for (size_t u = 0; u < size; ++u)
        if (int(u) != from)
          CHECK_OK(dart_send(&value, 1, DART_TYPE_INT, 9, DART_GLOBAL_UNIT_ID(u)));
    } else {
      dart_poll_watch_t watch;
      dart_poll_watch_begin(&watch, "poll_loop", DART_TEAM_ALL);
      for (int32_t found = 0; !found;) {
        dart_message_t message;
        dart_team_unit_t source;
        size_t nbytes = 0;
        CHECK_OK(dart_improbe(9, DART_TEAM_UNIT_ID(from), DART_TEAM_ALL, &found, &message, &source,
                              &nbytes));
        if (found) CHECK_OK(dart_mrecv(&value, nbytes, &message));
        dart_poll_watch(&watch, found);
        if (!found) usleep(1000);
      }
      if (value != from) ++failures;
    }
  } else if (call == "exit") {
    // nothing: the others wait for the sleepers in dart_exit
  } else {
    std::fprintf(stderr, "dart_watchdog_stall: unknown call %s\n", call.c_str());
    ++failures;
  }
  if (team != DART_TEAM_ALL && team != DART_TEAM_NULL) CHECK_OK(dart_team_destroy(&team));
  CHECK_OK(dart_exit());
  return failures == 0 ? 0 : 1;
}
