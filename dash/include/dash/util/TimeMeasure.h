// dash::util::TimeMeasure: what a dash::util::Timer counts (DASH's names). Clock: time from a
// POSIX clock; Counter: the CPU's cycle counter.
#ifndef DASH__UTIL__TIME_MEASURE_H_
#define DASH__UTIL__TIME_MEASURE_H_

namespace dash {
namespace util {

class TimeMeasure {
 public:
  enum MeasureMode { Counter = 0, Clock = 1 };
  enum MeasureDomain { Cycles = 0, Time = 1 };
};

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__TIME_MEASURE_H_
