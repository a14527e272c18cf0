// The copy engine: one background worker thread per process that runs the
// same-node memcpy parts of dash::copy_async while the caller computes.
//
// Vocabulary: a *job* is one memcpy of at most kChunkBytes (contiguous, or
// scattered/gathered block by block on one side); a *batch* is the jobs of
// one copy_async. Every job is claimed through an atomic ticket, by the
// worker or by a caller waiting for the batch, so it runs exactly once.
//
//   enqueue(batch):  append batch to the queue; start the worker if needed
//   worker:          loop: pop a batch; current = batch
//                            while (j = batch.next++) < batch.size: run job j; batch.done++
//                          current = none; notify the waiters
//   finish(batch):   lock; if batch is queued (worker has not started it):
//                            unlink it; the caller runs every job alone
//                          else if current == batch:
//                            unlock; help: run the jobs nobody has claimed yet
//                            lock; wait (blocked) until current != batch
// After finish() no thread refers to the batch, so its memory may go. A batch
// the worker has not started is never shared with it: copy_async + wait()
// right away costs one memcpy like dash::copy, not a two-thread copy.
//
// The worker makes no MPI or DART call: it only copies bytes (MPI may run at
// MPI_THREAD_SINGLE). It is started lazily and stopped by dash::finalize().
//
// | call                     | cost                                            |
// |--------------------------|-------------------------------------------------|
// | CopyBatch::add           | local; no allocation beyond the job vector      |
// | CopyBatch::start         | local; one mutex, starts the thread once        |
// | CopyBatch::done          | local; one atomic load                          |
// | CopyBatch::finish        | local; copies what nobody has started, waits    |
#ifndef DASH__INTERNAL__COPY_ENGINE_H_
#define DASH__INTERNAL__COPY_ENGINE_H_

#include <dash/internal/Flags.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace dash {
namespace internal {

// One memcpy of nbytes. With block > 0 the bytes move in runs of `block`
// bytes, which start every src_stride bytes in the source and every
// dst_stride bytes in the destination (a stride equal to block: that side
// is contiguous).
struct CopyJob {
  char* dst = nullptr;
  const char* src = nullptr;
  std::size_t nbytes = 0;
  std::size_t block = 0;  // bytes per run; 0 = contiguous on both sides
  std::size_t src_stride = 0;
  std::size_t dst_stride = 0;
  // Copies the bytes. Local.
  void run() const;
};

// The jobs of one copy_async. Not movable: the engine refers to it by address
// between start and finish.
class CopyBatch {
 public:
  // Largest job: a waiting caller can help with the part of a big copy the
  // worker has not started.
  static constexpr std::size_t kChunkBytes = std::size_t(256) << 10;

  CopyBatch() = default;
  CopyBatch(const CopyBatch&) = delete;
  CopyBatch& operator=(const CopyBatch&) = delete;
  // Finishes the batch (runs what is left).
  ~CopyBatch() { finish(); }

  // Adds a copy, split into jobs of at most kChunkBytes. Only before start.
  void add(const CopyJob& job);
  // True if there is nothing to copy.
  bool empty() const { return jobs_.empty(); }
  // Hands the batch to the worker, or leaves it for finish() if the engine's
  // thread cannot start. Local.
  void start();
  // True once every job has run. Never blocks.
  bool done() const { return done_.load(std::memory_order_acquire) == jobs_.size(); }
  // Runs the jobs nobody has started, waits for those the worker runs, and
  // detaches the batch from the engine. Idempotent.
  void finish();

 private:
  friend class CopyEngine;
  // Claims and runs one job; false if none is left to claim.
  bool run_next();

  std::vector<CopyJob> jobs_;
  std::atomic<std::size_t> next_{0};  // ticket of the next unclaimed job
  std::atomic<std::size_t> done_{0};  // jobs completed
  bool attached_ = false;             // started and not yet finished (caller's thread only)
  // Engine-owned, under its mutex:
  CopyBatch* queue_next_ = nullptr;
  bool queued_ = false;
};

// The process's worker thread and its queue of batches.
class CopyEngine {
 public:
  // Default size below which a segment is copied at once by the caller:
  // handing a job to the thread costs microseconds (DASH_COPY_ASYNC_THRESHOLD's default).
  static constexpr std::size_t kDefaultThresholdBytes =
      std::size_t(flag_spec(Flag::copy_async_threshold).fallback);
  // Threshold meaning "never defer": the engine is off.
  static constexpr std::size_t kOff = ~std::size_t(0);

  // The process's engine.
  static CopyEngine& instance();

  // Segments of copy_async of at least this many bytes that the caller
  // reaches by load/store are copied by the worker; kOff if the engine is
  // off. Local, one atomic load.
  std::size_t threshold_bytes() const { return threshold_.load(std::memory_order_relaxed); }
  // Sets the threshold (kOff turns the engine off). For dash::init and tests.
  void set_threshold_bytes(std::size_t bytes) {
    threshold_.store(bytes, std::memory_order_relaxed);
  }
  // Reads DASH_COPY_ASYNC_THREAD and DASH_COPY_ASYNC_THRESHOLD and sets the
  // threshold. Throws dash::exception::InvalidArgument naming a malformed
  // flag. Local; called by dash::init.
  void configure_from_environment();
  // Stops and joins the worker after it has run every queued batch. The next
  // enqueue starts it again. Local; called by dash::finalize.
  void shutdown();

  ~CopyEngine() { shutdown(); }

 private:
  friend class CopyBatch;
  CopyEngine() = default;
  // Queues the batch for the worker; false if the thread cannot start.
  bool enqueue(CopyBatch& batch);
  // The engine's part of CopyBatch::finish (see the protocol above).
  void finish(CopyBatch& batch);
  // The worker's loop.
  void run();

  std::atomic<std::size_t> threshold_{kDefaultThresholdBytes};
  std::mutex mutex_;
  std::condition_variable work_;      // queue non-empty or stop
  std::condition_variable released_;  // current_ changed
  CopyBatch* head_ = nullptr;
  CopyBatch* tail_ = nullptr;
  CopyBatch* current_ = nullptr;  // the batch the worker is running
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__COPY_ENGINE_H_
