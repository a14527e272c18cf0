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

#include <functional>
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

// The operation of a Future made from DASH's callables: get() completes it
// and returns the result; test(&result) returns true and sets result once
// it has completed (without it: complete at the first test); destroy()
// runs when the future goes.
template <class T>
class CallableState : public FutureState<T> {
 public:
  CallableState(std::function<T()> get, std::function<bool(T*)> test, std::function<void()> destroy)
      : get_(std::move(get)), test_(std::move(test)), destroy_(std::move(destroy)) {}
  ~CallableState() override {
    if (destroy_) destroy_();
  }
  // Without a test callable, as in DASH: completes the operation (get) and says true.
  bool test() override {
    if (ready_) return true;
    if (!test_) {
      result_ = get_();
      ready_ = true;
      return true;
    }
    ready_ = test_(&result_);
    return ready_;
  }
  T wait() override {
    if (!ready_) {
      result_ = get_();
      ready_ = true;
    }
    return result_;
  }

 private:
  std::function<T()> get_;
  std::function<bool(T*)> test_;
  std::function<void()> destroy_;
  bool ready_ = false;
  T result_{};
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
  // DASH's form: an operation given as callables. get() completes it and
  // returns the result; test(T* result), if given, polls it (true and
  // *result set once done; without it test() completes the operation, as
  // get(), and says true); destroy(), if given, runs when the future goes.
  explicit Future(std::function<T()> get, std::function<bool(T*)> test = nullptr,
                  std::function<void()> destroy = nullptr)
      : state_(std::make_unique<internal::CallableState<T>>(std::move(get), std::move(test),
                                                            std::move(destroy))) {}
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

// A future without a result (DASH's Future<void>): the same calls, get()
// and wait() return nothing.
template <>
class Future<void> {
 public:
  Future() = default;
  // A future of a running operation given as callables (see Future<T>):
  // wait() completes it; test(), if given, polls it.
  explicit Future(std::function<void()> wait, std::function<bool()> test = nullptr,
                  std::function<void()> destroy = nullptr)
      : inner_(
            [w = std::move(wait)] {
              w();
              return true;
            },
            test ? std::function<bool(bool*)>(
                       [t = std::move(test)](bool* done) { return *done = t(); })
                 : std::function<bool(bool*)>(nullptr),
            std::move(destroy)) {}
  // A future that is already complete.
  static Future ready() {
    Future f;
    f.inner_ = Future<bool>(true);
    return f;
  }
  bool valid() const { return inner_.valid(); }
  bool test() { return inner_.test(); }
  void wait() { inner_.wait(); }
  void get() { inner_.wait(); }

 private:
  Future<bool> inner_;
};

}  // namespace dash

#endif  // DASH__FUTURE_H_
