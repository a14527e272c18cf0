// How one segment of a copy moves, and the two sets of running transfers:
// HandleBuffer (blocking dash::copy) and TransferState (dash::copy_async).
//
// start_transfer(local, gptr, nbytes, layout, transfers):
//   if transfers defers local copies (copy_async)
//      and nbytes >= the copy engine's threshold
//      and gptr is reached by load/store (own memory, same node):
//        add the memcpy to transfers' CopyBatch   (run by the worker thread)
//   else
//        dart_get_handle / dart_put_handle         (same node: memcpy at once;
//                                                   else non-blocking RMA)
// A copy_async's batch is handed to the worker once every transfer has been
// started; wait() completes the batch (copying it itself if the worker has
// not started it, else blocking until the worker is done) and the RMA handles.
#ifndef DASH__ALGORITHM__INTERNAL__TRANSFERS_H_
#define DASH__ALGORITHM__INTERNAL__TRANSFERS_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Future.h>
#include <dash/internal/CopyEngine.h>
#include <dash/internal/DartType.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

namespace dash {
namespace internal {

// Layout of one transfer: contiguous on both sides (block == 0), or runs of
// `block` bytes that start every global_stride bytes in the global memory
// and every buffer_stride bytes in the local buffer (a stride equal to
// block: that side is contiguous).
struct TransferLayout {
  std::size_t block = 0;          // bytes; 0 = contiguous on both sides
  std::size_t global_stride = 0;  // bytes
  std::size_t buffer_stride = 0;  // bytes
};

// Handles of the transfers of one blocking copy: up to 32 inline (no heap
// allocation for the common case), more on the heap. Contiguous, as
// dart_waitall wants.
class HandleBuffer {
 public:
  static constexpr bool kDefersLocalCopies = false;
  HandleBuffer() = default;
  HandleBuffer(const HandleBuffer&) = delete;
  HandleBuffer& operator=(const HandleBuffer&) = delete;
  ~HandleBuffer() {
    if (size_ > 0) dart_waitall(data(), size_);
  }
  void push_back(dart_handle_t h) {
    if (size_ < kInline && heap_.empty()) {
      inline_[size_++] = h;
      return;
    }
    if (heap_.empty()) heap_.assign(inline_, inline_ + size_);
    heap_.push_back(h);
    ++size_;
  }
  dart_handle_t* data() { return heap_.empty() ? inline_ : heap_.data(); }
  std::size_t size() const { return size_; }
  // Completes every transfer. Local.
  void wait(const char* who) {
    if (size_ == 0) return;
    dart_ret_t ret = dart_waitall(data(), size_);
    size_ = 0;
    heap_.clear();
    check_dart(ret, who);
  }

 private:
  static constexpr std::size_t kInline = 32;
  dart_handle_t inline_[kInline];
  std::vector<dart_handle_t> heap_;
  std::size_t size_ = 0;
};

// The running transfers of one copy_async and the result it yields: RMA
// handles plus the batch of memcpy jobs for the copy engine.
template <class R>
class TransferState : public FutureState<R> {
 public:
  static constexpr bool kDefersLocalCopies = true;
  TransferState() : threshold_(CopyEngine::instance().threshold_bytes()) {}
  // Completes everything (the batch finishes in its own destructor).
  ~TransferState() override {
    if (!handles_.empty()) dart_waitall(handles_.data(), handles_.size());
  }

  // ---- filled by start_transfer, before start() ----
  void push_back(dart_handle_t h) { handles_.push_back(h); }
  // Load/store segments of at least this many bytes go to the engine.
  std::size_t local_copy_threshold() const { return threshold_; }
  void add_local_copy(const CopyJob& job) { local_copies_.add(job); }
  // Hands the local copies to the worker; the future then yields `result`.
  void start(R result) {
    result_ = result;
    local_copies_.start();
  }

  bool test() override {
    if (!handles_.empty()) {
      int32_t done = 0;
      check_dart(dart_testall(handles_.data(), handles_.size(), &done), "dash::Future::test");
      if (!done) return false;
      handles_.clear();
    }
    return local_copies_.done();
  }
  R wait() override {
    local_copies_.finish();  // first: the RMA may progress meanwhile
    if (!handles_.empty()) {
      dart_ret_t ret = dart_waitall(handles_.data(), handles_.size());
      handles_.clear();
      check_dart(ret, "dash::Future::wait");
    }
    return result_;
  }

 private:
  std::vector<dart_handle_t> handles_;
  CopyBatch local_copies_;
  std::size_t threshold_;
  R result_{};
};

// True for a transfer set that takes load/store copies for the copy engine
// (TransferState); any other container of handles (HandleBuffer, a vector)
// gets DART handles only.
template <class Transfers, class = void>
struct defers_local_copies : std::false_type {};
template <class Transfers>
struct defers_local_copies<Transfers, std::void_t<decltype(Transfers::kDefersLocalCopies)>>
    : std::bool_constant<Transfers::kDefersLocalCopies> {};

// Starts one transfer of nbytes between the local buffer at `local` (laid out
// as `layout`) and the global bytes at g: Get = global to local. Appends its
// handle to `transfers`, or (copy_async, load/store target, at least the
// engine's threshold) adds it to the transfers' local copies.
template <bool Get, class Transfers>
void start_transfer(const void* local, dart_gptr_t g, std::size_t nbytes, TransferLayout layout,
                    Transfers& transfers) {
  void* buf = const_cast<void*>(local);
  if constexpr (defers_local_copies<Transfers>::value) {
    if (nbytes >= transfers.local_copy_threshold()) {
      void* addr = nullptr;
      check_dart(dart_gptr_getaddr_shared(g, &addr), "dash::copy_async: dart_gptr_getaddr_shared");
      if (addr != nullptr) {
        CopyJob job;
        job.dst = static_cast<char*>(Get ? buf : addr);
        job.src = static_cast<const char*>(Get ? addr : buf);
        job.nbytes = nbytes;
        job.block = layout.block;
        job.src_stride = Get ? layout.global_stride : layout.buffer_stride;
        job.dst_stride = Get ? layout.buffer_stride : layout.global_stride;
        transfers.add_local_copy(job);
        return;
      }
    }
  }
  // A side whose runs follow each other is plain bytes, the other a strided type.
  std::optional<OwnedDartType> global_strided, buffer_strided;
  dart_datatype_t global_type = DART_TYPE_BYTE, buffer_type = DART_TYPE_BYTE;
  if (layout.block != 0 && layout.global_stride != layout.block)
    global_type = global_strided.emplace(StridedBytes{layout.global_stride, layout.block}).get();
  if (layout.block != 0 && layout.buffer_stride != layout.block)
    buffer_type = buffer_strided.emplace(StridedBytes{layout.buffer_stride, layout.block}).get();
  dart_handle_t h = DART_HANDLE_NULL;
  if constexpr (Get) {
    check_dart(dart_get_handle(buf, g, nbytes, global_type, buffer_type, &h),
               "dash::copy: dart_get_handle");
  } else {
    check_dart(dart_put_handle(g, buf, nbytes, buffer_type, global_type, &h),
               "dash::copy: dart_put_handle");
  }
  if (h != DART_HANDLE_NULL) transfers.push_back(h);
}

// Runs start(state) for a copy_async, then hands the local copies to the
// engine. On an exception the state is destroyed, which completes what was
// started before it is rethrown.
template <class R, class Start>
Future<R> async_transfers(Start start) {
  auto state = std::make_unique<TransferState<R>>();
  R result = start(*state);
  state->start(result);
  return Future<R>(std::move(state));
}

}  // namespace internal
}  // namespace dash

#endif  // DASH__ALGORITHM__INTERNAL__TRANSFERS_H_
