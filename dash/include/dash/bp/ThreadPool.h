// dash::bp::ThreadPool: a fixed set of threads that run the iterations of a
// parallel loop (the blocks of a foreach) and then wait for the next loop.
//
//   dash::bp::ThreadPool pool(4);              // the caller plus 3 workers
//   pool.run(n, [&](std::size_t i) { work(i); });
//
// Iterations are handed out one at a time from a shared counter, so blocks
// of uneven cost balance themselves. The calling thread works too. The first
// exception thrown by an iteration is rethrown by run() after every started
// iteration has finished; iterations not yet started are skipped then.
// Workers make no MPI calls.
//
// | call  | cost                                                           |
// |-------|----------------------------------------------------------------|
// | run   | local: n calls of f spread over the threads, two wake-ups      |
#ifndef DASH__BP__THREAD_POOL_H_
#define DASH__BP__THREAD_POOL_H_

#include <dash/Exception.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

class ThreadPool {
 public:
  // A pool of `threads` threads in all, the caller of run() being one of
  // them (threads - 1 workers are started). Local.
  explicit ThreadPool(int threads) {
    if (threads < 1)
      throw exception::InvalidArgument("dash::bp::ThreadPool: " + std::to_string(threads) +
                                       " threads (at least 1)");
    for (int t = 1; t < threads; ++t) workers_.emplace_back([this] { work(); });
  }

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
  }

  // Threads in all, the caller included.
  int size() const { return int(workers_.size()) + 1; }

  // Calls f(i) for every i in [0, n), spread over the threads; returns when
  // all calls returned. Not reentrant. Local.
  template <class F>
  void run(std::size_t n, F&& f) {
    if (n == 0) return;
    if (workers_.empty() || n == 1) {
      for (std::size_t i = 0; i < n; ++i) f(i);
      return;
    }
    using Fn = std::remove_reference_t<F>;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &f;
      call_ = [](void* job, std::size_t i) { (*static_cast<Fn*>(job))(i); };
      n_ = n;
      next_.store(0, std::memory_order_relaxed);
      busy_ = workers_.size();
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    loop();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return busy_ == 0; });
    job_ = nullptr;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  // Takes iterations until none are left (or one failed).
  void loop() {
    for (;;) {
      const std::size_t i = next_.fetch_add(1, std::memory_order_relaxed);
      if (i >= n_) return;
      try {
        call_(job_, i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
        next_.store(n_, std::memory_order_relaxed);
      }
    }
  }

  void work() {
    std::size_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
      }
      loop();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        --busy_;
      }
      done_.notify_one();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  bool stop_ = false;
  std::size_t generation_ = 0, busy_ = 0, n_ = 0;
  std::atomic<std::size_t> next_{0};
  void* job_ = nullptr;
  void (*call_)(void*, std::size_t) = nullptr;
  std::exception_ptr error_;
};

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__THREAD_POOL_H_
