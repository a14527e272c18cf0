// A progress line for the examples that can run for minutes: unit 0 tells on stderr how far the
// work is, never on stdout, whose last line scripts read. Where stderr is a terminal the line is
// rewritten in place (at most 4 times a second) and erased when the work is done; with
// --progress and stderr not a terminal, one line per phase and per step at most every 2 s.
// Otherwise nothing. Under mpirun or srun a unit's stderr is never a terminal (OpenMPI gives
// ranks a pty for stdout only, MPICH pipes both), so there it takes --progress; a program run
// without a launcher on a terminal shows it by itself. Local: unit 0's own counter and clock,
// no MPI call.
//
//   examples::Progress progress(kProgram, o.progress);
//   for (int k = 0; k < K; ++k) { ...; progress.step("sweep", k + 1, K); }   // done/total
//   progress.phase("writing 4 GiB");  // one long call: the elapsed time, from a ticker thread
//   progress.done();
#ifndef EXAMPLES__COMMON__PROGRESS_H_
#define EXAMPLES__COMMON__PROGRESS_H_

#include <libdash.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace examples {

class Progress {
 public:
  // Shows progress on unit 0 when stderr is a terminal or `asked` (--progress).
  Progress(const char* program, bool asked)
      : program_(program),
        terminal_(isatty(STDERR_FILENO) == 1),
        on_(dash::myid().id == 0 && (asked || terminal_)),
        start_(Clock::now()),
        last_(start_) {}
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress() { done(); }

  // `done` of `total` steps of `what` are finished (shown at most every 0.25 s on a terminal,
  // 2 s in a log, and when the last one is). Cheap: a clock read.
  void step(const char* what, std::uint64_t done, std::uint64_t total) {
    if (!on_) return;
    stop_ticker();
    const Clock::time_point now = Clock::now();
    if (done < total && seconds(last_, now) < (terminal_ ? 0.25 : 2.0)) return;
    last_ = now;
    char text[256];
    std::snprintf(text, sizeof text, "%s %llu/%llu (%.0f %%)", what, (unsigned long long)done,
                  (unsigned long long)total,
                  total > 0 ? 100.0 * double(done) / double(total) : 100.0);
    show(text, seconds(start_, now));
  }

  // A phase that is one long call: on a terminal its name and the time it has taken so far,
  // refreshed by a thread of its own until the next phase, step or done(); in a log one line.
  void phase(const std::string& what) {
    if (!on_) return;
    stop_ticker();
    const Clock::time_point begun = Clock::now();
    show(what.c_str(), seconds(start_, begun));
    if (!terminal_) return;
    stop_ = false;
    ticker_ = std::thread([this, what] {
      std::unique_lock<std::mutex> lock(mutex_);
      while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; }))
        show(what.c_str(), seconds(start_, Clock::now()));
    });
  }

  // The work is finished: erases the line on a terminal. Called by the destructor too.
  void done() {
    stop_ticker();
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
    std::fflush(stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;

  static double seconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
  }

  void show(const char* what, double elapsed) {
    if (terminal_) {
      std::fprintf(stderr, "\r%s: %s, %.1f s\033[K", program_, what, elapsed);  // \033[K: erase
      shown_ = true;                                                            // the old rest
    } else {
      std::fprintf(stderr, "%s: %s, %.1f s\n", program_, what, elapsed);
    }
    std::fflush(stderr);
  }

  void stop_ticker() {
    if (!ticker_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    ticker_.join();
  }

  const char* program_;
  bool terminal_, on_, shown_ = false;
  Clock::time_point start_, last_;
  std::thread ticker_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
};

}  // namespace examples

#endif  // EXAMPLES__COMMON__PROGRESS_H_
