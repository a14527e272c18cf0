// The copy engine's worker thread, queue and environment flags (see
// dash/internal/CopyEngine.h for the protocol).
#include <dash/Exception.h>
#include <dash/internal/CopyEngine.h>
#include <dash/internal/Flags.h>
#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <system_error>

namespace dash {
namespace internal {

namespace {

// Number of CPUs the calling thread may run on (a new thread inherits it).
int affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return CPU_COUNT(&set);
}

// DASH_COPY_ASYNC_THREAD: whether copy_async uses the worker thread (boolean or auto: its
// words are 0, 1, off, on, false, true, no, yes, auto).
bool thread_wanted() {
  const int index = internal::read_flag_choice(internal::Flag::copy_async_thread, "dash::init");
  // A worker bound to the caller's only core would just take turns with it.
  if (index == 8) return affinity_cpus() > 1;
  return index % 2 == 1;
}

// DASH_COPY_ASYNC_THRESHOLD: bytes in [0, 1T], with an optional K, M, G or T suffix.
std::size_t threshold() {
  return std::size_t(
      internal::read_flag_number(internal::Flag::copy_async_threshold, "dash::init"));
}

}  // namespace

// ---- jobs and batches ----------------------------------------------------------------------

void CopyJob::run() const {
  if (block == 0) {
    std::memmove(dst, src, nbytes);
    return;
  }
  const char* s = src;
  char* d = dst;
  std::size_t left = nbytes;
  for (; left >= block; left -= block, s += src_stride, d += dst_stride) std::memcpy(d, s, block);
  if (left > 0) std::memcpy(d, s, left);
}

void CopyBatch::add(const CopyJob& job) {
  if (job.nbytes == 0) return;
  // Chunks of whole runs (at least one run).
  const std::size_t runs = job.block == 0 ? 0 : std::max<std::size_t>(1, kChunkBytes / job.block);
  const std::size_t chunk = job.block == 0 ? kChunkBytes : runs * job.block;
  const std::size_t src_step = job.block == 0 ? chunk : runs * job.src_stride;
  const std::size_t dst_step = job.block == 0 ? chunk : runs * job.dst_stride;
  CopyJob part = job;
  for (std::size_t off = 0; off < job.nbytes; off += chunk) {
    part.nbytes = std::min(chunk, job.nbytes - off);
    jobs_.push_back(part);
    if (job.nbytes - off > chunk) {
      part.src += src_step;
      part.dst += dst_step;
    }
  }
}

bool CopyBatch::run_next() {
  const std::size_t n = jobs_.size();
  if (next_.load(std::memory_order_relaxed) >= n) return false;
  const std::size_t j = next_.fetch_add(1, std::memory_order_relaxed);
  if (j >= n) return false;
  jobs_[j].run();
  done_.fetch_add(1, std::memory_order_release);
  return true;
}

void CopyBatch::start() {
  if (!jobs_.empty()) attached_ = CopyEngine::instance().enqueue(*this);
}

void CopyBatch::finish() {
  if (attached_) {
    CopyEngine::instance().finish(*this);
    attached_ = false;
  }
  while (run_next()) {  // never handed to the worker (engine off, no thread, exception)
  }
}

// ---- the engine ----------------------------------------------------------------------------

CopyEngine& CopyEngine::instance() {
  static CopyEngine engine;
  return engine;
}

void CopyEngine::configure_from_environment() {
  const bool wanted = thread_wanted();
  const std::size_t bytes = threshold();
  set_threshold_bytes(wanted ? bytes : kOff);
}

bool CopyEngine::enqueue(CopyBatch& batch) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!worker_.joinable()) {
    stop_ = false;
    try {
      worker_ = std::thread([this] { run(); });
    } catch (const std::system_error&) {
      return false;  // no thread: the caller's finish() copies everything
    }
  }
  batch.queue_next_ = nullptr;
  batch.queued_ = true;
  if (tail_ != nullptr) {
    tail_->queue_next_ = &batch;
  } else {
    head_ = &batch;
  }
  tail_ = &batch;
  work_.notify_one();
  return true;
}

void CopyEngine::finish(CopyBatch& batch) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (batch.queued_) {  // not started: unlink (the queue is short); the caller runs it alone
    CopyBatch* prev = nullptr;
    for (CopyBatch* b = head_; b != &batch; prev = b, b = b->queue_next_) {
    }
    (prev != nullptr ? prev->queue_next_ : head_) = batch.queue_next_;
    if (tail_ == &batch) tail_ = prev;
    batch.queued_ = false;
    return;
  }
  if (current_ != &batch) return;  // the worker is done with it
  lock.unlock();
  while (batch.run_next()) {  // help with the chunks the worker has not claimed
  }
  lock.lock();
  released_.wait(lock, [&] { return current_ != &batch; });
}

void CopyEngine::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stop_ || head_ != nullptr; });
    if (head_ == nullptr) return;  // stopped, nothing left
    CopyBatch* batch = head_;
    head_ = batch->queue_next_;
    if (head_ == nullptr) tail_ = nullptr;
    batch->queued_ = false;
    current_ = batch;
    lock.unlock();
    while (batch->run_next()) {
    }
    lock.lock();
    current_ = nullptr;
    released_.notify_all();
  }
}

void CopyEngine::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!worker_.joinable()) return;
    stop_ = true;
    work_.notify_one();
  }
  worker_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  worker_ = std::thread();
  stop_ = false;
}

}  // namespace internal
}  // namespace dash
