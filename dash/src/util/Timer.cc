// dash::util::Timer's sources (dash/util/Timer.h): the POSIX clock it reads and the cycle
// counter with its measured frequency.
#include <dash/Exception.h>
#include <dash/util/Timer.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define DASH__UTIL__TIMER_RDTSC 1
#endif

namespace dash {
namespace util {
namespace internal {
namespace {

struct ClockChoice {
  clockid_t id;
  const char* name;
};

// Calibrate's modes, in their order.
const ClockChoice kClocks[] = {
    {CLOCK_MONOTONIC, "CLOCK_MONOTONIC"},
    {CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW"},
    {CLOCK_REALTIME, "CLOCK_REALTIME"},
    {CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID"},
    {CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID"},
};
constexpr unsigned kNumClocks = sizeof kClocks / sizeof kClocks[0];

std::atomic<unsigned> selected_clock{0};
std::atomic<double> counter_frequency{0.0};  // ticks per microsecond; 0: not measured
std::once_flag counter_measured;

// Counts the counter's ticks over about 20 ms of CLOCK_MONOTONIC; the best of three rounds
// (the one least stretched by preemption between the two readings of each end).
double measure_counter() {
#if DASH__UTIL__TIMER_RDTSC
  double best = 0.0;
  for (int round = 0; round < 3; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    const unsigned long long c0 = __rdtsc();
    std::this_thread::sleep_for(std::chrono::milliseconds(7));
    const unsigned long long c1 = __rdtsc();
    const auto t1 = std::chrono::steady_clock::now();
    const double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
    const double f = double(c1 - c0) / us;
    if (f > best) best = f;
  }
  return best;
#else
  return 1000.0;  // the counter is the monotonic clock in ns
#endif
}

}  // namespace

unsigned long long counter_ticks() {
#if DASH__UTIL__TIMER_RDTSC
  return __rdtsc();
#else
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<unsigned long long>(ts.tv_sec) * 1000000000ull +
         static_cast<unsigned long long>(ts.tv_nsec);
#endif
}

void calibrate_counter() { counter_frequency.store(measure_counter()); }

double counter_ticks_per_us() {
  std::call_once(counter_measured, [] {
    if (counter_frequency.load() == 0.0) calibrate_counter();
  });
  return counter_frequency.load(std::memory_order_relaxed);
}

void select_clock(unsigned int mode) {
  if (mode >= kNumClocks)
    throw exception::InvalidArgument("dash::util::Timer<Clock>::Calibrate: mode " +
                                     std::to_string(mode) + " is not one of 0 ... " +
                                     std::to_string(kNumClocks - 1));
  timespec resolution;
  if (clock_getres(kClocks[mode].id, &resolution) != 0)
    throw exception::InvalidArgument(std::string("dash::util::Timer<Clock>::Calibrate: ") +
                                     kClocks[mode].name + " is not available here");
  selected_clock.store(mode);
  timer_clock_id.store(int(kClocks[mode].id));
}

const char* clock_name() { return kClocks[selected_clock.load()].name; }

const char* counter_name() {
#if DASH__UTIL__TIMER_RDTSC
  return "RDTSC";
#else
  return "CLOCK_MONOTONIC";
#endif
}

}  // namespace internal
}  // namespace util
}  // namespace dash
