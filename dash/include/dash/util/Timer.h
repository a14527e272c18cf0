// dash::util::Timer<mode>: DASH's benchmark timers. A timer starts when it is made; times come
// back in microseconds (double). Timestamps (timestamp_t) are ticks of the timer's source:
//
// | Timer<TimeMeasure::Clock>   | clock_gettime of the selected POSIX clock; a tick is 1 ns  |
// | Timer<TimeMeasure::Counter> | the CPU's time-stamp counter (x86-64 rdtsc; elsewhere the  |
// |                             | Clock's clock); a tick is a cycle, FrequencyScaling() of   |
// |                             | them a microsecond (measured by Calibrate)                 |
//
// | call                   | gives                                                       |
// |------------------------|-------------------------------------------------------------|
// | Timer t; t.Elapsed()   | microseconds since t was made                               |
// | t.Start()              | the timestamp t was made at                                 |
// | Now()                  | the current timestamp                                       |
// | ElapsedSince(ts)       | microseconds since timestamp ts                             |
// | FromInterval(ts0, ts1) | microseconds from ts0 to ts1                                |
// | Calibrate(mode = 0)    | Clock: selects the clock: 0 CLOCK_MONOTONIC (the default),  |
// |                        | 1 CLOCK_MONOTONIC_RAW, 2 CLOCK_REALTIME, 3 CLOCK_PROCESS_   |
// |                        | CPUTIME_ID, 4 CLOCK_THREAD_CPUTIME_ID; another mode or a    |
// |                        | clock the system lacks throws InvalidArgument. Counter:     |
// |                        | measures the ticks per microsecond against CLOCK_MONOTONIC  |
// |                        | (about 20 ms; done on first use when not called; the mode   |
// |                        | is not used)                                                |
// | TimerName()            | the source: "CLOCK_MONOTONIC", "RDTSC", ...                 |
// | FrequencyScaling()     | ticks per microsecond (1000 for Clock)                      |
// | TimestampInfinity(),   | a timestamp later / earlier than any (for min/max folds)   |
// | TimestampNegInfinity() |                                                             |
//
// Every call is local. The selected clock is one per process; select it before timing, not
// while other threads time.
#ifndef DASH__UTIL__TIMER_H_
#define DASH__UTIL__TIMER_H_

#include <dash/util/TimeMeasure.h>

#include <atomic>
#include <ctime>
#include <limits>

namespace dash {
namespace util {
namespace internal {

// The Clock timers' clock (a clockid_t), CLOCK_MONOTONIC until Calibrate selects another.
inline std::atomic<int> timer_clock_id{CLOCK_MONOTONIC};

inline unsigned long long clock_ticks() {
  timespec ts;
  clock_gettime(clockid_t(timer_clock_id.load(std::memory_order_relaxed)), &ts);
  return static_cast<unsigned long long>(ts.tv_sec) * 1000000000ull +
         static_cast<unsigned long long>(ts.tv_nsec);
}

unsigned long long counter_ticks();
// Counter ticks per microsecond; measures them on first use.
double counter_ticks_per_us();
void calibrate_counter();
void select_clock(unsigned int mode);
const char* clock_name();
const char* counter_name();

}  // namespace internal

template <TimeMeasure::MeasureMode Mode>
class Timer {
 public:
  using timestamp_t = unsigned long long;
  using timestamp = timestamp_t;

  Timer() : start_(Now()) {}

  double Elapsed() const { return FromInterval(start_, Now()); }
  const timestamp_t& Start() const { return start_; }

  static timestamp_t Now() {
    if constexpr (Mode == TimeMeasure::Clock)
      return internal::clock_ticks();
    else
      return internal::counter_ticks();
  }
  static double ElapsedSince(timestamp_t since) { return FromInterval(since, Now()); }
  // Microseconds from `start` to `end` (negative if end is earlier).
  static double FromInterval(const timestamp_t& start, const timestamp_t& end) {
    const double ticks = end >= start ? double(end - start) : -double(start - end);
    return ticks / FrequencyScaling();
  }
  static double FromInterval(const double& start, const double& end) {
    return (end - start) / FrequencyScaling();
  }
  static void Calibrate(unsigned int mode = 0) {
    if constexpr (Mode == TimeMeasure::Clock)
      internal::select_clock(mode);
    else
      internal::calibrate_counter();
  }
  static const char* TimerName() {
    return Mode == TimeMeasure::Clock ? internal::clock_name() : internal::counter_name();
  }
  static double FrequencyScaling() {
    if constexpr (Mode == TimeMeasure::Clock)
      return 1000.0;
    else
      return internal::counter_ticks_per_us();
  }
  static timestamp_t TimestampInfinity() { return std::numeric_limits<timestamp_t>::max(); }
  static timestamp_t TimestampNegInfinity() { return 0; }

 private:
  timestamp_t start_;
};

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__TIMER_H_
