// Event traces of named program phases, under DASH's names: dash::util::TraceStore keeps, per
// context (a string), the list of states a unit entered with their start and end timestamps,
// and writes them as CSV lines; dash::util::Trace records into it. Recording is off unless
// TraceStore::on() is called with DASH_ENABLE_TRACE set (dash::util::Config, e.g. the
// environment variable DASH_ENABLE_TRACE=1); while off, every call returns at once.
//
//   dash::util::TraceStore::on();                  // records if DASH_ENABLE_TRACE is set
//   dash::util::Trace trace("sort");               // collective when recording
//   trace.enter_state("local");  ...  trace.exit_state("local");
//   dash::util::TraceStore::write("sort.csv");     // <DASH_TRACE_LOG_PATH>/u00003.sort.csv
//
// A line of write(): "-- [TRACE] <context>, <unit>, <start>, <end>, <state>", timestamps in
// the ticks of dash::util::Timer<Clock> since the Trace was made; unit 0 first writes a header
// line per context. The store is per unit and not thread-safe.
//
// | call                                        | cost                                  |
// |---------------------------------------------|---------------------------------------|
// | on, off, enabled, clear, add_context        | local                                 |
// | Trace(context) while recording              | collective over Team::All() (barrier) |
// | enter_state, exit_state                     | local (appends one record)            |
// | write(stream), write(file [, path])         | local (writes this unit's records)    |
#ifndef DASH__UTIL__TRACE_H_
#define DASH__UTIL__TRACE_H_

#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/util/Config.h>
#include <dash/util/Timer.h>

#include <fstream>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace dash {
namespace util {

class TraceStore {
 public:
  using state_t = std::string;
  using timer_t = Timer<TimeMeasure::Clock>;
  using timestamp_t = timer_t::timestamp_t;
  // One state a unit was in: entered at `start`, left at `end` (equal until it is left).
  struct state_timespan_t {
    timestamp_t start{};
    timestamp_t end{};
    state_t state;
  };
  using trace_events_t = std::vector<state_timespan_t>;

  // Starts recording if DASH_ENABLE_TRACE is set (true), else stops it; returns whether it
  // records now. Local.
  static bool on() { return store().enabled = tracing_configured(); }
  // Stops recording (the records stay). Local.
  static void off() { store().enabled = false; }
  // Whether records are taken. Local.
  static bool enabled() { return store().enabled; }
  // Drops every context and its records. Local.
  static void clear() { store().traces.clear(); }
  // Drops the records of `context` (the context stays). Local.
  static void clear(const std::string& context) { store().traces[context].clear(); }
  // Adds an empty context unless there is one. Local.
  static void add_context(const std::string& context) { store().traces[context]; }
  // The records of `context` (made empty if new), to append to. Local.
  static trace_events_t& context_trace(const std::string& context) {
    return store().traces[context];
  }

  // Writes the calling unit's records of every context to `out` as CSV lines, each context
  // after a header line on unit 0 (with print_header). Nothing unless DASH_ENABLE_TRACE is
  // set. Local.
  static void write(std::ostream& out, bool print_header = true) {
    if (!tracing_configured()) return;
    const int unit = static_cast<int>(Team::GlobalUnitID());
    std::ostringstream lines;
    for (const auto& [context, events] : store().traces) {
      if (print_header && unit == 0)
        lines << "-- [TRACE] " << std::setw(15) << "context"
              << "," << std::setw(5) << "unit"
              << "," << std::setw(15) << "start"
              << "," << std::setw(15) << "end"
              << "," << std::setw(12) << "state"
              << "\n";
      for (const auto& event : events)
        lines << "-- [TRACE] " << std::setw(15) << context << ", " << std::setw(5) << unit << ", "
              << std::setw(15) << event.start << ", " << std::setw(15) << event.end << ", "
              << std::setw(12) << event.state << "\n";
    }
    out << lines.str() << std::flush;
  }
  // Writes them to the file u<unit, 5 digits>.<filename> in the directory DASH_TRACE_LOG_PATH
  // (the current one if unset), under its subdirectory `path` if given. Nothing unless
  // DASH_ENABLE_TRACE is set; throws dash::exception::RuntimeError if the file cannot be
  // written. Local.
  static void write(const std::string& filename, const std::string& path = "") {
    if (!tracing_configured()) return;
    std::string dir = Config::is_set("DASH_TRACE_LOG_PATH")
                          ? Config::get<std::string>("DASH_TRACE_LOG_PATH")
                          : std::string(".");
    if (!path.empty()) dir += "/" + path;
    std::ostringstream name;
    name << dir << "/u" << std::setfill('0') << std::setw(5)
         << static_cast<int>(Team::GlobalUnitID()) << "." << filename;
    std::ofstream out(name.str());
    if (out) write(out);
    if (!out)
      dash::internal::throw_runtime_error("dash::util::TraceStore::write: cannot write '" +
                                          name.str() + "'");
  }

 private:
  struct Store {
    std::map<std::string, trace_events_t> traces;
    bool enabled = false;
  };
  static Store& store() {
    static Store s;
    return s;
  }
  static bool tracing_configured() { return Config::get<bool>("DASH_ENABLE_TRACE"); }
};

// Records the states of one context into the TraceStore, timed from its construction.
class Trace {
 public:
  using state_t = TraceStore::state_t;
  using timer_t = TraceStore::timer_t;
  using timestamp_t = TraceStore::timestamp_t;

  // The context "global". Collective over Team::All() while recording, else local.
  Trace() : Trace("global") {}
  // Adds `context` to the store and starts its clock after a barrier, so that every unit's
  // timestamps count from the same moment. Collective over Team::All() while recording, else
  // local.
  explicit Trace(std::string context) : context_(std::move(context)) {
    if (!TraceStore::enabled()) return;
    TraceStore::add_context(context_);
    dash::barrier();
    start_ = timer_t::Now();
  }

  // Appends `state`, entered now. Local; nothing while not recording.
  void enter_state(const state_t& state) {
    if (!TraceStore::enabled()) return;
    const timestamp_t now = timer_t::Now() - start_;
    TraceStore::context_trace(context_).push_back({now, now, state});
  }
  // Ends the state entered last, now. Local; nothing while not recording or before any
  // enter_state.
  void exit_state(const state_t& /*state*/) {
    if (!TraceStore::enabled()) return;
    auto& events = TraceStore::context_trace(context_);
    if (!events.empty()) events.back().end = timer_t::Now() - start_;
  }

 private:
  std::string context_;
  timestamp_t start_{};
};

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__TRACE_H_
