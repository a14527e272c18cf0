// dash::Future<T>: the result of an asynchronous operation (copy_async).
// wait() completes the operation and returns its result; waiting again
// returns the same result. Futures move but do not copy; destroying one whose
// operation is still running waits for it, so no transfer is left dangling.
//
// | call       | cost                                       |
// |------------|--------------------------------------------|
// | test()     | local: polls once, never blocks            |
// | wait/get() | blocks until the operation has completed   |
#ifndef DASH__FUTURE_H_
#define DASH__FUTURE_H_

#include <dash/Exception.h>

#include <memory>
#include <optional>
#include <utility>

namespace dash {

namespace internal {

// What a Future waits for.
template <class T>
class FutureState {
 public:
  virtual ~FutureState() = default;
  // True if the operation has completed. Never blocks.
  virtual bool test() = 0;
  // Completes the operation and returns its result.
  virtual T wait() = 0;
};

}  // namespace internal

template <class T>
class Future {
 public:
  // A future without an operation: valid() is false.
  Future() = default;
  // A future that is ready with `value`.
  explicit Future(T value) : value_(std::move(value)) {}
  // A future of a running operation.
  explicit Future(std::unique_ptr<internal::FutureState<T>> state) : state_(std::move(state)) {}
  Future(const Future&) = delete;
  Future& operator=(const Future&) = delete;
  Future(Future&& other) noexcept = default;
  // Waits for this future's own operation first.
  Future& operator=(Future&& other) noexcept {
    if (this != &other) {
      finish_quietly();
      state_ = std::move(other.state_);
      value_ = std::move(other.value_);
      other.value_.reset();
    }
    return *this;
  }
  ~Future() { finish_quietly(); }

  // True if the future has a result or a running operation.
  bool valid() const { return state_ != nullptr || value_.has_value(); }
  // True once the operation has completed (its result is then kept).
  // Throws dash::exception::InvalidArgument if !valid().
  bool test() {
    if (value_) return true;
    require_valid("dash::Future::test");
    if (!state_->test()) return false;
    value_ = state_->wait();
    state_.reset();
    return true;
  }
  // Completes the operation and returns its result; safe to call again.
  // Throws dash::exception::InvalidArgument if !valid().
  T wait() {
    if (!value_) {
      require_valid("dash::Future::wait");
      value_ = state_->wait();
      state_.reset();
    }
    return *value_;
  }
  T get() { return wait(); }

 private:
  void require_valid(const char* who) const {
    if (!valid())
      throw exception::InvalidArgument(std::string(who) + ": the future has no operation");
  }
  // Completes a running operation without letting an exception escape a
  // destructor (the operation's error is lost only then).
  void finish_quietly() noexcept {
    if (!state_) return;
    try {
      state_->wait();
    } catch (...) {
    }
    state_.reset();
  }

  std::unique_ptr<internal::FutureState<T>> state_;
  std::optional<T> value_;
};

}  // namespace dash

#endif  // DASH__FUTURE_H_
